/* Differential draws for joining and splitting: cat ... vstack, split, chunk, unbind. */
#include "differential/draw_helpers.h"

#include <string.h>

static bool draw_cat_stack(conf_draft *d)
{
    const char *op = d->c->op;
    bool stack = strcmp(op, "stack") == 0, hstack = strcmp(op, "hstack") == 0;
    bool vstack = strcmp(op, "vstack") == 0;
    int n = conf_draft_rank(d, stack ? 0 : 1, 3), count = (int)range(d, 1, 3);
    int64_t s[TSR_MAX_DIMS], shapes[3][TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    int64_t dim = stack ? range(d, -n - 1, n) : conf_draft_dim(d, n);
    int64_t join = hstack ? (n == 1 ? 0 : 1) : vstack ? 0 : wrap_dim(dim, n);
    for (int i = 0; i < count; i++) {
        memcpy(shapes[i], s, sizeof s);
        if (!stack && !(vstack && n == 1))
            shapes[i][join] = range(d, 0, 3);
    }
    conf_draft_list(d, "tensors", count, d->dtype, n, (const int64_t(*)[TSR_MAX_DIMS])shapes,
                    general());
    if (!hstack && !vstack)
        conf_draft_arg_int(d, "dim", dim);
    return true;
}

static bool draw_split(conf_draft *d)
{
    const char *op = d->c->op;
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, strcmp(op, "split") == 0 ? "tensor" : "input", 1, 3, true, general(), &n, s);
    int64_t dim = conf_draft_dim(d, n), size = s[wrap_dim(dim, n)];
    if (strcmp(op, "split") == 0) {
        if (pick(d, 0.5)) {
            conf_draft_arg_int(d, "split_size_or_sections", range(d, 1, 3));
        } else {
            int64_t sections[3] = {0};
            sections[0] = range(d, 0, size);
            sections[1] = size - sections[0];
            conf_draft_arg_int_list(d, "split_size_or_sections", 2, sections);
        }
    } else if (strcmp(op, "chunk") == 0) {
        conf_draft_arg_int(d, "chunks", range(d, 1, 4));
    }
    conf_draft_arg_int(d, "dim", dim);
    return true;
}

const conf_diff_op conf_diff_draws_join[] = {
    {"cat", draw_cat_stack, EXACT},    {"stack", draw_cat_stack, EXACT},
    {"hstack", draw_cat_stack, EXACT}, {"vstack", draw_cat_stack, EXACT},
    {"split", draw_split, EXACT},      {"chunk", draw_split, EXACT},
    {"unbind", draw_split, EXACT},
};
const size_t conf_diff_draws_join_count =
    sizeof conf_diff_draws_join / sizeof conf_diff_draws_join[0];
