/* Running one case against one backend and judging the result. */
#ifndef CONF_RUNNER_H
#define CONF_RUNNER_H

#include "manifest.h"
#include "source.h"

typedef enum conf_outcome {
    CONF_PASS,
    CONF_FAIL,  /* a result differs from the expected one */
    CONF_SKIP,  /* unsupported: no adapter, or the backend lacks the op or dtype */
    CONF_ERROR, /* an unexpected error, a missing error, a changed input, a bad case */
    CONF_OUTCOME_COUNT
} conf_outcome;

/* "pass", "fail", "skip", "error". */
const char *conf_outcome_name(conf_outcome outcome);

typedef struct conf_result {
    conf_outcome outcome;
    char dtype[16];     /* the case's dtype for the report: its first tensor input's,
                           else its dtype arg's, else its first output's; "-" if none */
    char message[1024]; /* why it did not pass, or a note for a pass */
} conf_result;

typedef struct conf_runner {
    const char *dir;           /* the case set's directory */
    tsr_backend *backend;      /* the backend under test */
    const conf_source *source; /* where expected outputs come from */
} conf_runner;

/* Runs `c` and writes the verdict. A case expecting outputs passes when the
 * call succeeds, every input other than an in-place op's self is unchanged,
 * and every output matches. A case expecting an error passes when the call
 * fails with a message and leaves every input unchanged; a
 * TSR_ERR_UNIMPLEMENTED answer is a skip, since the backend cannot tell. */
void conf_run_case(const conf_runner *runner, const conf_case *c, conf_result *result);

struct conf_adapter;
/* As conf_run_case with a given adapter (NULL: none), so tests can check the
 * judging against adapters that misbehave on purpose. */
void conf_run_case_with(const conf_runner *runner, const conf_case *c,
                        const struct conf_adapter *adapter, conf_result *result);

#endif
