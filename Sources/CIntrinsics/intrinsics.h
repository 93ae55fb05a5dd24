#pragma once

// What the rasterizer's kernels need and Swift has no spelling for. Each function is inlined into the Swift module
// that calls it and compiled for that module's instruction set (SSE2, AVX2 or AVX-512).

/// Asks the CPU to bring the cache line holding `address` closer, without waiting for it and without faulting on
/// any address. The compositor uses it for the cells and pixels of a
/// row some rows ahead, which a tall narrow or slanted shape (a hairline) reaches a whole row apart, too far for the
/// hardware's own prefetchers to follow.
static inline __attribute__((always_inline)) void refreshlab_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

/// Keeps the memory accesses written before it and after it apart: the compiler neither merges nor reorders them
/// across it. An edge adds to two neighbouring cells; merged into one 8-byte load and store, the next edge's pair,
/// which usually overlaps it by one cell, has to wait until that store reaches the cache (a partial overlap cannot
/// be forwarded), where two 4-byte adds each forward from the store before.
static inline __attribute__((always_inline)) void refreshlab_barrier(void) {
    __asm__ volatile("" ::: "memory");
}

typedef unsigned short refreshlab_u16x16 __attribute__((ext_vector_type(16)));
typedef unsigned int refreshlab_u32x16 __attribute__((ext_vector_type(16)));

/// Each 16-bit lane (a product of two bytes, at most 255 · 255) divided by 255, rounded: (v + 128) · 257 / 2¹⁶,
/// which equals ((v + 128) + (v + 128) / 256) / 256 in whole numbers, the way the one-pixel path divides. Written
/// as a widening product whose top half is kept, it compiles to one multiply-high instruction, which Swift's SIMD
/// types do not offer (their widening conversions compile lane by lane).
static inline __attribute__((always_inline)) refreshlab_u16x16 refreshlab_divide255(refreshlab_u16x16 v) {
    refreshlab_u16x16 t = v + (unsigned short)0x80;
    return __builtin_convertvector((__builtin_convertvector(t, refreshlab_u32x16) * 257u) >> 16, refreshlab_u16x16);
}

typedef int refreshlab_i32x8 __attribute__((ext_vector_type(8)));

/// Sixteen zeros, then eight lanes of all ones.
static const int refreshlab_steps[24] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1};

/// All ones in the lanes at or past lane `k` (0 to 16), zeros before. Read from a table: written as comparisons or
/// shifts of the lane numbers, the mask was taken apart by the compiler into lane-by-lane mask registers and inserts.
static inline __attribute__((always_inline)) refreshlab_i32x8 refreshlab_lanes_from(long k) {
    refreshlab_i32x8 v;
    __builtin_memcpy(&v, refreshlab_steps + 16 - k, sizeof v);
    return v;
}
