/* The differential mode: the same random case through the same adapter on
 * two backends, compared, with guarded writes. */
#define _POSIX_C_SOURCE 200809L

#include "differential/differential.h"
#include "golden/identity.h"

#include "differential/bound.h"
#include "differential/draws.h"
#include "differential/dump.h"
#include "differential/guard.h"
#include "golden/runner.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Claims                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct dtype_pair {
    tsr_dtype in, out;
} dtype_pair;

enum { MAX_PAIRS = TSR_DTYPE_COUNT * TSR_DTYPE_COUNT };

/* Whether the backend under test (`tested`) or the reference claims the
 * kernel for the pair. */
static bool claims(const conf_diff_options *o, bool tested, int kernel, dtype_pair p)
{
    if (kernel < 0) /* views and composites without a kernel of their own */
        return true;
    if (tested && o->claims)
        return o->claims(o->backend, (tsr_op)kernel, p.in, p.out);
    return tsr_backend_has_kernel(tested ? o->backend : o->reference, (tsr_op)kernel, p.in, p.out);
}

/* The dtype pairs the reference claims for the adapter's kernel (every
 * dtype with itself for ops that have none). */
static int reference_pairs(const conf_diff_options *o, const conf_adapter *a, dtype_pair *pairs)
{
    int n = 0;
    for (int i = 0; i < TSR_DTYPE_COUNT; i++) {
        for (int j = 0; j < TSR_DTYPE_COUNT; j++) {
            dtype_pair p = {(tsr_dtype)i, (tsr_dtype)j};
            if (a->kernel < 0 ? i == j : claims(o, false, a->kernel, p))
                pairs[n++] = p;
        }
    }
    return n;
}

/* Whether a refusal of the adapter's op is a refusal of its own kernel: the
 * op is the kernel (or its in-place form), not a composite that needs
 * others too. */
static bool is_direct(const conf_adapter *a)
{
    if (a->kernel < 0)
        return false;
    const char *k = tsr_op_name((tsr_op)a->kernel);
    size_t n = strlen(k);
    return strncmp(a->op, k, n) == 0 && (a->op[n] == '\0' || strcmp(a->op + n, "_") == 0);
}

/* ------------------------------------------------------------------------ */
/* One case                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct diff_case {
    const conf_diff_options *o;
    const conf_adapter *adapter;
    const conf_diff_op *gen;
    conf_case c;
    conf_array_store store;
    dtype_pair pair;
    conf_source source;
    conf_call ref, test;
    conf_invocation ref_inv, test_inv;
    conf_guarded self_guard; /* in-place adapters: the test run's self */
} diff_case;

/* Draws the case: a reference dtype pair (in random order) the op's draw
 * function accepts. */
static bool draw(diff_case *x, size_t index)
{
    conf_rng rng;
    conf_rng_seed(&rng, x->o->seed, x->adapter->op, index);
    dtype_pair pairs[MAX_PAIRS];
    int n = reference_pairs(x->o, x->adapter, pairs);
    char name[32];
    snprintf(name, sizeof name, "case%zu", index);
    while (n > 0) {
        int k = (int)conf_rng_range(&rng, 0, n - 1);
        x->pair = pairs[k];
        pairs[k] = pairs[--n];
        conf_draft d;
        conf_draft_begin(&d, &x->c, x->adapter->op, name, &x->store, &rng, x->pair.in, x->pair.out);
        if (x->o->large) {
            static const int64_t lengths[] = {65535, 65537, (1 << 24) + 3};
            d.long_dim = lengths[conf_rng_range(&rng, 0, 2)];
            d.large = true;
        }
        if (x->gen->draw(&d))
            return true;
        conf_case_free(&x->c);
        conf_array_store_clear(&x->store);
    }
    conf_draft d;
    conf_draft_begin(&d, &x->c, x->adapter->op, name, &x->store, &rng, TSR_FLOAT32, TSR_FLOAT32);
    return false;
}

static conf_value *self_of(conf_call *call)
{
    const conf_input *in = conf_case_input(call->c, "self");
    for (int i = 0; in && i < call->nvalues; i++) {
        if (call->values[i].spec == in)
            return &call->values[i];
    }
    return NULL;
}

/* The test run of an in-place adapter writes through a guarded view. */
static bool guard_self(diff_case *x, conf_result *res)
{
    conf_value *v = self_of(&x->test);
    if (!v || !v->tensor)
        return true;
    char msg[512];
    const tsr_tensor *t = v->tensor;
    int st = conf_guarded_create(x->test.backend, tsr_tensor_dtype(t), tsr_tensor_ndim(t),
                                 tsr_tensor_shape(t), &x->self_guard, msg, sizeof msg);
    bool copied = false;
    if (st == TSR_OK && (st = tsr_copy_(x->self_guard.view, t)) != TSR_OK)
        snprintf(msg, sizeof msg, "copy_ into a guarded view failed: %s: %s", tsr_status_name(st),
                 tsr_last_error());
    else if (st == TSR_OK)
        copied = true;
    if (st == TSR_OK && !conf_guarded_intact(&x->self_guard, msg, sizeof msg))
        st = TSR_ERR_BACKEND;
    dtype_pair copy = {tsr_tensor_dtype(t), tsr_tensor_dtype(t)};
    if (!copied && st == TSR_ERR_UNIMPLEMENTED && !claims(x->o, true, TSR_OP_COPY, copy)) {
        /* without the copy row nothing can be written into a guarded view */
        conf_result_set(res, CONF_SKIP, "not claimed: guarding self: %s", msg);
        return false;
    }
    if (st != TSR_OK) {
        conf_result_set(res, CONF_FAIL, "guarding self: %s", msg);
        return false;
    }
    tsr_tensor_release(v->base);
    tsr_tensor_release(v->tensor);
    tsr_tensor_retain(x->self_guard.base);
    tsr_tensor_retain(x->self_guard.view);
    v->base = x->self_guard.base;
    v->tensor = x->self_guard.view;
    return true;
}

/* Loads and runs the case on one backend; false after a verdict. */
static bool run_on(diff_case *x, conf_call *call, conf_invocation *inv, tsr_backend *backend,
                   conf_result *res)
{
    conf_call_init(call, &x->c, backend);
    call->adapter = x->adapter;
    if (!conf_call_load(&x->source, call, res))
        return false;
    if (call == &x->test && (x->adapter->flags & CONF_ADAPTER_INPLACE) && !guard_self(x, res))
        return false;
    conf_call_invoke(call, inv);
    if (inv->status == CONF_BIND_SKIP || inv->unused) {
        conf_result_set(res, CONF_SKIP, "runner: %s",
                        inv->unused ? "the adapter does not read an input the draw made"
                                    : call->problem);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Judging                                                                   */
/* ------------------------------------------------------------------------ */

static void describe_claim(const diff_case *x, char *out, size_t capacity)
{
    snprintf(out, capacity, "%s kernel for %s -> %s", tsr_op_name((tsr_op)x->adapter->kernel),
             tsr_dtype_name(x->pair.in), tsr_dtype_name(x->pair.out));
}

/* A refusal by the backend under test. */
static void judge_refusal(const diff_case *x, conf_result *res)
{
    const conf_invocation *t = &x->test_inv;
    char claim[128];
    describe_claim(x, claim, sizeof claim);
    bool claimed = claims(x->o, true, x->adapter->kernel, x->pair);
    if (t->error[0] == '\0')
        conf_result_set(res, CONF_FAIL, "refused with %s but no message",
                        tsr_status_name(t->status));
    else if (claimed && is_direct(x->adapter))
        conf_result_set(res, CONF_FAIL, "the backend claims the %s, yet refused the call: %s",
                        claim, t->error);
    else
        conf_result_set(res, CONF_SKIP, "%s: refused cleanly: %s",
                        claimed ? "composite op needing a kernel the backend lacks" : "not claimed",
                        t->error);
}

/* Both refused, or only the reference did. The same refusal is a pass only
 * where the backend claims the op's kernel for the drawn pair: a backend
 * without it has not shown that it refuses (the golden rule, claims.h). */
static void judge_errors(const diff_case *x, conf_result *res)
{
    const conf_invocation *r = &x->ref_inv, *t = &x->test_inv;
    char claim[128] = "";
    if (x->adapter->kernel >= 0)
        describe_claim(x, claim, sizeof claim);
    if (t->status == r->status && t->changed)
        conf_result_set(res, CONF_FAIL, "the failing call changed its input '%s'", t->changed);
    else if (t->status == r->status && x->adapter->kernel >= 0 &&
             !claims(x->o, true, x->adapter->kernel, x->pair))
        conf_result_set(res, CONF_SKIP, "not claimed: %s; both refused: %s: %s", claim,
                        tsr_status_name(r->status), r->error);
    else if (t->status == r->status)
        conf_result_set(res, CONF_PASS, "both refused: %s: %s", tsr_status_name(r->status),
                        r->error);
    else if (t->status == TSR_OK)
        conf_result_set(res, CONF_FAIL,
                        "the reference refused (%s: %s); the backend returned a "
                        "result",
                        tsr_status_name(r->status), r->error);
    else
        conf_result_set(res, CONF_FAIL,
                        "the reference refused with %s (%s), the backend with %s (%s)",
                        tsr_status_name(r->status), r->error, tsr_status_name(t->status), t->error);
}

/* What the adapter flags promise about output 0 and "input". */
static bool judge_aliasing(const diff_case *x, conf_result *res)
{
    unsigned flags = x->adapter->flags & (CONF_ADAPTER_VIEW | CONF_ADAPTER_COPY);
    const conf_input *in = conf_case_input(&x->c, "input");
    const tsr_tensor *input = NULL;
    for (int i = 0; in && i < x->test.nvalues; i++) {
        if (x->test.values[i].spec == in)
            input = x->test.values[i].tensor;
    }
    if (!flags || !input || x->test.noutputs == 0)
        return true;
    bool shares = tsr_tensor_shares_storage(x->test.outputs[0], input);
    if (flags == CONF_ADAPTER_VIEW && !shares)
        conf_result_set(res, CONF_FAIL, "the result is a copy; PyTorch's %s returns a view",
                        x->c.op);
    else if (flags == CONF_ADAPTER_COPY && shares)
        conf_result_set(res, CONF_FAIL, "the result shares its input's storage; %s must copy",
                        x->c.op);
    else
        return true;
    return false;
}

/* Output 0 of a product op, compared again with the rounding-error bound of
 * its sums (bound.h) besides the case tolerance. Without a bound the
 * message of the plain comparison stands, with the reason appended. */
static conf_compare_status compare_product(const diff_case *x, const conf_tolerance *tol, char *msg,
                                           size_t capacity)
{
    char why[600];
    double *bound = conf_diff_product_bound(&x->c, &x->source, x->adapter, x->o->reference,
                                            x->ref.outputs[0], why, sizeof why);
    conf_compare_status cs = CONF_COMPARE_DIFFERENT;
    if (bound) {
        cs = conf_compare_tensors_bounded(x->test.outputs[0], x->ref.outputs[0], tol, bound, msg,
                                          capacity);
        if (cs == CONF_COMPARE_DIFFERENT) {
            size_t n = strlen(msg);
            snprintf(msg + n, capacity - n, " (with the product rounding bound)");
        }
    } else if (why[0]) {
        size_t n = strlen(msg);
        snprintf(msg + n, capacity - n, " (no product rounding bound: %s)", why);
    }
    free(bound);
    return cs;
}

/* Both calls succeeded: the same outputs, no input changed. */
static bool judge_outputs(const diff_case *x, conf_result *res)
{
    const conf_call *r = &x->ref, *t = &x->test;
    if (x->test_inv.changed) {
        conf_result_set(res, CONF_FAIL, "the call changed its input '%s'", x->test_inv.changed);
        return false;
    }
    if (t->noutputs != r->noutputs) {
        conf_result_set(res, CONF_FAIL, "%d outputs, the reference gave %d", t->noutputs,
                        r->noutputs);
        return false;
    }
    if (!judge_aliasing(x, res))
        return false;
    char msg[800];
    if (x->c.identity) { /* gauge outputs: the identities on the tested backend's own */
        bool gauge[16] = {false};
        for (int i = 0; i < r->noutputs && i < 16; i++)
            gauge[i] = conf_identity_gauge(x->adapter->op, i);
        conf_compare_status cs =
            r->noutputs > 16
                ? CONF_COMPARE_ERROR
                : conf_identity_compare(t, r->outputs, r->noutputs, gauge, msg, sizeof msg);
        if (cs != CONF_COMPARE_EQUAL) {
            conf_result_set(res, cs == CONF_COMPARE_DIFFERENT ? CONF_FAIL : CONF_ERROR,
                            "identity check: %s", msg);
            return false;
        }
        return true;
    }
    for (int i = 0; i < r->noutputs; i++) {
        conf_tolerance tol = conf_case_tolerance(&x->c, tsr_tensor_dtype(r->outputs[i]));
        conf_compare_status cs =
            conf_compare_tensors(t->outputs[i], r->outputs[i], &tol, msg, sizeof msg);
        if (cs == CONF_COMPARE_DIFFERENT && i == 0 && conf_diff_is_product(x->adapter->op))
            cs = compare_product(x, &tol, msg, sizeof msg);
        if (cs == CONF_COMPARE_UNCLAIMED) {
            conf_result_set(res, CONF_SKIP, "not claimed: output %d: %s", i, msg);
            return false;
        }
        if (cs != CONF_COMPARE_EQUAL) {
            conf_result_set(res, cs == CONF_COMPARE_DIFFERENT ? CONF_FAIL : CONF_ERROR,
                            "output %d: %s", i, msg);
            return false;
        }
    }
    return true;
}

static void judge(const diff_case *x, conf_result *res)
{
    const conf_invocation *r = &x->ref_inv, *t = &x->test_inv;
    if (r->status == TSR_ERR_UNIMPLEMENTED)
        conf_result_set(res, CONF_SKIP, "the reference cannot run this case: %s", r->error);
    else if (r->changed)
        conf_result_set(res, CONF_ERROR, "the reference changed its input '%s'", r->changed);
    else if (t->status == TSR_ERR_UNIMPLEMENTED)
        judge_refusal(x, res);
    else if (r->status != TSR_OK)
        judge_errors(x, res);
    else if (t->status != TSR_OK)
        conf_result_set(res, CONF_FAIL, "the reference computed it; the backend failed: %s: %s",
                        tsr_status_name(t->status), t->error);
    else if (judge_outputs(x, res))
        conf_result_set(res, CONF_PASS, "%s", "");
}

/* ------------------------------------------------------------------------ */
/* Guarded writes                                                            */
/* ------------------------------------------------------------------------ */

/* Writes into a fresh guarded view of `like`'s shape and dtype: first `src`
 * copied in (copy_), then `then` (may be NULL) on the view. The view must
 * end equal to `expected` within `tol`, and the guards intact. */
typedef int (*view_op)(const diff_case *x, tsr_tensor *view);

static bool guarded_write(const diff_case *x, const char *what, const tsr_tensor *src, view_op then,
                          const tsr_tensor *expected, conf_tolerance tol, conf_result *res)
{
    conf_guarded g;
    char msg[700];
    const tsr_tensor *like = expected;
    int st = conf_guarded_create(x->test.backend, tsr_tensor_dtype(like), tsr_tensor_ndim(like),
                                 tsr_tensor_shape(like), &g, msg, sizeof msg);
    bool ok = st == TSR_OK;
    if (!ok)
        conf_result_set(res, CONF_ERROR, "%s: %s", what, msg);
    if (ok && (st = tsr_copy_(g.view, src)) != TSR_OK) {
        /* a backend without the copy kernel cannot be checked this way */
        dtype_pair copy = {tsr_tensor_dtype(src), tsr_tensor_dtype(like)};
        if (st != TSR_ERR_UNIMPLEMENTED || claims(x->o, true, TSR_OP_COPY, copy))
            conf_result_set(res, CONF_FAIL, "%s: copy_ into a strided view failed: %s: %s", what,
                            tsr_status_name(st), tsr_last_error());
        ok = false;
    }
    if (ok && !conf_guarded_intact(&g, msg, sizeof msg)) {
        conf_result_set(res, CONF_FAIL, "%s: copy_ wrote outside its strided view: %s", what, msg);
        ok = false;
    }
    if (ok && then && (st = then(x, g.view)) != TSR_OK) {
        conf_result_set(res, CONF_FAIL, "%s failed: %s: %s", what, tsr_status_name(st),
                        tsr_last_error());
        ok = false;
    }
    if (ok && !conf_guarded_intact(&g, msg, sizeof msg)) {
        conf_result_set(res, CONF_FAIL, "%s wrote outside its strided view: %s", what, msg);
        ok = false;
    }
    if (ok && conf_compare_tensors(g.view, expected, &tol, msg, sizeof msg) != CONF_COMPARE_EQUAL) {
        conf_result_set(res, CONF_FAIL, "%s: %s", what, msg);
        ok = false;
    }
    conf_guarded_destroy(&g);
    return ok;
}

static const conf_value *value_named(const conf_call *call, const char *name)
{
    const conf_input *in = conf_case_input(call->c, name);
    for (int i = 0; in && i < call->nvalues; i++) {
        if (call->values[i].spec == in)
            return &call->values[i];
    }
    return NULL;
}

static int unary_in_place(const diff_case *x, tsr_tensor *view)
{
    return tsr_unary_((tsr_op)x->adapter->kernel, view);
}

static int binary_in_place(const diff_case *x, tsr_tensor *view)
{
    const conf_value *v = value_named(&x->test, "other");
    if (!v)
        v = value_named(&x->test, "exponent");
    if (!v)
        return TSR_ERR_INVALID_ARGUMENT;
    tsr_operand other =
        v->tensor ? tsr_operand_tensor(v->tensor) : tsr_operand_scalar(v->spec->scalar);
    return tsr_binary_((tsr_op)x->adapter->kernel, view, other);
}

/* The in-place form of an elementwise op, where self keeps the result's
 * dtype and shape: into a guarded view, compared with the reference. */
static bool check_in_place_form(const diff_case *x, conf_result *res)
{
    unsigned flags = x->gen->flags;
    const conf_value *self = value_named(&x->test, "input");
    if (!(flags & (CONF_DIFF_INPLACE_UNARY | CONF_DIFF_INPLACE_BINARY)) || !self || !self->tensor ||
        cJSON_GetArraySize(x->c.args) > 0 || x->ref.noutputs != 1)
        return true;
    const tsr_tensor *expected = x->ref.outputs[0], *in = self->tensor;
    int n = tsr_tensor_ndim(in);
    if (tsr_tensor_dtype(in) != tsr_tensor_dtype(expected) || n != tsr_tensor_ndim(expected) ||
        (n && memcmp(tsr_tensor_shape(in), tsr_tensor_shape(expected), (size_t)n * 8) != 0))
        return true;
    const char *what = flags & CONF_DIFF_INPLACE_UNARY ? "the in-place form (tsr_unary_)"
                                                       : "the in-place form (tsr_binary_)";
    return guarded_write(x, what, in,
                         flags & CONF_DIFF_INPLACE_UNARY ? unary_in_place : binary_in_place,
                         expected, conf_case_tolerance(&x->c, tsr_tensor_dtype(expected)), res);
}

static bool check_guards(const diff_case *x, conf_result *res)
{
    char msg[700];
    if ((x->adapter->flags & CONF_ADAPTER_INPLACE) && x->self_guard.base &&
        !conf_guarded_intact(&x->self_guard, msg, sizeof msg)) {
        conf_result_set(res, CONF_FAIL, "the in-place call wrote outside its self view: %s", msg);
        return false;
    }
    if (x->test.noutputs > 0) {
        const tsr_tensor *out = x->test.outputs[0];
        conf_tolerance exact = {0, 0, true};
        if (!guarded_write(x, "copy_ of output 0", out, NULL, out, exact, res))
            return false;
    }
    return check_in_place_form(x, res);
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */
/* ------------------------------------------------------------------------ */

static void run_drawn(diff_case *x, conf_result *res)
{
    if (x->gen->flags & CONF_DIFF_EXACT) {
        x->c.has_rtol = x->c.has_atol = true;
        x->c.rtol = x->c.atol = 0;
        x->c.signed_zeros = true;
    }
    x->source = conf_source_memory(&x->store);
    if (!run_on(x, &x->ref, &x->ref_inv, x->o->reference, res)) {
        if (res->outcome != CONF_SKIP)
            conf_result_set(res, CONF_SKIP, "the reference cannot load the case: %s", res->message);
        return;
    }
    if (!run_on(x, &x->test, &x->test_inv, x->o->backend, res))
        return;
    judge(x, res);
    if (res->outcome == CONF_PASS && x->ref_inv.status == TSR_OK)
        check_guards(x, res);
}

/* --dump: the case as the golden format would have it, the reference's
 * answer as the expected one. */
static void dump(const diff_case *x, size_t index, conf_result *res)
{
    bool failed = res->outcome == CONF_FAIL || res->outcome == CONF_ERROR;
    if (!x->o->dump || !x->ref.c || (!failed && x->o->only_case < 0))
        return;
    char name[64], msg[512];
    snprintf(name, sizeof name, "seed%llu_case%zu", (unsigned long long)x->o->seed, index);
    const char *error = x->ref_inv.status == TSR_OK ? NULL : "RuntimeError";
    if (conf_diff_dump(x->o->dump, name, &x->c, &x->store, x->o->reference, x->ref.outputs,
                       x->ref.noutputs, error, msg, sizeof msg))
        return;
    size_t n = strlen(res->message);
    snprintf(res->message + n, sizeof res->message - n, " (--dump: %s)", msg);
}

static void diff_case_run(const conf_diff_options *o, const conf_adapter *a,
                          const conf_diff_op *gen, size_t index, conf_result *res)
{
    diff_case *x = calloc(1, sizeof *x);
    memset(res, 0, sizeof *res);
    if (!x) {
        conf_result_set(res, CONF_ERROR, "out of memory");
        return;
    }
    x->o = o;
    x->adapter = a;
    x->gen = gen;
    if (!draw(x, index))
        conf_result_set(res, CONF_SKIP, "nothing of the dtypes the reference claims to draw");
    else
        run_drawn(x, res);
    dump(x, index, res);
    snprintf(res->dtype, sizeof res->dtype, "%s", tsr_dtype_name(x->pair.in));
    conf_call_clear(&x->ref);
    conf_call_clear(&x->test);
    conf_guarded_destroy(&x->self_guard);
    conf_case_free(&x->c);
    conf_array_store_clear(&x->store);
    free(x);
}

void conf_diff_run_case(const conf_diff_options *o, const conf_adapter *adapter, size_t index,
                        conf_result *result)
{
    const conf_diff_op *gen = conf_diff_op_find(adapter->op);
    if (!gen) {
        memset(result, 0, sizeof *result);
        conf_result_set(result, CONF_SKIP, "no draw function for '%s'", adapter->op);
        snprintf(result->dtype, sizeof result->dtype, "-");
        return;
    }
    diff_case_run(o, adapter, gen, index, result);
}

/* ------------------------------------------------------------------------ */
/* Every selected op                                                         */
/* ------------------------------------------------------------------------ */

static void print_result(const conf_diff_options *o, const char *op, size_t index,
                         const conf_result *r, bool tty)
{
    if (!o->verbose && (r->outcome == CONF_PASS || r->outcome == CONF_SKIP))
        return;
    static const char *const labels[CONF_OUTCOME_COUNT] = {"PASS ", "FAIL ", "SKIP ", "ERROR"};
    if (tty)
        fputs("\r\033[K", stderr);
    fprintf(o->out, "%s %s/case%zu [%s vs %s, %s]%s%s\n", labels[r->outcome], op, index,
            tsr_backend_name(o->backend), tsr_backend_name(o->reference), r->dtype,
            r->message[0] ? ": " : "", r->message);
    if (r->outcome == CONF_FAIL || r->outcome == CONF_ERROR)
        fprintf(o->out,
                "      reproduce: tessera-conformance --backend %s --against %s --seed %llu "
                "--op %s --case %zu\n",
                tsr_backend_name(o->backend), tsr_backend_name(o->reference),
                (unsigned long long)o->seed, op, index);
    fflush(o->out);
}

/* --large without --op: reductions, arg-reductions, scans, sort, indexing,
 * scatter, softmax rows and matrix products (issue 14's list). */
static const char *const large_ops[] = {
    "sum",          "nansum",       "prod",        "mean",           "amax",
    "amin",         "max",          "min",         "argmax",         "argmin",
    "var",          "std",          "logsumexp",   "count_nonzero",  "cumsum",
    "cumprod",      "logcumsumexp", "cummax",      "cummin",         "sort",
    "argsort",      "topk",         "index_select", "gather",        "take",
    "take_along_dim", "scatter",    "scatter_add", "scatter_reduce", "index_add",
    "index_copy",   "softmax",      "log_softmax", "matmul",         "mm",
    "bmm",          "dot",          "addmm"};

static bool large_op(const char *op)
{
    for (size_t i = 0; i < sizeof large_ops / sizeof large_ops[0]; i++)
        if (strcmp(large_ops[i], op) == 0)
            return true;
    return false;
}

/* The adapters with a draw function that the reference claims, in the
 * adapter tables' order. */
static size_t select_ops(const conf_diff_options *o, const conf_adapter **ops, size_t capacity)
{
    size_t n = 0;
    const conf_adapter *a;
    dtype_pair pairs[MAX_PAIRS];
    for (size_t i = 0; (a = conf_adapter_at(i)) != NULL && n < capacity; i++) {
        if (!conf_diff_op_find(a->op) || (o->op_glob && fnmatch(o->op_glob, a->op, 0) != 0))
            continue;
        if (o->large && !o->op_glob && !large_op(a->op))
            continue;
        if (reference_pairs(o, a, pairs) > 0)
            ops[n++] = a;
    }
    return n;
}

size_t conf_diff_run(const conf_diff_options *o, conf_report *report)
{
    const conf_adapter *ops[512];
    size_t nops = select_ops(o, ops, sizeof ops / sizeof ops[0]);
    if (nops == 0)
        return 0;
    bool tty = isatty(STDERR_FILENO) != 0;
    size_t total = o->only_case >= 0 ? nops : o->count;
    for (size_t k = 0; k < total; k++) {
        const conf_adapter *a = ops[k % nops];
        size_t index = o->only_case >= 0 ? (size_t)o->only_case : k / nops;
        if (tty) {
            fprintf(stderr, "\r\033[K[%zu/%zu] %s case%zu", k + 1, total, a->op, index);
            fflush(stderr);
        }
        conf_result r;
        diff_case_run(o, a, conf_diff_op_find(a->op), index, &r);
        print_result(o, a->op, index, &r, tty);
        char name[32];
        snprintf(name, sizeof name, "case%zu", index);
        conf_case c = {.op = (char *)a->op, .name = name};
        if (!conf_report_add(report, tsr_backend_name(o->backend), &c, &r))
            break;
    }
    if (tty)
        fputs("\r\033[K", stderr);
    return nops;
}
