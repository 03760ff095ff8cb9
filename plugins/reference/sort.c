/* sort and searchsorted.
 *
 * sort is a stable merge sort of positions, keyed by the widened values:
 * -inf < ... < +inf < NaN with every NaN equal and -0.0 equal to +0.0, so
 * equal keys keep their order in both directions. The sorted values are the
 * input's element bytes moved unchanged. searchsorted is PyTorch's
 * bisection, comparison for comparison, so a NaN value or a NaN in the
 * sequence lands where PyTorch puts it. */
#include "index_walk.h"

#include <math.h>
#include <stdlib.h>

#include "kernel_args.h"

/* ------------------------------------------------------------------------ */
/* sort                                                                      */
/* ------------------------------------------------------------------------ */

typedef struct sort_row {
    tsr__ref_wide *keys;
    int64_t *order, *scratch;
    char *bytes; /* the row's elements, read before any is written */
    int real, descending;
} sort_row;

/* Whether key a orders strictly before key b ascending, NaN above all. */
static int ascending_before(const sort_row *row, const tsr__ref_wide *a, const tsr__ref_wide *b)
{
    if (!row->real) {
        return a->i < b->i;
    }
    if (isnan(a->f)) {
        return 0;
    }
    return isnan(b->f) || a->f < b->f;
}

static int before(const sort_row *row, int64_t a, int64_t b)
{
    const tsr__ref_wide *ka = &row->keys[a], *kb = &row->keys[b];
    return row->descending ? ascending_before(row, kb, ka) : ascending_before(row, ka, kb);
}

/* Bottom-up merge sort of row->order[0..n): a run's element from the right
 * goes first only when it orders strictly before, which keeps it stable. */
static void merge_sort(sort_row *row, int64_t n)
{
    int64_t *from = row->order, *to = row->scratch;
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                to[k++] = before(row, from[j], from[i]) ? from[j++] : from[i++];
            }
            while (i < mid) {
                to[k++] = from[i++];
            }
            while (j < hi) {
                to[k++] = from[j++];
            }
        }
        int64_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != row->order) {
        memcpy(row->order, from, (size_t)n * sizeof *from);
    }
}

static int sort_shapes(const tsr__ref_backend *backend, const tsr_kernel_args *args, int32_t dim)
{
    const tsr_tensor_desc *in = &args->inputs[0];
    const tsr_tensor_desc *values = &args->outputs[0], *indices = &args->outputs[1];
    if (dim < 0 || dim >= in->ndim || values->ndim != in->ndim || indices->ndim != in->ndim) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "sort needs one rank and a dim inside it");
    }
    for (int32_t d = 0; d < in->ndim; d++) {
        if (values->shape[d] != in->shape[d] || indices->shape[d] != in->shape[d]) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "sort outputs need the input's shape");
        }
    }
    if (values->dtype != in->dtype) {
        return tsr__ref_args_dtype_error(backend, -1, values->dtype, in->dtype);
    }
    if (indices->dtype != TSR_INT64) {
        return tsr__ref_args_dtype_error(backend, -1, indices->dtype, TSR_INT64);
    }
    if (tsr__ref_dtype_category(in->dtype) == TSR__REF_COMPLEX) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "complex numbers have no order");
    }
    return TSR_OK;
}

static void sort_one_row(sort_row *row, const tsr_kernel_args *args, int32_t dim, int64_t *coords)
{
    const tsr_tensor_desc *in = &args->inputs[0];
    const tsr_tensor_desc *values = &args->outputs[0], *indices = &args->outputs[1];
    int64_t n = in->shape[dim];
    size_t size = tsr__ref_dtype_size(in->dtype);
    tsr__ref_load_fn load = tsr__ref_loader(in->dtype);
    for (int64_t i = 0; i < n; i++) {
        coords[dim] = i;
        const char *src = tsr__ref_desc_at(in, coords);
        memcpy(row->bytes + (size_t)i * size, src, size);
        load(src, &row->keys[i]);
        row->order[i] = i;
    }
    merge_sort(row, n);
    for (int64_t i = 0; i < n; i++) {
        coords[dim] = i;
        memmove(tsr__ref_desc_at(values, coords), row->bytes + (size_t)row->order[i] * size, size);
        memcpy(tsr__ref_desc_at(indices, coords), &row->order[i], sizeof(int64_t));
    }
    coords[dim] = 0;
}

int tsr__ref_kernel_sort(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int status = tsr__ref_index_args(backend, args, 1, 2, &attrs);
    if (status == TSR_OK) {
        status = sort_shapes(backend, args, attrs->dim);
    }
    const tsr_tensor_desc *in = &args->inputs[0];
    if (status != TSR_OK || tsr__ref_desc_numel(in) == 0) {
        return status;
    }
    int32_t dim = attrs->dim;
    int64_t n = in->shape[dim];
    size_t size = tsr__ref_dtype_size(in->dtype);
    sort_row row = {.keys = malloc((size_t)n * sizeof *row.keys),
                    .order = malloc((size_t)n * sizeof *row.order),
                    .scratch = malloc((size_t)n * sizeof *row.scratch),
                    .bytes = malloc((size_t)n * size),
                    .real = tsr__ref_dtype_category(in->dtype) == TSR__REF_REAL,
                    .descending = (attrs->flags & TSR_INDEX_DESCENDING) != 0};
    if (row.keys == NULL || row.order == NULL || row.scratch == NULL || row.bytes == NULL) {
        status = tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "no memory to sort rows of %lld",
                                (long long)n);
    } else {
        /* walk every row: all coordinates with the sorted dim held at 0 */
        int64_t outer[TSR_MAX_DIMS], coords[TSR_MAX_DIMS] = {0};
        memcpy(outer, in->shape, (size_t)in->ndim * sizeof *outer);
        outer[dim] = 1;
        do {
            sort_one_row(&row, args, dim, coords);
        } while (tsr__ref_next_coords(coords, outer, in->ndim));
    }
    free(row.keys);
    free(row.order);
    free(row.scratch);
    free(row.bytes);
    return status;
}

/* ------------------------------------------------------------------------ */
/* searchsorted                                                              */
/* ------------------------------------------------------------------------ */

static int search_shapes(const tsr__ref_backend *backend, const tsr_kernel_args *args)
{
    const tsr_tensor_desc *seq = &args->inputs[0], *values = &args->inputs[1];
    const tsr_tensor_desc *out = &args->outputs[0];
    if (seq->ndim != values->ndim || out->ndim != values->ndim) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "sequence, values and output need one rank");
    }
    for (int32_t d = 0; d < values->ndim; d++) {
        if (out->shape[d] != values->shape[d] ||
            (d + 1 < values->ndim && seq->shape[d] != values->shape[d])) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "leading extents differ at dim %d",
                                  (int)d);
        }
    }
    if (seq->dtype != values->dtype) {
        return tsr__ref_args_dtype_error(backend, 1, values->dtype, seq->dtype);
    }
    if (out->dtype != TSR_INT64 && out->dtype != TSR_INT32) {
        return tsr__ref_args_dtype_error(backend, -1, out->dtype, TSR_INT64);
    }
    if (tsr__ref_dtype_category(seq->dtype) == TSR__REF_COMPLEX) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "complex numbers have no order");
    }
    return TSR_OK;
}

/* !(mid >= value) for the lower bound, !(mid > value) for the upper one:
 * PyTorch's tests, so NaN on either side decides as it does there. */
static int goes_right(int real, int right, const tsr__ref_wide *mid, const tsr__ref_wide *value)
{
    if (real) {
        return right ? !(mid->f > value->f) : !(mid->f >= value->f);
    }
    return right ? !(mid->i > value->i) : !(mid->i >= value->i);
}

int tsr__ref_kernel_searchsorted(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int status = tsr__ref_index_args(backend, args, 2, 1, &attrs);
    if (status == TSR_OK) {
        status = search_shapes(backend, args);
    }
    const tsr_tensor_desc *seq = &args->inputs[0], *values = &args->inputs[1];
    const tsr_tensor_desc *out = &args->outputs[0];
    if (status != TSR_OK || tsr__ref_desc_numel(out) == 0) {
        return status;
    }
    int right = (attrs->flags & TSR_INDEX_RIGHT) != 0;
    int real = tsr__ref_dtype_category(seq->dtype) == TSR__REF_REAL;
    tsr__ref_load_fn load = tsr__ref_loader(seq->dtype);
    int32_t last = seq->ndim - 1;
    int64_t coords[TSR_MAX_DIMS] = {0}, at[TSR_MAX_DIMS];
    do {
        tsr__ref_wide value, mid_value;
        load(tsr__ref_desc_at(values, coords), &value);
        memcpy(at, coords, sizeof at);
        int64_t start = 0, end = seq->shape[last];
        while (start < end) {
            int64_t mid = start + ((end - start) >> 1);
            at[last] = mid;
            load(tsr__ref_desc_at(seq, at), &mid_value);
            if (goes_right(real, right, &mid_value, &value)) {
                start = mid + 1;
            } else {
                end = mid;
            }
        }
        char *dst = tsr__ref_desc_at(out, coords);
        if (out->dtype == TSR_INT32) {
            int32_t narrow = (int32_t)start;
            memcpy(dst, &narrow, sizeof narrow);
        } else {
            memcpy(dst, &start, sizeof start);
        }
    } while (tsr__ref_next_coords(coords, out->shape, out->ndim));
    return TSR_OK;
}
