/* Per-thread error messages (internal). */
#ifndef TSR_CORE_ERROR_H
#define TSR_CORE_ERROR_H

#include "tessera/tessera.h"

#include <stdarg.h>

/* Sets the calling thread's message and returns `status`, so a failing path
 * reads `return tsr__set_error(TSR_ERR_SHAPE, "add: ...")`. */
int tsr__set_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tsr__set_error_v(int status, const char *fmt, va_list args);
/* Puts "prefix: " in front of the current message (used to name the op and
 * backend around a plugin's own message). */
void tsr__prefix_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* For a public op that runs another public op: when `status` is an error
 * whose message starts "inner:", the message starts "op:" instead, so the
 * user reads the name they called. Returns `status`. */
int tsr__rename_error(const char *op, const char *inner, int status);
/* For a composite op whose steps are other ops: the message names `op`
 * first, once. A message from a step ("sub: shapes ...") is renamed
 * ("mse_loss: shapes ..."); one without an op name gets the prefix. */
int tsr__claim_error(const char *op, int status);

#endif
