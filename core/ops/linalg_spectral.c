/* QR, the Hermitian eigendecomposition and the SVD: linalg_qr, linalg_eigh,
 * linalg_eigvalsh, linalg_svd and linalg_svdvals on the kernels of the same
 * names, with PyTorch's real gradients (linalg_grad.c; QR's for m >= n
 * only: other shapes record an unimplemented node, so a backward through
 * them fails instead of giving zeros). */
#include <string.h>

#include "autograd/graph.h"
#include "ops/linalg.h"
#include "ops/linalg_grad.h"
#include "runtime/error.h"
#include "tensor/launch.h"

/* A core-only flag beside the kernel's: mode 'r' drops Q (not passed on). */
enum { TSR__QR_Q_UNUSED = 1 << 30 };

static tsr_dtype real_of(tsr_dtype d)
{
    return d == TSR_COMPLEX64 ? TSR_FLOAT32 : d == TSR_COMPLEX128 ? TSR_FLOAT64 : d;
}

/* Runs kernel `op` on a with outputs of the given shapes and dtypes; the
 * last output is info (int32, the batch shape). */
static tsr_status run_kernel(tsr_op op, const tsr_tensor *a, int32_t flags, int nout,
                             const int *ndims, const int64_t (*shapes)[TSR_MAX_DIMS],
                             const tsr_dtype *dtypes, tsr_tensor **outs)
{
    tsr_status st = TSR_OK;
    for (int i = 0; i < nout && st == TSR_OK; i++)
        st = tsr_zeros(ndims[i], shapes[i], dtypes[i], a->storage->backend, &outs[i]);
    tsr_linalg_attrs attrs = {.struct_size = sizeof attrs, .flags = flags & ~TSR__QR_Q_UNUSED};
    if (st == TSR_OK)
        st = tsr__launch(op, a->dtype, a->dtype, &a, 1, outs, nout, &attrs);
    if (st == TSR_OK && op == TSR_OP_LINALG_EIGH)
        st = tsr__grad_record_linalg_eigh(a, outs[0], outs[1]);
    else if (st == TSR_OK && op == TSR_OP_LINALG_SVD)
        st = tsr__grad_record_linalg_svd(a, outs[1], outs[0], outs[2]);
    else if (st == TSR_OK && op == TSR_OP_LINALG_QR)
        st = tsr__grad_record_linalg_qr(a, outs[0], outs[1], (flags & TSR__QR_Q_UNUSED) == 0);
    if (st != TSR_OK) {
        for (int i = 0; i < nout; i++) {
            tsr_tensor_release(outs[i]);
            outs[i] = NULL;
        }
    }
    return st;
}

static tsr_status check_converged(const char *api, const tsr_tensor *info, const char *what)
{
    int64_t count = tsr_tensor_numel(info);
    int32_t first = 0;
    for (int64_t i = 0; i < count && first == 0; i++) {
        tsr_tensor *one = NULL, *flat = NULL;
        int32_t v = 0;
        tsr_status st = tsr_reshape(info, 1, (int64_t[]){count}, &flat);
        if (st == TSR_OK)
            st = tsr_narrow(flat, 0, i, 1, &one);
        if (st == TSR_OK)
            st = tsr_to_host(one, &v, sizeof v);
        tsr_tensor_release(one);
        tsr_tensor_release(flat);
        if (st != TSR_OK)
            return st;
        first = v;
    }
    if (first == 0)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_VALUE,
                          "%s: The algorithm failed to converge because the input matrix is "
                          "ill-conditioned or has too many repeated %s (error code: %d).",
                          api, what, (int)first);
}

static void batch_shape(const tsr_tensor *a, int64_t *shape, int extra, const int64_t *tail)
{
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)(a->ndim - 2));
    for (int i = 0; i < extra; i++)
        shape[a->ndim - 2 + i] = tail[i];
}

tsr_status tsr_linalg_qr(const tsr_tensor *a, const char *mode, tsr_tensor **q, tsr_tensor **r)
{
    const char *api = "linalg.qr";
    if (!q || !r)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: outputs must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, false);
    if (st != TSR_OK)
        return st;
    const char *m_ = mode ? mode : "reduced";
    bool complete = strcmp(m_, "complete") == 0, r_only = strcmp(m_, "r") == 0;
    if (!complete && !r_only && strcmp(m_, "reduced") != 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "qr received unrecognized mode '%s' but expected one of 'reduced' "
                              "(default), 'r', or 'complete'",
                              m_);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    int64_t shapes[3][TSR_MAX_DIMS];
    batch_shape(a, shapes[0], 2, (int64_t[]){m, complete ? m : k});
    batch_shape(a, shapes[1], 2, (int64_t[]){complete ? m : k, n});
    batch_shape(a, shapes[2], 0, NULL);
    int ndims[3] = {a->ndim, a->ndim, a->ndim - 2};
    tsr_dtype dtypes[3] = {a->dtype, a->dtype, TSR_INT32};
    tsr_tensor *outs[3] = {NULL, NULL, NULL};
    st = run_kernel(TSR_OP_LINALG_QR, a, r_only ? TSR__QR_Q_UNUSED : 0, 3, ndims, shapes, dtypes,
                    outs);
    if (st != TSR_OK)
        return st;
    tsr_tensor_release(outs[2]);
    if (r_only) { /* PyTorch returns an empty Q */
        tsr_tensor_release(outs[0]);
        int64_t zero = 0;
        st = tsr_empty(1, &zero, a->dtype, a->storage->backend, &outs[0]);
        if (st != TSR_OK) {
            tsr_tensor_release(outs[1]);
            return st;
        }
    }
    *q = outs[0];
    *r = outs[1];
    return TSR_OK;
}

static tsr_status eigh_run(const char *api, const tsr_tensor *a, const char *uplo, tsr_tensor **w,
                           tsr_tensor **v)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, true);
    if (st != TSR_OK)
        return st;
    const char *u = uplo ? uplo : "L";
    bool upper = strcmp(u, "U") == 0 || strcmp(u, "u") == 0;
    if (!upper && strcmp(u, "L") != 0 && strcmp(u, "l") != 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: Expected UPLO argument to be 'L' or 'U', but got %s", api, u);
    int64_t n = a->shape[a->ndim - 1];
    int64_t shapes[3][TSR_MAX_DIMS];
    batch_shape(a, shapes[0], 1, (int64_t[]){n});
    batch_shape(a, shapes[1], 2, (int64_t[]){n, n});
    batch_shape(a, shapes[2], 0, NULL);
    int ndims[3] = {a->ndim - 1, a->ndim, a->ndim - 2};
    tsr_dtype dtypes[3] = {real_of(a->dtype), a->dtype, TSR_INT32};
    tsr_tensor *outs[3] = {NULL, NULL, NULL};
    st = run_kernel(TSR_OP_LINALG_EIGH, a, upper ? TSR_LINALG_UPPER : 0, 3, ndims, shapes, dtypes,
                    outs);
    if (st == TSR_OK)
        st = check_converged(api, outs[2], "eigenvalues");
    tsr_tensor_release(outs[2]);
    if (st != TSR_OK) {
        tsr_tensor_release(outs[0]);
        tsr_tensor_release(outs[1]);
        return st;
    }
    *w = outs[0];
    if (v)
        *v = outs[1];
    else
        tsr_tensor_release(outs[1]);
    return TSR_OK;
}

tsr_status tsr_linalg_eigh(const tsr_tensor *a, const char *uplo, tsr_tensor **eigenvalues,
                           tsr_tensor **eigenvectors)
{
    if (!eigenvalues || !eigenvectors)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.eigh: outputs must not be NULL");
    return eigh_run("linalg.eigh", a, uplo, eigenvalues, eigenvectors);
}

tsr_status tsr_linalg_eigvalsh(const tsr_tensor *a, const char *uplo, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.eigvalsh: out must not be NULL");
    return eigh_run("linalg.eigvalsh", a, uplo, out, NULL);
}

static tsr_status svd_run(const char *api, const tsr_tensor *a, bool full, tsr_tensor **u,
                          tsr_tensor **s, tsr_tensor **vh)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, false);
    if (st != TSR_OK)
        return st;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    int64_t shapes[4][TSR_MAX_DIMS];
    batch_shape(a, shapes[0], 1, (int64_t[]){k});
    batch_shape(a, shapes[1], 2, (int64_t[]){m, full ? m : k});
    batch_shape(a, shapes[2], 2, (int64_t[]){full ? n : k, n});
    batch_shape(a, shapes[3], 0, NULL);
    int ndims[4] = {a->ndim - 1, a->ndim, a->ndim, a->ndim - 2};
    tsr_dtype dtypes[4] = {real_of(a->dtype), a->dtype, a->dtype, TSR_INT32};
    tsr_tensor *outs[4] = {NULL, NULL, NULL, NULL};
    st = run_kernel(TSR_OP_LINALG_SVD, a, 0, 4, ndims, shapes, dtypes, outs);
    if (st == TSR_OK)
        st = check_converged(api, outs[3], "singular values");
    tsr_tensor_release(outs[3]);
    if (st != TSR_OK) {
        for (int i = 0; i < 3; i++)
            tsr_tensor_release(outs[i]);
        return st;
    }
    *s = outs[0];
    if (u) {
        *u = outs[1];
        *vh = outs[2];
    } else {
        tsr_tensor_release(outs[1]);
        tsr_tensor_release(outs[2]);
    }
    return TSR_OK;
}

tsr_status tsr_linalg_svd(const tsr_tensor *a, bool full_matrices, tsr_tensor **u, tsr_tensor **s,
                          tsr_tensor **vh)
{
    if (!u || !s || !vh)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.svd: outputs must not be NULL");
    return svd_run("linalg.svd", a, full_matrices, u, s, vh);
}

tsr_status tsr_linalg_svdvals(const tsr_tensor *a, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.svdvals: out must not be NULL");
    return svd_run("linalg.svdvals", a, false, NULL, out, NULL);
}

tsr_status tsr_geqrf(const tsr_tensor *a, tsr_tensor **qr, tsr_tensor **tau)
{
    const char *api = "geqrf";
    if (!qr || !tau)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: outputs must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "input", a, false);
    if (st != TSR_OK)
        return st;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], k = m < n ? m : n;
    int64_t shapes[3][TSR_MAX_DIMS];
    batch_shape(a, shapes[0], 2, (int64_t[]){m, n});
    batch_shape(a, shapes[1], 1, (int64_t[]){k});
    batch_shape(a, shapes[2], 0, NULL);
    int ndims[3] = {a->ndim, a->ndim - 1, a->ndim - 2};
    tsr_dtype dtypes[3] = {a->dtype, a->dtype, TSR_INT32};
    tsr_tensor *outs[3] = {NULL, NULL, NULL};
    st = run_kernel(TSR_OP_LINALG_GEQRF, a, 0, 3, ndims, shapes, dtypes, outs);
    /* PyTorch 1.13 has no derivative for geqrf either */
    for (int i = 0; i < 2 && st == TSR_OK; i++)
        st = tsr__grad_record_unimplemented("geqrf", &a, 1, outs[i]);
    tsr_tensor_release(outs[2]);
    if (st != TSR_OK) {
        tsr_tensor_release(outs[0]);
        tsr_tensor_release(outs[1]);
        return st;
    }
    *qr = outs[0];
    *tau = outs[1];
    return TSR_OK;
}

static tsr_status eig_run(const char *api, const tsr_tensor *a, tsr_tensor **w, tsr_tensor **v)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, true);
    if (st != TSR_OK)
        return st;
    tsr_dtype c = a->dtype == TSR_FLOAT32   ? TSR_COMPLEX64
                  : a->dtype == TSR_FLOAT64 ? TSR_COMPLEX128
                                            : a->dtype;
    int64_t n = a->shape[a->ndim - 1];
    int64_t shapes[3][TSR_MAX_DIMS];
    batch_shape(a, shapes[0], 1, (int64_t[]){n});
    batch_shape(a, shapes[1], 2, (int64_t[]){n, n});
    batch_shape(a, shapes[2], 0, NULL);
    int ndims[3] = {a->ndim - 1, a->ndim, a->ndim - 2};
    tsr_dtype dtypes[3] = {c, c, TSR_INT32};
    tsr_tensor *outs[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3 && st == TSR_OK; i++)
        st = tsr_zeros(ndims[i], shapes[i], dtypes[i], a->storage->backend, &outs[i]);
    tsr_linalg_attrs attrs = {.struct_size = sizeof attrs, .flags = 0};
    if (st == TSR_OK)
        st = tsr__launch(TSR_OP_LINALG_EIG, a->dtype, c, &a, 1, outs, 3, &attrs);
    if (st == TSR_OK)
        st = check_converged(api, outs[2], "eigenvalues");
    for (int i = 0; i < 2 && st == TSR_OK; i++) /* no gradient yet */
        st = tsr__grad_record_unimplemented("linalg_eig", &a, 1, outs[i]);
    tsr_tensor_release(outs[2]);
    if (st != TSR_OK) {
        tsr_tensor_release(outs[0]);
        tsr_tensor_release(outs[1]);
        return st;
    }
    *w = outs[0];
    if (v)
        *v = outs[1];
    else
        tsr_tensor_release(outs[1]);
    return TSR_OK;
}

tsr_status tsr_linalg_eig(const tsr_tensor *a, tsr_tensor **eigenvalues, tsr_tensor **eigenvectors)
{
    if (!eigenvalues || !eigenvectors)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.eig: outputs must not be NULL");
    return eig_run("linalg.eig", a, eigenvalues, eigenvectors);
}

tsr_status tsr_linalg_eigvals(const tsr_tensor *a, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.eigvals: out must not be NULL");
    return eig_run("linalg.eigvals", a, out, NULL);
}
