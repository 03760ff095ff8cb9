/* einsum: parse the equation, align every operand to one dim order
 * (output labels, then summed labels), then contract the operands left to
 * right in pairs, each pair as one batched matrix product.
 *
 * The steps are PyTorch 1.13's (without opt_einsum), because they decide
 * the result's dtype and errors: a label left in only one operand is summed
 * with sum's rules (integers give int64), a pair with nothing to contract is
 * a broadcast multiply (which promotes), and a pair with contracted labels
 * is a bmm (which wants one dtype, and refuses bool and float16). Every step
 * is a differentiable op, so einsum's gradient follows from them. */
#include "ops/products.h"

#include "autograd/graph.h"
#include "runtime/alloc.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum {
    LETTERS = 26,
    LABELS = 2 * LETTERS, /* A-Z are 0..25, a-z 26..51, as PyTorch numbers them */
    ELLIPSIS = LABELS,
    MAX_OPERANDS = 64,
    MAX_LABELS_PER_OPERAND = TSR_MAX_DIMS + 1, /* one may be the ellipsis */
};

/* What the equation says, and how every operand is laid out after alignment:
 * dims [0, out_ndim) are the output's, [out_ndim, total) are summed. */
typedef struct equation {
    size_t count;
    int nlabels[MAX_OPERANDS];
    uint8_t labels[MAX_OPERANDS][MAX_LABELS_PER_OPERAND];
    int64_t label_count[LABELS];
    int64_t position[LABELS]; /* aligned dim of each label, -1 if unused */
    int ell_ndim;             /* dims the widest ellipsis covers */
    int ell_start;            /* aligned dim of the ellipsis' first dim */
    bool ell_in_output;
    int out_ndim;
    int total;
} equation;

static char label_char(int label)
{
    return (char)(label < LETTERS ? 'A' + label : 'a' + label - LETTERS);
}

/* ======================================================================== */
/* Parsing                                                                   */
/* ======================================================================== */

/* "..." at text[*i]; advances *i to its last dot. */
static bool take_ellipsis(const char *text, size_t len, size_t *i)
{
    if (*i + 2 >= len || text[*i + 1] != '.' || text[*i + 2] != '.')
        return false;
    *i += 2;
    return true;
}

static tsr_status parse_inputs(const char *lhs, size_t len, equation *eq)
{
    size_t op = 0;
    bool ellipsis = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)lhs[i];
        if (c == ' ')
            continue;
        if (c == ',') {
            if (++op >= eq->count)
                return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                      "einsum: the equation names more operands than the %zu "
                                      "given",
                                      eq->count);
            ellipsis = false;
            continue;
        }
        if (eq->nlabels[op] >= MAX_LABELS_PER_OPERAND)
            return tsr__set_error(TSR_ERR_SHAPE, "einsum: operand %zu has more than %d subscripts",
                                  op, TSR_MAX_DIMS);
        if (c == '.') {
            if (ellipsis || !take_ellipsis(lhs, len, &i))
                return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                      "einsum: operand %zu has a '.' that is not part of its one "
                                      "ellipsis (...)",
                                      op);
            ellipsis = true;
            eq->labels[op][eq->nlabels[op]++] = ELLIPSIS;
        } else if (isalpha(c)) {
            eq->labels[op][eq->nlabels[op]++] = (uint8_t)(isupper(c) ? c - 'A' : c - 'a' + LETTERS);
        } else {
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "einsum: invalid subscript '%c' at index %zu of the equation "
                                  "(subscripts must be in [a-zA-Z])",
                                  c, i);
        }
    }
    if (op + 1 != eq->count)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "einsum: %zu operands were given but the equation names %zu",
                              eq->count, op + 1);
    return TSR_OK;
}

/* Counts the labels and checks them against each operand's rank. */
static tsr_status count_labels(const tsr_tensor *const *operands, equation *eq)
{
    for (size_t op = 0; op < eq->count; op++) {
        int named = 0;
        bool ellipsis = false;
        for (int j = 0; j < eq->nlabels[op]; j++) {
            if (eq->labels[op][j] == ELLIPSIS)
                ellipsis = true;
            else
                eq->label_count[eq->labels[op][j]]++, named++;
        }
        int ndim = operands[op]->ndim;
        if (ellipsis ? named > ndim : named != ndim)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "einsum: operand %zu has %d dims but the equation gives it %d "
                                  "subscripts%s",
                                  op, ndim, named, ellipsis ? " besides its ellipsis" : "");
        if (ellipsis && ndim - named > eq->ell_ndim)
            eq->ell_ndim = ndim - named;
    }
    return TSR_OK;
}

static tsr_status parse_output(const char *rhs, size_t len, size_t offset, equation *eq, int *next)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)rhs[i];
        if (c == ' ')
            continue;
        if (c == '.') {
            if (eq->ell_in_output || !take_ellipsis(rhs, len, &i))
                return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                      "einsum: the output has a '.' "
                                      "that is not part of its one ellipsis (...)");
            eq->ell_in_output = true;
            eq->ell_start = *next;
            *next += eq->ell_ndim;
            continue;
        }
        if (!isalpha(c))
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "einsum: invalid subscript '%c' at index %zu of the equation "
                                  "(subscripts must be in [a-zA-Z])",
                                  c, offset + i);
        int label = isupper(c) ? c - 'A' : c - 'a' + LETTERS;
        if (eq->label_count[label] == 0 || eq->position[label] >= 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "einsum: output subscript %c %s", c,
                                  eq->position[label] >= 0
                                      ? "appears more than once in the output"
                                      : "does not appear in the equation for any input operand");
        eq->position[label] = (*next)++;
    }
    return TSR_OK;
}

/* Assigns each label and the ellipsis their aligned dims. */
static tsr_status layout(const char *equation_text, const char *arrow, equation *eq)
{
    int next = 0;
    for (int l = 0; l < LABELS; l++)
        eq->position[l] = -1;
    if (!arrow) {
        /* Implicit output: the ellipsis, then labels seen once, in order. */
        eq->ell_in_output = true;
        eq->ell_start = 0;
        next = eq->ell_ndim;
        for (int l = 0; l < LABELS; l++) {
            if (eq->label_count[l] == 1)
                eq->position[l] = next++;
        }
    } else {
        size_t offset = (size_t)(arrow - equation_text) + 2;
        tsr_status st = parse_output(arrow + 2, strlen(arrow + 2), offset, eq, &next);
        if (st != TSR_OK)
            return st;
    }
    eq->out_ndim = next;
    if (!eq->ell_in_output) {
        eq->ell_start = next;
        next += eq->ell_ndim;
    }
    for (int l = 0; l < LABELS; l++) {
        if (eq->label_count[l] > 0 && eq->position[l] < 0)
            eq->position[l] = next++;
    }
    eq->total = next;
    if (eq->total > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "einsum: the equation uses %d dims; tessera "
                              "supports %d",
                              eq->total, TSR_MAX_DIMS);
    return TSR_OK;
}

/* ======================================================================== */
/* Aligning the operands                                                     */
/* ======================================================================== */

/* Sizes seen so far per aligned dim (1 = not yet seen or broadcast) and how
 * many operands have a size other than 1 there. */
typedef struct alignment {
    int64_t size[TSR_MAX_DIMS];
    int64_t count[TSR_MAX_DIMS];
} alignment;

static tsr_status see_size(alignment *al, int dim, int64_t size, size_t op, int label)
{
    if (size == 1)
        return TSR_OK;
    if (al->size[dim] != 1 && al->size[dim] != size) {
        if (label == ELLIPSIS)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "einsum: a dim covered by the ellipsis in operand "
                                  "%zu has size %lld, which does not broadcast with size %lld",
                                  op, (long long)size, (long long)al->size[dim]);
        return tsr__set_error(TSR_ERR_SHAPE,
                              "einsum: subscript %c has size %lld for operand %zu, "
                              "which does not broadcast with size %lld seen before",
                              label_char(label), (long long)size, op, (long long)al->size[dim]);
    }
    al->size[dim] = size;
    al->count[dim]++;
    return TSR_OK;
}

/* t with dim `from` moved to position `to`. */
static tsr_status move_dim(tsr_tensor *t, int from, int to, tsr_tensor **out)
{
    int64_t perm[TSR_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (n == to)
            perm[n++] = from;
        if (d != from)
            perm[n++] = d;
    }
    if (n == to)
        perm[n++] = from;
    return tsr_permute(t, t->ndim, perm, out);
}

/* Replaces *t by the diagonal of dims prev and dim, placed at prev. */
static tsr_status take_diagonal(tsr_tensor **t, int prev, int dim, size_t op, int label)
{
    if ((*t)->shape[dim] != (*t)->shape[prev])
        return tsr__set_error(TSR_ERR_SHAPE,
                              "einsum: subscript %c is repeated for operand %zu "
                              "but the sizes don't match, %lld != %lld",
                              label_char(label), op, (long long)(*t)->shape[dim],
                              (long long)(*t)->shape[prev]);
    tsr_tensor *diag = NULL, *moved = NULL;
    tsr_status st = tsr_diagonal(*t, 0, prev, dim, &diag);
    if (st == TSR_OK)
        st = move_dim(diag, diag->ndim - 1, prev, &moved);
    tsr_tensor_release(diag);
    if (st == TSR_OK) {
        tsr_tensor_release(*t);
        *t = moved;
    }
    return st;
}

/* Operand op as a view of eq->total dims in aligned order, size 1 where it
 * lacks a label. */
static tsr_status align(const tsr_tensor *operand, size_t op, const equation *eq, alignment *al,
                        tsr_tensor **out)
{
    int64_t perm[TSR_MAX_DIMS];
    for (int d = 0; d < eq->total; d++)
        perm[d] = -1;
    tsr_tensor *t = (tsr_tensor *)operand;
    tsr_tensor_retain(t);
    tsr_status st = TSR_OK;
    int dim = 0;
    for (int j = 0; j < eq->nlabels[op] && st == TSR_OK; j++) {
        int label = eq->labels[op][j];
        if (label == ELLIPSIS) {
            int covered = operand->ndim - (eq->nlabels[op] - 1);
            for (int e = eq->ell_ndim - covered; e < eq->ell_ndim && st == TSR_OK; e++) {
                st = see_size(al, eq->ell_start + e, t->shape[dim], op, ELLIPSIS);
                perm[eq->ell_start + e] = dim++;
            }
        } else if (perm[eq->position[label]] < 0) {
            st = see_size(al, (int)eq->position[label], t->shape[dim], op, label);
            perm[eq->position[label]] = dim++;
        } else {
            st = take_diagonal(&t, (int)perm[eq->position[label]], dim, op, label);
        }
    }
    for (int d = 0; d < eq->total && st == TSR_OK; d++) {
        if (perm[d] >= 0)
            continue;
        tsr_tensor *wider = NULL;
        st = tsr_unsqueeze(t, dim, &wider);
        tsr_tensor_release(t);
        t = wider;
        perm[d] = dim++;
    }
    tsr_tensor *aligned = NULL;
    if (st == TSR_OK)
        st = tsr_permute(t, eq->total, perm, &aligned);
    tsr_tensor_release(t);
    return tsr__deliver(st, aligned, out);
}

/* ======================================================================== */
/* Contracting                                                               */
/* ======================================================================== */

/* t summed over the dims in `dims` (keepdim), with sum's dtype rule. */
static tsr_status sum_dims(tsr_tensor **t, const int64_t *dims, int n, bool keepdim)
{
    if (n == 0)
        return TSR_OK;
    tsr_tensor *sum = NULL;
    tsr_status st = tsr_sum(*t, dims, n, keepdim, TSR_DTYPE_INFER, &sum);
    if (st != TSR_OK) {
        tsr__prefix_error("einsum");
        return st;
    }
    tsr_tensor_release(*t);
    *t = sum;
    return TSR_OK;
}

/* The dims of a pair (same rank, sizes 1 or equal): lro in both, lo only in
 * left, ro the rest; summed ones in sum. */
typedef struct pair_dims {
    int64_t lro[TSR_MAX_DIMS], lo[TSR_MAX_DIMS], ro[TSR_MAX_DIMS], sum[TSR_MAX_DIMS];
    int nlro, nlo, nro, nsum;
    int64_t lo_size, ro_size, sum_size;
} pair_dims;

static void classify(const tsr_tensor *left, const tsr_tensor *right, const bool *summed,
                     pair_dims *p)
{
    memset(p, 0, sizeof *p);
    p->lo_size = p->ro_size = p->sum_size = 1;
    for (int d = 0; d < left->ndim; d++) {
        bool sl = left->shape[d] != 1, sr = right->shape[d] != 1;
        if (summed[d]) {
            p->sum[p->nsum++] = d;
            p->sum_size *= left->shape[d];
        } else if (sl && sr) {
            p->lro[p->nlro++] = d;
        } else if (sl) {
            p->lo[p->nlo++] = d;
            p->lo_size *= left->shape[d];
        } else {
            p->ro[p->nro++] = d;
            p->ro_size *= right->shape[d];
        }
    }
}

/* t permuted to `first`, then `second`, then `third` and reshaped to
 * [sizes of first..., n2, n3]. */
static tsr_status as_batch(const tsr_tensor *t, const int64_t *first, int n1, const int64_t *second,
                           int n2, const int64_t *third, int n3, const int64_t *rest, int nrest,
                           int64_t rows, int64_t cols, tsr_tensor **out)
{
    int64_t perm[TSR_MAX_DIMS], shape[TSR_MAX_DIMS];
    int n = 0;
    const int64_t *groups[4] = {first, second, third, rest};
    int counts[4] = {n1, n2, n3, nrest};
    for (int g = 0; g < 4; g++) {
        for (int i = 0; i < counts[g]; i++)
            perm[n++] = groups[g][i];
    }
    for (int i = 0; i < n1; i++)
        shape[i] = t->shape[first[i]];
    shape[n1] = rows, shape[n1 + 1] = cols;
    tsr_tensor *permuted = NULL;
    tsr_status st = tsr_permute(t, n, perm, &permuted);
    if (st == TSR_OK)
        st = tsr_reshape(permuted, n1 + 2, shape, out);
    tsr_tensor_release(permuted);
    return st;
}

/* (left * right) summed over `summed` dims, keeping them with size 1: a
 * multiply when nothing is summed, else one batched product over the dims
 * both operands have. */
static tsr_status sum_product(const tsr_tensor *left, const tsr_tensor *right, const bool *summed,
                              tsr_tensor **out)
{
    pair_dims p;
    classify(left, right, summed, &p);
    if (p.nsum == 0)
        return tsr_mul(left, right, out);
    tsr_status st = tsr__matmul_same_dtype("einsum", "the operands", left, "the operands", right);
    if (st != TSR_OK)
        return st;
    tsr_tensor *l3 = NULL, *r3 = NULL, *product = NULL, *shaped = NULL, *result = NULL;
    st = as_batch(left, p.lro, p.nlro, p.lo, p.nlo, p.sum, p.nsum, p.ro, p.nro, p.lo_size,
                  p.sum_size, &l3);
    if (st == TSR_OK)
        st = as_batch(right, p.lro, p.nlro, p.sum, p.nsum, p.ro, p.nro, p.lo, p.nlo, p.sum_size,
                      p.ro_size, &r3);
    if (st == TSR_OK)
        st = tsr__matmul_general("einsum", l3, r3, NULL, tsr_scalar_int(1), tsr_scalar_int(0),
                                 &product);
    /* The product is [lro..., lo..., ro...]; put the dims back in order. */
    int64_t shape[TSR_MAX_DIMS], perm[TSR_MAX_DIMS];
    int n = 0;
    const int64_t *groups[4] = {p.lro, p.lo, p.sum, p.ro};
    int counts[4] = {p.nlro, p.nlo, p.nsum, p.nro};
    for (int g = 0; g < 4; g++) {
        for (int i = 0; i < counts[g]; i++, n++) {
            int64_t d = groups[g][i];
            shape[n] = g == 2 ? 1 : g == 3 ? right->shape[d] : left->shape[d];
            perm[d] = n;
        }
    }
    if (st == TSR_OK)
        st = tsr_view(product, n, shape, &shaped);
    if (st == TSR_OK)
        st = tsr_permute(shaped, n, perm, &result);
    tsr_tensor_release(l3);
    tsr_tensor_release(r3);
    tsr_tensor_release(product);
    tsr_tensor_release(shaped);
    return tsr__deliver(st, result, out);
}

/* Contracts a (the result so far) with b. al->count says in how many of the
 * operands not yet contracted each summed dim still has a size other than
 * 1: a dim is summed away as soon as no later operand needs it. */
static tsr_status contract_pair(tsr_tensor *a, tsr_tensor *b, const equation *eq, alignment *al,
                                tsr_tensor **out)
{
    bool summed[TSR_MAX_DIMS] = {false};
    int64_t a_dims[TSR_MAX_DIMS], b_dims[TSR_MAX_DIMS];
    int na = 0, nb = 0;
    for (int d = eq->out_ndim; d < eq->total; d++) {
        if (a->shape[d] != 1 && b->shape[d] != 1) {
            if (--al->count[d] == 1) {
                summed[d] = true;
                al->count[d] = 0;
            }
        } else if (al->count[d] == 1 && a->shape[d] != 1) {
            a_dims[na++] = d;
            al->count[d] = 0;
        } else if (al->count[d] == 1 && b->shape[d] != 1) {
            b_dims[nb++] = d;
            al->count[d] = 0;
        }
    }
    tsr_tensor_retain(a);
    tsr_tensor_retain(b);
    tsr_status st = sum_dims(&a, a_dims, na, true);
    if (st == TSR_OK)
        st = sum_dims(&b, b_dims, nb, true);
    if (st == TSR_OK)
        st = sum_product(a, b, summed, out);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return st;
}

/* The aligned operands contracted left to right, with the summed dims
 * removed (summed for a single operand, already size 1 otherwise). */
static tsr_status contract(tsr_tensor **aligned, const equation *eq, alignment *al,
                           tsr_tensor **out)
{
    tsr_tensor *result = aligned[0];
    tsr_tensor_retain(result);
    tsr_status st = TSR_OK;
    for (size_t op = 1; op < eq->count && st == TSR_OK; op++) {
        tsr_tensor *next = NULL;
        st = contract_pair(result, aligned[op], eq, al, &next);
        tsr_tensor_release(result);
        result = next;
    }
    int nsummed = eq->total - eq->out_ndim;
    if (st == TSR_OK && nsummed > 0 && eq->count == 1) {
        int64_t dims[TSR_MAX_DIMS];
        for (int i = 0; i < nsummed; i++)
            dims[i] = eq->out_ndim + i;
        st = sum_dims(&result, dims, nsummed, false);
    } else if (st == TSR_OK && nsummed > 0) {
        tsr_tensor *viewed = NULL;
        st = tsr_view(result, eq->out_ndim, result->shape, &viewed);
        tsr_tensor_release(result);
        result = viewed;
    }
    return tsr__deliver(st, result, out);
}

/* ======================================================================== */
/* The op                                                                    */
/* ======================================================================== */

static tsr_status parse(const char *text, const tsr_tensor *const *operands, equation *eq)
{
    const char *arrow = strstr(text, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - text) : strlen(text);
    tsr_status st = parse_inputs(text, lhs_len, eq);
    if (st == TSR_OK)
        st = count_labels(operands, eq);
    if (st == TSR_OK)
        st = layout(text, arrow, eq);
    return st;
}

tsr_status tsr_einsum(const char *equation_text, const tsr_tensor *const *operands, size_t count,
                      tsr_tensor **out)
{
    if (!equation_text || !out || (count > 0 && !operands))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "einsum: equation, operands and out must not be NULL");
    if (count == 0 || count > MAX_OPERANDS)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "einsum: expected 1 to %d operands, got %zu", MAX_OPERANDS, count);
    for (size_t i = 0; i < count; i++) {
        if (!operands[i])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "einsum: operand %zu is NULL", i);
    }
    equation *eq = tsr__calloc(1, sizeof *eq);
    tsr_tensor **aligned = tsr__calloc(count, sizeof *aligned);
    alignment al;
    tsr_status st =
        eq && aligned ? TSR_OK : tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "einsum: out of memory");
    if (st == TSR_OK) {
        eq->count = count;
        st = parse(equation_text, operands, eq);
    }
    for (int d = 0; d < TSR_MAX_DIMS; d++)
        al.size[d] = 1, al.count[d] = 0;
    for (size_t i = 0; i < count && st == TSR_OK; i++)
        st = align(operands[i], i, eq, &al, &aligned[i]);
    if (st == TSR_OK)
        st = contract(aligned, eq, &al, out);
    for (size_t i = 0; aligned && i < count; i++)
        tsr_tensor_release(aligned[i]);
    free(aligned);
    free(eq);
    return st;
}
