/* The differential mode's rounding-error bound for products: a float32
 * matmul whose terms cancel may differ from the float64 reference by more
 * than the case tolerance yet within gamma_K * sum|a_i b_i|, and passes; a
 * result just beyond that bound, or grossly wrong, still fails. */
#include "golden/compare.h"
#include "differential/bound.h"
#include "differential/case.h"
#include "differential/differential.h"
#include "golden/runner.h"
#include "conf_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K = 8 };

/* Terms of a few hundred that cancel down to -3.6015625; every value and
 * partial sum is exact in float32 and float64, so the sums below are exact. */
static const float row[K] = {500.5f,   -501.25f, 499.75f, -502.0f,
                             300.125f, -300.25f, 125.5f,  -125.9765625f};
static const float col[K] = {1, 1, 1, 1, 1, 1, 1, 1};

static void gamma_follows_the_formula(void)
{
    double u = ldexp(1, -24);
    double g = conf_product_gamma(TSR_FLOAT32, K);
    CHECK(g == K * u / (1 - K * u), "gamma_8 float32 %.17g", g);
    CHECK(conf_product_gamma(TSR_FLOAT64, 1) == ldexp(1, -53) / (1 - ldexp(1, -53)), "gamma_1");
    CHECK(conf_product_gamma(TSR_INT64, 100) == 0, "integers get no allowance");
    CHECK(conf_product_gamma(TSR_BFLOAT16, 256) == -1, "256 terms at u = 2^-8 bound nothing");
    CHECK(conf_product_gamma(TSR_BFLOAT16, 255) > 0, "255 terms at u = 2^-8 do");
}

typedef struct mm_case {
    conf_case c;
    conf_array_store store;
    conf_rng rng;
    conf_source source;
    conf_call call; /* the reference run: outputs[0] is the expected result */
} mm_case;

/* mm of a 1 x K row and a K x 1 column of `dtype`, run on the reference. */
static bool mm_case_make(mm_case *m, tsr_backend *ref, tsr_dtype dtype)
{
    memset(m, 0, sizeof *m);
    conf_rng_seed(&m->rng, 1, "mm", 0);
    conf_draft d;
    conf_draft_begin(&d, &m->c, "mm", "cancelling", &m->store, &m->rng, dtype, dtype);
    int64_t a[2] = {1, K}, b[2] = {K, 1};
    conf_value_spec any = conf_values_of(CONF_VALUES_FINITE);
    conf_input *in = conf_draft_tensor(&d, "input", dtype, 2, a, any, CONF_LAYOUT_CONTIGUOUS);
    conf_input *in2 = conf_draft_tensor(&d, "mat2", dtype, 2, b, any, CONF_LAYOUT_CONTIGUOUS);
    if (!in || !in2)
        return false;
    for (int i = 0; i < K; i++) {
        if (dtype == TSR_FLOAT32) {
            ((float *)conf_draft_array(&d, in)->data)[i] = row[i];
            ((float *)conf_draft_array(&d, in2)->data)[i] = col[i];
        } else {
            ((int64_t *)conf_draft_array(&d, in)->data)[i] = (int64_t)row[i];
            ((int64_t *)conf_draft_array(&d, in2)->data)[i] = (int64_t)col[i];
        }
    }
    m->source = conf_source_memory(&m->store);
    conf_result r;
    memset(&r, 0, sizeof r);
    conf_call_init(&m->call, &m->c, ref);
    m->call.adapter = conf_adapter_find("mm");
    return conf_call_load(&m->source, &m->call, &r) && m->call.adapter->fn(&m->call) == TSR_OK &&
           m->call.noutputs == 1;
}

static void mm_case_free(mm_case *m)
{
    conf_call_clear(&m->call);
    conf_case_free(&m->c);
    conf_array_store_clear(&m->store);
}

/* Compares the one-element result `got` with the case's expected value. */
static conf_compare_status compare(const mm_case *m, float got, const double *bound, char *msg,
                                   size_t capacity)
{
    float want;
    int64_t shape[2] = {1, 1};
    if (tsr_to_host(m->call.outputs[0], &want, sizeof want) != TSR_OK)
        return CONF_COMPARE_ERROR;
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    return conf_compare_host_bounded(TSR_FLOAT32, 2, shape, &got, &want, &tol, bound, msg,
                                     capacity);
}

static void cancelling_sum_gets_the_bound(tsr_backend *ref)
{
    mm_case m;
    CHECK(mm_case_make(&m, ref, TSR_FLOAT32), "making the case: %s", tsr_last_error());
    char why[600], msg[800];
    double *bound = conf_diff_product_bound(&m.c, &m.source, m.call.adapter, ref, m.call.outputs[0],
                                            why, sizeof why);
    double want = 0, sum_abs = 0;
    for (int i = 0; i < K; i++) {
        want += (double)row[i] * col[i];
        sum_abs += fabs((double)row[i] * col[i]);
    }
    double expected_bound = conf_product_gamma(TSR_FLOAT32, K) * sum_abs;
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    double plain = tol.atol + tol.rtol * fabs(want), limit = tol.atol + expected_bound;
    bool ok = bound && fabs(bound[0] - expected_bound) <= 1e-12 * expected_bound;
    if (ok) {
        /* (a) an error of the size float32 sums of these terms make (the
         * reported lavapipe case differed by 2.5e-5): beyond the case
         * tolerance, within the bound */
        float off = (float)(want + 2.5e-5);
        ok = compare(&m, off, NULL, msg, sizeof msg) == CONF_COMPARE_DIFFERENT &&
             compare(&m, off, bound, msg, sizeof msg) == CONF_COMPARE_EQUAL;
        if (!ok)
            fprintf(stderr, "(a): %s\n", msg);
    }
    float beyond = (float)(want + limit);
    while ((double)beyond - want <= limit)
        beyond = nextafterf(beyond, INFINITY);
    float edge = nextafterf(beyond, -INFINITY);
    char allowed[64];
    snprintf(allowed, sizeof allowed, "(allowed %.3g)", limit);
    /* (b) one float32 step past atol + gamma_K sum|ab| fails, naming that
     * allowance; one step back passes */
    bool b_fails = ok && compare(&m, beyond, bound, msg, sizeof msg) == CONF_COMPARE_DIFFERENT &&
                   strstr(msg, allowed) != NULL;
    if (ok && !b_fails)
        fprintf(stderr, "(b): %s\n", msg);
    bool b_edge = ok && compare(&m, edge, bound, msg, sizeof msg) == CONF_COMPARE_EQUAL;
    /* (c) a gross error: the sign of the element wrong, or off by one */
    bool c_fails = ok &&
                   compare(&m, (float)-want, bound, msg, sizeof msg) == CONF_COMPARE_DIFFERENT &&
                   compare(&m, (float)(want + 1), bound, msg, sizeof msg) == CONF_COMPARE_DIFFERENT;
    free(bound);
    mm_case_free(&m);
    CHECK(ok, "bound %.17g (%s), expected %.17g over %.17g", ok ? expected_bound : -1, why,
          expected_bound, plain);
    CHECK(limit > plain * 10, "the case does not cancel enough to tell the allowances apart");
    CHECK(b_fails, "one step beyond the bound passed");
    CHECK(b_edge, "the last float within the bound failed");
    CHECK(c_fails, "a gross error passed");
}

static void no_bound_outside_floating_products(tsr_backend *ref)
{
    mm_case m;
    CHECK(mm_case_make(&m, ref, TSR_INT64), "making the case: %s", tsr_last_error());
    char why[600];
    double *bound = conf_diff_product_bound(&m.c, &m.source, m.call.adapter, ref, m.call.outputs[0],
                                            why, sizeof why);
    const conf_adapter *add = conf_adapter_find("add");
    bool add_product = conf_diff_is_product(add->op);
    mm_case_free(&m);
    CHECK(!bound && why[0] == '\0', "an int64 mm got a bound (%s)", why);
    CHECK(!add_product, "add is no product");
    CHECK(conf_diff_is_product("matmul") && conf_diff_is_product("baddbmm"), "the family");
}

/* ------------------------------------------------------------------------ */
/* Through the differential judging                                          */
/* ------------------------------------------------------------------------ */

/* The mm adapter's run on the "backend under test" (the second call of a
 * case) moves element [0, 0] by an amount worked out here from that
 * element's own terms: within the allowance atol + gamma_K sum|a b|, or
 * (`beyond`) `factor` times the larger of that and the case tolerance. */
static int calls;
static double factor;
static bool beyond;
static int moved, needed_bound; /* cases moved; of them, ones the case tolerance refuses */

static bool to_host_f64(const tsr_tensor *t, double *out, size_t n)
{
    tsr_tensor *d = NULL;
    bool ok = tsr_to_dtype(t, TSR_FLOAT64, &d) == TSR_OK &&
              tsr_to_host(d, out, n * sizeof *out) == TSR_OK;
    tsr_tensor_release(d);
    return ok;
}

static void move_first(conf_call *call)
{
    tsr_tensor *a, *b, *out = call->outputs[0], *moved_out = NULL;
    if (!conf_bind_tensor(call, "input", &a) || !conf_bind_tensor(call, "mat2", &b) ||
        tsr_tensor_dtype(out) != TSR_FLOAT32 || tsr_tensor_numel(out) == 0 ||
        tsr_tensor_numel(out) > 64 || tsr_tensor_numel(a) > 64 || tsr_tensor_numel(b) > 64)
        return;
    int64_t k = tsr_tensor_shape(a)[1], m = tsr_tensor_shape(b)[1];
    double av[64], bv[64], sum_abs = 0;
    float result[64];
    if (!to_host_f64(a, av, (size_t)tsr_tensor_numel(a)) ||
        !to_host_f64(b, bv, (size_t)tsr_tensor_numel(b)) ||
        tsr_to_host(out, result, (size_t)tsr_tensor_numel(out) * sizeof(float)) != TSR_OK)
        return;
    for (int64_t i = 0; i < k; i++)
        sum_abs += fabs(av[i] * bv[i * m]);
    double e = result[0];
    if (!isfinite(sum_abs) || !isfinite(e))
        return;
    conf_tolerance tol = conf_tolerance_default(TSR_FLOAT32);
    double strict = tol.atol + tol.rtol * fabs(e);
    double bound = conf_product_gamma(TSR_FLOAT32, k) * sum_abs;
    /* within: half of atol (room for rounding the moved value to float32)
     * and nearly all of the bound; beyond: past both allowances */
    double delta = beyond ? factor * fmax(strict, tol.atol + bound) : 0.5 * tol.atol + 0.95 * bound;
    result[0] = (float)(e + delta);
    if (tsr_from_host(result, (size_t)tsr_tensor_numel(out) * sizeof(float), tsr_tensor_ndim(out),
                      tsr_tensor_shape(out), TSR_FLOAT32, call->backend, &moved_out) != TSR_OK)
        return;
    tsr_tensor_release(call->outputs[0]);
    call->outputs[0] = moved_out;
    moved++;
    needed_bound += fabs((double)result[0] - e) > strict;
}

static int adapt_mm_moved(conf_call *call)
{
    int st = conf_adapter_find("mm")->fn(call);
    if (++calls == 2 && st == TSR_OK)
        move_first(call);
    return st;
}

/* Runs cases of mm with the moved adapter; counts failures. */
static int run_moved(tsr_backend *ref, double f, bool past, int cases)
{
    conf_diff_options o = {
        .backend = ref, .reference = ref, .seed = 3, .only_case = -1, .out = stdout};
    const conf_adapter a = {"mm", adapt_mm_moved, TSR_OP_MATMUL, 0};
    factor = f;
    beyond = past;
    moved = needed_bound = 0;
    int failed = 0;
    for (int j = 0; j < cases; j++) {
        conf_result r;
        calls = 0;
        int before = moved;
        conf_diff_run_case(&o, &a, (size_t)j, &r);
        failed += moved > before && r.outcome == CONF_FAIL;
    }
    return failed;
}

static void judging_applies_the_bound(tsr_backend *ref)
{
    int failed = run_moved(ref, 0, false, 6000);
    int within_moved = moved, within_needed = needed_bound;
    int failed_beyond = run_moved(ref, 2.0, true, 6000);
    CHECK(within_moved > 0 && within_needed > 0,
          "%d cases moved, %d of them beyond the case tolerance: the draws no longer test "
          "the bound",
          within_moved, within_needed);
    CHECK(failed == 0, "%d of %d cases moved within the bound failed", failed, within_moved);
    printf("judging: %d float32 cases moved within the bound (%d beyond the case tolerance) "
           "passed; %d moved past it failed\n",
           within_moved, within_needed, failed_beyond);
    CHECK(failed_beyond == moved, "%d of %d cases moved by twice the allowance failed",
          failed_beyond, moved);
}

int main(void)
{
    tsr_backend *ref = NULL;
    if (tsr_backend_get("reference", &ref) != TSR_OK) {
        fprintf(stderr, "no reference backend: %s\n", tsr_last_error());
        return 2;
    }
    gamma_follows_the_formula();
    cancelling_sum_gets_the_bound(ref);
    no_bound_outside_floating_products(ref);
    judging_applies_the_bound(ref);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    else
        printf("all product bound checks passed\n");
    return failures != 0;
}
