/* oneDNN as the cpu backend uses it: the library loaded on first use, and
 * a small cache of matmul primitives (dnnl_cache.c); conv_dnnl.c keeps its
 * convolution primitives itself. Internal to the cpu
 * backend; only files built when oneDNN's headers exist include it. */
#ifndef TSR_CPU_DNNL_API_H
#define TSR_CPU_DNNL_API_H

#include <stddef.h>
#include <stdint.h>

#include <oneapi/dnnl/dnnl.h>

#define DNNL_FUNCTIONS(X)                                                                          \
    X(engine_create)                                                                               \
    X(stream_create)                                                                               \
    X(stream_destroy)                                                                              \
    X(memory_desc_init_by_strides)                                                                 \
    X(memory_desc_get_size)                                                                        \
    X(matmul_desc_init)                                                                            \
    X(primitive_attr_create)                                                                       \
    X(primitive_attr_destroy)                                                                      \
    X(primitive_attr_set_output_scales)                                                            \
    X(primitive_attr_set_post_ops)                                                                 \
    X(primitive_attr_set_scratchpad_mode)                                                          \
    X(post_ops_create)                                                                             \
    X(post_ops_destroy)                                                                            \
    X(post_ops_append_sum)                                                                         \
    X(primitive_desc_create)                                                                       \
    X(primitive_desc_destroy)                                                                      \
    X(primitive_desc_query)                                                                        \
    X(primitive_desc_query_md)                                                                     \
    X(primitive_create)                                                                            \
    X(primitive_destroy)                                                                           \
    X(primitive_execute)                                                                           \
    X(memory_create)                                                                               \
    X(memory_destroy)                                                                              \
    X(dilated_convolution_forward_desc_init)                                                       \
    X(dilated_convolution_backward_data_desc_init)                                                 \
    X(dilated_convolution_backward_weights_desc_init)                                              \
    X(memory_desc_init_by_tag)                                                                     \
    X(memory_desc_equal)                                                                           \
    X(reorder_primitive_desc_create)

typedef struct tsr__cpu_dnnl_api {
#define SLOT(name) __typeof__(&dnnl_##name) name;
    DNNL_FUNCTIONS(SLOT)
#undef SLOT
    void (*omp_set_num_threads)(int);
    dnnl_engine_t engine;
} tsr__cpu_dnnl_api;

/* oneDNN, loaded on the first call (thread-safe), or NULL when it cannot
 * be loaded. */
const tsr__cpu_dnnl_api *tsr__cpu_dnnl_get(void);

/* Everything a bfloat16 matmul primitive depends on; compared bytewise, so
 * it is zeroed before it is filled. Operands: 0 out, 1 a, 2 b. */
typedef struct tsr__cpu_dnnl_key {
    int64_t ndim, threads, has_c;
    float alpha, beta;
    int64_t dims[3][DNNL_MAX_NDIMS];
    int64_t strides[3][DNNL_MAX_NDIMS];
} tsr__cpu_dnnl_key;

/* A cached primitive. `users` counts calls running it; an evicted entry is
 * destroyed by whoever drops the count to 0. The scratchpad is the
 * caller's (user mode), so several threads may run one primitive at once. */
typedef struct tsr__cpu_dnnl_primitive {
    tsr__cpu_dnnl_key key;
    dnnl_primitive_t primitive;
    dnnl_memory_desc_t scratch_md;
    size_t scratch_bytes;
    char impl[64]; /* oneDNN's implementation name, "brg:avx512_core_bf16" */
    int users;
    int evicted;
    uint64_t used; /* LRU tick */
} tsr__cpu_dnnl_primitive;

/* The primitive for `key`, created on a miss, its user count raised; NULL
 * when oneDNN rejects the problem. Release it after running it. */
tsr__cpu_dnnl_primitive *tsr__cpu_dnnl_acquire(const tsr__cpu_dnnl_api *dnnl,
                                               const tsr__cpu_dnnl_key *key);
void tsr__cpu_dnnl_release(const tsr__cpu_dnnl_api *dnnl, tsr__cpu_dnnl_primitive *entry);

/* The memory descriptor of operand `w` of `key`. */
void tsr__cpu_dnnl_md(const tsr__cpu_dnnl_api *dnnl, dnnl_memory_desc_t *md,
                      const tsr__cpu_dnnl_key *key, int w);

#endif /* TSR_CPU_DNNL_API_H */
