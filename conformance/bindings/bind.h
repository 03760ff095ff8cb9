/* Binding a case to a tessera call: an adapter per PyTorch op name reads the
 * case's inputs by name and its args by keyword and calls the library.
 *
 * Every input and arg an adapter reads is marked as used. A case that gives
 * an input or a non-null arg its adapter never read is "unsupported" rather
 * than silently run without it, so an adapter cannot pass a case it did not
 * understand. */
#ifndef CONF_BIND_H
#define CONF_BIND_H

#include "golden/manifest.h"

#include <stddef.h>

/* An adapter's answer when the case has a form it cannot bind (missing
 * input, arg of the wrong type): the case is skipped with call->problem. */
enum { CONF_BIND_SKIP = 1 };

/* Adapter flags: what the result must be besides equal to the expected value. */
enum {
    CONF_ADAPTER_INPLACE = 1u << 0, /* output 0 is the mutated "self" input */
    CONF_ADAPTER_VIEW = 1u << 1,    /* output 0 shares storage with "input" */
    CONF_ADAPTER_COPY = 1u << 2,    /* output 0 does not share storage with "input" */
};

typedef struct conf_call conf_call;
typedef int (*conf_adapter_fn)(conf_call *call);

typedef struct conf_adapter {
    const char *op; /* PyTorch's name, as in the manifest */
    conf_adapter_fn fn;
    int kernel;     /* the tsr_op whose kernels the call needs, or -1 */
    unsigned flags; /* CONF_ADAPTER_* */
} conf_adapter;

/* A case input, loaded onto the backend and viewed. */
typedef struct conf_value {
    const conf_input *spec;
    tsr_tensor *base;   /* as loaded (CONF_INPUT_TENSOR) */
    tsr_tensor *tensor; /* after the view steps */
    tsr_tensor **bases; /* CONF_INPUT_LIST, nlist of each */
    tsr_tensor **list;
    int nlist;
    bool used;
} conf_value;

struct conf_call {
    const conf_case *c;
    const conf_adapter *adapter;
    tsr_backend *backend;
    conf_value *values; /* one per case input, in manifest order */
    int nvalues;
    bool *args_used;      /* one per member of c->args */
    tsr_tensor **outputs; /* grown as results are recorded (split into any count) */
    int noutputs;
    int outputs_capacity;
    char problem[512];
};

/* The adapter for a PyTorch op name, NULL if there is none. */
const conf_adapter *conf_adapter_find(const char *op);
/* The index-th adapter of all tables, NULL past the end (for --list-ops). */
const conf_adapter *conf_adapter_at(size_t index);

void conf_call_init(conf_call *call, const conf_case *c, tsr_backend *backend);
/* Releases the values' tensors and the outputs. */
void conf_call_clear(conf_call *call);
/* The first input or non-null arg the adapter did not read, or NULL. */
const char *conf_call_unused(const conf_call *call);

/* ---- inputs ("self" and "input" are one name) ---- */
/* A tensor input; false (with call->problem) if absent or a scalar. */
bool conf_bind_tensor(conf_call *call, const char *name, tsr_tensor **out);
/* A tensor or scalar input, or else a scalar arg of that name. */
bool conf_bind_operand(conf_call *call, const char *name, tsr_operand *out);
/* As conf_bind_operand, but absence is fine: *present says which. */
bool conf_bind_operand_opt(conf_call *call, const char *name, tsr_operand *out, bool *present);
/* An optional tensor input: absent is fine (*out NULL), a scalar is not. */
bool conf_bind_tensor_opt(conf_call *call, const char *name, tsr_tensor **out);

/* ---- args by keyword (a null arg counts as absent) ---- */
bool conf_arg_present(conf_call *call, const char *name);
bool conf_arg_int(conf_call *call, const char *name, int64_t *out);
bool conf_arg_int_or(conf_call *call, const char *name, int64_t fallback, int64_t *out);
bool conf_arg_scalar(conf_call *call, const char *name, tsr_scalar *out);
bool conf_arg_scalar_or(conf_call *call, const char *name, tsr_scalar fallback, tsr_scalar *out);
bool conf_arg_bool_or(conf_call *call, const char *name, bool fallback, bool *out);
bool conf_arg_double_or(conf_call *call, const char *name, double fallback, double *out);
bool conf_arg_int_list(conf_call *call, const char *name, int64_t *out, int *count);
/* As conf_arg_int_list, of any length: *out is malloc'd (free it), NULL on failure. */
bool conf_arg_int_array(conf_call *call, const char *name, int64_t **out, int *count);
bool conf_arg_dtype_or(conf_call *call, const char *name, tsr_dtype fallback, tsr_dtype *out);
bool conf_arg_string_or(conf_call *call, const char *name, const char *fallback, const char **out);

/* Records the result of a library call that returns one tensor and passes
 * the status on. Make the call in a statement of its own first: C leaves the
 * order of argument evaluation open, so `conf_call_return(call, f(&out), out)`
 * may read `out` before f writes it. */
int conf_call_return(conf_call *call, int status, tsr_tensor *out);
/* Records `t` (retained) as an output: for in-place ops, the mutated self. */
int conf_call_return_self(conf_call *call, int status, tsr_tensor *self);
/* Records two outputs (values then indices, ...) and passes the status on. */
int conf_call_return_pair(conf_call *call, int status, tsr_tensor *first, tsr_tensor *second);

/* ---- resample family ---- */
/* size= or scale_factor=: absent or null gives *count 0, a number *count -1
 * (TSR_RESAMPLE_ONE_FOR_ALL) and out[0], a list its length and values (at
 * most TSR_MAX_DIMS). */
bool conf_arg_number_or_list(conf_call *call, const char *name, double *out, int *count);

#endif
