/* --summary: the Markdown summary stays under its 64 KB limit however many
 * ops fail, says how many it left out, names each failing op with its count
 * and first failing case, and escapes what would break a table. */
#define _POSIX_C_SOURCE 200809L

#include "conf_check.h"
#include "golden/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char path[512];

static void add(conf_report *report, const char *backend, const char *op, const char *name,
                conf_outcome outcome, const char *message)
{
    conf_case c = {.op = (char *)op, .name = (char *)name};
    conf_result r = {.outcome = outcome, .grad = CONF_GRAD_NONE, .dtype = "float32"};
    snprintf(r.message, sizeof r.message, "%s", message);
    if (!conf_report_add(report, backend, &c, &r))
        abort();
}

/* The summary's text, read back; NULL if it cannot be. */
static char *write_and_read(const conf_report *report, size_t *size)
{
    char msg[256];
    if (!conf_report_write_summary(report, path, msg, sizeof msg)) {
        fprintf(stderr, "%s\n", msg);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    char *text = calloc(1, 2 * CONF_SUMMARY_LIMIT + 1);
    *size = f && text ? fread(text, 1, 2 * CONF_SUMMARY_LIMIT, f) : 0;
    if (f)
        fclose(f);
    return text;
}

static void test_failing_ops_listed(void)
{
    conf_report report = {.cases_dir = "cases", .source = "golden"};
    add(&report, "a", "add", "ok", CONF_PASS, "");
    add(&report, "a", "div", "first", CONF_FAIL, "output 0: 1 of 3 | differ");
    add(&report, "a", "div", "second", CONF_ERROR, "no error");
    add(&report, "b", "div", "first", CONF_PASS, "");
    add(&report, "b", "neg", "odd", CONF_SKIP, "no kernel");
    size_t size = 0;
    char *text = write_and_read(&report, &size);
    conf_report_free(&report);
    CHECK(text && size > 0, "no summary written");
    bool listed = strstr(text, "| div | a | 2 | `div/first` (float32, fail): output 0: 1 of 3 \\| "
                               "differ |") != NULL;
    bool ok_absent = !strstr(text, "| add |") && !strstr(text, "| div | b |") &&
                     !strstr(text, "| neg |");
    bool totals = strstr(text, "2 passed, 2 failed (1 of them errors), 1 skipped") != NULL;
    free(text);
    CHECK(listed, "the failing op is not listed with its count and first case");
    CHECK(ok_absent, "an op that did not fail is listed");
    CHECK(totals, "the totals are missing");
}

static void test_cut_to_the_limit(void)
{
    conf_report report = {.cases_dir = "cases", .source = "golden"};
    char long_message[1000];
    memset(long_message, 'x', sizeof long_message - 1);
    long_message[sizeof long_message - 1] = '\0';
    const size_t nops = 2000;
    for (size_t i = 0; i < nops; i++) {
        char op[32];
        snprintf(op, sizeof op, "op%04zu", i);
        add(&report, "a", op, "bad", CONF_FAIL, long_message);
    }
    size_t size = 0;
    char *text = write_and_read(&report, &size);
    conf_report_free(&report);
    CHECK(text, "no summary written");
    size_t rows = 0;
    for (const char *s = text; (s = strstr(s, "\n| op0")) != NULL; s++)
        rows++;
    char expected[128];
    snprintf(expected, sizeof expected, "_%zu more failing ops left out", nops - rows);
    bool said = strstr(text, expected) != NULL;
    bool first = strstr(text, "| op0000 | a | 1 | `op0000/bad`") != NULL;
    free(text);
    CHECK(size <= CONF_SUMMARY_LIMIT, "the summary has %zu bytes", size);
    CHECK(rows > 50 && rows < nops, "%zu of %zu rows shown", rows, nops);
    CHECK(said, "no line says that %zu ops were left out", nops - rows);
    CHECK(first, "the first failing op is not shown");
}

int main(int argc, char **argv)
{
    snprintf(path, sizeof path, "%s/test_summary.md", argc > 1 ? argv[1] : ".");
    test_failing_ops_listed();
    test_cut_to_the_limit();
    remove(path);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    else
        printf("summary: ok\n");
    return failures ? 1 : 0;
}
