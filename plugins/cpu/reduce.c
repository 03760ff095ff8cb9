/* sum, mean and logsumexp of float32 and float64 over trailing dims of a
 * contiguous input. sum and mean follow the fixed order of
 * docs/determinism.md, bit for bit the reference kernel's result with any
 * thread count:
 *   - each output's terms are cut into blocks of 1024, each block summed in
 *     16 double lanes by the SIMD set;
 *   - block values combine in the fixed tree (left part: the largest power
 *     of two of blocks below the count). The tree of n blocks equals the
 *     same tree over groups of 64 aligned blocks (each the balanced tree of
 *     its blocks), because every left part of more than 64 blocks is a
 *     multiple of 64. So a long reduction is split into groups, one pool
 *     task each, and the group values combine on the calling thread.
 * logsumexp is one fused row kernel per output (a max pass, then exp and
 * sum in double over the row while it is in cache), within rounding of the
 * reference's result. Other reductions, dtypes and layouts go to the
 * reference kernel. */
#include <stdlib.h>

#include "cpu_backend.h"
#include "cpu_walk.h"
#include "reduce.h" /* tsr__ref_kernel_reduce */

enum { GROUP_BLOCKS = 64 };
#define GROUP_TERMS ((int64_t)GROUP_BLOCKS * TSR__CPU_SUM_BLOCK)

typedef struct reduce_plan {
    const tsr__cpu_simd *simd;
    int32_t dtype;
    int32_t op;
    const char *in; /* output o's terms start at in + o * terms elements */
    char *out;      /* output o at out + o elements */
    int64_t outputs;
    int64_t terms;
} reduce_plan;

/* The fixed-order sum of n terms starting at x (n <= 2 groups). */
static double sum_terms(const reduce_plan *plan, const char *x, int64_t n)
{
    double values[2 * GROUP_BLOCKS];
    if (plan->dtype == TSR_FLOAT32) {
        plan->simd->sum_blocks_f32((const float *)x, n, values);
    } else {
        plan->simd->sum_blocks_f64((const double *)x, n, values);
    }
    return tsr__cpu_tree_sum(values, (n + TSR__CPU_SUM_BLOCK - 1) / TSR__CPU_SUM_BLOCK);
}

/* PyTorch's mean rounds the sum to the dtype before dividing. */
static void store(const reduce_plan *plan, int64_t o, double sum)
{
    int mean = plan->op == TSR_OP_MEAN;
    if (plan->dtype == TSR_FLOAT32) {
        float s = (float)sum;
        ((float *)plan->out)[o] = mean ? (float)((double)s / (double)plan->terms) : s;
    } else {
        ((double *)plan->out)[o] = mean ? sum / (double)plan->terms : sum;
    }
}

/* One output's value: its fixed-order sum, or its logsumexp. */
static double reduce_row(const reduce_plan *plan, const char *x)
{
    if (plan->op != TSR_OP_LOGSUMEXP) {
        return sum_terms(plan, x, plan->terms);
    }
    return plan->dtype == TSR_FLOAT32
               ? plan->simd->logsumexp_row_f32((const float *)x, plan->terms)
               : plan->simd->logsumexp_row_f64((const double *)x, plan->terms);
}

static int64_t element_size(const reduce_plan *plan)
{
    return plan->dtype == TSR_FLOAT32 ? 4 : 8;
}

/* ------------------------------------------------------------------------ */
/* Many short outputs: tasks own whole outputs                               */
/* ------------------------------------------------------------------------ */

typedef struct rows_job {
    const reduce_plan *plan;
    int64_t per_task;
} rows_job;

static void rows_task(void *context, int64_t task)
{
    const rows_job *job = context;
    const reduce_plan *plan = job->plan;
    int64_t first = task * job->per_task;
    int64_t last = first + job->per_task < plan->outputs ? first + job->per_task : plan->outputs;
    for (int64_t o = first; o < last; o++) {
        const char *x = plan->in + o * plan->terms * element_size(plan);
        store(plan, o, reduce_row(plan, x));
    }
}

/* ------------------------------------------------------------------------ */
/* Long outputs: tasks own groups of 64 blocks of one output                 */
/* ------------------------------------------------------------------------ */

typedef struct groups_job {
    const reduce_plan *plan;
    const char *x;
    double *values;
} groups_job;

static void groups_task(void *context, int64_t task)
{
    const groups_job *job = context;
    int64_t start = task * GROUP_TERMS;
    int64_t n = job->plan->terms - start < GROUP_TERMS ? job->plan->terms - start : GROUP_TERMS;
    job->values[task] = sum_terms(job->plan, job->x + start * element_size(job->plan), n);
}

static int reduce_long(tsr__cpu_backend *backend, const reduce_plan *plan)
{
    int64_t groups = (plan->terms + GROUP_TERMS - 1) / GROUP_TERMS;
    double *values = malloc((size_t)groups * sizeof *values);
    if (values == NULL) {
        return tsr__cpu_error(backend, TSR_ERR_OUT_OF_MEMORY, "sum: no memory for %lld partials",
                              (long long)groups);
    }
    for (int64_t o = 0; o < plan->outputs; o++) {
        groups_job job = {plan, plan->in + o * plan->terms * element_size(plan), values};
        tsr__cpu_pool_run(backend->pool, groups, groups_task, &job);
        store(plan, o, tsr__cpu_tree_sum(values, groups));
    }
    free(values);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Which calls fit                                                           */
/* ------------------------------------------------------------------------ */

/* Fills the plan when the reduced dims (of extent > 1) all follow the kept
 * ones and input and output are dense; returns 0 otherwise. */
static int plan_fits(const tsr_kernel_args *args, reduce_plan *plan)
{
    if (args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL ||
        args->attrs == NULL) {
        return 0;
    }
    const tsr_reduce_attrs *attrs = args->attrs;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    if (attrs->struct_size < sizeof(tsr_reduce_attrs) ||
        (in->dtype != TSR_FLOAT32 && in->dtype != TSR_FLOAT64) || out->dtype != in->dtype ||
        in->ndim < 0 || in->ndim > TSR_MAX_DIMS || out->ndim != in->ndim || in->data == NULL ||
        out->data == NULL || (in->ndim < 32 && (attrs->dims_mask >> in->ndim) != 0)) {
        return 0;
    }
    int seen_reduced = 0;
    int64_t outputs = 1, terms = 1;
    for (int32_t d = 0; d < in->ndim; d++) {
        int reduced = (attrs->dims_mask >> d) & 1u;
        if (out->shape[d] != (reduced ? 1 : in->shape[d]) || in->strides[d] < 0) {
            return 0;
        }
        if (in->shape[d] == 1) {
            continue;
        }
        if (!reduced && seen_reduced) {
            return 0;
        }
        seen_reduced |= reduced;
        *(reduced ? &terms : &outputs) *= in->shape[d];
    }
    if (!tsr__cpu_desc_dense(in) || !tsr__cpu_desc_dense(out) || outputs == 0 || terms == 0) {
        return 0;
    }
    *plan = (reduce_plan){.dtype = in->dtype,
                          .op = args->op,
                          .in = (const char *)in->data + in->byte_offset,
                          .out = (char *)out->data + out->byte_offset,
                          .outputs = outputs,
                          .terms = terms};
    return 1;
}

int tsr__cpu_kernel_reduce(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    reduce_plan plan;
    if (args == NULL ||
        (args->op != TSR_OP_SUM && args->op != TSR_OP_MEAN && args->op != TSR_OP_LOGSUMEXP) ||
        !plan_fits(args, &plan)) {
        return tsr__ref_kernel_reduce(backend, args);
    }
    plan.simd = backend->simd;
    if (plan.terms > 2 * GROUP_TERMS && plan.op != TSR_OP_LOGSUMEXP) {
        return reduce_long(backend, &plan);
    }
    int64_t per_task = GROUP_TERMS / plan.terms > 1 ? GROUP_TERMS / plan.terms : 1;
    rows_job job = {&plan, per_task};
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(plan.outputs, per_task), rows_task, &job);
    return TSR_OK;
}
