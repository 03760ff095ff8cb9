/* The `grad` entry of a case: gradients through tsr_autograd_grad, compared
 * with PyTorch's torch.autograd.grad.
 *
 * PyTorch's generator makes each `wrt` operand a leaf *after* its view steps
 * (`viewed.detach().requires_grad_()`), so a gradient has the viewed shape
 * and an expanded operand gets one gradient element per viewed element. The
 * runner does the same: tsr_detach of the viewed tensor, marked as requiring
 * grad, replaces the input, and the adapter runs again under grad mode. */
#include "golden/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LEAVES = 64 };

/* The gradient check of one case: leaves, their names, what came back. */
typedef struct grad_run {
    conf_call *call;
    const conf_grad *spec;
    tsr_tensor *leaves[MAX_LEAVES]; /* borrowed from call->values */
    char names[MAX_LEAVES][48];     /* "input", "tensors[1]" */
    int nleaves;
    tsr_tensor *results[MAX_LEAVES];
    tsr_tensor **grad_outputs; /* one per floating output, allocated */
    int ngrad_outputs;
} grad_run;

static void set_grad(conf_result *res, conf_grad_check check, conf_outcome outcome, const char *fmt,
                     const char *detail)
{
    res->grad = check;
    conf_result_set(res, outcome, fmt, detail);
}

static conf_value *value_named(conf_call *call, const char *name)
{
    const conf_input *in = conf_case_input(call->c, name);
    for (int i = 0; in && i < call->nvalues; i++) {
        if (call->values[i].spec == in)
            return &call->values[i];
    }
    return NULL;
}

/* Replaces *slot (a viewed input) with a detached leaf that requires grad. */
static int make_leaf(tsr_tensor **slot, char *msg, size_t cap)
{
    tsr_dtype dtype = tsr_tensor_dtype(*slot);
    tsr_tensor *leaf = NULL;
    int st = tsr_detach(*slot, &leaf);
    if (st == TSR_OK)
        st = tsr_tensor_set_requires_grad(leaf, true);
    if (st != TSR_OK) {
        snprintf(msg, cap, "cannot make a %s leaf that requires grad: %s: %s",
                 tsr_dtype_name(dtype), tsr_status_name(st), tsr_last_error());
        tsr_tensor_release(leaf);
        return st;
    }
    tsr_tensor_release(*slot);
    *slot = leaf;
    return TSR_OK;
}

static int add_leaf(grad_run *g, tsr_tensor **slot, const char *name, int element, char *msg,
                    size_t cap)
{
    if (g->nleaves == MAX_LEAVES) {
        snprintf(msg, cap, "case: more than %d gradients", MAX_LEAVES);
        return TSR_ERR_INVALID_ARGUMENT;
    }
    int st = make_leaf(slot, msg, cap);
    if (st != TSR_OK)
        return st;
    if (element < 0)
        snprintf(g->names[g->nleaves], sizeof g->names[0], "%s", name);
    else
        snprintf(g->names[g->nleaves], sizeof g->names[0], "%s[%d]", name, element);
    g->leaves[g->nleaves++] = *slot;
    return TSR_OK;
}

/* Makes the leaves of every `wrt` input. Returns TSR_OK or a status after a
 * message (TSR_ERR_UNIMPLEMENTED for what tessera cannot differentiate). */
static int make_leaves(grad_run *g, char *msg, size_t cap)
{
    for (int w = 0; w < g->spec->nwrt; w++) {
        const char *name = g->spec->wrt[w];
        conf_value *v = value_named(g->call, name);
        if (!v || v->spec->kind == CONF_INPUT_SCALAR) {
            snprintf(msg, cap, "case: grad wrt '%s' names no tensor input", name);
            return TSR_ERR_INVALID_ARGUMENT;
        }
        int st = TSR_OK;
        if (v->spec->kind == CONF_INPUT_TENSOR)
            st = add_leaf(g, &v->tensor, name, -1, msg, cap);
        for (int j = 0; st == TSR_OK && v->spec->kind == CONF_INPUT_LIST && j < v->nlist; j++)
            st = add_leaf(g, &v->list[j], name, j, msg, cap);
        if (st != TSR_OK)
            return st;
    }
    return TSR_OK;
}

/* Runs the adapter again on the leaves, recording the graph. */
static int forward_with_grad(conf_call *call, char *msg, size_t cap)
{
    for (int i = 0; i < call->noutputs; i++)
        tsr_tensor_release(call->outputs[i]);
    call->noutputs = 0;
    bool previous = tsr_grad_mode_set(true);
    tsr_clear_error();
    int st = call->adapter->fn(call);
    tsr_grad_mode_set(previous);
    if (st != TSR_OK)
        snprintf(msg, cap, "the forward call on leaves that require grad failed: %s: %s",
                 st == CONF_BIND_SKIP ? "CONF_BIND_SKIP" : tsr_status_name(st),
                 st == CONF_BIND_SKIP ? call->problem : tsr_last_error());
    return st;
}

static bool is_differentiable(const tsr_tensor *t)
{
    tsr_dtype d = tsr_tensor_dtype(t);
    return tsr_dtype_is_floating(d) || tsr_dtype_is_complex(d);
}

/* Loads one grad_output per floating output, as the format says. */
static bool load_grad_outputs(const conf_runner *r, grad_run *g, char *msg, size_t cap)
{
    int nfloating = 0;
    for (int i = 0; i < g->call->noutputs; i++)
        nfloating += is_differentiable(g->call->outputs[i]);
    if (nfloating != g->spec->ngrad_outputs) {
        snprintf(msg, cap, "case: %d grad_outputs for %d floating outputs", g->spec->ngrad_outputs,
                 nfloating);
        return false;
    }
    g->grad_outputs = calloc((size_t)nfloating + 1, sizeof *g->grad_outputs);
    if (!g->grad_outputs) {
        snprintf(msg, cap, "out of memory for %d grad_outputs", nfloating);
        return false;
    }
    for (; g->ngrad_outputs < nfloating; g->ngrad_outputs++) {
        int i = g->ngrad_outputs;
        char detail[600];
        if (r->source->load(r->source, &g->spec->grad_outputs[i], r->backend, &g->grad_outputs[i],
                            detail, sizeof detail) != TSR_OK) {
            snprintf(msg, cap, "grad_output %d: %s", i, detail);
            return false;
        }
    }
    return true;
}

/* d(sum <grad_outputs, outputs>)/d(leaves) over the outputs that carry a
 * graph. For a complex output the term is sum(Re g Re y + Im g Im y), which
 * is what tsr_autograd_grad computes with g as the seed, and a complex
 * leaf's gradient is PyTorch's (the conjugate Wirtinger convention), so the
 * expected files compare as they are. An output without one (the op recorded nothing) contributes no
 * gradient, and leaves it does not reach get none: they compare as zeros,
 * which is right exactly when PyTorch's gradient is zero there too. */
static int backward(grad_run *g, char *msg, size_t cap)
{
    size_t count = (size_t)g->call->noutputs + 1;
    const tsr_tensor **outputs = calloc(count, sizeof *outputs);
    const tsr_tensor **gouts = calloc(count, sizeof *gouts);
    if (!outputs || !gouts) {
        free(outputs);
        free(gouts);
        snprintf(msg, cap, "out of memory for %d outputs", g->call->noutputs);
        return TSR_ERR_OUT_OF_MEMORY;
    }
    size_t n = 0;
    for (int i = 0, k = 0; i < g->call->noutputs; i++) {
        const tsr_tensor *out = g->call->outputs[i];
        if (!is_differentiable(out))
            continue;
        if (tsr_tensor_requires_grad(out)) {
            outputs[n] = out;
            gouts[n++] = g->grad_outputs[k];
        }
        k++;
    }
    int st = n == 0
                 ? TSR_OK
                 : tsr_autograd_grad(outputs, n, (const tsr_tensor *const *)g->leaves,
                                     (size_t)g->nleaves, gouts, TSR_GRAD_ALLOW_UNUSED, g->results);
    free(outputs);
    free(gouts);
    if (st != TSR_OK)
        snprintf(msg, cap, "%s%s: %s", st == TSR_ERR_UNIMPLEMENTED ? "unimplemented: " : "",
                 tsr_status_name(st), tsr_last_error());
    return st;
}

/* Compares gradient i with its expected file; anything but EQUAL comes
 * with a message (UNCLAIMED: the backend lacks a kernel to load or read
 * one of them). */
static conf_compare_status compare_one(const conf_runner *r, grad_run *g, int i, char *msg,
                                       size_t cap)
{
    tsr_tensor *expected = NULL, *zeros = NULL;
    char detail[640];
    const conf_case *c = g->call->c;
    int lst = r->source->load(r->source, &g->spec->expected[i], r->backend, &expected, detail,
                              sizeof detail);
    if (lst != TSR_OK) {
        snprintf(msg, cap, "expected gradient: %s", detail);
        return lst == TSR_ERR_UNIMPLEMENTED ? CONF_COMPARE_UNCLAIMED : CONF_COMPARE_ERROR;
    }
    const tsr_tensor *got = g->results[i];
    if (!got) {
        const tsr_tensor *leaf = g->leaves[i];
        if (tsr_zeros(tsr_tensor_ndim(leaf), tsr_tensor_shape(leaf), tsr_tensor_dtype(leaf),
                      r->backend, &zeros) != TSR_OK) {
            snprintf(msg, cap, "cannot make zeros: %s", tsr_last_error());
            tsr_tensor_release(expected);
            return CONF_COMPARE_ERROR;
        }
        got = zeros;
    }
    /* signed_zeros is about outputs: PyTorch's own gradients do not promise
     * the sign of a zero. */
    conf_tolerance tol = conf_case_tolerance(c, tsr_tensor_dtype(expected));
    tol.signed_zeros = false;
    conf_compare_status cs = conf_compare_tensors(got, expected, &tol, detail, sizeof detail);
    if (cs != CONF_COMPARE_EQUAL)
        snprintf(msg, cap, "gradient wrt '%s'%s: %s", g->names[i],
                 zeros ? " (no gradient reached it: tessera recorded no path from the outputs)"
                       : "",
                 detail);
    tsr_tensor_release(expected);
    tsr_tensor_release(zeros);
    return cs;
}

static void judge(const conf_runner *r, grad_run *g, conf_result *res)
{
    char msg[960];
    int st;
    const conf_grad *spec = g->spec;
    if (spec->problem) {
        set_grad(res, CONF_GRAD_ERROR, CONF_ERROR, "forward passed; case: grad entry: %s",
                 spec->problem);
        return;
    }
    st = make_leaves(g, msg, sizeof msg);
    if (st != TSR_OK) {
        bool skip = st == TSR_ERR_UNIMPLEMENTED;
        set_grad(res, skip ? CONF_GRAD_SKIP : CONF_GRAD_ERROR, skip ? CONF_SKIP : CONF_ERROR,
                 "forward passed; gradient: %s", msg);
        return;
    }
    if (g->nleaves != spec->nexpected) {
        snprintf(msg, sizeof msg, "%d expected gradients for %d operands in wrt", spec->nexpected,
                 g->nleaves);
        set_grad(res, CONF_GRAD_ERROR, CONF_ERROR, "forward passed; case: %s", msg);
        return;
    }
    st = forward_with_grad(g->call, msg, sizeof msg);
    if (st == TSR_OK && !load_grad_outputs(r, g, msg, sizeof msg))
        st = TSR_ERR_INVALID_ARGUMENT;
    if (st == TSR_OK)
        st = backward(g, msg, sizeof msg);
    if (st != TSR_OK) {
        bool skip = st == TSR_ERR_UNIMPLEMENTED;
        set_grad(res, skip ? CONF_GRAD_SKIP : CONF_GRAD_ERROR, skip ? CONF_SKIP : CONF_ERROR,
                 "forward passed; gradient: %s", msg);
        return;
    }
    for (int i = 0; i < g->nleaves; i++) {
        conf_compare_status cs = compare_one(r, g, i, msg, sizeof msg);
        if (cs == CONF_COMPARE_UNCLAIMED) {
            set_grad(res, CONF_GRAD_SKIP, CONF_SKIP, "forward passed; gradient: not claimed: %s",
                     msg);
            return;
        }
        if (cs != CONF_COMPARE_EQUAL) {
            bool differs = cs == CONF_COMPARE_DIFFERENT;
            set_grad(res, differs ? CONF_GRAD_FAIL : CONF_GRAD_ERROR,
                     differs ? CONF_FAIL : CONF_ERROR, "forward passed; %s", msg);
            return;
        }
    }
    set_grad(res, CONF_GRAD_PASS, CONF_PASS, "forward and %s passed",
             g->nleaves == 1 ? "gradient" : "gradients");
}

void conf_check_gradients(const conf_runner *r, conf_call *call, conf_result *res)
{
    grad_run g;
    memset(&g, 0, sizeof g);
    g.call = call;
    g.spec = call->c->grad;
    judge(r, &g, res);
    for (int i = 0; i < g.nleaves; i++)
        tsr_tensor_release(g.results[i]);
    for (int i = 0; i < g.ngrad_outputs; i++)
        tsr_tensor_release(g.grad_outputs[i]);
    free(g.grad_outputs);
}
