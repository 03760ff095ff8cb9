/* tessera plugin ABI: the one header a backend author needs.
 *
 * A backend is a shared object exporting one C symbol, `tsr_plugin_entry`
 * (see TSR_PLUGIN_ENTRY_SYMBOL). The core passes in its services (logging,
 * error reporting) and receives a table describing the backend. A plugin never
 * links libtessera.so; everything it needs is in this file, which depends only
 * on the C standard library.
 *
 * Compatibility rules:
 *  - Every struct that crosses the boundary starts with its size and is only
 *    ever extended at the end. A reader checks `struct_size` before touching a
 *    field added in a later minor version.
 *  - Op ids and dtype ids are part of the ABI. New ones are appended.
 *  - A NULL function member means "not provided"; the core then uses the
 *    documented default or answers TSR_ERR_UNIMPLEMENTED.
 *  - A major version mismatch is refused at load time. An older minor is fine.
 *
 * ABI changelog:
 *  1.0  first version: memory, host copies, synchronisation, kernel table.
 *  1.1  op TSR_OP_CROSS_ENTROPY and tsr_cross_entropy_attrs.
 *  1.2  five op groups appended in this order, each with its attribute
 *       struct: TSR_OP_LIST_POOL (pool_max ... pool_adaptive_max,
 *       tsr_pool_attrs), TSR_OP_LIST_CONV (im2col, col2im and the optional
 *       direct convolution and its two backwards, tsr_conv_attrs),
 *       TSR_OP_LIST_RESAMPLE (upsample, upsample_backward, grid_sampler,
 *       grid_sampler_backward, tsr_resample_attrs), TSR_OP_LIST_FFT (c2c,
 *       r2c, c2r, tsr_fft_attrs) and TSR_OP_LIST_LINALG (cholesky, lu,
 *       solve_triangular, qr, eigh, svd, geqrf, eig, tsr_linalg_attrs);
 *       sum, nansum and prod may register (narrow integer or bool, int64)
 *       rows, read without a widened copy.
 */
#ifndef TESSERA_PLUGIN_H
#define TESSERA_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TSR_PLUGIN_EXPORT __declspec(dllexport)
#else
#define TSR_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Versions                                                                  */
/* ------------------------------------------------------------------------ */

#define TSR_PLUGIN_ABI_MAJOR 1
#define TSR_PLUGIN_ABI_MINOR 2
#define TSR_PLUGIN_ABI_VERSION ((uint32_t)(TSR_PLUGIN_ABI_MAJOR << 16 | TSR_PLUGIN_ABI_MINOR))
#define TSR_PLUGIN_ENTRY_SYMBOL "tsr_plugin_entry"

/* Largest rank a tensor may have. Part of the ABI: descriptors never exceed it. */
#define TSR_MAX_DIMS 16

/* ------------------------------------------------------------------------ */
/* Status codes (0 is success; every error is negative)                      */
/* ------------------------------------------------------------------------ */

#define TSR_STATUS_LIST(X)                                                       \
    X(OK, 0, "success")                                                          \
    X(ERR_INVALID_ARGUMENT, -1, "invalid argument")                              \
    X(ERR_SHAPE, -2, "shape mismatch")                                           \
    X(ERR_DTYPE, -3, "unsupported or mismatched dtype")                          \
    X(ERR_INDEX, -4, "index out of range")                                       \
    X(ERR_OUT_OF_MEMORY, -5, "out of memory")                                    \
    X(ERR_UNIMPLEMENTED, -6, "not implemented by this backend")                  \
    X(ERR_BACKEND, -7, "backend failure")                                        \
    X(ERR_PLUGIN, -8, "plugin could not be loaded")                              \
    X(ERR_IO, -9, "input/output error")                                          \
    X(ERR_FORMAT, -10, "malformed data")                                         \
    X(ERR_OVERFLOW, -11, "size overflow")                                        \
    X(ERR_DEVICE_MISMATCH, -12, "operands live on different backends")           \
    X(ERR_VALUE, -13, "invalid value")                                           \
    X(ERR_AUTOGRAD, -14, "autograd error")

typedef enum tsr_status {
#define TSR_STATUS_ENUM_(name, value, text) TSR_##name = value,
    TSR_STATUS_LIST(TSR_STATUS_ENUM_)
#undef TSR_STATUS_ENUM_
} tsr_status;

/* ------------------------------------------------------------------------ */
/* Dtypes                                                                    */
/* ------------------------------------------------------------------------ */

/* X(ENUM_SUFFIX, name, size in bytes) — ids are the list order. */
#define TSR_DTYPE_LIST(X)                                                        \
    X(BOOL, "bool", 1)                                                           \
    X(UINT8, "uint8", 1)                                                         \
    X(INT8, "int8", 1)                                                           \
    X(INT16, "int16", 2)                                                         \
    X(INT32, "int32", 4)                                                         \
    X(INT64, "int64", 8)                                                         \
    X(FLOAT16, "float16", 2)                                                     \
    X(BFLOAT16, "bfloat16", 2)                                                   \
    X(FLOAT32, "float32", 4)                                                     \
    X(FLOAT64, "float64", 8)                                                     \
    X(COMPLEX64, "complex64", 8)                                                 \
    X(COMPLEX128, "complex128", 16)

typedef enum tsr_dtype {
#define TSR_DTYPE_ENUM_(id, name, size) TSR_##id,
    TSR_DTYPE_LIST(TSR_DTYPE_ENUM_)
#undef TSR_DTYPE_ENUM_
    TSR_DTYPE_COUNT
} tsr_dtype;

/* A Python-like scalar. Scalars are operands of their own: they take part in
 * type promotion as PyTorch's "wrapped numbers" do, below every tensor. */
typedef enum tsr_scalar_kind {
    TSR_SCALAR_BOOL,
    TSR_SCALAR_INT,
    TSR_SCALAR_FLOAT,
    TSR_SCALAR_COMPLEX,
} tsr_scalar_kind;

typedef struct tsr_scalar {
    int32_t kind; /* tsr_scalar_kind */
    int32_t reserved_;
    union {
        int64_t i; /* bool (0 or 1) and int */
        double f;
        struct {
            double re, im;
        } c;
    } v;
} tsr_scalar;

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */
/* ------------------------------------------------------------------------ */

/* Kernel-level ops. X(ENUM_SUFFIX, "pytorch name"). The id is the list
 * position, so new ops are appended at the end only.
 *
 * Conventions for the (input dtype, output dtype) pair a kernel registers:
 *  - copy: converts input dtype to output dtype over any strides; its rows
 *    must carry TSR_KERNEL_STRIDED and TSR_KERNEL_BROADCAST, since the core
 *    prepares operands for every other kernel with copies.
 *  - elementwise ops: inputs arrive already converted to the computation dtype
 *    (the input dtype); the output dtype is that dtype, except comparisons and
 *    logical ops (output bool) and isnan-like predicates.
 *  - abs of complex outputs the real dtype (complex64 -> float32).
 *  - fill registers (dtype, dtype); where registers (result, result) with a
 *    bool condition as its first input.
 *  - inputs are broadcast by the core to the output's shape with 0 strides.
 */
#define TSR_OP_LIST(X)                                                           \
    X(COPY, "copy")                                                              \
    X(FILL, "fill")                                                              \
    X(ADD, "add")                                                                \
    X(SUB, "sub")                                                                \
    X(MUL, "mul")                                                                \
    X(DIV, "div")                                                                \
    X(FLOOR_DIVIDE, "floor_divide")                                              \
    X(REMAINDER, "remainder")                                                    \
    X(POW, "pow")                                                                \
    X(MAXIMUM, "maximum")                                                        \
    X(MINIMUM, "minimum")                                                        \
    X(EQ, "eq")                                                                  \
    X(NE, "ne")                                                                  \
    X(LT, "lt")                                                                  \
    X(LE, "le")                                                                  \
    X(GT, "gt")                                                                  \
    X(GE, "ge")                                                                  \
    X(LOGICAL_AND, "logical_and")                                                \
    X(LOGICAL_OR, "logical_or")                                                  \
    X(LOGICAL_XOR, "logical_xor")                                                \
    X(NEG, "neg")                                                                \
    X(ABS, "abs")                                                                \
    X(SIGN, "sign")                                                              \
    X(EXP, "exp")                                                                \
    X(LOG, "log")                                                                \
    X(LOG1P, "log1p")                                                            \
    X(EXPM1, "expm1")                                                            \
    X(SQRT, "sqrt")                                                              \
    X(RSQRT, "rsqrt")                                                            \
    X(SIN, "sin")                                                                \
    X(COS, "cos")                                                                \
    X(TANH, "tanh")                                                              \
    X(SIGMOID, "sigmoid")                                                        \
    X(RELU, "relu")                                                              \
    X(GELU, "gelu")                                                              \
    X(ERF, "erf")                                                                \
    X(LOGICAL_NOT, "logical_not")                                                \
    X(WHERE, "where")                                                            \
    X(CLAMP, "clamp")                                                            \
    TSR_OP_LIST_ELEMENTWISE2(X)                                                  \
    TSR_OP_LIST_REDUCE(X)                                                        \
    TSR_OP_LIST_SCAN(X)                                                          \
    TSR_OP_LIST_PRODUCT(X)                                                       \
    TSR_OP_LIST_INDEX(X)                                                         \
    TSR_OP_LIST_SORT(X)                                                          \
    TSR_OP_LIST_NN(X)                                                            \
    TSR_OP_LIST_POOL(X)                                                          \
    TSR_OP_LIST_CONV(X)                                                          \
    TSR_OP_LIST_RESAMPLE(X)                                                      \
    TSR_OP_LIST_FFT(X)                                                           \
    TSR_OP_LIST_LINALG(X)

/* The second elementwise family. Binary ones take (a, b) in the computation
 * dtype; predicates (isnan, isinf, isfinite) output bool; lerp, addcmul and
 * addcdiv take three inputs. Attributes in tsr_elementwise_attrs:
 *   softplus: scalars = {beta, threshold}; leaky_relu: {negative_slope};
 *   elu: {alpha, scale, input_scale}; hardtanh: {min_val, max_val};
 *   round: mode = decimals; nan_to_num: {nan, posinf, neginf};
 *   lerp: (start, end, weight); addcmul/addcdiv: (self, t1, t2), {value}.
 * The core passes every attribute (defaults filled in: nan_to_num's posinf
 * and neginf are the dtype's largest and lowest finite values); a kernel
 * converts them to the computation dtype as PyTorch's Scalar::to<T>().
 * With mode TSR_LERP_SCALAR_WEIGHT, lerp's weight is scalars[0] (a Python
 * scalar, kept at float precision for bfloat16 as PyTorch keeps it) and
 * input 2 repeats start and must be ignored. floor, ceil, round, trunc and
 * nan_to_num are the identity on integers: the core copies integer tensors
 * itself, so kernels register floating dtypes only. Shift counts outside
 * [0, width) use the count's low 6 bits for int64 and 5 bits for narrower
 * dtypes (PyTorch 1.13 on x86-64); integer fmod by zero is an error. */
#define TSR_OP_LIST_ELEMENTWISE2(X)                                              \
    X(FMOD, "fmod")                                                              \
    X(ATAN2, "atan2")                                                            \
    X(HYPOT, "hypot")                                                            \
    X(COPYSIGN, "copysign")                                                      \
    X(FMAX, "fmax")                                                              \
    X(FMIN, "fmin")                                                              \
    X(BITWISE_AND, "bitwise_and")                                                \
    X(BITWISE_OR, "bitwise_or")                                                  \
    X(BITWISE_XOR, "bitwise_xor")                                                \
    X(BITWISE_NOT, "bitwise_not")                                                \
    X(BITWISE_LEFT_SHIFT, "bitwise_left_shift")                                  \
    X(BITWISE_RIGHT_SHIFT, "bitwise_right_shift")                                \
    X(EXP2, "exp2")                                                              \
    X(LOG2, "log2")                                                              \
    X(LOG10, "log10")                                                            \
    X(TAN, "tan")                                                                \
    X(ASIN, "asin")                                                              \
    X(ACOS, "acos")                                                              \
    X(ATAN, "atan")                                                              \
    X(SINH, "sinh")                                                              \
    X(COSH, "cosh")                                                              \
    X(ASINH, "asinh")                                                            \
    X(ACOSH, "acosh")                                                            \
    X(ATANH, "atanh")                                                            \
    X(ERFC, "erfc")                                                              \
    X(SILU, "silu")                                                              \
    X(SOFTPLUS, "softplus")                                                      \
    X(LEAKY_RELU, "leaky_relu")                                                  \
    X(ELU, "elu")                                                                \
    X(HARDTANH, "hardtanh")                                                      \
    X(FLOOR, "floor")                                                            \
    X(CEIL, "ceil")                                                              \
    X(ROUND, "round")                                                            \
    X(TRUNC, "trunc")                                                            \
    X(FRAC, "frac")                                                              \
    X(RECIPROCAL, "reciprocal")                                                  \
    X(SQUARE, "square")                                                          \
    X(ISNAN, "isnan")                                                            \
    X(ISINF, "isinf")                                                            \
    X(ISFINITE, "isfinite")                                                      \
    X(NAN_TO_NUM, "nan_to_num")                                                  \
    X(LERP, "lerp")                                                              \
    X(ADDCMUL, "addcmul")                                                        \
    X(ADDCDIV, "addcdiv")

/* Reductions over the dims in tsr_reduce_attrs.dims_mask. The output always
 * has the input's rank, with reduced dims of size 1 (the core drops them
 * when keepdim is false). max_dim and min_dim write (values, indices int64);
 * argmax and argmin write int64; all and any write bool. A backend may also
 * register sum, nansum and prod from bool or an integer narrower than int64
 * to an int64 output (accumulating in int64): the core then passes the
 * input as it is instead of a widened copy. */
#define TSR_OP_LIST_REDUCE(X)                                                    \
    X(SUM, "sum")                                                                \
    X(NANSUM, "nansum")                                                          \
    X(PROD, "prod")                                                              \
    X(MEAN, "mean")                                                              \
    X(NANMEAN, "nanmean")                                                        \
    X(AMAX, "amax")                                                              \
    X(AMIN, "amin")                                                              \
    X(MAX_DIM, "max")                                                            \
    X(MIN_DIM, "min")                                                            \
    X(ARGMAX, "argmax")                                                          \
    X(ARGMIN, "argmin")                                                          \
    X(VAR, "var")                                                                \
    X(STD, "std")                                                                \
    X(ALL, "all")                                                                \
    X(ANY, "any")                                                                \
    X(NORM, "linalg_vector_norm")                                                \
    X(LOGSUMEXP, "logsumexp")                                                    \
    X(COUNT_NONZERO, "count_nonzero")

/* Scans along tsr_scan_attrs.dim; cummax/cummin write (values, indices). */
#define TSR_OP_LIST_SCAN(X)                                                      \
    X(CUMSUM, "cumsum")                                                          \
    X(CUMPROD, "cumprod")                                                        \
    X(CUMMAX, "cummax")                                                          \
    X(CUMMIN, "cummin")                                                          \
    X(LOGCUMSUMEXP, "logcumsumexp")

/* matmul: inputs (a [..., M, K], b [..., K, N], optional c broadcastable to
 * the output) with batch dims already broadcast; out = beta*c + alpha*(a@b),
 * tsr_elementwise_attrs.scalars = {alpha, beta}, mode 1 when c is given. */
#define TSR_OP_LIST_PRODUCT(X)                                                   \
    X(MATMUL, "matmul")

/* Indexing kernels take tsr_index_attrs. Index tensors are int64, and every
 * tensor has at least one dim (the core views 0-d tensors as [1]). A kernel
 * checks every index before writing anything and reports one outside its
 * dim as TSR_ERR_INDEX with a message naming the value.
 *   index_select: (input, index [n]) along dim -> input's shape with n at dim.
 *   gather: (input, index) along dim -> index's shape; same ranks.
 *   scatter: (self, index, src) -> out = self, then each src element combined
 *   into out at its index along dim, in index order: reduce = TSR_REDUCE_*
 *   (NONE replaces; without TSR_INDEX_INCLUDE_SELF an element of self that
 *   receives values starts from the reduction's identity); with
 *   TSR_INDEX_SCALAR_SRC the inputs are (self, index) and `value` is the src.
 *   index_add / index_copy: (self, index [n], source) along dim, the same way;
 *   index_add's alpha in `value`. These three copy self into the output
 *   themselves unless the two are the same memory (the in-place forms).
 *   nonzero: (input) -> (int64 [n, ndim]) with n known to the core.
 *   tril / triu: (input), diagonal in `offset`, over the last two dims. */
#define TSR_OP_LIST_INDEX(X)                                                     \
    X(INDEX_SELECT, "index_select")                                              \
    X(GATHER, "gather")                                                          \
    X(SCATTER, "scatter")                                                        \
    X(INDEX_ADD, "index_add")                                                    \
    X(INDEX_COPY, "index_copy")                                                  \
    X(NONZERO, "nonzero")                                                        \
    X(TRIL, "tril")                                                              \
    X(TRIU, "triu")

/* sort: (input) -> (values, indices int64) along dim, stable, NaN last
 * (first with TSR_INDEX_DESCENDING), -0.0 equal to +0.0. searchsorted:
 * (sorted_sequence [..., m], values [..., k]) of one dtype and rank with
 * equal leading dims (the core expands a 1-d sequence with 0 strides) ->
 * values' shape in int64 (int32 when dtype_out is int32); `right` in flags. */
#define TSR_OP_LIST_SORT(X)                                                      \
    X(SORT, "sort")                                                              \
    X(SEARCHSORTED, "searchsorted")

/* softmax / log_softmax along tsr_scan_attrs.dim, computed in the input's
 * dtype (the core converts for the dtype= argument). layer_norm: (x, weight?,
 * bias?) over the last `normalized_ndim` dims -> (y, mean, rstd) with mean
 * and rstd shaped like x with those dims of size 1; rms_norm likewise ->
 * (y, rstd). Norm attributes are tsr_index_attrs: offset = normalized_ndim,
 * eps. num_inputs says which parameters are present, in order (a bias comes
 * with a weight: the core passes ones for a missing one); parameters have
 * the normalized dims' shape, and every tensor has x's dtype.
 * cross_entropy (ABI 1.1) with class indices, attributes in
 * tsr_cross_entropy_attrs: (logits [N, C, d...], target int64 [N, d...],
 * weight [C] when num_inputs is 3) -> (loss, lse, picked), each [N, d...]
 * in the logits' dtype, where per sample lse = log(sum_c exp(x_c)) (NaN
 * when the row holds +inf, NaN or only -inf), picked = weight[t] (1 without
 * weight) and, with s = label_smoothing,
 *     loss = (1 - s) picked (lse - x_t) + s / C sum_c weight[c] (lse - x_c);
 * loss and picked are 0 where t is ignore_index. The core checks targets
 * first and reduces itself ('mean' is sum(loss) / sum(picked)); lse lets
 * the backward rebuild log_softmax as x - lse without another row pass. */
#define TSR_OP_LIST_NN(X)                                                        \
    X(SOFTMAX, "softmax")                                                        \
    X(LOG_SOFTMAX, "log_softmax")                                                \
    X(LAYER_NORM, "layer_norm")                                                  \
    X(RMS_NORM, "rms_norm")                                                      \
    X(CROSS_ENTROPY, "cross_entropy")

/* Pooling (ABI 1.2). Every tensor is batched and channelled: [N, C, s...]
 * with d = tsr_pool_attrs.spatial spatial dims (1, 2 or 3), so ndim = 2 + d;
 * the core adds N = 1 for an unbatched input. A (n, c) pair is a "plane";
 * an index is the flat offset of an input element within its plane,
 * sum_k i_k * prod_{j > k} in_j (PyTorch's return_indices). The core fixes
 * the output shape (in[k] input sizes, out[k] output sizes) and checks every
 * argument; N or C may be 0. Key (dtype, dtype): the values' dtype; indices
 * are always int64. Windows, per spatial dim k:
 *   max/avg: start = o * stride[k] - padding[k], taps at start + j*dilation[k]
 *     for j in [0, kernel[k]) that fall in [0, in[k]) (avg: dilation 1).
 *   adaptive: [floor(o * in / out), ceil((o + 1) * in / out)).
 * Kernels:
 *   pool_max: (x [N, C, in...]) -> (y [N, C, out...], indices int64 same
 *     shape). y is the first maximum in window order (row-major over the
 *     taps), except that a NaN replaces any value and any NaN before it (the
 *     index is the last NaN's, as PyTorch); a window of -inf only gives -inf
 *     with the first tap's index.
 *   pool_max_backward: (grad_y [N, C, out...], indices int64 same shape)
 *     -> (grad_x [N, C, in...]): zeros, then grad_x[plane][indices[e]] +=
 *     grad_y[e] for every e in order. Serves max and adaptive max (whose
 *     attributes are the forward's: kernel[0] is 0 after adaptive max); a
 *     kernel reports an index outside [0, prod in) as TSR_ERR_INDEX.
 *   pool_avg: (x) -> (y): the sum of the window's taps over the divisor:
 *     divisor > 0 when given; else, with count_include_pad, the window's
 *     size clipped to [-padding, in + padding); else its taps inside the
 *     input. Sums in the dtype (float for bfloat16; int64 divides truncating).
 *   pool_avg_backward: (grad_y [N, C, out...]) -> (grad_x [N, C, in...]):
 *     zeros, then each tap of each window += grad_y / its divisor.
 *   pool_adaptive_avg: (x) -> (y): window sum, divided by each window
 *     extent in turn (PyTorch's sum / kd / kh / kw).
 *   pool_adaptive_avg_backward: (grad_y) -> (grad_x): each tap += grad_y
 *     divided by the window extents in turn.
 *   pool_adaptive_max: (x) -> (y, indices), the rules of pool_max.
 * ceil_mode only fixed the output shape and is passed for a kernel that
 * wants to know; a kernel never reads an element outside the input. */
typedef struct tsr_pool_attrs {
    uint32_t struct_size;
    int32_t spatial;      /* d: 1, 2 or 3 */
    int64_t kernel[3];    /* per spatial dim; unused by adaptive ops */
    int64_t stride[3];
    int64_t padding[3];
    int64_t dilation[3];  /* 1 for avg */
    int32_t ceil_mode;
    int32_t count_include_pad;
    int64_t divisor;      /* divisor_override; 0: none */
} tsr_pool_attrs;

#define TSR_OP_LIST_POOL(X)                                                      \
    X(POOL_MAX, "pool_max")                                                      \
    X(POOL_MAX_BACKWARD, "pool_max_backward")                                    \
    X(POOL_AVG, "pool_avg")                                                      \
    X(POOL_AVG_BACKWARD, "pool_avg_backward")                                    \
    X(POOL_ADAPTIVE_AVG, "pool_adaptive_avg")                                    \
    X(POOL_ADAPTIVE_AVG_BACKWARD, "pool_adaptive_avg_backward")                  \
    X(POOL_ADAPTIVE_MAX, "pool_adaptive_max")
/* Convolution (ABI 1.2). Every kernel takes tsr_conv_attrs; r is its
 * spatial_ndim (1, 2 or 3), and for each spatial dim d the window count is
 *     out[d] = (in[d] + padding[d] + padding_end[d]
 *               - dilation[d] * (kernel[d] - 1) - 1) / stride[d] + 1   (>= 1),
 * window o of dim d reading input positions o * stride[d] - padding[d] +
 * j * dilation[d] for j in [0, kernel[d]); positions outside [0, in[d]) are
 * zeros. K = kernel[0] * ... * kernel[r-1], L = out[0] * ... * out[r-1];
 * kernel offsets (j0, .., j{r-1}) and window positions are numbered
 * row-major (the last spatial dim fastest). Keys are (dtype, dtype): every
 * operand and the output have that dtype.
 *   im2col: (x [N, C, in...]) -> cols [N, C*K, L], cols[n, c*K + j, l] =
 *     x at channel c, offset j, window l (0 for padding); groups is 1.
 *   col2im: its adjoint: (cols [N, C*K, L]) -> x [N, C, in...] (in... from
 *     the output descriptor), each x element the sum of every cols element
 *     im2col would have copied from it (0 where none); the kernel writes
 *     every output element. groups is 1.
 *   convolution: (x [N, Cin, in...], w [Cout, Cin/groups, kernel...], bias
 *     [Cout] when num_inputs is 3) -> y [N, Cout, out...], y[n, co, l] =
 *     bias[co] + sum over ci in co's group and j of x[n, ci, at(l, j)] *
 *     w[co, ci mod (Cin/groups), j], group of co = co / (Cout/groups).
 *   convolution_backward_data: (dy [N, Cout, out...], w) -> dx [N, Cin,
 *     in...], the adjoint in x (in... from the output descriptor, out...
 *     must follow from it by the rule above; conv_transpose is this op).
 *   convolution_backward_weight: (dy [N, Cout, out...], x [N, Cin, in...])
 *     -> dw [Cout, Cin/groups, kernel...], the adjoint in w.
 * The three convolution entries are optional: where a backend registers
 * none for a dtype, the core composes them from im2col, matmul and col2im. */
#define TSR_OP_LIST_CONV(X)                                                      \
    X(IM2COL, "im2col")                                                          \
    X(COL2IM, "col2im")                                                          \
    X(CONVOLUTION, "convolution")                                                \
    X(CONVOLUTION_BACKWARD_DATA, "convolution_backward_data")                    \
    X(CONVOLUTION_BACKWARD_WEIGHT, "convolution_backward_weight")
/* Resampling (ABI 1.2), attributes in tsr_resample_attrs. Every tensor is
 * contiguous or strided as the row's flags say, of one dtype (the row's),
 * with k spatial dims after the batch dim N and the channel dim C.
 *   upsample: (x [N, C, s_1..s_k]) -> (y [N, C, o_1..o_k]), k in 1..3, with
 *     mode TSR_RESAMPLE_NEAREST, _NEAREST_EXACT, _LINEAR (linear, bilinear,
 *     trilinear by k) or _CUBIC (k = 2). For each spatial dim with input
 *     size s, output size o and scales[d] (<= 0 meaning none) the scale is
 *       align_corners: o > 1 ? (s - 1) / (o - 1) : 0
 *       otherwise:     scales[d] > 0 ? 1 / scales[d] : s / o
 *     and output position j reads source coordinate
 *       nearest:        floor(j * scale)                 (float arithmetic)
 *       nearest_exact:  floor((j + 0.5) * scale)         (float arithmetic)
 *       linear:         align_corners ? j * scale : max((j + 0.5) * scale - 0.5, 0)
 *       cubic:          align_corners ? j * scale : (j + 0.5) * scale - 0.5
 *     (linear and cubic in float for float32 and bfloat16, in double for
 *     float64), nearest indices clamped to s - 1; linear blends the two
 *     neighbours i0 = trunc(c), i1 = min(i0 + 1, s - 1) with weights
 *     (1 - l, l), l = clamp(c - i0, 0, 1); cubic blends floor(c) - 1 ..
 *     floor(c) + 2, each index clamped into [0, s - 1], with Keys' cubic
 *     convolution weights (A = -0.75) of t = c - floor(c). A separable
 *     product of the per-dim weights, summed outermost dim first; nearest
 *     registers uint8 too. bfloat16 (as ATen's CPU kernels): the scale, t
 *     and the weights are rounded to bfloat16 (cubic weights computed in
 *     bfloat16), the coordinates computed in float, and every product and
 *     sum of the blend rounds to bfloat16.
 *   upsample_backward: (grad_y [N, C, o...]) -> (grad_x [N, C, s...]): the
 *     adjoint of upsample with the same attributes: grad_x is written whole
 *     (zeros, then every grad_y element times its weights added into the
 *     taps it read, in row-major order of y, so the result is deterministic).
 *     Nearest takes ATen's backward indexing, which is not quite the
 *     forward's: j itself when o == s and j / 2 when o == 2 s, whatever the
 *     scale.
 *   grid_sampler: (x [N, C, s_1..s_k], grid [N, o_1..o_k, k]) ->
 *     (y [N, C, o_1..o_k]), k in 2..3; grid[..., 0] addresses the last
 *     spatial dim (width), grid[..., 1] the one before, grid[..., 2] depth.
 *     A coordinate g in [-1, 1] maps to align_corners ? (g + 1) / 2 * (s - 1)
 *     : ((g + 1) * s - 1) / 2, then padding_mode TSR_GRID_PAD_BORDER clips
 *     it into [0, s - 1], _REFLECTION reflects it about the borders (about
 *     the corner pixel centres with align_corners, the image edges without)
 *     and clips; with _ZEROS taps outside the input read 0. Coordinates
 *     that are infinite or beyond +-INT_MAX become -100 (out of range).
 *     mode TSR_RESAMPLE_LINEAR blends the 2^k neighbours floor(c), floor(c)+1;
 *     TSR_RESAMPLE_NEAREST takes the neighbour at nearbyint(c) (ties to
 *     even); TSR_RESAMPLE_CUBIC (k = 2) blends the 4 x 4 neighbours
 *     floor(c) - 1 .. floor(c) + 2 of the unnormalised coordinates with
 *     Keys' weights (A = -0.75), the padding mode applied to each tap's
 *     coordinates (zeros: taps outside read 0). scales are ignored.
 *   grid_sampler_backward: (grad_y, x, grid) -> (grad_x [x's shape],
 *     grad_grid [grid's shape]), both written whole; grad_x accumulates in
 *     row-major order of y; grad_grid is the derivative through the
 *     unnormalisation and the padding (0 where clipping is flat, 0 for
 *     nearest; for cubic through the unnormalisation only, the taps'
 *     padding held fixed, as ATen). */
#define TSR_OP_LIST_RESAMPLE(X)                                                  \
    X(UPSAMPLE, "upsample")                                                      \
    X(UPSAMPLE_BACKWARD, "upsample_backward")                                    \
    X(GRID_SAMPLER, "grid_sampler")                                              \
    X(GRID_SAMPLER_BACKWARD, "grid_sampler_backward")
/* Discrete Fourier transforms (ABI 1.2), attributes in tsr_fft_attrs. Each
 * transforms along every dim d whose bit is set in axes_mask (at least one;
 * a 0-d tensor has none to transform), one dim after another; the result's
 * values depend on the operand's values alone, never on its layout or batch.
 * With X the input, n_d the points along dim d and s = +1 for
 * TSR_FFT_INVERSE, -1 for TSR_FFT_FORWARD, along one dim
 *     Y[k] = scale * sum_{j < n} X[j] exp(s 2 pi i j k / n),
 * where scale is the product over the transformed dims of 1 (norm
 * TSR_FFT_NORM_NONE), 1/n_d (TSR_FFT_NORM_BY_N) or 1/sqrt(n_d)
 * (TSR_FFT_NORM_BY_SQRT_N), applied once to the whole result.
 *   fft_c2c: (complex64 | complex128 x) -> the same dtype and shape, in
 *     `direction`.
 *   fft_r2c: (float32 | float64 x) -> complex64 | complex128, the
 *     transform in `direction`; along the last transformed dim L (highest
 *     bit of axes_mask) the output holds bins 0 to n/2 only, so its extent
 *     there is n/2 + 1 (n the input's), every other extent the input's.
 *     (torch.fft.rfft is the forward one; ihfft the inverse one.)
 *   fft_c2r: (complex64 | complex128 x) -> float32 | float64, the transform
 *     in `direction` along every dim but L, then along L the real part of
 *     the transform of the n points X'[k] = X[k] for k <= n/2 and
 *     conj(X[n - k]) above, n being the OUTPUT's extent along L and the
 *     input's extent there n/2 + 1. The imaginary parts of bin 0 and, for
 *     even n, of bin n/2 never contribute: this is one linear map for every
 *     operand, Hermitian or not. The norm's n_d along L is n; other extents
 *     equal the input's. (irfft is the inverse one; hfft the forward one.)
 * A transform of zero points is the empty sum (an r2c of n = 0 gives one
 * bin of +0); the core refuses those before any kernel runs, as PyTorch.
 * A kernel states its error bound (docs/accuracy.md, "Fourier transforms"). */
#define TSR_OP_LIST_FFT(X)                                                       \
    X(FFT_C2C, "fft_c2c")                                                        \
    X(FFT_R2C, "fft_r2c")                                                        \
    X(FFT_C2R, "fft_c2r")
/* Linear algebra (ABI 1.2). Each kernel factors or solves every matrix of
 * its operands on its own: the last two dims are the matrix, the dims before
 * them the batch, equal on every operand (the core broadcasts and checks
 * shapes). dtype_in = dtype_out = the matrices' dtype, one of float32,
 * float64, complex64, complex128; integer outputs are int32. Every kernel
 * writes info [batch...], int32, one per matrix, and never fails because of
 * a matrix's values: a failure is reported in info alone. Attributes in
 * tsr_linalg_attrs (flags TSR_LINALG_*). A matrix's results depend on its
 * values alone, not on its batch position, its layout or the thread count.
 *   linalg_cholesky: (a [..., n, n]) -> (L [..., n, n], info). Reads a's
 *     lower triangle and the real parts of its diagonal only; writes L lower
 *     triangular, real positive diagonal, zeros above, a = L L^H. With
 *     TSR_LINALG_UPPER it reads a's upper triangle instead (the Hermitian
 *     matrix it names) and writes U = L^H, zeros below. info = 0, or k >= 1
 *     when the leading minor of order k is not positive-definite (its pivot
 *     is <= 0; a NaN pivot is no failure, it spreads NaN, as in OpenBLAS and
 *     so PyTorch): then columns before k hold L, L_kk holds that pivot and
 *     what columns after k hold is unspecified.
 *   linalg_lu: (a [..., m, n]) -> (LU [..., m, n], pivots [..., min(m, n)],
 *     info). Partial pivoting: at step j the row of largest |re| + |im| in
 *     column j at or below j (the first such row) is swapped with row j and
 *     pivots[j] is its 1-based number, as LAPACK's getrf and PyTorch. LU
 *     holds L's multipliers below the diagonal (L's unit diagonal unstored)
 *     and U on and above. info = 0, or the 1-based k of the first U_kk that
 *     is exactly zero; the factorisation is completed anyway (a zero pivot's
 *     column of L is not divided).
 *   linalg_solve_triangular: (a [..., n, n], b [..., n, k]) -> (x [..., n, k],
 *     info): x = a^-1 b by substitution, reading a's upper triangle with
 *     TSR_LINALG_UPPER, else its lower, taking ones for its diagonal with
 *     TSR_LINALG_UNIT_DIAGONAL, and each element's conjugate with
 *     TSR_LINALG_CONJ (with a transposed view of a, the adjoint solve). info = 0, or the 1-based k of the first
 *     zero diagonal element read; x then holds what IEEE division gives
 *     (infinities and NaN). x may be the same memory as b.
 *   linalg_qr: (a [..., m, n]) -> (q [..., m, k or m], r [..., k or m, n],
 *     info), k = min(m, n): Householder QR, a = q r, q's columns orthonormal
 *     (the first k of the reflectors' product, or all m: the shapes say
 *     which), r upper triangular with zeros below, its diagonal real.
 *   linalg_eigh: (a [..., n, n]) -> (w [..., n] of a's real precision,
 *     v [..., n, n], info): a v = v diag(w), w ascending, v's columns
 *     orthonormal, reading a's lower triangle (upper with TSR_LINALG_UPPER)
 *     and the real parts of its diagonal. info = 0, or k > 0 when the
 *     iteration did not converge; a matrix holding a NaN or an infinity
 *     gives NaN in w and v.
 *   linalg_svd: (a [..., m, n]) -> (s [..., k] real, u [..., m, k or m],
 *     vh [..., k or n, n], info): a = u diag(s) vh over u's first k columns
 *     and vh's first k rows, s descending and not negative, u's columns and
 *     vh's rows orthonormal (completed past a's rank). info as eigh's.
 *   linalg_geqrf: (a [..., m, n]) -> (qr [..., m, n], tau [..., k], info):
 *     LAPACK's geqrf layout, R on and above the diagonal (its diagonal
 *     real), the reflectors' v below it (v_j = 1 unstored), Q = H_0 ... H_(k-1)
 *     with H_j = I - tau_j v_j v_j^H. info = 0.
 *   linalg_eig: (a [..., n, n]) -> (w [..., n], v [..., n, n], info), w and
 *     v complex (complex64 for float32 a, complex128 for float64; dtype_out
 *     names it): a v = v diag(w), v's columns of unit 2-norm, in the order
 *     the kernel's Schur form leaves them. info as eigh's. */
#define TSR_OP_LIST_LINALG(X)                                                    \
    X(LINALG_CHOLESKY, "linalg_cholesky")                                        \
    X(LINALG_LU, "linalg_lu")                                                    \
    X(LINALG_SOLVE_TRIANGULAR, "linalg_solve_triangular")                        \
    X(LINALG_QR, "linalg_qr")                                                    \
    X(LINALG_EIGH, "linalg_eigh")                                                \
    X(LINALG_SVD, "linalg_svd")                                                  \
    X(LINALG_GEQRF, "geqrf")                                                     \
    X(LINALG_EIG, "linalg_eig")

typedef enum tsr_op {
#define TSR_OP_ENUM_(id, name) TSR_OP_##id,
    TSR_OP_LIST(TSR_OP_ENUM_)
#undef TSR_OP_ENUM_
    TSR_OP_COUNT
} tsr_op;

/* ------------------------------------------------------------------------ */
/* Kernel interface                                                          */
/* ------------------------------------------------------------------------ */

/* A tensor as a kernel sees it, shaped like DLPack's DLTensor. `data` is the
 * backend's own memory handle (a host pointer for host backends, an opaque
 * buffer object for devices); the first element is `byte_offset` bytes into
 * it. Strides count elements, may be zero (broadcast) and are never NULL. */
typedef struct tsr_tensor_desc {
    void *data;
    int64_t byte_offset;
    int32_t dtype; /* tsr_dtype */
    int32_t ndim;
    const int64_t *shape;
    const int64_t *strides;
} tsr_tensor_desc;

/* Attributes of elementwise ops. Which members an op reads:
 *  add, sub: scalars[0] = alpha: a bool scalar for bool, an int scalar for
 *            integer dtypes, a float scalar for floating ones, float or
 *            complex for complex dtypes
 *  fill:     scalars[0] = value
 *  div:      mode = TSR_ROUND_*
 *  gelu:     mode = TSR_GELU_*
 *  clamp:    inputs are (x, min, max); mode bit 1 = min present, bit 2 = max present;
 *            an absent bound's input descriptor repeats x and must be ignored. */
typedef struct tsr_elementwise_attrs {
    uint32_t struct_size;
    int32_t mode;
    tsr_scalar scalars[4];
} tsr_elementwise_attrs;

/* Reductions. Bit d of dims_mask set means input dim d is reduced. */
typedef struct tsr_reduce_attrs {
    uint32_t struct_size;
    uint32_t dims_mask;
    double correction; /* var, std: divisor is N - correction */
    double p;          /* linalg_vector_norm's ord (inf as HUGE_VAL) */
} tsr_reduce_attrs;

/* Scans and softmax-like ops along one dim. */
typedef struct tsr_scan_attrs {
    uint32_t struct_size;
    int32_t dim;
} tsr_scan_attrs;

enum {
    TSR_REDUCE_NONE = 0, /* plain scatter: src replaces */
    TSR_REDUCE_SUM = 1,
    TSR_REDUCE_PROD = 2,
    TSR_REDUCE_MEAN = 3,
    TSR_REDUCE_AMAX = 4,
    TSR_REDUCE_AMIN = 5,
};

/* Indexing, sorting and normalisation ops. */
typedef struct tsr_index_attrs {
    uint32_t struct_size;
    int32_t dim;
    int32_t reduce;       /* TSR_REDUCE_* for scatter */
    int32_t flags;        /* TSR_INDEX_* */
    int64_t offset;       /* tril/triu diagonal; layer_norm/rms_norm normalized_ndim */
    double eps;           /* layer_norm, rms_norm */
    tsr_scalar value;     /* index_add alpha; scatter's scalar src */
} tsr_index_attrs;

enum {
    TSR_INDEX_INCLUDE_SELF = 1 << 0, /* scatter_reduce include_self */
    TSR_INDEX_DESCENDING = 1 << 1,   /* sort */
    TSR_INDEX_RIGHT = 1 << 2,        /* searchsorted side='right' */
    TSR_INDEX_SCALAR_SRC = 1 << 3,   /* scatter with value instead of src */
};

enum { TSR_ROUND_NONE = 0, TSR_ROUND_TRUNC = 1, TSR_ROUND_FLOOR = 2 };

/* cross_entropy with class indices (ABI 1.1). */
typedef struct tsr_cross_entropy_attrs {
    uint32_t struct_size;
    int32_t reserved; /* 0 */
    int64_t ignore_index;
    double label_smoothing; /* in [0, 1] */
} tsr_cross_entropy_attrs;
/* Convolution geometry (ABI 1.2), for every TSR_OP_LIST_CONV kernel.
 * Entries past spatial_ndim are unused. padding_end equals padding except
 * for PyTorch's padding='same' with an odd total d*(k-1), where it is one
 * more, and for conv_transpose with output_padding >= stride (allowed while
 * output_padding < dilation): there the core passes the col2im and
 * convolution_backward_data calls a padding_end below padding, possibly
 * negative, so that the window count of the larger output still equals the
 * input's; the last positions of such an output are in no window (0). */
enum { TSR_CONV_MAX_SPATIAL = 3 };
typedef struct tsr_conv_attrs {
    uint32_t struct_size;
    int32_t spatial_ndim;                       /* 1, 2 or 3 */
    int64_t kernel[TSR_CONV_MAX_SPATIAL];       /* >= 1 */
    int64_t stride[TSR_CONV_MAX_SPATIAL];       /* >= 1 */
    int64_t padding[TSR_CONV_MAX_SPATIAL];      /* >= 0 zeros before each spatial dim */
    int64_t padding_end[TSR_CONV_MAX_SPATIAL];  /* zeros after (see above) */
    int64_t dilation[TSR_CONV_MAX_SPATIAL];     /* >= 1 */
    int64_t groups;                             /* >= 1, divides Cin and Cout */
} tsr_conv_attrs;

/* Fourier transforms (ABI 1.2): see TSR_OP_LIST_FFT. */
typedef struct tsr_fft_attrs {
    uint32_t struct_size;
    uint32_t axes_mask; /* bit d: transform along dim d */
    int32_t direction;  /* TSR_FFT_FORWARD or TSR_FFT_INVERSE */
    int32_t norm;       /* TSR_FFT_NORM_* */
} tsr_fft_attrs;
enum { TSR_FFT_FORWARD = -1, TSR_FFT_INVERSE = 1 };
enum { TSR_FFT_NORM_NONE = 0, TSR_FFT_NORM_BY_N = 1, TSR_FFT_NORM_BY_SQRT_N = 2 };
/* Linear algebra kernels (ABI 1.2). */
typedef struct tsr_linalg_attrs {
    uint32_t struct_size;
    int32_t flags; /* TSR_LINALG_* */
} tsr_linalg_attrs;
enum {
    TSR_LINALG_UPPER = 1 << 0,         /* cholesky, solve_triangular, eigh: the upper triangle */
    TSR_LINALG_UNIT_DIAGONAL = 1 << 1, /* solve_triangular: ones on the diagonal */
    TSR_LINALG_CONJ = 1 << 2,          /* solve_triangular: a's conjugate */
};
enum { TSR_GELU_NONE = 0, TSR_GELU_TANH = 1 };
/* Resampling (ABI 1.2): upsample and grid_sampler, see TSR_OP_LIST_RESAMPLE. */
typedef struct tsr_resample_attrs {
    uint32_t struct_size;
    int32_t mode;          /* TSR_RESAMPLE_* */
    int32_t align_corners; /* 0 or 1 */
    int32_t padding_mode;  /* TSR_GRID_PAD_* (grid_sampler only) */
    double scales[3];      /* upsample: per spatial dim, <= 0 for none */
} tsr_resample_attrs;
enum {
    TSR_RESAMPLE_NEAREST = 0,
    TSR_RESAMPLE_NEAREST_EXACT = 1,
    TSR_RESAMPLE_LINEAR = 2,
    TSR_RESAMPLE_CUBIC = 3,
};
enum { TSR_GRID_PAD_ZEROS = 0, TSR_GRID_PAD_BORDER = 1, TSR_GRID_PAD_REFLECTION = 2 };
/* TSR_CLAMP_SCALAR_BOUNDS: the bounds were Python scalars. PyTorch's scalar
 * clamp then ignores a single NaN bound (with both bounds given, a NaN bound
 * still gives NaN); a tensor bound's NaN always propagates. */
enum { TSR_CLAMP_HAS_MIN = 1, TSR_CLAMP_HAS_MAX = 2, TSR_CLAMP_SCALAR_BOUNDS = 4 };
/* lerp's mode bit: the weight is the Python scalar in scalars[0]. */
enum { TSR_LERP_SCALAR_WEIGHT = 1 };

typedef struct tsr_kernel_args {
    uint32_t struct_size;
    int32_t op; /* tsr_op */
    int32_t num_inputs;
    int32_t num_outputs;
    const tsr_tensor_desc *inputs;
    const tsr_tensor_desc *outputs;
    const void *attrs; /* op-specific, may be NULL; starts with its struct_size */
} tsr_kernel_args;

/* Runs (or enqueues) one op. Returns TSR_OK or a negative tsr_status after
 * describing the problem through tsr_host_api.set_error. */
typedef int (*tsr_kernel_fn)(void *backend, const tsr_kernel_args *args);

/* What a kernel accepts. Without a flag the core prepares operands for it:
 * contiguous copies instead of strided views, materialised broadcasts,
 * a separate output instead of an in-place one. */
enum {
    TSR_KERNEL_STRIDED = 1u << 0,   /* any non-negative strides */
    TSR_KERNEL_BROADCAST = 1u << 1, /* zero strides on inputs */
    TSR_KERNEL_INPLACE = 1u << 2,   /* output may be the same memory as an input */
};

/* One row of a backend's kernel table. dtype_in is the dtype of the
 * (converted) inputs, dtype_out of the output; see TSR_OP_LIST for the
 * per-op convention. */
typedef struct tsr_kernel_entry {
    int32_t op;
    int32_t dtype_in;
    int32_t dtype_out;
    uint32_t flags;
    tsr_kernel_fn fn;
} tsr_kernel_entry;

/* ------------------------------------------------------------------------ */
/* Host services (core → plugin)                                             */
/* ------------------------------------------------------------------------ */

enum { TSR_LOG_ERROR = 0, TSR_LOG_WARN = 1, TSR_LOG_INFO = 2, TSR_LOG_DEBUG = 3 };

typedef struct tsr_host_api {
    uint32_t struct_size;
    uint32_t abi_version; /* TSR_PLUGIN_ABI_VERSION of the core */
    /* Writes a diagnostic to the core's log (TESSERA_LOG). */
    void (*log)(int level, const char *plugin, const char *fmt, ...);
    /* Sets the calling thread's error message; the core adds the op and the
     * backend's name in front. Returns `status` for convenient tail calls. */
    int (*set_error)(int status, const char *fmt, ...);
} tsr_host_api;

/* ------------------------------------------------------------------------ */
/* The plugin table (plugin → core)                                          */
/* ------------------------------------------------------------------------ */

enum {
    /* Memory handles are host pointers the core may read and write directly
     * (after synchronize). Host backends set it; device backends do not. */
    TSR_PLUGIN_HOST_MEMORY = 1u << 0,
};

typedef struct tsr_plugin {
    uint32_t struct_size;
    uint32_t abi_version; /* TSR_PLUGIN_ABI_VERSION the plugin was built with */
    const char *name;     /* short, lower case: "reference", "vulkan" */
    const char *version;
    uint32_t flags;       /* TSR_PLUGIN_* */

    /* (optional) Side-effect free check whether init can succeed. Returns a
     * score (higher is preferred, negative means unusable) and writes a reason
     * such as "driver present, no device". Defaults to score 0. */
    int (*probe)(const tsr_host_api *host, char *reason, size_t reason_capacity);

    /* Creates the backend's state. May fail cleanly, after set_error. */
    int (*init)(const tsr_host_api *host, void **backend);
    /* Releases everything; called once, after every allocation was freed. */
    void (*shutdown)(void *backend);

    /* (optional) One line describing the device(s), e.g. "llvmpipe (LLVM 15)". */
    int (*describe)(void *backend, char *text, size_t capacity);

    /* The kernel table, borrowed until shutdown. May depend on the device
     * found at init. */
    int (*kernels)(void *backend, const tsr_kernel_entry **entries, size_t *count);

    /* Device memory. alloc of zero bytes must still return a distinct handle.
     * free must be safe while work using the memory is still queued. */
    int (*memory_alloc)(void *backend, size_t bytes, void **handle);
    void (*memory_free)(void *backend, void *handle);

    /* Transfers. copy_from_host may return before the device has the data,
     * but must not read `src` after returning. copy_to_host returns when the
     * bytes are in `dst` (it waits for queued work writing them). */
    int (*copy_from_host)(void *backend, void *dst, size_t dst_offset, const void *src,
                          size_t bytes);
    int (*copy_to_host)(void *backend, void *dst, const void *src, size_t src_offset,
                        size_t bytes);
    /* (optional) Defaults to a round trip through host memory. */
    int (*copy_on_device)(void *backend, void *dst, size_t dst_offset, const void *src,
                          size_t src_offset, size_t bytes);
    /* (optional) Waits for all queued work. Defaults to nothing to wait for. */
    int (*synchronize)(void *backend);
} tsr_plugin;

/* The one exported symbol. Returns the plugin's table (static storage, valid
 * until the library is unloaded) or NULL when the plugin refuses this host,
 * after host->set_error where possible. */
typedef const tsr_plugin *(*tsr_plugin_entry_fn)(const tsr_host_api *host, uint32_t host_abi);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_PLUGIN_H */
