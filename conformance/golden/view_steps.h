/* The golden format's view steps ("transpose:0:1", "slice:1:0:4:2", ...),
 * applied with the library's own view functions. */
#ifndef CONF_VIEW_STEPS_H
#define CONF_VIEW_STEPS_H

#include "tessera/tessera.h"

#include <stddef.h>

typedef enum conf_view_status {
    CONF_VIEW_OK,
    CONF_VIEW_BAD_STEP, /* the step text is malformed: a manifest problem */
    CONF_VIEW_FAILED,   /* the library refused the step; *status says how */
} conf_view_status;

/* Applies `steps` to `base` left to right. On success *out is a new
 * reference (to base itself when there are no steps). On failure writes a
 * message naming the step into `message` and, for CONF_VIEW_FAILED, the
 * library's status into *status. */
conf_view_status conf_view_apply(const tsr_tensor *base, char *const *steps, int nsteps,
                                 tsr_tensor **out, int *status, char *message, size_t capacity);

#endif
