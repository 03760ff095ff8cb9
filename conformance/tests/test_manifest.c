/* Manifest parsing, typed JSON reads and view steps of the conformance runner. */
#include "common/json_values.h"
#include "golden/manifest.h"
#include "golden/view_steps.h"
#include "conf_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void integer_and_float_literals_stay_apart(void)
{
    cJSON *root =
        conf_json_parse("{\"a\": 2, \"b\": 2.0, \"c\": -7, \"d\": 1e3, \"s\": \"2\", \"z\": -0.0}");
    CHECK(root != NULL, "parse failed");
    tsr_scalar a, b, c, d, z;
    bool ok = conf_json_scalar(cJSON_GetObjectItem(root, "a"), &a) &&
              conf_json_scalar(cJSON_GetObjectItem(root, "b"), &b) &&
              conf_json_scalar(cJSON_GetObjectItem(root, "c"), &c) &&
              conf_json_scalar(cJSON_GetObjectItem(root, "d"), &d) &&
              conf_json_scalar(cJSON_GetObjectItem(root, "z"), &z);
    const char *s = NULL;
    char copy[8] = "";
    bool str = conf_json_string(cJSON_GetObjectItem(root, "s"), &s);
    if (str)
        snprintf(copy, sizeof copy, "%s", s);
    cJSON_Delete(root);
    CHECK(ok, "a scalar was unreadable");
    CHECK(a.kind == TSR_SCALAR_INT && a.v.i == 2, "2 read as kind %d", a.kind);
    CHECK(b.kind == TSR_SCALAR_FLOAT && b.v.f == 2.0, "2.0 read as kind %d", b.kind);
    CHECK(c.kind == TSR_SCALAR_INT && c.v.i == -7, "-7 read as kind %d value %lld", c.kind,
          (long long)c.v.i);
    CHECK(d.kind == TSR_SCALAR_FLOAT && d.v.f == 1000.0, "1e3 read as kind %d", d.kind);
    CHECK(z.kind == TSR_SCALAR_FLOAT && z.v.f == 0 && signbit(z.v.f), "-0.0 read as kind %d, %g",
          z.kind, z.v.f);
    CHECK(str && strcmp(copy, "2") == 0, "the string \"2\" read as \"%s\"", copy);
}

static void large_integers_keep_every_bit(void)
{
    cJSON *root = conf_json_parse("[4611686018427387905, -9223372036854775808, 1.5]");
    int64_t big = 0, min = 0, x = 0;
    bool ok = conf_json_int(cJSON_GetArrayItem(root, 0), &big) &&
              conf_json_int(cJSON_GetArrayItem(root, 1), &min);
    bool frac = conf_json_int(cJSON_GetArrayItem(root, 2), &x);
    cJSON_Delete(root);
    CHECK(ok && big == 4611686018427387905LL, "2^62+1 read as %lld", (long long)big);
    CHECK(min == INT64_MIN, "INT64_MIN read as %lld", (long long)min);
    CHECK(!frac, "1.5 accepted as an integer (%lld)", (long long)x);
}

static void strings_with_digits_and_escapes_are_untouched(void)
{
    cJSON *root =
        conf_json_parse("{\"k\": \"a \\\"12\\\" b\", \"n\": [1, \"-3\"], \"x\": \"nan\"}");
    const char *k = NULL;
    double nan_value = 0;
    bool ok = root && conf_json_string(cJSON_GetObjectItem(root, "k"), &k);
    int64_t list[4];
    int count = 0;
    bool list_ok = conf_json_int_list(cJSON_GetObjectItem(root, "n"), list, 4, &count);
    bool nan_ok = conf_json_double(cJSON_GetObjectItem(root, "x"), &nan_value);
    CHECK(ok && strcmp(k, "a \"12\" b") == 0, "string read as %s", k ? k : "(none)");
    CHECK(!list_ok, "[1, \"-3\"] accepted as an integer list");
    CHECK(nan_ok && isnan(nan_value), "\"nan\" read as %g", nan_value);
    cJSON_Delete(root);
}

static void a_full_line_parses_with_unknown_keys_ignored(void)
{
    const char *line =
        "{\"op\": \"add\", \"case\": \"t\", \"future_key\": {\"x\": [1]}, \"inputs\": ["
        "{\"name\": \"self\", \"file\": \"add/t_input.npy\", \"view\": [\"transpose:0:1\", "
        "\"slice:0:0:2:1\"], \"dtype\": \"bfloat16\", \"extra\": 1},"
        "{\"name\": \"other\", \"scalar\": \"-inf\", \"scalar_type\": \"float\"},"
        "{\"name\": \"alpha_like\", \"scalar\": 3, \"scalar_type\": \"float\"}],"
        "\"args\": {\"alpha\": 2}, \"outputs\": [{\"file\": \"add/t_out0.npy\"}],"
        "\"rtol\": 0.001, \"signed_zeros\": true, \"grad\": {}}";
    conf_case c;
    conf_case_parse(line, 7, &c);
    CHECK(c.problem == NULL, "problem: %s", c.problem);
    CHECK(strcmp(c.op, "add") == 0 && strcmp(c.name, "t") == 0 && c.line == 7, "op %s case %s",
          c.op, c.name);
    CHECK(c.ninputs == 3 && c.noutputs == 1, "%d inputs, %d outputs", c.ninputs, c.noutputs);
    const conf_input *in = conf_case_input(&c, "input");
    CHECK(in == &c.inputs[0], "'input' did not find the input named 'self'");
    CHECK(in->tensor.nview == 2 && strcmp(in->tensor.view[1], "slice:0:0:2:1") == 0,
          "%d view steps", in->tensor.nview);
    CHECK(in->tensor.has_dtype && in->tensor.dtype == TSR_BFLOAT16, "dtype %d", in->tensor.dtype);
    CHECK(c.inputs[1].kind == CONF_INPUT_SCALAR && isinf(c.inputs[1].scalar.v.f) &&
              c.inputs[1].scalar.v.f < 0,
          "other: kind %d value %g", c.inputs[1].kind, c.inputs[1].scalar.v.f);
    CHECK(c.inputs[2].scalar.kind == TSR_SCALAR_FLOAT && c.inputs[2].scalar.v.f == 3.0,
          "scalar 3 with scalar_type float read as kind %d", c.inputs[2].scalar.kind);
    CHECK(c.has_rtol && c.rtol == 0.001 && !c.has_atol && c.signed_zeros && c.has_grad,
          "rtol %d/%g atol %d signed_zeros %d grad %d", c.has_rtol, c.rtol, c.has_atol,
          c.signed_zeros, c.has_grad);
    conf_case_free(&c);
}

static void expect_problem(const char *line, const char *text)
{
    conf_case c;
    conf_case_parse(line, 3, &c);
    if (!c.problem || !strstr(c.problem, text)) {
        fprintf(stderr, "line %s: problem \"%s\", expected to contain \"%s\"\n", line,
                c.problem ? c.problem : "(none)", text);
        failures++;
    }
    conf_case_free(&c);
}

static void malformed_lines_become_cases_with_a_problem(void)
{
    expect_problem("{\"op\": \"add\", \"case\": ", "line 3 is not a JSON object");
    expect_problem("[1, 2]", "not a JSON object");
    expect_problem("{\"op\": \"add\", \"case\": \"x\", \"inputs\": []}",
                   "neither 'outputs' nor 'error'");
    expect_problem("{\"case\": \"x\", \"outputs\": []}", "lacks 'op' or 'case'");
    expect_problem("{\"op\": \"a\", \"case\": \"x\", \"inputs\": [{\"file\": \"f.npy\"}], "
                   "\"error\": \"E\"}",
                   "lacks its 'name'");
    expect_problem("{\"op\": \"a\", \"case\": \"x\", \"inputs\": [{\"name\": \"i\", "
                   "\"scalar\": 1.5, \"scalar_type\": \"int\"}], \"error\": \"E\"}",
                   "scalar_type int with a non-integer");
    expect_problem("{\"op\": \"a\", \"case\": \"x\", \"inputs\": [{\"name\": \"i\", \"file\": "
                   "\"f.npy\", \"dtype\": \"float128\"}], \"error\": \"E\"}",
                   "unknown dtype");
    expect_problem("{\"op\": \"a\", \"case\": \"x\", \"rtol\": -1e-5, \"error\": \"E\"}",
                   "'rtol' is negative");
    expect_problem("{\"op\": \"a\", \"case\": \"x\", \"atol\": -0.5, \"error\": \"E\"}",
                   "'atol' is negative");
}

static void view_steps_are_applied_with_library_views(void)
{
    int64_t shape[2] = {2, 3};
    float data[6] = {0, 1, 2, 3, 4, 5};
    tsr_tensor *base = NULL, *out = NULL;
    int st = tsr_from_host(data, sizeof data, 2, shape, TSR_FLOAT32, NULL, &base);
    CHECK(st == TSR_OK, "tsr_from_host: %s", tsr_last_error());
    char *steps[] = {"transpose:0:1", "slice:0:1:3:1", "unsqueeze:0"};
    char msg[256] = "";
    int lib = 0;
    conf_view_status vs = conf_view_apply(base, steps, 3, &out, &lib, msg, sizeof msg);
    float got[4] = {0};
    bool read = vs == CONF_VIEW_OK && tsr_to_host(out, got, sizeof got) == TSR_OK;
    int ndim = out ? tsr_tensor_ndim(out) : -1;
    tsr_tensor_release(out);
    out = NULL;
    CHECK(read && ndim == 3, "status %d (%s), ndim %d", vs, msg, ndim);
    CHECK(got[0] == 1 && got[1] == 4 && got[2] == 2 && got[3] == 5, "values %g %g %g %g", got[0],
          got[1], got[2], got[3]);
    char *bad[] = {"twist:0:1"};
    vs = conf_view_apply(base, bad, 1, &out, &lib, msg, sizeof msg);
    CHECK(vs == CONF_VIEW_BAD_STEP && strstr(msg, "malformed view step 'twist:0:1'"),
          "status %d, message %s", vs, msg);
    char *refused[] = {"transpose:0:7"};
    vs = conf_view_apply(base, refused, 1, &out, &lib, msg, sizeof msg);
    tsr_tensor_release(base);
    CHECK(vs == CONF_VIEW_FAILED && lib < 0 && strstr(msg, "view step 'transpose:0:7' failed"),
          "status %d, library status %d, message %s", vs, lib, msg);
}

/* A manifest may hold any int64: a huge end and step give one row. */
static void view_step_with_huge_slice_is_answered(void)
{
    int64_t shape[2] = {2, 3};
    float data[6] = {0, 1, 2, 3, 4, 5};
    tsr_tensor *base = NULL, *out = NULL;
    int st = tsr_from_host(data, sizeof data, 2, shape, TSR_FLOAT32, NULL, &base);
    CHECK(st == TSR_OK, "tsr_from_host: %s", tsr_last_error());
    char *steps[] = {"slice:0:1:9223372036854775807:9223372036854775807"};
    char msg[256] = "";
    int lib = 0;
    conf_view_status vs = conf_view_apply(base, steps, 1, &out, &lib, msg, sizeof msg);
    int64_t rows = vs == CONF_VIEW_OK ? tsr_tensor_shape(out)[0] : -1;
    float got[3] = {0};
    bool read = vs == CONF_VIEW_OK && tsr_to_host(out, got, sizeof got) == TSR_OK;
    tsr_tensor_release(out);
    tsr_tensor_release(base);
    CHECK(read && rows == 1, "status %d (%s), %lld rows", vs, msg, (long long)rows);
    CHECK(got[0] == 3 && got[2] == 5, "values %g %g", got[0], got[2]);
}

int main(void)
{
    integer_and_float_literals_stay_apart();
    large_integers_keep_every_bit();
    strings_with_digits_and_escapes_are_untouched();
    a_full_line_parses_with_unknown_keys_ignored();
    malformed_lines_become_cases_with_a_problem();
    view_steps_are_applied_with_library_views();
    view_step_with_huge_slice_is_answered();
    printf("test_manifest: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
