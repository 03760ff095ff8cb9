/* Differential draws for the scans: torch.cumsum ... torch.cummin. */
#include "differential/draw_helpers.h"

#include <string.h>

static bool draw_scan(conf_draft *d)
{
    bool product = strcmp(d->c->op, "cumprod") == 0;
    bool selecting = strcmp(d->c->op, "cummax") == 0 || strcmp(d->c->op, "cummin") == 0;
    conf_value_spec values = selecting ? general()
                             : product ? conf_values_of(CONF_VALUES_FINITE)
                                       : accumulating();
    return conf_diff_reduction(d, values, false, true, false);
}

const conf_diff_op conf_diff_draws_scan[] = {
    {"cumsum", draw_scan, 0},     {"cumprod", draw_scan, 0},    {"logcumsumexp", draw_scan, 0},
    {"cummax", draw_scan, EXACT}, {"cummin", draw_scan, EXACT},
};
const size_t conf_diff_draws_scan_count =
    sizeof conf_diff_draws_scan / sizeof conf_diff_draws_scan[0];
