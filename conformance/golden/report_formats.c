/* The report's three formats: HTML with coloured cells, Markdown, JSON. */
#include "golden/report.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* "10 pass, 2 skip"; "" for an empty cell. */
static void cell_text(const conf_cell *cell, char *out, size_t capacity)
{
    size_t n = 0;
    out[0] = '\0';
    for (int o = 0; o < CONF_OUTCOME_COUNT && n < capacity; o++) {
        if (cell->counts[o])
            n += (size_t)snprintf(out + n, capacity - n, "%s%zu %s", n ? ", " : "", cell->counts[o],
                                  conf_outcome_name((conf_outcome)o));
    }
}

/* good: all passed; bad: a fail or error; mixed: passes and skips; skip:
 * only skips; none: no case. */
static const char *cell_class(const conf_cell *cell)
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

static void summary_line(const conf_report *report, char *out, size_t capacity)
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

/* ------------------------------------------------------------------------ */
/* HTML                                                                      */
/* ------------------------------------------------------------------------ */

static void html_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

static const char html_style[] =
    "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;font-size:90%}"
    "th,td{border:1px solid #ccc;padding:3px 6px;text-align:center}th.op{text-align:left}"
    "td.good{background:#b7e4b0}td.bad{background:#f4a6a6}td.mixed{background:#f7e39c}"
    "td.skip{background:#e0e0e0;color:#666}td.none{background:#fff}"
    "li{font-family:monospace;margin:2px 0}";

static void html_header_rows(const conf_matrix *m, FILE *f)
{
    fputs("<thead><tr><th class=\"op\" rowspan=\"2\">op</th>", f);
    for (size_t c = 0; c < m->ncolumns;) {
        size_t span = 1;
        while (c + span < m->ncolumns &&
               strcmp(m->columns[c + span].backend, m->columns[c].backend) == 0)
            span++;
        fprintf(f, "<th colspan=\"%zu\">", span);
        html_escaped(f, m->columns[c].backend);
        fputs("</th>", f);
        c += span;
    }
    fputs("</tr>\n<tr>", f);
    for (size_t c = 0; c < m->ncolumns; c++) {
        fputs("<th>", f);
        html_escaped(f, m->columns[c].dtype);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n", f);
}

static void html_matrix(const conf_matrix *m, FILE *f)
{
    fputs("<table>\n", f);
    html_header_rows(m, f);
    fputs("<tbody>\n", f);
    for (size_t r = 0; r < m->nops; r++) {
        fputs("<tr><th class=\"op\">", f);
        html_escaped(f, m->ops[r]);
        fputs("</th>", f);
        for (size_t c = 0; c < m->ncolumns; c++) {
            const conf_cell *cell = conf_matrix_cell(m, r, c);
            char text[128];
            cell_text(cell, text, sizeof text);
            fprintf(f, "<td class=\"%s\">%s</td>", cell_class(cell), text);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* The cases with one of two outcomes, as a list. */
static void html_cases(const conf_report *report, conf_outcome a, conf_outcome b, FILE *f)
{
    fputs("<ul>\n", f);
    for (size_t i = 0; i < report->count; i++) {
        const conf_record *r = &report->records[i];
        if (r->outcome != a && r->outcome != b)
            continue;
        fprintf(f, "<li><b>%s</b> ", conf_outcome_name(r->outcome));
        html_escaped(f, r->op);
        fputc('/', f);
        html_escaped(f, r->name);
        fprintf(f, " (%s, ", r->dtype);
        html_escaped(f, r->backend);
        fputs("): ", f);
        html_escaped(f, r->message);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

void conf_report_write_html(const conf_report *report, const conf_matrix *m,
                            const conf_matrix *grads, FILE *f)
{
    char summary[256];
    summary_line(report, summary, sizeof summary);
    fprintf(f,
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<title>tessera conformance</title><style>%s</style></head><body>\n",
            html_style);
    fputs("<h1>tessera conformance</h1>\n<p>Cases: <code>", f);
    html_escaped(f, report->cases_dir ? report->cases_dir : "");
    fprintf(f, "</code> (expected results: %s). %s.</p>\n",
            report->source ? report->source : "golden", summary);
    html_matrix(m, f);
    if (grads->nops > 0) {
        fputs("<h2>Gradients</h2>\n<p>The cases with a <code>grad</code> entry whose forward "
              "passed, by how their gradients compared (a case passes above only when both "
              "do).</p>\n",
              f);
        html_matrix(grads, f);
    }
    fputs("<h2>Failures and errors</h2>\n", f);
    html_cases(report, CONF_FAIL, CONF_ERROR, f);
    fputs("<details><summary>Skipped cases</summary>\n", f);
    html_cases(report, CONF_SKIP, CONF_SKIP, f);
    fputs("</details>\n</body></html>\n", f);
}

/* ------------------------------------------------------------------------ */
/* Markdown                                                                  */
/* ------------------------------------------------------------------------ */

static const char *cell_mark(const conf_cell *cell)
{
    const char *cls = cell_class(cell);
    return strcmp(cls, "good") == 0    ? "✅ "
           : strcmp(cls, "bad") == 0   ? "❌ "
           : strcmp(cls, "mixed") == 0 ? "🟡 "
           : strcmp(cls, "skip") == 0  ? "⚪ "
                                       : "";
}

static void markdown_matrix(const conf_matrix *m, FILE *f)
{
    fputs("| op |", f);
    for (size_t c = 0; c < m->ncolumns; c++)
        fprintf(f, " %s %s |", m->columns[c].backend, m->columns[c].dtype);
    fputs("\n|---|", f);
    for (size_t c = 0; c < m->ncolumns; c++)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t r = 0; r < m->nops; r++) {
        fprintf(f, "| %s |", m->ops[r]);
        for (size_t c = 0; c < m->ncolumns; c++) {
            const conf_cell *cell = conf_matrix_cell(m, r, c);
            char text[128];
            cell_text(cell, text, sizeof text);
            fprintf(f, " %s%s |", cell_mark(cell), text);
        }
        fputc('\n', f);
    }
}

static void markdown_cases(const conf_report *report, conf_outcome a, conf_outcome b, FILE *f)
{
    for (size_t i = 0; i < report->count; i++) {
        const conf_record *r = &report->records[i];
        if (r->outcome == a || r->outcome == b)
            fprintf(f, "- **%s** `%s/%s` (%s, %s): %s\n", conf_outcome_name(r->outcome), r->op,
                    r->name, r->dtype, r->backend, r->message);
    }
}

void conf_report_write_markdown(const conf_report *report, const conf_matrix *m,
                                const conf_matrix *grads, FILE *f)
{
    char summary[256];
    summary_line(report, summary, sizeof summary);
    fprintf(f, "# tessera conformance\n\nCases: `%s` (expected results: %s). %s.\n\n",
            report->cases_dir ? report->cases_dir : "", report->source ? report->source : "golden",
            summary);
    markdown_matrix(m, f);
    if (grads->nops > 0) {
        fputs("\n## Gradients\n\nThe cases with a `grad` entry whose forward passed, by how "
              "their gradients compared (a case passes above only when both do).\n\n",
              f);
        markdown_matrix(grads, f);
    }
    fputs("\n## Failures and errors\n\n", f);
    markdown_cases(report, CONF_FAIL, CONF_ERROR, f);
    fputs("\n<details><summary>Skipped cases</summary>\n\n", f);
    markdown_cases(report, CONF_SKIP, CONF_SKIP, f);
    fputs("\n</details>\n", f);
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

bool conf_report_write_json(const conf_report *report, const conf_matrix *m,
                            const conf_matrix *grads, FILE *f)
{
    size_t counts[CONF_OUTCOME_COUNT], grad_counts[CONF_OUTCOME_COUNT];
    conf_report_counts(report, counts);
    conf_report_grad_counts(report, grad_counts);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "cases", report->cases_dir ? report->cases_dir : "");
    cJSON_AddStringToObject(root, "source", report->source ? report->source : "golden");
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
