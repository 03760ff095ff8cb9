/* Binary ops on every registered dtype, against host arithmetic done the
 * way PyTorch's CPU kernels do it: integers wrap to the dtype, float16 and
 * bfloat16 compute in float32 and round once, float64 in double. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

enum { N = 40 };

static int64_t itemsize(int dtype)
{
    switch (dtype) {
    case TSR_BOOL:
    case TSR_UINT8:
    case TSR_INT8:
        return 1;
    case TSR_INT16:
    case TSR_FLOAT16:
    case TSR_BFLOAT16:
        return 2;
    case TSR_INT32:
    case TSR_FLOAT32:
        return 4;
    default:
        return 8;
    }
}

static int is_float(int dtype)
{
    return dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 || dtype == TSR_FLOAT32 ||
           dtype == TSR_FLOAT64;
}

static uint16_t bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/* Stores v (already representable) as one element of dtype. */
static void put(void *buf, int dtype, int i, double v)
{
    unsigned char *p = (unsigned char *)buf + i * itemsize(dtype);
    float f = (float)v;
    uint16_t h;
    int64_t n = (int64_t)v;
    switch (dtype) {
    case TSR_FLOAT16:
        h = to_half(f);
        memcpy(p, &h, 2);
        break;
    case TSR_BFLOAT16:
        h = bf16(f);
        memcpy(p, &h, 2);
        break;
    case TSR_FLOAT32:
        memcpy(p, &f, 4);
        break;
    case TSR_FLOAT64:
        memcpy(p, &v, 8);
        break;
    default:
        memcpy(p, &n, (size_t)itemsize(dtype));
        break; /* little-endian low bytes */
    }
}

static double get(const void *buf, int dtype, int i)
{
    const unsigned char *p = (const unsigned char *)buf + i * itemsize(dtype);
    uint16_t h;
    uint32_t u;
    float f;
    double d;
    switch (dtype) {
    case TSR_BOOL:
    case TSR_UINT8:
        return *p;
    case TSR_INT8:
        return (int8_t)*p;
    case TSR_INT16:
        return (int16_t)(p[0] | p[1] << 8);
    case TSR_INT32:
        memcpy(&u, p, 4);
        return (int32_t)u;
    case TSR_INT64: {
        int64_t n;
        memcpy(&n, p, 8);
        return (double)n;
    }
    case TSR_FLOAT16:
        memcpy(&h, p, 2);
        return from_half(h);
    case TSR_BFLOAT16:
        memcpy(&h, p, 2);
        u = (uint32_t)h << 16;
        memcpy(&f, &u, 4);
        return f;
    case TSR_FLOAT32:
        memcpy(&f, p, 4);
        return f;
    default:
        memcpy(&d, p, 8);
        return d;
    }
}

/* The value rounded or wrapped into dtype, as the device must store it. */
static double narrow(int dtype, double v)
{
    unsigned char tmp[8];
    if (dtype == TSR_BOOL)
        return v != 0;
    if (!is_float(dtype)) {
        int64_t n = (int64_t)v; /* the inputs keep results well inside int64 */
        memcpy(tmp, &n, 8);
        return get(tmp, dtype, 0);
    }
    if (dtype == TSR_FLOAT64)
        return v;
    put(tmp, dtype, 0, (float)v);
    return get(tmp, dtype, 0);
}

static double floor_div(double a, double b, int integral)
{
    if (integral)
        return floor(a / b);
    double mod = fmod(a, b), d = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0))
        d -= 1;
    if (d == 0)
        return copysign(0, a / b);
    double fd = floor(d);
    return d - fd > 0.5 ? fd + 1 : fd;
}

static float floor_div_f(float a, float b)
{
    float mod = fmodf(a, b), d = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0))
        d -= 1;
    if (d == 0)
        return copysignf(0, a / b);
    float fd = floorf(d);
    return d - fd > 0.5f ? fd + 1 : fd;
}

static double expected(int op, int dtype, double a, double b)
{
    int integral = !is_float(dtype);
    /* float16/bfloat16/float32 compute in float32: round operands' results
     * to float before narrowing, so double rounding matches the device. */
    int f32 = is_float(dtype) && dtype != TSR_FLOAT64;
    double r;
    switch (op) {
    case TSR_OP_ADD:
        r = f32 ? (double)((float)a + (float)b) : a + b;
        break;
    case TSR_OP_SUB:
        r = f32 ? (double)((float)a - (float)b) : a - b;
        break;
    case TSR_OP_MUL:
        r = f32 ? (double)((float)a * (float)b) : a * b;
        break;
    case TSR_OP_FLOOR_DIVIDE:
        r = f32 ? (double)floor_div_f((float)a, (float)b) : floor_div(a, b, integral);
        break;
    case TSR_OP_REMAINDER: {
        double m = f32 ? (double)fmodf((float)a, (float)b) : fmod(a, b);
        if (m != 0 && (m < 0) != (b < 0))
            m = f32 ? (double)((float)m + (float)b) : m + b;
        r = m;
        break;
    }
    case TSR_OP_MAXIMUM:
        r = a < b ? b : a;
        break;
    case TSR_OP_MINIMUM:
        r = b < a ? b : a;
        break;
    case TSR_OP_LT:
        return a < b;
    case TSR_OP_EQ:
        return a == b;
    default:
        return NAN;
    }
    return narrow(dtype, r);
}

static void sweep(int dtype)
{
    int64_t item = itemsize(dtype);
    unsigned char a[N * 8], b[N * 8], got[N * 8];
    for (int i = 0; i < N; ++i) {
        double x, y;
        if (is_float(dtype)) {
            x = (i - 20) * 0.375 + 0.125;
            y = (i % 7 - 3) * 0.75 + (i % 7 >= 3 ? 0.5 : -0.5);
        } else {
            x = dtype == TSR_UINT8 ? i * 6 + 1 : (i - 20) * 3 + 1;
            y = dtype == TSR_UINT8 ? i % 9 + 1 : (i % 9 - 4) * 2 + (i % 9 >= 4 ? 1 : -1);
        }
        put(a, dtype, i, x);
        put(b, dtype, i, y);
    }
    void *ma = upload(a, (size_t)(N * item)), *mb = upload(b, (size_t)(N * item));
    void *mo = upload(NULL, (size_t)(N * item));
    struct view va, vb, vo, vbool;
    flat(&va, ma, dtype, N, item);
    flat(&vb, mb, dtype, N, item);
    flat(&vo, mo, dtype, N, item);
    flat(&vbool, mo, TSR_BOOL, N, 1);
    const int ops[] = {TSR_OP_ADD,          TSR_OP_SUB,       TSR_OP_MUL,
                       TSR_OP_FLOOR_DIVIDE, TSR_OP_REMAINDER, TSR_OP_MAXIMUM,
                       TSR_OP_MINIMUM,      TSR_OP_LT,        TSR_OP_EQ};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
        int op = ops[k];
        int boolean = op == TSR_OP_LT || op == TSR_OP_EQ;
        const struct view *out = boolean ? &vbool : &vo;
        EXPECT(run2(op, out, &va, &vb, NULL) == TSR_OK, "dtype %d op %d: %s", dtype, op,
               last_error);
        download(mo, got, (size_t)(N * item));
        for (int i = 0; i < N; ++i) {
            double x = get(a, dtype, i), y = get(b, dtype, i);
            double want = expected(op, dtype, x, y);
            double g = get(got, boolean ? TSR_BOOL : dtype, i);
            EXPECT(g == want || (isnan(g) && isnan(want)),
                   "dtype %d op %d (%.17g, %.17g): got %.17g want %.17g", dtype, op, x, y, g, want);
        }
    }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

void binary_ops_on_every_registered_dtype(void)
{
    const int dtypes[] = {TSR_UINT8,   TSR_INT8,     TSR_INT16,   TSR_INT32,  TSR_INT64,
                          TSR_FLOAT16, TSR_BFLOAT16, TSR_FLOAT32, TSR_FLOAT64};
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; ++i) {
        if (!has_kernel(TSR_OP_REMAINDER, dtypes[i], dtypes[i])) {
            printf("note: dtype %d not registered on this device\n", dtypes[i]);
            continue;
        }
        sweep(dtypes[i]);
    }
}
