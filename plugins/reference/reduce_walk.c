/* The reduction walk and the lane/block fold. Offsets stay integers until an
 * element is read, so no pointer ever leaves an operand's memory. */
#include "reduce_walk.h"

#include <complex.h>

#include "complex_ops.h"
#include "scalar_ops.h"

static int check_desc(const tsr_tensor_desc *desc)
{
    if (!tsr__ref_dtype_valid(desc->dtype) || desc->ndim < 0 || desc->ndim > TSR_MAX_DIMS) {
        return 0;
    }
    if (desc->ndim > 0 && (desc->shape == NULL || desc->strides == NULL)) {
        return 0;
    }
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (desc->shape[d] < 0) {
            return 0;
        }
    }
    return 1;
}

/* Outputs have the input's rank and shape, but 1 in each reduced dim. */
static int check_output_shape(const tsr_tensor_desc *input, const tsr_tensor_desc *out,
                              uint32_t mask)
{
    if (out->ndim != input->ndim) {
        return 0;
    }
    for (int32_t d = 0; d < input->ndim; d++) {
        int64_t expected = (mask & (UINT32_C(1) << d)) ? 1 : input->shape[d];
        if (out->shape[d] != expected) {
            return 0;
        }
    }
    return 1;
}

static int check_geometry(const tsr__ref_backend *backend, const tsr_tensor_desc *input,
                          const tsr_tensor_desc *outputs, int32_t num_outputs, uint32_t mask)
{
    if (!check_desc(input)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "malformed input descriptor");
    }
    if (input->ndim < 32 && (mask >> input->ndim) != 0) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "dims_mask 0x%x names dims beyond the input's %d", (unsigned)mask,
                              (int)input->ndim);
    }
    for (int32_t k = 0; k < num_outputs; k++) {
        if (!check_desc(&outputs[k]) || !check_output_shape(input, &outputs[k], mask)) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE,
                                  "output %d must have the input's shape with reduced dims of "
                                  "size 1",
                                  (int)k);
        }
    }
    return TSR_OK;
}

int tsr__ref_reduce_walk_init(const tsr__ref_backend *backend, tsr__ref_reduce_walk *walk,
                              const tsr_tensor_desc *input, const tsr_tensor_desc *outputs,
                              int32_t num_outputs, uint32_t mask)
{
    int status = check_geometry(backend, input, outputs, num_outputs, mask);
    if (status != TSR_OK) {
        return status;
    }
    *walk = (tsr__ref_reduce_walk){.outputs = num_outputs, .out_count = 1, .terms = 1};
    int64_t in_size = (int64_t)tsr__ref_dtype_size(input->dtype);
    for (int32_t d = 0; d < input->ndim; d++) {
        if (mask & (UINT32_C(1) << d)) {
            walk->red_shape[walk->red_ndim] = input->shape[d];
            walk->red_in[walk->red_ndim++] = input->strides[d] * in_size;
            walk->terms *= input->shape[d];
            continue;
        }
        int32_t k = walk->kept_ndim++;
        walk->kept_shape[k] = input->shape[d];
        walk->kept_in[k] = input->strides[d] * in_size;
        for (int32_t o = 0; o < num_outputs; o++) {
            int64_t out_size = (int64_t)tsr__ref_dtype_size(outputs[o].dtype);
            walk->kept_out[o][k] = outputs[o].strides[d] * out_size;
        }
        walk->out_count *= input->shape[d];
    }
    if (walk->out_count > 0 && walk->terms > 0 && input->data == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "input data is NULL");
    }
    walk->in_base = (const char *)input->data + input->byte_offset;
    for (int32_t o = 0; o < num_outputs; o++) {
        if (walk->out_count > 0 && outputs[o].data == NULL) {
            return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "output data is NULL");
        }
        walk->out_base[o] = (char *)outputs[o].data + outputs[o].byte_offset;
    }
    return TSR_OK;
}

void tsr__ref_terms_load(const tsr__ref_terms *terms, int64_t start, int64_t n, tsr__ref_wide *out)
{
    const tsr__ref_reduce_walk *walk = terms->walk;
    int64_t index[TSR_MAX_DIMS];
    int64_t offset = 0;
    int64_t rest = start;
    for (int32_t d = walk->red_ndim - 1; d >= 0; d--) {
        index[d] = rest % walk->red_shape[d];
        rest /= walk->red_shape[d];
        offset += index[d] * walk->red_in[d];
    }
    for (int64_t k = 0; k < n; k++) {
        terms->load(terms->base + offset, &out[k]);
        /* odometer over the reduced dims, last fastest */
        for (int32_t d = walk->red_ndim - 1; d >= 0; d--) {
            offset += walk->red_in[d];
            if (++index[d] < walk->red_shape[d]) {
                break;
            }
            offset -= walk->red_in[d] * walk->red_shape[d];
            index[d] = 0;
        }
    }
}

void tsr__ref_reduce_walk_run(const tsr__ref_reduce_walk *walk, tsr__ref_load_fn load,
                              tsr__ref_output_fn fn, void *context)
{
    tsr__ref_wide buffer[TSR__REF_REDUCE_BLOCK];
    int64_t index[TSR_MAX_DIMS] = {0};
    int64_t in_offset = 0;
    int64_t out_offset[TSR__REF_REDUCE_MAX_OUTPUTS] = {0};
    for (int64_t o = 0; o < walk->out_count; o++) {
        tsr__ref_terms terms = {walk, walk->in_base + in_offset, load, buffer};
        char *outs[TSR__REF_REDUCE_MAX_OUTPUTS];
        for (int32_t k = 0; k < walk->outputs; k++) {
            outs[k] = walk->out_base[k] + out_offset[k];
        }
        fn(context, &terms, outs);
        for (int32_t d = walk->kept_ndim - 1; d >= 0; d--) {
            in_offset += walk->kept_in[d];
            for (int32_t k = 0; k < walk->outputs; k++) {
                out_offset[k] += walk->kept_out[k][d];
            }
            if (++index[d] < walk->kept_shape[d]) {
                break;
            }
            in_offset -= walk->kept_in[d] * walk->kept_shape[d];
            for (int32_t k = 0; k < walk->outputs; k++) {
                out_offset[k] -= walk->kept_out[k][d] * walk->kept_shape[d];
            }
            index[d] = 0;
        }
    }
}

/* One block: lane k % LANES takes term k, then the lanes halve pairwise. */
static tsr__ref_wide fold_block(const tsr__ref_wide *block, int64_t n, tsr__ref_combine_fn combine,
                                tsr__ref_wide identity)
{
    tsr__ref_wide lanes[TSR__REF_REDUCE_LANES];
    for (int32_t lane = 0; lane < TSR__REF_REDUCE_LANES; lane++) {
        lanes[lane] = identity;
    }
    for (int64_t k = 0; k < n; k++) {
        combine(&lanes[k % TSR__REF_REDUCE_LANES], &block[k]);
    }
    for (int32_t width = TSR__REF_REDUCE_LANES / 2; width >= 1; width /= 2) {
        for (int32_t lane = 0; lane < width; lane++) {
            combine(&lanes[lane], &lanes[lane + width]);
        }
    }
    return lanes[0];
}

/* Block results are merged like a binary counter: two partials of equal
 * block counts merge at once, and what remains at the end merges from the
 * right. For any count this is the tree whose left part is the largest
 * power of two of blocks below the count, without knowing the count. */
tsr__ref_wide tsr__ref_lane_fold(const tsr__ref_terms *terms, tsr__ref_term_fn transform,
                                 const void *transform_context, tsr__ref_combine_fn combine,
                                 tsr__ref_wide identity)
{
    tsr__ref_wide partial[64];
    int64_t blocks[64];
    int32_t depth = 0;
    int64_t total = terms->walk->terms;
    for (int64_t start = 0; start < total; start += TSR__REF_REDUCE_BLOCK) {
        int64_t n = total - start < TSR__REF_REDUCE_BLOCK ? total - start : TSR__REF_REDUCE_BLOCK;
        tsr__ref_terms_load(terms, start, n, terms->buffer);
        if (transform != NULL) {
            for (int64_t k = 0; k < n; k++) {
                transform(transform_context, &terms->buffer[k]);
            }
        }
        partial[depth] = fold_block(terms->buffer, n, combine, identity);
        blocks[depth++] = 1;
        while (depth >= 2 && blocks[depth - 1] == blocks[depth - 2]) {
            combine(&partial[depth - 2], &partial[depth - 1]);
            blocks[depth - 2] *= 2;
            depth--;
        }
    }
    if (depth == 0) {
        return identity;
    }
    while (depth >= 2) {
        combine(&partial[depth - 2], &partial[depth - 1]);
        depth--;
    }
    return partial[0];
}

/* ------------------------------------------------------------------------ */
/* Combining                                                                 */
/* ------------------------------------------------------------------------ */

static void add_integer(tsr__ref_wide *acc, const tsr__ref_wide *term)
{
    acc->i = tsr__ref_wrap_add(acc->i, term->i);
}

static void add_real(tsr__ref_wide *acc, const tsr__ref_wide *term)
{
    acc->f += term->f;
}

static void add_complex(tsr__ref_wide *acc, const tsr__ref_wide *term)
{
    acc->c = tsr__ref_complex_make(creal(acc->c) + creal(term->c), cimag(acc->c) + cimag(term->c));
}

static void mul_integer(tsr__ref_wide *acc, const tsr__ref_wide *term)
{
    acc->i = tsr__ref_wrap_mul(acc->i, term->i);
}

static void mul_real(tsr__ref_wide *acc, const tsr__ref_wide *term)
{
    acc->f *= term->f;
}

static void mul_complex(tsr__ref_wide *acc, const tsr__ref_wide *term)
{
    acc->c = tsr__ref_complex_mul(acc->c, term->c);
}

const tsr__ref_combine_fn tsr__ref_adders[TSR__REF_CATEGORY_COUNT] = {add_integer, add_real,
                                                                    add_complex};
const tsr__ref_combine_fn tsr__ref_multipliers[TSR__REF_CATEGORY_COUNT] = {mul_integer, mul_real,
                                                                         mul_complex};
