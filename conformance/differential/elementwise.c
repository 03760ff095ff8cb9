/* Differential draws for the elementwise ops, the reductions, the scans and
 * the products. */
#include "differential/draws.h"

#include <math.h>
#include <string.h>

static conf_value_spec general(void)
{
    return conf_values_of(CONF_VALUES_GENERAL);
}

/* Accumulating ops: no huge values, whose overflow depends on the order. */
static conf_value_spec accumulating(void)
{
    return conf_values_of(CONF_VALUES_NO_HUGE);
}

static bool is_int(tsr_dtype dtype)
{
    return tsr_dtype_is_integral(dtype, false);
}

static bool is_float(tsr_dtype dtype)
{
    return tsr_dtype_is_floating(dtype) || tsr_dtype_is_complex(dtype);
}

static bool pick(conf_draft *d, double p)
{
    return conf_rng_chance(d->rng, p);
}

/* A tensor of random rank (0 to 4) and shape, empty sometimes. */
static conf_input *random_tensor(conf_draft *d, const char *name, conf_value_spec values, int *ndim,
                                 int64_t *shape)
{
    *ndim = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, *ndim, true, shape);
    return conf_draft_tensor(d, name, d->dtype, *ndim, shape, values, CONF_LAYOUT_COUNT);
}

/* A scalar arg of the dtype's kind: int for integers, float otherwise. */
static void arg_number(conf_draft *d, const char *name, int64_t int_value, double float_value)
{
    if (is_int(d->dtype) || d->dtype == TSR_BOOL)
        conf_draft_arg_int(d, name, int_value);
    else
        conf_draft_arg_double(d, name, float_value);
}

/* Integer divisors: zeros replaced by 1 but now and then, so that the error
 * path is drawn too without drowning the rest. */
static void avoid_zeros(conf_draft *d, const conf_input *in)
{
    conf_array *a = conf_draft_array(d, in);
    if (!a || !is_int(a->dtype) || pick(d, 0.1))
        return;
    size_t size = tsr_dtype_size(a->dtype), n = 1;
    for (int i = 0; i < a->ndim; i++)
        n *= (size_t)a->shape[i];
    static const unsigned char zero[8] = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)a->data + i * size;
        if (memcmp(p, zero, size) == 0)
            p[0] = 1;
    }
}

/* ------------------------------------------------------------------------ */
/* Unary                                                                     */
/* ------------------------------------------------------------------------ */

static bool draw_unary(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    return random_tensor(d, "input", general(), &n, s) != NULL;
}

static bool draw_gelu(conf_draft *d)
{
    if (pick(d, 0.6))
        conf_draft_arg_string(d, "approximate", pick(d, 0.5) ? "tanh" : "none");
    return draw_unary(d);
}

static bool draw_round(conf_draft *d)
{
    if (pick(d, 0.4))
        conf_draft_arg_int(d, "decimals", conf_rng_range(d->rng, -2, 3));
    return draw_unary(d);
}

static bool draw_softplus(conf_draft *d)
{
    static const double betas[] = {0.5, 1.0, 2.0}, thresholds[] = {1.0, 5.0, 20.0};
    if (pick(d, 0.5))
        conf_draft_arg_double(d, "beta", betas[conf_rng_range(d->rng, 0, 2)]);
    if (pick(d, 0.5))
        conf_draft_arg_double(d, "threshold", thresholds[conf_rng_range(d->rng, 0, 2)]);
    return draw_unary(d);
}

static bool draw_leaky_relu(conf_draft *d)
{
    static const double slopes[] = {0.01, 0.2, -0.5, 0.0};
    if (pick(d, 0.6))
        conf_draft_arg_double(d, "negative_slope", slopes[conf_rng_range(d->rng, 0, 3)]);
    return draw_unary(d);
}

static bool draw_elu(conf_draft *d)
{
    static const double alphas[] = {1.0, 0.5, 2.0};
    if (pick(d, 0.6))
        conf_draft_arg_double(d, "alpha", alphas[conf_rng_range(d->rng, 0, 2)]);
    return draw_unary(d);
}

static bool draw_hardtanh(conf_draft *d)
{
    if (pick(d, 0.6)) {
        int64_t lo = conf_rng_range(d->rng, -3, 0), hi = conf_rng_range(d->rng, 0, 3);
        arg_number(d, "min_val", lo, (double)lo * 0.5);
        arg_number(d, "max_val", hi, (double)hi * 0.75);
    }
    return draw_unary(d);
}

static bool draw_nan_to_num(conf_draft *d)
{
    static const char *const names[] = {"nan", "posinf", "neginf"};
    for (int i = 0; i < 3; i++) {
        if (pick(d, 0.4))
            conf_draft_arg_double(d, names[i], conf_rng_normal(d->rng) * 10.0);
    }
    return draw_unary(d);
}

/* clamp(input, min=, max=): each bound a scalar or a broadcastable tensor. */
static bool draw_clamp(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    if (!random_tensor(d, "input", general(), &n, s))
        return false;
    int which = (int)conf_rng_range(d->rng, 1, 3); /* bit 1: min, bit 2: max */
    static const char *const names[] = {"min", "max"};
    for (int b = 0; b < 2; b++) {
        if (!(which & (1 << b)))
            continue;
        if (pick(d, 0.6)) {
            conf_draft_scalar(d, names[b], conf_draft_scalar_value(d, d->dtype, general()));
        } else {
            int nb;
            int64_t sb[TSR_MAX_DIMS];
            conf_draft_broadcastable(d, n, s, &nb, sb);
            conf_draft_tensor(d, names[b], d->dtype, nb, sb, general(), CONF_LAYOUT_COUNT);
        }
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Binary and ternary                                                        */
/* ------------------------------------------------------------------------ */

/* input and `second` broadcasting together (second a scalar sometimes). */
static conf_input *binary_operands(conf_draft *d, const char *second, conf_value_spec a_values,
                                   conf_value_spec b_values)
{
    int n, na, nb;
    int64_t s[TSR_MAX_DIMS], a[TSR_MAX_DIMS], b[TSR_MAX_DIMS];
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_broadcastable(d, n, s, &na, a);
    conf_draft_broadcastable(d, n, s, &nb, b);
    if (pick(d, 0.5)) /* one side full, so the result has the drawn shape */
        conf_draft_tensor(d, "input", d->dtype, n, s, a_values, CONF_LAYOUT_COUNT);
    else
        conf_draft_tensor(d, "input", d->dtype, na, a, a_values, CONF_LAYOUT_COUNT);
    if (pick(d, 0.15)) {
        conf_draft_scalar(d, second, conf_draft_scalar_value(d, d->dtype, b_values));
        return NULL;
    }
    return conf_draft_tensor(d, second, d->dtype, nb, b, b_values, CONF_LAYOUT_COUNT);
}

static bool draw_binary(conf_draft *d)
{
    binary_operands(d, "other", general(), general());
    return d->c->ninputs == 2;
}

static bool draw_add_sub(conf_draft *d)
{
    binary_operands(d, "other", general(), general());
    if (d->dtype != TSR_BOOL && pick(d, 0.3))
        arg_number(d, "alpha", conf_rng_range(d->rng, -3, 3), pick(d, 0.5) ? 0.5 : -2.0);
    return d->c->ninputs == 2;
}

static bool draw_division(conf_draft *d)
{
    avoid_zeros(d, binary_operands(d, "other", general(), general()));
    return d->c->ninputs == 2;
}

static bool draw_div(conf_draft *d)
{
    int mode = (int)conf_rng_range(d->rng, 0, 2);
    if (mode > 0)
        conf_draft_arg_string(d, "rounding_mode", mode == 1 ? "trunc" : "floor");
    return draw_division(d);
}

static bool draw_pow(conf_draft *d)
{
    if (is_int(d->dtype))
        binary_operands(d, "exponent", conf_values_range(-4, 4), conf_values_range(0, 4));
    else
        binary_operands(d, "exponent", general(), general());
    return d->c->ninputs == 2;
}

static bool draw_shift(conf_draft *d)
{
    int64_t bits = 8 * (int64_t)tsr_dtype_size(d->dtype);
    conf_value_spec amount =
        pick(d, 0.8) ? conf_values_range(0, bits - 1) : conf_values_range(-2, bits + 2);
    binary_operands(d, "other", general(), amount);
    return d->c->ninputs == 2;
}

static bool draw_where(conf_draft *d)
{
    int n, nb;
    int64_t s[TSR_MAX_DIMS], b[TSR_MAX_DIMS];
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_broadcastable(d, n, s, &nb, b);
    conf_draft_tensor(d, "condition", TSR_BOOL, nb, b, general(), CONF_LAYOUT_COUNT);
    static const char *const names[] = {"input", "other"};
    for (int i = 0; i < 2; i++) {
        if (pick(d, 0.15)) {
            conf_draft_scalar(d, names[i], conf_draft_scalar_value(d, d->dtype, general()));
        } else {
            conf_draft_broadcastable(d, n, s, &nb, b);
            conf_draft_tensor(d, names[i], d->dtype, i == 0 ? n : nb, i == 0 ? s : b, general(),
                              CONF_LAYOUT_COUNT);
        }
    }
    return d->c->ninputs == 3;
}

/* input, a and b broadcasting together. */
static void three_operands(conf_draft *d, const char *a, const char *b)
{
    int n, nb;
    int64_t s[TSR_MAX_DIMS], sb[TSR_MAX_DIMS];
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "input", d->dtype, n, s, general(), CONF_LAYOUT_COUNT);
    conf_draft_broadcastable(d, n, s, &nb, sb);
    conf_draft_tensor(d, a, d->dtype, nb, sb, general(), CONF_LAYOUT_COUNT);
    if (b) {
        conf_draft_broadcastable(d, n, s, &nb, sb);
        conf_draft_tensor(d, b, d->dtype, nb, sb, general(), CONF_LAYOUT_COUNT);
    }
}

static bool draw_lerp(conf_draft *d)
{
    three_operands(d, "end", pick(d, 0.5) ? "weight" : NULL);
    if (d->c->ninputs == 2)
        conf_draft_scalar(d, "weight", tsr_scalar_float(conf_rng_uniform(d->rng) * 1.5 - 0.25));
    return d->c->ninputs == 3;
}

static bool draw_addc(conf_draft *d)
{
    three_operands(d, "tensor1", "tensor2");
    if (pick(d, 0.5))
        arg_number(d, "value", conf_rng_range(d->rng, -2, 3), pick(d, 0.5) ? 0.5 : -1.5);
    return d->c->ninputs == 3;
}

/* ------------------------------------------------------------------------ */
/* Reductions and scans                                                      */
/* ------------------------------------------------------------------------ */

/* dim: absent (every dim), one dim, or (with `lists`) a list of distinct dims. */
static void arg_dims(conf_draft *d, int ndim, bool lists, bool required)
{
    double u = conf_rng_uniform(d->rng);
    if (!required && u < 0.25)
        return;
    if (!lists || u < 0.6 || ndim == 0) {
        conf_draft_arg_int(d, "dim", conf_draft_dim(d, ndim));
        return;
    }
    int64_t dims[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < ndim; i++) {
        if (pick(d, 0.5))
            dims[n++] = pick(d, 0.2) ? i - ndim : i;
    }
    conf_draft_arg_int_list(d, "dim", n ? n : 1, n ? dims : (int64_t[]){0});
}

static void arg_keepdim(conf_draft *d)
{
    if (pick(d, 0.5))
        conf_draft_arg_bool(d, "keepdim", pick(d, 0.5));
}

static bool reduction(conf_draft *d, conf_value_spec values, bool lists, bool required,
                      bool keepdim)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    if (!random_tensor(d, "input", values, &n, s))
        return false;
    arg_dims(d, n, lists, required);
    if (keepdim)
        arg_keepdim(d);
    return true;
}

static bool draw_sum_like(conf_draft *d)
{
    return reduction(d, accumulating(), true, false, true);
}

static bool draw_extremum(conf_draft *d) /* amax, amin, all, any */
{
    bool lists = strcmp(d->c->op, "all") != 0 && strcmp(d->c->op, "any") != 0;
    return reduction(d, general(), lists, false, true);
}

static bool draw_arg_extremum(conf_draft *d) /* argmax, argmin, aminmax */
{
    return reduction(d, general(), false, false, true);
}

/* max / min: (values, indices) along a dim, or the value of everything. */
static bool draw_max_min(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    if (!random_tensor(d, "input", general(), &n, s))
        return false;
    if (pick(d, 0.7)) {
        conf_draft_arg_int(d, "dim", conf_draft_dim(d, n));
        arg_keepdim(d);
    }
    return true;
}

static bool draw_moments(conf_draft *d)
{
    if (!reduction(d, accumulating(), true, false, true))
        return false;
    if (pick(d, 0.6))
        conf_draft_arg_int(d, "correction", conf_rng_range(d->rng, 0, 2));
    return true;
}

static bool draw_count_nonzero(conf_draft *d)
{
    return reduction(d, conf_values_range(-1, 1), true, false, false);
}

static bool draw_norm(conf_draft *d)
{
    static const double orders[] = {2.0, 1.0, INFINITY, -INFINITY, 0.0, 3.0, 0.5};
    const char *name = strcmp(d->c->op, "norm") == 0 ? "p" : "ord";
    if (!reduction(d, accumulating(), true, false, true))
        return false;
    if (pick(d, 0.7))
        conf_draft_arg_double(d, name, orders[conf_rng_range(d->rng, 0, 6)]);
    return true;
}

static bool draw_logsumexp(conf_draft *d)
{
    return reduction(d, accumulating(), true, true, true);
}

static bool draw_scan(conf_draft *d)
{
    bool product = strcmp(d->c->op, "cumprod") == 0;
    bool selecting = strcmp(d->c->op, "cummax") == 0 || strcmp(d->c->op, "cummin") == 0;
    conf_value_spec values = selecting ? general()
                             : product ? conf_values_of(CONF_VALUES_FINITE)
                                       : accumulating();
    return reduction(d, values, false, true, false);
}

/* ------------------------------------------------------------------------ */
/* Products                                                                  */
/* ------------------------------------------------------------------------ */

static conf_value_spec product_values(const conf_draft *d)
{
    return is_float(d->dtype) ? accumulating() : conf_values_range(-4, 4);
}

static void matrix(conf_draft *d, const char *name, int ndim, const int64_t *shape)
{
    conf_draft_tensor(d, name, d->dtype, ndim, shape, product_values(d), CONF_LAYOUT_COUNT);
}

static int64_t extent(conf_draft *d)
{
    return pick(d, 0.05) ? 0 : conf_rng_range(d->rng, 1, 6);
}

/* torch.matmul's cases: vector or matrix on either side, batches broadcast. */
static bool draw_matmul(conf_draft *d)
{
    int64_t n = extent(d), k = extent(d), m = extent(d), b = conf_rng_range(d->rng, 1, 3);
    int na = (int)conf_rng_range(d->rng, 1, 4), nb = (int)conf_rng_range(d->rng, 1, 3);
    int64_t a[4], c[4];
    for (int i = 0; i < na - 2; i++)
        a[i] = pick(d, 0.3) ? 1 : b;
    if (na == 1)
        a[0] = k;
    else
        a[na - 2] = n, a[na - 1] = k;
    if (nb == 1) {
        c[0] = k;
    } else {
        for (int i = 0; i < nb - 2; i++)
            c[i] = pick(d, 0.3) ? 1 : b;
        c[nb - 2] = k, c[nb - 1] = m;
    }
    matrix(d, "input", na, a);
    matrix(d, "other", nb, c);
    return true;
}

static bool draw_mm(conf_draft *d)
{
    int64_t n = extent(d), k = extent(d), m = extent(d), b = extent(d);
    bool batched = strcmp(d->c->op, "bmm") == 0;
    int64_t a[3] = {b, n, k}, c[3] = {b, k, m};
    matrix(d, "input", batched ? 3 : 2, batched ? a : a + 1);
    matrix(d, "mat2", batched ? 3 : 2, batched ? c : c + 1);
    return true;
}

static bool draw_vector_pair(conf_draft *d)
{
    bool outer = strcmp(d->c->op, "outer") == 0;
    int64_t k = extent(d), k2 = outer ? extent(d) : k;
    const char *second = outer ? "vec2" : strcmp(d->c->op, "dot") == 0 ? "tensor" : "other";
    matrix(d, "input", 1, &k);
    matrix(d, second, 1, &k2);
    return true;
}

static void alpha_beta(conf_draft *d)
{
    if (pick(d, 0.4))
        arg_number(d, "beta", conf_rng_range(d->rng, -1, 2), pick(d, 0.5) ? 0.0 : 0.5);
    if (pick(d, 0.4))
        arg_number(d, "alpha", conf_rng_range(d->rng, -2, 2), -1.5);
}

static bool draw_add_product(conf_draft *d)
{
    bool batched = strcmp(d->c->op, "baddbmm") == 0;
    int64_t b = extent(d), n = extent(d), k = extent(d), m = extent(d);
    int64_t out[3] = {b, n, m}, a[3] = {b, n, k}, c[3] = {b, k, m}, in[3];
    int nout = batched ? 3 : 2, nin;
    conf_draft_broadcastable(d, nout, batched ? out : out + 1, &nin, in);
    matrix(d, "input", nin, in);
    matrix(d, batched ? "batch1" : "mat1", nout, batched ? a : a + 1);
    matrix(d, batched ? "batch2" : "mat2", nout, batched ? c : c + 1);
    alpha_beta(d);
    return true;
}

/* einsum over a few equations: contractions, transposes, traces, batches
 * (both operands of one rank, as conf_draft_list makes them). */
static bool draw_einsum(conf_draft *d)
{
    static const struct {
        const char *equation;
        int operands;
        const char *dims[2]; /* the letters of each operand */
    } forms[] = {
        {"ij,jk->ik", 2, {"ij", "jk"}},      {"ij->ji", 1, {"ij", ""}}, {"ii->i", 1, {"ii", ""}},
        {"bij,bjk->bik", 2, {"bij", "bjk"}}, {"i,i->", 2, {"i", "i"}},  {"i,j->ij", 2, {"i", "j"}},
        {"ijk->k", 1, {"ijk", ""}},
    };
    int f = (int)conf_rng_range(d->rng, 0, sizeof forms / sizeof forms[0] - 1);
    int64_t size[26];
    for (int i = 0; i < 26; i++)
        size[i] = extent(d);
    int64_t shapes[2][TSR_MAX_DIMS];
    int ndims[2] = {0, 0};
    for (int k = 0; k < forms[f].operands; k++) {
        for (const char *c = forms[f].dims[k]; *c; c++)
            shapes[k][ndims[k]++] = size[*c - 'a'];
    }
    conf_draft_list(d, "operands", forms[f].operands, d->dtype, ndims[0],
                    (const int64_t(*)[TSR_MAX_DIMS])shapes, product_values(d));
    conf_draft_arg_string(d, "equation", forms[f].equation);
    return true;
}

static bool draw_tensordot(conf_draft *d)
{
    int64_t a[3] = {extent(d), extent(d), extent(d)}, b[3];
    int contracted = (int)conf_rng_range(d->rng, 0, 2);
    for (int i = 0; i < contracted; i++)
        b[i] = a[3 - contracted + i];
    for (int i = contracted; i < 3; i++)
        b[i] = extent(d);
    matrix(d, "a", 3, a);
    matrix(d, "b", 3, b);
    conf_draft_arg_int(d, "dims", contracted);
    return true;
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */
/* ------------------------------------------------------------------------ */

enum {
    EXACT = CONF_DIFF_EXACT,
    UNARY_ = CONF_DIFF_INPLACE_UNARY,
    BINARY_ = CONF_DIFF_INPLACE_BINARY,
};

const conf_diff_op conf_diff_ops_elementwise[] = {
    {"neg", draw_unary, EXACT | UNARY_},
    {"abs", draw_unary, EXACT | UNARY_},
    {"sign", draw_unary, EXACT | UNARY_},
    {"exp", draw_unary, UNARY_},
    {"log", draw_unary, UNARY_},
    {"log1p", draw_unary, UNARY_},
    {"expm1", draw_unary, UNARY_},
    {"sqrt", draw_unary, UNARY_},
    {"rsqrt", draw_unary, UNARY_},
    {"sin", draw_unary, UNARY_},
    {"cos", draw_unary, UNARY_},
    {"tanh", draw_unary, UNARY_},
    {"sigmoid", draw_unary, UNARY_},
    {"relu", draw_unary, EXACT | UNARY_},
    {"erf", draw_unary, UNARY_},
    {"logical_not", draw_unary, UNARY_},
    {"bitwise_not", draw_unary, EXACT | UNARY_},
    {"exp2", draw_unary, UNARY_},
    {"log2", draw_unary, UNARY_},
    {"log10", draw_unary, UNARY_},
    {"tan", draw_unary, UNARY_},
    {"asin", draw_unary, UNARY_},
    {"acos", draw_unary, UNARY_},
    {"atan", draw_unary, UNARY_},
    {"sinh", draw_unary, UNARY_},
    {"cosh", draw_unary, UNARY_},
    {"asinh", draw_unary, UNARY_},
    {"acosh", draw_unary, UNARY_},
    {"atanh", draw_unary, UNARY_},
    {"erfc", draw_unary, UNARY_},
    {"silu", draw_unary, UNARY_},
    {"floor", draw_unary, EXACT | UNARY_},
    {"ceil", draw_unary, EXACT | UNARY_},
    {"trunc", draw_unary, EXACT | UNARY_},
    {"frac", draw_unary, UNARY_},
    {"reciprocal", draw_unary, UNARY_},
    {"square", draw_unary, UNARY_},
    {"isnan", draw_unary, 0},
    {"isinf", draw_unary, 0},
    {"isfinite", draw_unary, 0},
    {"round", draw_round, EXACT | UNARY_},
    {"gelu", draw_gelu, 0},
    {"softplus", draw_softplus, 0},
    {"leaky_relu", draw_leaky_relu, 0},
    {"elu", draw_elu, 0},
    {"hardtanh", draw_hardtanh, EXACT},
    {"nan_to_num", draw_nan_to_num, EXACT},
    {"clamp", draw_clamp, EXACT},
    {"add", draw_add_sub, BINARY_},
    {"sub", draw_add_sub, BINARY_},
    {"mul", draw_binary, BINARY_},
    {"div", draw_div, BINARY_},
    {"floor_divide", draw_division, BINARY_},
    {"remainder", draw_division, BINARY_},
    {"fmod", draw_division, BINARY_},
    {"pow", draw_pow, BINARY_},
    {"maximum", draw_binary, EXACT | BINARY_},
    {"minimum", draw_binary, EXACT | BINARY_},
    {"fmax", draw_binary, EXACT},
    {"fmin", draw_binary, EXACT},
    {"eq", draw_binary, 0},
    {"ne", draw_binary, 0},
    {"lt", draw_binary, 0},
    {"le", draw_binary, 0},
    {"gt", draw_binary, 0},
    {"ge", draw_binary, 0},
    {"logical_and", draw_binary, 0},
    {"logical_or", draw_binary, 0},
    {"logical_xor", draw_binary, 0},
    {"atan2", draw_binary, BINARY_},
    {"hypot", draw_binary, BINARY_},
    {"copysign", draw_binary, EXACT | BINARY_},
    {"bitwise_and", draw_binary, EXACT | BINARY_},
    {"bitwise_or", draw_binary, EXACT | BINARY_},
    {"bitwise_xor", draw_binary, EXACT | BINARY_},
    {"bitwise_left_shift", draw_shift, EXACT | BINARY_},
    {"bitwise_right_shift", draw_shift, EXACT | BINARY_},
    {"where", draw_where, EXACT},
    {"lerp", draw_lerp, 0},
    {"addcmul", draw_addc, 0},
    {"addcdiv", draw_addc, 0},
    {"sum", draw_sum_like, 0},
    {"nansum", draw_sum_like, 0},
    {"prod", draw_sum_like, 0},
    {"mean", draw_sum_like, 0},
    {"nanmean", draw_sum_like, 0},
    {"amax", draw_extremum, EXACT},
    {"amin", draw_extremum, EXACT},
    {"all", draw_extremum, EXACT},
    {"any", draw_extremum, EXACT},
    {"argmax", draw_arg_extremum, EXACT},
    {"argmin", draw_arg_extremum, EXACT},
    {"aminmax", draw_arg_extremum, EXACT},
    {"max", draw_max_min, EXACT},
    {"min", draw_max_min, EXACT},
    {"var", draw_moments, 0},
    {"std", draw_moments, 0},
    {"var_mean", draw_moments, 0},
    {"std_mean", draw_moments, 0},
    {"count_nonzero", draw_count_nonzero, EXACT},
    {"linalg_vector_norm", draw_norm, 0},
    {"norm", draw_norm, 0},
    {"logsumexp", draw_logsumexp, 0},
    {"cumsum", draw_scan, 0},
    {"cumprod", draw_scan, 0},
    {"logcumsumexp", draw_scan, 0},
    {"cummax", draw_scan, EXACT},
    {"cummin", draw_scan, EXACT},
    {"matmul", draw_matmul, 0},
    {"mm", draw_mm, 0},
    {"bmm", draw_mm, 0},
    {"dot", draw_vector_pair, 0},
    {"vdot", draw_vector_pair, 0},
    {"outer", draw_vector_pair, 0},
    {"addmm", draw_add_product, 0},
    {"baddbmm", draw_add_product, 0},
    {"einsum", draw_einsum, 0},
    {"tensordot", draw_tensordot, 0},
};
const size_t conf_diff_ops_elementwise_count =
    sizeof conf_diff_ops_elementwise / sizeof conf_diff_ops_elementwise[0];
