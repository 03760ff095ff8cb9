/* A toy third-party backend, built from <tessera/plugin.h> alone.
 *
 * It stands in for a vendor's plugin: no core headers, no libtessera.so, host
 * memory, three kernels (copy, fill and add on float32). That is enough for
 * the core to create tensors on it, add them and read them back, and for the
 * loader tests to prove that the core reached these kernels: every add call
 * increments `toy_add_calls`, which a test can read with dlsym.
 *
 * The add kernel deliberately registers no flags, so the core must hand it
 * contiguous, non-broadcast operands and a separate output; it checks that
 * and fails loudly otherwise. */
#include <tessera/plugin.h>

#define HOST_BACKEND_NAME "toy"
#include "../host_backend.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Calls of the add kernel since the library was loaded. Exported for tests
 * only: nothing in the ABI reads it. */
TSR_PLUGIN_EXPORT atomic_long toy_add_calls;

typedef host_backend toy_backend;

/* ------------------------------------------------------------------------ */
/* Descriptor helpers                                                       */
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

static bool is_contiguous(const tsr_tensor_desc *d)
{
    int64_t expected = 1;
    for (int dim = d->ndim - 1; dim >= 0; dim--) {
        if (d->shape[dim] != 1 && d->strides[dim] != expected)
            return false;
        expected *= d->shape[dim];
    }
    return true;
}

static float *first_element(const tsr_tensor_desc *d)
{
    return (float *)((char *)d->data + d->byte_offset);
}

static double scalar_as_double(const tsr_scalar *s)
{
    switch (s->kind) {
    case TSR_SCALAR_FLOAT:
        return s->v.f;
    case TSR_SCALAR_COMPLEX:
        return s->v.c.re;
    default:
        return (double)s->v.i;
    }
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                  */
/* ------------------------------------------------------------------------ */

/* Registered STRIDED | BROADCAST | INPLACE: each element is read before it
 * is written, so any layout the core passes works. */
static int toy_copy(void *backend, const tsr_kernel_args *args)
{
    (void)backend;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    const float *src = first_element(in);
    float *dst = first_element(out);
    for (int64_t i = 0, n = element_count(out); i < n; i++)
        dst[element_offset(out, i)] = src[element_offset(in, i)];
    return TSR_OK;
}

static int toy_fill(void *backend, const tsr_kernel_args *args)
{
    (void)backend;
    const tsr_elementwise_attrs *attrs = args->attrs;
    const tsr_tensor_desc *out = &args->outputs[0];
    float value = attrs ? (float)scalar_as_double(&attrs->scalars[0]) : 0.0f;
    float *dst = first_element(out);
    for (int64_t i = 0, n = element_count(out); i < n; i++)
        dst[element_offset(out, i)] = value;
    return TSR_OK;
}

static int toy_add(void *backend, const tsr_kernel_args *args)
{
    const toy_backend *toy = backend;
    atomic_fetch_add(&toy_add_calls, 1);
    for (int i = 0; i < 2; i++) {
        if (!is_contiguous(&args->inputs[i]))
            return toy->host->set_error(TSR_ERR_INVALID_ARGUMENT,
                                        "toy add: input %d is not contiguous, although the "
                                        "kernel did not register TSR_KERNEL_STRIDED",
                                        i);
    }
    const tsr_elementwise_attrs *attrs = args->attrs;
    float alpha = attrs ? (float)scalar_as_double(&attrs->scalars[0]) : 1.0f;
    const float *a = first_element(&args->inputs[0]), *b = first_element(&args->inputs[1]);
    float *out = first_element(&args->outputs[0]);
    for (int64_t i = 0, n = element_count(&args->outputs[0]); i < n; i++)
        out[i] = a[i] + alpha * b[i];
    return TSR_OK;
}

static const tsr_kernel_entry toy_kernels[] = {
    {TSR_OP_COPY, TSR_FLOAT32, TSR_FLOAT32,
     TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE, toy_copy},
    {TSR_OP_FILL, TSR_FLOAT32, TSR_FLOAT32, TSR_KERNEL_STRIDED, toy_fill},
    {TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT32, 0, toy_add},
};

/* ------------------------------------------------------------------------ */
/* Backend life cycle and memory                                            */
/* ------------------------------------------------------------------------ */

static int toy_probe(const tsr_host_api *host, char *reason, size_t capacity)
{
    (void)host;
    strncpy(reason, "host memory, always available", capacity - 1);
    reason[capacity - 1] = '\0';
    return 0;
}

static int toy_describe(void *backend, char *text, size_t capacity)
{
    (void)backend;
    strncpy(text, "toy device (host memory)", capacity - 1);
    text[capacity - 1] = '\0';
    return TSR_OK;
}

static int toy_list_kernels(void *backend, const tsr_kernel_entry **entries, size_t *count)
{
    (void)backend;
    *entries = toy_kernels;
    *count = sizeof toy_kernels / sizeof toy_kernels[0];
    return TSR_OK;
}

/* copy_on_device and synchronize are left NULL: the core's defaults (a round
 * trip through host memory, nothing to wait for) are right for this backend. */
static const tsr_plugin toy_plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "toy",
    .version = "1.0.0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .probe = toy_probe,
    .init = host_backend_init,
    .shutdown = host_backend_shutdown,
    .describe = toy_describe,
    .kernels = toy_list_kernels,
    .memory_alloc = host_backend_alloc,
    .memory_free = host_backend_free,
    .copy_from_host = host_backend_from_host,
    .copy_to_host = host_backend_to_host,
};

TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    if (host_abi >> 16 != TSR_PLUGIN_ABI_MAJOR) {
        if (host && host->set_error)
            host->set_error(TSR_ERR_PLUGIN, "toy was built for ABI major %d, the host has %u",
                            TSR_PLUGIN_ABI_MAJOR, (unsigned)(host_abi >> 16));
        return NULL;
    }
    return &toy_plugin;
}
