/* tessera: tensors with PyTorch's semantics, backends loaded at run time.
 *
 * Conventions for every function here:
 *  - Fallible calls return a tsr_status (TSR_OK is 0, errors are negative) and
 *    write results through trailing out-parameters. On failure the outputs are
 *    left untouched, no input is modified, and tsr_last_error() describes the
 *    problem, naming the op and the argument.
 *  - A call that returns a tensor returns a new reference: release it with
 *    tsr_tensor_release(). Tensors passed in are borrowed.
 *  - Functions are thread-safe for distinct tensors. The error message is
 *    per thread.
 */
#ifndef TESSERA_TESSERA_H
#define TESSERA_TESSERA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/plugin.h"

#if defined(_WIN32)
#define TSR_API __declspec(dllimport)
#else
#define TSR_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsr_tensor tsr_tensor;
typedef struct tsr_backend tsr_backend; /* a loaded backend; lives until exit */
typedef struct tsr_generator tsr_generator;

/* ======================================================================== */
/* Errors                                                                    */
/* ======================================================================== */

/* "TSR_ERR_SHAPE" for TSR_ERR_SHAPE; "unknown status" for others. */
TSR_API const char *tsr_status_name(int status);
/* A short description of the code, e.g. "shape mismatch". */
TSR_API const char *tsr_status_string(int status);
/* The calling thread's message for its last failed call ("" if none).
 * Valid until the thread's next tessera call. */
TSR_API const char *tsr_last_error(void);
TSR_API void tsr_clear_error(void);

/* ======================================================================== */
/* Dtypes, scalars, promotion                                                */
/* ======================================================================== */

TSR_API const char *tsr_dtype_name(tsr_dtype dtype); /* NULL if invalid */
TSR_API tsr_status tsr_dtype_from_name(const char *name, tsr_dtype *out);
TSR_API size_t tsr_dtype_size(tsr_dtype dtype); /* 0 if invalid */
TSR_API bool tsr_dtype_is_floating(tsr_dtype dtype); /* real floating */
TSR_API bool tsr_dtype_is_complex(tsr_dtype dtype);
TSR_API bool tsr_dtype_is_integral(tsr_dtype dtype, bool include_bool);

TSR_API tsr_scalar tsr_scalar_bool(bool value);
TSR_API tsr_scalar tsr_scalar_int(int64_t value);
TSR_API tsr_scalar tsr_scalar_float(double value);
TSR_API tsr_scalar tsr_scalar_complex(double re, double im);

/* An operand of an op: a tensor, or (when tensor is NULL) a Python-like scalar. */
typedef struct tsr_operand {
    const tsr_tensor *tensor;
    tsr_scalar scalar;
} tsr_operand;

TSR_API tsr_operand tsr_operand_tensor(const tsr_tensor *tensor);
TSR_API tsr_operand tsr_operand_scalar(tsr_scalar scalar);

/* torch.promote_types. */
TSR_API tsr_status tsr_promote_types(tsr_dtype a, tsr_dtype b, tsr_dtype *out);
/* torch.result_type over any number of operands: dimensioned tensors win over
 * 0-d tensors, which win over scalars, unless a lower priority operand is of
 * a higher category (bool < integer < floating < complex). */
TSR_API tsr_status tsr_result_type(const tsr_operand *operands, size_t count, tsr_dtype *out);

/* For creation functions: choose the dtype as PyTorch does when none is given
 * (int64 for integer arguments, float32 for floating ones, bool for bool). */
#define TSR_DTYPE_INFER ((tsr_dtype)-1)

/* ======================================================================== */
/* Version                                                                   */
/* ======================================================================== */

/* The library's version, "MAJOR.MINOR.PATCH" (static storage). When
 * plugin_abi is not NULL it receives the plugin ABI version this library
 * loads (TSR_PLUGIN_ABI_VERSION: major << 16 | minor). */
TSR_API const char *tsr_version(uint32_t *plugin_abi);

/* ======================================================================== */
/* Backends                                                                  */
/* ======================================================================== */

/* Returns a loaded backend by name, loading plugins on first use. NULL or ""
 * gives the default: the first loadable name of TESSERA_BACKEND, or else the
 * highest-scoring plugin that loads. */
TSR_API tsr_status tsr_backend_get(const char *name, tsr_backend **out);
/* Makes `backend` the default for calls that name none and have no tensor
 * to take one from (creation with a NULL backend, an op on two Python
 * numbers); NULL goes back to TESSERA_BACKEND's choice, made anew on next
 * use. Like torch.set_default_device, it is process-wide. */
TSR_API tsr_status tsr_set_default_backend(tsr_backend *backend);
TSR_API const char *tsr_backend_name(const tsr_backend *backend);
/* Whether `backend` has a kernel for op with these input/output dtypes. */
TSR_API bool tsr_backend_has_kernel(const tsr_backend *backend, tsr_op op, tsr_dtype in,
                                    tsr_dtype out);
/* Waits for all work queued on the backend. */
TSR_API tsr_status tsr_backend_synchronize(tsr_backend *backend);
/* The host backend that TESSERA_FALLBACK names, which runs the kernels
 * another backend lacks (docs/writing-a-plugin.md, "Fallback"): NULL when the
 * variable is unset, an error when it names no usable host-memory backend. */
TSR_API tsr_status tsr_fallback_backend(tsr_backend **out);

/* What the loader found, for tools. Index over every candidate plugin file. */
typedef struct tsr_plugin_info {
    uint32_t struct_size; /* set by the caller to sizeof(tsr_plugin_info) */
    const char *name;     /* backend name, or the file's stem if it never loaded */
    const char *path;
    const char *version;  /* "" if unknown */
    bool loaded;          /* init succeeded */
    const char *reason;   /* why it was refused or failed; "" if loaded */
    const char *device;   /* the plugin's describe() text; "" if none */
    int score;            /* probe score */
    tsr_backend *backend; /* NULL unless loaded */
} tsr_plugin_info;

/* Loads every plugin that can be found (as first use would) and reports
 * them. Strings stay valid until exit. */
TSR_API tsr_status tsr_plugin_count(size_t *count);
TSR_API tsr_status tsr_plugin_get_info(size_t index, tsr_plugin_info *info);

TSR_API const char *tsr_op_name(tsr_op op); /* PyTorch's name, NULL if invalid */
TSR_API tsr_status tsr_op_from_name(const char *name, tsr_op *out);

/* ======================================================================== */
/* Tensors                                                                   */
/* ======================================================================== */

/* The getters below, and those of autograd.h, take a NULL tensor and answer
 * "nothing": dtype TSR_DTYPE_COUNT (no dtype), ndim, offset, numel and
 * version 0, shape, strides, backend and grad_fn name NULL, and false for
 * every predicate (is_contiguous, shares_storage, requires_grad, is_leaf,
 * retains_grad). */
TSR_API void tsr_tensor_retain(const tsr_tensor *tensor);
TSR_API void tsr_tensor_release(const tsr_tensor *tensor); /* NULL is fine */

TSR_API tsr_dtype tsr_tensor_dtype(const tsr_tensor *tensor);
TSR_API int tsr_tensor_ndim(const tsr_tensor *tensor);
/* Borrowed arrays of ndim entries, valid while the tensor lives. */
TSR_API const int64_t *tsr_tensor_shape(const tsr_tensor *tensor);
TSR_API const int64_t *tsr_tensor_strides(const tsr_tensor *tensor); /* in elements */
TSR_API int64_t tsr_tensor_offset(const tsr_tensor *tensor);         /* in elements */
TSR_API int64_t tsr_tensor_numel(const tsr_tensor *tensor);
TSR_API bool tsr_tensor_is_contiguous(const tsr_tensor *tensor);
TSR_API tsr_backend *tsr_tensor_backend(const tsr_tensor *tensor);
/* Whether the two tensors view the same storage. */
TSR_API bool tsr_tensor_shares_storage(const tsr_tensor *a, const tsr_tensor *b);
/* Incremented by every in-place write to the storage. */
TSR_API uint64_t tsr_tensor_version(const tsr_tensor *tensor);
/* tensor.item(): the element of a tensor with exactly one element (any
 * shape) as a scalar: kind bool for bool, int for integers, float for
 * floating dtypes, complex for complex ones. Otherwise TSR_ERR_VALUE,
 * naming the numel. Waits for queued work. */
TSR_API tsr_status tsr_item(const tsr_tensor *tensor, tsr_scalar *out);

/* ======================================================================== */
/* Printing                                                                  */
/* ======================================================================== */

/* repr(tensor) as PyTorch 1.13 writes it with its default print options
 * (precision 4, threshold 1000, edgeitems 3, linewidth 80, sci_mode chosen
 * per tensor): "tensor([1., 2., 3.])", nested brackets over lines, "..."
 * past 1000 elements. Suffixes as PyTorch's: dtype=torch.NAME (PyTorch's
 * own spelling, so the text matches torch's) unless float32, complex64,
 * int64 or bool; size=(...) for empty tensors that are not 1-d;
 * device='BACKEND' for a backend whose memory is not host memory;
 * grad_fn=<NAME> (tessera's node name, tsr_tensor_grad_fn_name: "add",
 * not PyTorch's "AddBackward0") or requires_grad=True. *out is a NUL-terminated string to
 * release with tsr_string_free. */
TSR_API tsr_status tsr_tensor_to_string(const tsr_tensor *tensor, char **out);
TSR_API void tsr_string_free(char *string); /* NULL is fine */
/* print(tensor): tsr_tensor_to_string and a newline on stdout. */
TSR_API tsr_status tsr_print(const tsr_tensor *tensor);

/* ======================================================================== */
/* NumPy files                                                               */
/* ======================================================================== */

/* Reads a .npy file (format 1.0/2.0/3.0, C order) onto `backend`. A '<u2'
 * (NumPy uint16) file is refused with TSR_ERR_DTYPE naming the dtype:
 * tessera has no uint16, and the same descr is how bfloat16 is saved, so
 * read such a file with tsr_load_npy_as(path, TSR_BFLOAT16, ...). */
TSR_API tsr_status tsr_load_npy(const char *path, tsr_backend *backend, tsr_tensor **out);
/* tsr_load_npy, requiring the file to hold `dtype` (TSR_ERR_DTYPE naming
 * both otherwise; TSR_DTYPE_INFER takes the file's own dtype, as
 * tsr_load_npy does). Only dtype TSR_BFLOAT16 reads '<u2' data, as raw
 * bfloat16 bits (what tsr_save_npy writes for bfloat16). */
TSR_API tsr_status tsr_load_npy_as(const char *path, tsr_dtype dtype, tsr_backend *backend,
                                   tsr_tensor **out);
/* Writes the tensor as a .npy file (format 1.0 unless the header needs 2.0).
 * bfloat16 is written as raw '<u2' bits. */
TSR_API tsr_status tsr_save_npy(const char *path, const tsr_tensor *tensor);

#ifdef __cplusplus
}
#endif

/* The op families, each in its own header. */
#include "tessera/creation.h"
#include "tessera/views.h"
#include "tessera/copy.h"
#include "tessera/elementwise.h"
#include "tessera/elementwise2.h"
#include "tessera/elementwise_named.h"
#include "tessera/ternary.h"
#include "tessera/inplace.h"
#include "tessera/autograd.h"
#include "tessera/indexing.h"
#include "tessera/nn.h"
#include "tessera/optim.h"
#include "tessera/products.h"
#include "tessera/reduce.h"
#include "tessera/sorting.h"
#include "tessera/interop.h"
#include "tessera/pool.h"
#include "tessera/fft.h"
#include "tessera/linalg.h"

#endif /* TESSERA_TESSERA_H */
