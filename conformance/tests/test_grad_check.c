/* The gradient check of golden `grad` entries: right gradients pass, wrong
 * ones fail naming the input and the element, an unimplemented backward is
 * a skip, and a malformed entry an error; a complex case's gradient is
 * PyTorch's conjugate one. The case files are written here,
 * their expected gradients worked out by hand. */
#define _POSIX_C_SOURCE 200809L

#include "bindings/bind.h"
#include "golden/manifest.h"
#include "golden/runner.h"
#include "golden/source.h"
#include "conf_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char temp_dir[256];

#define CHECK_RESULT(r, want, want_grad, text)                                                     \
    CHECK((r).outcome == (want) && (r).grad == (want_grad) && strstr((r).message, (text)),         \
          "outcome %s / grad %d (expected %s / %d), message \"%s\" (expected to contain "          \
          "\"%s\")",                                                                               \
          conf_outcome_name((r).outcome), (int)(r).grad, conf_outcome_name(want),                  \
          (int)(want_grad), (r).message, (text))

static tsr_backend *backend(void)
{
    tsr_backend *b = NULL;
    if (tsr_backend_get(NULL, &b) != TSR_OK) {
        fprintf(stderr, "no backend: %s\n", tsr_last_error());
        exit(2);
    }
    return b;
}

static void save(const char *name, int ndim, const int64_t *shape, const double *data)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", temp_dir, name);
    tsr_tensor *t = NULL;
    if (tsr_from_host(data, (size_t)n * sizeof(double), ndim, shape, TSR_FLOAT64, backend(), &t) !=
            TSR_OK ||
        tsr_save_npy(path, t) != TSR_OK) {
        fprintf(stderr, "cannot write %s: %s\n", path, tsr_last_error());
        exit(2);
    }
    tsr_tensor_release(t);
}

static void save_tensor(const char *name, const tsr_tensor *t)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", temp_dir, name);
    if (tsr_save_npy(path, t) != TSR_OK) {
        fprintf(stderr, "cannot write %s: %s\n", path, tsr_last_error());
        exit(2);
    }
}

static conf_result run_line(const char *line, const conf_adapter *adapter, bool skip_grads)
{
    conf_case c;
    conf_result r;
    conf_case_parse(line, 1, &c);
    conf_source source = conf_source_golden(temp_dir);
    conf_runner runner = {temp_dir, backend(), &source, skip_grads};
    conf_run_case_with(&runner, &c, adapter ? adapter : conf_adapter_find(c.op), &r);
    conf_case_free(&c);
    return r;
}

/* neg of x = [1, -2, 0.5, 3] with grad_output g: the gradient is -g. */
static const char neg_line[] =
    "{\"op\": \"neg\", \"case\": \"g\", \"inputs\": [{\"name\": \"input\", \"file\": \"x.npy\"}], "
    "\"outputs\": [{\"file\": \"neg_x.npy\"}], \"grad\": {\"wrt\": [\"input\"], "
    "\"grad_outputs\": [{\"file\": \"g.npy\"}], \"expected\": [{\"file\": \"minus_g.npy\"}]}}";

static void write_neg_case(void)
{
    int64_t four = 4;
    double x[4] = {1, -2, 0.5, 3}, nx[4] = {-1, 2, -0.5, -3};
    double g[4] = {0.5, 1, -1, 2}, ng[4] = {-0.5, -1, 1, -2};
    save("x.npy", 1, &four, x);
    save("neg_x.npy", 1, &four, nx);
    save("g.npy", 1, &four, g);
    save("minus_g.npy", 1, &four, ng);
}

/* -x, computed as x - 2 * detach(x): the right value with the gradient +1. */
static int adapt_neg_with_wrong_gradient(conf_call *call)
{
    tsr_tensor *x, *frozen = NULL, *out = NULL;
    if (!conf_bind_tensor(call, "input", &x))
        return CONF_BIND_SKIP;
    int st = tsr_detach(x, &frozen);
    if (st == TSR_OK)
        st = tsr_sub_scaled(tsr_operand_tensor(x), tsr_operand_tensor(frozen), tsr_scalar_int(2),
                            &out);
    tsr_tensor_release(frozen);
    return conf_call_return(call, st, out);
}

static void right_gradient_passes(void)
{
    write_neg_case();
    conf_result r = run_line(neg_line, NULL, false);
    CHECK_RESULT(r, CONF_PASS, CONF_GRAD_PASS, "forward and gradient passed");
}

static void wrong_gradient_fails_naming_input_and_element(void)
{
    write_neg_case();
    const conf_adapter wrong = {"neg", adapt_neg_with_wrong_gradient, TSR_OP_NEG, 0};
    conf_result r = run_line(neg_line, &wrong, false);
    CHECK_RESULT(r, CONF_FAIL, CONF_GRAD_FAIL,
                 "forward passed; gradient wrt 'input': 4 of 4 elements differ; first at [0]: "
                 "got 0.5, expected -0.5");
}

static void no_grad_checks_the_forward_only(void)
{
    write_neg_case();
    const conf_adapter wrong = {"neg", adapt_neg_with_wrong_gradient, TSR_OP_NEG, 0};
    conf_result r = run_line(neg_line, &wrong, true);
    CHECK_RESULT(r, CONF_PASS, CONF_GRAD_NONE, "forward only");
}

/* The leaf is the viewed (expanded) tensor: a [2, 4] gradient, one element
 * per viewed element, not the [1, 4] sum over the broadcast copies. */
static void gradient_has_the_viewed_shape(void)
{
    int64_t s14[2] = {1, 4}, s24[2] = {2, 4};
    double x[4] = {1, 2, 3, 4}, nx[8] = {-1, -2, -3, -4, -1, -2, -3, -4};
    double g[8] = {1, 2, 3, 4, 5, 6, 7, 8}, ng[8] = {-1, -2, -3, -4, -5, -6, -7, -8};
    save("row.npy", 2, s14, x);
    save("neg_rows.npy", 2, s24, nx);
    save("g24.npy", 2, s24, g);
    save("minus_g24.npy", 2, s24, ng);
    conf_result r = run_line(
        "{\"op\": \"neg\", \"case\": \"v\", \"inputs\": [{\"name\": \"input\", \"file\": "
        "\"row.npy\", \"view\": [\"expand:2:4\"]}], \"outputs\": [{\"file\": \"neg_rows.npy\"}], "
        "\"grad\": {\"wrt\": [\"input\"], \"grad_outputs\": [{\"file\": \"g24.npy\"}], "
        "\"expected\": [{\"file\": \"minus_g24.npy\"}]}}",
        NULL, false);
    CHECK_RESULT(r, CONF_PASS, CONF_GRAD_PASS, "forward and gradient passed");
}

/* cat's list operand: one expected gradient per element, in order. */
static const char cat_line[] =
    "{\"op\": \"cat\", \"case\": \"l\", \"inputs\": [{\"name\": \"tensors\", \"list\": "
    "[{\"file\": \"a.npy\"}, {\"file\": \"b.npy\"}]}], \"outputs\": [{\"file\": \"ab.npy\"}], "
    "\"grad\": {\"wrt\": [\"tensors\"], \"grad_outputs\": [{\"file\": \"g5.npy\"}], "
    "\"expected\": [{\"file\": \"ga.npy\"}, {\"file\": \"%s\"}]}}";

static void write_cat_case(void)
{
    int64_t two = 2, three = 3, five = 5;
    double a[2] = {1, 2}, b[3] = {3, 4, 5}, ab[5] = {1, 2, 3, 4, 5};
    double g[5] = {0.5, -1, 2, 4, 8}, ga[2] = {0.5, -1}, gb[3] = {2, 4, 8}, gb_wrong[3] = {2, 4, 9};
    save("a.npy", 1, &two, a);
    save("b.npy", 1, &three, b);
    save("ab.npy", 1, &five, ab);
    save("g5.npy", 1, &five, g);
    save("ga.npy", 1, &two, ga);
    save("gb.npy", 1, &three, gb);
    save("gb_wrong.npy", 1, &three, gb_wrong);
}

static void list_operand_gets_one_gradient_per_element(void)
{
    write_cat_case();
    char line[1024];
    snprintf(line, sizeof line, cat_line, "gb.npy");
    conf_result r = run_line(line, NULL, false);
    CHECK_RESULT(r, CONF_PASS, CONF_GRAD_PASS, "forward and gradients passed");
    snprintf(line, sizeof line, cat_line, "gb_wrong.npy");
    r = run_line(line, NULL, false);
    CHECK_RESULT(r, CONF_FAIL, CONF_GRAD_FAIL,
                 "gradient wrt 'tensors[1]': 1 of 3 elements differ; first at [2]: got 8, "
                 "expected 9");
}

/* A complex case: mul of z = [1+2i, 3-1i] and w = [0.5-1i, -2+0.25i] with
 * grad_output g = [1+1i, 2-0.5i]. PyTorch's gradient wrt z is g * conj(w) =
 * [-0.5+1.5i, -4.125+0.5i]; g * w (no conjugate) must fail. */
static void save_complex(const char *name, int64_t n, const double *pairs)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", temp_dir, name);
    tsr_tensor *t = NULL;
    if (tsr_from_host(pairs, (size_t)n * 2 * sizeof(double), 1, &n, TSR_COMPLEX128, backend(),
                      &t) != TSR_OK ||
        tsr_save_npy(path, t) != TSR_OK) {
        fprintf(stderr, "cannot write %s: %s\n", path, tsr_last_error());
        exit(2);
    }
    tsr_tensor_release(t);
}

static void complex_gradient_is_pytorchs_conjugate_one(void)
{
    const double z[4] = {1, 2, 3, -1}, w[4] = {0.5, -1, -2, 0.25}, g[4] = {1, 1, 2, -0.5};
    const double zw[4] = {2.5, 0, -5.75, 2.75}, right[4] = {-0.5, 1.5, -4.125, 0.5};
    const double wrong[4] = {1.5, -0.5, -3.875, 1.5};
    save_complex("cz.npy", 2, z);
    save_complex("cw.npy", 2, w);
    save_complex("czw.npy", 2, zw);
    save_complex("cgo.npy", 2, g);
    save_complex("cright.npy", 2, right);
    save_complex("cwrong.npy", 2, wrong);
    const char *line =
        "{\"op\": \"mul\", \"case\": \"c\", \"inputs\": [{\"name\": \"input\", \"file\": "
        "\"cz.npy\"}, {\"name\": \"other\", \"file\": \"cw.npy\"}], \"outputs\": [{\"file\": "
        "\"czw.npy\"}], \"grad\": {\"wrt\": [\"input\"], \"grad_outputs\": [{\"file\": "
        "\"cgo.npy\"}], \"expected\": [{\"file\": \"%s\"}]}}";
    char text[1024];
    snprintf(text, sizeof text, line, "cright.npy");
    conf_result r = run_line(text, NULL, false);
    CHECK_RESULT(r, CONF_PASS, CONF_GRAD_PASS, "forward and gradient passed");
    snprintf(text, sizeof text, line, "cwrong.npy");
    r = run_line(text, NULL, false);
    CHECK_RESULT(r, CONF_FAIL, CONF_GRAD_FAIL, "gradient wrt 'input'");
}

static void unimplemented_backward_is_a_skip(void)
{
    /* scatter's reduce='multiply' has no backward (scatter_reduce's prod does) */
    int64_t five = 5, two = 2;
    double x[5] = {1, 3, 2, 5, 4}, g[5] = {1, 1, 1, 1, 1}, s[2] = {2, 3};
    int64_t at[2] = {0, 0};
    save("cx.npy", 1, &five, x);
    save("cg.npy", 1, &five, g);
    save("cs.npy", 1, &two, s);
    tsr_tensor *t = NULL, *src = NULL, *index = NULL, *out = NULL;
    char path[512];
    snprintf(path, sizeof path, "%s/cx.npy", temp_dir);
    if (tsr_load_npy(path, backend(), &t) != TSR_OK ||
        tsr_from_host(at, sizeof at, 1, &two, TSR_INT64, backend(), &index) != TSR_OK ||
        tsr_from_host(s, sizeof s, 1, &two, TSR_FLOAT64, backend(), &src) != TSR_OK ||
        tsr_scatter(t, 0, index, src, TSR_REDUCE_PROD, &out) != TSR_OK) {
        fprintf(stderr, "scatter: %s\n", tsr_last_error());
        exit(2);
    }
    save_tensor("ci.npy", index);
    save_tensor("co.npy", out);
    tsr_tensor_release(t);
    tsr_tensor_release(src);
    tsr_tensor_release(index);
    tsr_tensor_release(out);
    conf_result r = run_line(
        "{\"op\": \"scatter\", \"case\": \"u\", \"inputs\": [{\"name\": \"input\", \"file\": "
        "\"cx.npy\"}, {\"name\": \"index\", \"file\": \"ci.npy\"}, {\"name\": \"src\", \"file\": "
        "\"cs.npy\"}], \"args\": {\"dim\": 0, \"reduce\": \"multiply\"}, \"outputs\": [{\"file\": "
        "\"co.npy\"}], \"grad\": {\"wrt\": [\"input\"], \"grad_outputs\": [{\"file\": "
        "\"cg.npy\"}], \"expected\": [{\"file\": \"cg.npy\"}]}}",
        NULL, false);
    CHECK_RESULT(r, CONF_SKIP, CONF_GRAD_SKIP, "forward passed; gradient: unimplemented");
}

static void malformed_grad_entry_is_an_error(void)
{
    write_neg_case();
    char line[1024];
    snprintf(line, sizeof line, "%s", neg_line);
    char *wrt = strstr(line, "[\"input\"]");
    memcpy(wrt, "[\"nope\" ]", 9);
    conf_result r = run_line(line, NULL, false);
    CHECK_RESULT(r, CONF_ERROR, CONF_GRAD_ERROR, "grad wrt 'nope' names no tensor input");

    write_cat_case();
    snprintf(line, sizeof line,
             "{\"op\": \"cat\", \"case\": \"l\", \"inputs\": [{\"name\": \"tensors\", \"list\": "
             "[{\"file\": \"a.npy\"}, {\"file\": \"b.npy\"}]}], \"outputs\": [{\"file\": "
             "\"ab.npy\"}], \"grad\": {\"wrt\": [\"tensors\"], \"grad_outputs\": [{\"file\": "
             "\"g5.npy\"}], \"expected\": [{\"file\": \"ga.npy\"}]}}");
    r = run_line(line, NULL, false);
    CHECK_RESULT(r, CONF_ERROR, CONF_GRAD_ERROR, "1 expected gradients for 2 operands in wrt");
}

static void grad_entry_is_parsed(void)
{
    conf_case c;
    conf_case_parse(neg_line, 4, &c);
    CHECK(c.problem == NULL && c.grad && !c.grad->problem, "problem %s", c.problem);
    CHECK(c.grad->nwrt == 1 && strcmp(c.grad->wrt[0], "input") == 0 && c.grad->ngrad_outputs == 1 &&
              strcmp(c.grad->grad_outputs[0].file, "g.npy") == 0 && c.grad->nexpected == 1 &&
              strcmp(c.grad->expected[0].file, "minus_g.npy") == 0,
          "wrt %d, grad_outputs %d, expected %d", c.grad->nwrt, c.grad->ngrad_outputs,
          c.grad->nexpected);
    conf_case_free(&c);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(temp_dir, sizeof temp_dir, "%s/tessera_grad_check_XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(temp_dir)) {
        perror("mkdtemp");
        return 2;
    }
    grad_entry_is_parsed();
    right_gradient_passes();
    wrong_gradient_fails_naming_input_and_element();
    no_grad_checks_the_forward_only();
    gradient_has_the_viewed_shape();
    list_operand_gets_one_gradient_per_element();
    complex_gradient_is_pytorchs_conjugate_one();
    unimplemented_backward_is_a_skip();
    malformed_grad_entry_is_an_error();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", temp_dir);
    if (failures == 0 && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", temp_dir);
    printf("test_grad_check: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
