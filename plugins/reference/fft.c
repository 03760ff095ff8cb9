/* fft_c2c, fft_r2c and fft_c2r over the dims of tsr_fft_attrs.axes_mask
 * (include/tessera/plugin.h states the contract).
 *
 * The operand is read once into a contiguous work array of complex doubles
 * shaped like the complex side of the transform; each axis then transforms
 * its lines in place with the line plan of fft_plan.c, and the result is
 * scaled and rounded once into the output's dtype. A line's bits depend on
 * its values and its length alone, so neither the layout nor the batch
 * changes a bit of the result. r2c transforms its last axis first (real
 * lines in, bins 0..n/2 out); c2r transforms it last (the n points rebuilt
 * from the n/2 + 1 bins, real parts out). Both run in either direction. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "fft_plan.h"
#include "kernels.h"

typedef struct fft_call {
    int32_t op, ndim, last; /* last: the highest transformed dim */
    uint32_t axes;
    int sign;
    int64_t shape[TSR_MAX_DIMS];       /* the work array's (complex side) */
    int64_t work_strides[TSR_MAX_DIMS]; /* contiguous, in complex points */
    int64_t lengths[TSR_MAX_DIMS];      /* logical points per transformed dim */
    int64_t numel;
    double scale;
    double *work;
    double *line;    /* the longest line, complex */
    double *scratch; /* the largest plan's scratch */
    tsr__ref_fft_plan *plans[TSR_MAX_DIMS];
} fft_call;

typedef void (*line_fn)(fft_call *call, void *context, int64_t offset_a, int64_t offset_b);

/* Calls fn at the start of every line along `axis` of `shape`, with the
 * offsets of that start under strides_a and strides_b. */
static void for_each_line(fft_call *call, const int64_t *shape, int32_t axis,
                          const int64_t *strides_a, const int64_t *strides_b, line_fn fn,
                          void *context)
{
    int64_t index[TSR_MAX_DIMS] = {0};
    int64_t a = 0, b = 0;
    for (;;) {
        fn(call, context, a, b);
        int32_t d = call->ndim - 1;
        for (; d >= 0; d--) {
            if (d == axis) {
                continue;
            }
            if (++index[d] < shape[d]) {
                a += strides_a[d];
                b += strides_b[d];
                break;
            }
            a -= (shape[d] - 1) * strides_a[d];
            b -= (shape[d] - 1) * strides_b[d];
            index[d] = 0;
        }
        if (d < 0) {
            return;
        }
    }
}

typedef struct io_context {
    const tsr_tensor_desc *desc;
    char *base;
    int64_t count; /* points along the line in the tensor */
    int64_t step;  /* the tensor's stride along the line */
    int64_t axis_points;
    int32_t axis; /* the transformed dim */
} io_context;

/* Complex tensor -> work, line by line along the last dim. */
static void load_complex(fft_call *call, void *context, int64_t tensor_offset, int64_t work_offset)
{
    const io_context *io = context;
    double *w = call->work + 2 * work_offset;
    for (int64_t j = 0; j < io->count; j++) {
        int64_t at = tensor_offset + j * io->step;
        if (io->desc->dtype == TSR_COMPLEX64) {
            const float *v = (const float *)io->base + 2 * at;
            w[2 * j] = v[0];
            w[2 * j + 1] = v[1];
        } else {
            const double *v = (const double *)io->base + 2 * at;
            w[2 * j] = v[0];
            w[2 * j + 1] = v[1];
        }
    }
}

static void store_complex(fft_call *call, void *context, int64_t tensor_offset,
                          int64_t work_offset)
{
    const io_context *io = context;
    const double *w = call->work + 2 * work_offset;
    for (int64_t j = 0; j < io->count; j++) {
        int64_t at = tensor_offset + j * io->step;
        double re = w[2 * j] * call->scale, im = w[2 * j + 1] * call->scale;
        if (io->desc->dtype == TSR_COMPLEX64) {
            float *v = (float *)io->base + 2 * at;
            v[0] = (float)re;
            v[1] = (float)im;
        } else {
            double *v = (double *)io->base + 2 * at;
            v[0] = re;
            v[1] = im;
        }
    }
}

/* One line of the work array along io->step (in points), in place. */
static void transform_work_line(fft_call *call, void *context, int64_t work_offset, int64_t unused)
{
    (void)unused;
    const io_context *io = context;
    int64_t n = io->axis_points;
    double *w = call->work + 2 * work_offset;
    for (int64_t j = 0; j < n; j++) {
        call->line[2 * j] = w[2 * j * io->step];
        call->line[2 * j + 1] = w[2 * j * io->step + 1];
    }
    tsr__ref_fft_execute(call->plans[io->axis], call->line, call->sign, call->scratch);
    for (int64_t j = 0; j < n; j++) {
        w[2 * j * io->step] = call->line[2 * j];
        w[2 * j * io->step + 1] = call->line[2 * j + 1];
    }
}

/* r2c's first axis: real tensor line of n points -> bins 0..n/2 of work. */
static void r2c_line(fft_call *call, void *context, int64_t tensor_offset, int64_t work_offset)
{
    const io_context *io = context;
    int64_t n = io->axis_points, step = call->work_strides[call->last];
    for (int64_t j = 0; j < n; j++) {
        int64_t at = tensor_offset + j * io->step;
        call->line[2 * j] = io->desc->dtype == TSR_FLOAT32 ? ((const float *)io->base)[at]
                                                           : ((const double *)io->base)[at];
        call->line[2 * j + 1] = 0.0;
    }
    tsr__ref_fft_execute(call->plans[call->last], call->line, call->sign, call->scratch);
    double *w = call->work + 2 * work_offset;
    for (int64_t k = 0; k <= n / 2; k++) {
        w[2 * k * step] = call->line[2 * k];
        w[2 * k * step + 1] = call->line[2 * k + 1];
    }
}

/* c2r's last axis: bins 0..n/2 of work -> n real points of the tensor. */
static void c2r_line(fft_call *call, void *context, int64_t work_offset, int64_t tensor_offset)
{
    const io_context *io = context;
    int64_t n = io->axis_points, step = call->work_strides[call->last];
    const double *w = call->work + 2 * work_offset;
    for (int64_t k = 0; k < n; k++) {
        int64_t bin = k <= n / 2 ? k : n - k;
        call->line[2 * k] = w[2 * bin * step];
        call->line[2 * k + 1] = k <= n / 2 ? w[2 * bin * step + 1] : -w[2 * bin * step + 1];
    }
    tsr__ref_fft_execute(call->plans[call->last], call->line, call->sign, call->scratch);
    for (int64_t j = 0; j < n; j++) {
        int64_t at = tensor_offset + j * io->step;
        double value = call->line[2 * j] * call->scale;
        if (io->desc->dtype == TSR_FLOAT32) {
            ((float *)io->base)[at] = (float)value;
        } else {
            ((double *)io->base)[at] = value;
        }
    }
}

static char *base_of(const tsr_tensor_desc *desc)
{
    return (char *)desc->data + desc->byte_offset;
}

/* Moves a complex tensor into or out of the work array (lines along the
 * tensor's last dim, whatever its strides). */
static void move_complex(fft_call *call, const tsr_tensor_desc *desc, int storing)
{
    int32_t axis = call->ndim - 1;
    io_context io = {desc, base_of(desc), call->shape[axis], desc->strides[axis], 0, axis};
    for_each_line(call, call->shape, axis, desc->strides, call->work_strides,
                  storing ? store_complex : load_complex, &io);
}

static void transform_axis(fft_call *call, int32_t axis)
{
    io_context io = {NULL, NULL, 0, call->work_strides[axis], call->shape[axis], axis};
    for_each_line(call, call->shape, axis, call->work_strides, call->work_strides,
                  transform_work_line, &io);
}

static int check_call(const tsr__ref_backend *backend, const tsr_kernel_args *args, fft_call *call)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "fft kernels take one input and one output");
    }
    const tsr_fft_attrs *attrs = args->attrs;
    if (attrs == NULL || attrs->struct_size < sizeof(tsr_fft_attrs)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "fft needs tsr_fft_attrs");
    }
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    int32_t ndim = in->ndim;
    int complex_in = args->op != TSR_OP_FFT_R2C, complex_out = args->op != TSR_OP_FFT_C2R;
    int wide = in->dtype == TSR_FLOAT64 || in->dtype == TSR_COMPLEX128;
    int32_t want_in = complex_in ? (wide ? TSR_COMPLEX128 : TSR_COMPLEX64)
                                 : (wide ? TSR_FLOAT64 : TSR_FLOAT32);
    int32_t want_out = complex_out ? (wide ? TSR_COMPLEX128 : TSR_COMPLEX64)
                                   : (wide ? TSR_FLOAT64 : TSR_FLOAT32);
    if (in->dtype != want_in || out->dtype != want_out) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "%s does not compute dtype %d -> %d",
                              args->op == TSR_OP_FFT_C2C   ? "fft_c2c"
                              : args->op == TSR_OP_FFT_R2C ? "fft_r2c"
                                                           : "fft_c2r",
                              (int)in->dtype, (int)out->dtype);
    }
    if (ndim < 1 || ndim > TSR_MAX_DIMS || out->ndim != ndim || attrs->axes_mask == 0 ||
        (ndim < 32 && (attrs->axes_mask >> ndim) != 0)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "fft axes mask 0x%x does not fit a tensor of %d dims",
                              (unsigned)attrs->axes_mask, (int)ndim);
    }
    if ((attrs->direction != TSR_FFT_FORWARD && attrs->direction != TSR_FFT_INVERSE) ||
        (attrs->norm < TSR_FFT_NORM_NONE || attrs->norm > TSR_FFT_NORM_BY_SQRT_N)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "fft direction %d or norm %d is not valid here",
                              (int)attrs->direction, (int)attrs->norm);
    }
    call->op = args->op;
    call->ndim = ndim;
    call->axes = attrs->axes_mask;
    call->sign = attrs->direction;
    for (int32_t d = 0; d < ndim; d++) {
        if (call->axes & (1u << d)) {
            call->last = d;
        }
    }
    const tsr_tensor_desc *complex_side = args->op == TSR_OP_FFT_R2C ? out : in;
    const tsr_tensor_desc *real_side = args->op == TSR_OP_FFT_R2C ? in : out;
    for (int32_t d = 0; d < ndim; d++) {
        int64_t e_in = in->shape[d], e_out = out->shape[d];
        int ok = e_in >= 0 && e_out >= 0;
        if (args->op != TSR_OP_FFT_C2C && d == call->last) {
            ok = ok && complex_side->shape[d] == real_side->shape[d] / 2 + 1;
        } else {
            ok = ok && e_in == e_out;
        }
        if (!ok) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE,
                                  "fft output extent %lld does not fit input extent %lld "
                                  "along dim %d",
                                  (long long)e_out, (long long)e_in, (int)d);
        }
        call->shape[d] = complex_side->shape[d];
        call->lengths[d] = args->op != TSR_OP_FFT_C2C && d == call->last ? real_side->shape[d]
                                                                         : call->shape[d];
    }
    double points = 1.0;
    for (int32_t d = 0; d < ndim; d++) {
        if (call->axes & (1u << d)) {
            points *= (double)call->lengths[d];
        }
    }
    call->scale = attrs->norm == TSR_FFT_NORM_BY_N        ? 1.0 / points
                  : attrs->norm == TSR_FFT_NORM_BY_SQRT_N ? 1.0 / sqrt(points)
                                                          : 1.0;
    return TSR_OK;
}

/* Plans per transformed dim (a length seen before shares nothing: plans are
 * cheap beside the transform), the work array and the line buffers. */
static int allocate(fft_call *call)
{
    int64_t numel = 1, longest = 1, scratch = 1;
    for (int32_t d = call->ndim - 1; d >= 0; d--) {
        call->work_strides[d] = numel;
        numel *= call->shape[d];
    }
    call->numel = numel;
    for (int32_t d = 0; d < call->ndim; d++) {
        if (!(call->axes & (1u << d))) {
            continue;
        }
        call->plans[d] = tsr__ref_fft_plan_create(call->lengths[d]);
        if (call->plans[d] == NULL) {
            return TSR_ERR_OUT_OF_MEMORY;
        }
        longest = call->lengths[d] > longest ? call->lengths[d] : longest;
        scratch = call->plans[d]->scratch_points > scratch ? call->plans[d]->scratch_points
                                                           : scratch;
    }
    call->work = malloc((size_t)numel * 2 * sizeof(double));
    call->line = malloc((size_t)longest * 2 * sizeof(double));
    call->scratch = malloc((size_t)scratch * 2 * sizeof(double));
    return call->work && call->line && call->scratch ? TSR_OK : TSR_ERR_OUT_OF_MEMORY;
}

static void release(fft_call *call)
{
    for (int32_t d = 0; d < call->ndim; d++) {
        tsr__ref_fft_plan_destroy(call->plans[d]);
    }
    free(call->work);
    free(call->line);
    free(call->scratch);
}

/* Zero points along a transformed dim: an empty output, or (r2c of n = 0)
 * one bin of the empty sum, +0. */
static int empty_transform(const fft_call *call, const tsr_tensor_desc *out)
{
    for (int32_t d = 0; d < call->ndim; d++) {
        if ((call->axes & (1u << d)) && call->lengths[d] == 0) {
            return 1;
        }
        if (out->shape[d] == 0) {
            return 1;
        }
    }
    return 0;
}

static void store_zero(fft_call *call, void *context, int64_t tensor_offset, int64_t unused)
{
    (void)call;
    (void)unused;
    const io_context *io = context;
    size_t size = io->desc->dtype == TSR_COMPLEX64 ? 2 * sizeof(float) : 2 * sizeof(double);
    for (int64_t j = 0; j < io->count; j++) {
        memset(io->base + (tensor_offset + j * io->step) * (int64_t)size, 0, size);
    }
}

static void zero_output(fft_call *call, const tsr_tensor_desc *out)
{
    for (int32_t d = 0; d < call->ndim; d++) {
        if (out->shape[d] == 0) {
            return; /* nothing to write */
        }
    }
    int32_t axis = call->ndim - 1;
    io_context io = {out, base_of(out), out->shape[axis], out->strides[axis], 0, 0};
    for_each_line(call, out->shape, axis, out->strides, out->strides, store_zero, &io);
}

int tsr__ref_kernel_fft(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    fft_call call = {0};
    int status = check_call(backend, args, &call);
    if (status != TSR_OK) {
        return status;
    }
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    if (empty_transform(&call, out)) {
        zero_output(&call, out);
        return TSR_OK;
    }
    status = allocate(&call);
    if (status != TSR_OK) {
        release(&call);
        return tsr__ref_error(backend, status, "fft: out of memory for %lld points",
                              (long long)call.numel);
    }
    if (call.op == TSR_OP_FFT_R2C) {
        io_context io = {in, base_of(in), 0, in->strides[call.last], call.lengths[call.last],
                         call.last};
        for_each_line(&call, in->shape, call.last, in->strides, call.work_strides, r2c_line,
                      &io);
    } else {
        move_complex(&call, in, 0);
    }
    for (int32_t d = 0; d < call.ndim; d++) {
        int skip = call.op != TSR_OP_FFT_C2C && d == call.last;
        if ((call.axes & (1u << d)) && !skip) {
            transform_axis(&call, d);
        }
    }
    if (call.op == TSR_OP_FFT_C2R) {
        io_context io = {out, base_of(out), 0, out->strides[call.last],
                         call.lengths[call.last], call.last};
        for_each_line(&call, call.shape, call.last, call.work_strides, out->strides, c2r_line,
                      &io);
    } else {
        move_complex(&call, out, 1);
    }
    release(&call);
    return TSR_OK;
}
