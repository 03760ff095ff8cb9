/* gather of dense tensors whose index matches the input outside the
 * gathered dim: out[o, j, i] = in[o, index[o, j, i], i] after collapsing the
 * dims before and after it. Elements are moved unchanged, so the result is
 * the reference kernel's bit for bit; an index out of range, or any other
 * layout, goes to the reference kernel, which reports it. */
#include <string.h>

#include "cpu_backend.h"
#include "cpu_walk.h"
#include "index_walk.h" /* tsr__ref_kernel_gather */

typedef struct gather_plan {
    const char *in;
    const int64_t *index;
    char *out;
    int64_t outer, n, k, inner, numel;
    size_t size;
} gather_plan;

static int fits(const tsr_kernel_args *args, gather_plan *plan)
{
    static const size_t sizes[TSR_DTYPE_COUNT] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 2 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL ||
        args->attrs == NULL) {
        return 0;
    }
    const tsr_index_attrs *attrs = args->attrs;
    const tsr_tensor_desc *in = &args->inputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *out = &args->outputs[0];
    if (attrs->struct_size < sizeof(tsr_index_attrs) || in->ndim < 1 || !tsr__cpu_desc_dense(in) ||
        !tsr__cpu_desc_dense(index) || !tsr__cpu_desc_dense(out) || index->ndim != in->ndim ||
        out->ndim != in->ndim || attrs->dim < 0 || attrs->dim >= in->ndim || in->dtype < 0 ||
        in->dtype >= TSR_DTYPE_COUNT || out->dtype != in->dtype || index->dtype != TSR_INT64) {
        return 0;
    }
    int32_t dim = attrs->dim;
    *plan = (gather_plan){.outer = 1, .inner = 1, .numel = 1, .size = sizes[in->dtype]};
    for (int32_t d = 0; d < in->ndim; d++) {
        if (out->shape[d] != index->shape[d] || (d != dim && index->shape[d] != in->shape[d])) {
            return 0;
        }
        plan->numel *= out->shape[d];
        if (d < dim) {
            plan->outer *= in->shape[d];
        } else if (d > dim) {
            plan->inner *= in->shape[d];
        }
    }
    plan->n = in->shape[dim];
    plan->k = index->shape[dim];
    plan->in = (const char *)in->data + in->byte_offset;
    plan->index = (const int64_t *)((const char *)index->data + index->byte_offset);
    plan->out = (char *)out->data + out->byte_offset;
    return plan->numel > 0;
}

static int indices_valid(const gather_plan *plan)
{
    for (int64_t e = 0; e < plan->numel; e++) {
        if (plan->index[e] < 0 || plan->index[e] >= plan->n) {
            return 0;
        }
    }
    return 1;
}

typedef struct gather_job {
    const gather_plan *plan;
    int64_t grain;
} gather_job;

/* Output elements [begin, end) in row-major order. */
static void gather_range(const gather_plan *p, int64_t begin, int64_t end)
{
    for (int64_t e = begin; e < end; e++) {
        int64_t i = e % p->inner, o = e / (p->k * p->inner);
        int64_t source = (o * p->n + p->index[e]) * p->inner + i;
        memcpy(p->out + (size_t)e * p->size, p->in + (size_t)source * p->size, p->size);
    }
}

static void gather_task(void *context, int64_t task)
{
    const gather_job *job = context;
    int64_t begin = task * job->grain;
    int64_t end = begin + job->grain < job->plan->numel ? begin + job->grain : job->plan->numel;
    gather_range(job->plan, begin, end);
}

int tsr__cpu_kernel_gather(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    gather_plan plan;
    if (!fits(args, &plan) || !indices_valid(&plan)) {
        return tsr__ref_kernel_gather(backend, args);
    }
    gather_job job = {&plan, (int64_t)1 << 16};
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(plan.numel, job.grain), gather_task, &job);
    return TSR_OK;
}
