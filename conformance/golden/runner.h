/* Running one case against one backend and judging the result. */
#ifndef CONF_RUNNER_H
#define CONF_RUNNER_H

#include "bindings/bind.h"
#include "golden/compare.h"
#include "golden/manifest.h"
#include "golden/source.h"

typedef enum conf_outcome {
    CONF_PASS,
    CONF_FAIL,  /* a result differs from the expected one */
    CONF_SKIP,  /* unsupported: no adapter, or the backend lacks the op or dtype */
    CONF_ERROR, /* an unexpected error, a missing error, a changed input, a bad case */
    CONF_OUTCOME_COUNT
} conf_outcome;

/* "pass", "fail", "skip", "error". */
const char *conf_outcome_name(conf_outcome outcome);

/* What became of a case's `grad` entry. */
typedef enum conf_grad_check {
    CONF_GRAD_NONE,  /* no grad entry, or not checked: --no-grad, or the forward did not pass */
    CONF_GRAD_PASS,  /* every gradient matched */
    CONF_GRAD_FAIL,  /* a gradient differs */
    CONF_GRAD_SKIP,  /* the backward is unimplemented (for this op, dtype or backend) */
    CONF_GRAD_ERROR, /* the backward failed unexpectedly, or the entry is malformed */
} conf_grad_check;

typedef struct conf_result {
    conf_outcome outcome; /* of forward and gradients together */
    conf_grad_check grad; /* of the gradients alone */
    char dtype[16];       /* the case's dtype for the report: its first tensor input's,
                             else its dtype arg's, else its first output's; "-" if none */
    char message[1024];   /* why it did not pass, or a note for a pass */
} conf_result;

typedef struct conf_runner {
    const char *dir;           /* the case set's directory */
    tsr_backend *backend;      /* the backend under test */
    const conf_source *source; /* where arrays and expected outputs come from */
    bool skip_grads;           /* --no-grad: judge forward outputs only */
} conf_runner;

/* Runs `c` and writes the verdict. A case expecting outputs passes when the
 * call succeeds, every input other than an in-place op's self is unchanged,
 * every output matches and, when the case has a `grad` entry (and the runner
 * checks gradients), every gradient matches. A case expecting an error
 * passes when the call fails with a message and leaves every input
 * unchanged; a TSR_ERR_UNIMPLEMENTED answer is a skip, since the backend
 * cannot tell. */
void conf_run_case(const conf_runner *runner, const conf_case *c, conf_result *result);

/* As conf_run_case with a given adapter (NULL: none), so tests can check the
 * judging against adapters that misbehave on purpose. */
void conf_run_case_with(const conf_runner *runner, const conf_case *c, const conf_adapter *adapter,
                        conf_result *result);

/* Writes result->outcome and a formatted message. */
void conf_result_set(conf_result *result, conf_outcome outcome, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------------------ */
/* The pieces, for the differential mode and the gradient check              */
/* ------------------------------------------------------------------------ */

/* How one adapter call went. */
typedef struct conf_invocation {
    int status;          /* the adapter's answer: TSR_OK, a library status or CONF_BIND_SKIP */
    char error[768];     /* the library's message after a failure, else "" */
    const char *changed; /* the first input (other than an in-place op's self after
                            success) whose bytes changed, or NULL */
    const char *unused;  /* the first input or arg the adapter did not read, or NULL */
} conf_invocation;

/* Loads every input of call->c from `source` onto call->backend and applies
 * its view steps. On failure writes the verdict (skip when the backend says
 * unimplemented, else error) and returns false. */
bool conf_call_load(const conf_source *source, conf_call *call, conf_result *result);

/* Calls the adapter between snapshots of every input's bytes. */
void conf_call_invoke(conf_call *call, conf_invocation *invocation);

/* The tolerance of case `c` for results of `dtype`: its rtol/atol, else the
 * dtype's default. signed_zeros as the case says. */
conf_tolerance conf_case_tolerance(const conf_case *c, tsr_dtype dtype);

/* Checks the gradients of a case whose forward passed (grad_check.c): marks
 * the `wrt` inputs (viewed) as leaves requiring grad, runs the adapter again
 * under grad mode and compares tsr_autograd_grad's results with the expected
 * files. Writes result->grad and, unless the gradients pass, the outcome
 * and message. */
void conf_check_gradients(const conf_runner *runner, conf_call *call, conf_result *result);

#endif
