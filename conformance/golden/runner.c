/* One case: load inputs, apply views, snapshot, call, check, compare. */
#include "golden/runner.h"
#include "golden/identity.h"

#include "bindings/bind.h"
#include "common/json_values.h"
#include "golden/claims.h"
#include "golden/compare.h"
#include "golden/view_steps.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *conf_outcome_name(conf_outcome outcome)
{
    static const char *const names[CONF_OUTCOME_COUNT] = {"pass", "fail", "skip", "error"};
    return outcome < CONF_OUTCOME_COUNT ? names[outcome] : "?";
}

void conf_result_set(conf_result *res, conf_outcome outcome, const char *fmt, ...)
{
    res->outcome = outcome;
    va_list args;
    va_start(args, fmt);
    vsnprintf(res->message, sizeof res->message, fmt, args);
    va_end(args);
}

/* ------------------------------------------------------------------------ */
/* Inputs                                                                    */
/* ------------------------------------------------------------------------ */

/* A load or view failure is the backend's limit (skip) when it says
 * "unimplemented", and otherwise an error. */
static conf_outcome failure_outcome(int status)
{
    return status == TSR_ERR_UNIMPLEMENTED ? CONF_SKIP : CONF_ERROR;
}

/* "not claimed: " before the message of a skip for a missing kernel. */
static const char *claim_prefix(int status)
{
    return status == TSR_ERR_UNIMPLEMENTED ? "not claimed: " : "";
}

static bool load_one(const conf_source *source, tsr_backend *backend, const conf_tensor_ref *ref,
                     tsr_tensor **base, tsr_tensor **viewed, conf_result *res)
{
    char msg[768];
    int st = source->load(source, ref, backend, base, msg, sizeof msg);
    if (st != TSR_OK) {
        conf_result_set(res, failure_outcome(st), "%sinput: %s", claim_prefix(st), msg);
        return false;
    }
    conf_view_status vs =
        conf_view_apply(*base, ref->view, ref->nview, viewed, &st, msg, sizeof msg);
    if (vs == CONF_VIEW_BAD_STEP)
        conf_result_set(res, CONF_ERROR, "case: %s of %s", msg, ref->file);
    else if (vs == CONF_VIEW_FAILED)
        conf_result_set(res, failure_outcome(st), "%s%s of %s", claim_prefix(st), msg, ref->file);
    return vs == CONF_VIEW_OK;
}

bool conf_call_load(const conf_source *source, conf_call *call, conf_result *res)
{
    for (int i = 0; i < call->nvalues; i++) {
        conf_value *v = &call->values[i];
        const conf_input *in = v->spec;
        if (in->kind == CONF_INPUT_TENSOR &&
            !load_one(source, call->backend, &in->tensor, &v->base, &v->tensor, res))
            return false;
        if (in->kind != CONF_INPUT_LIST)
            continue;
        v->bases = calloc((size_t)in->nlist + 1, sizeof(tsr_tensor *));
        v->list = calloc((size_t)in->nlist + 1, sizeof(tsr_tensor *));
        for (; v->nlist < in->nlist; v->nlist++) {
            if (!load_one(source, call->backend, &in->list[v->nlist], &v->bases[v->nlist],
                          &v->list[v->nlist], res))
                return false;
        }
    }
    return true;
}

/* The dtype the report files the case under. */
static void note_dtype(conf_call *call, conf_result *res)
{
    tsr_dtype dtype;
    for (int i = 0; i < call->nvalues; i++) {
        const conf_value *v = &call->values[i];
        const tsr_tensor *t = v->tensor ? v->tensor : v->nlist ? v->list[0] : NULL;
        if (t) {
            snprintf(res->dtype, sizeof res->dtype, "%s", tsr_dtype_name(tsr_tensor_dtype(t)));
            return;
        }
    }
    const cJSON *arg = cJSON_GetObjectItemCaseSensitive(call->c->args, "dtype");
    if (arg && conf_json_dtype(arg, &dtype))
        snprintf(res->dtype, sizeof res->dtype, "%s", tsr_dtype_name(dtype));
}

/* ------------------------------------------------------------------------ */
/* Snapshots: every input's bytes before the call                            */
/* ------------------------------------------------------------------------ */

typedef struct snapshot {
    const tsr_tensor *base;
    const char *name;
    unsigned char *bytes;
    size_t size;
} snapshot;

static size_t tensor_bytes(const tsr_tensor *t)
{
    return (size_t)tsr_tensor_numel(t) * tsr_dtype_size(tsr_tensor_dtype(t));
}

static void snapshot_add(snapshot *s, int *n, const tsr_tensor *base, const char *name)
{
    snapshot *e = &s[*n];
    e->base = base;
    e->name = name;
    e->size = tensor_bytes(base);
    e->bytes = malloc(e->size ? e->size : 1);
    if (e->bytes && tsr_to_host(base, e->bytes, e->size) == TSR_OK)
        (*n)++;
    else
        free(e->bytes);
}

static snapshot *snapshots_take(const conf_call *call, int *count)
{
    int total = 0;
    for (int i = 0; i < call->nvalues; i++)
        total += (call->values[i].base ? 1 : 0) + call->values[i].nlist;
    snapshot *s = calloc((size_t)total + 1, sizeof *s);
    *count = 0;
    for (int i = 0; s && i < call->nvalues; i++) {
        const conf_value *v = &call->values[i];
        if (v->base)
            snapshot_add(s, count, v->base, v->spec->name);
        for (int j = 0; j < v->nlist; j++)
            snapshot_add(s, count, v->bases[j], v->spec->name);
    }
    return s;
}

/* The name of the first input whose bytes changed, ignoring `allowed`. */
static const char *snapshots_changed(const snapshot *s, int count, const tsr_tensor *allowed)
{
    const char *changed = NULL;
    for (int i = 0; i < count && !changed; i++) {
        if (s[i].base == allowed)
            continue;
        unsigned char *now = malloc(s[i].size ? s[i].size : 1);
        if (!now || tsr_to_host(s[i].base, now, s[i].size) != TSR_OK ||
            memcmp(now, s[i].bytes, s[i].size) != 0)
            changed = s[i].name;
        free(now);
    }
    return changed;
}

static void snapshots_free(snapshot *s, int count)
{
    for (int i = 0; i < count; i++)
        free(s[i].bytes);
    free(s);
}

/* ------------------------------------------------------------------------ */
/* Judging                                                                   */
/* ------------------------------------------------------------------------ */

static const conf_value *self_value(const conf_call *call)
{
    const conf_input *in = conf_case_input(call->c, "self");
    for (int i = 0; in && i < call->nvalues; i++) {
        if (call->values[i].spec == in)
            return &call->values[i];
    }
    return NULL;
}

/* Whether a failed call is explained by a kernel the backend lacks: none
 * for the expected output dtype from the input dtypes the core could have
 * chosen (an input's own, the operands' result type, or the output's). */
static bool lacks_kernel(const conf_call *call, tsr_dtype out_dtype)
{
    int op = call->adapter->kernel;
    if (op < 0)
        return false;
    tsr_dtype candidates[8 + 2];
    tsr_operand operands[8];
    int n = 0, nops = 0;
    candidates[n++] = out_dtype;
    for (int i = 0; i < call->nvalues && nops < 8; i++) {
        const conf_value *v = &call->values[i];
        if (v->tensor) {
            candidates[n++] = tsr_tensor_dtype(v->tensor);
            operands[nops++] = tsr_operand_tensor(v->tensor);
        } else if (v->spec->kind == CONF_INPUT_SCALAR) {
            operands[nops++] = tsr_operand_scalar(v->spec->scalar);
        }
    }
    if (nops > 0 && tsr_result_type(operands, (size_t)nops, &candidates[n]) == TSR_OK)
        n++;
    for (int i = 0; i < n; i++) {
        if (tsr_backend_has_kernel(call->backend, (tsr_op)op, candidates[i], out_dtype))
            return false;
    }
    return true;
}

/* Checks what the adapter flags promise about output 0. */
static bool check_aliasing(const conf_call *call, conf_result *res)
{
    unsigned flags = call->adapter->flags;
    const conf_input *in = conf_case_input(call->c, "input");
    const tsr_tensor *input = NULL;
    for (int i = 0; in && i < call->nvalues; i++) {
        if (call->values[i].spec == in)
            input = call->values[i].tensor;
    }
    if (!input || call->noutputs == 0)
        return true;
    bool shares = tsr_tensor_shares_storage(call->outputs[0], input);
    if ((flags & CONF_ADAPTER_VIEW) && !shares) {
        conf_result_set(res, CONF_FAIL, "the result is a copy; PyTorch's %s returns a view",
                        call->c->op);
        return false;
    }
    if ((flags & CONF_ADAPTER_COPY) && shares) {
        conf_result_set(res, CONF_FAIL, "the result shares its input's storage; %s must copy",
                        call->c->op);
        return false;
    }
    return true;
}

conf_tolerance conf_case_tolerance(const conf_case *c, tsr_dtype dtype)
{
    conf_tolerance tol = conf_tolerance_default(dtype);
    if (c->has_rtol)
        tol.rtol = c->rtol;
    if (c->has_atol)
        tol.atol = c->atol;
    tol.signed_zeros = c->signed_zeros;
    return tol;
}

static bool compare_outputs(const conf_call *call, tsr_tensor *const *expected, conf_result *res)
{
    const conf_case *c = call->c;
    char msg[900];
    if (c->identity) {
        bool gauge[16] = {false};
        for (int i = 0; i < c->noutputs && i < 16; i++)
            gauge[i] = c->outputs[i].gauge;
        conf_compare_status cs =
            c->noutputs > 16
                ? CONF_COMPARE_ERROR
                : conf_identity_compare(call, expected, c->noutputs, gauge, msg, sizeof msg);
        if (cs != CONF_COMPARE_EQUAL) {
            conf_result_set(res, cs == CONF_COMPARE_DIFFERENT ? CONF_FAIL : CONF_ERROR,
                            "identity check: %s", msg);
            return false;
        }
        conf_result_set(res, CONF_PASS, "%s", "");
        return true;
    }
    for (int i = 0; i < c->noutputs; i++) {
        conf_tolerance tol = conf_case_tolerance(c, tsr_tensor_dtype(expected[i]));
        conf_compare_status cs =
            conf_compare_tensors(call->outputs[i], expected[i], &tol, msg, sizeof msg);
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
    conf_result_set(res, CONF_PASS, "%s", "");
    return true;
}

/* Judges a case that expects outputs; true when the forward passed. */
static bool judge_outputs(const conf_runner *r, const conf_call *call, int st, const char *error,
                          const char *changed, conf_result *res)
{
    const conf_case *c = call->c;
    char msg[768];
    tsr_tensor **expected = calloc((size_t)c->noutputs + 1, sizeof *expected);
    if (!expected) {
        conf_result_set(res, CONF_ERROR, "out of memory for %d expected outputs", c->noutputs);
        return false;
    }
    if (!r->source->expected) {
        free(expected);
        conf_result_set(res, CONF_ERROR, "the %s source has no expected outputs", r->source->name);
        return false;
    }
    /* A case may expect no outputs at all (unbind along an empty dim). */
    int est = c->noutputs ? r->source->expected(r->source, c, r->backend, expected, msg, sizeof msg)
                          : TSR_OK;
    if (est != TSR_OK) {
        free(expected);
        conf_result_set(res, failure_outcome(est), "%sexpected output: %s", claim_prefix(est), msg);
        return false;
    }
    bool missing_kernel = st == TSR_ERR_UNIMPLEMENTED;
    if (c->noutputs > 0) {
        tsr_dtype want = tsr_tensor_dtype(expected[0]);
        if (res->dtype[0] == '\0')
            snprintf(res->dtype, sizeof res->dtype, "%s", tsr_dtype_name(want));
        missing_kernel = missing_kernel || (st == TSR_ERR_DTYPE && lacks_kernel(call, want));
    }
    bool passed = false;
    if (missing_kernel)
        conf_result_set(res, CONF_SKIP, "not claimed: %s", error);
    else if (st != TSR_OK)
        conf_result_set(res, CONF_ERROR, "unexpected error %s: %s", tsr_status_name(st), error);
    else if (changed)
        conf_result_set(res, CONF_ERROR, "the call changed its input '%s'", changed);
    else if (call->noutputs != c->noutputs)
        conf_result_set(res, CONF_ERROR, "%d outputs, the case expects %d", call->noutputs,
                        c->noutputs);
    else if (check_aliasing(call, res))
        passed = compare_outputs(call, expected, res);
    for (int i = 0; i < c->noutputs; i++)
        tsr_tensor_release(expected[i]);
    free(expected);
    return passed;
}

/* The golden format's rule: any error, with a message and every input
 * unchanged, passes, a missing kernel included (PyTorch lacks it too), but
 * only where the backend claims what the refusal needs (claims.h): a
 * backend without the op's kernel has not shown that it refuses. */
static void judge_error(const conf_call *call, int st, const char *error, const char *changed,
                        conf_result *res)
{
    const conf_case *c = call->c;
    char why[900];
    if (st == TSR_OK)
        conf_result_set(res, CONF_ERROR, "no error; PyTorch raised %s%s%s", c->error,
                        c->error_message ? ": " : "", c->error_message ? c->error_message : "");
    else if (changed)
        conf_result_set(res, CONF_ERROR, "the failing call changed its input '%s'", changed);
    else if (!conf_claims_refusal(call, st, error, why, sizeof why))
        conf_result_set(res, CONF_SKIP, "%s", why);
    else if (error[0] == '\0')
        conf_result_set(res, CONF_ERROR, "%s without a message", tsr_status_name(st));
    else
        conf_result_set(res, CONF_PASS, "%s: %s", tsr_status_name(st), error);
}

void conf_call_invoke(conf_call *call, conf_invocation *inv)
{
    memset(inv, 0, sizeof *inv);
    int nsnap = 0;
    snapshot *snaps = snapshots_take(call, &nsnap);
    tsr_clear_error();
    inv->status = call->adapter->fn(call);
    snprintf(inv->error, sizeof inv->error, "%s", inv->status < 0 ? tsr_last_error() : "");
    inv->unused = conf_call_unused(call);
    const conf_value *self = NULL;
    if ((call->adapter->flags & CONF_ADAPTER_INPLACE) && inv->status == TSR_OK)
        self = self_value(call);
    inv->changed = snapshots_changed(snaps, nsnap, self ? self->base : NULL);
    snapshots_free(snaps, nsnap);
}

/* Calls the adapter and judges the call (and then its gradients). */
static void run_adapter(const conf_runner *r, conf_call *call, conf_result *res)
{
    conf_invocation inv;
    conf_call_invoke(call, &inv);
    if (inv.status == CONF_BIND_SKIP)
        conf_result_set(res, CONF_SKIP, "runner: %s", call->problem);
    else if (inv.unused)
        conf_result_set(res, CONF_SKIP, "runner: the %s adapter does not understand '%s'",
                        call->c->op, inv.unused);
    else if (call->c->error)
        judge_error(call, inv.status, inv.error, inv.changed, res);
    else if (judge_outputs(r, call, inv.status, inv.error, inv.changed, res) && call->c->grad) {
        if (r->skip_grads)
            conf_result_set(res, CONF_PASS, "forward only: gradients not checked (--no-grad)");
        else
            conf_check_gradients(r, call, res);
    }
}

void conf_run_case(const conf_runner *runner, const conf_case *c, conf_result *result)
{
    conf_run_case_with(runner, c, c->op ? conf_adapter_find(c->op) : NULL, result);
}

void conf_run_case_with(const conf_runner *runner, const conf_case *c, const conf_adapter *adapter,
                        conf_result *result)
{
    memset(result, 0, sizeof *result);
    if (c->problem) {
        conf_result_set(result, CONF_ERROR, "case (manifest line %d): %s", c->line, c->problem);
    } else {
        conf_call call;
        conf_call_init(&call, c, runner->backend);
        call.adapter = adapter;
        bool loaded = conf_call_load(runner->source, &call, result);
        note_dtype(&call, result);
        if (loaded && !call.adapter)
            conf_result_set(result, CONF_SKIP, "runner: no adapter for op '%s'", c->op);
        else if (loaded)
            run_adapter(runner, &call, result);
        conf_call_clear(&call);
    }
    if (result->dtype[0] == '\0')
        snprintf(result->dtype, sizeof result->dtype, "-");
}
