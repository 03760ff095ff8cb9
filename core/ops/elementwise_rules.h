/* Per-op rules of the elementwise ops (internal): arity, the dtype an op
 * computes in and returns, in-place forms, attribute defaults and checks.
 * One table (elementwise_rules.c) serves the foundation's ops and the
 * second family, so no code depends on the order of op ids. */
#ifndef TSR_CORE_ELEMENTWISE_RULES_H
#define TSR_CORE_ELEMENTWISE_RULES_H

#include "tensor/tensor.h"

/* How an op's computation and result dtypes follow from its inputs'. */
typedef enum tsr__ew_result {
    TSR__EW_SAME,  /* the promoted dtype */
    TSR__EW_FLOAT, /* a floating function: bool and integers compute in float32 */
    TSR__EW_BOOL,  /* comparisons, logical ops and predicates write bool */
} tsr__ew_result;

enum {
    /* self.op_() / self.op_(other) exists (tsr_unary_, tsr_binary_). */
    TSR__EW_INPLACE = 1u << 0,
    /* Integer inputs come back unchanged (floor, ceil, round, trunc);
     * PyTorch copies them without a kernel. */
    TSR__EW_INTEGER_IDENTITY = 1u << 1,
    /* As above, bool included (nan_to_num). */
    TSR__EW_INTEGRAL_IDENTITY = 1u << 2,
};

typedef struct tsr__ew_rule {
    uint8_t arity;  /* 0 for ops outside the elementwise families */
    uint8_t result; /* tsr__ew_result */
    uint8_t flags;  /* TSR__EW_* */
} tsr__ew_rule;

/* The op's rule; arity 0 for an op id that is not elementwise (or invalid). */
tsr__ew_rule tsr__ew_rule_of(tsr_op op);
/* Ops that tsr_unary / tsr_binary run. */
bool tsr__ew_is_unary(tsr_op op);
bool tsr__ew_is_binary(tsr_op op);

/* The computation and result dtypes of unary `op` on a tensor of dtype
 * `in`, with PyTorch's errors for the combinations it refuses before
 * looking for a kernel (neg of bool). */
tsr_status tsr__unary_dtypes(tsr_op op, tsr_dtype in, tsr_dtype *compute, tsr_dtype *result);
/* Whether unary `op` with these attributes (from tsr__unary_attrs) returns
 * a tensor of dtype `in` unchanged: floor of an integer tensor, round of
 * one with decimals 0, nan_to_num of integers or bool. */
bool tsr__unary_is_identity(tsr_op op, tsr_dtype in, const tsr_elementwise_attrs *attrs);

/* The attributes `op` runs with on a tensor of dtype `self` computed in
 * `compute`: `given` (NULL for the defaults PyTorch's signature has)
 * checked as PyTorch checks them (a parameter must convert to the dtype
 * without overflow; hardtanh truncates bounds to integers for integer
 * tensors and refuses negative ones for uint8), defaults filled in. */
tsr_status tsr__unary_attrs(tsr_op op, tsr_dtype self, tsr_dtype compute,
                            const tsr_elementwise_attrs *given, tsr_elementwise_attrs *out);

/* Whether `value` converts to `dtype` as PyTorch's checked Scalar::to<T>()
 * allows: within range, and no imaginary part unless dtype is complex.
 * Otherwise sets the error "name: value cannot be converted ..." . */
tsr_status tsr__scalar_check_fits(const char *name, const char *what, tsr_scalar value,
                                  tsr_dtype dtype);

#endif
