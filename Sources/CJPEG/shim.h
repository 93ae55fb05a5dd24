#pragma once
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

/// libjpeg reports a fault by calling its error handler, which must not return: the decoder below jumps back out
/// of the library with setjmp/longjmp, which Swift cannot do, and hands back the library's message instead.
struct cjpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
};

static void cjpeg_error_exit(j_common_ptr info) {
    struct cjpeg_error *error = (struct cjpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->escape, 1);
}

static void cjpeg_no_output(j_common_ptr info) { (void)info; }

/// Reads the JPEG in `data`: its size into `width` and `height`, and, when `rgb` is given, its pixels into it,
/// `width` × `height` of three bytes each (the size a first call without `rgb` gave). Returns 0, or 1 with
/// `message` filled.
static inline int cjpeg_read(const unsigned char *data, unsigned long size, int *width, int *height,
                             unsigned char *rgb, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct cjpeg_error error;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = cjpeg_error_exit;
    error.manager.output_message = cjpeg_no_output;
    if (setjmp(error.escape)) {
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_decompress(&info);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    if (!rgb) {
        *width = (int)info.image_width;
        *height = (int)info.image_height;
        jpeg_destroy_decompress(&info);
        return 0;
    }
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    if ((int)info.output_width != *width || (int)info.output_height != *height || info.output_components != 3) {
        snprintf(message, message_size, "its size changed while it was read");
        jpeg_destroy_decompress(&info);
        return 1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = rgb + (size_t)info.output_scanline * (size_t)*width * 3;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}
