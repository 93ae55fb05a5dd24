#pragma once
#include <gif_lib.h>

/// Extension codes and record types are macros or plain enum values; these constants carry them into Swift.
static const int CGIF_GRAPHICS_EXT = GRAPHICS_EXT_FUNC_CODE;
