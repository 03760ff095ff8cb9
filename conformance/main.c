/* tessera-conformance: runs a golden case set against one or more backends,
 * or compares a backend with another on random cases.
 *
 *   tessera-conformance --backend NAME[,NAME...] --cases DIR [--op GLOB]
 *                       [--report FILE.html|.md|.json] [--summary FILE.md]
 *                       [--verbose] [--no-grad]
 *   tessera-conformance --backend NAME --against REF [--cases-count N] [--seed S]
 *                       [--op GLOB] [--case J] [--report FILE] [--summary FILE.md]
 *                       [--verbose]
 *   tessera-conformance --list-ops
 *
 * Prints each failing case (every case with --verbose), then one line
 * "N passed, N failed, N skipped". Exits 0 when nothing failed, 1 when a
 * case failed or errored (or none ran), 2 on a usage or set-up problem. */
#define _POSIX_C_SOURCE 200809L

#include "bindings/bind.h"
#include "differential/differential.h"
#include "golden/manifest.h"
#include "golden/report.h"
#include "golden/runner.h"
#include "golden/source.h"

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
    const char *summary; /* --summary FILE: the short Markdown summary */
    bool verbose;
    bool list_ops;
    bool no_grad;
    bool skip_unavailable;
    const char *against; /* differential mode: the reference backend */
    size_t cases_count;
    uint64_t seed;
    long long only_case; /* --case J, or -1 */
    const char *dump;    /* --dump DIR */
    bool large;          /* --large */
} options;

static void usage(FILE *f)
{
    fputs("usage: tessera-conformance --backend NAME[,NAME...] --cases DIR [--op GLOB]\n"
          "                           [--report FILE.html|.md|.json] [--summary FILE.md]\n"
          "                           [--verbose] [--no-grad]\n"
          "       tessera-conformance --backend NAME --against REF [--cases-count N]\n"
          "                           [--seed S] [--op GLOB] [--case J] [--dump DIR] [--large]\n"
          "                           [--report FILE] [--summary FILE.md] [--verbose]\n"
          "       tessera-conformance --list-ops\n"
          "  --backend NAME[,NAME...]  the backends to test, in turn; several give one report\n"
          "                   with an ops x backends matrix and each backend's details\n"
          "  --cases DIR      the golden case set (a directory with manifest.jsonl)\n"
          "  --op GLOB        run the ops matching GLOB (with a '/', match \"op/case\")\n"
          "  --report FILE    also write a full report: .html, .md or .json by extension,\n"
          "                   naming the versions, devices, case set, date and command\n"
          "  --summary FILE   also write a short Markdown summary (under 64 KB, for a\n"
          "                   pull-request comment): totals per backend, the failing ops\n"
          "  --verbose, -v    print every case, not only failures and errors\n"
          "  --no-grad        check forward outputs only, not the cases' gradients\n"
          "  --list-ops       print the op names the runner can bind, and exit\n"
          "  --help, -h       print this help, and exit\n"
          "  --skip-unavailable  exit 77 (CTest's skip) when a named backend cannot load\n"
          "  --against REF    differential mode: random cases, compared with backend REF\n"
          "  --cases-count N  differential cases in all (default 1000), dealt over the ops\n"
          "  --seed S         differential seed (default 1)\n"
          "  --case J         only differential case J of each selected op (a reproducer)\n"
          "  --large          differential cases with one dim of 2^16 - 1, 2^16 + 1 or\n"
          "                   2^24 + 3; without --op, only reductions, scans, sort, indexing,\n"
          "                   scatter, softmax and matrix products\n"
          "  --dump DIR       write failing differential cases (with --case: that case) to DIR\n"
          "                   as golden cases, the reference's outputs as expected\n"
          "  --version        print the tessera version and the plugin ABI, and exit\n",
          f);
}

static void print_version(void)
{
    uint32_t abi;
    const char *version = tsr_version(&abi);
    printf("tessera-conformance (tessera %s, plugin ABI %u.%u)\n", version, abi >> 16,
           abi & 0xffff);
}

/* Returns 0 when the options are complete, else the exit status to use. */
/* A whole non-negative decimal number. */
static bool parse_count(const char *text, unsigned long long *out)
{
    char *end = NULL;
    if (!text[0] || text[0] == '-')
        return false;
    *out = strtoull(text, &end, 10);
    return *end == '\0';
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->cases_count = 1000;
    o->seed = 1;
    o->only_case = -1;
    unsigned long long n;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0)
            o->verbose = true;
        else if (strcmp(a, "--large") == 0)
            o->large = true;
        else if (strcmp(a, "--no-grad") == 0)
            o->no_grad = true;
        else if (strcmp(a, "--skip-unavailable") == 0)
            o->skip_unavailable = true;
        else if (strcmp(a, "--list-ops") == 0)
            o->list_ops = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return usage(stdout), -1;
        else if (strcmp(a, "--version") == 0)
            return print_version(), -1;
        else if (strcmp(a, "--backend") == 0 && has_value)
            o->backends = argv[++i];
        else if (strcmp(a, "--cases") == 0 && has_value)
            o->cases = argv[++i];
        else if (strcmp(a, "--op") == 0 && has_value)
            o->op_glob = argv[++i];
        else if (strcmp(a, "--report") == 0 && has_value)
            o->report = argv[++i];
        else if (strcmp(a, "--summary") == 0 && has_value)
            o->summary = argv[++i];
        else if (strcmp(a, "--against") == 0 && has_value)
            o->against = argv[++i];
        else if (strcmp(a, "--dump") == 0 && has_value)
            o->dump = argv[++i];
        else if (strcmp(a, "--cases-count") == 0 && has_value && parse_count(argv[i + 1], &n))
            o->cases_count = (size_t)n, i++;
        else if (strcmp(a, "--seed") == 0 && has_value && parse_count(argv[i + 1], &n))
            o->seed = n, i++;
        else if (strcmp(a, "--case") == 0 && has_value && parse_count(argv[i + 1], &n))
            o->only_case = (long long)n, i++;
        else {
            fprintf(stderr, "tessera-conformance: unknown or incomplete option '%s'\n", a);
            return usage(stderr), 2;
        }
    }
    if (o->list_ops)
        return 0;
    if (o->backends && !*o->backends) {
        fputs("tessera-conformance: --backend needs a backend name\n", stderr);
        return usage(stderr), 2;
    }
    if (o->against && (!o->backends || strchr(o->backends, ',') || o->cases)) {
        fputs("tessera-conformance: --against takes one --backend and no --cases\n", stderr);
        return usage(stderr), 2;
    }
    if (!o->against && (!o->backends || !o->cases)) {
        fputs("tessera-conformance: --backend and --cases (or --against) are required\n", stderr);
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
    /* A case with no tensor operand (an op on two Python numbers) runs on
     * the default backend: the one under test. */
    tsr_set_default_backend(backend);
    conf_source source = conf_source_golden(o->cases);
    conf_runner runner = {o->cases, backend, &source, o->no_grad};
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

static bool run_differential(const options *o, conf_report *report)
{
    tsr_backend *backend = NULL, *reference = NULL;
    if (tsr_backend_get(o->backends, &backend) != TSR_OK ||
        tsr_backend_get(o->against, &reference) != TSR_OK) {
        fprintf(stderr, "tessera-conformance: %s\n", tsr_last_error());
        return false;
    }
    conf_diff_options d = {.backend = backend,
                           .reference = reference,
                           .seed = o->seed,
                           .count = o->cases_count,
                           .op_glob = o->op_glob,
                           .only_case = o->only_case,
                           .large = o->large,
                           .verbose = o->verbose,
                           .dump = o->dump,
                           .out = stdout};
    size_t nops = conf_diff_run(&d, report);
    if (nops == 0)
        fprintf(stderr, "tessera-conformance: no op %s%s%shas a draw function that '%s' claims\n",
                o->op_glob ? "matching '" : "", o->op_glob ? o->op_glob : "",
                o->op_glob ? "' " : "", o->against);
    else
        printf("differential: %s against %s, seed %llu: %zu cases over %zu ops\n", o->backends,
               o->against, (unsigned long long)o->seed, report->count, nops);
    return true;
}

/* For CTest on machines without a device: a backend that cannot load is
 * reported as a skip with its reason, never silently. */
static bool backends_available(const options *o)
{
    char names[512];
    snprintf(names, sizeof names, "%s%s%s", o->backends ? o->backends : "",
             o->against ? "," : "", o->against ? o->against : "");
    char *save = NULL;
    for (char *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
        tsr_backend *b;
        if (tsr_backend_get(n, &b) != TSR_OK) {
            printf("SKIP: needs backend '%s': %s\n", n, tsr_last_error());
            return false;
        }
    }
    return true;
}

static size_t count_selected(const options *o, const conf_manifest *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->count; i++)
        n += selected(o, &m->cases[i]);
    return n;
}

/* --report and --summary, with what the run was; false (after saying why)
 * when one cannot be written. */
static bool write_outputs(const options *o, const conf_manifest *m, conf_report *report,
                          conf_run_info *run)
{
    if (!o->report && !o->summary)
        return true;
    conf_run_info_read_plugins(run);
    run->cases_dir = o->against ? NULL : o->cases;
    run->cases_total = o->against ? report->count : m->count;
    run->cases_selected = o->against ? report->count : count_selected(o, m);
    report->run = run;
    char msg[512];
    bool ok = !o->report || conf_report_write(report, o->report, msg, sizeof msg);
    ok = ok && (!o->summary || conf_report_write_summary(report, o->summary, msg, sizeof msg));
    if (!ok)
        fprintf(stderr, "tessera-conformance: %s\n", msg);
    return ok;
}

static void list_ops(void)
{
    const conf_adapter *a;
    for (size_t i = 0; (a = conf_adapter_at(i)) != NULL; i++)
        printf("%s\n", a->op);
}

/* A backend is judged on its own kernels: with TESSERA_FALLBACK set, the ops
 * it lacks would run on another backend and pass in its name. The variable
 * is read on the library's first use, so clearing it here is enough. */
static void refuse_fallback(void)
{
    const char *fallback = getenv("TESSERA_FALLBACK");
    if (!fallback || !*fallback)
        return;
    fprintf(stderr, "tessera-conformance: ignoring TESSERA_FALLBACK=%s: a backend is tested on "
                    "its own kernels\n", fallback);
    unsetenv("TESSERA_FALLBACK");
}

int main(int argc, char **argv)
{
    refuse_fallback();
    options o;
    int st = parse_options(argc, argv, &o);
    if (st != 0)
        return st < 0 ? 0 : st;
    if (o.list_ops)
        return list_ops(), 0;
    if (o.skip_unavailable && !backends_available(&o))
        return 77;
    conf_manifest m = {0};
    char msg[512], source[160];
    if (!o.against && !conf_manifest_load(o.cases, &m, msg, sizeof msg)) {
        fprintf(stderr, "tessera-conformance: %s\n", msg);
        return 2;
    }
    snprintf(source, sizeof source, "differential against %s, seed %llu",
             o.against ? o.against : "", (unsigned long long)o.seed);
    conf_report report = {.cases_dir = o.against ? "(random cases)" : o.cases,
                          .source = o.against ? source : "golden"};
    conf_run_info run;
    if (!conf_run_info_init(&run, argc, argv, o.backends, o.against)) {
        fputs("tessera-conformance: out of memory\n", stderr);
        conf_manifest_free(&m);
        return 2;
    }
    bool ran = o.against ? run_differential(&o, &report) : run_backends(&o, &m, &report);
    ran = ran && write_outputs(&o, &m, &report, &run);
    size_t counts[CONF_OUTCOME_COUNT];
    conf_report_counts(&report, counts);
    if (counts[CONF_ERROR])
        printf("%zu of the failures are errors (an unexpected error, a missing error or a "
               "changed input)\n",
               counts[CONF_ERROR]);
    size_t grads[CONF_OUTCOME_COUNT];
    if (conf_report_grad_counts(&report, grads) > 0)
        printf("gradients (cases whose forward passed): %zu passed, %zu failed, %zu skipped\n",
               grads[CONF_PASS], grads[CONF_FAIL] + grads[CONF_ERROR], grads[CONF_SKIP]);
    if (report.count == 0 && ran)
        fprintf(stderr, "tessera-conformance: no case was selected\n");
    printf("%zu passed, %zu failed, %zu skipped\n", counts[CONF_PASS],
           counts[CONF_FAIL] + counts[CONF_ERROR], counts[CONF_SKIP]);
    bool failed = counts[CONF_FAIL] + counts[CONF_ERROR] > 0 || report.count == 0;
    conf_report_free(&report);
    conf_run_info_free(&run);
    conf_manifest_free(&m);
    return !ran ? 2 : failed ? 1 : 0;
}
