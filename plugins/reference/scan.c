/* The scan kernels: cumsum, cumprod, logcumsumexp, cummax, cummin along one dim.
 *
 * Each slice along the dim is cut into chunks of TSR__REF_REDUCE_BLOCK
 * terms from its start. Within a chunk the terms fold left to right from the
 * identity; result i is that running value, combined after the carry into
 * the chunk when the chunk is not the first. The carry into chunk c + 1 is
 * the carry into chunk c combined with chunk c's total. A chunk can thus be
 * scanned knowing only its carry, and the bits never depend on the layout.
 * cummax and cummin are exact and simply scan in order. */
#include "reduce.h"

#include <math.h>
#include <stddef.h>

#include "backend.h"
#include "complex_ops.h"
#include "reduce_walk.h"
#include "scalar_ops.h"
#include "wide.h"

/* ------------------------------------------------------------------------ */
/* The slices                                                                */
/* ------------------------------------------------------------------------ */

enum { MAX_OUTPUTS = 2 };

/* The slices of one input and its outputs along `dim`; steps in bytes. */
typedef struct scan_walk {
    int32_t outputs;
    int32_t outer_ndim;
    int64_t outer_shape[TSR_MAX_DIMS];
    int64_t outer_step[1 + MAX_OUTPUTS][TSR_MAX_DIMS]; /* input, then outputs */
    int64_t length;
    int64_t step[1 + MAX_OUTPUTS];
    char *base[1 + MAX_OUTPUTS];
    int64_t slices;
} scan_walk;

static int same_shape(const tsr_tensor_desc *a, const tsr_tensor_desc *b)
{
    if (a->ndim != b->ndim || !tsr__ref_dtype_valid(b->dtype)) {
        return 0;
    }
    for (int32_t d = 0; d < a->ndim; d++) {
        if (a->shape[d] != b->shape[d]) {
            return 0;
        }
    }
    return 1;
}

static int check_descs(const tsr_tensor_desc *input, const tsr_tensor_desc *outputs,
                       int32_t num_outputs, int32_t dim)
{
    if (!tsr__ref_dtype_valid(input->dtype) || input->ndim < 0 || input->ndim > TSR_MAX_DIMS ||
        (input->ndim > 0 && (input->shape == NULL || input->strides == NULL))) {
        return 0;
    }
    if (dim < 0 || dim >= (input->ndim > 0 ? input->ndim : 1)) {
        return 0;
    }
    for (int32_t d = 0; d < input->ndim; d++) {
        if (input->shape[d] < 0) {
            return 0;
        }
    }
    for (int32_t k = 0; k < num_outputs; k++) {
        if (!same_shape(input, &outputs[k]) ||
            (outputs[k].ndim > 0 && outputs[k].strides == NULL)) {
            return 0;
        }
    }
    return 1;
}

static void add_operand(scan_walk *walk, int32_t k, const tsr_tensor_desc *desc, int32_t dim)
{
    int64_t size = (int64_t)tsr__ref_dtype_size(desc->dtype);
    walk->base[k] = (char *)desc->data + desc->byte_offset;
    walk->step[k] = desc->ndim > 0 ? desc->strides[dim] * size : 0;
    int32_t outer = 0;
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (d != dim) {
            walk->outer_step[k][outer++] = desc->strides[d] * size;
        }
    }
}

static int scan_walk_init(const tsr__ref_backend *backend, scan_walk *walk,
                          const tsr_tensor_desc *input, const tsr_tensor_desc *outputs,
                          int32_t num_outputs, int32_t dim)
{
    if (!check_descs(input, outputs, num_outputs, dim)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "malformed descriptors: outputs must have the input's shape and "
                              "dim %d must be one of its dims",
                              (int)dim);
    }
    *walk = (scan_walk){.outputs = num_outputs, .length = 1, .slices = 1};
    for (int32_t d = 0; d < input->ndim; d++) {
        if (d == dim) {
            walk->length = input->shape[d];
        } else {
            walk->outer_shape[walk->outer_ndim++] = input->shape[d];
            walk->slices *= input->shape[d];
        }
    }
    if (walk->length > 0 && walk->slices > 0) {
        if (input->data == NULL || (num_outputs > 1 && outputs[1].data == NULL) ||
            outputs[0].data == NULL) {
            return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "NULL data");
        }
    }
    add_operand(walk, 0, input, dim);
    for (int32_t k = 0; k < num_outputs; k++) {
        add_operand(walk, k + 1, &outputs[k], dim);
    }
    return TSR_OK;
}

/* Scans one slice: ptrs[0] is the input's first element, ptrs[1..] the
 * outputs'; element i of operand k is at ptrs[k] + i * steps[k]. */
typedef void (*slice_fn)(const void *context, char *const *ptrs, const int64_t *steps,
                         int64_t length);

static void scan_walk_run(const scan_walk *walk, slice_fn fn, const void *context)
{
    if (walk->length == 0 || walk->slices == 0) {
        return;
    }
    int64_t index[TSR_MAX_DIMS] = {0};
    int64_t offset[1 + MAX_OUTPUTS] = {0};
    int32_t operands = 1 + walk->outputs;
    for (int64_t s = 0; s < walk->slices; s++) {
        char *ptrs[1 + MAX_OUTPUTS];
        for (int32_t k = 0; k < operands; k++) {
            ptrs[k] = walk->base[k] + offset[k];
        }
        fn(context, ptrs, walk->step, walk->length);
        for (int32_t d = walk->outer_ndim - 1; d >= 0; d--) {
            for (int32_t k = 0; k < operands; k++) {
                offset[k] += walk->outer_step[k][d];
            }
            if (++index[d] < walk->outer_shape[d]) {
                break;
            }
            for (int32_t k = 0; k < operands; k++) {
                offset[k] -= walk->outer_step[k][d] * walk->outer_shape[d];
            }
            index[d] = 0;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Accumulating scans                                                        */
/* ------------------------------------------------------------------------ */

typedef struct accumulate {
    tsr__ref_combine_fn combine;
    tsr__ref_wide identity;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
} accumulate;

/* log(exp(acc) + exp(term)) as PyTorch's logcumsumexp step computes it:
 * equal infinities stay themselves, and a NaN on either side propagates. */
static void log_add_exp(tsr__ref_wide *acc, const tsr__ref_wide *term)
{
    double x = term->f, y = acc->f;
    double low = isnan(y) ? y : (y < x ? y : x);
    double high = isnan(y) ? y : (x < y ? y : x);
    if (low != high || isfinite(low)) {
        acc->f = log1p(exp(low - high)) + high;
    } else {
        acc->f = x;
    }
}

static void accumulate_slice(const void *context, char *const *ptrs, const int64_t *steps,
                             int64_t length)
{
    const accumulate *acc = context;
    tsr__ref_wide carry = acc->identity, running = acc->identity, term, result;
    int has_carry = 0;
    for (int64_t i = 0; i < length; i++) {
        if (i > 0 && i % TSR__REF_REDUCE_BLOCK == 0) {
            if (has_carry) {
                acc->combine(&carry, &running);
            } else {
                carry = running;
            }
            has_carry = 1;
            running = acc->identity;
        }
        acc->load(ptrs[0] + i * steps[0], &term);
        acc->combine(&running, &term);
        result = running;
        if (has_carry) {
            result = carry;
            acc->combine(&result, &running);
        }
        acc->store(ptrs[1] + i * steps[1], &result);
    }
}

/* ------------------------------------------------------------------------ */
/* Running extrema                                                           */
/* ------------------------------------------------------------------------ */

typedef struct running_extreme {
    int want_max;
    tsr__ref_category category;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
    tsr__ref_store_fn store_index;
} running_extreme;

/* A term replaces the running extreme when it is a NaN, or when the running
 * one is not and the term compares >= (<= for the minimum): equal values
 * move the index to the later one. */
static int takes_over(const running_extreme *run, const tsr__ref_wide *x, const tsr__ref_wide *best)
{
    if (run->category == TSR__REF_REAL) {
        if (isnan(x->f)) {
            return 1;
        }
        return !isnan(best->f) && (run->want_max ? x->f >= best->f : x->f <= best->f);
    }
    return run->want_max ? x->i >= best->i : x->i <= best->i;
}

static void extreme_slice(const void *context, char *const *ptrs, const int64_t *steps,
                          int64_t length)
{
    const running_extreme *run = context;
    tsr__ref_wide best, term, index;
    run->load(ptrs[0], &best);
    index.i = 0;
    for (int64_t i = 0; i < length; i++) {
        run->load(ptrs[0] + i * steps[0], &term);
        if (takes_over(run, &term, &best)) {
            best = term;
            index.i = i;
        }
        run->store(ptrs[1] + i * steps[1], &best);
        run->store_index(ptrs[2] + i * steps[2], &index);
    }
}

/* ------------------------------------------------------------------------ */
/* The table and the kernel                                                  */
/* ------------------------------------------------------------------------ */

#define SET_NUMERIC                                                                                \
    (TSR__REF_SET_INTEGER | TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264 | TSR__REF_SET_COMPLEX)
#define SET_ORDERED                                                                                \
    (TSR__REF_SET_BOOL | TSR__REF_SET_INTEGER | TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264)

typedef struct scan_op {
    int32_t op;
    uint32_t dtypes; /* the dtypes PyTorch 1.13 scans on CPU */
    int32_t outputs;
} scan_op;

static const scan_op scan_ops[] = {
    {TSR_OP_CUMSUM, SET_NUMERIC, 1},
    {TSR_OP_CUMPROD, SET_NUMERIC, 1},
    {TSR_OP_CUMMAX, SET_ORDERED, 2},
    {TSR_OP_CUMMIN, SET_ORDERED, 2},
    {TSR_OP_LOGCUMSUMEXP, TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264, 1},
};

static const scan_op *find_op(int32_t op)
{
    for (size_t i = 0; i < sizeof scan_ops / sizeof scan_ops[0]; i++) {
        if (scan_ops[i].op == op) {
            return &scan_ops[i];
        }
    }
    return NULL;
}

int tsr__ref_scan_supports(int32_t op, int32_t dtype)
{
    const scan_op *entry = find_op(op);
    return entry != NULL && tsr__ref_dtype_valid(dtype) &&
           (entry->dtypes & TSR__REF_DTYPE_BIT(dtype)) != 0;
}

static int check_call(const tsr__ref_backend *backend, const scan_op *op,
                      const tsr_kernel_args *args)
{
    if (args->num_inputs != 1 || args->inputs == NULL || args->num_outputs != op->outputs ||
        args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "expected 1 input and %d outputs, got %d and %d", (int)op->outputs,
                              (int)args->num_inputs, (int)args->num_outputs);
    }
    const tsr_scan_attrs *attrs = args->attrs;
    if (attrs == NULL || attrs->struct_size < sizeof(tsr_scan_attrs)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "scans need tsr_scan_attrs of ABI 1.0");
    }
    int32_t dtype = args->inputs[0].dtype;
    if (!tsr__ref_scan_supports(op->op, dtype)) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "no kernel for dtype %s",
                              tsr__ref_dtype_name(dtype));
    }
    if (args->outputs[0].dtype != dtype ||
        (op->outputs > 1 && args->outputs[1].dtype != TSR_INT64)) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "outputs must be %s%s",
                              tsr__ref_dtype_name(dtype), op->outputs > 1 ? " and int64" : "");
    }
    return TSR_OK;
}

static accumulate accumulator(int32_t op, int32_t dtype)
{
    tsr__ref_category category = tsr__ref_dtype_category(dtype);
    accumulate acc = {.load = tsr__ref_loader(dtype), .store = tsr__ref_storer(category, dtype)};
    double one = op == TSR_OP_CUMPROD ? 1.0 : 0.0;
    if (category == TSR__REF_INTEGER) {
        acc.identity.i = (int64_t)one;
    } else if (category == TSR__REF_REAL) {
        acc.identity.f = op == TSR_OP_LOGCUMSUMEXP ? -INFINITY : one;
    } else {
        acc.identity.c = tsr__ref_complex_make(one, 0.0);
    }
    acc.combine = op == TSR_OP_LOGCUMSUMEXP ? log_add_exp
                  : op == TSR_OP_CUMPROD    ? tsr__ref_multipliers[category]
                                            : tsr__ref_adders[category];
    return acc;
}

int tsr__ref_kernel_scan(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const scan_op *op =
        args != NULL && args->struct_size >= sizeof(tsr_kernel_args) ? find_op(args->op) : NULL;
    if (op == NULL) {
        return tsr__ref_error(backend, TSR_ERR_UNIMPLEMENTED, "not a scan");
    }
    int status = check_call(backend, op, args);
    scan_walk walk;
    if (status == TSR_OK) {
        const tsr_scan_attrs *attrs = args->attrs;
        status = scan_walk_init(backend, &walk, &args->inputs[0], args->outputs, op->outputs,
                                attrs->dim);
    }
    if (status != TSR_OK) {
        return status;
    }
    int32_t dtype = args->inputs[0].dtype;
    if (op->outputs == 1) {
        accumulate acc = accumulator(op->op, dtype);
        scan_walk_run(&walk, accumulate_slice, &acc);
        return TSR_OK;
    }
    tsr__ref_category category = tsr__ref_dtype_category(dtype);
    running_extreme run = {
        .want_max = op->op == TSR_OP_CUMMAX,
        .category = category,
        .load = tsr__ref_loader(dtype),
        .store = tsr__ref_storer(category, dtype),
        .store_index = tsr__ref_storer(TSR__REF_INTEGER, TSR_INT64),
    };
    scan_walk_run(&walk, extreme_slice, &run);
    return TSR_OK;
}
