/* tessera-conformance: runs a golden case set against one or more backends.
 *
 *   tessera-conformance --backend NAME[,NAME...] --cases DIR [--op GLOB]
 *                       [--report FILE.html|.md|.json] [--verbose] [--list-ops]
 *
 * Prints each failing case (every case with --verbose), then one line
 * "N passed, N failed, N skipped". Exits 0 when nothing failed, 1 when a
 * case failed or errored (or none ran), 2 on a usage or set-up problem. */
#define _POSIX_C_SOURCE 200809L

#include "bind.h"
#include "manifest.h"
#include "report.h"
#include "runner.h"
#include "source.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct options {
    const char *backends; /* comma separated */
    const char *cases;
    const char *op_glob;
    const char *report;
    bool verbose;
    bool list_ops;
} options;

static void usage(FILE *f)
{
    fputs("usage: tessera-conformance --backend NAME[,NAME...] --cases DIR [--op GLOB]\n"
          "                           [--report FILE.html|.md|.json] [--verbose]\n"
          "       tessera-conformance --list-ops\n"
          "  --op GLOB   run the ops matching GLOB (with a '/', match \"op/case\")\n",
          f);
}

/* Returns 0 when the options are complete, else the exit status to use. */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0)
            o->verbose = true;
        else if (strcmp(a, "--list-ops") == 0)
            o->list_ops = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return usage(stdout), -1;
        else if (strcmp(a, "--backend") == 0 && has_value)
            o->backends = argv[++i];
        else if (strcmp(a, "--cases") == 0 && has_value)
            o->cases = argv[++i];
        else if (strcmp(a, "--op") == 0 && has_value)
            o->op_glob = argv[++i];
        else if (strcmp(a, "--report") == 0 && has_value)
            o->report = argv[++i];
        else {
            fprintf(stderr, "tessera-conformance: unknown or incomplete option '%s'\n", a);
            return usage(stderr), 2;
        }
    }
    if (o->list_ops)
        return 0;
    if (!o->backends || !o->cases) {
        fputs("tessera-conformance: --backend and --cases are required\n", stderr);
        return usage(stderr), 2;
    }
    if (o->report && !conf_report_path_supported(o->report)) {
        fprintf(stderr, "tessera-conformance: --report %s: use .html, .md or .json\n", o->report);
        return 2;
    }
    return 0;
}

static bool selected(const options *o, const conf_case *c)
{
    if (!o->op_glob)
        return true;
    if (!strchr(o->op_glob, '/'))
        return fnmatch(o->op_glob, c->op, 0) == 0;
    char full[512];
    snprintf(full, sizeof full, "%s/%s", c->op, c->name);
    return fnmatch(o->op_glob, full, 0) == 0;
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct progress {
    bool tty;
    size_t done, total;
} progress;

static void progress_show(progress *p, const char *backend, const conf_case *c)
{
    if (p->tty) {
        fprintf(stderr, "\r\033[K[%zu/%zu] %s %s/%s", p->done + 1, p->total, backend, c->op,
                c->name);
        fflush(stderr);
    }
}

static void progress_clear(const progress *p)
{
    if (p->tty) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

static void print_result(const options *o, const progress *p, const char *backend,
                         const conf_case *c, const conf_result *r)
{
    if (!o->verbose && (r->outcome == CONF_PASS || r->outcome == CONF_SKIP))
        return;
    static const char *const labels[CONF_OUTCOME_COUNT] = {"PASS ", "FAIL ", "SKIP ", "ERROR"};
    progress_clear(p);
    printf("%s %s/%s [%s, %s]%s%s\n", labels[r->outcome], c->op, c->name, backend, r->dtype,
           r->message[0] ? ": " : "", r->message);
    fflush(stdout);
}

/* Runs the selected cases on one backend; false if it cannot be loaded. */
static bool run_backend(const options *o, const char *name, const conf_manifest *m,
                        conf_report *report, progress *p)
{
    tsr_backend *backend = NULL;
    if (tsr_backend_get(name, &backend) != TSR_OK) {
        progress_clear(p);
        fprintf(stderr, "tessera-conformance: %s\n", tsr_last_error());
        return false;
    }
    conf_source source = conf_source_golden(o->cases);
    conf_runner runner = {o->cases, backend, &source};
    for (size_t i = 0; i < m->count; i++) {
        const conf_case *c = &m->cases[i];
        if (!selected(o, c))
            continue;
        progress_show(p, name, c);
        conf_result result;
        conf_run_case(&runner, c, &result);
        print_result(o, p, name, c, &result);
        if (!conf_report_add(report, name, c, &result)) {
            fputs("tessera-conformance: out of memory\n", stderr);
            return false;
        }
        p->done++;
    }
    progress_clear(p);
    return true;
}

static bool run_backends(const options *o, const conf_manifest *m, conf_report *report)
{
    progress p = {isatty(STDERR_FILENO) != 0, 0, 0};
    size_t nselected = 0;
    for (size_t i = 0; i < m->count; i++)
        nselected += selected(o, &m->cases[i]);
    char *names = strdup(o->backends);
    size_t nbackends = 0;
    for (const char *s = names; s; s = strchr(s + 1, ','))
        nbackends++;
    p.total = nselected * nbackends;
    bool ok = true;
    char *save = NULL;
    for (char *name = strtok_r(names, ",", &save); ok && name; name = strtok_r(NULL, ",", &save))
        ok = run_backend(o, name, m, report, &p);
    free(names);
    return ok;
}

static void list_ops(void)
{
    const conf_adapter *a;
    for (size_t i = 0; (a = conf_adapter_at(i)) != NULL; i++)
        printf("%s\n", a->op);
}

int main(int argc, char **argv)
{
    options o;
    int st = parse_options(argc, argv, &o);
    if (st != 0)
        return st < 0 ? 0 : st;
    if (o.list_ops)
        return list_ops(), 0;
    conf_manifest m;
    char msg[512];
    if (!conf_manifest_load(o.cases, &m, msg, sizeof msg)) {
        fprintf(stderr, "tessera-conformance: %s\n", msg);
        return 2;
    }
    conf_report report = {.cases_dir = o.cases, .source = "golden"};
    bool ran = run_backends(&o, &m, &report);
    if (ran && o.report && !conf_report_write(&report, o.report, msg, sizeof msg)) {
        fprintf(stderr, "tessera-conformance: %s\n", msg);
        ran = false;
    }
    size_t counts[CONF_OUTCOME_COUNT];
    conf_report_counts(&report, counts);
    if (counts[CONF_ERROR])
        printf("%zu of the failures are errors (an unexpected error, a missing error or a "
               "changed input)\n",
               counts[CONF_ERROR]);
    if (report.count == 0 && ran)
        fprintf(stderr, "tessera-conformance: no case was selected\n");
    printf("%zu passed, %zu failed, %zu skipped\n", counts[CONF_PASS],
           counts[CONF_FAIL] + counts[CONF_ERROR], counts[CONF_SKIP]);
    bool failed = counts[CONF_FAIL] + counts[CONF_ERROR] > 0 || report.count == 0;
    conf_report_free(&report);
    conf_manifest_free(&m);
    return !ran ? 2 : failed ? 1 : 0;
}
