/* Sets: unique and unique_consecutive, with and without dim.
 *
 * Both work on rows: the flattened tensor as [n, 1], or the slices along
 * dim as [n, w]. unique first orders the rows with stable sorts of one
 * column at a time, last column first (so the rows end up in lexicographic
 * order and equal rows keep their order); unique_consecutive keeps them as
 * they are. A row starts a group when any of its elements differs (ne) from
 * the row before: that mask is the one data-dependent size, so it is read
 * back and the group bookkeeping happens on the host. The values are then
 * an index_select of each group's first row, and the inverse a scatter of
 * group numbers through the sort order. */
#include "autograd/graph.h"
#include "runtime/alloc.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/index_util.h"
#include "tensor/shape.h"

#include <stdlib.h>

typedef struct groups {
    int64_t n, k;    /* rows, groups */
    int64_t *first;  /* [k]: the sorted position of each group's first row */
    int64_t *counts; /* [k] */
    int64_t *ids;    /* [n]: the group of each sorted position */
} groups;

static void groups_free(groups *g)
{
    free(g->first);
    free(g->counts);
    free(g->ids);
}

/* Reads which sorted rows differ from the row before and numbers the groups. */
static tsr_status find_groups(const char *op, const tsr_tensor *rows, groups *g)
{
    int64_t n = rows->shape[0], w = rows->shape[1];
    g->n = n;
    g->k = 0;
    g->first = tsr__malloc((size_t)(n > 0 ? n : 1) * sizeof *g->first);
    g->counts = tsr__malloc((size_t)(n > 0 ? n : 1) * sizeof *g->counts);
    g->ids = tsr__malloc((size_t)(n > 0 ? n : 1) * sizeof *g->ids);
    if (!g->first || !g->counts || !g->ids)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory", op);
    uint8_t *differs = NULL;
    tsr_status st = TSR_OK;
    if (n > 1) {
        tsr_tensor *later = NULL, *earlier = NULL, *ne = NULL;
        st = tsr_narrow(rows, 0, 1, n - 1, &later);
        if (st == TSR_OK)
            st = tsr_narrow(rows, 0, 0, n - 1, &earlier);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_NE, tsr_operand_tensor(later), tsr_operand_tensor(earlier), &ne);
        if (st == TSR_OK)
            st = tsr__read_bool(op, ne, &differs);
        tsr_tensor_release(later);
        tsr_tensor_release(earlier);
        tsr_tensor_release(ne);
    }
    for (int64_t i = 0; i < n && st == TSR_OK; i++) {
        bool starts = i == 0;
        for (int64_t j = 0; !starts && j < w; j++)
            starts = differs[(i - 1) * w + j] != 0;
        if (starts) {
            g->first[g->k] = i;
            g->counts[g->k++] = 0;
        }
        g->ids[i] = g->k - 1;
        g->counts[g->k - 1]++;
    }
    free(differs);
    return st;
}

/* Column c of x [n, w] as an [n] view. */
static tsr_status column_of(const tsr_tensor *x, int64_t c, tsr_tensor **out)
{
    return tsr__tensor_restride(x, 1, x->shape, x->strides, x->offset + c * x->strides[1], out);
}

/* order = the stable lexicographic order of the rows of x [n, w]. */
static tsr_status sort_rows(const char *op, const tsr_tensor *x, tsr_tensor **order)
{
    int64_t n = x->shape[0], w = x->shape[1];
    tsr_tensor *perm = NULL;
    tsr_status st = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_INT64,
                               x->storage->backend, &perm);
    for (int64_t c = w - 1; c >= 0 && st == TSR_OK; c--) {
        tsr_tensor *column = NULL, *key = NULL, *sorted = NULL, *step = NULL, *next = NULL;
        st = column_of(x, c, &column);
        if (st == TSR_OK)
            st = tsr_index_select(column, 0, perm, &key);
        if (st == TSR_OK)
            st = tsr_sort(key, 0, false, &sorted, &step);
        if (st == TSR_OK)
            st = tsr_index_select(perm, 0, step, &next);
        if (st == TSR_OK) {
            tsr_tensor_release(perm);
            perm = next;
        }
        tsr_tensor_release(column);
        tsr_tensor_release(key);
        tsr_tensor_release(sorted);
        tsr_tensor_release(step);
    }
    if (st != TSR_OK) {
        tsr_tensor_release(perm);
        tsr__prefix_error("%s", op);
        return st;
    }
    *order = perm;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct unique_call {
    const char *op;
    const tsr_tensor *t;
    int d;             /* the dim, or -1 for dim=None */
    bool sort;         /* unique (true) or unique_consecutive */
    tsr_tensor *rows;  /* [n, w] */
    tsr_tensor *order; /* sorted position -> row, NULL when not sorted */
} unique_call;

/* values: each group's first row, taken from t along d (or from the
 * flattened t). */
static tsr_status make_values(const unique_call *u, const groups *g, tsr_tensor **values)
{
    tsr_backend *b = u->t->storage->backend;
    tsr_tensor *first = NULL, *picked = NULL, *flat = NULL;
    tsr_status st = tsr__index_from_host(u->op, b, g->first, g->k, &first);
    if (st == TSR_OK && u->order)
        st = tsr_index_select(u->order, 0, first, &picked);
    const tsr_tensor *rows_at = picked ? picked : first;
    int64_t minus_one = -1;
    if (st == TSR_OK && u->d < 0)
        st = tsr_reshape(u->t, 1, &minus_one, &flat);
    if (st == TSR_OK)
        st = tsr_index_select(flat ? flat : u->t, u->d < 0 ? 0 : u->d, rows_at, values);
    tsr_tensor_release(first);
    tsr_tensor_release(picked);
    tsr_tensor_release(flat);
    return st;
}

/* inverse[row] = the group of the row: the group numbers of the sorted
 * positions scattered through the order, shaped like t for dim=None. */
static tsr_status make_inverse(const unique_call *u, const groups *g, tsr_tensor **inverse)
{
    tsr_backend *b = u->t->storage->backend;
    tsr_tensor *ids = NULL, *scattered = NULL;
    tsr_status st = tsr__index_from_host(u->op, b, g->ids, g->n, &ids);
    if (st == TSR_OK && u->order)
        st = tsr_scatter(ids, 0, u->order, ids, TSR_REDUCE_NONE, &scattered);
    const tsr_tensor *result = scattered ? scattered : ids;
    if (st == TSR_OK && u->d < 0)
        st = tsr_view(result, u->t->ndim, u->t->shape, inverse);
    else if (st == TSR_OK) {
        tsr_tensor_retain(result);
        *inverse = (tsr_tensor *)result;
    }
    tsr_tensor_release(ids);
    tsr_tensor_release(scattered);
    return st;
}

static tsr_status make_results(const unique_call *u, tsr_tensor **values, tsr_tensor **inverse,
                               tsr_tensor **counts)
{
    groups g = {0};
    tsr_tensor *res[3] = {NULL, NULL, NULL};
    tsr_status st = find_groups(u->op, u->rows, &g);
    if (st == TSR_OK)
        st = make_values(u, &g, &res[0]);
    if (st == TSR_OK && inverse)
        st = make_inverse(u, &g, &res[1]);
    if (st == TSR_OK && counts)
        st = tsr__index_from_host(u->op, u->t->storage->backend, g.counts, g.k, &res[2]);
    groups_free(&g);
    if (st != TSR_OK) {
        for (int i = 0; i < 3; i++)
            tsr_tensor_release(res[i]);
        return st;
    }
    *values = res[0];
    if (inverse)
        *inverse = res[1];
    if (counts)
        *counts = res[2];
    return TSR_OK;
}

/* No elements: empty values (t itself along dim), inverse and counts. */
static tsr_status empty_results(const unique_call *u, tsr_tensor **values, tsr_tensor **inverse,
                                tsr_tensor **counts)
{
    tsr_backend *b = u->t->storage->backend;
    int64_t zero = 0;
    tsr_tensor *res[3] = {NULL, NULL, NULL};
    tsr_status st = u->d < 0 ? tsr__tensor_empty(u->op, b, u->t->dtype, 1, &zero, &res[0])
                             : tsr_clone(u->t, &res[0]);
    if (st == TSR_OK && inverse)
        st = u->d < 0 ? tsr__tensor_empty(u->op, b, TSR_INT64, u->t->ndim, u->t->shape, &res[1])
                      : tsr__tensor_empty(u->op, b, TSR_INT64, 1, &zero, &res[1]);
    if (st == TSR_OK && counts)
        st = tsr__tensor_empty(u->op, b, TSR_INT64, 1, &zero, &res[2]);
    if (st != TSR_OK) {
        for (int i = 0; i < 3; i++)
            tsr_tensor_release(res[i]);
        return st;
    }
    *values = res[0];
    if (inverse)
        *inverse = res[1];
    if (counts)
        *counts = res[2];
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* The two ops                                                               */
/* ------------------------------------------------------------------------ */

/* The rows of t: [numel, 1] for dim=None, else the slices along d, each
 * flattened as PyTorch 1.13 does, after transpose(d, 0) (not a move of d to
 * the front): that element order is the one its lexicographic sort compares. */
static tsr_status make_rows(unique_call *u)
{
    const tsr_tensor *t = u->t;
    int64_t shape[2] = {-1, 1};
    if (u->d < 0)
        return tsr_reshape(t, 2, shape, &u->rows);
    int64_t perm[TSR_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++)
        perm[i] = i;
    perm[0] = u->d;
    perm[u->d] = 0;
    tsr_tensor *moved;
    tsr_status st = tsr_permute(t, t->ndim, perm, &moved);
    shape[0] = t->shape[u->d];
    shape[1] = shape[0] ? tsr_tensor_numel(t) / shape[0] : 0;
    if (st == TSR_OK) {
        st = tsr_reshape(moved, 2, shape, &u->rows);
        tsr_tensor_release(moved);
    }
    return st;
}

static tsr_status unique_named(unique_call *u, const int64_t *dim, tsr_tensor **values,
                               tsr_tensor **inverse, tsr_tensor **counts)
{
    const tsr_tensor *t = u->t;
    if (!t || !values)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and values must not be NULL",
                              u->op);
    if (t->dtype == TSR_FLOAT16 || tsr_dtype_is_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: not implemented for %s", u->op,
                              tsr_dtype_name(t->dtype));
    tsr_status st = TSR_OK;
    u->d = -1;
    if (dim && (st = tsr__wrap_dim_strict(u->op, *dim, t->ndim, &u->d)) != TSR_OK)
        return st;
    if (tsr_tensor_numel(t) == 0) {
        if (u->d >= 0 && t->shape[u->d] != 0)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: there are 0 sized dimensions, and they "
                                  "aren't selected, so unique cannot be applied",
                                  u->op);
        return empty_results(u, values, inverse, counts);
    }
    st = make_rows(u);
    if (st == TSR_OK && u->sort)
        st = sort_rows(u->op, u->rows, &u->order);
    tsr_tensor *sorted_rows = NULL;
    if (st == TSR_OK && u->order) {
        st = tsr_index_select(u->rows, 0, u->order, &sorted_rows);
        if (st == TSR_OK) {
            tsr_tensor_release(u->rows);
            u->rows = sorted_rows;
        }
    }
    if (st == TSR_OK)
        st = make_results(u, values, inverse, counts);
    tsr_tensor_release(u->rows);
    tsr_tensor_release(u->order);
    return st;
}

/* As in PyTorch, the results are not differentiable: nothing is recorded. */
static tsr_status unique_no_grad(unique_call *u, const int64_t *dim, tsr_tensor **values,
                                 tsr_tensor **inverse, tsr_tensor **counts)
{
    bool previous = tsr_grad_mode_set(false);
    tsr_status st = unique_named(u, dim, values, inverse, counts);
    tsr_grad_mode_set(previous);
    return st;
}

tsr_status tsr_unique(const tsr_tensor *t, bool sorted, const int64_t *dim, tsr_tensor **values,
                      tsr_tensor **inverse, tsr_tensor **counts)
{
    (void)sorted; /* the result is sorted either way, which PyTorch allows */
    unique_call u = {.op = "unique", .t = t, .sort = true};
    return unique_no_grad(&u, dim, values, inverse, counts);
}

tsr_status tsr_unique_consecutive(const tsr_tensor *t, const int64_t *dim, tsr_tensor **values,
                                  tsr_tensor **inverse, tsr_tensor **counts)
{
    unique_call u = {.op = "unique_consecutive", .t = t, .sort = false};
    return unique_no_grad(&u, dim, values, inverse, counts);
}
