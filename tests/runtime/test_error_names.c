/* Error messages name the public op the user called, first, once: a sample
 * of public functions across the families is made to fail (bad shapes,
 * dtypes, dims, values), and each message must start "NAME:" with no
 * second "word:" prefix after it (no "add: add:", no internal helper such
 * as "to:" or "from_host:" in front of the real complaint). */
#include "check.h"

#include <ctype.h>

static tsr_tensor *f2x3, *f4, *i2, *i2bad, *b2x3, *f3x3, *f0;

static tsr_tensor *make(tsr_dtype dtype, int ndim, const int64_t *shape, double value)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_full(ndim, shape, tsr_scalar_float(value), dtype, NULL, &t));
    return t;
}

static void setup(void)
{
    f2x3 = make(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 0.5);
    f4 = make(TSR_FLOAT32, 1, (int64_t[]){4}, 1.0);
    i2 = make(TSR_INT64, 1, (int64_t[]){2}, 1);
    i2bad = make(TSR_INT64, 1, (int64_t[]){2}, 7);
    b2x3 = make(TSR_BOOL, 2, (int64_t[]){2, 3}, 1);
    f3x3 = make(TSR_FLOAT32, 2, (int64_t[]){3, 3}, 2.0);
    f0 = make(TSR_FLOAT32, 1, (int64_t[]){0}, 0);
}

static int named;

static void expect_named(const char *call, const char *name, tsr_status st)
{
    check_count++;
    named++;
    const char *m = tsr_last_error();
    size_t n = strlen(name);
    if (st == TSR_OK) {
        CHECK_FAIL_("%s succeeded; expected an error from %s", call, name);
        return;
    }
    if (strncmp(m, name, n) != 0 || m[n] != ':' || m[n + 1] != ' ') {
        CHECK_FAIL_("%s: message \"%s\" does not start \"%s: \"", call, m, name);
        return;
    }
    const char *rest = m + n + 2;
    const char *p = rest;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    if (p > rest && p[0] == ':' && p[1] == ' ')
        CHECK_FAIL_("%s: message \"%s\" has a second prefix after \"%s:\"", call, m, name);
}

#define EXPECT(name, call) expect_named(#call, name, (call))

static void test_sample(void)
{
    tsr_tensor *o = NULL, *o2 = NULL;
    tsr_tensor *outs[4];
    size_t count;
    tsr_generator *g = NULL;
    CHECK_OK(tsr_generator_create(3, &g));
    /* creation */
    EXPECT("zeros", tsr_zeros(1, (int64_t[]){-1}, TSR_FLOAT32, NULL, &o));
    EXPECT("full", tsr_full(1, (int64_t[]){2}, tsr_scalar_float(1.5), (tsr_dtype)77, NULL, &o));
    EXPECT("arange", tsr_arange(tsr_scalar_int(0), tsr_scalar_int(3), tsr_scalar_int(0),
                                TSR_INT64, NULL, &o));
    EXPECT("linspace", tsr_linspace(tsr_scalar_int(0), tsr_scalar_int(1), -1, TSR_FLOAT32, NULL,
                                    &o));
    EXPECT("eye", tsr_eye(-2, -1, TSR_FLOAT32, NULL, &o));
    EXPECT("randn", tsr_randn(g, 1, (int64_t[]){2}, TSR_INT32, NULL, &o));
    EXPECT("rand", tsr_rand(g, 1, (int64_t[]){-2}, TSR_FLOAT32, NULL, &o));
    EXPECT("randint", tsr_randint(g, 0, 1000, 1, (int64_t[]){2}, TSR_INT8, NULL, &o));
    EXPECT("zeros_like", tsr_zeros_like(f2x3, (tsr_dtype)77, &o));
    EXPECT("randn_like", tsr_randn_like(g, i2, TSR_DTYPE_INFER, &o));
    EXPECT("from_host", tsr_from_host((float[]){1}, 4, 1, (int64_t[]){2}, TSR_FLOAT32, NULL, &o));
    EXPECT("item", tsr_item(f2x3, &(tsr_scalar){0}));
    /* views and copy */
    EXPECT("view", tsr_view(f2x3, 1, (int64_t[]){5}, &o));
    EXPECT("reshape", tsr_reshape(f2x3, 1, (int64_t[]){5}, &o));
    EXPECT("transpose", tsr_transpose(f2x3, 0, 5, &o));
    EXPECT("permute", tsr_permute(f2x3, 2, (int64_t[]){0, 0}, &o));
    EXPECT("expand", tsr_expand(f2x3, 2, (int64_t[]){4, 3}, &o));
    EXPECT("narrow", tsr_narrow(f2x3, 1, 2, 5, &o));
    EXPECT("unsqueeze", tsr_unsqueeze(f2x3, 7, &o));
    EXPECT("flatten", tsr_flatten(f2x3, 1, 0, &o));
    EXPECT("copy_", tsr_copy_(f4, f2x3));
    EXPECT("to", tsr_to_dtype(f2x3, (tsr_dtype)77, &o));
    /* elementwise, both families, ternary, in place */
    EXPECT("add", tsr_add(f2x3, f4, &o));
    EXPECT("add", tsr_add_scaled(tsr_operand_tensor(b2x3), tsr_operand_tensor(b2x3),
                                 tsr_scalar_float(0.5), &o));
    EXPECT("mul", tsr_mul(f2x3, f4, &o));
    EXPECT("pow", tsr_pow(f2x3, f4, &o));
    EXPECT("gt", tsr_gt(f2x3, f4, &o));
    EXPECT("neg", tsr_neg(b2x3, &o));
    EXPECT("relu", tsr_relu(b2x3, &o));
    EXPECT("bitwise_and", tsr_bitwise_and(f2x3, f2x3, &o));
    EXPECT("hypot", tsr_hypot(i2, i2, &o));
    EXPECT("where", tsr_where(f2x3, tsr_operand_tensor(f2x3), tsr_operand_tensor(f2x3), &o));
    EXPECT("clamp", tsr_clamp(f2x3, NULL, NULL, &o));
    EXPECT("gelu", tsr_gelu(f2x3, 9, &o));
    EXPECT("softplus", tsr_softplus(i2, tsr_scalar_int(1), tsr_scalar_int(20), &o));
    EXPECT("lerp", tsr_lerp(f2x3, f4, tsr_operand_scalar(tsr_scalar_float(0.5)), &o));
    EXPECT("exp_", tsr_exp_(i2));
    EXPECT("mul_", tsr_mul_(f4, tsr_operand_tensor(f2x3)));
    EXPECT("add_", tsr_add_(i2, tsr_operand_tensor(f4), tsr_scalar_int(1)));
    /* reductions and scans */
    EXPECT("sum", tsr_sum(f2x3, (int64_t[]){4}, 1, false, TSR_DTYPE_INFER, &o));
    EXPECT("mean", tsr_mean(i2, NULL, 0, false, TSR_DTYPE_INFER, &o));
    EXPECT("max", tsr_max(f0, &o));
    EXPECT("argmax", tsr_argmax(f2x3, (int64_t[]){3}, 1, false, &o));
    EXPECT("var", tsr_var(f2x3, (int64_t[]){9}, 1, 1, false, &o));
    EXPECT("cumsum", tsr_cumsum(f2x3, 5, TSR_DTYPE_INFER, &o));
    EXPECT("logcumsumexp", tsr_logcumsumexp(f2x3, -4, &o));
    /* products */
    EXPECT("matmul", tsr_matmul(f2x3, f2x3, &o));
    EXPECT("mm", tsr_mm(f2x3, f4, &o));
    EXPECT("dot", tsr_dot(f4, i2, &o));
    EXPECT("einsum", tsr_einsum("ij,jk", (const tsr_tensor *[]){f2x3}, 1, &o));
    /* indexing, scatter, mask */
    EXPECT("index_select", tsr_index_select(f2x3, 0, i2bad, &o));
    EXPECT("gather", tsr_gather(f2x3, 0, i2, &o));
    EXPECT("take", tsr_take(f2x3, i2bad, &o));
    EXPECT("one_hot", tsr_one_hot(f4, 3, &o));
    EXPECT("scatter_add", tsr_scatter_add(f2x3, 0, i2, f4, &o));
    EXPECT("masked_fill", tsr_masked_fill(f2x3, f2x3, tsr_operand_scalar(tsr_scalar_int(0)), &o));
    /* join, rearrange, sort */
    EXPECT("cat", tsr_cat((const tsr_tensor *[]){f2x3, f4}, 2, 0, &o));
    EXPECT("stack", tsr_stack((const tsr_tensor *[]){f2x3, f4}, 2, 0, &o));
    EXPECT("split", tsr_split(f2x3, 0, 0, outs, 4, &count));
    EXPECT("chunk", tsr_chunk(f2x3, 0, 0, outs, 4, &count));
    EXPECT("flip", tsr_flip(f2x3, (int64_t[]){0, 0}, 2, &o));
    EXPECT("repeat", tsr_repeat(f2x3, (int64_t[]){2}, 1, &o));
    EXPECT("pad", tsr_pad(f2x3, (int64_t[]){1}, 1, 0, tsr_scalar_int(0), &o));
    EXPECT("tril", tsr_tril(f4, 0, &o));
    EXPECT("sort", tsr_sort(f2x3, 4, false, &o, &o2));
    EXPECT("topk", tsr_topk(f2x3, 9, 1, true, &o, &o2));
    /* nn */
    EXPECT("softmax", tsr_softmax(f2x3, 3, TSR_DTYPE_INFER, &o));
    EXPECT("layer_norm", tsr_layer_norm(f2x3, 1, (int64_t[]){4}, NULL, NULL, 1e-5, &o));
    EXPECT("mse_loss", tsr_mse_loss(f2x3, f3x3, 1, &o));
    EXPECT("nll_loss", tsr_nll_loss(f2x3, f4, NULL, -100, 1, &o));
    EXPECT("l1_loss", tsr_l1_loss(f2x3, f3x3, 1, &o));
    EXPECT("smooth_l1_loss", tsr_smooth_l1_loss(f2x3, f3x3, 1, 1.0, &o));
    EXPECT("binary_cross_entropy", tsr_binary_cross_entropy(f2x3, f3x3, NULL, 1, &o));
    EXPECT("cross_entropy", tsr_cross_entropy(f2x3, f4, NULL, -100, 1, 0.0, &o));
    EXPECT("linear", tsr_linear(f2x3, f4, NULL, &o));
    EXPECT("bilinear", tsr_bilinear(f2x3, f2x3, f4, NULL, &o));
    EXPECT("dropout", tsr_dropout(f2x3, 1.5, true, g, &o));
    EXPECT("scaled_dot_product_attention",
           tsr_scaled_dot_product_attention(f2x3, f3x3, f4, NULL, 0.0, false, NULL, g, &o));
    EXPECT("group_norm", tsr_group_norm(f2x3, 5, NULL, NULL, 1e-5, &o));
    EXPECT("batch_norm", tsr_batch_norm(f2x3, NULL, NULL, f4, NULL, true, 0.1, 1e-5, &o));
    EXPECT("rms_norm", tsr_rms_norm(f2x3, 1, (int64_t[]){4}, NULL, NULL, &o));
    EXPECT("log_softmax", tsr_log_softmax(f2x3, 3, TSR_DTYPE_INFER, &o));
    EXPECT("tensordot", tsr_tensordot(f2x3, f4, 1, &o));
    EXPECT("baddbmm", tsr_baddbmm(f2x3, f2x3, f2x3, tsr_scalar_int(1), tsr_scalar_int(1), &o));
    EXPECT("outer", tsr_outer(f2x3, f4, &o));
    EXPECT("hstack", tsr_hstack((const tsr_tensor *[]){f2x3, f4}, 2, &o));
    EXPECT("unbind", tsr_unbind(f2x3, 4, outs, 4, &count));
    EXPECT("roll", tsr_roll(f2x3, (int64_t[]){1}, 1, (int64_t[]){5}, 1, &o));
    EXPECT("tile", tsr_tile(f2x3, (int64_t[]){-1}, 1, &o));
    EXPECT("kthvalue", tsr_kthvalue(f2x3, 9, 1, false, &o, &o2));
    EXPECT("median", tsr_median_dim(f2x3, 5, false, &o, &o2));
    EXPECT("std_mean", tsr_std_mean(f2x3, (int64_t[]){5}, 1, 1, false, &o, &o2));
    EXPECT("cummax", tsr_cummax(f2x3, 3, &o, &o2));
    EXPECT("masked_select", tsr_masked_select(f2x3, f2x3, &o));
    EXPECT("embedding", tsr_embedding(i2bad, f2x3, NULL, &o));
    EXPECT("index_add", tsr_index_add(f2x3, 0, i2bad, f2x3, tsr_scalar_int(1), &o));
    EXPECT("scatter", tsr_scatter(f2x3, 0, i2bad, f2x3, 0, &o));
    EXPECT("unique", tsr_unique(f2x3, true, (int64_t[]){4}, &o, NULL, NULL));
    EXPECT("repeat_interleave", tsr_repeat_interleave(f2x3, -1, NULL, &o));
    /* printing */
    EXPECT("tensor_to_string", tsr_tensor_to_string(NULL, &(char *){NULL}));
    EXPECT("print", tsr_print(NULL));
    tsr_generator_destroy(g);
    CHECK_TRUE(o == NULL && o2 == NULL);
    CHECK_TRUE(named >= 40);
}

int main(void)
{
    setup();
    test_sample();
    tsr_tensor *all[] = {f2x3, f4, i2, i2bad, b2x3, f3x3, f0};
    for (int k = 0; k < 7; k++)
        tsr_tensor_release(all[k]);
    return check_summary("test_error_names");
}
