/* Elementwise ops as data: each op family describes its ops in a table of
 * tsr__ref_elementwise_op, and one generic kernel runs any of them. The same
 * tables produce the kernel table, so what is registered is exactly what is
 * implemented. */
#ifndef TSR_REFERENCE_ELEMENTWISE_H
#define TSR_REFERENCE_ELEMENTWISE_H

#include <stddef.h>
#include <stdint.h>

#include <tessera/plugin.h>

#include "backend.h"
#include "wide.h"

/* Per-call constants an element function may read. */
typedef struct tsr__ref_elem_ctx {
    tsr__ref_wide alpha;     /* add, sub: alpha rounded to the computation dtype */
    int32_t mode;            /* the op's table constant; clamp: TSR_CLAMP_* bits */
    tsr__ref_round_fn round; /* to the computation dtype's precision */
    /* To PyTorch's opmath type for the dtype: float for float16, bfloat16
     * and float32, the identity for float64; for steps PyTorch computes in
     * that type before going on. */
    tsr__ref_round_fn opmath_round;
    /* The op's other attribute scalars (softplus's beta and threshold, ...),
     * converted by its bind function. */
    tsr__ref_wide params[4];
} tsr__ref_elem_ctx;

/* Computes one element from the op's inputs, all in one category. */
typedef void (*tsr__ref_elem_fn)(tsr__ref_wide *out, const tsr__ref_wide *in,
                                 const tsr__ref_elem_ctx *ctx);

/* The output dtype of an op, given its computation dtype. */
typedef enum tsr__ref_result {
    TSR__REF_RESULT_SAME, /* the computation dtype */
    TSR__REF_RESULT_BOOL, /* comparisons and logical ops */
    TSR__REF_RESULT_REAL, /* abs: a complex dtype gives its parts' dtype */
} tsr__ref_result;

/* What one kernel call runs, chosen before the element loop. */
typedef struct tsr__ref_elem_call {
    tsr__ref_elem_fn fn;
    tsr__ref_elem_ctx ctx;
    /* Integer division: fail with "division by zero" before writing
     * anything when input 1 holds a zero. */
    int check_zero_divisor;
} tsr__ref_elem_call;

typedef struct tsr__ref_bind_args {
    const tsr__ref_backend *backend;
    const tsr_elementwise_attrs *attrs; /* NULL when the call has none */
    int32_t dtype;                      /* computation dtype */
    tsr__ref_category category;
} tsr__ref_bind_args;

typedef struct tsr__ref_elementwise_op {
    int32_t op;      /* tsr_op */
    int32_t arity;   /* inputs */
    int32_t result;  /* tsr__ref_result */
    uint32_t dtypes; /* TSR__REF_SET_* mask of the computation dtypes PyTorch supports */
    /* The element function per category of the computation dtype. */
    tsr__ref_elem_fn fn[TSR__REF_CATEGORY_COUNT];
    /* Handed to the element functions as ctx->mode, so ops that differ in a
     * constant only (comparisons, logical ops) share their functions. */
    int32_t constant;
    /* (optional) Reads the op's attributes into `call` (fn, ctx, checks).
     * Returns TSR_OK or an error already reported to the host. */
    int (*bind)(const tsr__ref_bind_args *args, tsr__ref_elem_call *call);
} tsr__ref_elementwise_op;

/* One file's ops. */
typedef struct tsr__ref_op_family {
    const tsr__ref_elementwise_op *ops;
    size_t count;
} tsr__ref_op_family;

extern const tsr__ref_op_family tsr__ref_arith_family;       /* elementwise_arith.c */
extern const tsr__ref_op_family tsr__ref_division_family;    /* elementwise_division.c */
extern const tsr__ref_op_family tsr__ref_compare_family;     /* elementwise_compare.c */
extern const tsr__ref_op_family tsr__ref_unary_family;       /* elementwise_unary.c */
extern const tsr__ref_op_family tsr__ref_clamp_family;       /* elementwise_select.c */
extern const tsr__ref_op_family tsr__ref_binary_math_family; /* elementwise2_binary.c */
extern const tsr__ref_op_family tsr__ref_bitwise_family;     /* elementwise2_bitwise.c */
extern const tsr__ref_op_family tsr__ref_unary_math2_family; /* elementwise2_unary.c */
extern const tsr__ref_op_family tsr__ref_activation_family;  /* elementwise2_activation.c */
extern const tsr__ref_op_family tsr__ref_rounding_family;    /* elementwise2_rounding.c */
extern const tsr__ref_op_family tsr__ref_ternary_family;     /* ternary.c */

/* Every elementwise op, for building the kernel table: `index` from 0 until
 * NULL is returned. */
const tsr__ref_elementwise_op *tsr__ref_elementwise_op_at(size_t index);

/* The table entry for `op`, or NULL when it is not an elementwise op. */
const tsr__ref_elementwise_op *tsr__ref_elementwise_op_find(int32_t op);

/* The output dtype `op` gives for computation dtype `dtype`. */
int32_t tsr__ref_elementwise_result_dtype(const tsr__ref_elementwise_op *op, int32_t dtype);

/* Attribute scalar `index` of the call, or `fallback` when the call has no
 * attributes or a block too small to hold it. */
tsr_scalar tsr__ref_bind_scalar(const tsr__ref_bind_args *args, int index, tsr_scalar fallback);

/* The scalar as the op's arithmetic type sees it: rounded to float for
 * float16, bfloat16 and float32 (PyTorch's opmath type), kept as double for
 * float64 (and complex parts likewise), converted as copy converts for
 * integer dtypes. */
void tsr__ref_bind_opmath(const tsr_scalar *scalar, int32_t dtype, tsr__ref_wide *out);

/* The kernel registered for every elementwise op: finds args->op's table
 * entry and runs it over any strides. */
int tsr__ref_kernel_elementwise(void *backend, const tsr_kernel_args *args);

#endif /* TSR_REFERENCE_ELEMENTWISE_H */
