/* Seeded random tensors. Numbers are drawn on the host from one sequence,
 * so a seed gives the same values on every backend. */
#include "tensor/copy.h"
#include "runtime/alloc.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <math.h>
#include <stdlib.h>

struct tsr_generator {
    uint64_t state;
};

/* SplitMix64: tiny, fast and passes BigCrush; enough for initialisation and
 * dropout masks, and trivially reproducible. */
static uint64_t next_u64(tsr_generator *g)
{
    uint64_t z = (g->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

tsr_status tsr_generator_create(uint64_t seed, tsr_generator **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "generator_create: out must not be NULL");
    tsr_generator *g = tsr__malloc(sizeof *g);
    if (!g)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "generator_create: out of memory");
    g->state = seed;
    *out = g;
    return TSR_OK;
}

void tsr_generator_destroy(tsr_generator *g)
{
    free(g);
}

/* Significand bits of a floating dtype: a uniform value with that many bits
 * converts exactly, so rounding can never produce 1.0. */
static int significand_bits(tsr_dtype dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return 11;
    case TSR_BFLOAT16:
        return 8;
    case TSR_FLOAT32:
        return 24;
    default:
        return 53;
    }
}

typedef enum { DRAW_UNIFORM, DRAW_NORMAL, DRAW_INTEGER } draw_kind;

typedef struct draw {
    draw_kind kind;
    int64_t low, high;
} draw;

static void fill_values(tsr_generator *g, const draw *d, tsr_dtype dtype, int64_t n, void *values)
{
    int bits = significand_bits(dtype);
    for (int64_t i = 0; i < n; i++) {
        if (d->kind == DRAW_INTEGER) {
            uint64_t range = (uint64_t)d->high - (uint64_t)d->low;
            ((int64_t *)values)[i] = (int64_t)((uint64_t)d->low + next_u64(g) % range);
        } else if (d->kind == DRAW_UNIFORM) {
            ((double *)values)[i] = ldexp((double)(next_u64(g) >> (64 - bits)), -bits);
        } else {
            /* Box-Muller on (0, 1] so log never sees zero. */
            double u1 = ldexp((double)(next_u64(g) >> 11) + 1.0, -53);
            double u2 = ldexp((double)(next_u64(g) >> 11), -53);
            ((double *)values)[i] = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        }
    }
}

static tsr_status random_tensor(const char *op, tsr_generator *g, const draw *d, int ndim,
                                const int64_t *shape, tsr_dtype dtype, tsr_backend *backend,
                                tsr_tensor **out)
{
    if (!g || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: generator and out must not be NULL", op);
    if (d->kind != DRAW_INTEGER && !tsr_dtype_is_floating(dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: dtype must be floating, got %s", op,
                              tsr_dtype_name(dtype) ? tsr_dtype_name(dtype) : "(invalid)");
    if (d->kind == DRAW_INTEGER && (!tsr__dtype_valid(dtype) || tsr_dtype_is_complex(dtype) || dtype == TSR_BOOL))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: dtype must be integer or floating", op);
    int64_t n;
    tsr_status st = tsr__check_shape(op, "size", ndim, shape, 8, &n);
    if (st != TSR_OK)
        return st;
    void *values = tsr__malloc((size_t)(n ? n : 1) * 8);
    if (!values)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory", op);
    fill_values(g, d, dtype, n, values);
    tsr_dtype wide = d->kind == DRAW_INTEGER ? TSR_INT64 : TSR_FLOAT64;
    tsr_tensor *raw;
    st = tsr_from_host(values, (size_t)n * 8, ndim, shape, wide, backend, &raw);
    free(values);
    if (st != TSR_OK)
        return st;
    st = tsr__convert_if_needed(op, raw, dtype, out);
    tsr_tensor_release(raw);
    return st;
}

tsr_status tsr_rand(tsr_generator *gen, int ndim, const int64_t *shape, tsr_dtype dtype,
                    tsr_backend *backend, tsr_tensor **out)
{
    draw d = {.kind = DRAW_UNIFORM};
    return random_tensor("rand", gen, &d, ndim, shape, dtype, backend, out);
}

tsr_status tsr_randn(tsr_generator *gen, int ndim, const int64_t *shape, tsr_dtype dtype,
                     tsr_backend *backend, tsr_tensor **out)
{
    draw d = {.kind = DRAW_NORMAL};
    return random_tensor("randn", gen, &d, ndim, shape, dtype, backend, out);
}

/* PyTorch's check_from_to_in_range: low and high - 1 must be values of the
 * dtype (a wider range would wrap, int8 giving -121 for [0, 1000)). */
static tsr_status check_bounds_fit(int64_t low, int64_t high, tsr_dtype dtype)
{
    double lowest, highest;
    switch (dtype) {
    case TSR_UINT8:
        lowest = 0, highest = 255;
        break;
    case TSR_INT8:
        lowest = -128, highest = 127;
        break;
    case TSR_INT16:
        lowest = -32768, highest = 32767;
        break;
    case TSR_INT32:
        lowest = -2147483648.0, highest = 2147483647.0;
        break;
    case TSR_FLOAT16:
        lowest = -65504, highest = 65504;
        break;
    default:
        return TSR_OK; /* int64 and wider floating types hold every int64 */
    }
    const char *name = tsr_dtype_name(dtype);
    if ((double)low < lowest || (double)low > highest)
        return tsr__set_error(TSR_ERR_VALUE, "randint: from is out of bounds for %s (low %lld)",
                              name, (long long)low);
    if ((double)(high - 1) < lowest || (double)(high - 1) > highest)
        return tsr__set_error(TSR_ERR_VALUE,
                              "randint: to - 1 is out of bounds for %s (high %lld)", name,
                              (long long)high);
    return TSR_OK;
}

tsr_status tsr_randint(tsr_generator *gen, int64_t low, int64_t high, int ndim,
                       const int64_t *shape, tsr_dtype dtype, tsr_backend *backend,
                       tsr_tensor **out)
{
    if (high <= low)
        return tsr__set_error(TSR_ERR_VALUE, "randint: low (%lld) must be less than high (%lld)",
                              (long long)low, (long long)high);
    tsr_status st = check_bounds_fit(low, high, dtype);
    if (st != TSR_OK)
        return st;
    draw d = {.kind = DRAW_INTEGER, .low = low, .high = high};
    return random_tensor("randint", gen, &d, ndim, shape, dtype, backend, out);
}
