/* Differential draws for the products family's vector and structured
 * products: trace ... linalg_vander. Shapes are small, empty now and then,
 * in any layout; dtypes are whatever the runner deals (an op's refusal of
 * one must then match on both backends). */
#include "differential/draw_helpers.h"

#include <string.h>

static conf_value_spec values_for(const conf_draft *d)
{
    return is_float(d->dtype) ? accumulating() : conf_values_range(-4, 4);
}

static void operand(conf_draft *d, const char *name, int ndim, const int64_t *shape)
{
    conf_draft_tensor(d, name, d->dtype, ndim, shape, values_for(d), CONF_LAYOUT_COUNT);
}

static int64_t extent(conf_draft *d)
{
    return pick(d, 0.05) ? 0 : range(d, 1, 5);
}

static void beta_alpha(conf_draft *d)
{
    if (pick(d, 0.4))
        arg_number(d, "beta", range(d, -1, 2), pick(d, 0.5) ? 0.0 : 0.5);
    if (pick(d, 0.4))
        arg_number(d, "alpha", range(d, -2, 2), -1.5);
}

static bool draw_trace(conf_draft *d)
{
    int64_t shape[2] = {extent(d), extent(d)};
    operand(d, "input", 2, shape);
    return true;
}

static bool draw_kron(conf_draft *d)
{
    int na = (int)range(d, 0, 3), nb = (int)range(d, 0, 3);
    int64_t a[3], b[3];
    for (int i = 0; i < na; i++)
        a[i] = extent(d);
    for (int i = 0; i < nb; i++)
        b[i] = extent(d);
    operand(d, "input", na, a);
    operand(d, "other", nb, b);
    return true;
}

static bool draw_inner(conf_draft *d)
{
    int na = (int)range(d, 1, 3), nb = (int)range(d, 1, 2);
    int64_t k = extent(d), a[3], b[2];
    for (int i = 0; i < na; i++)
        a[i] = i == na - 1 ? k : extent(d);
    for (int i = 0; i < nb; i++)
        b[i] = i == nb - 1 ? k : extent(d);
    operand(d, "input", na, a);
    operand(d, "other", nb, b);
    return true;
}

/* mv and addmv: mat [n, m], vec [m], addmv's input [n], [1] or 0-d. */
static bool draw_mv(conf_draft *d)
{
    bool add = strcmp(d->c->op, "addmv") == 0;
    int64_t n = extent(d), m = extent(d);
    if (add) {
        int64_t in = pick(d, 0.2) ? 1 : n;
        operand(d, "input", pick(d, 0.2) ? 0 : 1, &in);
    }
    operand(d, add ? "mat" : "input", 2, (int64_t[]){n, m});
    operand(d, "vec", 1, &m);
    if (add)
        beta_alpha(d);
    return true;
}

static bool draw_addr(conf_draft *d)
{
    int64_t n = extent(d), m = extent(d), out[2] = {n, m}, in[2];
    int nin;
    conf_draft_broadcastable(d, 2, out, &nin, in);
    operand(d, "input", nin, in);
    operand(d, "vec1", 1, &n);
    operand(d, "vec2", 1, &m);
    if (d->dtype != TSR_BOOL)
        beta_alpha(d);
    return true;
}

static bool draw_addbmm(conf_draft *d)
{
    int64_t b = extent(d), n = extent(d), k = extent(d), p = extent(d), out[2] = {n, p}, in[2];
    int nin;
    conf_draft_broadcastable(d, 2, out, &nin, in);
    operand(d, "input", nin, in);
    operand(d, "batch1", 3, (int64_t[]){b, n, k});
    operand(d, "batch2", 3, (int64_t[]){b, k, p});
    beta_alpha(d);
    return true;
}

/* cross / linalg_cross: one rank, size 3 at the dim, other dims broadcasting
 * (size 1 on one side now and then); cross without dim sometimes. */
static bool draw_cross(conf_draft *d)
{
    bool linalg = strcmp(d->c->op, "linalg_cross") == 0;
    int ndim = (int)range(d, 1, 3), at = (int)range(d, 0, ndim - 1);
    int64_t a[3], b[3];
    for (int i = 0; i < ndim; i++) {
        a[i] = b[i] = i == at ? 3 : extent(d);
        if (i != at && pick(d, 0.2))
            *(pick(d, 0.5) ? &a[i] : &b[i]) = 1;
    }
    operand(d, "input", ndim, a);
    operand(d, "other", ndim, b);
    if (linalg ? at != ndim - 1 : pick(d, 0.5))
        conf_draft_arg_int(d, "dim", pick(d, 0.5) ? at : at - ndim);
    return true;
}

static bool draw_vecdot(conf_draft *d)
{
    int ndim = (int)range(d, 1, 3);
    int64_t a[3], b[3];
    for (int i = 0; i < ndim; i++) {
        a[i] = b[i] = extent(d);
        if (pick(d, 0.2))
            *(pick(d, 0.5) ? &a[i] : &b[i]) = 1;
    }
    operand(d, "x", ndim, a);
    operand(d, "y", ndim, b);
    if (pick(d, 0.5))
        conf_draft_arg_int(d, "dim", range(d, -ndim, ndim - 1));
    return true;
}

/* A chain of 2 to 5 matrices whose sizes vary widely (the order matters). */
static bool draw_multi_dot(conf_draft *d)
{
    int n = (int)range(d, 2, 5);
    int64_t dims[6], shapes[5][TSR_MAX_DIMS];
    for (int i = 0; i <= n; i++)
        dims[i] = pick(d, 0.03) ? 0 : range(d, 1, 8);
    for (int i = 0; i < n; i++)
        shapes[i][0] = dims[i], shapes[i][1] = dims[i + 1];
    conf_draft_list(d, "tensors", n, d->dtype, 2, (const int64_t(*)[TSR_MAX_DIMS])shapes,
                    values_for(d));
    return true;
}

static bool draw_matrix_power(conf_draft *d)
{
    int64_t m = extent(d), shape[3] = {extent(d), m, m};
    bool batched = pick(d, 0.4);
    conf_draft_tensor(d, "input", d->dtype, batched ? 3 : 2, batched ? shape : shape + 1,
                      is_float(d->dtype) ? conf_values_range(-1, 1) : conf_values_range(-2, 2),
                      CONF_LAYOUT_COUNT);
    conf_draft_arg_int(d, "n", range(d, 0, 9));
    return true;
}

static bool draw_diag_embed(conf_draft *d)
{
    int ndim = (int)range(d, 1, 3);
    int64_t shape[3];
    for (int i = 0; i < ndim; i++)
        shape[i] = extent(d);
    operand(d, "input", ndim, shape);
    if (pick(d, 0.6))
        conf_draft_arg_int(d, "offset", range(d, -3, 3));
    if (pick(d, 0.5)) {
        int64_t d1 = range(d, 0, ndim), d2 = range(d, 0, ndim - 1);
        conf_draft_arg_int(d, "dim1", d1);
        conf_draft_arg_int(d, "dim2", d2 >= d1 ? d2 + 1 : d2);
    }
    return true;
}

static bool draw_vander(conf_draft *d)
{
    int ndim = (int)range(d, 1, 2);
    int64_t shape[2] = {extent(d), range(d, 2, 5)};
    operand(d, "x", ndim, ndim == 1 ? shape + 1 : shape);
    if (pick(d, 0.5))
        conf_draft_arg_int(d, "N", range(d, 2, 6));
    return true;
}

const conf_diff_op conf_diff_draws_products_vector[] = {
    {"trace", draw_trace, 0},
    {"kron", draw_kron, EXACT},
    {"inner", draw_inner, 0},
    {"mv", draw_mv, 0},
    {"addmv", draw_mv, 0},
    {"addr", draw_addr, 0},
    {"addbmm", draw_addbmm, 0},
    {"cross", draw_cross, 0},
    {"linalg_cross", draw_cross, 0},
    {"linalg_vecdot", draw_vecdot, 0},
    {"linalg_multi_dot", draw_multi_dot, 0},
    {"linalg_matrix_power", draw_matrix_power, 0},
    {"diag_embed", draw_diag_embed, EXACT},
    {"linalg_vander", draw_vander, 0},
};
const size_t conf_diff_draws_products_vector_count =
    sizeof conf_diff_draws_products_vector / sizeof conf_diff_draws_products_vector[0];
