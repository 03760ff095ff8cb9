/* matmul for bfloat16 through oneDNN's matmul primitive (see cpu_dnnl.h).
 *
 * Operands are handed over as they lie: each is a memory descriptor with
 * the tensor's own strides, so a transposed or sliced operand is never
 * copied. A batch dim that the core broadcast with a 0 stride becomes a dim
 * of extent 1 in that operand, which oneDNN broadcasts itself. alpha is the
 * primitive's output scale; c is copied into the output first and added by
 * a sum post-op scaled by beta, so out = alpha * (a @ b) + beta * c is
 * rounded to bfloat16 once, from float32 accumulators.
 *
 * Primitives come from a small cache (dnnl_cache.c); oneDNN's scratchpad
 * is user-managed, so one cached primitive may run on several user threads
 * at once, each with its own scratch memory from the backend's allocator.
 * A call oneDNN cannot take (see plan_build) goes to the reference kernel. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu_backend.h"
#include "cpu_dnnl.h"
#include "cpu_dnnl_api.h"
#include "kernels.h" /* tsr__ref_kernel_matmul */
#include "wide.h"

/* oneDNN's OpenMP thread count: the backend's, except under
 * AddressSanitizer, where one thread. GCC 12's LeakSanitizer crashes at exit
 * ("Tracer caught signal 11") reading the dynamic TLS of libdnnl on
 * libgomp's worker threads; with one thread no worker is ever started, and
 * the sanitizer build still runs every other part of this path. */
static int omp_threads(const tsr__cpu_backend *backend)
{
#if defined(__SANITIZE_ADDRESS__)
    (void)backend;
    return 1;
#else
    return backend->threads;
#endif
}

static _Thread_local char last_impl[64];

const char *tsr__cpu_dnnl_last_impl(void)
{
    return last_impl;
}

/* ------------------------------------------------------------------------ */
/* The plan: one memory descriptor per operand                               */
/* ------------------------------------------------------------------------ */

enum { OUT = 0, A = 1, B = 2, C = 3 };

typedef struct plan {
    tsr__cpu_dnnl_key key;
    char *base[4];
    const tsr_tensor_desc *out, *c;
} plan;

/* A dim of extent 1 may carry any stride; oneDNN recognises its fast
 * layouts by strides, so such a dim gets the span of the others, as if it
 * were the outermost dim of a dense tensor. */
static void normalise_strides(int32_t ndim, const int64_t *dims, int64_t *strides)
{
    int64_t span = 1;
    for (int32_t d = 0; d < ndim; d++) {
        if (dims[d] > 1 && dims[d] * strides[d] > span) {
            span = dims[d] * strides[d];
        }
    }
    for (int32_t d = 0; d < ndim; d++) {
        if (dims[d] == 1) {
            strides[d] = span;
        }
    }
}

/* Batch dims where the output has extent 1 are dropped; an operand's
 * broadcast dim (stride 0) becomes extent 1. Returns 0 for what oneDNN's
 * matmul cannot express: a batch dim both a and b broadcast, negative or
 * overlapping strides, more dims than oneDNN takes. */
static int plan_descs(const tsr_kernel_args *args, plan *p)
{
    const tsr_tensor_desc *descs[3] = {args->outputs, &args->inputs[0], &args->inputs[1]};
    int32_t ndim = args->outputs->ndim, kept = 0;
    int64_t *dims[3] = {p->key.dims[0], p->key.dims[1], p->key.dims[2]};
    for (int32_t d = 0; d < ndim; d++) {
        int64_t extent = args->outputs->shape[d];
        if (d < ndim - 2 && extent == 1) {
            continue;
        }
        if (kept == DNNL_MAX_NDIMS) {
            return 0;
        }
        int broadcast = 0;
        for (int w = 0; w < 3; w++) {
            int64_t stride = descs[w]->strides[d];
            if (stride < 0 ||
                (stride == 0 && descs[w]->shape[d] > 1 && (w == OUT || d >= ndim - 2))) {
                return 0;
            }
            int shared = stride == 0 && descs[w]->shape[d] > 1;
            broadcast += shared;
            dims[w][kept] = shared ? 1 : descs[w]->shape[d];
            p->key.strides[w][kept] = stride;
        }
        if (broadcast > 1) {
            return 0;
        }
        kept++;
    }
    p->key.ndim = kept;
    for (int w = 0; w < 3; w++) {
        normalise_strides(kept, dims[w], p->key.strides[w]);
        p->base[w] = (char *)descs[w]->data + descs[w]->byte_offset;
    }
    return 1;
}

/* The bytes [lo, hi) a descriptor reaches (strides are non-negative here). */
static void byte_span(const tsr_tensor_desc *x, uintptr_t *lo, uintptr_t *hi)
{
    uintptr_t extent = 2;
    for (int32_t d = 0; d < x->ndim; d++) {
        extent += (uintptr_t)((x->shape[d] - 1) * x->strides[d]) * 2;
    }
    *lo = (uintptr_t)x->data + (uintptr_t)x->byte_offset;
    *hi = *lo + extent;
}

static int overlap(const tsr_tensor_desc *x, const tsr_tensor_desc *y)
{
    uintptr_t xlo, xhi, ylo, yhi;
    byte_span(x, &xlo, &xhi);
    byte_span(y, &ylo, &yhi);
    return xlo < yhi && ylo < xhi;
}

static int same_layout(const tsr_tensor_desc *x, const tsr_tensor_desc *y)
{
    if (x->data != y->data || x->byte_offset != y->byte_offset) {
        return 0;
    }
    for (int32_t d = 0; d < x->ndim; d++) {
        if (x->shape[d] > 1 && x->strides[d] != y->strides[d]) {
            return 0;
        }
    }
    return 1;
}

/* 8 bfloat16 bit patterns: GCC's and Clang's vector extension, which maps
 * onto SSE2 (pmaxsw) on baseline x86-64 and onto NEON elsewhere. Signed
 * lanes: without the sign bit every pattern is non-negative, and SSE2 has a
 * signed 16-bit max but no unsigned one. */
typedef int16_t i16x8 __attribute__((vector_size(16)));

/* The largest bit pattern without its sign in n elements `step` apart.
 * Magnitudes order like those patterns, so this is an integer max; the
 * contiguous case runs 16 lanes at a time (scalar code took 16 % of a
 * 1024^3 product's time here). */
static uint16_t row_max(const uint16_t *row, int64_t n, int64_t step)
{
    int16_t best = 0;
    int64_t j = 0;
    if (step == 1 && n >= 16) {
        i16x8 acc0 = {0}, acc1 = {0};
        for (; j + 16 <= n; j += 16) {
            i16x8 v0, v1;
            memcpy(&v0, row + j, sizeof v0);
            memcpy(&v1, row + j + 8, sizeof v1);
            v0 &= 0x7fff;
            v1 &= 0x7fff;
            i16x8 more0 = v0 > acc0, more1 = v1 > acc1; /* all-ones lanes */
            acc0 = (more0 & v0) | (~more0 & acc0);
            acc1 = (more1 & v1) | (~more1 & acc1);
        }
        for (int lane = 0; lane < 8; lane++) {
            best = acc0[lane] > best ? acc0[lane] : best;
            best = acc1[lane] > best ? acc1[lane] : best;
        }
    }
    for (; j < n; j++) {
        int16_t v = (int16_t)(row[j * step] & 0x7fff);
        best = v > best ? v : best;
    }
    return (uint16_t)best;
}

/* The largest |x| in a bfloat16 tensor as bits (0x7f80 and above: inf or
 * NaN). Broadcast dims (stride 0) are read once. */
static unsigned max_magnitude(const tsr_tensor_desc *x)
{
    int32_t ndim = x->ndim, inner = ndim - 1;
    if (x->strides[inner] != 1 && x->strides[ndim - 2] == 1) {
        inner = ndim - 2;
    }
    int64_t index[TSR_MAX_DIMS] = {0}, n = x->shape[inner], step = x->strides[inner];
    const uint16_t *base = (const uint16_t *)((const char *)x->data + x->byte_offset);
    uint16_t best = 0;
    for (;;) {
        const uint16_t *row = base;
        for (int32_t d = 0; d < ndim; d++) {
            row += d == inner ? 0 : index[d] * x->strides[d];
        }
        uint16_t v = row_max(row, n, step);
        best = v > best ? v : best;
        int32_t d = ndim - 1;
        for (; d >= 0; d--) {
            if (d == inner || x->strides[d] == 0) {
                continue;
            }
            if (++index[d] < x->shape[d]) {
                break;
            }
            index[d] = 0;
        }
        if (d < 0) {
            return best;
        }
    }
}

static double magnitude_value(unsigned bits)
{
    uint32_t word = (uint32_t)bits << 16;
    float f;
    memcpy(&f, &word, sizeof f);
    return f;
}

/* oneDNN multiplies and adds in float32, the reference kernel in double:
 * they agree within bfloat16's rounding as long as no product or partial
 * sum leaves float32's range (there float32 gives inf - inf = NaN where
 * double gives a finite sum that rounds to inf). The bound
 * |alpha| * max|a| * max|b| * k + |beta| * max|c| covers every order of
 * summation; above 2^126, and for inf or NaN inputs, the call goes to the
 * reference kernel. */
static int stays_in_float_range(const tsr_kernel_args *args, const plan *p)
{
    const tsr_tensor_desc *a = &args->inputs[0];
    unsigned ma = max_magnitude(a), mb = max_magnitude(&args->inputs[1]);
    unsigned mc = p->c != NULL ? max_magnitude(p->c) : 0;
    if (ma >= 0x7f80 || mb >= 0x7f80 || mc >= 0x7f80) {
        return 0;
    }
    double k = (double)a->shape[a->ndim - 1];
    double bound = fabs((double)p->key.alpha) * magnitude_value(ma) * magnitude_value(mb) * k +
                   fabs((double)p->key.beta) * magnitude_value(mc);
    return bound < 0x1p126;
}

/* Whether every operand is a well-formed, non-empty bfloat16 tensor of the
 * matmul shapes with non-negative strides. Anything else, and alpha 0 (the
 * product is skipped, so NaN in a or b must not show), goes to the
 * reference kernel, which also reports malformed calls. */
static int plan_build(const tsr__cpu_backend *backend, const tsr_kernel_args *args, plan *p)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_outputs != 1 ||
        args->outputs == NULL || args->inputs == NULL) {
        return 0;
    }
    const tsr_elementwise_attrs *attrs = args->attrs;
    size_t needed = offsetof(tsr_elementwise_attrs, scalars) + 2 * sizeof(tsr_scalar);
    tsr_scalar alpha = {.kind = TSR_SCALAR_INT, .v.i = 1}, beta = {.kind = TSR_SCALAR_INT};
    int has_c = 0;
    if (attrs != NULL && attrs->struct_size >= needed) {
        alpha = attrs->scalars[0];
        beta = attrs->scalars[1];
        has_c = (attrs->mode & 1) != 0;
    }
    const tsr_tensor_desc *out = args->outputs;
    int32_t ndim = out->ndim;
    if (args->num_inputs != 2 + has_c || ndim < 2 || ndim > TSR_MAX_DIMS || out->shape == NULL ||
        out->strides == NULL) {
        return 0;
    }
    int64_t m = out->shape[ndim - 2], n = out->shape[ndim - 1];
    int64_t k = args->inputs[0].ndim == ndim ? args->inputs[0].shape[ndim - 1] : -1;
    for (int32_t i = -1; i < 2 + has_c; i++) {
        const tsr_tensor_desc *x = i < 0 ? out : &args->inputs[i];
        if (x->dtype != TSR_BFLOAT16 || x->ndim != ndim || x->data == NULL || x->shape == NULL ||
            x->strides == NULL) {
            return 0;
        }
        int64_t rows = i == 1 ? k : m, cols = i == 0 ? k : n;
        for (int32_t d = 0; d < ndim; d++) {
            int64_t want = d == ndim - 2 ? rows : d == ndim - 1 ? cols : out->shape[d];
            if (x->shape[d] != want || want <= 0 || x->strides[d] < 0) {
                return 0;
            }
        }
    }
    /* Rounded to bfloat16 as the reference kernel (and PyTorch) does. */
    tsr__ref_wide wa, wb;
    tsr__ref_scalar_as_dtype(&alpha, TSR_BFLOAT16, &wa);
    tsr__ref_scalar_as_dtype(&beta, TSR_BFLOAT16, &wb);
    memset(&p->key, 0, sizeof p->key);
    p->key.alpha = (float)wa.f;
    p->key.beta = (float)wb.f;
    p->key.has_c = has_c && p->key.beta != 0.0f;
    /* Products below 64^3 stay on one thread, like the pool's grain: a
     * team's start and barrier cost more than the work. */
    double work = (double)m * (double)n * (double)k;
    for (int32_t d = 0; d + 2 < ndim; d++) {
        work *= (double)out->shape[d];
    }
    p->key.threads = work < 262144.0 ? 1 : omp_threads(backend);
    p->out = out;
    p->c = p->key.has_c ? &args->inputs[2] : NULL;
    if (p->key.alpha == 0.0f || overlap(out, &args->inputs[0]) || overlap(out, &args->inputs[1]) ||
        (p->c != NULL && overlap(out, p->c) && !same_layout(out, p->c))) {
        return 0;
    }
    return plan_descs(args, p) && stays_in_float_range(args, p);
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */
/* ------------------------------------------------------------------------ */

/* out = c over the output's full shape (c's batch strides may be 0). */
static void copy_c(const tsr_tensor_desc *out, const tsr_tensor_desc *c)
{
    int32_t ndim = out->ndim;
    int64_t index[TSR_MAX_DIMS] = {0};
    char *o = (char *)out->data + out->byte_offset;
    const char *s = (const char *)c->data + c->byte_offset;
    int64_t cols = out->shape[ndim - 1];
    for (;;) {
        int64_t oo = 0, so = 0;
        for (int32_t d = 0; d < ndim - 1; d++) {
            oo += index[d] * out->strides[d];
            so += index[d] * c->strides[d];
        }
        for (int64_t j = 0; j < cols; j++) {
            memcpy(o + 2 * (oo + j * out->strides[ndim - 1]),
                   s + 2 * (so + j * c->strides[ndim - 1]), 2);
        }
        int32_t d = ndim - 2;
        while (d >= 0 && ++index[d] == out->shape[d]) {
            index[d--] = 0;
        }
        if (d < 0) {
            return;
        }
    }
}

/* Returns 0 when the product did not run (no scratch memory, oneDNN
 * failed); the caller then hands the call to the reference kernel. */
static int execute(const tsr__cpu_dnnl_api *dnnl, tsr__cpu_backend *backend, const plan *p,
                   tsr__cpu_dnnl_primitive *entry)
{
    dnnl_memory_desc_t md[3];
    dnnl_memory_t mem[4] = {NULL, NULL, NULL, NULL};
    dnnl_stream_t stream = NULL;
    void *scratch =
        entry->scratch_bytes > 0 ? tsr__cpu_alloc(backend->cache, entry->scratch_bytes) : NULL;
    int ok = entry->scratch_bytes == 0 || scratch != NULL;
    for (int w = 0; w < 3 && ok; w++) {
        tsr__cpu_dnnl_md(dnnl, &md[w], &p->key, w);
        ok = dnnl->memory_create(&mem[w], &md[w], dnnl->engine, p->base[w]) == dnnl_success;
    }
    if (ok && scratch != NULL) {
        ok =
            dnnl->memory_create(&mem[3], &entry->scratch_md, dnnl->engine, scratch) == dnnl_success;
    }
    ok =
        ok && dnnl->stream_create(&stream, dnnl->engine, dnnl_stream_default_flags) == dnnl_success;
    if (ok) {
        dnnl_exec_arg_t exec_args[4] = {{DNNL_ARG_SRC, mem[A]},
                                        {DNNL_ARG_WEIGHTS, mem[B]},
                                        {DNNL_ARG_DST, mem[OUT]},
                                        {DNNL_ARG_SCRATCHPAD, mem[3]}};
        dnnl->omp_set_num_threads((int)p->key.threads);
        int nargs = mem[3] != NULL ? 4 : 3;
        ok = dnnl->primitive_execute(entry->primitive, stream, nargs, exec_args) == dnnl_success;
    }
    if (stream != NULL) {
        dnnl->stream_destroy(stream);
    }
    for (int w = 0; w < 4; w++) {
        if (mem[w] != NULL) {
            dnnl->memory_destroy(mem[w]);
        }
    }
    tsr__cpu_free(backend->cache, scratch);
    return ok;
}

int tsr__cpu_kernel_matmul_dnnl(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    const tsr__cpu_dnnl_api *dnnl = NULL;
    tsr__cpu_dnnl_primitive *entry = NULL;
    plan p;
    last_impl[0] = '\0';
    if (!plan_build(backend, args, &p) || (dnnl = tsr__cpu_dnnl_get()) == NULL ||
        (entry = tsr__cpu_dnnl_acquire(dnnl, &p.key)) == NULL) {
        return tsr__ref_kernel_matmul(backend, args);
    }
    if (p.c != NULL && !same_layout(p.out, p.c)) {
        copy_c(p.out, p.c);
    }
    int ran = execute(dnnl, backend, &p, entry);
    if (ran) {
        snprintf(last_impl, sizeof last_impl, "%s", entry->impl);
    }
    tsr__cpu_dnnl_release(dnnl, entry);
    /* c, if copied, is still in its own memory, so the reference kernel
     * computes the same product from scratch. */
    return ran ? TSR_OK : tsr__ref_kernel_matmul(backend, args);
}
