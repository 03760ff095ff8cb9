/* Collected results and the op × dtype × backend matrix, written as HTML,
 * Markdown or JSON (chosen by the report file's extension). */
#ifndef CONF_REPORT_H
#define CONF_REPORT_H

#include "manifest.h"
#include "runner.h"

#include <stdio.h>

typedef struct conf_record {
    char *op;
    char *name;
    char *backend;
    char dtype[16];
    conf_outcome outcome;
    char *message;
} conf_record;

typedef struct conf_report {
    const char *cases_dir; /* shown in the report's heading (borrowed) */
    const char *source;    /* "golden" (borrowed) */
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
void conf_report_free(conf_report *report);

/* The matrix of `report` (borrowing its strings); free with conf_matrix_free. */
bool conf_matrix_build(const conf_report *report, conf_matrix *out);
void conf_matrix_free(conf_matrix *m);
conf_cell *conf_matrix_cell(const conf_matrix *m, size_t row, size_t column);

/* Writes the report to `path`: .html/.htm, .md/.markdown or .json. Returns
 * false with a message for another extension or a write error. */
bool conf_report_write(const conf_report *report, const char *path, char *message, size_t capacity);
/* Whether `path` has an extension conf_report_write understands. */
bool conf_report_path_supported(const char *path);

/* The three formats (report_formats.c). */
void conf_report_write_html(const conf_report *report, const conf_matrix *m, FILE *f);
void conf_report_write_markdown(const conf_report *report, const conf_matrix *m, FILE *f);
bool conf_report_write_json(const conf_report *report, const conf_matrix *m, FILE *f);

#endif
