#pragma once

/// Asks the CPU to bring the cache line holding `address` closer, without waiting for it and without faulting on
/// any address: the one instruction Swift has no spelling for. The compositor uses it for the cells and pixels of a
/// row some rows ahead, which a tall narrow or slanted shape (a hairline) reaches a whole row apart, too far for the
/// hardware's own prefetchers to follow.
static inline __attribute__((always_inline)) void refreshlab_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}
