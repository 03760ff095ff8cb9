/* The pooling kernels (pool.c, shaders/pool.comp) on float32, with
 * test_vulkan_kernels.c's host and main: forwards against values worked
 * out by hand from PyTorch's rules, backwards against the scatter the
 * reference does, and the contract of the rows (contiguous operands only).
 * The conformance cases cover the rest through the core. */
#include <math.h>
#include <string.h>

#include "test_vulkan_kernels.h"

static tsr_kernel_fn pool_kernel(int op, uint32_t *flags)
{
    const tsr_kernel_entry *entries;
    size_t n;
    if (plugin->kernels(backend, &entries, &n) != TSR_OK)
        return NULL;
    for (size_t i = 0; i < n; ++i)
        if (entries[i].op == op && entries[i].dtype_in == TSR_FLOAT32) {
            *flags = entries[i].flags;
            return entries[i].fn;
        }
    return NULL;
}

static tsr_pool_attrs attrs2(int64_t k, int64_t s, int64_t p, int ceil, int include_pad)
{
    tsr_pool_attrs a = {.struct_size = sizeof a, .spatial = 2, .ceil_mode = ceil,
                        .count_include_pad = include_pad};
    for (int i = 0; i < 2; ++i) {
        a.kernel[i] = k;
        a.stride[i] = s;
        a.padding[i] = p;
        a.dilation[i] = 1;
    }
    return a;
}

/* A contiguous [1, 1, h, w] (or [1, 1, w] when h is 0) float32 or int64 view. */
static void *plane(struct view *v, const void *data, int dtype, int64_t h, int64_t w)
{
    int64_t size = dtype == TSR_INT64 ? 8 : 4, n = (h ? h : 1) * w;
    void *mem = upload(data, (size_t)(n * size));
    int64_t shape[4] = {1, 1, h, w}, strides[4] = {n, n, w, 1};
    if (h == 0) {
        shape[2] = w;
        strides[2] = 1;
    }
    view_of(v, mem, dtype, h ? 4 : 3, shape, strides, 0, size);
    return mem;
}

static int call(int op, const struct view *const *in, int nin, const struct view *const *out,
                int nout, const tsr_pool_attrs *a)
{
    uint32_t flags = 0;
    tsr_kernel_fn fn = pool_kernel(op, &flags);
    EXPECT(fn != NULL, "no float32 row for op %d", op);
    if (!fn)
        return TSR_ERR_UNIMPLEMENTED;
    EXPECT(flags == 0, "op %d: pooling rows take contiguous operands, flags 0x%x", op, flags);
    tsr_tensor_desc ins[2], outs[2];
    for (int i = 0; i < nin; ++i)
        ins[i] = in[i]->d;
    for (int i = 0; i < nout; ++i)
        outs[i] = out[i]->d;
    tsr_kernel_args args = {sizeof args, op, nin, nout, ins, outs, a};
    return fn(backend, &args);
}

static void expect_floats(void *mem, const float *want, int n, const char *what)
{
    float got[64];
    download(mem, got, (size_t)n * sizeof *got);
    for (int i = 0; i < n; ++i)
        EXPECT(close_to(got[i], want[i], 0, 0) || (isnan(want[i]) && isnan(got[i])),
               "%s[%d] = %.9g, expected %.9g", what, i, got[i], want[i]);
}

static void max_pool_values_indices_and_backward(void)
{
    /* 4x4, k2 s2: NaN wins in the first window, a tie keeps the first. */
    const float x[16] = {1, 2, 5, 5, NAN, 0, 3, 4, 7, -1, -INFINITY, -INFINITY,
                         8, 6, -INFINITY, -INFINITY};
    struct view vx, vy, vi, vg, vgx;
    void *mx = plane(&vx, x, TSR_FLOAT32, 4, 4), *my = plane(&vy, NULL, TSR_FLOAT32, 2, 2);
    void *mi = plane(&vi, NULL, TSR_INT64, 2, 2);
    tsr_pool_attrs a = attrs2(2, 2, 0, 0, 1);
    EXPECT(call(TSR_OP_POOL_MAX, (const struct view *[]){&vx}, 1,
                (const struct view *[]){&vy, &vi}, 2, &a) == TSR_OK,
           "max: %s", last_error);
    expect_floats(my, (float[]){NAN, 5, 8, -INFINITY}, 4, "max values");
    int64_t idx[4];
    download(mi, idx, sizeof idx);
    const int64_t want_idx[4] = {4, 2, 12, 10};
    for (int i = 0; i < 4; ++i)
        EXPECT(idx[i] == want_idx[i], "index %d = %lld, expected %lld", i, (long long)idx[i],
               (long long)want_idx[i]);
    /* Backward: each gradient lands on its index; two windows share none. */
    const float g[4] = {0.5f, -2, 3, 1.25f};
    void *mg = plane(&vg, g, TSR_FLOAT32, 2, 2), *mgx = plane(&vgx, NULL, TSR_FLOAT32, 4, 4);
    EXPECT(call(TSR_OP_POOL_MAX_BACKWARD, (const struct view *[]){&vg, &vi}, 2,
                (const struct view *[]){&vgx}, 1, &a) == TSR_OK,
           "max backward: %s", last_error);
    float want[16] = {0};
    for (int i = 0; i < 4; ++i)
        want[want_idx[i]] += g[i];
    expect_floats(mgx, want, 16, "max backward");
    void *mems[] = {mx, my, mi, mg, mgx};
    for (int i = 0; i < 5; ++i)
        plugin->memory_free(backend, mems[i]);
}

static void avg_pool_divisors_and_backward(void)
{
    /* 1x4 rows as [1, 1, 1, 4] with k (1, 3), s (1, 2), p (0, 1), ceil:
     * windows [-1,1] [1,3] [3,5]. */
    const float x[4] = {1, 2, 3, 4};
    struct view vx, vy, vgx;
    void *mx = plane(&vx, x, TSR_FLOAT32, 1, 4), *my = plane(&vy, NULL, TSR_FLOAT32, 1, 3);
    tsr_pool_attrs a = attrs2(3, 2, 1, 1, 1);
    a.kernel[0] = 1, a.stride[0] = 1, a.padding[0] = 0;
    EXPECT(call(TSR_OP_POOL_AVG, (const struct view *[]){&vx}, 1, (const struct view *[]){&vy}, 1,
                &a) == TSR_OK,
           "avg: %s", last_error);
    expect_floats(my, (float[]){3.0f / 3, 9.0f / 3, 4.0f / 2}, 3, "avg include pad");
    a.count_include_pad = 0;
    EXPECT(call(TSR_OP_POOL_AVG, (const struct view *[]){&vx}, 1, (const struct view *[]){&vy}, 1,
                &a) == TSR_OK,
           "avg: %s", last_error);
    expect_floats(my, (float[]){3.0f / 2, 3, 4}, 3, "avg exclude pad");
    /* Backward of the last: g / divisor onto each tap, in output order. */
    const float g[3] = {1, 3, 5};
    struct view vg;
    void *mg = plane(&vg, g, TSR_FLOAT32, 1, 3), *mgx = plane(&vgx, NULL, TSR_FLOAT32, 1, 4);
    EXPECT(call(TSR_OP_POOL_AVG_BACKWARD, (const struct view *[]){&vg}, 1,
                (const struct view *[]){&vgx}, 1, &a) == TSR_OK,
           "avg backward: %s", last_error);
    expect_floats(mgx, (float[]){0.5f, 0.5f + 1, 1, 1 + 5}, 4, "avg backward");
    void *mems[] = {mx, my, mg, mgx};
    for (int i = 0; i < 4; ++i)
        plugin->memory_free(backend, mems[i]);
}

static void adaptive_windows_overlap(void)
{
    /* 5 -> 3 along one dim: [0,2) [1,4) [3,5). */
    const float x[5] = {1, 2, 3, 4, 5};
    struct view vx, vy, vi, vg, vgx;
    void *mx = plane(&vx, x, TSR_FLOAT32, 0, 5), *my = plane(&vy, NULL, TSR_FLOAT32, 0, 3);
    void *mi = plane(&vi, NULL, TSR_INT64, 0, 3);
    tsr_pool_attrs a = {.struct_size = sizeof a, .spatial = 1};
    EXPECT(call(TSR_OP_POOL_ADAPTIVE_AVG, (const struct view *[]){&vx}, 1,
                (const struct view *[]){&vy}, 1, &a) == TSR_OK,
           "adaptive avg: %s", last_error);
    expect_floats(my, (float[]){1.5f, 3, 4.5f}, 3, "adaptive avg");
    EXPECT(call(TSR_OP_POOL_ADAPTIVE_MAX, (const struct view *[]){&vx}, 1,
                (const struct view *[]){&vy, &vi}, 2, &a) == TSR_OK,
           "adaptive max: %s", last_error);
    expect_floats(my, (float[]){2, 4, 5}, 3, "adaptive max");
    const float g[3] = {2, 3, 4};
    void *mg = plane(&vg, g, TSR_FLOAT32, 0, 3), *mgx = plane(&vgx, NULL, TSR_FLOAT32, 0, 5);
    EXPECT(call(TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD, (const struct view *[]){&vg}, 1,
                (const struct view *[]){&vgx}, 1, &a) == TSR_OK,
           "adaptive avg backward: %s", last_error);
    expect_floats(mgx, (float[]){1, 1 + 1, 1, 1 + 2, 2}, 5, "adaptive avg backward");
    /* Adaptive max's backward: the max backward row without a window. */
    EXPECT(call(TSR_OP_POOL_MAX_BACKWARD, (const struct view *[]){&vg, &vi}, 2,
                (const struct view *[]){&vgx}, 1, &a) == TSR_OK,
           "adaptive max backward: %s", last_error);
    expect_floats(mgx, (float[]){0, 2, 0, 3, 4}, 5, "adaptive max backward");
    void *mems[] = {mx, my, mi, mg, mgx};
    for (int i = 0; i < 5; ++i)
        plugin->memory_free(backend, mems[i]);
}

static void strided_operands_are_refused(void)
{
    const float x[8] = {0};
    struct view vx, vy;
    void *mx = upload(x, sizeof x), *my = plane(&vy, NULL, TSR_FLOAT32, 0, 2);
    int64_t shape[3] = {1, 1, 4}, strides[3] = {8, 8, 2}; /* every other element */
    view_of(&vx, mx, TSR_FLOAT32, 3, shape, strides, 0, 4);
    tsr_pool_attrs a = {.struct_size = sizeof a, .spatial = 1};
    a.kernel[0] = 2, a.stride[0] = 2, a.dilation[0] = 1;
    EXPECT(call(TSR_OP_POOL_AVG, (const struct view *[]){&vx}, 1, (const struct view *[]){&vy}, 1,
                &a) == TSR_ERR_SHAPE,
           "a strided input must be refused");
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, my);
}

void run_all_cases(void)
{
    max_pool_values_indices_and_backward();
    avg_pool_divisors_and_backward();
    adaptive_windows_overlap();
    strided_operands_are_refused();
}
