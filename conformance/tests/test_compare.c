/* The comparison and the judging of the conformance runner: each way a result
 * can be wrong must be caught, with a message that says where and how. A
 * comparison that always passes would make every golden case worthless. */
#define _POSIX_C_SOURCE 200809L

#include "bindings/bind.h"
#include "golden/compare.h"
#include "golden/manifest.h"
#include "golden/runner.h"
#include "golden/source.h"
#include "conf_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char temp_dir[256];

/* Compares two float32 vectors of n elements with `tol`; checks the verdict
 * and that the message contains `text` (when not NULL). */
static void expect_f32(const char *test, const float *actual, const float *expected, int64_t n,
                       conf_tolerance tol, conf_compare_status want, const char *text)
{
    char msg[512] = "";
    conf_compare_status got =
        conf_compare_host(TSR_FLOAT32, 1, &n, actual, expected, &tol, msg, sizeof msg);
    if (got != want || (text && !strstr(msg, text))) {
        fprintf(stderr,
                "%s: verdict %d (expected %d), message \"%s\" (expected to contain \"%s\")\n", test,
                got, want, msg, text ? text : "");
        failures++;
    }
}

/* ------------------------------------------------------------------------ */
/* Host comparison                                                           */
/* ------------------------------------------------------------------------ */

static void floats_within_tolerance_are_equal(void)
{
    float a[3] = {1.0f, 1000.0f, -0.0f}, e[3] = {1.000001f, 1000.001f, 0.0f};
    expect_f32(__func__, a, e, 3, conf_tolerance_default(TSR_FLOAT32), CONF_COMPARE_EQUAL, NULL);
}

static void wrong_value_names_index_values_and_difference(void)
{
    float a[6] = {0, 1, 2, 3, 4.5f, 5}, e[6] = {0, 1, 2, 3, 4.25f, 5};
    int64_t shape[2] = {2, 3};
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    char msg[512] = "";
    conf_compare_status st = conf_compare_host(TSR_FLOAT32, 2, shape, a, e, &tol, msg, sizeof msg);
    CHECK(st == CONF_COMPARE_DIFFERENT, "verdict %d, expected DIFFERENT", st);
    const char *want = "1 of 6 elements differ; first at [1, 1]: got 4.5, expected 4.25, "
                       "difference 0.25";
    CHECK(strstr(msg, want) != NULL, "message \"%s\", expected to contain \"%s\"", msg, want);
}

static void tolerance_scales_with_expected_magnitude(void)
{
    /* 1000 * 1.3e-6 + 1e-5 = 0.00131: 0.001 passes, 0.002 does not. */
    float e[1] = {1000.0f}, close[1] = {1000.001f}, far[1] = {1000.002f};
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    expect_f32(__func__, close, e, 1, tol, CONF_COMPARE_EQUAL, NULL);
    expect_f32(__func__, far, e, 1, tol, CONF_COMPARE_DIFFERENT, "allowed 0.00131");
}

static void nan_matches_only_nan(void)
{
    float nan1[2] = {NAN, 1.0f}, nan2[2] = {NAN, 1.0f}, num[2] = {1.0f, 1.0f};
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    expect_f32(__func__, nan1, nan2, 2, tol, CONF_COMPARE_EQUAL, NULL);
    expect_f32(__func__, nan1, num, 2, tol, CONF_COMPARE_DIFFERENT, "got nan, expected 1");
    expect_f32(__func__, num, nan1, 2, tol, CONF_COMPARE_DIFFERENT, "got 1, expected nan");
}

static void infinities_match_exactly_with_sign(void)
{
    float pinf[1] = {INFINITY}, ninf[1] = {-INFINITY}, big[1] = {3.4e38f};
    conf_tolerance loose = {1.0, 1e30, false};
    expect_f32(__func__, pinf, pinf, 1, loose, CONF_COMPARE_EQUAL, NULL);
    expect_f32(__func__, ninf, pinf, 1, loose, CONF_COMPARE_DIFFERENT, "got -inf, expected inf");
    expect_f32(__func__, big, pinf, 1, loose, CONF_COMPARE_DIFFERENT, "expected inf");
    expect_f32(__func__, pinf, big, 1, loose, CONF_COMPARE_DIFFERENT, "got inf");
}

static void signed_zeros_differ_only_when_the_case_says_so(void)
{
    float pz[1] = {0.0f}, nz[1] = {-0.0f};
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    expect_f32(__func__, nz, pz, 1, tol, CONF_COMPARE_EQUAL, NULL);
    tol.signed_zeros = true;
    expect_f32(__func__, nz, pz, 1, tol, CONF_COMPARE_DIFFERENT, "got -0, expected 0");
    expect_f32(__func__, nz, nz, 1, tol, CONF_COMPARE_EQUAL, NULL);
}

static void integers_compare_exactly_whatever_the_tolerance(void)
{
    int64_t a[2] = {INT64_MAX, 5}, e[2] = {INT64_MAX, 6}, n = 2;
    conf_tolerance loose = {1.0, 10.0, false};
    char msg[512] = "";
    conf_compare_status st = conf_compare_host(TSR_INT64, 1, &n, a, e, &loose, msg, sizeof msg);
    CHECK(st == CONF_COMPARE_DIFFERENT, "verdict %d, expected DIFFERENT", st);
    CHECK(strstr(msg, "first at [1]: got 5, expected 6, difference -1") != NULL, "message %s", msg);
    int64_t big_a[1] = {INT64_MAX}, big_e[1] = {INT64_MAX - 1}, one = 1;
    st = conf_compare_host(TSR_INT64, 1, &one, big_a, big_e, &loose, msg, sizeof msg);
    CHECK(st == CONF_COMPARE_DIFFERENT, "INT64_MAX vs INT64_MAX-1: verdict %d (message %s)", st,
          msg);
}

static void bools_compare_as_truth_values(void)
{
    unsigned char a[3] = {1, 0, 1}, e[3] = {1, 0, 0};
    int64_t n = 3;
    conf_tolerance tol = conf_tolerance_default(TSR_BOOL);
    char msg[512] = "";
    conf_compare_status st = conf_compare_host(TSR_BOOL, 1, &n, a, e, &tol, msg, sizeof msg);
    CHECK(st == CONF_COMPARE_DIFFERENT, "verdict %d", st);
    CHECK(strstr(msg, "first at [2]: got true, expected false") != NULL, "message %s", msg);
}

static void complex_parts_are_compared_separately(void)
{
    float a[4] = {1, 2, 3, 4}, e[4] = {1, 2, 3, 4.5f};
    int64_t n = 2;
    conf_tolerance tol = conf_tolerance_default(TSR_COMPLEX64);
    char msg[512] = "";
    conf_compare_status st = conf_compare_host(TSR_COMPLEX64, 1, &n, a, e, &tol, msg, sizeof msg);
    CHECK(st == CONF_COMPARE_DIFFERENT, "verdict %d", st);
    CHECK(strstr(msg, "first at [1] (imaginary part): got 4, expected 4.5") != NULL, "message %s",
          msg);
}

static void half_types_use_their_own_defaults(void)
{
    /* float16 1.0 and its next value 1.0009765625 (0x3c00, 0x3c01) are within 1e-3+1e-3;
     * 1.0 and 1.00390625 (0x3c04) are not. */
    uint16_t one[1] = {0x3c00}, next[1] = {0x3c01}, far[1] = {0x3c04};
    int64_t n = 1;
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT16);
    char msg[512] = "";
    CHECK(conf_compare_host(TSR_FLOAT16, 1, &n, next, one, &tol, msg, sizeof msg) ==
              CONF_COMPARE_EQUAL,
          "one ulp of float16 rejected: %s", msg);
    CHECK(conf_compare_host(TSR_FLOAT16, 1, &n, far, one, &tol, msg, sizeof msg) ==
              CONF_COMPARE_DIFFERENT,
          "four ulps of float16 accepted");
    CHECK(strstr(msg, "got 1.00390625, expected 1") != NULL, "message %s", msg);
    CHECK(conf_half_to_double(0x7c00) == INFINITY && conf_bfloat16_to_double(0xbf80) == -1.0,
          "half inf %g, bfloat16 0xbf80 %g", conf_half_to_double(0x7c00),
          conf_bfloat16_to_double(0xbf80));
    tol = conf_tolerance_default(TSR_BFLOAT16);
    CHECK(tol.rtol == 1e-2 && tol.atol == 1e-2, "bfloat16 tolerance %g/%g", tol.rtol, tol.atol);
    tol = conf_tolerance_default(TSR_COMPLEX128);
    CHECK(tol.rtol == 1e-7 && tol.atol == 1e-7, "complex128 tolerance %g/%g", tol.rtol, tol.atol);
}

/* ------------------------------------------------------------------------ */
/* Tensor comparison                                                         */
/* ------------------------------------------------------------------------ */

static tsr_tensor *tensor(tsr_dtype dtype, int ndim, const int64_t *shape, const void *data)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *t = NULL;
    if (tsr_from_host(data, (size_t)n * tsr_dtype_size(dtype), ndim, shape, dtype, NULL, &t) !=
        TSR_OK) {
        fprintf(stderr, "tsr_from_host failed: %s\n", tsr_last_error());
        exit(2);
    }
    return t;
}

static void dtype_mismatch_is_caught(void)
{
    float f[2] = {1, 2};
    double d[2] = {1, 2};
    int64_t shape[1] = {2};
    tsr_tensor *a = tensor(TSR_FLOAT32, 1, shape, f), *e = tensor(TSR_FLOAT64, 1, shape, d);
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT64);
    char msg[512] = "";
    conf_compare_status st = conf_compare_tensors(a, e, &tol, msg, sizeof msg);
    tsr_tensor_release(a);
    tsr_tensor_release(e);
    CHECK(st == CONF_COMPARE_DIFFERENT, "verdict %d", st);
    CHECK(strcmp(msg, "dtype float32, expected float64") == 0, "message \"%s\"", msg);
}

static void shape_mismatch_is_caught(void)
{
    float f[6] = {0};
    int64_t s23[2] = {2, 3}, s32[2] = {3, 2}, s6[1] = {6};
    tsr_tensor *a = tensor(TSR_FLOAT32, 2, s23, f), *e = tensor(TSR_FLOAT32, 2, s32, f);
    tsr_tensor *flat = tensor(TSR_FLOAT32, 1, s6, f), *scalar = tensor(TSR_FLOAT32, 0, s6, f);
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    char msg[512] = "", msg2[512] = "";
    conf_compare_status st = conf_compare_tensors(a, e, &tol, msg, sizeof msg);
    conf_compare_status st2 = conf_compare_tensors(scalar, flat, &tol, msg2, sizeof msg2);
    tsr_tensor_release(a);
    tsr_tensor_release(e);
    tsr_tensor_release(flat);
    tsr_tensor_release(scalar);
    CHECK(st == CONF_COMPARE_DIFFERENT && strcmp(msg, "shape [2, 3], expected [3, 2]") == 0,
          "verdict %d, message \"%s\"", st, msg);
    CHECK(st2 == CONF_COMPARE_DIFFERENT && strcmp(msg2, "shape [], expected [6]") == 0,
          "verdict %d, message \"%s\"", st2, msg2);
}

/* ------------------------------------------------------------------------ */
/* Judging whole cases                                                       */
/* ------------------------------------------------------------------------ */

static void save(const char *name, tsr_dtype dtype, int64_t n, const void *data)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", temp_dir, name);
    tsr_tensor *t = tensor(dtype, 1, &n, data);
    if (tsr_save_npy(path, t) != TSR_OK) {
        fprintf(stderr, "tsr_save_npy(%s): %s\n", path, tsr_last_error());
        exit(2);
    }
    tsr_tensor_release(t);
}

/* Parses `line` and runs it with `adapter` (NULL: the op's own). */
static conf_result run_line(const char *line, const conf_adapter *adapter)
{
    conf_case c;
    conf_result r;
    conf_case_parse(line, 1, &c);
    tsr_backend *backend = NULL;
    if (tsr_backend_get(NULL, &backend) != TSR_OK) {
        fprintf(stderr, "no backend: %s\n", tsr_last_error());
        exit(2);
    }
    conf_source source = conf_source_golden(temp_dir);
    conf_runner runner = {temp_dir, backend, &source, false};
    if (adapter)
        conf_run_case_with(&runner, &c, adapter, &r);
    else
        conf_run_case(&runner, &c, &r);
    conf_case_free(&c);
    return r;
}

#define CHECK_RESULT(r, want, text)                                                                \
    CHECK((r).outcome == (want) && strstr((r).message, (text)) != NULL,                            \
          "outcome %s (expected %s), message \"%s\" (expected to contain \"%s\")",                 \
          conf_outcome_name((r).outcome), conf_outcome_name(want), (r).message, (text))

static void wrong_output_fails_with_the_first_mismatch(void)
{
    float x[3] = {1, 2, 3}, wrong[3] = {-1, -5, -3};
    save("neg_x.npy", TSR_FLOAT32, 3, x);
    save("neg_wrong.npy", TSR_FLOAT32, 3, wrong);
    conf_result r = run_line("{\"op\": \"neg\", \"case\": \"c\", \"inputs\": [{\"name\": "
                             "\"input\", \"file\": \"neg_x.npy\"}], \"outputs\": [{\"file\": "
                             "\"neg_wrong.npy\"}]}",
                             NULL);
    CHECK_RESULT(r, CONF_FAIL,
                 "output 0: 1 of 3 elements differ; first at [1]: got -2, "
                 "expected -5, difference 3");
    CHECK(strcmp(r.dtype, "float32") == 0, "dtype %s, expected float32", r.dtype);
}

static void missing_expected_error_is_an_error(void)
{
    float x[3] = {1, 2, 3};
    save("neg_x.npy", TSR_FLOAT32, 3, x);
    conf_result r = run_line("{\"op\": \"neg\", \"case\": \"c\", \"inputs\": [{\"name\": "
                             "\"input\", \"file\": \"neg_x.npy\"}], \"error\": \"RuntimeError\", "
                             "\"error_message\": \"boom\"}",
                             NULL);
    CHECK_RESULT(r, CONF_ERROR, "no error; PyTorch raised RuntimeError: boom");
}

/* Writes into `other`, then fails with a genuine library message. */
static int adapt_scribble_then_fail(conf_call *call)
{
    tsr_tensor *input, *other, *bad = NULL;
    if (!conf_bind_tensor(call, "input", &input) || !conf_bind_tensor(call, "other", &other))
        return CONF_BIND_SKIP;
    tsr_fill_(other, tsr_scalar_float(99));
    return tsr_transpose(input, 0, 5, &bad);
}

static int adapt_fail_silently(conf_call *call)
{
    tsr_tensor *input;
    if (!conf_bind_tensor(call, "input", &input))
        return CONF_BIND_SKIP;
    tsr_clear_error();
    return TSR_ERR_VALUE;
}

/* gelu of an int64 tensor: no backend has that kernel (PyTorch lacks it too),
 * so the call fails with TSR_ERR_UNIMPLEMENTED and a message. */
static int adapt_unimplemented(conf_call *call)
{
    tsr_tensor *input, *integers = NULL, *out = NULL;
    if (!conf_bind_tensor(call, "input", &input))
        return CONF_BIND_SKIP;
    int st = tsr_to_dtype(input, TSR_INT64, &integers);
    if (st == TSR_OK)
        st = tsr_gelu(integers, TSR_GELU_NONE, &out);
    tsr_tensor_release(integers);
    tsr_tensor_release(out);
    return st;
}

/* Returns a copy where a view is promised. */
static int adapt_clone_as_view(conf_call *call)
{
    tsr_tensor *input, *out = NULL;
    if (!conf_bind_tensor(call, "input", &input))
        return CONF_BIND_SKIP;
    int st = tsr_clone(input, &out);
    return conf_call_return(call, st, out);
}

static void failing_call_that_changes_an_input_is_an_error(void)
{
    float x[2] = {1, 2};
    save("two.npy", TSR_FLOAT32, 2, x);
    const conf_adapter scribble = {"scribble", adapt_scribble_then_fail, -1, 0};
    const char *line = "{\"op\": \"scribble\", \"case\": \"c\", \"inputs\": [{\"name\": "
                       "\"input\", \"file\": \"two.npy\"}, {\"name\": \"other\", \"file\": "
                       "\"two.npy\"}], \"error\": \"RuntimeError\"}";
    conf_result r = run_line(line, &scribble);
    CHECK_RESULT(r, CONF_ERROR, "the failing call changed its input 'other'");
}

static void error_without_message_is_an_error(void)
{
    float x[2] = {1, 2};
    save("two.npy", TSR_FLOAT32, 2, x);
    const conf_adapter silent = {"silent", adapt_fail_silently, -1, 0};
    conf_result r = run_line("{\"op\": \"silent\", \"case\": \"c\", \"inputs\": [{\"name\": "
                             "\"input\", \"file\": \"two.npy\"}], \"error\": \"RuntimeError\"}",
                             &silent);
    CHECK_RESULT(r, CONF_ERROR, "TSR_ERR_VALUE without a message");
}

static void unimplemented_passes_where_an_error_is_expected_and_skips_otherwise(void)
{
    float x[2] = {1, 2};
    save("two.npy", TSR_FLOAT32, 2, x);
    /* The reference has gelu, but no backend has it for int64: the refusal
     * is the op's answer (docs/conformance.md, "Partial backends"). */
    const conf_adapter unimpl = {"unimpl", adapt_unimplemented, TSR_OP_GELU, 0};
    conf_result r = run_line("{\"op\": \"unimpl\", \"case\": \"c\", \"inputs\": [{\"name\": "
                             "\"input\", \"file\": \"two.npy\"}], \"error\": \"RuntimeError\"}",
                             &unimpl);
    CHECK_RESULT(r, CONF_PASS, "TSR_ERR_UNIMPLEMENTED");
    /* Composed in the core (no kernel of its own), a missing kernel is the
     * backend's limit, not a refusal it made. */
    const conf_adapter composite = {"unimpl", adapt_unimplemented, -1, 0};
    r = run_line("{\"op\": \"unimpl\", \"case\": \"c\", \"inputs\": [{\"name\": "
                 "\"input\", \"file\": \"two.npy\"}], \"error\": \"RuntimeError\"}",
                 &composite);
    CHECK_RESULT(r, CONF_SKIP, "not claimed: gelu");

    r = run_line("{\"op\": \"unimpl\", \"case\": \"c\", \"inputs\": [{\"name\": \"input\", "
                 "\"file\": \"two.npy\"}], \"outputs\": [{\"file\": \"two.npy\"}]}",
                 &unimpl);
    CHECK_RESULT(r, CONF_SKIP, "not claimed: gelu");
}

static void copy_where_a_view_is_promised_fails(void)
{
    float x[2] = {1, 2};
    save("two.npy", TSR_FLOAT32, 2, x);
    const conf_adapter fake = {"fake_view", adapt_clone_as_view, -1, CONF_ADAPTER_VIEW};
    conf_result r = run_line("{\"op\": \"fake_view\", \"case\": \"c\", \"inputs\": [{\"name\": "
                             "\"input\", \"file\": \"two.npy\"}], \"outputs\": [{\"file\": "
                             "\"two.npy\"}]}",
                             &fake);
    CHECK_RESULT(r, CONF_FAIL, "the result is a copy");
}

static void unread_arg_or_unknown_op_is_a_skip_never_a_pass(void)
{
    float x[2] = {1, 2};
    save("two.npy", TSR_FLOAT32, 2, x);
    conf_result r = run_line("{\"op\": \"neg\", \"case\": \"c\", \"inputs\": [{\"name\": "
                             "\"input\", \"file\": \"two.npy\"}], \"args\": {\"out\": 1}, "
                             "\"outputs\": [{\"file\": \"two.npy\"}]}",
                             NULL);
    CHECK_RESULT(r, CONF_SKIP, "does not understand 'out'");
    r = run_line("{\"op\": \"frobnicate\", \"case\": \"c\", \"inputs\": [{\"name\": "
                 "\"input\", \"file\": \"two.npy\"}], \"outputs\": [{\"file\": \"two.npy\"}]}",
                 NULL);
    CHECK_RESULT(r, CONF_SKIP, "no adapter for op 'frobnicate'");
}

static void missing_file_is_an_error(void)
{
    conf_result r = run_line("{\"op\": \"neg\", \"case\": \"c\", \"inputs\": [{\"name\": "
                             "\"input\", \"file\": \"nope.npy\"}], \"outputs\": [{\"file\": "
                             "\"nope.npy\"}]}",
                             NULL);
    CHECK_RESULT(r, CONF_ERROR, "cannot load nope.npy");
}

int main(void)
{
    snprintf(temp_dir, sizeof temp_dir, "%s/tessera_compare_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(temp_dir)) {
        perror("mkdtemp");
        return 2;
    }
    floats_within_tolerance_are_equal();
    wrong_value_names_index_values_and_difference();
    tolerance_scales_with_expected_magnitude();
    nan_matches_only_nan();
    infinities_match_exactly_with_sign();
    signed_zeros_differ_only_when_the_case_says_so();
    integers_compare_exactly_whatever_the_tolerance();
    bools_compare_as_truth_values();
    complex_parts_are_compared_separately();
    half_types_use_their_own_defaults();
    dtype_mismatch_is_caught();
    shape_mismatch_is_caught();
    wrong_output_fails_with_the_first_mismatch();
    missing_expected_error_is_an_error();
    failing_call_that_changes_an_input_is_an_error();
    error_without_message_is_an_error();
    unimplemented_passes_where_an_error_is_expected_and_skips_otherwise();
    copy_where_a_view_is_promised_fails();
    unread_arg_or_unknown_op_is_a_skip_never_a_pass();
    missing_file_is_an_error();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", temp_dir);
    if (failures == 0 && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", temp_dir);
    printf("test_compare: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
