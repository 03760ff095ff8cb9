/* The Vulkan plugin's kernels on a real device, through the plugin ABI only:
 * dlopen the .so, call tsr_plugin_entry with a minimal host, upload, run
 * kernels from the table on strided, broadcast and in-place descriptors,
 * read back and compare with values computed here. Run with
 * TESSERA_VULKAN_VALIDATION=1: the test then also requires that the
 * validation layer reported nothing.
 *
 * Exit 77 (skip) when there is no Vulkan loader or device. */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tessera/plugin.h>

#include "test_vulkan_kernels.h"

#ifndef TSR_VK_PLUGIN_PATH
#define TSR_VK_PLUGIN_PATH "libtessera_vulkan.so"
#endif

/* ------------------------------------------------------------------------ */
/* A minimal host                                                            */
/* ------------------------------------------------------------------------ */

char last_error[2048];
int failures;
static int validation_messages;

static void host_log(int level, const char *name, const char *fmt, ...)
{
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (level <= TSR_LOG_WARN && strncmp(text, "validation", 10) == 0)
        ++validation_messages;
    if (level <= TSR_LOG_INFO)
        fprintf(stderr, "[%s %d] %s\n", name, level, text);
}

static int host_set_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

static const tsr_host_api host = {
    .struct_size = sizeof(tsr_host_api),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .log = host_log,
    .set_error = host_set_error,
};

const tsr_plugin *plugin;
void *backend;

const tsr_host_api *test_host(void)
{
    return &host;
}
static const tsr_kernel_entry *table;
static size_t table_size;

/* ------------------------------------------------------------------------ */
/* Device tensors                                                            */
/* ------------------------------------------------------------------------ */

void *upload(const void *data, size_t bytes)
{
    void *mem = NULL;
    if (plugin->memory_alloc(backend, bytes, &mem) != TSR_OK) {
        printf("FATAL memory_alloc(%zu): %s\n", bytes, last_error);
        exit(1);
    }
    if (data && plugin->copy_from_host(backend, mem, 0, data, bytes) != TSR_OK) {
        printf("FATAL copy_from_host: %s\n", last_error);
        exit(1);
    }
    return mem;
}

void download(void *mem, void *out, size_t bytes)
{
    int status = plugin->copy_to_host(backend, out, mem, 0, bytes);
    EXPECT(status == TSR_OK, "copy_to_host: %s", last_error);
}

/* A view of `mem`: shape and element strides given as lists, offset in
 * elements. */
void view_of(struct view *v, void *mem, int dtype, int ndim, const int64_t *shape,
             const int64_t *strides, int64_t offset, int64_t itemsize)
{
    memcpy(v->shape, shape, (size_t)ndim * sizeof *shape);
    memcpy(v->strides, strides, (size_t)ndim * sizeof *strides);
    v->d = (tsr_tensor_desc){mem, offset * itemsize, dtype, ndim, v->shape, v->strides};
}

/* A contiguous view of `n` elements. */
void flat(struct view *v, void *mem, int dtype, int64_t n, int64_t itemsize)
{
    int64_t one = 1;
    view_of(v, mem, dtype, 1, &n, &one, 0, itemsize);
}

void *upload_flat(struct view *v, const void *data, int dtype, int64_t n, int64_t itemsize)
{
    void *mem = upload(data, (size_t)(n * itemsize));
    flat(v, mem, dtype, n, itemsize);
    return mem;
}

tsr_kernel_fn find_kernel(int op, int in, int out)
{
    for (size_t i = 0; i < table_size; ++i) {
        const tsr_kernel_entry *e = &table[i];
        if (e->op == op && e->dtype_in == in && e->dtype_out == out) {
            uint32_t want = TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE;
            EXPECT((e->flags & want) == want, "op %d has flags 0x%x", op, e->flags);
            return e->fn;
        }
    }
    return NULL;
}

int run(int op, const struct view *out, const struct view *const *in, int nin,
        const tsr_elementwise_attrs *attrs)
{
    tsr_tensor_desc inputs[3];
    for (int i = 0; i < nin; ++i)
        inputs[i] = in[i]->d;
    int dtype_in = nin == 0 ? out->d.dtype : inputs[op == TSR_OP_WHERE ? 1 : 0].dtype;
    tsr_kernel_fn fn = find_kernel(op, dtype_in, out->d.dtype);
    if (!fn) {
        printf("FAIL no kernel for op %d, %d -> %d\n", op, dtype_in, out->d.dtype);
        ++failures;
        return TSR_ERR_UNIMPLEMENTED;
    }
    tsr_kernel_args args = {
        .struct_size = sizeof args,
        .op = op,
        .num_inputs = nin,
        .num_outputs = 1,
        .inputs = inputs,
        .outputs = &out->d,
        .attrs = attrs,
    };
    return fn(backend, &args);
}

int run2(int op, const struct view *out, const struct view *a, const struct view *b,
         const tsr_elementwise_attrs *attrs)
{
    const struct view *in[2] = {a, b};
    return run(op, out, in, 2, attrs);
}

int run1(int op, const struct view *out, const struct view *a, const tsr_elementwise_attrs *attrs)
{
    const struct view *in[1] = {a};
    return run(op, out, in, 1, attrs);
}

tsr_elementwise_attrs attrs_mode(int mode)
{
    return (tsr_elementwise_attrs){.struct_size = sizeof(tsr_elementwise_attrs), .mode = mode};
}

tsr_elementwise_attrs attrs_float(double v)
{
    tsr_elementwise_attrs a = {.struct_size = sizeof a};
    a.scalars[0].kind = TSR_SCALAR_FLOAT;
    a.scalars[0].v.f = v;
    return a;
}

tsr_elementwise_attrs attrs_int(int64_t v)
{
    tsr_elementwise_attrs a = {.struct_size = sizeof a};
    a.scalars[0].kind = TSR_SCALAR_INT;
    a.scalars[0].v.i = v;
    return a;
}

int close_to(double got, double want, double rtol, double atol)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

int has_kernel(int op, int in, int out)
{
    for (size_t i = 0; i < table_size; ++i)
        if (table[i].op == op && table[i].dtype_in == in && table[i].dtype_out == out)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Main                                                                      */
/* ------------------------------------------------------------------------ */

static int describe_reports_zero_messages(void)
{
    char text[1024];
    EXPECT(plugin->describe(backend, text, sizeof text) == TSR_OK, "describe failed");
    printf("describe: %s\n", text);
    if (strstr(text, "validation on"))
        EXPECT(strstr(text, "validation on, 0 messages") != NULL, "validation reported: %s", text);
    return strstr(text, "validation on") != NULL;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : TSR_VK_PLUGIN_PATH;
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("FAIL cannot load %s: %s\n", path, dlerror());
        return 1;
    }
    tsr_plugin_entry_fn entry = (tsr_plugin_entry_fn)dlsym(lib, TSR_PLUGIN_ENTRY_SYMBOL);
    if (!entry || !(plugin = entry(&host, TSR_PLUGIN_ABI_VERSION))) {
        printf("FAIL %s: no usable %s\n", path, TSR_PLUGIN_ENTRY_SYMBOL);
        return 1;
    }
    EXPECT(entry(&host, (TSR_PLUGIN_ABI_MAJOR + 1) << 16) == NULL, "accepted a newer ABI major");
    char reason[512] = "";
    int score = plugin->probe(&host, reason, sizeof reason);
    printf("probe: score %d, %s\n", score, reason);
    if (plugin->init(&host, &backend) != TSR_OK) {
        if (strstr(last_error, "no Vulkan device") || strstr(last_error, "no Vulkan loader")) {
            printf("SKIP: needs a Vulkan device: %s\n", last_error);
            return 77;
        }
        printf("FAIL init: %s\n", last_error);
        return 1;
    }
    EXPECT(plugin->flags == 0, "device memory must not claim TSR_PLUGIN_HOST_MEMORY");
    EXPECT(plugin->kernels(backend, &table, &table_size) == TSR_OK, "kernels failed");
    printf("%zu kernels registered\n", table_size);
    run_all_cases();
    EXPECT(plugin->synchronize(backend) == TSR_OK, "synchronize: %s", last_error);
    int validating = describe_reports_zero_messages();
    plugin->shutdown(backend);
    if (validating)
        EXPECT(validation_messages == 0, "%d validation messages", validation_messages);
    else
        printf("note: validation was off (set TESSERA_VULKAN_VALIDATION=1)\n");
    dlclose(lib);
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("all kernel checks passed\n");
    return 0;
}
