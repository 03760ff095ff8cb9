/* libFuzzer target for the golden runner's manifest parser and view steps
 * (conformance/golden/manifest.c, view_steps.c): each line of the input is
 * parsed as a manifest line, and every tensor entry's view steps are applied
 * to a float32 [2, 3, 4] tensor on the reference backend holding 0 ... 23.
 *
 * The contract checked (abort when broken, so libFuzzer keeps the input):
 *  - a parsed case without a problem has its op, name and files, and
 *    tolerances that are numbers >= 0;
 *  - a view either succeeds, and then every element it reads is one of the
 *    base's values (a view that strays outside the storage reads other
 *    bytes: the plugin is not instrumented, so ASan alone would not see it),
 *    or fails with a message, and a library refusal carries an error status.
 * The whole core and the runner's parser are compiled into this executable
 * with the fuzzer's instrumentation; the reference plugin is found through
 * TESSERA_PLUGIN_PATH. */
#include "golden/manifest.h"
#include "golden/view_steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BASE_NUMEL = 24, MAX_LINES = 8, MAX_VIEW_NUMEL = 4096 };

static tsr_tensor *base;

static void set_up(void)
{
    float v[BASE_NUMEL];
    for (int i = 0; i < BASE_NUMEL; i++)
        v[i] = (float)i;
    const int64_t shape[3] = {2, 3, 4};
    if (tsr_from_host(v, sizeof v, 3, shape, TSR_FLOAT32, NULL, &base) != TSR_OK) {
        fprintf(stderr, "fuzz_manifest: %s\n", tsr_last_error());
        abort();
    }
}

/* Every element of a successful view is one of 0 ... 23. A view of more than
 * MAX_VIEW_NUMEL elements (a wide expand) is not read: its strides were
 * checked when smaller views of the same steps were. */
static void check_view_values(const tsr_tensor *view)
{
    int64_t n = tsr_tensor_numel(view);
    if (n < 0)
        abort();
    if (n == 0 || n > MAX_VIEW_NUMEL)
        return;
    static float values[MAX_VIEW_NUMEL];
    if (tsr_to_host(view, values, (size_t)n * sizeof values[0]) != TSR_OK) {
        fprintf(stderr, "fuzz_manifest: reading a view failed: %s\n", tsr_last_error());
        abort();
    }
    for (int64_t i = 0; i < n; i++) {
        float x = values[i];
        if (!(x >= 0 && x < BASE_NUMEL) || x != floorf(x)) {
            fprintf(stderr, "fuzz_manifest: view element %lld reads %g\n", (long long)i, x);
            abort();
        }
    }
}

static void check_views(const conf_tensor_ref *ref)
{
    if (!ref->file || ref->nview < 0 || (ref->nview > 0 && !ref->view))
        abort();
    if (ref->nview == 0)
        return;
    tsr_tensor *view = NULL;
    int status = TSR_OK;
    char message[512] = "";
    conf_view_status vs =
        conf_view_apply(base, ref->view, ref->nview, &view, &status, message, sizeof message);
    if (vs == CONF_VIEW_OK) {
        if (!view)
            abort();
        check_view_values(view);
        tsr_tensor_release(view);
        return;
    }
    if (view || message[0] == '\0' || (vs == CONF_VIEW_FAILED && status == TSR_OK))
        abort();
}

static void check_case(const conf_case *c)
{
    if (c->problem)
        return;
    if (!c->op || !c->name || c->ninputs < 0 || c->noutputs < 0)
        abort();
    if ((c->has_rtol && !(c->rtol >= 0)) || (c->has_atol && !(c->atol >= 0)))
        abort();
    for (int i = 0; i < c->ninputs; i++) {
        const conf_input *in = &c->inputs[i];
        if (!in->name)
            abort();
        if (in->kind == CONF_INPUT_TENSOR)
            check_views(&in->tensor);
        for (int k = 0; in->kind == CONF_INPUT_LIST && k < in->nlist; k++)
            check_views(&in->list[k]);
    }
    for (int i = 0; i < c->noutputs; i++)
        check_views(&c->outputs[i]);
    if (c->grad && !c->grad->problem) {
        for (int i = 0; i < c->grad->ngrad_outputs; i++)
            check_views(&c->grad->grad_outputs[i]);
        for (int i = 0; i < c->grad->nexpected; i++)
            check_views(&c->grad->expected[i]);
    }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (!base)
        set_up();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *line = text;
    for (int number = 1; line && number <= MAX_LINES; number++) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        conf_case c;
        if (conf_case_parse(line, number, &c))
            check_case(&c);
        conf_case_free(&c);
        line = next;
    }
    free(text);
    return 0;
}
