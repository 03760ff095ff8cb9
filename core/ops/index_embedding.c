/* tsr_embedding_ex: F.embedding's max_norm, norm_type, scale_grad_by_freq and
 * sparse. The renormalisation follows PyTorch's embedding_renorm_: the
 * referenced rows, each once (sorted, duplicates skipped), whose norm
 * exceeds max_norm are multiplied by max_norm / (norm + 1e-7), with the
 * scale in the row's computation type (float, or double for float64 and
 * complex128) and rounded once into weight. Here it is one in-place
 * index_copy_ of every referenced row (unchanged rows times exactly 1), so
 * weight's version goes up once, as PyTorch's single in-place op. */
#include "ops/index_util.h"

#include "runtime/alloc.h"
#include "runtime/error.h"

#include <stdlib.h>

#define OP "embedding"

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* indices' distinct values, sorted, after checking each lies in [0, rows):
 * weight must not change when the lookup would fail. */
static tsr_status referenced_rows(const tsr_tensor *indices, int64_t rows, int64_t **unique,
                                  int64_t *count)
{
    int64_t *values = NULL, n = tsr_tensor_numel(indices);
    tsr_status st = tsr__read_int64(OP, indices, &values);
    if (st != TSR_OK)
        return st;
    for (int64_t i = 0; i < n; i++) {
        if (values[i] < 0 || values[i] >= rows) {
            st = tsr__set_error(TSR_ERR_INDEX,
                                "%s: index %lld is out of range for weight with %lld rows "
                                "(max_norm renormalises the referenced rows first)",
                                OP, (long long)values[i], (long long)rows);
            free(values);
            return st;
        }
    }
    if (n > 0)
        qsort(values, (size_t)n, sizeof *values, compare_int64);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || values[i] != values[i - 1])
            values[kept++] = values[i];
    }
    *unique = values;
    *count = kept;
    return TSR_OK;
}

/* The norm_type norm of each row of `picked` [u, D], read back as double. */
static tsr_status row_norms(const tsr_tensor *picked, double norm_type, int64_t u, double *norms)
{
    int64_t last = 1;
    tsr_tensor *norm = NULL, *wide = NULL;
    tsr_status st =
        tsr_linalg_vector_norm(picked, norm_type, &last, 1, false, TSR_DTYPE_INFER, &norm);
    if (st == TSR_OK)
        st = tsr_to_dtype(norm, TSR_FLOAT64, &wide);
    if (st == TSR_OK)
        st = tsr_to_host(wide, norms, (size_t)u * sizeof *norms);
    tsr_tensor_release(norm);
    tsr_tensor_release(wide);
    return st;
}

/* PyTorch's `row *= scale` computes in float for every dtype but float64
 * and complex128, where it computes in double. */
static tsr_dtype scale_dtype(tsr_dtype weight)
{
    return weight == TSR_FLOAT64 || weight == TSR_COMPLEX128 ? TSR_FLOAT64 : TSR_FLOAT32;
}

/* weight's rows `unique` scaled by factors [u] (1 for rows within max_norm). */
static tsr_status write_rows(tsr_tensor *weight, const tsr_tensor *index, const tsr_tensor *picked,
                             const double *factors, int64_t u)
{
    int64_t column_shape[2] = {u, 1};
    tsr_tensor *host = NULL, *factor = NULL, *scaled = NULL, *rounded = NULL;
    tsr_status st = tsr_from_host(factors, (size_t)u * sizeof *factors, 2, column_shape,
                                  TSR_FLOAT64, tsr_tensor_backend(weight), &host);
    if (st == TSR_OK)
        st = tsr_to_dtype(host, scale_dtype(tsr_tensor_dtype(weight)), &factor);
    if (st == TSR_OK)
        st = tsr_mul(picked, factor, &scaled);
    if (st == TSR_OK)
        st = tsr_to_dtype(scaled, tsr_tensor_dtype(weight), &rounded);
    if (st == TSR_OK)
        st = tsr_index_copy_(weight, 0, index, rounded);
    tsr_tensor *all[] = {host, factor, scaled, rounded};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
    return st;
}

/* PyTorch's embedding_renorm_(weight, indices, max_norm, norm_type). */
static tsr_status renormalise(tsr_tensor *weight, const tsr_tensor *indices, double max_norm,
                              double norm_type)
{
    tsr_dtype dtype = tsr_tensor_dtype(weight);
    if (!tsr_dtype_is_floating(dtype) && !tsr_dtype_is_complex(dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: max_norm needs a floating point or complex weight, got %s", OP,
                              tsr_dtype_name(dtype));
    int64_t *unique = NULL, u = 0;
    tsr_status st = referenced_rows(indices, tsr_tensor_shape(weight)[0], &unique, &u);
    if (st != TSR_OK || u == 0) {
        free(unique);
        return st;
    }
    double *norms = tsr__calloc((size_t)u, sizeof *norms);
    tsr_tensor *index = NULL, *picked = NULL;
    st = norms ? TSR_OK : tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", OP);
    if (st == TSR_OK)
        st = tsr__index_from_host(OP, tsr_tensor_backend(weight), unique, u, &index);
    if (st == TSR_OK)
        st = tsr_index_select(weight, 0, index, &picked);
    if (st == TSR_OK)
        st = row_norms(picked, norm_type, u, norms);
    if (st == TSR_OK) {
        for (int64_t i = 0; i < u; i++) /* the norms become the factors */
            norms[i] = norms[i] > max_norm ? max_norm / (norms[i] + 1e-7) : 1.0;
        st = write_rows(weight, index, picked, norms, u);
    }
    free(unique);
    free(norms);
    tsr_tensor_release(index);
    tsr_tensor_release(picked);
    return st;
}

tsr_status tsr_embedding_ex(const tsr_tensor *indices, tsr_tensor *weight,
                            const int64_t *padding_idx, const double *max_norm, double norm_type,
                            bool scale_grad_by_freq, bool sparse, tsr_tensor **out)
{
    if (!indices || !weight || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors and out must not be NULL", OP);
    if (sparse)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "%s: sparse=True asks for a sparse gradient of weight, which "
                              "tessera does not have; use sparse=False",
                              OP);
    if (!max_norm)
        return tsr__embedding_lookup(indices, weight, padding_idx, scale_grad_by_freq, out);
    /* The lookup's checks first (renormalise checks the index values), so a
     * failing call leaves weight as it was. */
    tsr_status st = tsr__embedding_check(indices, weight, padding_idx, out);
    bool previous = tsr_grad_mode_set(false);
    if (st == TSR_OK)
        st = renormalise(weight, indices, *max_norm, norm_type);
    tsr_grad_mode_set(previous);
    if (st != TSR_OK)
        return tsr__claim_error(OP, st);
    return tsr__embedding_lookup(indices, weight, padding_idx, scale_grad_by_freq, out);
}
