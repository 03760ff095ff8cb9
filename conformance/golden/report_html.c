/* The HTML report: a header that stays in view, a table of contents, the
 * run's identity, what every column means, the ops × backends overview and,
 * below it, each backend's ops × dtypes matrices and cases. */
#include "golden/report.h"

#include <string.h>

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

/* An id attribute's value: "backend-" and the name with anything but
 * letters, digits, '-' and '_' as '_' (backend names are short words). */
static void html_backend_id(FILE *f, const char *backend, const char *suffix)
{
    fputs("backend-", f);
    for (const char *s = backend; *s; s++) {
        char c = *s;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
        fputc(keep ? c : '_', f);
    }
    fputs(suffix, f);
}

static const char html_style[] =
    "body{font-family:sans-serif;margin:0 2em 2em}table{border-collapse:collapse;font-size:90%}"
    "th,td{border:1px solid #ccc;padding:3px 6px;text-align:center}th.op{text-align:left}"
    "td.good{background:#b7e4b0}td.bad{background:#f4a6a6}td.mixed{background:#f7e39c}"
    "td.skip{background:#e0e0e0;color:#666}td.none{background:#fff}"
    "table.run th,table.run td{text-align:left}"
    "header.top{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #ccc;"
    "padding:.4em 0}header.top h1{margin:.2em 0;font-size:150%}header.top p{margin:.2em 0}"
    "section,h2,h3{scroll-margin-top:6em}dt{font-weight:bold;margin-top:.5em}"
    "li{margin:2px 0}ul.cases li{font-family:monospace}";

static void html_cell(const conf_cell *cell, FILE *f)
{
    char text[128];
    conf_cell_text(cell, text, sizeof text);
    fprintf(f, "<td class=\"%s\">%s</td>", conf_cell_class(cell), text);
}

static bool cell_empty(const conf_cell *cell)
{
    size_t total = 0;
    for (int o = 0; o < CONF_OUTCOME_COUNT; o++)
        total += cell->counts[o];
    return total == 0;
}

static void html_op_cell(const char *op, FILE *f)
{
    fputs("<tr><th class=\"op\">", f);
    html_escaped(f, op);
    fputs("</th>", f);
}

/* Ops × backends, each cell summed over the backend's dtypes. */
static void html_overview(const conf_matrix *m, FILE *f)
{
    fputs("<table class=\"overview\">\n<thead><tr><th class=\"op\">op</th>", f);
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c)) {
        fputs("<th><a href=\"#", f);
        html_backend_id(f, m->columns[c].backend, "");
        fputs("\">", f);
        html_escaped(f, m->columns[c].backend);
        fputs("</a></th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t r = 0; r < m->nops; r++) {
        html_op_cell(m->ops[r], f);
        for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c)) {
            conf_cell sum = conf_matrix_sum(m, r, c, conf_matrix_backend_end(m, c));
            html_cell(&sum, f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* Ops × dtypes of the backend whose columns are [start, end); ops without a
 * case on it are left out. */
static void html_matrix(const conf_matrix *m, size_t start, size_t end, FILE *f)
{
    fputs("<table>\n<thead><tr><th class=\"op\">op</th>", f);
    for (size_t c = start; c < end; c++) {
        fputs("<th>", f);
        html_escaped(f, m->columns[c].dtype);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t r = 0; r < m->nops; r++) {
        conf_cell sum = conf_matrix_sum(m, r, start, end);
        if (cell_empty(&sum))
            continue;
        html_op_cell(m->ops[r], f);
        for (size_t c = start; c < end; c++)
            html_cell(conf_matrix_cell(m, r, c), f);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* One backend's cases with one of two outcomes, as a list. */
static void html_cases(const conf_report *report, const char *backend, conf_outcome a,
                       conf_outcome b, FILE *f)
{
    fputs("<ul class=\"cases\">\n", f);
    size_t n = 0;
    for (size_t i = 0; i < report->count; i++) {
        const conf_record *r = &report->records[i];
        if ((r->outcome != a && r->outcome != b) || strcmp(r->backend, backend) != 0)
            continue;
        n++;
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
    fputs(n ? "</ul>\n" : "<li>None.</li></ul>\n", f);
}

static void html_toc_link(FILE *f, const char *backend, const char *suffix, const char *text)
{
    fputs("<li><a href=\"#", f);
    html_backend_id(f, backend, suffix);
    fprintf(f, "\">%s</a></li>", text);
}

static void html_contents(const conf_matrix *m, const conf_matrix *grads, FILE *f)
{
    fputs("<nav id=\"contents\"><h2>Contents</h2><ol>\n"
          "<li><a href=\"#run\">Run</a></li>\n"
          "<li><a href=\"#columns\">Reading the tables</a></li>\n"
          "<li><a href=\"#overview\">Overview: ops &times; backends</a></li>\n",
          f);
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c)) {
        const char *b = m->columns[c].backend;
        fputs("<li><a href=\"#", f);
        html_backend_id(f, b, "");
        fputs("\">Backend ", f);
        html_escaped(f, b);
        fputs("</a><ol>", f);
        html_toc_link(f, b, "-dtypes", "Cases by dtype");
        size_t g0, g1;
        conf_matrix_backend_columns(grads, b, &g0, &g1);
        if (g1 > g0)
            html_toc_link(f, b, "-gradients", "Gradients");
        html_toc_link(f, b, "-failures", "Failures and errors");
        html_toc_link(f, b, "-skipped", "Skipped cases");
        fputs("</ol></li>\n", f);
    }
    fputs("</ol></nav>\n", f);
}

static void html_run_row(FILE *f, const char *name, const char *value, bool code)
{
    fprintf(f, "<tr><th>%s</th><td>%s", name, code ? "<code>" : "");
    html_escaped(f, value);
    fprintf(f, "%s</td></tr>\n", code ? "</code>" : "");
}

static void html_backend_row(const conf_report *report, const conf_backend_info *b, FILE *f)
{
    fputs("<tr><th>", f);
    html_escaped(f, b->name);
    fprintf(f, "</th><td>%s</td><td>", b->role[0] ? b->role : "tested");
    html_escaped(f, b->version[0] ? b->version : "unknown");
    fputs("</td><td>", f);
    html_escaped(f, b->device[0] ? b->device : "-");
    fputs("</td><td><code>", f);
    html_escaped(f, b->path);
    fputs("</code></td>", f);
    if (strcmp(b->role, "reference") == 0) {
        fputs("<td>-</td><td>-</td><td>-</td><td>-</td></tr>\n", f);
        return;
    }
    size_t c[CONF_OUTCOME_COUNT];
    conf_report_backend_counts(report, b->name, c);
    fprintf(f, "<td>%zu</td><td>%zu</td><td>%zu</td><td>%zu</td></tr>\n", c[CONF_PASS],
            c[CONF_FAIL], c[CONF_ERROR], c[CONF_SKIP]);
}

static void html_run(const conf_report *report, FILE *f)
{
    fputs("<section id=\"run\"><h2>Run</h2>\n<table class=\"run\">\n", f);
    const conf_run_info *run = report->run;
    if (run) {
        char text[256], abi[32];
        conf_plugin_abi_text(run->plugin_abi, abi, sizeof abi);
        snprintf(text, sizeof text, "%s (plugin ABI %s)", run->tessera_version, abi);
        html_run_row(f, "tessera", text, false);
    }
    html_run_row(f, "case set", report->cases_dir ? report->cases_dir : "", true);
    if (run) {
        char cases[128];
        conf_case_set_text(report, cases, sizeof cases);
        html_run_row(f, "cases", cases, false);
    }
    html_run_row(f, "expected results", report->source ? report->source : "golden", false);
    if (run) {
        html_run_row(f, "date (UTC)", run->date, false);
        html_run_row(f, "command", run->command, true);
    }
    fputs("</table>\n", f);
    if (run) {
        fputs("<table class=\"run\">\n<thead><tr><th>backend</th><th>role</th>"
              "<th>plugin version</th><th>device</th><th>plugin file</th><th>passed</th>"
              "<th>failed</th><th>errors</th><th>skipped</th></tr></thead>\n<tbody>\n",
              f);
        for (size_t i = 0; i < run->nbackends; i++)
            html_backend_row(report, &run->backends[i], f);
        fputs("</tbody></table>\n", f);
    }
    fputs("</section>\n", f);
}

/* What every column of every table means, for a reader of a published
 * report who has never run the tool. */
static const char html_columns[] =
    "<section id=\"columns\"><h2>Reading the tables</h2>\n<dl>\n"
    "<dt>Run: tessera</dt><dd>the library's version (<code>tsr_version</code>) and the plugin "
    "ABI (major.minor) it loads.</dd>\n"
    "<dt>Run: case set, cases</dt><dd>the <code>--cases</code> directory and how many cases its "
    "manifest holds (and how many <code>--op</code> selected); in the differential mode, how "
    "many random cases were drawn.</dd>\n"
    "<dt>Run: expected results</dt><dd><em>golden</em>: the answers PyTorch gave, stored in the "
    "case set; in the differential mode, the reference backend's answers and the seed.</dd>\n"
    "<dt>Run: date, command</dt><dd>when the run started (UTC, ISO 8601) and the command line "
    "that produced this report, quoted for a POSIX shell.</dd>\n"
    "<dt>Backends: backend, role</dt><dd>the name given to <code>--backend</code>; "
    "<em>tested</em>, or <em>reference</em> for the backend of <code>--against</code>, which "
    "is compared with and not judged.</dd>\n"
    "<dt>Backends: plugin version, device, plugin file</dt><dd>what the loaded plugin reports "
    "about itself: its version, its description of the device it runs on, and the file it "
    "was loaded from.</dd>\n"
    "<dt>Backends: passed, failed, errors, skipped</dt><dd>that backend's cases by verdict: "
    "<em>pass</em>: outputs (and gradients) match; <em>fail</em>: an output or gradient "
    "differs; <em>error</em>: an unexpected error, a missing one, a changed input; "
    "<em>skip</em>: not run to a verdict (no adapter, no kernel for the dtype, an op the "
    "plugin does not claim).</dd>\n"
    "<dt>Overview: op</dt><dd>the PyTorch op the cases call (in-place forms end in "
    "<code>_</code>).</dd>\n"
    "<dt>Overview: one column per backend</dt><dd>that backend's cases of the op over every "
    "dtype, counted by verdict.</dd>\n"
    "<dt>Cases by dtype: one column per dtype</dt><dd>the cases filed under that dtype: the "
    "dtype of the case's first tensor input (after its view steps), else its "
    "<code>dtype</code> argument, else its first output's; in the differential mode the drawn "
    "input dtype.</dd>\n"
    "<dt>Gradients</dt><dd>the same, for the gradient checks alone: the cases with a "
    "<code>grad</code> entry whose forward passed.</dd>\n"
    "<dt>Cells</dt><dd>\"3 pass, 1 skip\": how many cases ended so. <span "
    "style=\"background:#b7e4b0\">green</span>: every case passed; <span "
    "style=\"background:#f7e39c\">yellow</span>: passes and skips, no failure; <span "
    "style=\"background:#e0e0e0\">grey</span>: only skips (not covered); <span "
    "style=\"background:#f4a6a6\">red</span>: at least one failure or error; blank: no "
    "case.</dd>\n"
    "<dt>Failures, skipped cases</dt><dd>verdict, <code>op/case</code>, (dtype, backend), and "
    "the runner's message: the first differing element, the status, or the reason for the "
    "skip.</dd>\n"
    "</dl></section>\n";

static void html_heading(FILE *f, const char *tag, const char *backend, const char *suffix,
                         const char *text)
{
    fprintf(f, "<%s id=\"", tag);
    html_backend_id(f, backend, suffix);
    fprintf(f, "\">%s</%s>\n", text, tag);
}

static void html_backend(const conf_report *report, const conf_matrix *m,
                         const conf_matrix *grads, size_t start, FILE *f)
{
    const char *backend = m->columns[start].backend;
    fputs("<section><h2 id=\"", f);
    html_backend_id(f, backend, "");
    fputs("\">Backend ", f);
    html_escaped(f, backend);
    fputs("</h2>\n", f);
    html_heading(f, "h3", backend, "-dtypes", "Cases by dtype");
    html_matrix(m, start, conf_matrix_backend_end(m, start), f);
    size_t g0, g1;
    conf_matrix_backend_columns(grads, backend, &g0, &g1);
    if (g1 > g0) {
        html_heading(f, "h3", backend, "-gradients", "Gradients");
        fputs("<p>The cases with a <code>grad</code> entry whose forward passed, by how their "
              "gradients compared (a case passes above only when both do).</p>\n",
              f);
        html_matrix(grads, g0, g1, f);
    }
    html_heading(f, "h3", backend, "-failures", "Failures and errors");
    html_cases(report, backend, CONF_FAIL, CONF_ERROR, f);
    fputs("<details id=\"", f);
    html_backend_id(f, backend, "-skipped");
    fputs("\"><summary>Skipped cases</summary>\n", f);
    html_cases(report, backend, CONF_SKIP, CONF_SKIP, f);
    fputs("</details></section>\n", f);
}

/* The header that stays in view: the title, the version, the backends and
 * the totals, so a reader deep in a matrix still sees what it is about. */
static void html_header(const conf_report *report, const conf_matrix *m, FILE *f)
{
    char summary[256];
    conf_report_summary_line(report, summary, sizeof summary);
    fputs("<header class=\"top\"><h1>tessera conformance</h1>\n<p>", f);
    if (report->run)
        fprintf(f, "tessera %s &middot; ", report->run->tessera_version);
    fputs("backends:", f);
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c)) {
        fputs(c ? ", " : " ", f);
        html_escaped(f, m->columns[c].backend);
    }
    if (report->run && report->run->date[0])
        fprintf(f, " &middot; %s", report->run->date);
    fprintf(f, "</p>\n<p>%s.</p></header>\n", summary);
}

void conf_report_write_html(const conf_report *report, const conf_matrix *m,
                            const conf_matrix *grads, FILE *f)
{
    fprintf(f,
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<title>tessera conformance</title><style>%s</style></head><body>\n",
            html_style);
    html_header(report, m, f);
    html_contents(m, grads, f);
    html_run(report, f);
    fputs(html_columns, f);
    fputs("<section id=\"overview\"><h2>Overview: ops &times; backends</h2>\n<p>One row per "
          "op, one column per backend; each backend's cases by dtype follow.</p>\n",
          f);
    html_overview(m, f);
    fputs("</section>\n", f);
    for (size_t c = 0; c < m->ncolumns; c = conf_matrix_backend_end(m, c))
        html_backend(report, m, grads, c, f);
    fputs("</body></html>\n", f);
}
