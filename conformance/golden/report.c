/* Result records and the matrix built from them. */
#define _POSIX_C_SOURCE 200809L

#include "golden/report.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool conf_report_add(conf_report *report, const char *backend, const conf_case *c,
                     const conf_result *result)
{
    if (report->count == report->capacity) {
        size_t cap = report->capacity ? report->capacity * 2 : 1024;
        conf_record *grown = realloc(report->records, cap * sizeof *grown);
        if (!grown)
            return false;
        report->records = grown;
        report->capacity = cap;
    }
    conf_record *r = &report->records[report->count++];
    memset(r, 0, sizeof *r);
    r->op = strdup(c->op);
    r->name = strdup(c->name);
    r->backend = strdup(backend);
    r->message = strdup(result->message);
    r->outcome = result->outcome;
    r->grad = result->grad;
    memcpy(r->dtype, result->dtype, sizeof r->dtype);
    return r->op && r->name && r->backend && r->message;
}

void conf_report_counts(const conf_report *report, size_t counts[CONF_OUTCOME_COUNT])
{
    memset(counts, 0, sizeof(size_t) * CONF_OUTCOME_COUNT);
    for (size_t i = 0; i < report->count; i++)
        counts[report->records[i].outcome]++;
}

void conf_report_backend_counts(const conf_report *report, const char *backend,
                                size_t counts[CONF_OUTCOME_COUNT])
{
    memset(counts, 0, sizeof(size_t) * CONF_OUTCOME_COUNT);
    for (size_t i = 0; i < report->count; i++) {
        if (strcmp(report->records[i].backend, backend) == 0)
            counts[report->records[i].outcome]++;
    }
}

const conf_record *conf_report_first_failure(const conf_report *report, const char *op,
                                             const char *backend)
{
    for (size_t i = 0; i < report->count; i++) {
        const conf_record *r = &report->records[i];
        if ((r->outcome == CONF_FAIL || r->outcome == CONF_ERROR) && strcmp(r->op, op) == 0 &&
            strcmp(r->backend, backend) == 0)
            return r;
    }
    return NULL;
}

conf_outcome conf_grad_outcome(conf_grad_check grad)
{
    switch (grad) {
    case CONF_GRAD_PASS:
        return CONF_PASS;
    case CONF_GRAD_FAIL:
        return CONF_FAIL;
    case CONF_GRAD_SKIP:
        return CONF_SKIP;
    case CONF_GRAD_ERROR:
        return CONF_ERROR;
    default:
        return CONF_OUTCOME_COUNT;
    }
}

size_t conf_report_grad_counts(const conf_report *report, size_t counts[CONF_OUTCOME_COUNT])
{
    memset(counts, 0, sizeof(size_t) * CONF_OUTCOME_COUNT);
    size_t checked = 0;
    for (size_t i = 0; i < report->count; i++) {
        conf_outcome o = conf_grad_outcome(report->records[i].grad);
        if (o < CONF_OUTCOME_COUNT) {
            counts[o]++;
            checked++;
        }
    }
    return checked;
}

void conf_report_free(conf_report *report)
{
    for (size_t i = 0; i < report->count; i++) {
        free(report->records[i].op);
        free(report->records[i].name);
        free(report->records[i].backend);
        free(report->records[i].message);
    }
    free(report->records);
    report->records = NULL;
    report->count = report->capacity = 0;
}

/* ------------------------------------------------------------------------ */
/* Matrix                                                                    */
/* ------------------------------------------------------------------------ */

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Position of a dtype name in tessera's order; "-" and unknown names last. */
static int dtype_rank(const char *name)
{
    for (int d = 0; d < TSR_DTYPE_COUNT; d++) {
        const char *n = tsr_dtype_name((tsr_dtype)d);
        if (n && strcmp(n, name) == 0)
            return d;
    }
    return TSR_DTYPE_COUNT;
}

static size_t index_of(const char **list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(list[i], s) == 0)
            return i;
    }
    return n;
}

typedef const char *(*record_field)(const conf_record *r);

static const char *field_op(const conf_record *r)
{
    return r->op;
}
static const char *field_backend(const conf_record *r)
{
    return r->backend;
}
static const char *field_dtype(const conf_record *r)
{
    return r->dtype;
}

/* What a record counts as in the matrix; CONF_OUTCOME_COUNT: not in it. */
static conf_outcome counted(const conf_record *r, bool gradients)
{
    return gradients ? conf_grad_outcome(r->grad) : r->outcome;
}

/* Distinct values of one record field over the counted records, in
 * first-seen order. */
static const char **distinct(const conf_report *report, bool gradients, record_field field,
                             size_t *count)
{
    const char **list = calloc(report->count + 1, sizeof *list);
    *count = 0;
    for (size_t i = 0; list && i < report->count; i++) {
        if (counted(&report->records[i], gradients) >= CONF_OUTCOME_COUNT)
            continue;
        const char *s = field(&report->records[i]);
        if (index_of(list, *count, s) == *count)
            list[(*count)++] = s;
    }
    return list;
}

static void sort_dtypes(const char **dtypes, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        for (size_t j = i; j > 0 && dtype_rank(dtypes[j]) < dtype_rank(dtypes[j - 1]); j--) {
            const char *t = dtypes[j];
            dtypes[j] = dtypes[j - 1];
            dtypes[j - 1] = t;
        }
    }
}

bool conf_matrix_build(const conf_report *report, bool gradients, conf_matrix *m)
{
    memset(m, 0, sizeof *m);
    size_t nbackends = 0, ndtypes = 0;
    const char **backends = distinct(report, gradients, field_backend, &nbackends);
    const char **dtypes = distinct(report, gradients, field_dtype, &ndtypes);
    m->ops = distinct(report, gradients, field_op, &m->nops);
    m->columns = calloc(nbackends * ndtypes + 1, sizeof *m->columns);
    m->cells = calloc(m->nops * nbackends * ndtypes + 1, sizeof *m->cells);
    bool ok = backends && dtypes && m->ops && m->columns && m->cells;
    if (ok) {
        qsort(m->ops, m->nops, sizeof *m->ops, compare_strings);
        sort_dtypes(dtypes, ndtypes);
        for (size_t b = 0; b < nbackends; b++) {
            for (size_t d = 0; d < ndtypes; d++)
                m->columns[m->ncolumns++] = (conf_column){backends[b], dtypes[d]};
        }
        for (size_t i = 0; i < report->count; i++) {
            const conf_record *r = &report->records[i];
            conf_outcome o = counted(r, gradients);
            if (o >= CONF_OUTCOME_COUNT)
                continue;
            size_t row = index_of(m->ops, m->nops, r->op);
            size_t col = index_of(backends, nbackends, r->backend) * ndtypes +
                         index_of(dtypes, ndtypes, r->dtype);
            conf_matrix_cell(m, row, col)->counts[o]++;
        }
    }
    free(backends);
    free(dtypes);
    if (!ok)
        conf_matrix_free(m);
    return ok;
}

void conf_matrix_free(conf_matrix *m)
{
    free(m->ops);
    free(m->columns);
    free(m->cells);
    memset(m, 0, sizeof *m);
}

conf_cell *conf_matrix_cell(const conf_matrix *m, size_t row, size_t column)
{
    return &m->cells[row * m->ncolumns + column];
}

size_t conf_matrix_backend_end(const conf_matrix *m, size_t start)
{
    size_t end = start + 1;
    while (end < m->ncolumns && strcmp(m->columns[end].backend, m->columns[start].backend) == 0)
        end++;
    return end;
}

void conf_matrix_backend_columns(const conf_matrix *m, const char *backend, size_t *start,
                                 size_t *end)
{
    *start = *end = 0;
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c)) {
        if (strcmp(m->columns[c].backend, backend) == 0) {
            *start = c;
            *end = conf_matrix_backend_end(m, c);
            return;
        }
    }
}

conf_cell conf_matrix_sum(const conf_matrix *m, size_t row, size_t start, size_t end)
{
    conf_cell sum = {{0}};
    for (size_t c = start; c < end; c++) {
        for (int o = 0; o < CONF_OUTCOME_COUNT; o++)
            sum.counts[o] += conf_matrix_cell(m, row, c)->counts[o];
    }
    return sum;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

typedef enum report_format { FORMAT_NONE, FORMAT_HTML, FORMAT_MARKDOWN, FORMAT_JSON } report_format;

static report_format format_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return FORMAT_NONE;
    if (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0)
        return FORMAT_HTML;
    if (strcasecmp(dot, ".md") == 0 || strcasecmp(dot, ".markdown") == 0)
        return FORMAT_MARKDOWN;
    if (strcasecmp(dot, ".json") == 0)
        return FORMAT_JSON;
    return FORMAT_NONE;
}

bool conf_report_path_supported(const char *path)
{
    return format_of(path) != FORMAT_NONE;
}

bool conf_report_write(const conf_report *report, const char *path, char *message, size_t capacity)
{
    report_format format = format_of(path);
    if (format == FORMAT_NONE) {
        snprintf(message, capacity, "%s: the report's extension must be .html, .md or .json", path);
        return false;
    }
    conf_matrix m, grads;
    FILE *f = NULL;
    bool built = conf_matrix_build(report, false, &m);
    built = conf_matrix_build(report, true, &grads) && built;
    if (!built || !(f = fopen(path, "w"))) {
        snprintf(message, capacity, "%s: cannot write the report", path);
        conf_matrix_free(&m);
        conf_matrix_free(&grads);
        return false;
    }
    bool ok = true;
    if (format == FORMAT_HTML)
        conf_report_write_html(report, &m, &grads, f);
    else if (format == FORMAT_MARKDOWN)
        conf_report_write_markdown(report, &m, &grads, f);
    else
        ok = conf_report_write_json(report, &m, &grads, f);
    ok = !ferror(f) && ok;
    ok = fclose(f) == 0 && ok;
    conf_matrix_free(&m);
    conf_matrix_free(&grads);
    if (!ok)
        snprintf(message, capacity, "%s: writing the report failed", path);
    return ok;
}
