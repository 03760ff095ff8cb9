/* Differential draws for the products: torch.matmul ... torch.tensordot. */
#include "differential/draw_helpers.h"

#include <string.h>

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

const conf_diff_op conf_diff_draws_products[] = {
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
const size_t conf_diff_draws_products_count =
    sizeof conf_diff_draws_products / sizeof conf_diff_draws_products[0];
