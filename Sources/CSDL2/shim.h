#pragma once
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
