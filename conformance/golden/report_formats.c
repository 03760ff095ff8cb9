/* The report's Markdown and JSON forms, and what all three formats share. */
#include "golden/report.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

void conf_cell_text(const conf_cell *cell, char *out, size_t capacity)
{
    size_t n = 0;
    out[0] = '\0';
    for (int o = 0; o < CONF_OUTCOME_COUNT && n < capacity; o++) {
        if (cell->counts[o])
            n += (size_t)snprintf(out + n, capacity - n, "%s%zu %s", n ? ", " : "", cell->counts[o],
                                  conf_outcome_name((conf_outcome)o));
    }
}

const char *conf_cell_class(const conf_cell *cell)
{
    const size_t *c = cell->counts;
    if (c[CONF_FAIL] + c[CONF_ERROR])
        return "bad";
    if (c[CONF_PASS] && c[CONF_SKIP])
        return "mixed";
    if (c[CONF_PASS])
        return "good";
    return c[CONF_SKIP] ? "skip" : "none";
}

void conf_report_summary_line(const conf_report *report, char *out, size_t capacity)
{
    size_t counts[CONF_OUTCOME_COUNT], grads[CONF_OUTCOME_COUNT];
    conf_report_counts(report, counts);
    int n = snprintf(out, capacity, "%zu passed, %zu failed (%zu of them errors), %zu skipped",
                     counts[CONF_PASS], counts[CONF_FAIL] + counts[CONF_ERROR], counts[CONF_ERROR],
                     counts[CONF_SKIP]);
    if (conf_report_grad_counts(report, grads) > 0 && n > 0 && (size_t)n < capacity)
        snprintf(out + n, capacity - (size_t)n, "; gradients: %zu passed, %zu failed, %zu skipped",
                 grads[CONF_PASS], grads[CONF_FAIL] + grads[CONF_ERROR], grads[CONF_SKIP]);
}

void conf_plugin_abi_text(uint32_t abi, char *out, size_t capacity)
{
    snprintf(out, capacity, "%u.%u", (unsigned)(abi >> 16), (unsigned)(abi & 0xffffu));
}

void conf_case_set_text(const conf_report *report, char *out, size_t capacity)
{
    const conf_run_info *run = report->run;
    if (!run->cases_dir)
        snprintf(out, capacity, "random cases: %zu drawn", run->cases_total);
    else if (run->cases_selected == run->cases_total)
        snprintf(out, capacity, "%zu cases", run->cases_total);
    else
        snprintf(out, capacity, "%zu cases, %zu of them selected", run->cases_total,
                 run->cases_selected);
}

/* ------------------------------------------------------------------------ */
/* Markdown                                                                  */
/* ------------------------------------------------------------------------ */

void conf_markdown_cell(FILE *f, const char *s, size_t max)
{
    size_t n = 0;
    for (; *s; s++, n++) {
        /* cut before a UTF-8 lead byte, never inside a character */
        if (n >= max && ((unsigned char)*s & 0xc0) != 0x80) {
            fputs("…", f);
            return;
        }
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void markdown_backend_row(const conf_report *report, const conf_backend_info *b, FILE *f)
{
    fputs("| ", f);
    conf_markdown_cell(f, b->name, 200);
    if (b->role[0])
        fprintf(f, " (%s)", b->role);
    fputs(" | ", f);
    conf_markdown_cell(f, b->version[0] ? b->version : "unknown", 200);
    fputs(" | ", f);
    conf_markdown_cell(f, b->device[0] ? b->device : "-", 400);
    if (strcmp(b->role, "reference") == 0) {
        fputs(" | - | - | - | - |\n", f);
        return;
    }
    size_t c[CONF_OUTCOME_COUNT];
    conf_report_backend_counts(report, b->name, c);
    fprintf(f, " | %zu | %zu | %zu | %zu |\n", c[CONF_PASS], c[CONF_FAIL], c[CONF_ERROR],
            c[CONF_SKIP]);
}

void conf_markdown_run(const conf_report *report, FILE *f)
{
    const conf_run_info *run = report->run;
    if (!run)
        return;
    char abi[32], cases[128];
    conf_plugin_abi_text(run->plugin_abi, abi, sizeof abi);
    conf_case_set_text(report, cases, sizeof cases);
    fprintf(f, "| run | |\n|---|---|\n| tessera | %s (plugin ABI %s) |\n| case set | ",
            run->tessera_version, abi);
    if (run->cases_dir) {
        fputs("`` ", f);
        conf_markdown_cell(f, run->cases_dir, 400);
        fputs(" ``: ", f);
    }
    fprintf(f, "%s |\n| expected results | ", cases);
    conf_markdown_cell(f, report->source ? report->source : "golden", 200);
    fprintf(f, " |\n| date (UTC) | %s |\n| command | `` ", run->date);
    conf_markdown_cell(f, run->command, 4000);
    fputs(" `` |\n\n| backend | plugin version | device | passed | failed | errors | skipped |\n"
          "|---|---|---|---|---|---|---|\n",
          f);
    for (size_t i = 0; i < run->nbackends; i++)
        markdown_backend_row(report, &run->backends[i], f);
    fputc('\n', f);
}

static const char *cell_mark(const conf_cell *cell)
{
    const char *cls = conf_cell_class(cell);
    return strcmp(cls, "good") == 0    ? "✅ "
           : strcmp(cls, "bad") == 0   ? "❌ "
           : strcmp(cls, "mixed") == 0 ? "🟡 "
           : strcmp(cls, "skip") == 0  ? "⚪ "
                                       : "";
}

static bool cell_empty(const conf_cell *cell)
{
    size_t total = 0;
    for (int o = 0; o < CONF_OUTCOME_COUNT; o++)
        total += cell->counts[o];
    return total == 0;
}

static void markdown_cell(const conf_cell *cell, FILE *f)
{
    char text[128];
    conf_cell_text(cell, text, sizeof text);
    fprintf(f, " %s%s |", cell_mark(cell), text);
}

/* Ops × backends, each cell summed over the backend's dtypes. */
static void markdown_overview(const conf_matrix *m, FILE *f)
{
    fputs("| op |", f);
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c))
        fprintf(f, " %s |", m->columns[c].backend);
    fputs("\n|---|", f);
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c))
        fputs("---|", f);
    fputc('\n', f);
    for (size_t r = 0; r < m->nops; r++) {
        fprintf(f, "| %s |", m->ops[r]);
        for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c)) {
            conf_cell sum = conf_matrix_sum(m, r, c, conf_matrix_backend_end(m, c));
            markdown_cell(&sum, f);
        }
        fputc('\n', f);
    }
}

/* Ops × dtypes of the backend whose columns are [start, end). */
static void markdown_matrix(const conf_matrix *m, size_t start, size_t end, FILE *f)
{
    fputs("| op |", f);
    for (size_t c = start; c < end; c++)
        fprintf(f, " %s |", m->columns[c].dtype);
    fputs("\n|---|", f);
    for (size_t c = start; c < end; c++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t r = 0; r < m->nops; r++) {
        conf_cell sum = conf_matrix_sum(m, r, start, end);
        if (cell_empty(&sum))
            continue;
        fprintf(f, "| %s |", m->ops[r]);
        for (size_t c = start; c < end; c++)
            markdown_cell(conf_matrix_cell(m, r, c), f);
        fputc('\n', f);
    }
}

static void markdown_cases(const conf_report *report, const char *backend, conf_outcome a,
                           conf_outcome b, FILE *f)
{
    size_t n = 0;
    for (size_t i = 0; i < report->count; i++) {
        const conf_record *r = &report->records[i];
        if ((r->outcome == a || r->outcome == b) && strcmp(r->backend, backend) == 0 && ++n)
            fprintf(f, "- **%s** `%s/%s` (%s, %s): %s\n", conf_outcome_name(r->outcome), r->op,
                    r->name, r->dtype, r->backend, r->message);
    }
    if (n == 0)
        fputs("None.\n", f);
}

static void markdown_backend(const conf_report *report, const conf_matrix *m,
                             const conf_matrix *grads, size_t start, FILE *f)
{
    const char *backend = m->columns[start].backend;
    fprintf(f, "\n## Backend %s\n\n### Cases by dtype\n\n", backend);
    markdown_matrix(m, start, conf_matrix_backend_end(m, start), f);
    size_t g0, g1;
    conf_matrix_backend_columns(grads, backend, &g0, &g1);
    if (g1 > g0) {
        fputs("\n### Gradients\n\nThe cases with a `grad` entry whose forward passed, by how "
              "their gradients compared (a case passes above only when both do).\n\n",
              f);
        markdown_matrix(grads, g0, g1, f);
    }
    fputs("\n### Failures and errors\n\n", f);
    markdown_cases(report, backend, CONF_FAIL, CONF_ERROR, f);
    fputs("\n<details><summary>Skipped cases</summary>\n\n", f);
    markdown_cases(report, backend, CONF_SKIP, CONF_SKIP, f);
    fputs("\n</details>\n", f);
}

void conf_report_write_markdown(const conf_report *report, const conf_matrix *m,
                                const conf_matrix *grads, FILE *f)
{
    char summary[256];
    conf_report_summary_line(report, summary, sizeof summary);
    fputs("# tessera conformance\n\n", f);
    conf_markdown_run(report, f);
    if (!report->run)
        fprintf(f, "Cases: `%s` (expected results: %s).\n\n",
                report->cases_dir ? report->cases_dir : "",
                report->source ? report->source : "golden");
    fprintf(f, "**Totals:** %s.\n\n## Overview\n\n", summary);
    fputs("One row per op, one column per backend; a cell counts that backend's cases of the op "
          "over every dtype (✅ all passed, 🟡 passes and skips, ⚪ only skips, ❌ a failure or "
          "error). Each backend's cases by dtype follow.\n\n",
          f);
    markdown_overview(m, f);
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c))
        markdown_backend(report, m, grads, c, f);
}

/* ------------------------------------------------------------------------ */
/* JSON                                                                      */
/* ------------------------------------------------------------------------ */

static void json_counts(cJSON *obj, const size_t *counts)
{
    for (int o = 0; o < CONF_OUTCOME_COUNT; o++)
        cJSON_AddNumberToObject(obj, conf_outcome_name((conf_outcome)o), (double)counts[o]);
}

static cJSON *json_matrix(const conf_matrix *m)
{
    cJSON *cells = cJSON_CreateArray();
    for (size_t r = 0; r < m->nops; r++) {
        for (size_t c = 0; c < m->ncolumns; c++) {
            const conf_cell *cell = conf_matrix_cell(m, r, c);
            size_t total = 0;
            for (int o = 0; o < CONF_OUTCOME_COUNT; o++)
                total += cell->counts[o];
            if (total == 0)
                continue;
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "op", m->ops[r]);
            cJSON_AddStringToObject(e, "backend", m->columns[c].backend);
            cJSON_AddStringToObject(e, "dtype", m->columns[c].dtype);
            json_counts(e, cell->counts);
            cJSON_AddItemToArray(cells, e);
        }
    }
    return cells;
}

static cJSON *json_results(const conf_report *report)
{
    cJSON *results = cJSON_CreateArray();
    for (size_t i = 0; i < report->count; i++) {
        const conf_record *r = &report->records[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "op", r->op);
        cJSON_AddStringToObject(e, "case", r->name);
        cJSON_AddStringToObject(e, "backend", r->backend);
        cJSON_AddStringToObject(e, "dtype", r->dtype);
        cJSON_AddStringToObject(e, "result", conf_outcome_name(r->outcome));
        conf_outcome grad = conf_grad_outcome(r->grad);
        if (grad < CONF_OUTCOME_COUNT)
            cJSON_AddStringToObject(e, "grad", conf_outcome_name(grad));
        else
            cJSON_AddNullToObject(e, "grad");
        cJSON_AddStringToObject(e, "message", r->message);
        cJSON_AddItemToArray(results, e);
    }
    return results;
}

/* The run's identity: versions, case set, date, command, backends. */
static void json_run(const conf_report *report, cJSON *root)
{
    const conf_run_info *run = report->run;
    if (!run)
        return;
    char abi[32];
    conf_plugin_abi_text(run->plugin_abi, abi, sizeof abi);
    cJSON *tessera = cJSON_AddObjectToObject(root, "tessera");
    cJSON_AddStringToObject(tessera, "version", run->tessera_version);
    cJSON_AddStringToObject(tessera, "plugin_abi", abi);
    cJSON *set = cJSON_AddObjectToObject(root, "case_set");
    if (run->cases_dir)
        cJSON_AddStringToObject(set, "dir", run->cases_dir);
    else
        cJSON_AddNullToObject(set, "dir");
    cJSON_AddNumberToObject(set, "cases", (double)run->cases_total);
    cJSON_AddNumberToObject(set, "selected", (double)run->cases_selected);
    cJSON_AddStringToObject(root, "date", run->date);
    cJSON_AddStringToObject(root, "command", run->command);
    cJSON *backends = cJSON_AddArrayToObject(root, "backends");
    for (size_t i = 0; i < run->nbackends; i++) {
        const conf_backend_info *b = &run->backends[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", b->name);
        cJSON_AddStringToObject(e, "role", b->role[0] ? b->role : "tested");
        cJSON_AddStringToObject(e, "version", b->version);
        cJSON_AddStringToObject(e, "device", b->device);
        cJSON_AddStringToObject(e, "path", b->path);
        size_t counts[CONF_OUTCOME_COUNT];
        conf_report_backend_counts(report, b->name, counts);
        json_counts(cJSON_AddObjectToObject(e, "summary"), counts);
        cJSON_AddItemToArray(backends, e);
    }
}

bool conf_report_write_json(const conf_report *report, const conf_matrix *m,
                            const conf_matrix *grads, FILE *f)
{
    size_t counts[CONF_OUTCOME_COUNT], grad_counts[CONF_OUTCOME_COUNT];
    conf_report_counts(report, counts);
    conf_report_grad_counts(report, grad_counts);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "cases", report->cases_dir ? report->cases_dir : "");
    cJSON_AddStringToObject(root, "source", report->source ? report->source : "golden");
    json_run(report, root);
    cJSON *summary = cJSON_AddObjectToObject(root, "summary");
    json_counts(summary, counts);
    json_counts(cJSON_AddObjectToObject(summary, "grad"), grad_counts);
    cJSON_AddItemToObject(root, "matrix", json_matrix(m));
    cJSON_AddItemToObject(root, "grad_matrix", json_matrix(grads));
    cJSON_AddItemToObject(root, "results", json_results(report));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return false;
    fputs(text, f);
    fputc('\n', f);
    cJSON_free(text);
    return true;
}
