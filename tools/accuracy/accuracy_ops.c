/* The ops tessera-accuracy measures, their exact references in long double
 * (PyTorch's definitions: gelu is the erf form, sigmoid 1 / (1 + e^-x)),
 * loading the four floating dtypes, and the call through the public API. */
#include "accuracy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long double ref_rsqrt(long double x) { return 1.0L / sqrtl(x); }
static long double ref_sigmoid(long double x) { return 1.0L / (1.0L + expl(-x)); }
static long double ref_silu(long double x) { return x / (1.0L + expl(-x)); }
static long double ref_gelu(long double x)
{
    /* 1 + erf(x / sqrt 2) as erfc(-x / sqrt 2): no cancellation in the tail. */
    return 0.5L * x * erfcl(-x * 0.707106781186547524400844362104849039L);
}

#define U(name, op, fn) {name, TSR_OP_##op, false, fn, NULL}
#define B(name, op, fn) {name, TSR_OP_##op, true, NULL, fn}

const acc_op acc_ops[] = {
    U("exp", EXP, expl),       U("exp2", EXP2, exp2l),       U("expm1", EXPM1, expm1l),
    U("log", LOG, logl),       U("log2", LOG2, log2l),       U("log10", LOG10, log10l),
    U("log1p", LOG1P, log1pl), U("sqrt", SQRT, sqrtl),       U("rsqrt", RSQRT, ref_rsqrt),
    U("sin", SIN, sinl),       U("cos", COS, cosl),          U("tan", TAN, tanl),
    U("asin", ASIN, asinl),    U("acos", ACOS, acosl),       U("atan", ATAN, atanl),
    U("sinh", SINH, sinhl),    U("cosh", COSH, coshl),       U("tanh", TANH, tanhl),
    U("asinh", ASINH, asinhl), U("acosh", ACOSH, acoshl),    U("atanh", ATANH, atanhl),
    U("erf", ERF, erfl),       U("erfc", ERFC, erfcl),       U("sigmoid", SIGMOID, ref_sigmoid),
    U("silu", SILU, ref_silu), U("gelu", GELU, ref_gelu),    B("pow", POW, powl),
    B("atan2", ATAN2, atan2l), {NULL, 0, false, NULL, NULL},
};

long double acc_reference(const acc_op *op, long double x, long double y)
{
    return op->binary ? op->binary_ref(x, y) : op->unary_ref(x);
}

static float half_to_float(uint16_t h)
{
    int sign = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY)
                        : ldexpf((float)(m | 1024), e - 25);
    return sign ? -v : v;
}

long double acc_load(const acc_format *f, const void *p)
{
    if (f->dtype == TSR_FLOAT64) {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    if (f->dtype == TSR_FLOAT32) {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    uint16_t h;
    memcpy(&h, p, 2);
    if (f->dtype == TSR_FLOAT16)
        return half_to_float(h);
    uint32_t bits = (uint32_t)h << 16;
    float v;
    memcpy(&v, &bits, 4);
    return v;
}

tsr_status acc_call(const acc_op *op, const tsr_tensor *x, const tsr_tensor *y, tsr_tensor **out)
{
    if (op->binary)
        return tsr_binary(op->op, tsr_operand_tensor(x), tsr_operand_tensor(y), out);
    if (op->op == TSR_OP_GELU)
        return tsr_gelu(x, TSR_GELU_NONE, out);
    return tsr_unary(op->op, x, out);
}

/* Whether name is in the comma-separated list (NULL: every name). */
bool acc_selected(const char *list, const char *name)
{
    if (list == NULL)
        return true;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (end != NULL);
    }
    return false;
}

/* Opens the listed backends; one that does not load is named on stderr and
 * left out (its bounds are then reported unchecked). */
int acc_open_backends(const char *list, tsr_backend **out, const char **names)
{
    static char buf[256];
    if (strlen(list) >= sizeof buf) {
        fprintf(stderr, "tessera-accuracy: --backends: list too long\n");
        return -1;
    }
    strcpy(buf, list);
    int n = 0;
    for (char *name = buf; name != NULL && *name;) {
        char *comma = strchr(name, ',');
        if (comma != NULL)
            *comma = '\0';
        if (n == ACC_MAX_BACKENDS) {
            fprintf(stderr, "tessera-accuracy: --backends: at most %d\n", ACC_MAX_BACKENDS);
            return -1;
        }
        if (tsr_backend_get(name, &out[n]) != TSR_OK)
            fprintf(stderr, "tessera-accuracy: backend %s unavailable: %s\n", name,
                    tsr_last_error());
        else
            names[n++] = name;
        name = comma != NULL ? comma + 1 : NULL;
    }
    if (n == 0)
        fprintf(stderr, "tessera-accuracy: no backend could be used\n");
    return n;
}
