/* tsr_tensor_to_string against PyTorch 1.13's repr: tests/data/repr_cases.json
 * (written by tests/io/make_repr_cases.py) holds each tensor's dtype, shape
 * and values (or a ramp start + k * step for the large ones) and torch's
 * string; every case must match exactly. Also tsr_item and tsr_print. */
#include "check_json.h"

#include <stdlib.h>

static double number(const cJSON *v)
{
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        return strcmp(s, "nan") == 0 ? NAN : strcmp(s, "inf") == 0 ? INFINITY : -INFINITY;
    }
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? 1 : 0;
    return v->valuedouble;
}

/* The case's tensor: its values in float64 (complex128 for complex) or
 * int64, converted to its dtype. */
static tsr_tensor *build(const cJSON *c)
{
    tsr_dtype dtype;
    if (tsr_dtype_from_name(cJSON_GetObjectItem(c, "dtype")->valuestring, &dtype) != TSR_OK)
        return NULL;
    const cJSON *shape_json = cJSON_GetObjectItem(c, "shape");
    int ndim = cJSON_GetArraySize(shape_json);
    int64_t shape[8], n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d] = (int64_t)cJSON_GetArrayItem(shape_json, d)->valuedouble;
    bool complex = tsr_dtype_is_complex(dtype);
    bool integral = tsr_dtype_is_integral(dtype, true);
    size_t width = complex ? 2 : 1;
    double *f = calloc((size_t)n * width + 1, sizeof *f);
    int64_t *i = calloc((size_t)n + 1, sizeof *i);
    const cJSON *values = cJSON_GetObjectItem(c, "values");
    const cJSON *ramp = cJSON_GetObjectItem(c, "ramp");
    for (int64_t k = 0; k < n; k++) {
        if (ramp) {
            double v = number(cJSON_GetArrayItem(ramp, 0)) +
                       (double)k * number(cJSON_GetArrayItem(ramp, 1));
            f[k] = v, i[k] = (int64_t)v;
        } else if (complex) {
            const cJSON *pair = cJSON_GetArrayItem(values, (int)k);
            f[2 * k] = number(cJSON_GetArrayItem(pair, 0));
            f[2 * k + 1] = number(cJSON_GetArrayItem(pair, 1));
        } else {
            const cJSON *v = cJSON_GetArrayItem(values, (int)k);
            f[k] = number(v), i[k] = cJSON_IsNumber(v) ? (int64_t)v->valuedouble : (int64_t)f[k];
        }
    }
    tsr_tensor *wide = NULL, *t = NULL;
    if (integral)
        CHECK_OK(tsr_from_host(i, (size_t)n * sizeof *i, ndim, shape, TSR_INT64, NULL, &wide));
    else
        CHECK_OK(tsr_from_host(f, (size_t)n * width * sizeof *f, ndim, shape,
                               complex ? TSR_COMPLEX128 : TSR_FLOAT64, NULL, &wide));
    CHECK_OK(tsr_to_dtype(wide, dtype, &t));
    tsr_tensor_release(wide);
    free(f);
    free(i);
    if (t && cJSON_IsTrue(cJSON_GetObjectItem(c, "requires_grad")))
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static void test_cases_match_torch(void)
{
    cJSON *root = check_load_json(TSR_TEST_DATA_DIR "/repr_cases.json");
    const cJSON *cases = root ? cJSON_GetObjectItem(root, "cases") : NULL;
    CHECK_TRUE(cJSON_GetArraySize(cases) >= 30);
    for (int k = 0; k < cJSON_GetArraySize(cases); k++) {
        const cJSON *c = cJSON_GetArrayItem(cases, k);
        tsr_tensor *t = build(c);
        char *s = NULL;
        CHECK_OK(tsr_tensor_to_string(t, &s));
        const char *want = cJSON_GetObjectItem(c, "repr")->valuestring;
        check_count++;
        if (!s || strcmp(s, want) != 0)
            CHECK_FAIL_("case %d: got\n%s\nexpected\n%s", k, s ? s : "(null)", want);
        tsr_string_free(s);
        tsr_tensor_release(t);
    }
    cJSON_Delete(root);
}

/* grad_fn is tessera's node name (tsr_tensor_grad_fn_name), not PyTorch's
 * class name (AddBackward0): the suffix's form is PyTorch's. */
static void test_grad_fn_suffix(void)
{
    tsr_tensor *x = NULL, *y = NULL;
    CHECK_OK(tsr_from_host((float[]){1, 2}, 8, 1, (int64_t[]){2}, TSR_FLOAT32, NULL, &x));
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    CHECK_OK(tsr_add(x, x, &y));
    char *s = NULL;
    CHECK_OK(tsr_tensor_to_string(y, &s));
    CHECK_STR(s, "tensor([2., 4.], grad_fn=<add>)");
    tsr_string_free(s);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

static void test_item(void)
{
    tsr_tensor *t = NULL, *v = NULL, *c = NULL;
    tsr_scalar s = {0};
    CHECK_OK(tsr_from_host((int32_t[]){-7}, 4, 1, (int64_t[]){1}, TSR_INT32, NULL, &t));
    CHECK_OK(tsr_item(t, &s));
    CHECK_INT(s.kind, TSR_SCALAR_INT);
    CHECK_INT(s.v.i, -7);
    CHECK_OK(tsr_from_host((double[]){1.5, 2.5}, 16, 1, (int64_t[]){2}, TSR_FLOAT64, NULL, &v));
    s = tsr_scalar_int(99);
    CHECK_ERROR(tsr_item(v, &s), TSR_ERR_VALUE,
                "item: a Tensor with 2 elements cannot be converted to Scalar");
    CHECK_INT(s.v.i, 99); /* untouched */
    CHECK_OK(tsr_full(0, NULL, tsr_scalar_complex(1, -2), TSR_COMPLEX64, NULL, &c));
    CHECK_OK(tsr_item(c, &s));
    CHECK_INT(s.kind, TSR_SCALAR_COMPLEX);
    CHECK_DOUBLE(s.v.c.im, -2, 0);
    tsr_tensor_release(c);
    CHECK_OK(tsr_full(0, NULL, tsr_scalar_bool(true), TSR_BOOL, NULL, &c));
    CHECK_OK(tsr_item(c, &s));
    CHECK_INT(s.kind, TSR_SCALAR_BOOL);
    CHECK_INT(s.v.i, 1);
    CHECK_ERROR(tsr_item(NULL, &s), TSR_ERR_INVALID_ARGUMENT, "item:");
    tsr_tensor_release(c);
    tsr_tensor_release(t);
    tsr_tensor_release(v);
}

static void test_print_and_errors(void)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_arange(tsr_scalar_int(0), tsr_scalar_int(3), tsr_scalar_int(1), TSR_INT64, NULL,
                        &t));
    CHECK_OK(tsr_print(t));
    char *s = NULL;
    CHECK_ERROR(tsr_tensor_to_string(NULL, &s), TSR_ERR_INVALID_ARGUMENT, "tensor_to_string:");
    CHECK_ERROR(tsr_print(NULL), TSR_ERR_INVALID_ARGUMENT, "print:");
    CHECK_TRUE(s == NULL);
    tsr_tensor_release(t);
}

int main(void)
{
    test_cases_match_torch();
    test_grad_fn_suffix();
    test_item();
    test_print_and_errors();
    return check_summary("test_repr");
}
