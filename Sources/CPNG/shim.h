#pragma once
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// PNG_FORMAT_RGBA is a macro expression, which Swift does not import: this constant carries its value.
static const unsigned int CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
/// The same for PNG_ALL_FILTERS.
static const int CPNG_ALL_FILTERS = PNG_ALL_FILTERS;

/// Bytes that grow as libpng writes, kept from one image to the next so that a steady stream of frames reuses them.
/// `data` is released with free().
struct cpng_bytes {
    unsigned char *data;
    size_t count;
    size_t capacity;
};

/// What libpng's callbacks share with `cpng_encode_bgra`: where a fault jumps back to, its message, the output.
struct cpng_writing {
    jmp_buf escape;
    char message[256];
    struct cpng_bytes *out;
};

/// libpng reports a fault by calling this, which must not return: it jumps back out of the library with longjmp,
/// which Swift cannot do, keeping the library's message.
static void cpng_fault(png_structp png, png_const_charp message) {
    struct cpng_writing *writing = (struct cpng_writing *)png_get_error_ptr(png);
    snprintf(writing->message, sizeof writing->message, "%s", message);
    longjmp(writing->escape, 1);
}

static void cpng_no_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void cpng_append(png_structp png, png_bytep data, size_t size) {
    struct cpng_writing *writing = (struct cpng_writing *)png_get_io_ptr(png);
    struct cpng_bytes *out = writing->out;
    if (size > out->capacity - out->count) {
        size_t capacity = out->capacity * 2 > out->count + size ? out->capacity * 2 : out->count + size;
        unsigned char *grown = (unsigned char *)realloc(out->data, capacity);
        if (!grown) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->count, data, size);
    out->count += size;
}

static void cpng_no_flush(png_structp png) { (void)png; }

/// Encodes `height` rows of `width` pixels, 4 bytes each in the order B, G, R, A with straight alpha, `stride` bytes
/// apart, as an 8-bit RGBA PNG marked sRGB, into `out` (replacing what it held). `level` is zlib's (0–9) and
/// `filters` libpng's set of row filters (`PNG_FILTER_NONE` …, `PNG_ALL_FILTERS`). Returns 0, or 1 with `message`
/// filled.
static inline int cpng_encode_bgra(const void *pixels, unsigned width, unsigned height, size_t stride, int level,
                                   int filters, struct cpng_bytes *out, char *message, size_t message_size) {
    struct cpng_writing writing;
    writing.message[0] = 0;
    writing.out = out;
    out->count = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writing, cpng_fault, cpng_no_warning);
    if (!png) {
        snprintf(message, message_size, "out of memory");
        return 1;
    }
    // Set before the jump point and never changed after it, so it holds its value when the jump lands.
    png_infop info = png_create_info_struct(png);
    if (setjmp(writing.escape)) {
        snprintf(message, message_size, "%s", writing.message);
        png_destroy_write_struct(&png, &info);
        return 1;
    }
    if (!info) png_error(png, "out of memory");
    png_set_write_fn(png, &writing, cpng_append, cpng_no_flush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    png_set_bgr(png);
    for (unsigned y = 0; y < height; y++) png_write_row(png, (png_const_bytep)pixels + (size_t)y * stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}
