/* tessera: Matrix products: matmul, mm, bmm, dot, vdot, outer, addmm, baddbmm, einsum,
 * tensordot. Included by tessera/tessera.h; the conventions stated there apply.
 *
 * As in PyTorch 1.13 on CPU: the operands of a product must have one dtype
 * (outer, a broadcast multiply, promotes instead); bool and float16 products
 * are refused unless there is nothing to multiply (an empty result, or an
 * empty inner dimension, which gives zeros); integer products wrap around.
 * Results are computed in a fixed order over the inner dimension, so they do
 * not depend on the operands' layout. Thread-safe for distinct outputs. */
#ifndef TESSERA_PRODUCTS_H
#define TESSERA_PRODUCTS_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* Matrix and vector products                                                */
/* ======================================================================== */

/* torch.matmul(a, b), NumPy's rules: 1-d @ 1-d is tsr_dot (a 0-d
 * result); a 1-d a is a row [1, K] and a 1-d b a column [K, 1], the added
 * dim removed from the result; dims before the last two are batch dims and
 * broadcast (as views, never copied). Both operands need at least one dim. */
TSR_API tsr_status tsr_matmul(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
/* torch.mm: a [M, K] @ b [K, N], both 2-d. */
TSR_API tsr_status tsr_mm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
/* torch.bmm: a [B, M, K] @ b [B, K, N], both 3-d with equal B (no broadcasting). */
TSR_API tsr_status tsr_bmm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
/* torch.dot: sum a[i] * b[i] over two 1-d tensors of one length; a 0-d
 * result. Unlike the other products, bool and float16 are refused even for
 * empty vectors, as PyTorch's dot refuses them. */
TSR_API tsr_status tsr_dot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
/* torch.vdot: as tsr_dot with a conjugated when complex. */
TSR_API tsr_status tsr_vdot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
/* torch.outer: out[i, j] = a[i] * b[j] for 1-d a and b, promoting as mul does. */
TSR_API tsr_status tsr_outer(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);

/* torch.addmm(input, mat1, mat2, beta=beta, alpha=alpha):
 * beta * input + alpha * (mat1 @ mat2), with input broadcast to [M, N] and
 * all three of one dtype. beta 0 ignores input (NaN in it does not
 * propagate); alpha 0 ignores the product. beta and alpha are converted to
 * the dtype as PyTorch converts them (truncated for integers); a complex
 * value with an imaginary part needs a complex dtype. */
TSR_API tsr_status tsr_addmm(const tsr_tensor *input, const tsr_tensor *mat1,
                             const tsr_tensor *mat2, tsr_scalar beta, tsr_scalar alpha,
                             tsr_tensor **out);
/* torch.baddbmm(input, batch1, batch2, beta=beta, alpha=alpha): as tsr_addmm
 * over [B, M, K] @ [B, K, N]; input broadcasts to [B, M, N] and, as in
 * PyTorch, is converted to the batches' dtype. */
TSR_API tsr_status tsr_baddbmm(const tsr_tensor *input, const tsr_tensor *batch1,
                               const tsr_tensor *batch2, tsr_scalar beta, tsr_scalar alpha,
                               tsr_tensor **out);

/* ======================================================================== */
/* Contractions                                                              */
/* ======================================================================== */

/* torch.einsum(equation, operands): labels a-z and A-Z, spaces ignored, an
 * optional "..." per operand (broadcast batch dims), an implicit output
 * (the "..." dims, then the labels seen once: A-Z, then a-z) or an explicit
 * one after "->". A label repeated within one operand takes the diagonal;
 * labels absent from the output are summed. Operands are contracted left to
 * right, pairwise, as PyTorch 1.13 does without opt_einsum, so the result's
 * dtype follows PyTorch's (sums of integers give int64, operands contracted
 * together must share a dtype, a plain product promotes). */
TSR_API tsr_status tsr_einsum(const char *equation, const tsr_tensor *const *operands, size_t count,
                              tsr_tensor **out);

/* torch.tensordot(a, b, dims=n): contracts the last n dims of a with the
 * first n dims of b (n = 0 gives the outer product). */
TSR_API tsr_status tsr_tensordot(const tsr_tensor *a, const tsr_tensor *b, int64_t dims,
                                 tsr_tensor **out);
/* torch.tensordot(a, b, dims=(dims_a, dims_b)): contracts dim dims_a[i] of a
 * with dim dims_b[i] of b for i < n (negative dims count from the end). The
 * result has a's remaining dims, then b's. */
TSR_API tsr_status tsr_tensordot_dims(const tsr_tensor *a, const tsr_tensor *b, int n,
                                      const int64_t *dims_a, const int64_t *dims_b,
                                      tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_PRODUCTS_H */
