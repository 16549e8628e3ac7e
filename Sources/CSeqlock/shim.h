#include <stdint.h>

/* Ordered access to fields of a shared-memory header that other processes read. */
static inline void signd_store_u64_relaxed(void *p, uint64_t v) { __atomic_store_n((uint64_t *)p, v, __ATOMIC_RELAXED); }
static inline void signd_store_u64_release(void *p, uint64_t v) { __atomic_store_n((uint64_t *)p, v, __ATOMIC_RELEASE); }
static inline uint64_t signd_load_u64_acquire(const void *p) { return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE); }
static inline uint64_t signd_load_u64_relaxed(const void *p) { return __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED); }
static inline void signd_fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static inline void signd_fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
