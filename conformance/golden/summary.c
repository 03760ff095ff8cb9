/* --summary: a short Markdown summary that fits a pull-request comment:
 * the run, the totals per backend, and the failing ops with their first
 * failing case, cut to CONF_SUMMARY_LIMIT bytes. */
#define _POSIX_C_SOURCE 200809L

#include "golden/report.h"

#include <stdlib.h>
#include <string.h>

/* Room kept for the line that says how many rows were left out. */
#define SUMMARY_RESERVE 256
#define SUMMARY_MESSAGE_MAX 300

static void summary_head(const conf_report *report, FILE *f)
{
    size_t counts[CONF_OUTCOME_COUNT];
    conf_report_counts(report, counts);
    size_t bad = counts[CONF_FAIL] + counts[CONF_ERROR];
    char line[256];
    conf_report_summary_line(report, line, sizeof line);
    fprintf(f, "## tessera conformance: %s\n\n", bad             ? "❌ failures"
                                                 : report->count ? "✅ no failure"
                                                                 : "❌ no case ran");
    fprintf(f, "**Totals:** %s.\n\n", line);
    conf_markdown_run(report, f);
}

/* One failing op on one backend as a table row, into `row`; its length. */
static size_t failing_row(const conf_record *first, size_t failing, char *row, size_t capacity)
{
    FILE *f = fmemopen(row, capacity, "w");
    if (!f)
        return 0;
    fputs("| ", f);
    conf_markdown_cell(f, first->op, 100);
    fputs(" | ", f);
    conf_markdown_cell(f, first->backend, 100);
    fprintf(f, " | %zu | `", failing);
    conf_markdown_cell(f, first->op, 100);
    fputc('/', f);
    conf_markdown_cell(f, first->name, 200);
    fprintf(f, "` (%s, %s): ", first->dtype, conf_outcome_name(first->outcome));
    conf_markdown_cell(f, first->message, SUMMARY_MESSAGE_MAX);
    fputs(" |\n", f);
    long n = ftell(f);
    fclose(f);
    return n > 0 && (size_t)n < capacity ? (size_t)n : 0;
}

/* Appends the failing ops to `f` (holding `*size` bytes) while they fit;
 * returns how many were left out. */
static size_t summary_failing_ops(const conf_report *report, const conf_matrix *m, FILE *f,
                                  size_t *size)
{
    size_t shown = 0, left_out = 0;
    for (size_t r = 0; r < m->nops; r++) {
        for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c)) {
            conf_cell sum = conf_matrix_sum(m, r, c, conf_matrix_backend_end(m, c));
            size_t failing = sum.counts[CONF_FAIL] + sum.counts[CONF_ERROR];
            const conf_record *first =
                failing ? conf_report_first_failure(report, m->ops[r], m->columns[c].backend)
                        : NULL;
            if (!first)
                continue;
            if (shown == 0 && left_out == 0) {
                static const char head[] =
                    "### Failing ops\n\n| op | backend | failing cases | first failing case |\n"
                    "|---|---|---|---|\n";
                fputs(head, f);
                *size += sizeof head - 1;
            }
            char row[2048];
            size_t n = failing_row(first, failing, row, sizeof row);
            if (left_out == 0 && n > 0 && *size + n + SUMMARY_RESERVE <= CONF_SUMMARY_LIMIT) {
                fputs(row, f);
                *size += n;
                shown++;
            } else {
                left_out++;
            }
        }
    }
    if (shown == 0 && left_out == 0)
        fputs("No op failed.\n", f);
    return left_out;
}

/* Only a run of hundreds of backends has a head (each backend's row is
 * bounded) too long for the limit: keep its whole lines that fit, and say so. */
static size_t cut_head(char *text)
{
    static const char note[] = "\n_The summary was cut here to stay under 64 KB; the full "
                               "report has the rest._\n";
    size_t keep = CONF_SUMMARY_LIMIT - sizeof note;
    while (keep > 0 && text[keep - 1] != '\n')
        keep--;
    memcpy(text + keep, note, sizeof note - 1);
    return keep + sizeof note - 1;
}

bool conf_report_write_summary(const conf_report *report, const char *path, char *message,
                               size_t capacity)
{
    char *text = NULL;
    size_t size = 0;
    conf_matrix m;
    FILE *mem = open_memstream(&text, &size);
    bool ok = mem && conf_matrix_build(report, false, &m);
    size_t left_out = 0;
    if (ok) {
        summary_head(report, mem);
        fflush(mem);
        left_out = summary_failing_ops(report, &m, mem, &size);
        if (left_out)
            fprintf(mem, "\n_%zu more failing op%s left out to keep this summary under %d KB; "
                         "the full report lists them._\n",
                    left_out, left_out == 1 ? "" : "s", CONF_SUMMARY_LIMIT / 1024);
        conf_matrix_free(&m);
    }
    if (mem)
        ok = fclose(mem) == 0 && ok;
    if (ok && size > CONF_SUMMARY_LIMIT)
        size = cut_head(text);
    FILE *f = ok ? fopen(path, "w") : NULL;
    ok = f && fwrite(text, 1, size, f) == size && ok;
    if (f)
        ok = fclose(f) == 0 && ok;
    free(text);
    if (!ok)
        snprintf(message, capacity, "%s: cannot write the summary", path);
    return ok;
}
