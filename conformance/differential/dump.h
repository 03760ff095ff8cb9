/* A drawn differential case written out as a golden case (--dump DIR). */
#ifndef CONF_DIFF_DUMP_H
#define CONF_DIFF_DUMP_H

#include "golden/manifest.h"
#include "golden/source.h"

/* Appends case `c` (under the case name `name`) to DIR/manifest.jsonl and
 * writes its arrays to DIR/<op>/, with `outputs` as the expected outputs,
 * or, when `error` is not NULL, "error": error instead. The arrays pass
 * through `backend` to be saved. Returns false after a message. */
bool conf_diff_dump(const char *dir, const char *name, const conf_case *c,
                    const conf_array_store *store, tsr_backend *backend, tsr_tensor *const *outputs,
                    int noutputs, const char *error, char *message, size_t capacity);

#endif
