#pragma once

/// Asks the CPU to bring the cache line holding `address` closer, without waiting for it and without faulting on
/// any address: the one instruction Swift has no spelling for. The compositor uses it for the cells and pixels of a
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
