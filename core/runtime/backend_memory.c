/* Backend memory calls with errors that name the op and the backend. */
#include "runtime/backend.h"
#include "runtime/error.h"


tsr_status tsr__backend_alloc(tsr_backend *b, size_t nbytes, void **handle)
{
    int st = b->plugin->memory_alloc(b->state, nbytes, handle);
    if (st != TSR_OK) {
        tsr__prefix_error("backend %s: cannot allocate %zu bytes", b->name, nbytes);
        return st < 0 ? st : TSR_ERR_BACKEND;
    }
    return TSR_OK;
}

void tsr__backend_free(tsr_backend *b, void *handle)
{
    b->plugin->memory_free(b->state, handle);
}

tsr_status tsr__backend_upload(const char *op, tsr_backend *b, void *dst, size_t dst_offset,
                               const void *src, size_t bytes)
{
    if (bytes == 0)
        return TSR_OK;
    int st = b->plugin->copy_from_host(b->state, dst, dst_offset, src, bytes);
    if (st != TSR_OK) {
        tsr__prefix_error("%s: backend %s: copy to device failed", op, b->name);
        return st < 0 ? st : TSR_ERR_BACKEND;
    }
    return TSR_OK;
}

tsr_status tsr__backend_download(const char *op, tsr_backend *b, void *dst, const void *src,
                                 size_t src_offset, size_t bytes)
{
    if (bytes == 0)
        return TSR_OK;
    int st = b->plugin->copy_to_host(b->state, dst, src, src_offset, bytes);
    if (st != TSR_OK) {
        tsr__prefix_error("%s: backend %s: copy from device failed", op, b->name);
        return st < 0 ? st : TSR_ERR_BACKEND;
    }
    return TSR_OK;
}

tsr_status tsr_backend_synchronize(tsr_backend *b)
{
    if (!b)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "backend_synchronize: backend is NULL");
    if (!b->plugin->synchronize)
        return TSR_OK;
    int st = b->plugin->synchronize(b->state);
    if (st != TSR_OK) {
        tsr__prefix_error("backend %s: synchronize failed", b->name);
        return st < 0 ? st : TSR_ERR_BACKEND;
    }
    return TSR_OK;
}

const char *tsr_backend_name(const tsr_backend *b)
{
    return b ? b->name : NULL;
}
