/* The capability registry: which kernel runs (op, input dtype, output dtype). */
#include "runtime/backend.h"
#include "runtime/alloc.h"
#include "runtime/dtype.h"
#include "runtime/error.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t known_kernel_flags =
    TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE;

static tsr_status check_row(const tsr_kernel_entry *e, size_t row, const char *path)
{
    if (e->op < 0 || e->op >= TSR_OP_COUNT)
        return tsr__set_error(TSR_ERR_PLUGIN, "%s: kernel row %zu has unknown op id %d", path,
                              row, (int)e->op);
    if (!tsr__dtype_valid(e->dtype_in) || !tsr__dtype_valid(e->dtype_out))
        return tsr__set_error(TSR_ERR_PLUGIN, "%s: kernel row %zu (%s) has invalid dtype ids %d -> %d",
                              path, row, tsr_op_name((tsr_op)e->op), (int)e->dtype_in,
                              (int)e->dtype_out);
    if (!e->fn)
        return tsr__set_error(TSR_ERR_PLUGIN, "%s: kernel row %zu (%s) has a NULL function", path,
                              row, tsr_op_name((tsr_op)e->op));
    if (e->flags & ~known_kernel_flags)
        return tsr__set_error(TSR_ERR_PLUGIN, "%s: kernel row %zu (%s) has unknown flags 0x%x",
                              path, row, tsr_op_name((tsr_op)e->op), (unsigned)e->flags);
    /* Every other preparation step is made of copies, so copy itself must
     * take any layout. */
    uint32_t any_layout = TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST;
    if (e->op == TSR_OP_COPY && (e->flags & any_layout) != any_layout)
        return tsr__set_error(TSR_ERR_PLUGIN, "%s: kernel row %zu: copy kernels must accept "
                                              "strided and broadcast inputs", path, row);
    return TSR_OK;
}

static tsr_status add_row(tsr_backend *b, const tsr_kernel_entry *e, size_t row, const char *path)
{
    tsr__kernel_slot **slot = &b->kernels[e->op][e->dtype_in];
    if (!*slot && !(*slot = tsr__calloc(1, sizeof **slot)))
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory for the kernel table",
                              path);
    if ((*slot)->fn[e->dtype_out])
        return tsr__set_error(TSR_ERR_PLUGIN, "%s: kernel row %zu registers %s %s->%s twice", path,
                              row, tsr_op_name((tsr_op)e->op), tsr_dtype_name(e->dtype_in),
                              tsr_dtype_name(e->dtype_out));
    (*slot)->fn[e->dtype_out] = e->fn;
    (*slot)->flags[e->dtype_out] = e->flags;
    return TSR_OK;
}

tsr_status tsr__registry_build(tsr_backend *b, const char *path)
{
    const tsr_kernel_entry *rows = NULL;
    size_t count = 0;
    int st = b->plugin->kernels(b->state, &rows, &count);
    if (st != TSR_OK) {
        tsr__prefix_error("%s: kernels() failed", path);
        return TSR_ERR_PLUGIN;
    }
    if (count > 0 && !rows)
        return tsr__set_error(TSR_ERR_PLUGIN, "%s: kernels() returned %zu rows but no table", path,
                              count);
    /* Ops are only ever appended, so a plugin built against a newer minor
     * may list ops this core has no id for: it still loads without them.
     * From a plugin of this core's minor or older such a row is a bug. */
    bool newer_minor = (b->plugin->abi_version & 0xffff) > TSR_PLUGIN_ABI_MINOR;
    for (size_t i = 0; i < count; i++) {
        if (newer_minor && rows[i].op >= TSR_OP_COUNT) {
            tsr__log("loader", "%s: skipping kernel row %zu: op id %d is newer than this core",
                     path, i, (int)rows[i].op);
            continue;
        }
        tsr_status row_status = check_row(&rows[i], i, path);
        if (row_status == TSR_OK)
            row_status = add_row(b, &rows[i], i, path);
        if (row_status != TSR_OK) {
            tsr__registry_free(b);
            return row_status;
        }
    }
    return TSR_OK;
}

void tsr__registry_free(tsr_backend *b)
{
    for (int op = 0; op < TSR_OP_COUNT; op++) {
        for (int d = 0; d < TSR_DTYPE_COUNT; d++) {
            free(b->kernels[op][d]);
            b->kernels[op][d] = NULL;
        }
    }
}

tsr_kernel_fn tsr__registry_find(const tsr_backend *b, tsr_op op, tsr_dtype in, tsr_dtype out,
                                 uint32_t *flags)
{
    if (op < 0 || op >= TSR_OP_COUNT || !tsr__dtype_valid(in) || !tsr__dtype_valid(out))
        return NULL;
    const tsr__kernel_slot *slot = b->kernels[op][in];
    if (!slot || !slot->fn[out])
        return NULL;
    if (flags)
        *flags = slot->flags[out];
    return slot->fn[out];
}

bool tsr_backend_has_kernel(const tsr_backend *backend, tsr_op op, tsr_dtype in, tsr_dtype out)
{
    return backend && tsr__registry_find(backend, op, in, out, NULL) != NULL;
}

static const char *const op_names[TSR_OP_COUNT] = {
#define OP_NAME_(id, name) name,
    TSR_OP_LIST(OP_NAME_)
#undef OP_NAME_
};

const char *tsr_op_name(tsr_op op)
{
    return op >= 0 && op < TSR_OP_COUNT ? op_names[op] : NULL;
}

tsr_status tsr_op_from_name(const char *name, tsr_op *out)
{
    if (!name || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_op_from_name: NULL argument");
    for (int i = 0; i < TSR_OP_COUNT; i++) {
        if (strcmp(op_names[i], name) == 0) {
            *out = (tsr_op)i;
            return TSR_OK;
        }
    }
    return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_op_from_name: unknown op '%s'", name);
}
