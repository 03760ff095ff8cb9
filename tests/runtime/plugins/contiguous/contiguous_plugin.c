/* A contiguous-only third-party backend, built from <tessera/plugin.h> alone.
 *
 * It stands in for a vendor's first plugin: a handful of ops (copy, fill,
 * add, mul and sum) on float32, float64 and int64, host memory, and no
 * layout flags on anything but copy (whose rows the loader requires to
 * take any layout): the core must hand fill, add, mul and sum contiguous,
 * non-broadcast operands and a separate, contiguous output. Each of those
 * kernels checks that and fails loudly otherwise, so the conformance runs
 * on this plugin (CTest conformance_partial_contiguous*) prove the core's
 * preparation of operands as well as the runner's judging of a partial
 * backend. */
#include <tessera/plugin.h>

#define HOST_BACKEND_NAME "contiguous"
#include "../host_backend.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef host_backend contiguous_backend;

/* ------------------------------------------------------------------------ */
/* Descriptors and elements                                                 */
/* ------------------------------------------------------------------------ */

static int64_t element_count(const tsr_tensor_desc *d)
{
    int64_t n = 1;
    for (int i = 0; i < d->ndim; i++)
        n *= d->shape[i];
    return n;
}

/* Offset in elements of the index-th element, in C order, of a strided view. */
static int64_t element_offset(const tsr_tensor_desc *d, int64_t index)
{
    int64_t offset = 0;
    for (int dim = d->ndim - 1; dim >= 0; dim--) {
        offset += index % d->shape[dim] * d->strides[dim];
        index /= d->shape[dim];
    }
    return offset;
}

/* As the core's own test: an empty tensor addresses no element, so any
 * strides of it are contiguous. */
static bool is_contiguous(const tsr_tensor_desc *d)
{
    if (element_count(d) == 0)
        return true;
    int64_t expected = 1;
    for (int dim = d->ndim - 1; dim >= 0; dim--) {
        if (d->shape[dim] != 1 && d->strides[dim] != expected)
            return false;
        expected *= d->shape[dim];
    }
    return true;
}

static char *first_byte(const tsr_tensor_desc *d)
{
    return (char *)d->data + d->byte_offset;
}

/* Elements travel as double or int64 by the dtype's kind; the three dtypes
 * this backend has convert exactly that way (int64 values of float inputs
 * are truncated, as C and PyTorch's copy do). */
typedef struct value {
    bool is_int;
    int64_t i;
    double f;
} value;

static value load(int32_t dtype, const char *p)
{
    value v = {dtype == TSR_INT64, 0, 0};
    if (dtype == TSR_INT64) {
        memcpy(&v.i, p, sizeof v.i);
        v.f = (double)v.i;
    } else if (dtype == TSR_FLOAT32) {
        float f;
        memcpy(&f, p, sizeof f);
        v.f = f;
    } else {
        memcpy(&v.f, p, sizeof v.f);
    }
    return v;
}

static void store(int32_t dtype, char *p, value v)
{
    if (dtype == TSR_INT64) {
        /* out of range (NaN included) is undefined in C: x86's answer */
        bool in_range = v.f >= -9223372036854775808.0 && v.f < 9223372036854775808.0;
        int64_t i = v.is_int ? v.i : in_range ? (int64_t)v.f : INT64_MIN;
        memcpy(p, &i, sizeof i);
    } else if (dtype == TSR_FLOAT32) {
        float f = (float)(v.is_int ? (double)v.i : v.f);
        memcpy(p, &f, sizeof f);
    } else {
        double f = v.is_int ? (double)v.i : v.f;
        memcpy(p, &f, sizeof f);
    }
}

static size_t dtype_size(int32_t dtype)
{
    return dtype == TSR_FLOAT32 ? 4 : 8;
}

static value scalar_value(const tsr_scalar *s, int32_t dtype)
{
    value v = {dtype == TSR_INT64, 0, 0};
    double f = s->kind == TSR_SCALAR_FLOAT     ? s->v.f
               : s->kind == TSR_SCALAR_COMPLEX ? s->v.c.re
                                               : (double)s->v.i;
    v.i = s->kind == TSR_SCALAR_FLOAT || s->kind == TSR_SCALAR_COMPLEX ? (int64_t)f : s->v.i;
    v.f = f;
    return v;
}

/* The kernels without layout flags refuse what the core must not pass. */
static int require_contiguous(const contiguous_backend *cb, const tsr_kernel_args *args,
                              const char *op)
{
    for (int i = 0; i < args->num_inputs; i++) {
        if (!is_contiguous(&args->inputs[i]))
            return cb->host->set_error(TSR_ERR_INVALID_ARGUMENT,
                                       "contiguous %s: input %d is not contiguous, although the "
                                       "kernel did not register TSR_KERNEL_STRIDED",
                                       op, i);
        if (args->inputs[i].data == args->outputs[0].data)
            return cb->host->set_error(TSR_ERR_INVALID_ARGUMENT,
                                       "contiguous %s: input %d is the output's memory, although "
                                       "the kernel did not register TSR_KERNEL_INPLACE",
                                       op, i);
    }
    if (!is_contiguous(&args->outputs[0]))
        return cb->host->set_error(TSR_ERR_INVALID_ARGUMENT,
                                   "contiguous %s: the output is not contiguous", op);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                  */
/* ------------------------------------------------------------------------ */

/* Registered STRIDED | BROADCAST, as the loader requires of copy rows:
 * any input and output layout, converting between the three dtypes. */
static int kernel_copy(void *backend, const tsr_kernel_args *args)
{
    (void)backend;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    size_t in_size = dtype_size(in->dtype), out_size = dtype_size(out->dtype);
    for (int64_t i = 0, n = element_count(out); i < n; i++) {
        value v = load(in->dtype, first_byte(in) + element_offset(in, i) * (int64_t)in_size);
        store(out->dtype, first_byte(out) + element_offset(out, i) * (int64_t)out_size, v);
    }
    return TSR_OK;
}

static int kernel_fill(void *backend, const tsr_kernel_args *args)
{
    int st = require_contiguous(backend, args, "fill");
    if (st != TSR_OK)
        return st;
    const tsr_elementwise_attrs *attrs = args->attrs;
    const tsr_tensor_desc *out = &args->outputs[0];
    value zero = {out->dtype == TSR_INT64, 0, 0};
    value v = attrs ? scalar_value(&attrs->scalars[0], out->dtype) : zero;
    size_t size = dtype_size(out->dtype);
    for (int64_t i = 0, n = element_count(out); i < n; i++)
        store(out->dtype, first_byte(out) + i * (int64_t)size, v);
    return TSR_OK;
}

static value combine(bool multiply, value a, value b, value alpha)
{
    value r = a;
    if (a.is_int && multiply)
        r.i = (int64_t)((uint64_t)a.i * (uint64_t)b.i);
    else if (a.is_int)
        r.i = (int64_t)((uint64_t)a.i + (uint64_t)alpha.i * (uint64_t)b.i);
    else
        r.f = multiply ? a.f * b.f : a.f + alpha.f * b.f;
    return r;
}

static int binary(void *backend, const tsr_kernel_args *args, bool multiply)
{
    int st = require_contiguous(backend, args, multiply ? "mul" : "add");
    if (st != TSR_OK)
        return st;
    const tsr_tensor_desc *a = &args->inputs[0], *b = &args->inputs[1], *out = &args->outputs[0];
    const tsr_elementwise_attrs *attrs = args->attrs;
    tsr_scalar one = {.kind = TSR_SCALAR_INT, .v.i = 1};
    value alpha = scalar_value(attrs && !multiply ? &attrs->scalars[0] : &one, out->dtype);
    size_t size = dtype_size(out->dtype);
    for (int64_t i = 0, n = element_count(out); i < n; i++) {
        int64_t at = i * (int64_t)size;
        value r = combine(multiply, load(a->dtype, first_byte(a) + at),
                          load(b->dtype, first_byte(b) + at), alpha);
        store(out->dtype, first_byte(out) + at, r);
    }
    return TSR_OK;
}

static int kernel_add(void *backend, const tsr_kernel_args *args)
{
    return binary(backend, args, false);
}

static int kernel_mul(void *backend, const tsr_kernel_args *args)
{
    return binary(backend, args, true);
}

/* Sums over the dims of attrs->dims_mask into an output of the input's
 * rank with those dims of size 1, accumulating in double or int64. */
static int kernel_sum(void *backend, const tsr_kernel_args *args)
{
    const contiguous_backend *cb = backend;
    int st = require_contiguous(cb, args, "sum");
    if (st != TSR_OK)
        return st;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    const tsr_reduce_attrs *attrs = args->attrs;
    int64_t nout = element_count(out);
    value *acc = calloc((size_t)(nout ? nout : 1), sizeof *acc);
    if (!acc)
        return cb->host->set_error(TSR_ERR_OUT_OF_MEMORY, "contiguous sum: out of memory");
    size_t size = dtype_size(in->dtype);
    for (int64_t i = 0, n = element_count(in); i < n; i++) {
        /* the output index: the input's, with the reduced dims dropped */
        int64_t rest = i, o = 0, scale = 1;
        for (int dim = in->ndim - 1; dim >= 0; dim--) {
            int64_t k = rest % in->shape[dim];
            rest /= in->shape[dim];
            if (!(attrs->dims_mask >> dim & 1)) {
                o += k * scale;
                scale *= in->shape[dim];
            }
        }
        value v = load(in->dtype, first_byte(in) + i * (int64_t)size);
        acc[o].is_int = v.is_int;
        acc[o].i = (int64_t)((uint64_t)acc[o].i + (uint64_t)v.i);
        acc[o].f += v.f;
    }
    for (int64_t o = 0; o < nout; o++) {
        acc[o].is_int = out->dtype == TSR_INT64;
        store(out->dtype, first_byte(out) + o * (int64_t)dtype_size(out->dtype), acc[o]);
    }
    free(acc);
    return TSR_OK;
}

#define ANY_LAYOUT (TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST)
#define SAME(op, dtype, fn) {op, dtype, dtype, 0, fn}

static const tsr_kernel_entry contiguous_kernels[] = {
    {TSR_OP_COPY, TSR_FLOAT32, TSR_FLOAT32, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_FLOAT32, TSR_FLOAT64, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_FLOAT64, TSR_FLOAT64, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_FLOAT64, TSR_FLOAT32, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_INT64, TSR_INT64, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_INT64, TSR_FLOAT32, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_INT64, TSR_FLOAT64, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_FLOAT32, TSR_INT64, ANY_LAYOUT, kernel_copy},
    {TSR_OP_COPY, TSR_FLOAT64, TSR_INT64, ANY_LAYOUT, kernel_copy},
    SAME(TSR_OP_FILL, TSR_FLOAT32, kernel_fill),
    SAME(TSR_OP_FILL, TSR_FLOAT64, kernel_fill),
    SAME(TSR_OP_FILL, TSR_INT64, kernel_fill),
    SAME(TSR_OP_ADD, TSR_FLOAT32, kernel_add),
    SAME(TSR_OP_ADD, TSR_FLOAT64, kernel_add),
    SAME(TSR_OP_ADD, TSR_INT64, kernel_add),
    SAME(TSR_OP_MUL, TSR_FLOAT32, kernel_mul),
    SAME(TSR_OP_MUL, TSR_FLOAT64, kernel_mul),
    SAME(TSR_OP_MUL, TSR_INT64, kernel_mul),
    SAME(TSR_OP_SUM, TSR_FLOAT32, kernel_sum),
    SAME(TSR_OP_SUM, TSR_FLOAT64, kernel_sum),
    SAME(TSR_OP_SUM, TSR_INT64, kernel_sum),
};

/* ------------------------------------------------------------------------ */
/* Backend life cycle and memory                                            */
/* ------------------------------------------------------------------------ */

static int contiguous_describe(void *backend, char *text, size_t capacity)
{
    (void)backend;
    strncpy(text, "contiguous-only test device (host memory)", capacity - 1);
    text[capacity - 1] = '\0';
    return TSR_OK;
}

static int contiguous_list_kernels(void *backend, const tsr_kernel_entry **entries, size_t *count)
{
    (void)backend;
    *entries = contiguous_kernels;
    *count = sizeof contiguous_kernels / sizeof contiguous_kernels[0];
    return TSR_OK;
}

static const tsr_plugin contiguous_plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "contiguous",
    .version = "1.0.0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .init = host_backend_init,
    .shutdown = host_backend_shutdown,
    .describe = contiguous_describe,
    .kernels = contiguous_list_kernels,
    .memory_alloc = host_backend_alloc,
    .memory_free = host_backend_free,
    .copy_from_host = host_backend_from_host,
    .copy_to_host = host_backend_to_host,
};

TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    if (host_abi >> 16 != TSR_PLUGIN_ABI_MAJOR) {
        if (host && host->set_error)
            host->set_error(TSR_ERR_PLUGIN,
                            "contiguous was built for ABI major %d, the host has %u",
                            TSR_PLUGIN_ABI_MAJOR, (unsigned)(host_abi >> 16));
        return NULL;
    }
    return &contiguous_plugin;
}
