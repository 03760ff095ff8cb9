/* The claimed reductions and their plans (reduce_table.h). The dtype sets
 * are the reference backend's (PyTorch 1.13 on CPU). */
#include "reduce_table.h"

#include <stdio.h>

#include "elem_table.h"

#define B_(d) TSR__CU_BIT(TSR_##d)
#define S_BOOL B_(BOOL)
#define S_INT (B_(UINT8) | B_(INT8) | B_(INT16) | B_(INT32) | B_(INT64))
#define S_REAL (B_(FLOAT16) | B_(BFLOAT16) | B_(FLOAT32) | B_(FLOAT64))
#define S_CPLX (B_(COMPLEX64) | B_(COMPLEX128))
#define S_ALL (S_BOOL | S_INT | S_REAL | S_CPLX)
#define S_ORDERED (S_BOOL | S_INT | S_REAL)

enum { SAME, REAL, INT64, BOOL };

typedef struct reduce_op {
    int32_t op;
    uint32_t dtypes;
    int32_t outputs;
    int32_t result[TSR__CU_RED_OUTPUTS];
    int32_t needs_terms; /* no identity: an empty reduced dim is an error */
} reduce_op;

static const reduce_op ops[] = {
    {TSR_OP_SUM, S_ALL, 1, {SAME}, 0},
    {TSR_OP_NANSUM, S_ORDERED, 1, {SAME}, 0},
    {TSR_OP_PROD, S_BOOL | S_INT | B_(FLOAT32) | B_(FLOAT64) | S_CPLX, 1, {SAME}, 0},
    {TSR_OP_MEAN, S_REAL | S_CPLX, 1, {SAME}, 0},
    {TSR_OP_NANMEAN, S_REAL, 1, {SAME}, 0},
    {TSR_OP_AMAX, S_ORDERED, 1, {SAME}, 1},
    {TSR_OP_AMIN, S_ORDERED, 1, {SAME}, 1},
    {TSR_OP_MAX_DIM, S_ORDERED, 2, {SAME, INT64}, 1},
    {TSR_OP_MIN_DIM, S_ORDERED, 2, {SAME, INT64}, 1},
    {TSR_OP_ARGMAX, S_INT | S_REAL, 1, {INT64}, 1},
    {TSR_OP_ARGMIN, S_INT | S_REAL, 1, {INT64}, 1},
    {TSR_OP_VAR, S_REAL | S_CPLX, 1, {REAL}, 0},
    {TSR_OP_STD, S_REAL | S_CPLX, 1, {REAL}, 0},
    {TSR_OP_ALL, S_ALL, 1, {BOOL}, 0},
    {TSR_OP_ANY, S_ALL, 1, {BOOL}, 0},
    {TSR_OP_NORM, S_REAL | S_CPLX, 1, {REAL}, 0},
    {TSR_OP_LOGSUMEXP, B_(BFLOAT16) | B_(FLOAT32) | B_(FLOAT64), 1, {SAME}, 0},
    {TSR_OP_COUNT_NONZERO, S_ALL, 1, {INT64}, 0},
};

static const reduce_op *find(int32_t op)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ops[i].op == op)
            return &ops[i];
    return NULL;
}

static int32_t result_dtype(int32_t kind, int32_t dtype)
{
    switch (kind) {
    case REAL:
        return dtype == TSR_COMPLEX64 ? TSR_FLOAT32 : dtype == TSR_COMPLEX128 ? TSR_FLOAT64 : dtype;
    case INT64:
        return TSR_INT64;
    case BOOL:
        return TSR_BOOL;
    default:
        return dtype;
    }
}

static int32_t result_category(int32_t kind, int32_t category)
{
    if (kind == INT64 || kind == BOOL)
        return TSR__CU_INTEGER;
    if (kind == REAL && category == TSR__CU_COMPLEX)
        return TSR__CU_REAL;
    return category;
}

int tsr__cu_reduce_supports(int32_t op, int32_t dtype, int32_t *dtype_out)
{
    const reduce_op *entry = find(op);
    if (!entry || dtype < 0 || dtype >= TSR_DTYPE_COUNT || !(entry->dtypes & TSR__CU_BIT(dtype)))
        return 0;
    *dtype_out = result_dtype(entry->result[0], dtype);
    return 1;
}

static int valid_desc(const tsr_tensor_desc *d)
{
    if (!d || d->dtype < 0 || d->dtype >= TSR_DTYPE_COUNT || d->ndim < 0 || d->ndim > TSR_MAX_DIMS)
        return 0;
    if (d->ndim > 0 && (!d->shape || !d->strides))
        return 0;
    for (int32_t i = 0; i < d->ndim; i++)
        if (d->shape[i] < 0 || d->strides[i] < 0)
            return 0;
    return 1;
}

#define FAIL_(status, ...)                                                                         \
    do {                                                                                           \
        snprintf(message, capacity, __VA_ARGS__);                                                  \
        return status;                                                                             \
    } while (0)

int tsr__cu_reduce_plan_init(tsr__cu_reduce_plan *p, int32_t op, const tsr_tensor_desc *input,
                             const tsr_tensor_desc *outputs, int32_t num_outputs,
                             const void *attrs_ptr, const char *in, char *const *out, char *message,
                             size_t capacity)
{
    const reduce_op *entry = find(op);
    if (!entry)
        FAIL_(TSR_ERR_UNIMPLEMENTED, "%s is not a CUDA reduction", tsr__cu_op_name(op));
    const tsr_reduce_attrs *attrs = attrs_ptr;
    if (!attrs || attrs->struct_size < sizeof(tsr_reduce_attrs))
        FAIL_(TSR_ERR_INVALID_ARGUMENT, "%s needs tsr_reduce_attrs of ABI 1.0",
              tsr__cu_op_name(op));
    if (num_outputs != entry->outputs || !outputs || !valid_desc(input))
        FAIL_(TSR_ERR_INVALID_ARGUMENT,
              "%s takes 1 well-formed input and %d outputs, got %d outputs", tsr__cu_op_name(op),
              (int)entry->outputs, (int)num_outputs);
    const uint32_t mask = attrs->dims_mask;
    if (input->ndim < 32 && (mask >> input->ndim) != 0)
        FAIL_(TSR_ERR_INVALID_ARGUMENT, "%s: dims_mask 0x%x names dims beyond %d",
              tsr__cu_op_name(op), (unsigned)mask, (int)input->ndim);
    const int32_t dtype = input->dtype;
    if (!(entry->dtypes & TSR__CU_BIT(dtype)))
        FAIL_(TSR_ERR_DTYPE, "%s: no CUDA kernel for dtype %d", tsr__cu_op_name(op), (int)dtype);
    memset(p, 0, sizeof *p);
    p->op = op;
    p->dtype = dtype;
    p->category = tsr__cu_dtype_category(dtype);
    p->outputs = num_outputs;
    p->phases = op == TSR_OP_VAR || op == TSR_OP_STD || op == TSR_OP_LOGSUMEXP ? 2 : 1;
    p->correction = attrs->correction;
    p->p = attrs->p;
    p->out_count = 1;
    p->terms = 1;
    for (int32_t k = 0; k < num_outputs; k++) {
        const tsr_tensor_desc *o = &outputs[k];
        p->out_dtype[k] = result_dtype(entry->result[k], dtype);
        p->out_category[k] = result_category(entry->result[k], p->category);
        if (!valid_desc(o) || o->ndim != input->ndim)
            FAIL_(TSR_ERR_SHAPE, "%s: output %d must have the input's rank", tsr__cu_op_name(op),
                  (int)k);
        if (o->dtype != p->out_dtype[k])
            FAIL_(TSR_ERR_DTYPE, "%s: output %d has dtype %d, expected %d", tsr__cu_op_name(op),
                  (int)k, (int)o->dtype, (int)p->out_dtype[k]);
        for (int32_t d = 0; d < input->ndim; d++)
            if (o->shape[d] != ((mask >> d) & 1 ? 1 : input->shape[d]))
                FAIL_(TSR_ERR_SHAPE,
                      "%s: output %d must have the input's shape with reduced dims "
                      "of size 1",
                      tsr__cu_op_name(op), (int)k);
    }
    const int64_t in_size = tsr__cu_dtype_size(dtype);
    for (int32_t d = 0; d < input->ndim; d++) {
        if ((mask >> d) & 1) {
            p->red_shape[p->red_ndim] = input->shape[d];
            p->red_in[p->red_ndim++] = input->strides[d] * in_size;
            p->terms *= input->shape[d];
            continue;
        }
        int32_t k = p->kept_ndim++;
        p->kept_shape[k] = input->shape[d];
        p->kept_in[k] = input->strides[d] * in_size;
        for (int32_t o = 0; o < num_outputs; o++)
            p->kept_out[o][k] = outputs[o].strides[d] * tsr__cu_dtype_size(outputs[o].dtype);
        p->out_count *= input->shape[d];
    }
    if (entry->needs_terms && p->terms == 0 && p->out_count > 0)
        FAIL_(TSR_ERR_INDEX, "%s: a reduced dim is empty and the op has no identity",
              tsr__cu_op_name(op));
    if (p->out_count > 0 && p->terms > 0 && !in)
        FAIL_(TSR_ERR_INVALID_ARGUMENT, "%s: the input's data is NULL", tsr__cu_op_name(op));
    for (int32_t k = 0; k < num_outputs; k++)
        if (p->out_count > 0 && !out[k])
            FAIL_(TSR_ERR_INVALID_ARGUMENT, "%s: output %d's data is NULL", tsr__cu_op_name(op),
                  (int)k);
    p->blocks = p->terms <= 0 ? 0 : (p->terms - 1) / TSR__CU_RED_BLOCK + 1;
    p->in = in;
    for (int32_t k = 0; k < num_outputs; k++)
        p->out[k] = out[k];
    return TSR_OK;
}

void tsr__cu_reduce_emulate(const tsr__cu_reduce_plan *p, tsr__cu_partial *parts,
                            tsr__cu_value *kept)
{
    for (int phase = 0; phase < p->phases; phase++) {
        for (int64_t o = 0; o < p->out_count; o++) /* kernel A: one thread per (o, b) */
            for (int64_t b = 0; b < p->blocks; b++)
                parts[o * p->blocks + b] = tsr__cu_reduce_block(p, phase, o, b, kept[o]);
        for (int64_t o = 0; o < p->out_count; o++) /* kernel B: one thread per output */
            tsr__cu_reduce_finish(p, phase, o, parts + o * p->blocks, &kept[o]);
    }
}
