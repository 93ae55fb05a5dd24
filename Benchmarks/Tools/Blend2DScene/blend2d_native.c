// The native half of blend2d_scene.py's --threads/--native mode: a scene held as Blend2D paths, drawn by one call
// per render through Blend2D's C API, so that the timed loop pays no Python call per drawing call and the context can
// be asynchronous (BLContextCreateInfo.threadCount). blend2d_scene.py compiles this file at run time together with the
// libblend2d.a that ships in the blend2d-python wheel (built with hidden visibility: a shared library linked from it
// exports none of Blend2D's functions, hence these wrappers) and drives it with ctypes.
//
// The declarations below are our own, written against Blend2D's public C API as the wheel builds it: blend2d/blend2d
// at commit c79b36d (March 2025, the commit blend2d-python pins; it reports version 0.12.0 and has the camelCase API
// from before v0.20's rename to snake_case), src/blend2d/{object,context,path,image,matrix,format}.h. Every Blend2D
// object (BLContextCore, BLPathCore, BLImageCore) is a 16-byte BLObjectDetail; enums are passed as 32-bit integers.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t BLResult;
typedef struct { uint64_t detail[2]; } BLObject;  // BLObjectCore and every *Core built on it
typedef struct { double x, y; } BLPoint;
typedef struct {
    uint32_t flags;
    uint32_t threadCount;        // 0: synchronous; N >= 1: asynchronous, N threads in all (the caller + N - 1 workers)
    uint32_t cpuFeatures;
    uint32_t commandQueueLimit;
    uint32_t savedStateLimit;
    int32_t pixelOriginX, pixelOriginY;
    uint32_t reserved[1];
} BLContextCreateInfo;
typedef struct {
    void *pixelData;
    intptr_t stride;
    int32_t w, h;
    uint32_t format, flags;
} BLImageData;

enum {
    BL_FORMAT_PRGB32 = 1,
    BL_COMP_OP_SRC_OVER = 0,
    BL_COMP_OP_SRC_COPY = 1,
    BL_TRANSFORM_OP_RESET = 0,
    BL_TRANSFORM_OP_ASSIGN = 1,
};
#define BL_CONTEXT_FLUSH_SYNC 0x80000000u

BLResult blImageInitAs(BLObject *self, int w, int h, uint32_t format);
BLResult blImageDestroy(BLObject *self);
BLResult blImageGetData(const BLObject *self, BLImageData *dataOut);
BLResult blImageWriteToFile(const BLObject *self, const char *fileName, const BLObject *codec);
BLResult blPathInit(BLObject *self);
BLResult blPathDestroy(BLObject *self);
BLResult blPathMoveTo(BLObject *self, double x0, double y0);
BLResult blPathLineTo(BLObject *self, double x1, double y1);
BLResult blPathQuadTo(BLObject *self, double x1, double y1, double x2, double y2);
BLResult blPathCubicTo(BLObject *self, double x1, double y1, double x2, double y2, double x3, double y3);
BLResult blPathClose(BLObject *self);
BLResult blContextInitAs(BLObject *self, BLObject *image, const BLContextCreateInfo *cci);
BLResult blContextDestroy(BLObject *self);
BLResult blContextEnd(BLObject *self);
BLResult blContextFlush(BLObject *self, uint32_t flags);
BLResult blContextApplyTransformOp(BLObject *self, uint32_t opType, const void *opData);
BLResult blContextSetCompOp(BLObject *self, uint32_t compOp);
BLResult blContextSetFillRule(BLObject *self, uint32_t fillRule);
BLResult blContextSetStrokeWidth(BLObject *self, double width);
BLResult blContextSetFlattenTolerance(BLObject *self, double tolerance);
BLResult blContextSetStrokeMiterLimit(BLObject *self, double miterLimit);
BLResult blContextSetStrokeCaps(BLObject *self, uint32_t strokeCap);
BLResult blContextSetStrokeJoin(BLObject *self, uint32_t strokeJoin);
BLResult blContextFillAllRgba32(BLObject *self, uint32_t rgba32);
BLResult blContextFillPathDRgba32(BLObject *self, const BLPoint *origin, const BLObject *path, uint32_t rgba32);
BLResult blContextStrokePathDRgba32(BLObject *self, const BLPoint *origin, const BLObject *path, uint32_t rgba32);
BLResult blObjectGetPropertyUInt32(const void *self, const char *name, size_t nameSize, uint32_t *valueOut);

#define EXPORT __attribute__((visibility("default")))

typedef struct {
    BLObject path;
    int hasTransform, hasFill, hasStroke;
    double transform[6];
    uint32_t fill, rule, stroke, cap, join;
    double width, miter;
} Item;

typedef struct {
    BLObject image;
    uint32_t background;
    size_t count, capacity;
    Item *items;
} Scene;

EXPORT Scene *rl_scene_new(int width, int height, uint32_t background) {
    Scene *scene = calloc(1, sizeof(Scene));
    if (!scene) return NULL;
    if (blImageInitAs(&scene->image, width, height, BL_FORMAT_PRGB32) != 0) {
        free(scene);
        return NULL;
    }
    scene->background = background;
    return scene;
}

EXPORT void rl_scene_free(Scene *scene) {
    for (size_t i = 0; i < scene->count; i++) blPathDestroy(&scene->items[i].path);
    free(scene->items);
    blImageDestroy(&scene->image);
    free(scene);
}

// Appends an item whose path is `count` commands (M L Q C Z as 0 1 2 3 4) reading their points from `coords` in turn;
// `transform` may be NULL; colours are BLRgba32 (0xAARRGGBB, not premultiplied). Returns 0 or an error.
EXPORT BLResult rl_scene_add(Scene *scene, const uint8_t *commands, size_t count, const double *coords,
                             const double *transform, int hasFill, uint32_t fill, uint32_t rule, int hasStroke,
                             uint32_t stroke, double width, uint32_t cap, uint32_t join, double miter) {
    if (scene->count == scene->capacity) {
        size_t capacity = scene->capacity ? scene->capacity * 2 : 64;
        Item *items = realloc(scene->items, capacity * sizeof(Item));
        if (!items) return 1;
        scene->items = items;
        scene->capacity = capacity;
    }
    Item *item = &scene->items[scene->count];
    memset(item, 0, sizeof(Item));
    BLResult result = blPathInit(&item->path);
    const double *p = coords;
    for (size_t i = 0; i < count && result == 0; i++) {
        switch (commands[i]) {
            case 0: result = blPathMoveTo(&item->path, p[0], p[1]); p += 2; break;
            case 1: result = blPathLineTo(&item->path, p[0], p[1]); p += 2; break;
            case 2: result = blPathQuadTo(&item->path, p[0], p[1], p[2], p[3]); p += 4; break;
            case 3: result = blPathCubicTo(&item->path, p[0], p[1], p[2], p[3], p[4], p[5]); p += 6; break;
            default: result = blPathClose(&item->path); break;
        }
    }
    if (result != 0) {
        blPathDestroy(&item->path);
        return result;
    }
    if (transform) {
        item->hasTransform = 1;
        memcpy(item->transform, transform, sizeof item->transform);
    }
    item->hasFill = hasFill;
    item->fill = fill;
    item->rule = rule;
    item->hasStroke = hasStroke;
    item->stroke = stroke;
    item->width = width;
    item->cap = cap;
    item->join = join;
    item->miter = miter;
    scene->count++;
    return 0;
}

// One render, as blend2d_scene.py's synchronous one: a new context on the scene's image (with `threadCount` as
// BLContextCreateInfo.threadCount, and curves flattened within `tolerance` pixels, Blend2D's own default when 0), the
// background copied over everything, every item filled and stroked afresh, then a synchronous flush, so the pixels are
// done when this returns. `threadsOut` receives the context's own "threadCount" property (0 when synchronous, else
// the threads it renders with, the caller included).
EXPORT BLResult rl_scene_render(Scene *scene, uint32_t threadCount, double tolerance, uint32_t *threadsOut) {
    BLContextCreateInfo info;
    memset(&info, 0, sizeof info);
    info.threadCount = threadCount;
    BLObject ctx;
    BLResult result = blContextInitAs(&ctx, &scene->image, &info);
    if (result != 0) return result;
    if (threadsOut) blObjectGetPropertyUInt32(&ctx, "threadCount", strlen("threadCount"), threadsOut);
    if (tolerance > 0) blContextSetFlattenTolerance(&ctx, tolerance);
    const BLPoint origin = {0, 0};
    blContextSetCompOp(&ctx, BL_COMP_OP_SRC_COPY);
    blContextFillAllRgba32(&ctx, scene->background);
    blContextSetCompOp(&ctx, BL_COMP_OP_SRC_OVER);
    for (size_t i = 0; i < scene->count; i++) {
        const Item *item = &scene->items[i];
        if (item->hasTransform) blContextApplyTransformOp(&ctx, BL_TRANSFORM_OP_ASSIGN, item->transform);
        if (item->hasFill) {
            blContextSetFillRule(&ctx, item->rule);
            blContextFillPathDRgba32(&ctx, &origin, &item->path, item->fill);
        }
        if (item->hasStroke) {
            blContextSetStrokeWidth(&ctx, item->width);
            blContextSetStrokeCaps(&ctx, item->cap);
            blContextSetStrokeJoin(&ctx, item->join);
            blContextSetStrokeMiterLimit(&ctx, item->miter);
            blContextStrokePathDRgba32(&ctx, &origin, &item->path, item->stroke);
        }
        if (item->hasTransform) blContextApplyTransformOp(&ctx, BL_TRANSFORM_OP_RESET, NULL);
    }
    result = blContextFlush(&ctx, BL_CONTEXT_FLUSH_SYNC);
    BLResult ended = blContextEnd(&ctx);
    blContextDestroy(&ctx);
    return result ? result : ended;
}

// The scene's pixels (premultiplied ARGB32, top row first) for reading them from Python.
EXPORT BLResult rl_scene_pixels(Scene *scene, void **data, intptr_t *stride) {
    BLImageData image;
    BLResult result = blImageGetData(&scene->image, &image);
    *data = image.pixelData;
    *stride = image.stride;
    return result;
}

EXPORT BLResult rl_scene_write(Scene *scene, const char *file) {
    return blImageWriteToFile(&scene->image, file, NULL);
}
