/* matmul's host side without a device: the cuBLAS plan (matmul_plan.c)
 * run on host memory with an emulated cublasGemmStridedBatchedEx
 * (column-major, op N/T, leading dimensions, batch strides, beta 0 never
 * reading C) must give the reference backend's matmul bit for bit, for
 * transposed, sliced, broadcast-batch, non-collapsible batch, transposed
 * output, c with alpha/beta, K = 0 and shared-output layouts. The emulation
 * sums in double in k order as the reference does, so what is checked is
 * the mapping, not cuBLAS's arithmetic (float accumulation on the GPU).
 * Also: the loader finds cuBLAS's every symbol, and names a missing library. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIFORM_SEED 0x2545F4914F6CDD1Dull
#include "cuda_host_test.h"
#include "cublas_loader.h"
#include "elem_ops.h"
#include "matmul_plan.h"

#include "../../reference/kernels.h"
#include "../../reference/wide.h"

/* A host tensor: its own buffer, viewed with `strides` (elements). */
typedef struct tensor {
    int32_t ndim;
    int64_t shape[4], strides[4];
    unsigned char *data;
    tsr_tensor_desc desc;
} tensor;

/* A tensor whose memory holds the dims of `order` (outermost first)
 * contiguously, so order {1, 0} is a transposed view; the innermost dim in
 * memory has stride `step` (2: every other element, as a slice). */
static void make(tensor *t, int32_t dtype, int32_t ndim, const int64_t *shape, const int *order,
                 int64_t step, int zero_batch_stride)
{
    memset(t, 0, sizeof *t);
    t->ndim = ndim;
    int64_t stride = step;
    for (int32_t i = ndim - 1; i >= 0; i--) {
        int32_t d = order ? order[i] : i;
        t->shape[d] = shape[d];
        t->strides[d] = stride;
        stride *= shape[d] > 0 ? shape[d] : 1;
    }
    if (zero_batch_stride)
        t->strides[0] = 0;
    int size = tsr__cu_dtype_size(dtype);
    t->data = calloc((size_t)(stride + 1), (size_t)size);
    for (int64_t i = 0; i <= stride; i++) {
        tsr__cu_value v = tsr__cu_complex((uniform() - 0.5) * 8.0, (uniform() - 0.5) * 8.0);
        if (tsr__cu_dtype_category(dtype) == TSR__CU_REAL)
            v.f = (uniform() - 0.5) * 8.0;
        tsr__cu_store(dtype, tsr__cu_dtype_category(dtype), t->data + i * size, v);
    }
    t->desc = (tsr_tensor_desc){t->data, 0, dtype, ndim, t->shape, t->strides};
}

static int64_t offset_of(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t i)
{
    int64_t off = 0;
    for (int32_t d = ndim - 1; d >= 0; d--) {
        off += (i % shape[d]) * strides[d];
        i /= shape[d];
    }
    return off;
}

static void host_copy(int32_t dtype, int32_t ndim, const int64_t *shape, char *dst,
                      const int64_t *ds, const char *src, const int64_t *ss)
{
    int64_t n = 1, size = tsr__cu_dtype_size(dtype);
    for (int32_t d = 0; d < ndim; d++)
        n *= shape[d];
    for (int64_t i = 0; i < n; i++)
        memcpy(dst + offset_of(ndim, shape, ds, i) * size,
               src + offset_of(ndim, shape, ss, i) * size, (size_t)size);
}

/* cublasGemmStridedBatchedEx, column-major, summing in double in k order
 * and combining as the reference does (alpha 1 and beta 1 not multiplied). */
static void emulated_gemm(const tsr__cu_gemm_plan *p, int ta, int tb, int64_t m, int64_t n,
                          int64_t k, const char *A, int64_t lda, int64_t sa, const char *B,
                          int64_t ldb, int64_t sb, char *C, int64_t ldc, int64_t sc, int64_t batch)
{
    const int32_t dt = p->dtype, cat = tsr__cu_dtype_category(dt);
    const int size = tsr__cu_dtype_size(dt);
    const int alpha_zero =
        cat == TSR__CU_REAL ? p->alpha.f == 0.0 : p->alpha.c.re == 0.0 && p->alpha.c.im == 0.0;
    const int alpha_one =
        cat == TSR__CU_REAL ? p->alpha.f == 1.0 : p->alpha.c.re == 1.0 && p->alpha.c.im == 0.0;
    const int beta_one =
        cat == TSR__CU_REAL ? p->beta.f == 1.0 : p->beta.c.re == 1.0 && p->beta.c.im == 0.0;
    for (int64_t q = 0; q < batch; q++)
        for (int64_t j = 0; j < n; j++)
            for (int64_t r = 0; r < m; r++) {
                tsr__cu_value acc = tsr__cu_complex(0.0, 0.0);
                acc.f = 0.0;
                if (!alpha_zero) {
                    for (int64_t l = 0; l < k; l++) {
                        tsr__cu_value x = tsr__cu_load(
                            dt, A + (q * sa + (ta ? l + r * lda : r + l * lda)) * size);
                        tsr__cu_value y = tsr__cu_load(
                            dt, B + (q * sb + (tb ? j + l * ldb : l + j * ldb)) * size);
                        if (cat == TSR__CU_REAL)
                            acc.f += x.f * y.f;
                        else {
                            tsr__cu_value xy = tsr__cu_cmul(x, y);
                            acc = tsr__cu_complex(acc.c.re + xy.c.re, acc.c.im + xy.c.im);
                        }
                    }
                    if (!alpha_one)
                        acc = cat == TSR__CU_REAL ? (acc.f = p->alpha.f * acc.f, acc)
                                                  : tsr__cu_cmul(p->alpha, acc);
                }
                char *c = C + (q * sc + r + j * ldc) * size;
                if (p->has_c) {
                    tsr__cu_value cv = tsr__cu_load(dt, c);
                    if (!beta_one)
                        cv = cat == TSR__CU_REAL ? (cv.f = p->beta.f * cv.f, cv)
                                                 : tsr__cu_cmul(p->beta, cv);
                    if (alpha_zero)
                        acc = cv;
                    else if (cat == TSR__CU_REAL)
                        acc.f += cv.f;
                    else
                        acc = tsr__cu_complex(acc.c.re + cv.c.re, acc.c.im + cv.c.im);
                }
                tsr__cu_store(dt, (tsr__cu_category)cat, c, acc);
            }
}

/* kernel_matmul.c's run(), with host memory and the emulated cuBLAS. */
static void run_plan(const tsr__cu_gemm_plan *p, tensor *out, tensor *a, tensor *b, tensor *c)
{
    tensor *ts[3] = {out, a, b};
    const int size = tsr__cu_dtype_size(p->dtype);
    char *base[3];
    unsigned char *scratch[3] = {NULL, NULL, NULL};
    int64_t packed[4];
    for (int i = 0; i < 3; i++) {
        base[i] = (char *)ts[i]->data;
        if (!p->operand[i].pack)
            continue;
        int64_t n = 1, step = 1;
        for (int32_t d = ts[i]->ndim - 1; d >= 0; d--) {
            packed[d] = step;
            step *= ts[i]->shape[d];
            n *= ts[i]->shape[d];
        }
        scratch[i] = calloc((size_t)(n + 1), (size_t)size);
        if (i != 0)
            host_copy(p->dtype, ts[i]->ndim, ts[i]->shape, (char *)scratch[i], packed, base[i],
                      ts[i]->strides);
        base[i] = (char *)scratch[i];
    }
    int64_t out_strides[4];
    for (int32_t d = 0; d < out->ndim; d++)
        out_strides[d] = out->strides[d];
    if (p->operand[0].pack)
        for (int64_t d = out->ndim - 1, step = 1; d >= 0; step *= out->shape[d], d--)
            out_strides[d] = step;
    if (p->has_c)
        host_copy(p->dtype, out->ndim, out->shape, base[0], out_strides, (char *)c->data,
                  c->strides);
    for (int64_t outer = 0; outer < p->outer_count; outer++) {
        int64_t off[3];
        tsr__cu_gemm_outer_offsets(p, outer, off);
        const tsr__cu_gemm_operand *oa = &p->operand[1], *ob = &p->operand[2];
        emulated_gemm(p, ob->transpose, oa->transpose, p->n, p->m, p->k, base[2] + off[2] * size,
                      ob->ld, tsr__cu_gemm_inner_stride(p, 2), base[1] + off[1] * size, oa->ld,
                      tsr__cu_gemm_inner_stride(p, 1), base[0] + off[0] * size, p->operand[0].ld,
                      tsr__cu_gemm_inner_stride(p, 0), p->inner_count);
    }
    if (p->operand[0].pack)
        host_copy(p->dtype, out->ndim, out->shape, (char *)out->data, out->strides, base[0],
                  out_strides);
    for (int i = 0; i < 3; i++)
        free(scratch[i]);
}

typedef struct layout_case {
    const char *name;
    int32_t ndim;
    int64_t m, n, k, batch[2];
    int a_order[4], b_order[4], out_order[4]; /* all zero: contiguous */
    int64_t a_step, b_step;
    int b_zero_batch, with_c, shares;
    double alpha, beta;
} layout_case;

static const layout_case CASES[] = {
    {"contiguous", 2, 3, 5, 4, {0}, {0}, {0}, {0}, 1, 1, 0, 0, 0, 1, 0},
    {"a transposed", 2, 3, 5, 4, {0}, {1, 0}, {0}, {0}, 1, 1, 0, 0, 0, 1, 0},
    {"b transposed", 2, 3, 5, 4, {0}, {0}, {1, 0}, {0}, 1, 1, 0, 0, 0, 1, 0},
    {"both sliced (packed)", 2, 3, 5, 4, {0}, {0}, {0}, {0}, 2, 2, 0, 0, 0, 1, 0},
    {"batched", 3, 3, 5, 4, {2}, {0}, {0}, {0}, 1, 1, 0, 0, 0, 1, 0},
    {"broadcast batch of b", 3, 4, 2, 3, {3}, {0}, {0}, {0}, 1, 1, 1, 0, 0, 1, 0},
    {"batch dims not collapsible", 4, 2, 3, 4, {2, 3}, {1, 0, 2, 3}, {0}, {0}, 1, 1, 0, 0, 0, 1, 0},
    {"transposed output", 2, 3, 5, 4, {0}, {0}, {0}, {1, 0}, 1, 1, 0, 0, 0, 1, 0},
    {"c, alpha and beta", 3, 3, 5, 4, {2}, {0}, {2, 0, 1}, {0}, 1, 1, 0, 1, 0, 0.5, 2.0},
    {"c with beta 1, alpha 0", 2, 3, 5, 4, {0}, {0}, {0}, {0}, 1, 1, 0, 1, 0, 0, 1},
    {"K = 0 with c", 2, 3, 5, 0, {0}, {0}, {0}, {0}, 1, 1, 0, 1, 0, 1, 3.0},
    {"row times column", 2, 1, 1, 7, {0}, {0}, {0}, {0}, 1, 1, 0, 0, 0, 1, 0},
    {"shared output (scratch)", 2, 3, 5, 4, {0}, {0}, {0}, {0}, 1, 1, 0, 0, 1, 1, 0},
    {"batched, sliced, transposed output",
     3,
     3,
     5,
     4,
     {2},
     {0},
     {0},
     {0, 2, 1},
     2,
     2,
     0,
     0,
     0,
     1,
     0},
    {"no c: beta ignored", 2, 3, 5, 4, {0}, {0}, {0}, {0}, 1, 1, 0, 0, 0, 1, 5.0},
};

static void run_layout(const layout_case *lc, int32_t dtype)
{
    int64_t as[4], bs[4], os[4];
    int32_t nb = lc->ndim - 2;
    for (int32_t d = 0; d < nb; d++)
        as[d] = bs[d] = os[d] = lc->batch[d];
    as[nb] = lc->m, as[nb + 1] = lc->k;
    bs[nb] = lc->k, bs[nb + 1] = lc->n;
    os[nb] = lc->m, os[nb + 1] = lc->n;
    const int any_order = lc->a_order[0] || lc->a_order[1];
    int order[4] = {0, 1, 2, 3};
    (void)any_order;
    tensor a, b, want, got, c;
#define ORDER_(o) ((o)[0] || (o)[1] ? (o) : NULL)
    make(&a, dtype, lc->ndim, as, ORDER_(lc->a_order), lc->a_step, 0);
    make(&b, dtype, lc->ndim, bs, ORDER_(lc->b_order), lc->b_step, lc->b_zero_batch);
    make(&want, dtype, lc->ndim, os, ORDER_(lc->out_order), 1, 0);
    make(&got, dtype, lc->ndim, os, ORDER_(lc->out_order), 1, 0);
    int64_t cs[4];
    memcpy(cs, os, sizeof cs);
    cs[nb] = 1; /* c broadcast along rows: [..., 1, N] viewed as [..., M, N] with stride 0 */
    make(&c, dtype, lc->ndim, cs, NULL, 1, 0);
    c.shape[nb] = lc->m;
    c.strides[nb] = 0;
    (void)order;
#undef ORDER_
    tsr_tensor_desc inputs[3] = {a.desc, b.desc, c.desc};
    tsr_elementwise_attrs attrs = {sizeof attrs, lc->with_c, {{0}}};
    attrs.scalars[0].kind = attrs.scalars[1].kind = TSR_SCALAR_FLOAT;
    attrs.scalars[0].v.f = lc->alpha;
    attrs.scalars[1].v.f = lc->beta;
    tsr_kernel_args args = {sizeof args, TSR_OP_MATMUL, 2 + lc->with_c, 1,
                            inputs,      &want.desc,    &attrs};
    CHECK(tsr__ref_kernel_matmul(NULL, &args) == TSR_OK);
    args.outputs = &got.desc;
    tsr__cu_gemm_plan plan;
    char message[256];
    CHECK(tsr__cu_gemm_plan_init(&plan, &args, lc->shares, message, sizeof message) == TSR_OK);
    if (!strcmp(lc->name, "both sliced (packed)"))
        CHECK(plan.operand[1].pack && plan.operand[2].pack);
    if (!strcmp(lc->name, "a transposed"))
        CHECK(!plan.operand[1].pack && plan.operand[1].transpose);
    if (!strcmp(lc->name, "transposed output") || !strcmp(lc->name, "shared output (scratch)"))
        CHECK(plan.operand[0].pack);
    if (!strcmp(lc->name, "batch dims not collapsible"))
        CHECK(plan.outer_count == 2 && plan.inner_count == 3);
    if (!strcmp(lc->name, "broadcast batch of b"))
        CHECK(tsr__cu_gemm_inner_stride(&plan, 2) == 0);
    run_plan(&plan, &got, &a, &b, &c);
    int size = tsr__cu_dtype_size(dtype);
    int64_t count = 1;
    for (int32_t d = 0; d < lc->ndim; d++)
        count *= os[d];
    for (int64_t i = 0; i < count; i++) {
        int64_t off = offset_of(lc->ndim, os, want.strides, i) * size;
        if (memcmp(want.data + off, got.data + off, (size_t)size) != 0) {
            fprintf(stderr, "matmul %s dtype %d: element %lld differs\n", lc->name, (int)dtype,
                    (long long)i);
            failures++;
            break;
        }
    }
    free(a.data), free(b.data), free(want.data), free(got.data), free(c.data);
}

static void test_layouts(void)
{
    const int32_t dtypes[] = {TSR_FLOAT32, TSR_FLOAT64, TSR_BFLOAT16, TSR_COMPLEX64,
                              TSR_COMPLEX128};
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++)
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++)
            run_layout(&CASES[c], dtypes[d]);
    /* Refused calls: an integer dtype, mismatched shapes. */
    int64_t shape[2] = {2, 2}, strides[2] = {2, 1}, bad[2] = {3, 2};
    int32_t x[6] = {0};
    tsr_tensor_desc ints[2] = {{x, 0, TSR_INT32, 2, shape, strides},
                               {x, 0, TSR_INT32, 2, shape, strides}};
    tsr_kernel_args args = {sizeof args, TSR_OP_MATMUL, 2, 1, ints, ints, NULL};
    tsr__cu_gemm_plan plan;
    char message[256] = "";
    CHECK(tsr__cu_gemm_plan_init(&plan, &args, 0, message, sizeof message) == TSR_ERR_DTYPE);
    CHECK(strncmp(message, "matmul", 6) == 0);
    float f[6] = {0};
    tsr_tensor_desc fl[3] = {{f, 0, TSR_FLOAT32, 2, shape, strides},
                             {f, 0, TSR_FLOAT32, 2, bad, strides},
                             {f, 0, TSR_FLOAT32, 2, shape, strides}};
    args.inputs = fl;
    args.outputs = &fl[2];
    CHECK(tsr__cu_gemm_plan_init(&plan, &args, 0, message, sizeof message) == TSR_ERR_SHAPE);
    fl[1].shape = shape;
    fl[1].data = NULL; /* elements without data */
    CHECK(tsr__cu_gemm_plan_init(&plan, &args, 0, message, sizeof message) ==
          TSR_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    test_layouts();
    /* The loader: every symbol of the toolkit's cuBLAS, and a clear error. */
    tsr__cu_cublas lib;
    char message[1200] = "";
    CHECK(tsr__cu_cublas_open("libtessera-no-such-cublas.so.13", &lib, message, sizeof message) ==
          -1);
    CHECK(strstr(message, "libtessera-no-such-cublas.so.13") != NULL);
    CHECK(strstr(message, "matmul") != NULL);
    CHECK(tsr__cu_cublas_open(TSR_TEST_CUBLAS, &lib, message, sizeof message) == 0);
    CHECK(lib.create && lib.destroy && lib.set_stream && lib.gemm_strided_batched &&
          lib.status_string);
    tsr__cu_cublas_close(&lib);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("cuda matmul plan: all checks passed\n");
    return 0;
}
