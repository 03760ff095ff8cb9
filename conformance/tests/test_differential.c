/* The differential mode's judging: a write outside the guarded self is
 * caught, a claimed kernel that refuses is a failure, an unclaimed one
 * refused cleanly is a skip, differing results fail, and a case is drawn
 * the same way every time. Backend and reference are both the reference
 * backend here; adapters that misbehave on their second call (the run on
 * the backend under test) stand for a faulty plugin. */
#define _POSIX_C_SOURCE 200809L

#include "bindings/bind.h"
#include "differential/differential.h"
#include "golden/report.h"
#include "conf_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls; /* adapter calls in the current case: 1 reference, 2 backend */

static conf_diff_options options(void)
{
    tsr_backend *b = NULL;
    if (tsr_backend_get("reference", &b) != TSR_OK) {
        fprintf(stderr, "no reference backend: %s\n", tsr_last_error());
        exit(2);
    }
    return (conf_diff_options){
        .backend = b, .reference = b, .seed = 7, .only_case = -1, .out = stdout};
}

static conf_result run(const conf_diff_options *o, const conf_adapter *a, size_t index)
{
    conf_result r;
    calls = 0;
    conf_diff_run_case(o, a, index, &r);
    return r;
}

static bool under_test(void)
{
    return ++calls == 2;
}

/* ------------------------------------------------------------------------ */
/* Guards                                                                    */
/* ------------------------------------------------------------------------ */

/* add_ that also writes the first element of self's base: a guard element. */
static int adapt_add_scribbling_on_guard(conf_call *call)
{
    if (under_test()) {
        for (int i = 0; i < call->nvalues; i++) {
            conf_value *v = &call->values[i];
            tsr_tensor *corner = NULL;
            if (strcmp(v->spec->name, "self") != 0 || !v->base)
                continue;
            if (tsr_narrow(v->base, 0, 0, 1, &corner) == TSR_OK)
                tsr_fill_(corner, tsr_scalar_int(1));
            tsr_tensor_release(corner);
        }
    }
    return conf_adapter_find("add_")->fn(call);
}

static void write_outside_the_guarded_self_is_caught(void)
{
    conf_diff_options o = options();
    const conf_adapter a = {"add_", adapt_add_scribbling_on_guard, TSR_OP_ADD,
                            CONF_ADAPTER_INPLACE};
    int caught = 0;
    for (size_t j = 0; j < 12; j++) {
        conf_result r = run(&o, &a, j);
        CHECK(r.outcome != CONF_PASS || strstr(r.message, "both refused"), "case %zu passed: %s", j,
              r.message);
        if (r.outcome == CONF_FAIL &&
            strstr(r.message, "the in-place call wrote outside its self view: element [0") &&
            strstr(r.message, "of the guard"))
            caught++;
    }
    CHECK(caught > 0, "no case reported the write to the guard");
}

/* ------------------------------------------------------------------------ */
/* Claims                                                                    */
/* ------------------------------------------------------------------------ */

/* neg, except that the backend under test answers with a real refusal (the
 * reference has no float16 exp kernel). */
static int adapt_neg_refused(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t))
        return CONF_BIND_SKIP;
    if (!under_test()) {
        int st = tsr_unary(TSR_OP_NEG, t, &out);
        return conf_call_return(call, st, out);
    }
    tsr_tensor *half = NULL;
    int64_t one = 1;
    int st = tsr_zeros(1, &one, TSR_FLOAT16, call->backend, &half);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_EXP, half, &out);
    tsr_tensor_release(half);
    tsr_tensor_release(out);
    return st == TSR_OK ? TSR_ERR_BACKEND : st;
}

static void claimed_kernel_that_refuses_fails(void)
{
    conf_diff_options o = options();
    const conf_adapter a = {"neg", adapt_neg_refused, TSR_OP_NEG, 0};
    conf_result r = run(&o, &a, 3);
    CHECK(r.outcome == CONF_FAIL && strstr(r.message, "the backend claims the neg kernel for") &&
              strstr(r.message, "yet refused the call") && strstr(r.message, "no exp kernel"),
          "outcome %s, message \"%s\"", conf_outcome_name(r.outcome), r.message);
}

static bool claims_nothing(const tsr_backend *b, tsr_op op, tsr_dtype in, tsr_dtype out)
{
    (void)b, (void)op, (void)in, (void)out;
    return false;
}

static void unclaimed_kernel_refused_cleanly_is_a_skip(void)
{
    conf_diff_options o = options();
    o.claims = claims_nothing;
    const conf_adapter a = {"neg", adapt_neg_refused, TSR_OP_NEG, 0};
    conf_result r = run(&o, &a, 3);
    CHECK(r.outcome == CONF_SKIP && strstr(r.message, "not claimed: refused cleanly:") &&
              strstr(r.message, "no exp kernel"),
          "outcome %s, message \"%s\"", conf_outcome_name(r.outcome), r.message);
}

/* Without a claim, a result that is wrong is still a failure. */
static int adapt_neg_then_abs(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t))
        return CONF_BIND_SKIP;
    int st = tsr_unary(under_test() ? TSR_OP_ABS : TSR_OP_NEG, t, &out);
    return conf_call_return(call, st, out);
}

static void differing_results_fail_with_the_first_mismatch(void)
{
    conf_diff_options o = options();
    const conf_adapter a = {"neg", adapt_neg_then_abs, TSR_OP_NEG, 0};
    int failed = 0;
    for (size_t j = 0; j < 8; j++) {
        conf_result r = run(&o, &a, j);
        CHECK(r.outcome == CONF_FAIL || r.outcome == CONF_PASS, "case %zu: %s: %s", j,
              conf_outcome_name(r.outcome), r.message);
        if (r.outcome == CONF_FAIL)
            CHECK(strncmp(r.message, "output 0: ", 10) == 0, "message \"%s\"", r.message);
        failed += r.outcome == CONF_FAIL;
    }
    /* a case of only zeros, NaNs or an empty one passes; most do not */
    CHECK(failed >= 4, "only %d of 8 cases failed", failed);
}

/* ------------------------------------------------------------------------ */
/* The whole run                                                             */
/* ------------------------------------------------------------------------ */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = calloc(1, 1 << 20);
    if (text)
        fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    return text;
}

static void a_case_is_drawn_the_same_every_time(void)
{
    const char *tmp = getenv("TMPDIR");
    char dirs[2][256], path[300];
    char *manifests[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        snprintf(dirs[k], sizeof dirs[k], "%s/tessera_diff_XXXXXX", tmp ? tmp : "/tmp");
        CHECK(mkdtemp(dirs[k]), "mkdtemp failed");
        conf_diff_options o = options();
        o.op_glob = "[a-m]*";
        o.only_case = 5;
        o.dump = dirs[k];
        o.out = fopen("/dev/null", "w");
        conf_report report = {0};
        size_t nops = conf_diff_run(&o, &report);
        fclose(o.out);
        size_t counts[CONF_OUTCOME_COUNT];
        conf_report_counts(&report, counts);
        conf_report_free(&report);
        CHECK(nops > 50 && counts[CONF_FAIL] + counts[CONF_ERROR] == 0,
              "%zu ops, %zu failed, %zu errors", nops, counts[CONF_FAIL], counts[CONF_ERROR]);
        snprintf(path, sizeof path, "%s/manifest.jsonl", dirs[k]);
        manifests[k] = read_file(path);
    }
    bool same = manifests[0] && manifests[1] && strcmp(manifests[0], manifests[1]) == 0;
    bool full = manifests[0] && strstr(manifests[0], "\"case\":\"seed7_case5\"");
    free(manifests[0]);
    free(manifests[1]);
    CHECK(same && full, "the two runs dumped different cases (or none)");
    for (int k = 0; k < 2; k++) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dirs[k]);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dirs[k]);
    }
}

int main(void)
{
    write_outside_the_guarded_self_is_caught();
    claimed_kernel_that_refuses_fails();
    unclaimed_kernel_refused_cleanly_is_a_skip();
    differing_results_fail_with_the_first_mismatch();
    a_case_is_drawn_the_same_every_time();
    printf("test_differential: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
