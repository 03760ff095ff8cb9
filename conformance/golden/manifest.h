/* Golden cases: the manifest.jsonl lines of a case set, parsed into structs
 * (format: docs/../shared/specs/golden-format.md). Unknown keys are ignored. */
#ifndef CONF_MANIFEST_H
#define CONF_MANIFEST_H

#include "tessera/tessera.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* A tensor stored in a file of the case set. */
typedef struct conf_tensor_ref {
    char *file;  /* relative to the case directory */
    char **view; /* view steps, applied left to right */
    int nview;
    bool has_dtype; /* the entry names its dtype (bfloat16 stored as '<u2') */
    tsr_dtype dtype;
    bool gauge; /* "gauge": true: unique only up to a gauge (check identity) */
} conf_tensor_ref;

typedef enum conf_input_kind {
    CONF_INPUT_TENSOR,
    CONF_INPUT_SCALAR,
    CONF_INPUT_LIST,
} conf_input_kind;

typedef struct conf_input {
    char *name;
    conf_input_kind kind;
    conf_tensor_ref tensor; /* CONF_INPUT_TENSOR */
    tsr_scalar scalar;      /* CONF_INPUT_SCALAR */
    conf_tensor_ref *list;  /* CONF_INPUT_LIST */
    int nlist;
} conf_input;

/* A case's optional `grad` entry: the gradients of the floating outputs,
 * weighted by grad_outputs, with respect to the inputs named in wrt (after
 * their view steps). A list input in wrt has one expected file per element. */
typedef struct conf_grad {
    char **wrt; /* input names ("self" and "input" are one name) */
    int nwrt;
    conf_tensor_ref *grad_outputs; /* one per floating output, in order */
    int ngrad_outputs;
    conf_tensor_ref *expected; /* one per wrt tensor (list elements flattened) */
    int nexpected;
    /* Non-NULL when the entry is malformed: the forward still runs, the
     * gradient check reports the problem. */
    char *problem;
} conf_grad;

typedef struct conf_case {
    int line; /* 1-based line in manifest.jsonl */
    char *op;
    char *name;
    conf_input *inputs;
    int ninputs;
    cJSON *args; /* an object (possibly empty), owned; integers tagged as in json_values.h */
    conf_tensor_ref *outputs;
    int noutputs;
    char *error;         /* the exception PyTorch raised, or NULL */
    char *error_message; /* its text when the manifest gives it, or NULL */
    bool has_rtol, has_atol;
    double rtol, atol;
    bool signed_zeros;
    bool identity;   /* "check": "identity": gauge outputs are judged by identities */
    bool has_grad;   /* the line has a `grad` entry (grad is then non-NULL) */
    conf_grad *grad; /* owned, NULL without a `grad` entry */
    /* Non-NULL when the line cannot be run; the other fields may be partial. */
    char *problem;
} conf_case;

typedef struct conf_manifest {
    conf_case *cases;
    size_t count;
} conf_manifest;

/* Parses one manifest line into *out (always initialised; check out->problem).
 * Returns false only when memory ran out. */
bool conf_case_parse(const char *line, int line_number, conf_case *out);
void conf_case_free(conf_case *c);

/* Reads DIR/manifest.jsonl. Returns false with a message when the file cannot
 * be read; malformed lines become cases with `problem` set. */
bool conf_manifest_load(const char *dir, conf_manifest *out, char *message, size_t capacity);
void conf_manifest_free(conf_manifest *m);

/* The input named `name`, treating "self" and "input" as one name; NULL if absent. */
const conf_input *conf_case_input(const conf_case *c, const char *name);

#endif
