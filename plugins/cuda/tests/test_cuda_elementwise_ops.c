/* Every claimed elementwise (op, dtype) of elem_table.c against the
 * reference backend's element function for the same op, dtype and
 * attributes: the claim must be one the reference makes, with the same
 * result dtype and the same zero-divisor rule, and every output element
 * must have the same bits, for every input tuple from the value pools. */
#include <math.h>
#include <string.h>

#include "elementwise_test.h"

enum { MAX_VARIANTS = 8 };

typedef struct variant {
    int present; /* 0: the call has no attrs */
    tsr_elementwise_attrs attrs;
} variant;

static tsr_scalar f_(double v)
{
    tsr_scalar s = {0};
    s.kind = TSR_SCALAR_FLOAT;
    s.v.f = v;
    return s;
}

static tsr_scalar i_(int64_t v)
{
    tsr_scalar s = {0};
    s.kind = TSR_SCALAR_INT;
    s.v.i = v;
    return s;
}

static variant make(int32_t mode, int n, const tsr_scalar *scalars)
{
    variant v;
    memset(&v, 0, sizeof v);
    v.present = 1;
    v.attrs.struct_size = sizeof v.attrs;
    v.attrs.mode = mode;
    for (int k = 0; k < n; k++)
        v.attrs.scalars[k] = scalars[k];
    return v;
}

/* The attribute variants each op is compared under. */
static int variants_of(int32_t op, int32_t dtype, variant *out)
{
    int n = 0;
    const int integral = tsr__cu_dtype_category(dtype) == TSR__CU_INTEGER;
    out[n++] = (variant){0};
    switch (op) {
    case TSR_OP_ADD:
    case TSR_OP_SUB: {
        tsr_scalar s[1] = {integral ? i_(3) : f_(-1.5)};
        out[n++] = make(0, 1, s);
        s[0] = i_(-2);
        out[n++] = make(0, 1, s);
        if (tsr__cu_dtype_category(dtype) == TSR__CU_COMPLEX) {
            s[0].kind = TSR_SCALAR_COMPLEX;
            s[0].v.c.re = 0.5;
            s[0].v.c.im = -2.0;
            out[n++] = make(0, 1, s);
        }
        break;
    }
    case TSR_OP_DIV:
        n = 0;
        if (!integral)
            out[n++] = make(TSR_ROUND_NONE, 0, NULL);
        if (tsr__cu_dtype_category(dtype) != TSR__CU_COMPLEX) {
            out[n++] = make(TSR_ROUND_TRUNC, 0, NULL);
            out[n++] = make(TSR_ROUND_FLOOR, 0, NULL);
        }
        break;
    case TSR_OP_CLAMP:
        n = 0;
        for (int32_t mode = 1; mode <= 7; mode++)
            if (mode != 4)
                out[n++] = make(mode, 0, NULL);
        break;
    case TSR_OP_GELU:
        out[n++] = make(TSR_GELU_TANH, 0, NULL);
        break;
    case TSR_OP_ROUND:
        out[n++] = make(2, 0, NULL);
        out[n++] = make(-1, 0, NULL);
        out[n++] = make(5, 0, NULL);
        break;
    case TSR_OP_SOFTPLUS: {
        tsr_scalar s[2] = {f_(2.0), f_(3.0)};
        out[n++] = make(0, 2, s);
        break;
    }
    case TSR_OP_LEAKY_RELU: {
        tsr_scalar s[1] = {f_(0.2)};
        out[n++] = make(0, 1, s);
        break;
    }
    case TSR_OP_ELU: {
        tsr_scalar s[3] = {f_(1.5), f_(2.0), f_(0.5)};
        out[n++] = make(0, 3, s);
        break;
    }
    case TSR_OP_HARDTANH: {
        tsr_scalar s[2] = {f_(-2.0), f_(3.0)};
        out[n++] = make(0, 2, s);
        s[0] = i_(0);
        s[1] = i_(100);
        out[n++] = make(0, 2, s);
        break;
    }
    case TSR_OP_NAN_TO_NUM: {
        tsr_scalar s[3] = {f_(1.5), f_(100.0), f_(-100.0)};
        out[n++] = make(0, 3, s);
        break;
    }
    case TSR_OP_LERP: {
        tsr_scalar s[1] = {f_(0.3)};
        out[n++] = make(TSR_LERP_SCALAR_WEIGHT, 1, s);
        s[0] = f_(0.7);
        out[n++] = make(TSR_LERP_SCALAR_WEIGHT, 1, s);
        break;
    }
    case TSR_OP_ADDCMUL:
    case TSR_OP_ADDCDIV: {
        tsr_scalar s[1] = {integral ? i_(-3) : f_(0.5)};
        out[n++] = make(0, 1, s);
        break;
    }
    default:
        break;
    }
    return n;
}

typedef struct run {
    const tsr__ref_elementwise_op *ref;
    tsr__ref_elem_call call;
    tsr__ref_category out_category;
    const tsr__cu_elem_op *op;
    tsr__cu_elem_ctx ctx;
    int32_t dtype, out_dtype, zero_check;
} run;

/* Equal bits, or NaN in both (per part): the sign and payload of a NaN
 * computed by arithmetic are the hardware's (x86 keeps an operand's, the
 * GPU makes a canonical one), and PyTorch promises neither. */
static int same_result(int32_t dtype, const unsigned char *want, const unsigned char *got)
{
    int size = tsr__cu_dtype_size(dtype);
    if (memcmp(want, got, (size_t)size) == 0)
        return 1;
    tsr__cu_category cat = tsr__cu_dtype_category(dtype);
    if (cat == TSR__CU_INTEGER)
        return 0;
    tsr__cu_value a = tsr__cu_load(dtype, want), b = tsr__cu_load(dtype, got);
    if (cat == TSR__CU_REAL)
        return isnan(a.f) && isnan(b.f);
    int part = size / 2;
    int re = memcmp(want, got, (size_t)part) == 0 || (isnan(a.c.re) && isnan(b.c.re));
    int im = memcmp(want + part, got + part, (size_t)part) == 0 || (isnan(a.c.im) && isnan(b.c.im));
    return re && im;
}

static void compare_one(const run *r, const unsigned char *const *inputs)
{
    tsr__ref_wide ref_in[3], ref_out;
    tsr__cu_value in[3];
    for (int k = 0; k < r->op->arity; k++) {
        tsr__ref_loader(r->dtype)(inputs[k], &ref_in[k]);
        in[k] = tsr__cu_load(r->dtype, inputs[k]);
    }
    if (r->zero_check && ref_in[1].i == 0)
        return; /* the kernel fails before computing */
    r->call.fn(&ref_out, ref_in, &r->call.ctx);
    unsigned char want[16] = {0}, got[16] = {0};
    tsr__ref_storer(r->out_category, r->out_dtype)(want, &ref_out);
    tsr__cu_category cat = (tsr__cu_category)r->out_category;
    tsr__cu_store(r->out_dtype, cat, got, tsr__cu_elem_apply(&r->ctx, in));
    int size = tsr__cu_dtype_size(r->out_dtype);
    if (!same_result(r->out_dtype, want, got)) {
        char text[160];
        int at = 0;
        for (int k = 0; k < r->op->arity; k++)
            for (int i = tsr__cu_dtype_size(r->dtype) - 1; i >= 0; i--)
                at += snprintf(text + at, sizeof text - (size_t)at, "%02x%s", inputs[k][i],
                               i == 0 && k + 1 < r->op->arity ? " " : "");
        mismatch("op", r->op->op, r->dtype, want, got, size, text);
    }
}

/* Every tuple for unary and binary ops; for ternary ones, pairs from the
 * pool with a few third operands. */
static void compare_all(const run *r, const pool *p)
{
    const unsigned char *in[3];
    if (r->op->arity == 1) {
        for (int a = 0; a < p->count; a++) {
            in[0] = p->bytes[a];
            compare_one(r, in);
        }
        return;
    }
    for (int a = 0; a < p->count; a++)
        for (int b = 0; b < p->count; b++) {
            in[0] = p->bytes[a];
            in[1] = p->bytes[b];
            if (r->op->arity == 2) {
                compare_one(r, in);
                continue;
            }
            for (int c = (a * 13 + b) % 11; c < p->count; c += 11) {
                in[2] = p->bytes[c];
                compare_one(r, in);
            }
        }
}

static tsr__ref_category ref_out_category(const tsr__ref_elementwise_op *op, tsr__ref_category cat)
{
    if (op->result == TSR__REF_RESULT_BOOL)
        return TSR__REF_INTEGER;
    if (op->result == TSR__REF_RESULT_REAL && cat == TSR__REF_COMPLEX)
        return TSR__REF_REAL;
    return cat;
}

void test_ops(void)
{
    const tsr__cu_elem_op *op;
    int claimed = 0;
    for (size_t i = 0; (op = tsr__cu_elem_op_at(i)) != NULL; i++) {
        if (op->op == TSR_OP_FILL)
            continue; /* the reference's fill is not an elementwise-table op: test_fill */
        const tsr__ref_elementwise_op *ref = tsr__ref_elementwise_op_find(op->op);
        CHECK(ref != NULL);
        if (!ref)
            continue;
        CHECK((op->dtypes & ~ref->dtypes) == 0); /* nothing the reference refuses */
        CHECK(op->arity == ref->arity && op->result == ref->result);
        for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++) {
            if (!(op->dtypes & TSR__CU_BIT(dtype)))
                continue;
            claimed++;
            pool p;
            pool_build(dtype, &p);
            variant variants[MAX_VARIANTS];
            int nv = variants_of(op->op, dtype, variants);
            for (int v = 0; v < nv; v++) {
                run r;
                memset(&r, 0, sizeof r);
                r.ref = ref;
                r.op = op;
                r.dtype = dtype;
                r.out_dtype = tsr__cu_elem_result_dtype(op, dtype);
                CHECK(r.out_dtype == tsr__ref_elementwise_result_dtype(ref, dtype));
                tsr__ref_category cat = tsr__ref_dtype_category(dtype);
                r.out_category = ref_out_category(ref, cat);
                const tsr_elementwise_attrs *attrs =
                    variants[v].present ? &variants[v].attrs : NULL;
                r.call.fn = ref->fn[cat];
                r.call.ctx.mode = ref->constant;
                r.call.ctx.round = tsr__ref_real_rounder(dtype);
                r.call.ctx.opmath_round = tsr__ref_real_rounder(
                    tsr__ref_dtype_real_part(dtype) == TSR_FLOAT64 ? TSR_FLOAT64 : TSR_FLOAT32);
                if (ref->bind) {
                    tsr__ref_bind_args bind = {NULL, attrs, dtype, cat};
                    CHECK(ref->bind(&bind, &r.call) == TSR_OK);
                }
                CHECK(r.call.fn != NULL);
                char message[160];
                CHECK(tsr__cu_elem_bind(op, dtype, attrs, &r.ctx, &r.zero_check, message,
                                        sizeof message) == TSR_OK);
                CHECK(r.zero_check == r.call.check_zero_divisor);
                if (!r.call.fn)
                    continue;
                compare_all(&r, &p);
                combinations++;
            }
        }
    }
    CHECK(claimed > 400); /* the table is not accidentally empty */
}

/* Bad attributes come back as errors naming the op, never as a launch. */
void test_bind_errors(void)
{
    struct {
        int32_t op, dtype, mode, status;
    } cases[] = {
        {TSR_OP_DIV, TSR_FLOAT32, 9, TSR_ERR_INVALID_ARGUMENT},
        {TSR_OP_DIV, TSR_INT32, TSR_ROUND_NONE, TSR_ERR_DTYPE},
        {TSR_OP_DIV, TSR_COMPLEX64, TSR_ROUND_FLOOR, TSR_ERR_DTYPE},
        {TSR_OP_CLAMP, TSR_FLOAT32, 16, TSR_ERR_INVALID_ARGUMENT},
        {TSR_OP_GELU, TSR_FLOAT32, 2, TSR_ERR_INVALID_ARGUMENT},
        {TSR_OP_LERP, TSR_FLOAT64, 2, TSR_ERR_INVALID_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        variant v = make(cases[i].mode, 0, NULL);
        tsr__cu_elem_ctx ctx;
        int zero;
        char message[160] = "";
        int status = tsr__cu_elem_bind(tsr__cu_elem_op_find(cases[i].op), cases[i].dtype, &v.attrs,
                                       &ctx, &zero, message, sizeof message);
        CHECK(status == cases[i].status);
        const char *name = cases[i].op == TSR_OP_DIV     ? "div"
                           : cases[i].op == TSR_OP_CLAMP ? "clamp"
                           : cases[i].op == TSR_OP_GELU  ? "gelu"
                                                         : "lerp";
        CHECK(strncmp(message, name, strlen(name)) == 0);
    }
}
