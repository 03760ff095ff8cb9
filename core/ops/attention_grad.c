/* The gradient of scaled_dot_product_attention, block by block like its
 * forward pass, so backward never holds an L x S matrix either.
 *
 * With lse the rows' saved log-sum-exp and o the result, each block of keys
 * recomputes its probabilities p = exp(s - lse) and contributes
 *     dv_j = p^T g,  dp = g v_j^T,  ds = p * (dp - D),  D = sum(g * o, -1),
 *     dq += ds k_j * scale,  dk_j = ds^T q * scale;
 * dk and dv are the blocks' parts concatenated along the keys. */
#include <stdlib.h>

#include "tensor/scalar.h"
#include "runtime/alloc.h"
#include "runtime/error.h"
#include "ops/nn.h"
#include "ops/attention.h"
#include "ops/attention_grad.h"
#include "ops/grad_expr.h"

enum { SAVED_Q, SAVED_K, SAVED_V, SAVED_MASK, SAVED_Y, SAVED_LSE, SAVED_COUNT };

typedef struct attention_attrs {
    bool has_mask, mask_is_bool, causal;
    double scale;
    int64_t queries, keys;
    tsr_dtype compute;
} attention_attrs;

/* The gradients one block of keys adds: dq (accumulated in *dq), dk_j, dv_j. */
typedef struct block_grads {
    tsr_tensor *dq, *dk, *dv;
} block_grads;

static tsr_status block_backward(tsr__node *node, const tsr__attention *a, int64_t start, int64_t n,
                                 tsr_tensor *g, tsr_tensor *row_dot, tsr_tensor *lse,
                                 tsr_tensor **dq, block_grads *out)
{
    tsr__gx x = {0};
    tsr_tensor *s = NULL;
    tsr_status st = tsr__attention_scores(a, start, n, &s);
    s = tsr__gx_keep(&x, st, s);
    tsr_tensor *p = tsr__gx_unary(&x, TSR_OP_EXP, tsr__gx_sub(&x, s, lse));
    if (tsr__node_needs_grad(node, 2))
        tsr__gx_result(&x, &out->dv, tsr__nn_matmul(&x, tsr__nn_transpose(&x, p, -2, -1), g));
    if (tsr__node_needs_grad(node, 0) || tsr__node_needs_grad(node, 1)) {
        tsr_tensor *vj = tsr__nn_narrow(&x, a->v, -2, start, n);
        tsr_tensor *dp = tsr__nn_matmul(&x, g, tsr__nn_transpose(&x, vj, -2, -1));
        tsr_tensor *ds =
            tsr__gx_scale(&x, tsr__gx_mul(&x, p, tsr__gx_sub(&x, dp, row_dot)), a->scale);
        if (tsr__node_needs_grad(node, 0)) {
            tsr_tensor *kj = tsr__nn_narrow(&x, a->k, -2, start, n);
            tsr_tensor *part = tsr__nn_matmul(&x, ds, kj);
            tsr__gx_result(&x, dq, *dq ? tsr__gx_add(&x, *dq, part) : part);
        }
        if (tsr__node_needs_grad(node, 1))
            tsr__gx_result(&x, &out->dk,
                           tsr__nn_matmul(&x, tsr__nn_transpose(&x, ds, -2, -1), a->q));
    }
    return tsr__gx_finish(&x);
}

/* Joins the blocks' parts along the keys. */
static tsr_status join_blocks(tsr_tensor **parts, size_t count, tsr_tensor **out)
{
    if (count == 1) {
        tsr_tensor_retain(parts[0]);
        *out = parts[0];
        return TSR_OK;
    }
    return tsr_cat((const tsr_tensor *const *)parts, count, -2, out);
}

static tsr_status run_blocks(tsr__node *node, const tsr__attention *a, tsr_tensor *g,
                             tsr_tensor *row_dot, tsr_tensor *lse, tsr_tensor **gi)
{
    size_t count = (size_t)((a->keys + TSR__KEY_BLOCK - 1) / TSR__KEY_BLOCK);
    tsr_tensor **dk = tsr__calloc(count, sizeof *dk), **dv = tsr__calloc(count, sizeof *dv), *dq = NULL;
    tsr_status st = dk && dv ? TSR_OK
                             : tsr__set_error(TSR_ERR_OUT_OF_MEMORY,
                                              "scaled_dot_product_attention: out of host memory");
    for (size_t b = 0; b < count && st == TSR_OK; b++) {
        int64_t start = (int64_t)b * TSR__KEY_BLOCK;
        int64_t n = a->keys - start < TSR__KEY_BLOCK ? a->keys - start : TSR__KEY_BLOCK;
        block_grads parts = {NULL, NULL, NULL};
        st = block_backward(node, a, start, n, g, row_dot, lse, &dq, &parts);
        dk[b] = parts.dk;
        dv[b] = parts.dv;
    }
    if (st == TSR_OK && tsr__node_needs_grad(node, 1))
        st = join_blocks(dk, count, &gi[1]);
    if (st == TSR_OK && tsr__node_needs_grad(node, 2))
        st = join_blocks(dv, count, &gi[2]);
    if (st == TSR_OK && tsr__node_needs_grad(node, 0)) {
        gi[0] = dq;
        dq = NULL;
    }
    for (size_t b = 0; b < count; b++) {
        tsr_tensor_release(dk ? dk[b] : NULL);
        tsr_tensor_release(dv ? dv[b] : NULL);
    }
    free(dk);
    free(dv);
    tsr_tensor_release(dq);
    return st;
}

static tsr_status attention_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const attention_attrs *at = tsr__node_attrs(node);
    if (at->keys == 0) /* the result did not depend on anything: zero gradients */
        return TSR_OK;
    tsr__gx x = {0};
    tsr__attention a = {
        .q = tsr__nn_to(&x, tsr__gx_saved(&x, node, SAVED_Q), at->compute),
        .k = tsr__nn_to(&x, tsr__gx_saved(&x, node, SAVED_K), at->compute),
        .v = tsr__nn_to(&x, tsr__gx_saved(&x, node, SAVED_V), at->compute),
        .mask = at->has_mask ? tsr__gx_saved(&x, node, SAVED_MASK) : NULL,
        .mask_is_bool = at->mask_is_bool,
        .causal = at->causal,
        .scale = at->scale,
        .queries = at->queries,
        .keys = at->keys,
    };
    tsr_tensor *y = tsr__gx_saved(&x, node, SAVED_Y), *lse = tsr__gx_saved(&x, node, SAVED_LSE);
    tsr_tensor *g = tsr__nn_to(&x, grads[0], at->compute);
    int64_t last = -1;
    tsr_tensor *row_dot = tsr__nn_sum(&x, tsr__gx_mul(&x, g, y), &last, 1, true);
    if (x.status == TSR_OK)
        x.status = run_blocks(node, &a, g, row_dot, lse, gi);
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_attention(const tsr__attention *a, const tsr_tensor *query,
                                      const tsr_tensor *key, const tsr_tensor *value,
                                      const tsr_tensor *y, const tsr_tensor *lse, tsr_tensor *out)
{
    const tsr_tensor *inputs[3] = {query, key, value};
    if (!tsr__grad_wanted(inputs, 3) || !tsr__grad_dtype(tsr_tensor_dtype(out)))
        return TSR_OK;
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create("scaled_dot_product_attention", attention_backward, 3, 1,
                                     SAVED_COUNT, sizeof(attention_attrs), &node);
    for (int i = 0; i < 3 && st == TSR_OK; i++)
        st = tsr__node_set_input(node, i, inputs[i]);
    if (st == TSR_OK) {
        attention_attrs *at = tsr__node_attrs(node);
        *at = (attention_attrs){.has_mask = a->mask != NULL,
                                .mask_is_bool = a->mask_is_bool,
                                .causal = a->causal,
                                .scale = a->scale,
                                .queries = a->queries,
                                .keys = a->keys,
                                .compute = tsr_tensor_dtype(a->q)};
    }
    /* Every block reads q, k and v whichever gradient is asked for. */
    const char *names[3] = {"query", "key", "value"};
    for (int i = 0; i < 3 && st == TSR_OK && a->keys > 0; i++)
        st = tsr__node_save(node, SAVED_Q + i, inputs[i], names[i]);
    if (st == TSR_OK && a->mask && a->keys > 0)
        st = tsr__node_save(node, SAVED_MASK, a->mask, "attn_mask");
    if (st == TSR_OK && a->keys > 0)
        st = tsr__node_save(node, SAVED_Y, y, "result");
    if (st == TSR_OK && a->keys > 0)
        st = tsr__node_save(node, SAVED_LSE, lse, "logsumexp");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}
