/* acme: a third-party tessera backend, built from <tessera/plugin.h> alone.
 *
 * The starting point of docs/writing-a-plugin.md: host memory and three
 * kernels (copy, fill and add on float32), enough for the core to create
 * tensors on the backend, add them and read them back. Every other op
 * answers TSR_ERR_UNIMPLEMENTED, naming the op, the dtype and the backend.
 * tests/install/ builds it against an installed tessera and runs the
 * installed conformance suite on it. */
#include <tessera/plugin.h>

#include <stdlib.h>
#include <string.h>

typedef struct acme_backend {
    const tsr_host_api *host; /* borrowed; outlives the backend */
} acme_backend;

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
static int acme_copy(void *backend, const tsr_kernel_args *args)
{
    (void)backend;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    const float *src = first_element(in);
    float *dst = first_element(out);
    for (int64_t i = 0, n = element_count(out); i < n; i++)
        dst[element_offset(out, i)] = src[element_offset(in, i)];
    return TSR_OK;
}

static int acme_fill(void *backend, const tsr_kernel_args *args)
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

/* Registered without flags: the core hands it contiguous operands of the
 * output's shape and a separate output, copying (with acme_copy) as needed. */
static int acme_add(void *backend, const tsr_kernel_args *args)
{
    (void)backend;
    const tsr_elementwise_attrs *attrs = args->attrs;
    float alpha = attrs ? (float)scalar_as_double(&attrs->scalars[0]) : 1.0f;
    const float *a = first_element(&args->inputs[0]), *b = first_element(&args->inputs[1]);
    float *out = first_element(&args->outputs[0]);
    for (int64_t i = 0, n = element_count(&args->outputs[0]); i < n; i++)
        out[i] = a[i] + alpha * b[i];
    return TSR_OK;
}

/* The kernel table: (op, input dtype, output dtype, flags, function). */
static const tsr_kernel_entry acme_kernels[] = {
    {TSR_OP_COPY, TSR_FLOAT32, TSR_FLOAT32,
     TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE, acme_copy},
    {TSR_OP_FILL, TSR_FLOAT32, TSR_FLOAT32, TSR_KERNEL_STRIDED, acme_fill},
    {TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT32, 0, acme_add},
};

/* ------------------------------------------------------------------------ */
/* Backend life cycle and memory                                            */
/* ------------------------------------------------------------------------ */

static int acme_probe(const tsr_host_api *host, char *reason, size_t capacity)
{
    (void)host;
    strncpy(reason, "host memory, always available", capacity - 1);
    reason[capacity - 1] = '\0';
    return 0;
}

static int acme_init(const tsr_host_api *host, void **backend)
{
    acme_backend *acme = malloc(sizeof *acme);
    if (!acme)
        return host->set_error(TSR_ERR_OUT_OF_MEMORY, "acme: out of memory");
    acme->host = host;
    *backend = acme;
    return TSR_OK;
}

static void acme_shutdown(void *backend)
{
    free(backend);
}

static int acme_describe(void *backend, char *text, size_t capacity)
{
    (void)backend;
    strncpy(text, "acme device (host memory)", capacity - 1);
    text[capacity - 1] = '\0';
    return TSR_OK;
}

static int acme_list_kernels(void *backend, const tsr_kernel_entry **entries, size_t *count)
{
    (void)backend;
    *entries = acme_kernels;
    *count = sizeof acme_kernels / sizeof acme_kernels[0];
    return TSR_OK;
}

static int acme_alloc(void *backend, size_t bytes, void **handle)
{
    const acme_backend *acme = backend;
    /* malloc(0) may return NULL; the ABI wants a distinct handle */
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        return acme->host->set_error(TSR_ERR_OUT_OF_MEMORY, "acme: cannot allocate %zu bytes",
                                     bytes);
    *handle = p;
    return TSR_OK;
}

static void acme_free(void *backend, void *handle)
{
    (void)backend;
    free(handle);
}

static int acme_copy_from_host(void *backend, void *dst, size_t dst_offset, const void *src,
                               size_t bytes)
{
    (void)backend;
    memcpy((char *)dst + dst_offset, src, bytes);
    return TSR_OK;
}

static int acme_copy_to_host(void *backend, void *dst, const void *src, size_t src_offset,
                             size_t bytes)
{
    (void)backend;
    memcpy(dst, (const char *)src + src_offset, bytes);
    return TSR_OK;
}

/* copy_on_device and synchronize are left NULL: the core's defaults (a round
 * trip through host memory, nothing to wait for) are right for this backend. */
static const tsr_plugin acme_plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "acme",
    .version = "1.0.0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .probe = acme_probe,
    .init = acme_init,
    .shutdown = acme_shutdown,
    .describe = acme_describe,
    .kernels = acme_list_kernels,
    .memory_alloc = acme_alloc,
    .memory_free = acme_free,
    .copy_from_host = acme_copy_from_host,
    .copy_to_host = acme_copy_to_host,
};

TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    if (host_abi >> 16 != TSR_PLUGIN_ABI_MAJOR) {
        host->set_error(TSR_ERR_PLUGIN, "acme was built for ABI major %d, the host has %u",
                        TSR_PLUGIN_ABI_MAJOR, (unsigned)(host_abi >> 16));
        return NULL;
    }
    return &acme_plugin;
}
