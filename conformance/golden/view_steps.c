/* View steps → tsr_transpose, tsr_permute, tsr_slice, tsr_expand,
 * tsr_unsqueeze, tsr_diagonal. */
#include "golden/view_steps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* apply_step's answer for an unknown name or argument count; library
 * statuses are 0 or negative. */
enum { STEP_UNKNOWN = 1 };

/* "name:1:-2:3" → name and up to TSR_MAX_DIMS integers. */
typedef struct view_step {
    char name[16];
    int64_t args[TSR_MAX_DIMS];
    int nargs;
} view_step;

static bool parse_step(const char *text, view_step *step)
{
    size_t name_len = strcspn(text, ":");
    if (name_len == 0 || name_len >= sizeof step->name)
        return false;
    memcpy(step->name, text, name_len);
    step->name[name_len] = '\0';
    step->nargs = 0;
    const char *p = text + name_len;
    while (*p == ':') {
        if (step->nargs == TSR_MAX_DIMS)
            return false;
        char *end = NULL;
        errno = 0;
        long long v = strtoll(p + 1, &end, 10);
        if (errno != 0 || end == p + 1)
            return false;
        step->args[step->nargs++] = v;
        p = end;
    }
    return *p == '\0';
}

/* Calls the view function for one step. */
static int apply_step(const tsr_tensor *t, const view_step *s, tsr_tensor **out)
{
    const int64_t *a = s->args;
    if (strcmp(s->name, "transpose") == 0 && s->nargs == 2)
        return tsr_transpose(t, a[0], a[1], out);
    if (strcmp(s->name, "permute") == 0)
        return tsr_permute(t, s->nargs, a, out);
    if (strcmp(s->name, "slice") == 0 && s->nargs == 4)
        return tsr_slice(t, a[0], a[1], a[2], a[3], out);
    if (strcmp(s->name, "expand") == 0)
        return tsr_expand(t, s->nargs, a, out);
    if (strcmp(s->name, "unsqueeze") == 0 && s->nargs == 1)
        return tsr_unsqueeze(t, a[0], out);
    if (strcmp(s->name, "diagonal") == 0 && s->nargs == 3)
        return tsr_diagonal(t, a[0], a[1], a[2], out);
    return STEP_UNKNOWN;
}

conf_view_status conf_view_apply(const tsr_tensor *base, char *const *steps, int nsteps,
                                 tsr_tensor **out, int *status, char *message, size_t capacity)
{
    tsr_tensor *current = (tsr_tensor *)base;
    tsr_tensor_retain(base);
    for (int i = 0; i < nsteps; i++) {
        view_step step;
        tsr_tensor *next = NULL;
        int st = parse_step(steps[i], &step) ? apply_step(current, &step, &next) : STEP_UNKNOWN;
        if (st == STEP_UNKNOWN) {
            snprintf(message, capacity, "malformed view step '%s'", steps[i]);
            tsr_tensor_release(current);
            return CONF_VIEW_BAD_STEP;
        }
        if (st != TSR_OK) {
            snprintf(message, capacity, "view step '%s' failed: %s: %s", steps[i],
                     tsr_status_name(st), tsr_last_error());
            *status = st;
            tsr_tensor_release(current);
            return CONF_VIEW_FAILED;
        }
        tsr_tensor_release(current);
        current = next;
    }
    *out = current;
    return CONF_VIEW_OK;
}
