/* tessera: Matrix products: matmul, mm, bmm, dot, vdot, outer, addmm, baddbmm, einsum,
 * tensordot; the vector and structured products of torch and torch.linalg
 * (trace, kron, inner, mv, addmv, addr, addbmm, cross, linalg_cross,
 * linalg_vecdot, linalg_multi_dot, linalg_matrix_power, diag_embed,
 * linalg_vander). Included by tessera/tessera.h; the conventions stated there apply.
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

/* ======================================================================== */
/* Vector and structured products (composites of the ops above)              */
/* ======================================================================== */

/* torch.trace: the sum of a 2-d tensor's main diagonal (non-square allowed).
 * Integers sum to int64; bool, float16 and bfloat16 are refused. */
TSR_API tsr_status tsr_trace(const tsr_tensor *t, tsr_tensor **out);
/* torch.kron: the Kronecker product. The operand of lower rank gains leading
 * size-1 dims; result size d is a.size(d) * b.size(d); dtypes promote as mul
 * does (bool included). */
TSR_API tsr_status tsr_kron(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
/* torch.inner: the sum over the last dims of a and b (equal sizes), the
 * result shaped a.shape[:-1] + b.shape[:-1]; a 0-d operand multiplies (and
 * promotes) instead. Otherwise one dtype, as a product. */
TSR_API tsr_status tsr_inner(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out);
/* torch.mv: a 2-d mat [N, M] times a 1-d vec [M], one dtype. */
TSR_API tsr_status tsr_mv(const tsr_tensor *mat, const tsr_tensor *vec, tsr_tensor **out);
/* torch.addmv(input, mat, vec, beta=, alpha=): beta * input + alpha * (mat @ vec);
 * input is 0-d or 1-d, broadcast to [N], and converted to mat's dtype, as
 * PyTorch does. beta 0 ignores input (NaN included). */
TSR_API tsr_status tsr_addmv(const tsr_tensor *input, const tsr_tensor *mat,
                             const tsr_tensor *vec, tsr_scalar beta, tsr_scalar alpha,
                             tsr_tensor **out);
/* torch.addr(input, vec1, vec2, beta=, alpha=): beta * input + alpha *
 * outer(vec1, vec2), the three promoted to one dtype (bool and float16 too;
 * for bool, `and` and `or`). beta 0 ignores input. A floating beta or alpha
 * is refused for integer results, a bool one for non-bool results. */
TSR_API tsr_status tsr_addr(const tsr_tensor *input, const tsr_tensor *vec1,
                            const tsr_tensor *vec2, tsr_scalar beta, tsr_scalar alpha,
                            tsr_tensor **out);
/* torch.addbmm(input, batch1, batch2, beta=, alpha=): beta * input + alpha *
 * sum_b(batch1[b] @ batch2[b]), computed as one product over the inner dim
 * B * K; input broadcasts to [N, P] and shares the batches' dtype. */
TSR_API tsr_status tsr_addbmm(const tsr_tensor *input, const tsr_tensor *batch1,
                              const tsr_tensor *batch2, tsr_scalar beta, tsr_scalar alpha,
                              tsr_tensor **out);
/* torch.cross(input, other, dim): dim NULL is PyTorch 1.13's default, the
 * first dim of input whose size is 3 (1.13 warns nothing; later versions
 * deprecate the default). Then as tsr_linalg_cross. */
TSR_API tsr_status tsr_cross(const tsr_tensor *input, const tsr_tensor *other, const int64_t *dim,
                             tsr_tensor **out);
/* torch.linalg.cross(input, other, dim=-1): the 3-vector cross product along
 * dim, where both have size 3; both have one rank and one dtype (not bool,
 * not float16); the other dims broadcast. Integers wrap. */
TSR_API tsr_status tsr_linalg_cross(const tsr_tensor *input, const tsr_tensor *other, int64_t dim,
                                    tsr_tensor **out);
/* torch.linalg.vecdot(x, y, dim=-1): sum(conj(x) * y, dim) after
 * broadcasting; floating or complex x and y of one dtype. */
TSR_API tsr_status tsr_linalg_vecdot(const tsr_tensor *x, const tsr_tensor *y, int64_t dim,
                                     tsr_tensor **out);
/* torch.linalg.multi_dot(tensors): the chain product of count >= 2 tensors
 * of one dtype, 2-d except that the first may be a 1-d row and the last a
 * 1-d column (their dims dropped from the result). Parenthesised to
 * minimise multiplications by the classic dynamic programme, as PyTorch. */
TSR_API tsr_status tsr_linalg_multi_dot(const tsr_tensor *const *tensors, size_t count,
                                        tsr_tensor **out);
/* torch.linalg.matrix_power(A, n): A [..., M, M] to the n-th power by
 * repeated squaring in PyTorch's order of products; n 0 gives identities of
 * A's dtype, n 1 a copy. n < 0 raises linalg_inv(A) to |n| (a singular
 * or integer A is refused as linalg_inv refuses it). */
TSR_API tsr_status tsr_linalg_matrix_power(const tsr_tensor *a, int64_t n, tsr_tensor **out);
/* torch.diag_embed(input, offset=0, dim1=-2, dim2=-1): a tensor of one more
 * dim whose diagonals (offset, dim1, dim2) over the new matrix dims hold
 * input's last dim, zeros elsewhere. Every dtype. */
TSR_API tsr_status tsr_diag_embed(const tsr_tensor *input, int64_t offset, int64_t dim1,
                                  int64_t dim2, tsr_tensor **out);
/* torch.linalg.vander(x, N=None): [..., n] to [..., n, N] whose column j is
 * x^j (by a cumulative product, as PyTorch). N NULL means n; N must be > 1.
 * Integers give int64; bool, float16 and bfloat16 are refused. */
TSR_API tsr_status tsr_linalg_vander(const tsr_tensor *x, const int64_t *N, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_PRODUCTS_H */
