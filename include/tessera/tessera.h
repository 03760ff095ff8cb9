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
/* Backends                                                                  */
/* ======================================================================== */

/* Returns a loaded backend by name, loading plugins on first use. NULL or ""
 * gives the default: the first loadable name of TESSERA_BACKEND, or else the
 * highest-scoring plugin that loads. */
TSR_API tsr_status tsr_backend_get(const char *name, tsr_backend **out);
TSR_API const char *tsr_backend_name(const tsr_backend *backend);
/* Whether `backend` has a kernel for op with these input/output dtypes. */
TSR_API bool tsr_backend_has_kernel(const tsr_backend *backend, tsr_op op, tsr_dtype in,
                                    tsr_dtype out);
/* Waits for all work queued on the backend. */
TSR_API tsr_status tsr_backend_synchronize(tsr_backend *backend);

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

/* ---- creation (backend NULL means the default backend) ---- */
TSR_API tsr_status tsr_empty(int ndim, const int64_t *shape, tsr_dtype dtype,
                             tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_zeros(int ndim, const int64_t *shape, tsr_dtype dtype,
                             tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_ones(int ndim, const int64_t *shape, tsr_dtype dtype,
                            tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_full(int ndim, const int64_t *shape, tsr_scalar value, tsr_dtype dtype,
                            tsr_backend *backend, tsr_tensor **out);
/* torch.arange(start, end, step, dtype=...). */
TSR_API tsr_status tsr_arange(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype,
                              tsr_backend *backend, tsr_tensor **out);
/* torch.linspace(start, end, steps, dtype=...). */
TSR_API tsr_status tsr_linspace(tsr_scalar start, tsr_scalar end, int64_t steps, tsr_dtype dtype,
                                tsr_backend *backend, tsr_tensor **out);
/* torch.eye(n, m); m < 0 means m = n. */
TSR_API tsr_status tsr_eye(int64_t n, int64_t m, tsr_dtype dtype, tsr_backend *backend,
                           tsr_tensor **out);
/* Copies `bytes` bytes of C-ordered elements from host memory. */
TSR_API tsr_status tsr_from_host(const void *data, size_t bytes, int ndim, const int64_t *shape,
                                 tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out);
/* Copies the tensor's elements, in C order, to host memory of `bytes` bytes
 * (exactly numel * dtype size). Waits for queued work. */
TSR_API tsr_status tsr_to_host(const tsr_tensor *tensor, void *data, size_t bytes);

/* ---- random numbers from an explicit generator (same bits on every backend) ---- */
TSR_API tsr_status tsr_generator_create(uint64_t seed, tsr_generator **out);
TSR_API void tsr_generator_destroy(tsr_generator *generator);
/* Uniform on [0, 1). */
TSR_API tsr_status tsr_rand(tsr_generator *gen, int ndim, const int64_t *shape, tsr_dtype dtype,
                            tsr_backend *backend, tsr_tensor **out);
/* Standard normal. */
TSR_API tsr_status tsr_randn(tsr_generator *gen, int ndim, const int64_t *shape, tsr_dtype dtype,
                             tsr_backend *backend, tsr_tensor **out);
/* Uniform integers on [low, high). */
TSR_API tsr_status tsr_randint(tsr_generator *gen, int64_t low, int64_t high, int ndim,
                               const int64_t *shape, tsr_dtype dtype, tsr_backend *backend,
                               tsr_tensor **out);

/* ======================================================================== */
/* Views (share storage with their base) and copies                          */
/* ======================================================================== */

/* Dims may be negative (counted from the end), as in PyTorch. */
TSR_API tsr_status tsr_view(const tsr_tensor *t, int ndim, const int64_t *shape,
                            tsr_tensor **out); /* one size may be -1 */
TSR_API tsr_status tsr_reshape(const tsr_tensor *t, int ndim, const int64_t *shape,
                               tsr_tensor **out); /* a view when possible, else a copy */
TSR_API tsr_status tsr_transpose(const tsr_tensor *t, int64_t dim0, int64_t dim1,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_permute(const tsr_tensor *t, int ndim, const int64_t *dims,
                               tsr_tensor **out);
TSR_API tsr_status tsr_expand(const tsr_tensor *t, int ndim, const int64_t *sizes,
                              tsr_tensor **out); /* -1 keeps a size */
TSR_API tsr_status tsr_narrow(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length,
                              tsr_tensor **out);
/* t[..., start:end:step, ...] along dim, with Python's clamping of start/end. */
TSR_API tsr_status tsr_slice(const tsr_tensor *t, int64_t dim, int64_t start, int64_t end,
                             int64_t step, tsr_tensor **out);
TSR_API tsr_status tsr_squeeze(const tsr_tensor *t, tsr_tensor **out); /* every size-1 dim */
TSR_API tsr_status tsr_squeeze_dim(const tsr_tensor *t, int64_t dim, tsr_tensor **out);
TSR_API tsr_status tsr_unsqueeze(const tsr_tensor *t, int64_t dim, tsr_tensor **out);
TSR_API tsr_status tsr_diagonal(const tsr_tensor *t, int64_t offset, int64_t dim1, int64_t dim2,
                                tsr_tensor **out);
TSR_API tsr_status tsr_flatten(const tsr_tensor *t, int64_t start_dim, int64_t end_dim,
                               tsr_tensor **out);
TSR_API tsr_status tsr_unflatten(const tsr_tensor *t, int64_t dim, int nsizes,
                                 const int64_t *sizes, tsr_tensor **out);

/* A contiguous tensor with the same values (a new reference to t itself when
 * t is already contiguous). */
TSR_API tsr_status tsr_contiguous(const tsr_tensor *t, tsr_tensor **out);
TSR_API tsr_status tsr_clone(const tsr_tensor *t, tsr_tensor **out);
/* Tensor.to(dtype): a converted copy (a new reference to t if the dtype is the same). */
TSR_API tsr_status tsr_to_dtype(const tsr_tensor *t, tsr_dtype dtype, tsr_tensor **out);
/* Tensor.to(backend): a copy on another backend (a new reference to t if the same). */
TSR_API tsr_status tsr_to_backend(const tsr_tensor *t, tsr_backend *backend, tsr_tensor **out);

/* ======================================================================== */
/* Elementwise ops                                                           */
/* ======================================================================== */

/* Binary ops over broadcast operands with PyTorch's promotion: any of
 * add, sub, mul, div, floor_divide, remainder, pow, maximum, minimum, eq, ne,
 * lt, le, gt, ge, logical_and, logical_or, logical_xor. At least one operand
 * must be a tensor. */
TSR_API tsr_status tsr_binary(tsr_op op, tsr_operand a, tsr_operand b, tsr_tensor **out);
/* torch.add / torch.sub with alpha: a ± alpha * b. */
TSR_API tsr_status tsr_add_scaled(tsr_operand a, tsr_operand b, tsr_scalar alpha,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_sub_scaled(tsr_operand a, tsr_operand b, tsr_scalar alpha,
                                  tsr_tensor **out);
/* torch.div with rounding_mode TSR_ROUND_NONE / _TRUNC / _FLOOR. */
TSR_API tsr_status tsr_div_rounding(tsr_operand a, tsr_operand b, int rounding_mode,
                                    tsr_tensor **out);

/* Shorthands over two tensors. */
TSR_API tsr_status tsr_add(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
TSR_API tsr_status tsr_sub(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
TSR_API tsr_status tsr_mul(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
TSR_API tsr_status tsr_div(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);

/* Unary ops: neg, abs, sign, exp, log, log1p, expm1, sqrt, rsqrt, sin, cos,
 * tanh, sigmoid, relu, gelu (exact), erf, logical_not. Floating functions of
 * integer or bool tensors compute in float32, as PyTorch. */
TSR_API tsr_status tsr_unary(tsr_op op, const tsr_tensor *t, tsr_tensor **out);
/* gelu with approximate TSR_GELU_NONE or TSR_GELU_TANH. */
TSR_API tsr_status tsr_gelu(const tsr_tensor *t, int approximate, tsr_tensor **out);

/* torch.where(condition, a, b): condition must be bool. */
TSR_API tsr_status tsr_where(const tsr_tensor *condition, tsr_operand a, tsr_operand b,
                             tsr_tensor **out);
/* torch.clamp(t, min, max); a NULL bound is absent. At least one is required. */
TSR_API tsr_status tsr_clamp(const tsr_tensor *t, const tsr_operand *min, const tsr_operand *max,
                             tsr_tensor **out);

/* ======================================================================== */
/* Elementwise ops: the second family                                        */
/* ======================================================================== */

/* Through tsr_binary: fmod, atan2, hypot, copysign, fmax, fmin, bitwise_and,
 * bitwise_or, bitwise_xor, bitwise_left_shift, bitwise_right_shift.
 * Through tsr_unary: bitwise_not, exp2, log2, log10, tan, asin, acos, atan,
 * sinh, cosh, asinh, acosh, atanh, erfc, silu, floor, ceil, round, trunc,
 * frac, reciprocal, square, isnan, isinf, isfinite, and softplus,
 * leaky_relu, elu, hardtanh, nan_to_num with PyTorch's default parameters.
 * PyTorch 1.13's rules, among them: atan2, copysign, reciprocal and the
 * floating functions compute integer and bool inputs in float32 (hypot,
 * frac and the activations refuse them); floor, ceil, round and trunc
 * return integer tensors unchanged; square of bool is int64; isnan, isinf
 * and isfinite write bool; fmax and fmin ignore a NaN operand; fmod takes
 * the dividend's sign and fails on integer division by zero; the bitwise
 * ops take bool and integers only (the shifts integers only), and a shift
 * count outside [0, width) uses its low 6 bits for int64, 5 bits for
 * narrower dtypes (x86-64's behaviour, which PyTorch 1.13 inherits).
 * A parameter (beta, alpha, value, ...) must convert to the tensor's dtype
 * without overflow, as PyTorch's Scalar::to<T>() checks. */

/* softplus: x if beta * x > threshold, else log(1 + exp(beta * x)) / beta. */
TSR_API tsr_status tsr_softplus(const tsr_tensor *t, tsr_scalar beta, tsr_scalar threshold,
                                tsr_tensor **out);
/* leaky_relu: x > 0 ? x : negative_slope * x. */
TSR_API tsr_status tsr_leaky_relu(const tsr_tensor *t, tsr_scalar negative_slope,
                                  tsr_tensor **out);
/* elu: x > 0 ? scale * x : alpha * scale * (exp(input_scale * x) - 1)
 * (torch.nn.functional.elu has scale = input_scale = 1). */
TSR_API tsr_status tsr_elu(const tsr_tensor *t, tsr_scalar alpha, tsr_scalar scale,
                           tsr_scalar input_scale, tsr_tensor **out);
/* hardtanh: clamp(x, min_val, max_val); on integer tensors the bounds are
 * truncated to integers, and uint8 refuses negative bounds. */
TSR_API tsr_status tsr_hardtanh(const tsr_tensor *t, tsr_scalar min_val, tsr_scalar max_val,
                                tsr_tensor **out);
/* torch.round(t, decimals=d): ties to even at the d-th decimal (floating
 * tensors only unless d is 0). */
TSR_API tsr_status tsr_round_decimals(const tsr_tensor *t, int64_t decimals, tsr_tensor **out);
/* torch.nan_to_num: NaN, +inf and -inf replaced; a NULL value means
 * PyTorch's default (0, the dtype's largest and lowest finite value).
 * Integer and bool tensors come back unchanged. */
TSR_API tsr_status tsr_nan_to_num(const tsr_tensor *t, const double *nan, const double *posinf,
                                  const double *neginf, tsr_tensor **out);
/* torch.lerp(start, end, weight) = start + weight * (end - start), weight a
 * tensor or a scalar. end and a weight tensor must have start's dtype; the
 * result has start's dtype and the broadcast shape. */
TSR_API tsr_status tsr_lerp(const tsr_tensor *start, const tsr_tensor *end, tsr_operand weight,
                            tsr_tensor **out);
/* torch.addcmul / torch.addcdiv: self + value * tensor1 * tensor2 and
 * self + value * tensor1 / tensor2 over the promoted dtype of the three
 * tensors, broadcast. addcdiv refuses two integer (or bool) tensors. */
TSR_API tsr_status tsr_addcmul(const tsr_tensor *self, const tsr_tensor *tensor1,
                               const tsr_tensor *tensor2, tsr_scalar value, tsr_tensor **out);
TSR_API tsr_status tsr_addcdiv(const tsr_tensor *self, const tsr_tensor *tensor1,
                               const tsr_tensor *tensor2, tsr_scalar value, tsr_tensor **out);

/* ---- in place, with the checks of tsr_binary_ ---- */

/* self.OP_() for the unary ops PyTorch has in place: every op of
 * tsr_unary except gelu, softplus, isnan, isinf and isfinite. The result
 * must be castable to self's dtype (exp_ of an integer tensor fails). */
TSR_API tsr_status tsr_unary_(tsr_op op, tsr_tensor *self);
TSR_API tsr_status tsr_leaky_relu_(tsr_tensor *self, tsr_scalar negative_slope);
TSR_API tsr_status tsr_elu_(tsr_tensor *self, tsr_scalar alpha, tsr_scalar scale,
                            tsr_scalar input_scale);
TSR_API tsr_status tsr_hardtanh_(tsr_tensor *self, tsr_scalar min_val, tsr_scalar max_val);
TSR_API tsr_status tsr_round_decimals_(tsr_tensor *self, int64_t decimals);
TSR_API tsr_status tsr_nan_to_num_(tsr_tensor *self, const double *nan, const double *posinf,
                                   const double *neginf);
TSR_API tsr_status tsr_lerp_(tsr_tensor *self, const tsr_tensor *end, tsr_operand weight);
TSR_API tsr_status tsr_addcmul_(tsr_tensor *self, const tsr_tensor *tensor1,
                                const tsr_tensor *tensor2, tsr_scalar value);
TSR_API tsr_status tsr_addcdiv_(tsr_tensor *self, const tsr_tensor *tensor1,
                                const tsr_tensor *tensor2, tsr_scalar value);
/* self.fill_(value) with a 0-d tensor value (on any backend), converted
 * from its element as tsr_fill_ converts a scalar. */
TSR_API tsr_status tsr_fill_tensor_(tsr_tensor *self, const tsr_tensor *value);

/* ======================================================================== */
/* In-place ops: write into self through its view                           */
/* ======================================================================== */

/* self.OP_(other) for add, sub, mul, div, floor_divide, remainder, pow,
 * maximum, minimum, fmod, atan2, hypot, copysign, bitwise_and, bitwise_or,
 * bitwise_xor, bitwise_left_shift, bitwise_right_shift: the result must be castable to self's dtype (its
 * category may not exceed self's), self must not be broadcast, and self must
 * not have internal overlap (as after expand). */
TSR_API tsr_status tsr_binary_(tsr_op op, tsr_tensor *self, tsr_operand other);
TSR_API tsr_status tsr_add_(tsr_tensor *self, tsr_operand other, tsr_scalar alpha);
TSR_API tsr_status tsr_sub_(tsr_tensor *self, tsr_operand other, tsr_scalar alpha);
TSR_API tsr_status tsr_div_(tsr_tensor *self, tsr_operand other, int rounding_mode);
TSR_API tsr_status tsr_clamp_(tsr_tensor *self, const tsr_operand *min, const tsr_operand *max);
/* self.copy_(src): src broadcast to self's shape, converted to self's dtype,
 * moved from another backend if needed. */
TSR_API tsr_status tsr_copy_(tsr_tensor *self, const tsr_tensor *src);
TSR_API tsr_status tsr_fill_(tsr_tensor *self, tsr_scalar value);
TSR_API tsr_status tsr_zero_(tsr_tensor *self);

/* ======================================================================== */
/* NumPy files                                                               */
/* ======================================================================== */

/* Reads a .npy file (format 1.0/2.0/3.0, C order) onto `backend`. */
TSR_API tsr_status tsr_load_npy(const char *path, tsr_backend *backend, tsr_tensor **out);
/* Writes the tensor as a .npy file (format 1.0 unless the header needs 2.0).
 * bfloat16 is written as raw '<u2' bits. */
TSR_API tsr_status tsr_save_npy(const char *path, const tsr_tensor *tensor);

#ifdef __cplusplus
}
#endif

/* The op families, each in its own header. */
#include "tessera/autograd.h"
#include "tessera/indexing.h"
#include "tessera/nn.h"
#include "tessera/optim.h"
#include "tessera/products.h"
#include "tessera/reduce.h"
#include "tessera/sorting.h"

#endif /* TESSERA_TESSERA_H */
