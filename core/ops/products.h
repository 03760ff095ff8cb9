/* The one matrix product every op of the product family reduces to (internal). */
#ifndef TSR_CORE_MATMUL_H
#define TSR_CORE_MATMUL_H

#include "tensor/tensor.h"

/* beta * c + alpha * (a @ b) for a [..., M, K] and b [..., K, N] (rank 2 or
 * more) whose batch dims broadcast against each other; c is NULL or
 * broadcastable to the result [batch..., M, N]. a, b and c share one dtype
 * (the caller checks, with its own message); alpha and beta are valid for
 * it (tsr__matmul_check_coefficient). As PyTorch 1.13 on CPU: bool and
 * float16 are refused unless nothing is multiplied; an empty K gives zeros,
 * or c scaled in place by beta (with mul_'s dtype rule); beta 0 ignores c.
 * Batch broadcasting uses 0-stride views, never copies. Records one autograd
 * node named `name`, whose inputs are a, b and c as given. */
tsr_status tsr__matmul_general(const char *name, const tsr_tensor *a, const tsr_tensor *b,
                               const tsr_tensor *c, tsr_scalar alpha, tsr_scalar beta,
                               tsr_tensor **out);

/* Fails with TSR_ERR_DTYPE naming both operands unless a and b have one dtype. */
tsr_status tsr__matmul_same_dtype(const char *name, const char *what_a, const tsr_tensor *a,
                                  const char *what_b, const tsr_tensor *b);

/* Whether PyTorch 1.13 multiplies matrices of this dtype on CPU (not bool, not float16). */
bool tsr__matmul_dtype_supported(tsr_dtype dtype);

/* alpha or beta of addmm and baddbmm: a valid scalar that converts to dtype
 * without overflow (a complex value with an imaginary part needs a complex
 * dtype). `what` names it in errors. */
tsr_status tsr__matmul_check_coefficient(const char *name, const char *what, tsr_scalar s,
                                         tsr_dtype dtype);

/* A contiguous copy of complex t with its imaginary parts negated (not
 * recorded: complex tensors never require grad). */
tsr_status tsr__matmul_conjugate(const char *name, const tsr_tensor *t, tsr_tensor **out);

/* Records the node of tsr__matmul_general when autograd wants one
 * (products_grad.c). `out` is the result computed from a, b and c. */
tsr_status tsr__grad_record_matmul(const char *name, const tsr_tensor *a, const tsr_tensor *b,
                                   const tsr_tensor *c, tsr_scalar alpha, tsr_scalar beta,
                                   tsr_tensor *out);

#endif
