/* Collected results and the op × dtype × backend matrix, written as HTML,
 * Markdown or JSON (chosen by the report file's extension). */
#ifndef CONF_REPORT_H
#define CONF_REPORT_H

#include "golden/manifest.h"
#include "golden/run_info.h"
#include "golden/runner.h"

#include <stdio.h>

typedef struct conf_record {
    char *op;
    char *name;
    char *backend;
    char dtype[16];
    conf_outcome outcome; /* of forward and gradients together */
    conf_grad_check grad; /* of the gradients alone (CONF_GRAD_NONE: not checked) */
    char *message;
} conf_record;

typedef struct conf_report {
    const char *cases_dir; /* shown in the report's heading (borrowed) */
    const char *source;    /* "golden", or "differential against BACKEND" (borrowed) */
    const conf_run_info *run; /* versions, devices, date, command (borrowed; may be NULL) */
    conf_record *records;
    size_t count;
    size_t capacity;
} conf_report;

/* One cell of the matrix: the counts of each outcome. */
typedef struct conf_cell {
    size_t counts[CONF_OUTCOME_COUNT];
} conf_cell;

typedef struct conf_column {
    const char *backend;
    const char *dtype;
} conf_column;

/* Rows are ops (sorted), columns are (backend, dtype) pairs: backends in the
 * order they ran, dtypes in tessera's dtype order, "-" last. */
typedef struct conf_matrix {
    const char **ops;
    size_t nops;
    conf_column *columns;
    size_t ncolumns;
    conf_cell *cells; /* nops * ncolumns, row-major */
} conf_matrix;

bool conf_report_add(conf_report *report, const char *backend, const conf_case *c,
                     const conf_result *result);
void conf_report_counts(const conf_report *report, size_t counts[CONF_OUTCOME_COUNT]);
/* The counts of one backend's records. */
void conf_report_backend_counts(const conf_report *report, const char *backend,
                                size_t counts[CONF_OUTCOME_COUNT]);
/* The first failing or erring record of `op` on `backend`, or NULL. */
const conf_record *conf_report_first_failure(const conf_report *report, const char *op,
                                             const char *backend);
/* The gradient checks alone: the records whose gradients were checked,
 * counted by how the check went. Returns how many were checked. */
size_t conf_report_grad_counts(const conf_report *report, size_t counts[CONF_OUTCOME_COUNT]);
/* The outcome a gradient check counts as (CONF_OUTCOME_COUNT for NONE). */
conf_outcome conf_grad_outcome(conf_grad_check grad);
void conf_report_free(conf_report *report);

/* The matrix of `report` (borrowing its strings); free with conf_matrix_free.
 * With `gradients`, only the records whose gradients were checked, counted
 * by the gradient check's outcome. */
bool conf_matrix_build(const conf_report *report, bool gradients, conf_matrix *out);
void conf_matrix_free(conf_matrix *m);
conf_cell *conf_matrix_cell(const conf_matrix *m, size_t row, size_t column);
/* The end of the run of columns of column `start`'s backend. */
size_t conf_matrix_backend_end(const conf_matrix *m, size_t start);
/* The columns of `backend`: [*start, *end), empty when it has none. */
void conf_matrix_backend_columns(const conf_matrix *m, const char *backend, size_t *start,
                                 size_t *end);
/* Row `row` summed over columns [start, end): one backend, all dtypes. */
conf_cell conf_matrix_sum(const conf_matrix *m, size_t row, size_t start, size_t end);

/* Writes the report to `path`: .html/.htm, .md/.markdown or .json. Returns
 * false with a message for another extension or a write error. */
bool conf_report_write(const conf_report *report, const char *path, char *message, size_t capacity);
/* Whether `path` has an extension conf_report_write understands. */
bool conf_report_path_supported(const char *path);

/* Writes the short Markdown summary (at most CONF_SUMMARY_LIMIT bytes) to
 * `path`; false with a message on a write error. */
#define CONF_SUMMARY_LIMIT 65536
bool conf_report_write_summary(const conf_report *report, const char *path, char *message,
                               size_t capacity);

/* Shared by the formats (report_formats.c). */
/* "10 pass, 2 skip"; "" for an empty cell. */
void conf_cell_text(const conf_cell *cell, char *out, size_t capacity);
/* good: all passed; bad: a fail or error; mixed: passes and skips; skip:
 * only skips; none: no case. */
const char *conf_cell_class(const conf_cell *cell);
/* "N passed, N failed (N of them errors), N skipped[; gradients: ...]" */
void conf_report_summary_line(const conf_report *report, char *out, size_t capacity);
/* "1.0" */
void conf_plugin_abi_text(uint32_t abi, char *out, size_t capacity);
/* "11 cases", "11 cases, 3 of them selected", "random cases: 500 drawn"
 * (needs report->run). */
void conf_case_set_text(const conf_report *report, char *out, size_t capacity);
/* Writes `s` as a Markdown table cell's text: '|' escaped, line breaks as
 * spaces, cut after `max` bytes with "…". */
void conf_markdown_cell(FILE *f, const char *s, size_t max);
/* The run's tables (versions, case set, date, command; the backends with
 * their totals) in Markdown; nothing when report->run is NULL. */
void conf_markdown_run(const conf_report *report, FILE *f);

/* The three formats (report_html.c, report_formats.c): `m` is the matrix of
 * every case, `grads` that of the gradient checks. */
void conf_report_write_html(const conf_report *report, const conf_matrix *m,
                            const conf_matrix *grads, FILE *f);
void conf_report_write_markdown(const conf_report *report, const conf_matrix *m,
                                const conf_matrix *grads, FILE *f);
bool conf_report_write_json(const conf_report *report, const conf_matrix *m,
                            const conf_matrix *grads, FILE *f);

#endif
