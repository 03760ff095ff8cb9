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
#define TSR_PLUGIN_ABI_MINOR 1
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
    TSR_OP_LIST_NN(X)

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
enum { TSR_GELU_NONE = 0, TSR_GELU_TANH = 1 };
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
