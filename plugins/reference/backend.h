/* The reference backend's state and its error reporting.
 *
 * One backend object exists per init. It only borrows the host's services
 * and owns the kernel table it hands out; kernels keep no other state, so
 * any number of threads may run kernels at once. */
#ifndef TSR_REFERENCE_BACKEND_H
#define TSR_REFERENCE_BACKEND_H

#include <stddef.h>

#include <tessera/plugin.h>

typedef struct tsr__ref_backend {
    const tsr_host_api *host; /* borrowed; outlives the backend */
    tsr_kernel_entry *entries;
    size_t entry_count;
} tsr__ref_backend;

/* Formats a message, passes it to host->set_error when the host offers one,
 * and returns `status` so callers can write `return tsr__ref_error(...)`. */
int tsr__ref_error(const tsr__ref_backend *backend, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Builds the kernel table (kernel_table.c). Returns TSR_OK or
 * TSR_ERR_OUT_OF_MEMORY; on success the caller frees *entries. */
int tsr__ref_kernel_table_build(tsr_kernel_entry **entries, size_t *count);

#endif /* TSR_REFERENCE_BACKEND_H */
