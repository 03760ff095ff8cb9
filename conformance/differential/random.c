/* Seeded random values and layouts for the differential mode. */
#define _POSIX_C_SOURCE 200809L

#include "differential/random.h"

#include "golden/compare.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The generator                                                             */
/* ------------------------------------------------------------------------ */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void conf_rng_seed(conf_rng *rng, uint64_t seed, const char *op, uint64_t index)
{
    /* FNV-1a of the op's name, so a case does not depend on which other
     * ops were selected. */
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const char *p = op; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(0x100000001b3);
    uint64_t state = seed ^ (h * 3) ^ (index * UINT64_C(0x9e3779b97f4a7c15));
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix(&state);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t conf_rng_next(conf_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

int64_t conf_rng_range(conf_rng *rng, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    return span == 0 ? (int64_t)conf_rng_next(rng) : lo + (int64_t)(conf_rng_next(rng) % span);
}

double conf_rng_uniform(conf_rng *rng)
{
    return (double)(conf_rng_next(rng) >> 11) * 0x1.0p-53;
}

double conf_rng_normal(conf_rng *rng)
{
    double u = conf_rng_uniform(rng), v = conf_rng_uniform(rng);
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

bool conf_rng_chance(conf_rng *rng, double p)
{
    return conf_rng_uniform(rng) < p;
}

/* ------------------------------------------------------------------------ */
/* Storing values                                                            */
/* ------------------------------------------------------------------------ */

uint16_t conf_double_to_half(double value)
{
    uint16_t sign = signbit(value) ? 0x8000 : 0;
    double a = fabs(value);
    if (isnan(value))
        return sign | 0x7e00;
    if (a >= 65520.0) /* the halfway point above the largest half, 65504 */
        return sign | 0x7c00;
    int e;
    frexp(a, &e);
    if (a != 0 && e - 1 >= -14) {
        double r = nearbyint(ldexp(a, 10 - (e - 1))); /* in [1024, 2048] */
        int exponent = e - 1 + 15, mantissa = (int)r - 1024;
        if (mantissa == 1024) {
            exponent++;
            mantissa = 0;
        }
        return exponent >= 31 ? (uint16_t)(sign | 0x7c00)
                              : (uint16_t)(sign | (exponent << 10) | mantissa);
    }
    /* subnormal: units of 2^-24; 1024 units is the smallest normal's bits */
    return (uint16_t)(sign | (uint16_t)nearbyint(ldexp(a, 24)));
}

uint16_t conf_double_to_bfloat16(double value)
{
    float f = (float)value;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (isnan(f))
        return (uint16_t)((bits >> 16) | 0x40);
    uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
    return (uint16_t)((bits + rounding) >> 16);
}

static int64_t saturate(double value, double lo, double hi)
{
    if (isnan(value))
        return 0;
    return (int64_t)(value < lo ? lo : value > hi ? hi : value);
}

void conf_store_double(tsr_dtype dtype, void *element, double value)
{
    unsigned char *p = element;
    uint16_t u16;
    switch (dtype) {
    case TSR_BOOL:
        p[0] = value != 0;
        break;
    case TSR_UINT8:
        p[0] = (uint8_t)saturate(value, 0, 255);
        break;
    case TSR_INT8:
        p[0] = (uint8_t)(int8_t)saturate(value, -128, 127);
        break;
    case TSR_INT16: {
        int16_t v = (int16_t)saturate(value, -32768, 32767);
        memcpy(p, &v, sizeof v);
        break;
    }
    case TSR_INT32: {
        int32_t v = (int32_t)saturate(value, -2147483648.0, 2147483647.0);
        memcpy(p, &v, sizeof v);
        break;
    }
    case TSR_INT64: {
        int64_t v = saturate(value, -9223372036854775808.0, 9223372036854774784.0);
        memcpy(p, &v, sizeof v);
        break;
    }
    case TSR_FLOAT16:
        u16 = conf_double_to_half(value);
        memcpy(p, &u16, sizeof u16);
        break;
    case TSR_BFLOAT16:
        u16 = conf_double_to_bfloat16(value);
        memcpy(p, &u16, sizeof u16);
        break;
    case TSR_FLOAT32:
    case TSR_COMPLEX64: {
        float f[2] = {(float)value, 0.0f};
        memcpy(p, f, dtype == TSR_FLOAT32 ? sizeof f[0] : sizeof f);
        break;
    }
    default: {
        double d[2] = {value, 0.0};
        memcpy(p, d, dtype == TSR_FLOAT64 ? sizeof d[0] : sizeof d);
        break;
    }
    }
}

double conf_load_double(tsr_dtype dtype, const void *element)
{
    const unsigned char *p = element;
    uint16_t u16;
    float f;
    double v = 0;
    switch (dtype) {
    case TSR_BOOL:
    case TSR_UINT8:
        return p[0];
    case TSR_INT8:
        return (int8_t)p[0];
    case TSR_FLOAT16:
        memcpy(&u16, p, 2);
        return conf_half_to_double(u16);
    case TSR_BFLOAT16:
        memcpy(&u16, p, 2);
        return conf_bfloat16_to_double(u16);
    case TSR_FLOAT32:
    case TSR_COMPLEX64:
        memcpy(&f, p, 4);
        return f;
    case TSR_FLOAT64:
    case TSR_COMPLEX128:
        memcpy(&v, p, 8);
        return v;
    default: {
        int64_t i = 0;
        size_t size = tsr_dtype_size(dtype);
        memcpy(&i, p, size);
        if (size < 8 && (p[size - 1] & 0x80))
            i |= (int64_t)(~UINT64_C(0) << (8 * size));
        return (double)i;
    }
    }
}

/* ------------------------------------------------------------------------ */
/* Drawing values                                                            */
/* ------------------------------------------------------------------------ */

static double largest(tsr_dtype real)
{
    return real == TSR_FLOAT16 ? 65504.0 : real == TSR_FLOAT64 ? DBL_MAX : FLT_MAX;
}

static double smallest_normal(tsr_dtype real)
{
    return real == TSR_FLOAT16 ? 0x1.0p-14 : real == TSR_FLOAT64 ? DBL_MIN : FLT_MIN;
}

static double special_float(conf_rng *rng, tsr_dtype real, bool huge)
{
    switch (conf_rng_range(rng, 0, huge ? 7 : 5)) {
    case 0:
        return NAN;
    case 1:
        return conf_rng_chance(rng, 0.5) ? INFINITY : -INFINITY;
    case 2:
        return conf_rng_chance(rng, 0.5) ? 0.0 : -0.0;
    case 3:
        return conf_rng_chance(rng, 0.5) ? 1.0 : -1.0;
    case 4:
    case 5: { /* tiny: the smallest normal, or a subnormal below it */
        double t = smallest_normal(real) * (conf_rng_chance(rng, 0.5) ? 1.0 : 0.25);
        return conf_rng_chance(rng, 0.5) ? t : -t;
    }
    default: { /* huge: near the largest finite value */
        double h = largest(real) * (conf_rng_chance(rng, 0.5) ? 1.0 : 0.5);
        return conf_rng_chance(rng, 0.5) ? h : -h;
    }
    }
}

static double draw_float(conf_rng *rng, tsr_dtype real, conf_value_spec spec)
{
    if (spec.kind == CONF_VALUES_RANGE)
        return (double)conf_rng_range(rng, spec.lo, spec.hi);
    if (spec.kind != CONF_VALUES_FINITE && conf_rng_chance(rng, 0.15))
        return special_float(rng, real, spec.kind == CONF_VALUES_GENERAL);
    double scale = spec.kind == CONF_VALUES_FINITE ? 1.0 : conf_rng_chance(rng, 0.1) ? 100.0 : 2.0;
    return conf_rng_normal(rng) * scale;
}

static void int_limits(tsr_dtype dtype, int64_t *lo, int64_t *hi)
{
    switch (dtype) {
    case TSR_BOOL:
        *lo = 0, *hi = 1;
        break;
    case TSR_UINT8:
        *lo = 0, *hi = 255;
        break;
    case TSR_INT8:
        *lo = -128, *hi = 127;
        break;
    case TSR_INT16:
        *lo = -32768, *hi = 32767;
        break;
    case TSR_INT32:
        *lo = INT32_MIN, *hi = INT32_MAX;
        break;
    default:
        *lo = INT64_MIN, *hi = INT64_MAX;
        break;
    }
}

static void store_int(tsr_dtype dtype, unsigned char *p, int64_t v)
{
    size_t size = tsr_dtype_size(dtype);
    /* little-endian: the low bytes of the two's complement value */
    for (size_t b = 0; b < size; b++)
        p[b] = (unsigned char)((uint64_t)v >> (8 * b));
    if (dtype == TSR_BOOL)
        p[0] = v != 0;
}

static int64_t draw_int(conf_rng *rng, tsr_dtype dtype, conf_value_spec spec)
{
    int64_t lo, hi;
    int_limits(dtype, &lo, &hi);
    if (spec.kind == CONF_VALUES_RANGE) {
        int64_t a = spec.lo < lo ? lo : spec.lo, b = spec.hi > hi ? hi : spec.hi;
        return conf_rng_range(rng, a, b < a ? a : b);
    }
    if (spec.kind == CONF_VALUES_GENERAL && dtype != TSR_BOOL && conf_rng_chance(rng, 0.12)) {
        /* the extremes, or anything in the range */
        int64_t pick = conf_rng_range(rng, 0, 3);
        return pick == 0 ? lo : pick == 1 ? hi : conf_rng_range(rng, lo, hi);
    }
    int64_t small = spec.kind == CONF_VALUES_NO_HUGE ? 4 : 10;
    return conf_rng_range(rng, lo < -small ? -small : lo, hi > small ? small : hi);
}

static void fill_distinct(conf_rng *rng, conf_array *a, int64_t n, size_t size)
{
    int64_t *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    if (!order)
        return;
    for (int64_t i = 0; i < n; i++)
        order[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = conf_rng_range(rng, 0, i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    bool is_signed = a->dtype != TSR_UINT8 && a->dtype != TSR_BOOL;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = is_signed ? order[i] - n / 2 : order[i];
        unsigned char *p = (unsigned char *)a->data + (size_t)i * size;
        if (tsr_dtype_is_floating(a->dtype) || tsr_dtype_is_complex(a->dtype))
            conf_store_double(a->dtype, p, (double)v * 0.5);
        else
            store_int(a->dtype, p, v);
    }
    free(order);
}

void conf_fill_values(conf_rng *rng, conf_array *a, conf_value_spec spec)
{
    int64_t n = 1;
    for (int d = 0; d < a->ndim; d++)
        n *= a->shape[d];
    size_t size = tsr_dtype_size(a->dtype);
    if (spec.kind == CONF_VALUES_DISTINCT && a->dtype != TSR_BOOL) {
        fill_distinct(rng, a, n, size);
        return;
    }
    bool complex = tsr_dtype_is_complex(a->dtype);
    tsr_dtype real = a->dtype == TSR_COMPLEX64    ? TSR_FLOAT32
                     : a->dtype == TSR_COMPLEX128 ? TSR_FLOAT64
                                                  : a->dtype;
    size_t part = tsr_dtype_size(real);
    for (int64_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)a->data + (size_t)i * size;
        if (tsr_dtype_is_floating(real)) {
            for (int k = 0; k < (complex ? 2 : 1); k++)
                conf_store_double(real, p + (size_t)k * part, draw_float(rng, real, spec));
        } else {
            store_int(a->dtype, p, draw_int(rng, a->dtype, spec));
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Shapes and layouts                                                        */
/* ------------------------------------------------------------------------ */

void conf_random_shape(conf_rng *rng, int ndim, bool allow_empty, int64_t *shape)
{
    for (int d = 0; d < ndim; d++) {
        double u = conf_rng_uniform(rng);
        shape[d] = allow_empty && u < 0.05 ? 0 : u < 0.25 ? 1 : conf_rng_range(rng, 2, 5);
    }
}

int conf_random_rank(conf_rng *rng, int lo, int hi)
{
    if (lo < hi && conf_rng_chance(rng, 0.15))
        return lo;
    return (int)conf_rng_range(rng, lo, hi);
}

static const char *const layout_names[CONF_LAYOUT_COUNT] = {"contiguous", "transposed", "permuted",
                                                            "stepped",    "offset",     "expanded"};

const char *conf_layout_name(conf_layout layout)
{
    return layout < CONF_LAYOUT_COUNT ? layout_names[layout] : "?";
}

conf_layout conf_random_layout(conf_rng *rng, bool allow_expanded)
{
    if (conf_rng_chance(rng, 0.35))
        return CONF_LAYOUT_CONTIGUOUS;
    return (conf_layout)conf_rng_range(rng, 1, allow_expanded ? 5 : 4);
}

static char *step_text(const char *name, const int64_t *args, int nargs)
{
    char buf[256];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", name);
    for (int i = 0; i < nargs && n < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, ":%lld", (long long)args[i]);
    return strdup(buf);
}

static bool make_permuted(conf_rng *rng, int ndim, const int64_t *shape, int64_t *base,
                          char **steps, int *nsteps)
{
    if (ndim < 3)
        return false;
    int64_t perm[TSR_MAX_DIMS];
    for (int d = 0; d < ndim; d++)
        perm[d] = d;
    for (int d = ndim - 1; d > 0; d--) {
        int64_t j = conf_rng_range(rng, 0, d), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
    }
    for (int d = 0; d < ndim; d++)
        base[perm[d]] = shape[d];
    steps[(*nsteps)++] = step_text("permute", perm, ndim);
    return true;
}

static bool make_expanded(conf_rng *rng, int ndim, const int64_t *shape, int64_t *base,
                          char **steps, int *nsteps)
{
    bool any = false;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] != 1 && conf_rng_chance(rng, 0.6)) {
            base[d] = 1;
            any = true;
        }
    }
    if (any)
        steps[(*nsteps)++] = step_text("expand", shape, ndim);
    return any;
}

conf_layout conf_make_layout(conf_rng *rng, conf_layout layout, int ndim, const int64_t *shape,
                             int64_t *base, char **steps, int *nsteps)
{
    *nsteps = 0;
    for (int d = 0; d < ndim; d++)
        base[d] = shape[d];
    if (ndim == 0)
        return CONF_LAYOUT_CONTIGUOUS;
    int64_t k = conf_rng_range(rng, 0, ndim - 1);
    switch (layout) {
    case CONF_LAYOUT_TRANSPOSED: {
        if (ndim < 2)
            return CONF_LAYOUT_CONTIGUOUS;
        int64_t dims[2] = {k, (k + conf_rng_range(rng, 1, ndim - 1)) % ndim};
        base[dims[0]] = shape[dims[1]];
        base[dims[1]] = shape[dims[0]];
        steps[(*nsteps)++] = step_text("transpose", dims, 2);
        return layout;
    }
    case CONF_LAYOUT_PERMUTED:
        return make_permuted(rng, ndim, shape, base, steps, nsteps) ? layout
                                                                    : CONF_LAYOUT_CONTIGUOUS;
    case CONF_LAYOUT_STEPPED: {
        int64_t step = conf_rng_range(rng, 2, 3), start = conf_rng_range(rng, 0, 1);
        base[k] = start + step * shape[k] + conf_rng_range(rng, 0, 1);
        int64_t args[4] = {k, start, start + step * shape[k], step};
        steps[(*nsteps)++] = step_text("slice", args, 4);
        return layout;
    }
    case CONF_LAYOUT_OFFSET: {
        base[k] = shape[k] + 2;
        int64_t args[4] = {k, 1, 1 + shape[k], 1};
        steps[(*nsteps)++] = step_text("slice", args, 4);
        return layout;
    }
    case CONF_LAYOUT_EXPANDED:
        return make_expanded(rng, ndim, shape, base, steps, nsteps) ? layout
                                                                    : CONF_LAYOUT_CONTIGUOUS;
    default:
        return CONF_LAYOUT_CONTIGUOUS;
    }
}
