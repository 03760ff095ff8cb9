/* Gradients of the indexing, joining, rearranging and sorting ops: autograd's
 * Jacobian against central finite differences in float64 (tsr_gradcheck),
 * and the Jacobian of each gradient (double backward), since every formula
 * is built from differentiable public ops. Index tensors are constants made
 * inside each function; inputs have distinct values so sorts have no ties.
 *
 * Families here: index, join, mask, scatter (the most cases), rearrange,
 * sort and unique. More of scatter's gradients (reduce=multiply with a
 * value, scatter_reduce(prod)'s double backward): test_scatter_grad.c. */
#include "check.h"
#include "grad_harness.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

typedef tsr_status (*op_fn)(const tsr_tensor *const *in, tsr_tensor **out);

typedef struct grad_case {
    const char *name;
    op_fn fn;
    int n;
    int ndim[2];
    int64_t shape[2][3];
} grad_case;

static tsr_tensor *index_of(int ndim, const int64_t *shape, const int64_t *values, size_t n)
{
    tsr_tensor *t = NULL;
    tsr_from_host(values, n * sizeof *values, ndim, shape, TSR_INT64, NULL, &t);
    return t;
}

/* Runs call(in, index, out) with a constant index and releases it. */
#define WITH_INDEX(idx, expr)                                                                      \
    do {                                                                                           \
        tsr_tensor *index_ = (idx);                                                                \
        tsr_status st_ = index_ ? (expr) : TSR_ERR_OUT_OF_MEMORY;                                  \
        tsr_tensor_release(index_);                                                                \
        return st_;                                                                                \
    } while (0)

/* ---- joining ------------------------------------------------------------- */

static tsr_status f_cat(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_cat(in, 2, 1, out);
}
static tsr_status f_stack(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_stack((const tsr_tensor *[]){in[0], in[0]}, 2, -1, out);
}
static tsr_status f_vstack(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_vstack(in, 2, out);
}
static tsr_status f_unbind(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *pieces[3] = {NULL};
    size_t n = 0;
    tsr_status st = tsr_unbind(in[0], 1, pieces, 3, &n);
    if (st == TSR_OK)
        st = tsr_mul(pieces[0], pieces[2], out);
    for (size_t i = 0; i < n; i++)
        tsr_tensor_release(pieces[i]);
    return st;
}

/* ---- selecting ----------------------------------------------------------- */

static tsr_status f_index_select(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(1, SHAPE(4), (int64_t[]){2, 0, 2, 1}, 4),
               tsr_index_select(in[0], 1, index_, out));
}
static tsr_status f_gather(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(2, SHAPE(2, 2), (int64_t[]){2, 0, 1, 1}, 4),
               tsr_gather(in[0], 1, index_, out));
}
static tsr_status f_take(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(1, SHAPE(3), (int64_t[]){-1, 0, -1}, 3), tsr_take(in[0], index_, out));
}
static tsr_status f_take_along_dim(const tsr_tensor *const *in, tsr_tensor **out)
{
    int64_t dim = 1;
    WITH_INDEX(index_of(2, SHAPE(1, 2), (int64_t[]){2, 2}, 2),
               tsr_take_along_dim(in[0], index_, &dim, out));
}
static tsr_status f_embedding(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(1, SHAPE(4), (int64_t[]){0, 1, 0, 2}, 4),
               tsr_embedding(index_, in[0], NULL, out));
}
static tsr_status f_masked_fill(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *mask = NULL;
    uint8_t m[3] = {1, 0, 1};
    tsr_status st = tsr_from_host(m, 3, 1, SHAPE(3), TSR_BOOL, NULL, &mask);
    if (st == TSR_OK)
        st = tsr_masked_fill(in[0], mask, tsr_operand_tensor(in[1]), out);
    tsr_tensor_release(mask);
    return st;
}
static tsr_status f_masked_select(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *mask = NULL;
    uint8_t m[3] = {1, 0, 1};
    tsr_status st = tsr_from_host(m, 3, 1, SHAPE(3), TSR_BOOL, NULL, &mask);
    if (st == TSR_OK)
        st = tsr_masked_select(in[0], mask, out);
    tsr_tensor_release(mask);
    return st;
}

/* ---- scattering ---------------------------------------------------------- */

static tsr_status f_scatter(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(2, SHAPE(1, 3), (int64_t[]){1, 0, 1}, 3),
               tsr_scatter(in[0], 0, index_, in[1], TSR_REDUCE_NONE, out));
}
static tsr_status f_scatter_value(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(2, SHAPE(1, 3), (int64_t[]){1, 0, 1}, 3),
               tsr_scatter_value(in[0], 0, index_, tsr_scalar_float(0.5), TSR_REDUCE_NONE, out));
}
static tsr_status f_scatter_add(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(2, SHAPE(2, 2), (int64_t[]){1, 1, 1, 0}, 4),
               tsr_scatter_add(in[0], 0, index_, in[1], out));
}
static tsr_status f_scatter_sum_exclude(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(2, SHAPE(2, 2), (int64_t[]){1, 1, 1, 0}, 4),
               tsr_scatter_reduce(in[0], 0, index_, in[1], TSR_REDUCE_SUM, false, out));
}
#define SCATTER_REDUCE(fname, reduce, include_self)                                                \
    static tsr_status fname(const tsr_tensor *const *in, tsr_tensor **out)                         \
    {                                                                                              \
        WITH_INDEX(index_of(2, SHAPE(2, 2), (int64_t[]){1, 1, 1, 0}, 4),                           \
                   tsr_scatter_reduce(in[0], 0, index_, in[1], reduce, include_self, out));        \
    }
SCATTER_REDUCE(f_scatter_mean, TSR_REDUCE_MEAN, true)
SCATTER_REDUCE(f_scatter_mean_exclude, TSR_REDUCE_MEAN, false)
SCATTER_REDUCE(f_scatter_amax, TSR_REDUCE_AMAX, true)
SCATTER_REDUCE(f_scatter_amax_exclude, TSR_REDUCE_AMAX, false)
SCATTER_REDUCE(f_scatter_amin, TSR_REDUCE_AMIN, true)
SCATTER_REDUCE(f_scatter_amin_exclude, TSR_REDUCE_AMIN, false)
SCATTER_REDUCE(f_scatter_prod, TSR_REDUCE_PROD, true)
SCATTER_REDUCE(f_scatter_prod_exclude, TSR_REDUCE_PROD, false)
#undef SCATTER_REDUCE
static tsr_status f_index_add(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(1, SHAPE(2), (int64_t[]){1, 1}, 2),
               tsr_index_add(in[0], 0, index_, in[1], tsr_scalar_float(-1.5), out));
}
static tsr_status f_index_copy(const tsr_tensor *const *in, tsr_tensor **out)
{
    WITH_INDEX(index_of(1, SHAPE(2), (int64_t[]){1, 0}, 2),
               tsr_index_copy(in[0], 0, index_, in[1], out));
}
/* In place on a non-leaf: y = x * 1; y.index_add_(...) records with y's history. */
static tsr_status f_index_add_(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *y = NULL, *index = index_of(1, SHAPE(2), (int64_t[]){0, 0}, 2);
    tsr_status st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(in[0]),
                               tsr_operand_scalar(tsr_scalar_float(1)), &y);
    if (st == TSR_OK)
        st = tsr_index_add_(y, 0, index, in[1], tsr_scalar_float(2));
    tsr_tensor_release(index);
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}
static tsr_status f_masked_fill_(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *y = NULL, *mask = NULL;
    uint8_t m[3] = {0, 1, 1};
    tsr_status st = tsr_from_host(m, 3, 1, SHAPE(3), TSR_BOOL, NULL, &mask);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(in[0]),
                        tsr_operand_scalar(tsr_scalar_float(2)), &y);
    if (st == TSR_OK)
        st = tsr_masked_fill_(y, mask, tsr_operand_tensor(in[1]));
    tsr_tensor_release(mask);
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

/* ---- rearranging ----------------------------------------------------------- */

static tsr_status f_flip(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_flip(in[0], SHAPE(0, 1), 2, out);
}
static tsr_status f_roll(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_roll(in[0], SHAPE(1, -1), 2, SHAPE(0, 1), 2, out);
}
static tsr_status f_repeat(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_repeat(in[0], SHAPE(2, 1, 2), 3, out);
}
static tsr_status f_tile(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_tile(in[0], SHAPE(2), 1, out);
}
static tsr_status f_repeat_interleave(const tsr_tensor *const *in, tsr_tensor **out)
{
    int64_t dim = 1;
    WITH_INDEX(index_of(1, SHAPE(3), (int64_t[]){2, 0, 1}, 3),
               tsr_repeat_interleave_tensor(in[0], index_, &dim, out));
}
static tsr_status f_pad_constant(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_pad(in[0], SHAPE(-1, 2, 1, 0), 4, TSR_PAD_CONSTANT, tsr_scalar_float(3), out);
}
static tsr_status f_pad_reflect(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_pad(in[0], SHAPE(2, 1), 2, TSR_PAD_REFLECT, tsr_scalar_float(0), out);
}
static tsr_status f_pad_replicate(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_pad(in[0], SHAPE(2, 1), 2, TSR_PAD_REPLICATE, tsr_scalar_float(0), out);
}
static tsr_status f_tril(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_tril(in[0], 0, out);
}
static tsr_status f_triu(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_triu(in[0], 1, out);
}

/* ---- sorting: the values output ------------------------------------------ */

static tsr_status values_only(tsr_status st, tsr_tensor *values, tsr_tensor *indices,
                              tsr_tensor **out)
{
    tsr_tensor_release(indices);
    if (st == TSR_OK)
        *out = values;
    return st;
}
static tsr_status f_sort(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *v = NULL, *i = NULL;
    tsr_status st = tsr_sort(in[0], 1, true, &v, &i);
    return values_only(st, v, i, out);
}
static tsr_status f_topk(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *v = NULL, *i = NULL;
    tsr_status st = tsr_topk(in[0], 2, 1, false, &v, &i);
    return values_only(st, v, i, out);
}
static tsr_status f_median(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *v = NULL, *i = NULL;
    tsr_status st = tsr_median_dim(in[0], 0, false, &v, &i);
    return values_only(st, v, i, out);
}
static tsr_status f_kthvalue(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *v = NULL, *i = NULL;
    tsr_status st = tsr_kthvalue(in[0], 2, 1, true, &v, &i);
    return values_only(st, v, i, out);
}

#define ONE(shape0, shape1, shape2)                                                                \
    1, {3, 0},                                                                                     \
    {                                                                                              \
        {                                                                                          \
            shape0, shape1, shape2                                                                 \
        }                                                                                          \
    }
#define MAT(r, c)                                                                                  \
    1, {2, 0},                                                                                     \
    {                                                                                              \
        {                                                                                          \
            r, c                                                                                   \
        }                                                                                          \
    }

static const grad_case CASES[] = {
    {"cat", f_cat, 2, {2, 2}, {{2, 3}, {2, 1}}},
    {"stack", f_stack, MAT(2, 3)},
    {"vstack", f_vstack, 2, {1, 2}, {{3}, {2, 3}}},
    {"unbind", f_unbind, MAT(2, 3)},
    {"index_select", f_index_select, MAT(2, 3)},
    {"gather", f_gather, MAT(2, 3)},
    {"take", f_take, MAT(2, 3)},
    {"take_along_dim", f_take_along_dim, MAT(2, 3)},
    {"embedding", f_embedding, MAT(3, 2)},
    {"masked_fill", f_masked_fill, 2, {2, 0}, {{2, 3}, {0}}},
    {"masked_select", f_masked_select, MAT(2, 3)},
    {"scatter", f_scatter, 2, {2, 2}, {{2, 3}, {2, 3}}},
    {"scatter_value", f_scatter_value, MAT(2, 3)},
    {"scatter_add", f_scatter_add, 2, {2, 2}, {{2, 2}, {3, 2}}},
    {"scatter_reduce_sum_exclude", f_scatter_sum_exclude, 2, {2, 2}, {{2, 2}, {2, 3}}},
    {"scatter_reduce_mean", f_scatter_mean, 2, {2, 2}, {{2, 2}, {2, 3}}},
    {"scatter_reduce_mean_exclude", f_scatter_mean_exclude, 2, {2, 2}, {{3, 2}, {2, 2}}},
    {"scatter_reduce_amax", f_scatter_amax, 2, {2, 2}, {{2, 2}, {2, 3}}},
    {"scatter_reduce_amax_exclude", f_scatter_amax_exclude, 2, {2, 2}, {{3, 2}, {2, 2}}},
    {"scatter_reduce_amin", f_scatter_amin, 2, {2, 2}, {{2, 2}, {3, 2}}},
    {"scatter_reduce_amin_exclude", f_scatter_amin_exclude, 2, {2, 2}, {{2, 2}, {2, 3}}},
    {"scatter_reduce_prod", f_scatter_prod, 2, {2, 2}, {{2, 2}, {2, 3}}},
    {"scatter_reduce_prod_exclude", f_scatter_prod_exclude, 2, {2, 2}, {{3, 2}, {2, 2}}},
    {"index_add", f_index_add, 2, {2, 2}, {{3, 2}, {2, 2}}},
    {"index_copy", f_index_copy, 2, {2, 2}, {{3, 2}, {2, 2}}},
    {"index_add_", f_index_add_, 2, {2, 2}, {{3, 2}, {2, 2}}},
    {"masked_fill_", f_masked_fill_, 2, {1, 0}, {{3}, {0}}},
    {"flip", f_flip, MAT(2, 3)},
    {"roll", f_roll, MAT(2, 3)},
    {"repeat", f_repeat, MAT(2, 3)},
    {"tile", f_tile, MAT(2, 3)},
    {"repeat_interleave", f_repeat_interleave, MAT(2, 3)},
    {"pad_constant", f_pad_constant, MAT(2, 3)},
    {"pad_reflect", f_pad_reflect, ONE(1, 2, 3)},
    {"pad_replicate", f_pad_replicate, ONE(1, 2, 3)},
    {"tril", f_tril, MAT(3, 3)},
    {"triu", f_triu, MAT(3, 4)},
    {"sort", f_sort, MAT(2, 4)},
    {"topk", f_topk, MAT(2, 4)},
    {"median", f_median, MAT(3, 2)},
    {"kthvalue", f_kthvalue, MAT(2, 4)},
};

/* ---- the checks -------------------------------------------------------------- */

static tsr_tensor *make_input(int ndim, const int64_t *shape, int salt)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    double v[64];
    for (int64_t i = 0; i < n && i < 64; i++) /* distinct, no ties for the sorts */
        v[i] = -1.5 + 3.0 * (double)((i * 37 + salt * 11) % 61) / 61.0 + 0.003 * (double)i;
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, (size_t)n * sizeof *v, ndim, shape, TSR_FLOAT64, NULL, &t));
    if (t)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static void run(const grad_case *c, bool second_order)
{
    tsr_tensor *inputs[2] = {NULL, NULL};
    for (int i = 0; i < c->n; i++)
        inputs[i] = make_input(c->ndim[i], c->shape[i], i + 1);
    grad_harness h = {c->name, c->fn, c->n, 0, 0};
    grad_harness_check(&h, inputs, second_order);
    for (int i = 0; i < c->n; i++)
        tsr_tensor_release(inputs[i]);
}

static void every_index_op_matches_finite_differences(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        run(&CASES[i], false);
}

static void every_index_gradient_matches_finite_differences_of_itself(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        run(&CASES[i], true);
}

/* An op with no formula yet fails in backward instead of dropping the
 * gradient: scatter's own reduce=multiply (scatter_reduce's prod has one). */
static void scatter_multiply_backward_is_an_error_not_a_zero(void)
{
    tsr_tensor *x = make_input(1, SHAPE(3), 1), *src = make_input(1, SHAPE(2), 2), *y = NULL;
    tsr_tensor *index = index_of(1, SHAPE(2), (int64_t[]){0, 0}, 2), *g = NULL;
    CHECK_OK(tsr_scatter(x, 0, index, src, TSR_REDUCE_PROD, &y));
    tsr_tensor *ones = NULL;
    CHECK_OK(tsr_ones(1, SHAPE(3), TSR_FLOAT64, NULL, &ones));
    CHECK_ERROR(tsr_autograd_grad((const tsr_tensor *[]){y}, 1, (const tsr_tensor *[]){x}, 1,
                                  (const tsr_tensor *[]){ones}, 0, &g),
                TSR_ERR_UNIMPLEMENTED, "scatter");
    const tsr_tensor *all[6] = {x, src, y, index, g, ones};
    for (int i = 0; i < 6; i++)
        tsr_tensor_release(all[i]);
}

/* As F.embedding: the padding row is looked up but never trained. */
static void embedding_padding_row_gets_no_gradient(void)
{
    tsr_tensor *w = make_input(2, SHAPE(3, 2), 1), *y = NULL, *g = NULL, *ones = NULL;
    tsr_tensor *index = index_of(1, SHAPE(3), (int64_t[]){2, 1, 2}, 3);
    int64_t pad = -1;
    CHECK_OK(tsr_embedding(index, w, &pad, &y));
    CHECK_OK(tsr_ones(2, SHAPE(3, 2), TSR_FLOAT64, NULL, &ones));
    CHECK_OK(tsr_autograd_grad((const tsr_tensor *[]){y}, 1, (const tsr_tensor *[]){w}, 1,
                               (const tsr_tensor *[]){ones}, 0, &g));
    double got[6] = {-1, -1, -1, -1, -1, -1};
    if (g)
        CHECK_OK(tsr_to_host(g, got, sizeof got));
    const double expected[6] = {0, 0, 1, 1, 0, 0}; /* row 2 is padding_idx -1 */
    for (int i = 0; i < 6; i++)
        CHECK_DOUBLE(got[i], expected[i], 0);
    const tsr_tensor *all[5] = {w, y, g, ones, index};
    for (int i = 0; i < 5; i++)
        tsr_tensor_release(all[i]);
}

static void unique_records_no_gradient(void)
{
    tsr_tensor *x = make_input(1, SHAPE(4), 3), *u = NULL;
    CHECK_OK(tsr_unique(x, true, NULL, &u, NULL, NULL));
    CHECK_TRUE(!tsr_tensor_requires_grad(u));
    tsr_tensor_release(x);
    tsr_tensor_release(u);
}

int main(void)
{
    RUN_TEST(every_index_op_matches_finite_differences);
    RUN_TEST(every_index_gradient_matches_finite_differences_of_itself);
    RUN_TEST(scatter_multiply_backward_is_an_error_not_a_zero);
    RUN_TEST(embedding_padding_row_gets_no_gradient);
    RUN_TEST(unique_records_no_gradient);
    return check_summary("test_index_grad");
}
