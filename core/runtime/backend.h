/* A loaded backend: its plugin table, state and kernel registry (internal). */
#ifndef TSR_CORE_BACKEND_H
#define TSR_CORE_BACKEND_H

#include "tessera/tessera.h"

/* Kernels of one (op, input dtype) slot, by output dtype. */
typedef struct tsr__kernel_slot {
    tsr_kernel_fn fn[TSR_DTYPE_COUNT];
    uint32_t flags[TSR_DTYPE_COUNT];
} tsr__kernel_slot;

struct tsr_backend {
    const tsr_plugin *plugin;
    void *state;   /* what plugin->init returned */
    char name[64];
    char device[256];
    bool host_memory;
    /* kernels[op][dtype_in] or NULL when the op has no kernel for that input. */
    tsr__kernel_slot *kernels[TSR_OP_COUNT][TSR_DTYPE_COUNT];
};

/* Builds the registry from the plugin's kernel table, refusing invalid rows
 * with a message naming the row. */
tsr_status tsr__registry_build(tsr_backend *backend, const char *path);
void tsr__registry_free(tsr_backend *backend);
/* The kernel for (op, in, out) or NULL. */
tsr_kernel_fn tsr__registry_find(const tsr_backend *backend, tsr_op op, tsr_dtype in,
                                 tsr_dtype out, uint32_t *flags);

/* The host services table handed to plugins. */
const tsr_host_api *tsr__host_api(void);

/* Resolves NULL to the default backend. */
tsr_status tsr__backend_resolve(const char *op, tsr_backend *backend, tsr_backend **out);

/* Memory helpers that hide host-memory shortcuts and report errors with the
 * op's name. */
tsr_status tsr__backend_alloc(tsr_backend *b, size_t nbytes, void **handle);
void tsr__backend_free(tsr_backend *b, void *handle);
tsr_status tsr__backend_upload(const char *op, tsr_backend *b, void *dst, size_t dst_offset,
                               const void *src, size_t bytes);
tsr_status tsr__backend_download(const char *op, tsr_backend *b, void *dst, const void *src,
                                 size_t src_offset, size_t bytes);

/* Logging controlled by TESSERA_LOG (comma separated topics, or "all"). */
bool tsr__log_enabled(const char *topic);
void tsr__log(const char *topic, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
