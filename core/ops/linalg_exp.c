/* linalg_matrix_exp (and the older matrix_exp): scaling and squaring with
 * the [13/13] Pade approximant (Higham 2005), written with matmul, add and
 * solve, so its gradient follows from theirs.
 *
 * The scaling s is chosen from the largest 1-norm in the batch, so every
 * matrix of a batch is squared the same number of times: a matrix of a
 * smaller norm then gets more squarings than it needs, which keeps it
 * accurate (the approximant only gets better on a smaller argument). */
#include <math.h>

#include "autograd/graph.h"
#include "ops/linalg.h"
#include "runtime/error.h"

/* Temporaries of one formula, released together. */
typedef struct temps {
    tsr_status st;
    int count;
    tsr_tensor *t[48];
} temps;

static tsr_tensor *keep(temps *k, tsr_status st, tsr_tensor *t)
{
    if (k->st != TSR_OK || st != TSR_OK || k->count == 48) {
        if (k->st == TSR_OK)
            k->st = st != TSR_OK ? st : TSR_ERR_INVALID_ARGUMENT;
        tsr_tensor_release(t);
        return NULL;
    }
    return k->t[k->count++] = t;
}

static tsr_tensor *mm(temps *k, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    if (!a || !b)
        return NULL;
    tsr_status st = tsr_matmul(a, b, &r);
    return keep(k, st, r);
}

/* a + c b (c a double; b NULL: a) */
static tsr_tensor *axpy(temps *k, const tsr_tensor *a, double c, const tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    if (!a || !b)
        return NULL;
    tsr_status st =
        tsr_add_scaled(tsr_operand_tensor(a), tsr_operand_tensor(b), tsr_scalar_float(c), &r);
    return keep(k, st, r);
}

static tsr_tensor *scaled(temps *k, const tsr_tensor *a, double c)
{
    tsr_tensor *r = NULL;
    if (!a)
        return NULL;
    tsr_status st =
        tsr_binary(TSR_OP_MUL, tsr_operand_tensor(a), tsr_operand_scalar(tsr_scalar_float(c)), &r);
    return keep(k, st, r);
}

/* The largest 1-norm over the batch, on the host. */
static tsr_status largest_norm(const tsr_tensor *a, double *out)
{
    tsr_tensor *n = NULL, *top = NULL, *d = NULL;
    tsr_status st = tsr_linalg_matrix_norm(a, NULL, 1.0, NULL, false, &n);
    if (st == TSR_OK)
        st = tsr_amax(n, NULL, 0, false, &top);
    if (st == TSR_OK)
        st = tsr_to_dtype(top, TSR_FLOAT64, &d);
    if (st == TSR_OK)
        st = tsr_to_host(d, out, sizeof *out);
    tsr_tensor_release(n);
    tsr_tensor_release(top);
    tsr_tensor_release(d);
    return st;
}

static const double PADE13[14] = {64764752532480000.0,
                                  32382376266240000.0,
                                  7771770303897600.0,
                                  1187353796428800.0,
                                  129060195264000.0,
                                  10559470521600.0,
                                  670442572800.0,
                                  33522128640.0,
                                  1323241920.0,
                                  40840800.0,
                                  960960.0,
                                  16380.0,
                                  182.0,
                                  1.0};

static tsr_status matrix_exp_named(const char *api, const tsr_tensor *a, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, true);
    if (st != TSR_OK)
        return st;
    if (tsr_tensor_numel(a) == 0)
        return tsr_clone(a, out);
    double norm = 0;
    if ((st = largest_norm(a, &norm)) != TSR_OK)
        return st;
    int s =
        isfinite(norm) && norm > 5.371920351148152 ? (int)ceil(log2(norm / 5.371920351148152)) : 0;
    temps k = {0};
    tsr_tensor *eye = NULL;
    st = tsr__linalg_eye_like(a, a->ndim, a->shape, &eye);
    keep(&k, st, eye);
    const double *b = PADE13;
    tsr_tensor *x = scaled(&k, a, ldexp(1.0, -s));
    tsr_tensor *x2 = mm(&k, x, x), *x4 = mm(&k, x2, x2), *x6 = mm(&k, x4, x2);
    /* U = X [X6 (b13 X6 + b11 X4 + b9 X2) + b7 X6 + b5 X4 + b3 X2 + b1 I] */
    tsr_tensor *u1 = axpy(&k, axpy(&k, scaled(&k, x6, b[13]), b[11], x4), b[9], x2);
    tsr_tensor *u2 =
        axpy(&k, axpy(&k, axpy(&k, scaled(&k, x6, b[7]), b[5], x4), b[3], x2), b[1], eye);
    tsr_tensor *u = mm(&k, x, axpy(&k, mm(&k, x6, u1), 1.0, u2));
    /* V = X6 (b12 X6 + b10 X4 + b8 X2) + b6 X6 + b4 X4 + b2 X2 + b0 I */
    tsr_tensor *v1 = axpy(&k, axpy(&k, scaled(&k, x6, b[12]), b[10], x4), b[8], x2);
    tsr_tensor *v2 =
        axpy(&k, axpy(&k, axpy(&k, scaled(&k, x6, b[6]), b[4], x4), b[2], x2), b[0], eye);
    tsr_tensor *v = axpy(&k, mm(&k, x6, v1), 1.0, v2);
    tsr_tensor *r = NULL, *p = axpy(&k, v, 1.0, u), *q = axpy(&k, v, -1.0, u);
    if (k.st == TSR_OK) {
        st = tsr_linalg_solve(q, p, true, &r);
        keep(&k, st, r);
    }
    for (int i = 0; i < s && k.st == TSR_OK; i++)
        r = mm(&k, r, r);
    st = k.st;
    if (st == TSR_OK) {
        tsr_tensor_retain(r);
        *out = r;
    }
    for (int i = 0; i < k.count; i++)
        tsr_tensor_release(k.t[i]);
    return st;
}

tsr_status tsr_linalg_matrix_exp(const tsr_tensor *a, tsr_tensor **out)
{
    return matrix_exp_named("linalg.matrix_exp", a, out);
}

tsr_status tsr_matrix_exp(const tsr_tensor *a, tsr_tensor **out)
{
    return matrix_exp_named("matrix_exp", a, out);
}
