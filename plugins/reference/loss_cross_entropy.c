/* cross_entropy with class indices: (logits [N, C, d...], target int64
 * [N, d...], weight [C]?) -> (loss, lse, picked), see plugin.h.
 *
 * This is the definition the cpu kernel is measured against, so it stays
 * plain: every sample walks its class row three times (maximum, sum of
 * exp(x - max), the smoothing sum), widened to double, and each output
 * rounds once into the logits' dtype. Shifting by the maximum keeps exp
 * finite; a row whose maximum is not finite (+inf, NaN, or only -inf) has no
 * distribution, so its lse is NaN and so is its loss, as log_softmax gives
 * NaN for such a row. Targets are checked before anything is written. */
#include <math.h>
#include <stddef.h>

#include "backend.h"
#include "kernels.h"
#include "wide.h"

enum { LOGITS, TARGET, WEIGHT };
enum { LOSS, LSE, PICKED };

typedef struct ce_run {
    const tsr_tensor_desc *in[3];
    const tsr_tensor_desc *out[3];
    int has_weight;
    int64_t classes;
    int64_t ignore_index;
    double smoothing;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
} ce_run;

static const char *bytes_at(const tsr_tensor_desc *d)
{
    return (const char *)d->data + d->byte_offset;
}

static double load_element(const ce_run *run, const tsr_tensor_desc *d, int64_t offset)
{
    tsr__ref_wide v;
    run->load(bytes_at(d) + offset * (int64_t)tsr__ref_dtype_size(d->dtype), &v);
    return v.f;
}

/* The element offset of sample `s` (row-major over dims other than the
 * class dim 1) in a tensor of the sample shape (skip_class 0) or in the
 * logits (skip_class 1). */
static int64_t sample_offset(const tsr_tensor_desc *logits, const tsr_tensor_desc *d, int64_t s,
                             int skip_class)
{
    int64_t offset = 0;
    for (int32_t k = logits->ndim - 1; k >= 0; k--) {
        if (k == 1) {
            continue;
        }
        int64_t extent = logits->shape[k];
        int32_t dim = skip_class || k == 0 ? k : k - 1;
        offset += (s % extent) * d->strides[dim];
        s /= extent;
    }
    return offset;
}

static int64_t target_at(const ce_run *run, int64_t s)
{
    const tsr_tensor_desc *t = run->in[TARGET];
    return ((const int64_t *)bytes_at(t))[sample_offset(run->in[LOGITS], t, s, 0)];
}

static double logit(const ce_run *run, int64_t row, int64_t c)
{
    const tsr_tensor_desc *x = run->in[LOGITS];
    return load_element(run, x, row + c * x->strides[1]);
}

static double class_weight(const ce_run *run, int64_t c)
{
    if (!run->has_weight) {
        return 1.0;
    }
    const tsr_tensor_desc *w = run->in[WEIGHT];
    return load_element(run, w, c * w->strides[0]);
}

static double row_lse(const ce_run *run, int64_t row)
{
    double max = -INFINITY;
    for (int64_t c = 0; c < run->classes; c++) {
        double v = logit(run, row, c);
        if (isnan(v)) {
            return v;
        }
        max = v > max ? v : max;
    }
    if (isinf(max)) {
        return NAN;
    }
    double sum = 0.0;
    for (int64_t c = 0; c < run->classes; c++) {
        sum += exp(logit(run, row, c) - max);
    }
    return max + log(sum);
}

static void store(const ce_run *run, int which, int64_t s, double value)
{
    const tsr_tensor_desc *d = run->out[which];
    tsr__ref_wide v = {.f = value};
    char *base = (char *)d->data + d->byte_offset;
    run->store(base +
                   sample_offset(run->in[LOGITS], d, s, 0) * (int64_t)tsr__ref_dtype_size(d->dtype),
               &v);
}

static void one_sample(const ce_run *run, int64_t s)
{
    int64_t row = sample_offset(run->in[LOGITS], run->in[LOGITS], s, 1);
    int64_t t = target_at(run, s);
    double lse = row_lse(run, row), loss = 0.0, picked = 0.0;
    if (t != run->ignore_index) {
        picked = class_weight(run, t);
        loss = (1.0 - run->smoothing) * picked * (lse - logit(run, row, t));
        if (run->smoothing > 0.0) {
            double smooth = 0.0;
            for (int64_t c = 0; c < run->classes; c++) {
                smooth += class_weight(run, c) * (lse - logit(run, row, c));
            }
            loss += run->smoothing / (double)run->classes * smooth;
        }
    }
    store(run, LOSS, s, loss);
    store(run, LSE, s, lse);
    store(run, PICKED, s, picked);
}

static int same_sample_shape(const tsr_tensor_desc *logits, const tsr_tensor_desc *d)
{
    if (d->ndim != logits->ndim - 1 || d->shape[0] != logits->shape[0]) {
        return 0;
    }
    for (int32_t k = 1; k < d->ndim; k++) {
        if (d->shape[k] != logits->shape[k + 1]) {
            return 0;
        }
    }
    return 1;
}

static int check_call(const tsr__ref_backend *backend, const tsr_kernel_args *args)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->inputs == NULL ||
        args->outputs == NULL || args->num_inputs < 2 || args->num_inputs > 3 ||
        args->num_outputs != 3) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "cross_entropy takes (logits, target[, weight]) and writes "
                              "(loss, lse, picked)");
    }
    const tsr_cross_entropy_attrs *attrs = args->attrs;
    if (attrs == NULL || attrs->struct_size < sizeof(tsr_cross_entropy_attrs) ||
        !(attrs->label_smoothing >= 0.0 && attrs->label_smoothing <= 1.0)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "cross_entropy needs tsr_cross_entropy_attrs with label_smoothing "
                              "in [0, 1]");
    }
    const tsr_tensor_desc *x = &args->inputs[LOGITS];
    if (x->ndim < 2 || x->ndim > TSR_MAX_DIMS ||
        tsr__ref_dtype_category(x->dtype) != TSR__REF_REAL ||
        args->inputs[TARGET].dtype != TSR_INT64) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE,
                              "cross_entropy: logits must be floating with at least 2 dims "
                              "(got %s, %d dims) and target int64 (got %s)",
                              tsr__ref_dtype_name(x->dtype), (int)x->ndim,
                              tsr__ref_dtype_name(args->inputs[TARGET].dtype));
    }
    int ok = same_sample_shape(x, &args->inputs[TARGET]);
    for (int i = 0; i < 3; i++) {
        ok = ok && same_sample_shape(x, &args->outputs[i]) && args->outputs[i].dtype == x->dtype;
    }
    if (args->num_inputs == 3) {
        const tsr_tensor_desc *w = &args->inputs[WEIGHT];
        ok = ok && w->ndim == 1 && w->shape[0] == x->shape[1] && w->dtype == x->dtype;
    }
    if (!ok) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "cross_entropy: target, weight or outputs do not fit the logits");
    }
    return TSR_OK;
}

int tsr__ref_kernel_cross_entropy(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    int status = check_call(backend, args);
    if (status != TSR_OK) {
        return status;
    }
    const tsr_cross_entropy_attrs *attrs = args->attrs;
    const tsr_tensor_desc *x = &args->inputs[LOGITS];
    ce_run run = {
        .in = {x, &args->inputs[TARGET], args->num_inputs == 3 ? &args->inputs[WEIGHT] : NULL},
        .out = {&args->outputs[LOSS], &args->outputs[LSE], &args->outputs[PICKED]},
        .has_weight = args->num_inputs == 3,
        .classes = x->shape[1],
        .ignore_index = attrs->ignore_index,
        .smoothing = attrs->label_smoothing,
        .load = tsr__ref_loader(x->dtype),
        .store = tsr__ref_storer(TSR__REF_REAL, x->dtype),
    };
    int64_t samples = 1;
    for (int32_t k = 0; k < x->ndim; k++) {
        samples *= k == 1 ? 1 : x->shape[k];
    }
    for (int64_t s = 0; s < samples; s++) {
        int64_t t = target_at(&run, s);
        if (t != run.ignore_index && (t < 0 || t >= run.classes)) {
            return tsr__ref_error(backend, TSR_ERR_INDEX,
                                  "cross_entropy: target %lld is out of bounds for %lld classes",
                                  (long long)t, (long long)run.classes);
        }
    }
    for (int64_t s = 0; s < samples; s++) {
        one_sample(&run, s);
    }
    return TSR_OK;
}
