/* scaled_dot_product_attention with an online softmax over blocks of keys.
 *
 * For each block of TSR__KEY_BLOCK keys the scores s = q k^T * scale (masked)
 * exist only as [..., L, TSR__KEY_BLOCK]. A running maximum m, sum l and
 * accumulator a per query row absorb each block:
 *     m' = max(m, max(s)),  p = exp(s - m'),  alpha = exp(m - m'),
 *     l' = alpha l + sum(p),  a' = alpha a + p v
 * and the result is a / l: the full softmax without its L x S matrix. A row
 * whose scores are all -inf so far is shifted by 0 instead of -inf (which
 * would turn exp into NaN), keeping l = 0 and a = 0 until a visible key
 * arrives; a row that never sees one ends as 0 / 0 = NaN, as PyTorch. */
#include <math.h>

#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/nn.h"
#include "ops/attention.h"
#include "ops/attention_grad.h"
#include "tensor/shape.h"
#include "ops/grad_expr.h"

typedef tsr__attention attention;

/* The online softmax's state; all NULL before the first block. */
typedef struct online {
    tsr_tensor *max;   /* [..., L, 1] */
    tsr_tensor *total; /* [..., L, 1] */
    tsr_tensor *acc;   /* [..., L, Ev] */
} online;

static tsr_tensor *fill_minus_inf(tsr__gx *x, const tsr_tensor *keep, tsr_tensor *s)
{
    return tsr__gx_where(x, keep, tsr_operand_tensor(s),
                         tsr_operand_scalar(tsr_scalar_float(-INFINITY)));
}

static tsr_tensor *arange(tsr__gx *x, int64_t start, int64_t end, const tsr_tensor *like)
{
    if (x->status != TSR_OK)
        return NULL;
    tsr_tensor *t = NULL;
    tsr_status st = tsr_arange(tsr_scalar_int(start), tsr_scalar_int(end), tsr_scalar_int(1),
                               TSR_INT64, tsr_tensor_backend(like), &t);
    return tsr__gx_keep(x, st, t);
}

/* Applies attn_mask and the causal mask to the scores of keys start..+n. */
static tsr_tensor *mask_scores(tsr__gx *x, const attention *a, tsr_tensor *s, int64_t start,
                               int64_t n)
{
    if (a->mask) {
        tsr_tensor *block = tsr__nn_narrow(x, a->mask, -1, start, n);
        s = a->mask_is_bool ? fill_minus_inf(x, block, s) : tsr__gx_add(x, s, block);
    }
    if (a->causal) {
        int64_t rows_shape[2] = {a->queries, 1}, cols_shape[2] = {1, n};
        tsr_tensor *rows = tsr__nn_reshape(x, arange(x, 0, a->queries, s), 2, rows_shape);
        tsr_tensor *cols = tsr__nn_reshape(x, arange(x, start, start + n, s), 2, cols_shape);
        s = fill_minus_inf(
            x, tsr__gx_binary(x, TSR_OP_LE, tsr_operand_tensor(cols), tsr_operand_tensor(rows)), s);
    }
    return s;
}

tsr_status tsr__attention_scores(const attention *a, int64_t start, int64_t n, tsr_tensor **out)
{
    tsr__gx x = {0};
    tsr_tensor *kj = tsr__nn_narrow(&x, a->k, -2, start, n);
    tsr_tensor *s =
        tsr__gx_scale(&x, tsr__nn_matmul(&x, a->q, tsr__nn_transpose(&x, kj, -2, -1)), a->scale);
    s = mask_scores(&x, a, s, start, n);
    tsr_tensor *result = NULL;
    tsr__gx_result(&x, &result, s);
    return tsr__deliver(tsr__gx_finish(&x), result, out);
}

/* p with dropout applied: p * bernoulli(1 - p_drop) / (1 - p_drop). */
static tsr_status drop_weights(const attention *a, tsr_tensor *p, tsr_tensor **out)
{
    tsr__gx x = {0};
    tsr_tensor *dropped = p;
    if (a->dropout_p == 1.0) {
        dropped = tsr__gx_scale(&x, p, 0.0);
    } else if (a->dropout_p > 0.0) {
        tsr_tensor *u = NULL;
        tsr_status st = tsr_rand(a->gen, tsr_tensor_ndim(p), tsr_tensor_shape(p), TSR_FLOAT64,
                                 tsr_tensor_backend(p), &u);
        u = tsr__gx_keep(&x, st, u);
        tsr_tensor *keep = tsr__gx_binary(&x, TSR_OP_LT, tsr_operand_tensor(u),
                                          tsr_operand_scalar(tsr_scalar_float(1.0 - a->dropout_p)));
        tsr_tensor *noise = tsr__gx_scale(&x, tsr__nn_to(&x, keep, tsr_tensor_dtype(p)),
                                          1.0 / (1.0 - a->dropout_p));
        dropped = tsr__gx_mul(&x, p, noise);
    }
    tsr_tensor *result = NULL;
    tsr__gx_result(&x, &result, dropped);
    return tsr__deliver(tsr__gx_finish(&x), result, out);
}

static tsr_status attend_block(const attention *a, int64_t start, int64_t n, online *state)
{
    tsr__gx x = {0};
    tsr_tensor *s = NULL, *dropped = NULL;
    tsr_status st = tsr__attention_scores(a, start, n, &s);
    s = tsr__gx_keep(&x, st, s);
    tsr_tensor *block_max = tsr__nn_amax(&x, s, -1, true);
    tsr_tensor *max = state->max
                          ? tsr__gx_binary(&x, TSR_OP_MAXIMUM, tsr_operand_tensor(state->max),
                                           tsr_operand_tensor(block_max))
                          : block_max;
    tsr_tensor *hidden = tsr__gx_binary(&x, TSR_OP_EQ, tsr_operand_tensor(max),
                                        tsr_operand_scalar(tsr_scalar_float(-INFINITY)));
    tsr_tensor *shift = tsr__gx_where(&x, hidden, tsr_operand_scalar(tsr_scalar_float(0.0)),
                                      tsr_operand_tensor(max));
    tsr_tensor *p = tsr__gx_unary(&x, TSR_OP_EXP, tsr__gx_sub(&x, s, shift));
    int64_t last = -1;
    tsr_tensor *total = tsr__nn_sum(&x, p, &last, 1, true);
    if (x.status == TSR_OK) {
        st = drop_weights(a, p, &dropped);
        dropped = tsr__gx_keep(&x, st, dropped);
    }
    tsr_tensor *acc = tsr__nn_matmul(&x, dropped, tsr__nn_narrow(&x, a->v, -2, start, n));
    if (state->max) {
        tsr_tensor *alpha = tsr__gx_unary(&x, TSR_OP_EXP, tsr__gx_sub(&x, state->max, shift));
        total = tsr__gx_add(&x, tsr__gx_mul(&x, state->total, alpha), total);
        acc = tsr__gx_add(&x, tsr__gx_mul(&x, state->acc, alpha), acc);
    }
    tsr__gx_result(&x, &state->max, max);
    tsr__gx_result(&x, &state->total, total);
    tsr__gx_result(&x, &state->acc, acc);
    return tsr__gx_finish(&x);
}

/* The forward pass on prepared operands: a / l in the computation dtype,
 * and (when lse is not NULL) the rows' log-sum-exp m + log l for backward. */
static tsr_status attend(const attention *a, tsr_tensor **out, tsr_tensor **lse)
{
    online state = {NULL, NULL, NULL};
    tsr_status st = TSR_OK;
    for (int64_t start = 0; start < a->keys && st == TSR_OK; start += TSR__KEY_BLOCK) {
        int64_t n = a->keys - start < TSR__KEY_BLOCK ? a->keys - start : TSR__KEY_BLOCK;
        st = attend_block(a, start, n, &state);
    }
    tsr__gx x = {0};
    x.status = st;
    tsr_tensor *y = NULL, *y_lse = NULL;
    if (a->keys == 0) { /* softmax over no keys times no values: zeros */
        tsr_tensor *s = tsr__nn_matmul(&x, a->q, tsr__nn_transpose(&x, a->k, -2, -1));
        y = tsr__nn_matmul(&x, s, a->v);
    } else {
        y = tsr__gx_div(&x, state.acc, state.total);
        if (lse)
            y_lse = tsr__gx_add(&x, state.max, tsr__gx_unary(&x, TSR_OP_LOG, state.total));
    }
    tsr_tensor *result = NULL, *result_lse = NULL;
    tsr__gx_result(&x, &result, y);
    tsr__gx_result(&x, &result_lse, y_lse);
    tsr_tensor *owned[3] = {state.max, state.total, state.acc};
    tsr__release_all(owned, 3);
    st = tsr__gx_finish(&x);
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        tsr_tensor_release(result_lse);
        return st;
    }
    *out = result;
    if (lse)
        *lse = result_lse;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Checks and preparation                                                    */
/* ------------------------------------------------------------------------ */

static tsr_status check_operands(const tsr_tensor *q, const tsr_tensor *k, const tsr_tensor *v,
                                 const tsr_tensor *mask, double dropout_p, bool is_causal,
                                 tsr_generator *gen)
{
    const char *name = "scaled_dot_product_attention";
    if (q->ndim < 2 || k->ndim < 2 || v->ndim < 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: query, key and value need at least 2 dims, got %d, %d and %d",
                              name, q->ndim, k->ndim, v->ndim);
    if (q->dtype != k->dtype || q->dtype != v->dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected query, key, and value to have the same dtype, but got "
                              "%s, %s and %s",
                              name, tsr_dtype_name(q->dtype), tsr_dtype_name(k->dtype),
                              tsr_dtype_name(v->dtype));
    if (!tsr_dtype_is_floating(q->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: expected floating operands, got %s", name,
                              tsr_dtype_name(q->dtype));
    if (q->shape[q->ndim - 1] != k->shape[k->ndim - 1])
        return tsr__set_error(
            TSR_ERR_SHAPE, "%s: query and key must share the embedding dim, got %lld and %lld",
            name, (long long)q->shape[q->ndim - 1], (long long)k->shape[k->ndim - 1]);
    if (k->shape[k->ndim - 2] != v->shape[v->ndim - 2])
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: key and value must have the same number of keys, got %lld and "
                              "%lld",
                              name, (long long)k->shape[k->ndim - 2],
                              (long long)v->shape[v->ndim - 2]);
    if (mask && is_causal)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: explicit attn_mask should not be set when is_causal=True", name);
    if (mask && mask->dtype != TSR_BOOL && mask->dtype != q->dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected attn_mask dtype to be bool or to match query dtype "
                              "%s, got %s",
                              name, tsr_dtype_name(q->dtype), tsr_dtype_name(mask->dtype));
    if (!(dropout_p >= 0.0 && dropout_p <= 1.0))
        return tsr__set_error(TSR_ERR_VALUE, "%s: dropout_p must lie in [0, 1], got %g", name,
                              dropout_p);
    if (dropout_p > 0.0 && dropout_p < 1.0 && !gen)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: dropout_p > 0 needs a generator",
                              name);
    const tsr_tensor *all[4] = {q, k, v, mask};
    tsr_backend *b;
    return tsr__common_backend(name, all, 4, &b);
}

/* The mask expanded (as a view) to [..., L, S] and converted to dtype. */
static tsr_tensor *prepare_mask(tsr__gx *x, const tsr_tensor *mask, int64_t queries, int64_t keys,
                                tsr_dtype dtype)
{
    int64_t sizes[TSR_MAX_DIMS];
    int ndim = mask->ndim > 0 ? mask->ndim : 1;
    for (int d = 0; d < ndim; d++)
        sizes[d] = -1;
    sizes[ndim - 1] = keys;
    if (ndim >= 2)
        sizes[ndim - 2] = queries;
    tsr_tensor *m = (tsr_tensor *)mask;
    if (mask->ndim == 0)
        m = tsr__nn_unsqueeze(x, mask, 0);
    tsr_tensor *expanded = NULL;
    if (x->status == TSR_OK) {
        tsr_status st = tsr_expand(m, ndim, sizes, &expanded);
        expanded = tsr__gx_keep(x, st, expanded);
    }
    return mask->dtype == TSR_BOOL ? expanded : tsr__nn_to(x, expanded, dtype);
}

tsr_status tsr_scaled_dot_product_attention(const tsr_tensor *query, const tsr_tensor *key,
                                            const tsr_tensor *value, const tsr_tensor *attn_mask,
                                            double dropout_p, bool is_causal, const double *scale,
                                            tsr_generator *gen, tsr_tensor **out)
{
    if (!query || !key || !value || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "scaled_dot_product_attention: query, key, value and out must not "
                              "be NULL");
    tsr_status st = check_operands(query, key, value, attn_mask, dropout_p, is_causal, gen);
    if (st != TSR_OK)
        return st;
    tsr_dtype dtype = query->dtype;
    tsr_dtype compute = dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 ? TSR_FLOAT32 : dtype;
    int64_t embed = query->shape[query->ndim - 1];
    tsr__gx x = {0};
    attention a = {
        .q = tsr__nn_to(&x, query, compute),
        .k = tsr__nn_to(&x, key, compute),
        .v = tsr__nn_to(&x, value, compute),
        .mask_is_bool = attn_mask && attn_mask->dtype == TSR_BOOL,
        .causal = is_causal,
        .scale = scale ? *scale : 1.0 / sqrt((double)embed),
        .dropout_p = dropout_p,
        .gen = gen,
        .queries = query->shape[query->ndim - 2],
        .keys = key->shape[key->ndim - 2],
    };
    if (attn_mask)
        a.mask = prepare_mask(&x, attn_mask, a.queries, a.keys, compute);
    /* One node for the whole op: the steps record nothing. */
    const tsr_tensor *inputs[3] = {query, key, value};
    bool grad = tsr__grad_wanted(inputs, 3);
    bool grad_mode = tsr_grad_mode_set(false);
    tsr_tensor *y = NULL, *lse = NULL;
    if (x.status == TSR_OK) {
        st = attend(&a, &y, grad ? &lse : NULL);
        y = tsr__gx_keep(&x, st, y);
        lse = tsr__gx_keep(&x, TSR_OK, lse);
    }
    tsr_tensor *result = tsr__nn_to(&x, y, dtype);
    tsr_grad_mode_set(grad_mode);
    if (x.status == TSR_OK && grad) {
        /* The dropout mask is not kept, so its gradient cannot be formed. */
        bool dropped = dropout_p > 0.0 && dropout_p < 1.0;
        x.status = dropped ? tsr__grad_record_unimplemented(
                                 "scaled_dot_product_attention with dropout", inputs, 3, result)
                           : tsr__grad_record_attention(&a, query, key, value, y, lse, result);
    }
    tsr_tensor *delivered = NULL;
    tsr__gx_result(&x, &delivered, result);
    return tsr__deliver(tsr__gx_finish(&x), delivered, out);
}
