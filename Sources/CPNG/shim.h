#pragma once
#include <png.h>

/// PNG_FORMAT_RGBA is a macro expression, which Swift does not import: this constant carries its value.
static const unsigned int CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
