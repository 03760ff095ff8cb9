/* tessera-bench: runs a fixed suite on one backend and, in the same run and
 * on the same thread count, the same work in PyTorch and the raw limits of
 * the machine; prints each result with its ratios, writes JSON and a PNG.
 *
 *   tessera-bench [--backend NAME] [--threads N] [--reps N] [--quick]
 *                 [--only SUBSTRING] [--json FILE] [--plot FILE] [--no-peer]
 *                 [--python PATH] [--peer-script PATH]
 *
 * Ratios: "vs torch" is PyTorch's time over tessera's (above 1: tessera is
 * faster); "vs limit" is the limit's time over tessera's for the same bytes
 * or flops (1: as fast as the hardware loop). Medians of --reps timed calls
 * after a warm-up call. --quick runs tiny sizes: a smoke test, not a
 * measurement. Exit status 0 when everything ran (targets are reported, not
 * enforced), 1 when the backend could not be used. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#ifndef TSR_BENCH_DIR
#define TSR_BENCH_DIR "bench"
#endif

enum { MAX_ENTRIES = 32 };

typedef struct options {
    bench_config config;
    const char *json;
    const char *plot;
    const char *python;
    const char *peer_script;
    const char *plot_script;
    bool peer;
    const char *load_probe; /* internal: "all", "first" or "plugin:PATH" in a child */
} options;

static void usage(FILE *f)
{
    fputs("usage: tessera-bench [--backend NAME] [--threads N] [--reps N] [--quick]\n"
          "                     [--only SUBSTRING] [--json FILE] [--plot FILE] [--no-peer]\n"
          "                     [--python PATH] [--peer-script PATH] [--version] [--help]\n"
          "  --backend NAME      the backend to measure (default: the default backend)\n"
          "  --threads N         threads for tessera and PyTorch (default TESSERA_NUM_THREADS,\n"
          "                      else every online CPU)\n"
          "  --reps N            timed calls per entry, after one warm-up call\n"
          "  --quick             tiny sizes: a smoke test, not a measurement\n"
          "  --only SUBSTRING    only the entries whose name contains SUBSTRING\n"
          "  --json FILE         write the results there (default bench-results.json)\n"
          "  --plot FILE         draw the results there (default bench-results.png)\n"
          "  --no-peer           do not run PyTorch\n"
          "  --python PATH       the Python that runs PyTorch (default /usr/bin/python3)\n"
          "  --peer-script PATH  the PyTorch side (default bench/torch_peer.py of the source)\n"
          "  --version           print the tessera version and the plugin ABI, and exit\n"
          "  --help              this text\n",
          f);
}

static void print_version(void)
{
    uint32_t abi;
    const char *version = tsr_version(&abi);
    printf("tessera-bench (tessera %s, plugin ABI %u.%u)\n", version, abi >> 16, abi & 0xffff);
}

static int default_threads(void)
{
    const char *env = getenv("TESSERA_NUM_THREADS");
    if (env != NULL && atoi(env) > 0) {
        return atoi(env);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.config = {.threads = 0, .reps = 0},
                   .json = "bench-results.json",
                   .plot = "bench-results.png",
                   .python = "/usr/bin/python3",
                   .peer_script = TSR_BENCH_DIR "/torch_peer.py",
                   .plot_script = TSR_BENCH_DIR "/plot.py",
                   .peer = true};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool value = i + 1 < argc;
        if (strcmp(a, "--quick") == 0) {
            o->config.quick = true;
        } else if (strcmp(a, "--no-peer") == 0) {
            o->peer = false;
        } else if (strcmp(a, "--backend") == 0 && value) {
            o->config.backend = argv[++i];
        } else if (strcmp(a, "--threads") == 0 && value) {
            o->config.threads = atoi(argv[++i]);
        } else if (strcmp(a, "--reps") == 0 && value) {
            o->config.reps = atoi(argv[++i]);
        } else if (strcmp(a, "--only") == 0 && value) {
            o->config.only = argv[++i];
        } else if (strcmp(a, "--json") == 0 && value) {
            o->json = argv[++i];
        } else if (strcmp(a, "--plot") == 0 && value) {
            o->plot = argv[++i];
        } else if (strcmp(a, "--python") == 0 && value) {
            o->python = argv[++i];
        } else if (strcmp(a, "--peer-script") == 0 && value) {
            o->peer_script = argv[++i];
        } else if (strcmp(a, "--load-probe") == 0 && value) {
            o->load_probe = argv[++i];
        } else if (strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            print_version();
            exit(0);
        } else {
            fprintf(stderr, "tessera-bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (o->config.threads <= 0) {
        o->config.threads = default_threads();
    }
    if (o->config.reps <= 0) {
        o->config.reps = o->config.quick ? 3 : 7;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Plugin load and init time, in fresh processes                             */
/* ------------------------------------------------------------------------ */

static void quiet_log(int level, const char *plugin, const char *fmt, ...)
{
    (void)level;
    (void)plugin;
    (void)fmt;
}

static int quiet_error(int status, const char *fmt, ...)
{
    (void)fmt;
    return status;
}

/* One plugin file on its own, as the loader takes it: dlopen, entry point,
 * probe and init (then shutdown, untimed). */
static int probe_plugin_file(const char *path)
{
    static const tsr_host_api host = {sizeof host, TSR_PLUGIN_ABI_VERSION, quiet_log, quiet_error};
    double t0 = bench_now();
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    tsr_plugin_entry_fn entry =
        library != NULL ? (tsr_plugin_entry_fn)dlsym(library, TSR_PLUGIN_ENTRY_SYMBOL) : NULL;
    const tsr_plugin *plugin = entry != NULL ? entry(&host, TSR_PLUGIN_ABI_VERSION) : NULL;
    void *backend = NULL;
    char reason[256];
    if (plugin == NULL ||
        (plugin->probe != NULL && plugin->probe(&host, reason, sizeof reason) < 0) ||
        plugin->init(&host, &backend) != TSR_OK) {
        return 1;
    }
    printf("%.9f\n", bench_now() - t0);
    plugin->shutdown(backend);
    return 0;
}

/* In the child: the time to find, load and initialise every plugin (all),
 * to get the chosen backend on first use (first), or to load and init one
 * plugin file alone (plugin:PATH). */
static int load_probe(const options *o)
{
    if (strncmp(o->load_probe, "plugin:", 7) == 0) {
        return probe_plugin_file(o->load_probe + 7);
    }
    double t0 = bench_now();
    tsr_status st;
    if (strcmp(o->load_probe, "all") == 0) {
        size_t count = 0;
        st = tsr_plugin_count(&count);
        for (size_t i = 0; i < count && st == TSR_OK; i++) {
            tsr_plugin_info info = {.struct_size = sizeof info};
            st = tsr_plugin_get_info(i, &info);
        }
    } else {
        tsr_backend *b = NULL;
        st = tsr_backend_get(o->config.backend, &b);
    }
    printf("%.9f\n", bench_now() - t0);
    return st == TSR_OK ? 0 : 1;
}

static double run_load_probe(const char *self, const options *o, const char *what)
{
    double times[16];
    int reps = o->config.reps < 16 ? o->config.reps : 16, got = 0;
    for (int r = 0; r < reps; r++) {
        char command[4096];
        snprintf(command, sizeof command, "'%s' --load-probe '%s' %s%s%s", self, what,
                 o->config.backend ? "--backend '" : "", o->config.backend ? o->config.backend : "",
                 o->config.backend ? "'" : "");
        FILE *p = popen(command, "r");
        double t = -1.0;
        if (p != NULL) {
            if (fscanf(p, "%lf", &t) != 1) {
                t = -1.0;
            }
            if (pclose(p) != 0) {
                t = -1.0;
            }
        }
        if (t >= 0) {
            times[got++] = t;
        }
    }
    return got > 0 ? bench_median(times, got) : -1.0;
}

/* ------------------------------------------------------------------------ */
/* Reporting                                                                 */
/* ------------------------------------------------------------------------ */

static double ratio(double num, double den)
{
    return num > 0 && den > 0 ? num / den : -1.0;
}

/* The entry's own figure in its unit: a rate, microseconds or milliseconds. */
static double figure(const bench_entry *e, double seconds)
{
    if (seconds <= 0) {
        return -1.0;
    }
    if (strcmp(e->unit, "us") == 0) {
        return seconds * 1e6;
    }
    if (strcmp(e->unit, "ms") == 0) {
        return seconds * 1e3;
    }
    return e->work / seconds / 1e9;
}

/* "met", "MISSED" or "" for an entry without a target or a measurement. */
static const char *verdict(const bench_entry *e)
{
    double r = -1.0;
    switch (e->target_kind) {
    case BENCH_TARGET_TORCH:
        r = ratio(e->torch, e->tessera);
        return r < 0 ? "" : r >= e->target ? "met" : "MISSED";
    case BENCH_TARGET_LIMIT:
        r = ratio(e->raw, e->tessera);
        return r < 0 ? "" : r >= e->target ? "met" : "MISSED";
    case BENCH_TARGET_MAX:
        return e->tessera < 0 ? "" : e->tessera <= e->target ? "met" : "MISSED";
    default:
        return "";
    }
}

static void target_text(const bench_entry *e, char *text, size_t size)
{
    switch (e->target_kind) {
    case BENCH_TARGET_TORCH:
        snprintf(text, size, ">= %.2gx torch", e->target);
        break;
    case BENCH_TARGET_LIMIT:
        snprintf(text, size, ">= %.2gx limit", e->target);
        break;
    case BENCH_TARGET_MAX:
        snprintf(text, size, "<= %.3g %s", figure(e, e->target), e->unit);
        break;
    default:
        snprintf(text, size, "-");
    }
}

static void print_cell(double value)
{
    if (value < 0) {
        printf(" %9s", "-");
    } else {
        printf(" %9.3g", value);
    }
}

static void print_table(const bench_entry *entries, int count)
{
    printf("\n%-26s %-9s %9s %9s %9s %8s %8s  %-14s %-16s %s\n", "entry", "unit", "tessera",
           "torch", "limit", "vs torch", "vs limit", "limit", "target", "");
    for (int i = 0; i < count; i++) {
        const bench_entry *e = &entries[i];
        char target[48];
        target_text(e, target, sizeof target);
        printf("%-26s %-9s", e->name, e->unit);
        print_cell(figure(e, e->tessera));
        print_cell(figure(e, e->torch));
        print_cell(figure(e, e->raw));
        double vt = ratio(e->torch, e->tessera), vl = ratio(e->raw, e->tessera);
        vt < 0 ? printf(" %8s", "-") : printf(" %7.2fx", vt);
        vl < 0 ? printf(" %8s", "-") : printf(" %7.2fx", vl);
        printf("  %-14s %-16s %s\n", e->limit ? bench_limit_name(e->limit) : "-", target,
               verdict(e));
        if (e->note[0]) {
            printf("    note: %s\n", e->note);
        }
    }
}

static void json_number(FILE *f, const char *key, double value, bool comma)
{
    if (value < 0) {
        fprintf(f, "\"%s\": null%s", key, comma ? ", " : "");
    } else {
        fprintf(f, "\"%s\": %.9g%s", key, value, comma ? ", " : "");
    }
}

static void json_string(FILE *f, const char *text)
{
    fputc('"', f);
    for (const char *p = text; *p; p++) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
        }
        fputc(*p >= 32 ? *p : ' ', f);
    }
    fputc('"', f);
}

static int write_json(const char *path, const options *o, const char *backend, const char *device,
                      const char *torch_version, const char *command, const bench_entry *entries,
                      int count)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return -1;
    }
    fprintf(f, "{\n  \"command\": ");
    json_string(f, command);
    fprintf(f, ",\n  \"backend\": ");
    json_string(f, backend);
    fprintf(f, ",\n  \"device\": ");
    json_string(f, device);
    fprintf(f, ",\n  \"torch\": ");
    json_string(f, torch_version);
    fprintf(f, ",\n  \"threads\": %d, \"reps\": %d, \"quick\": %s,\n  \"entries\": [\n",
            o->config.threads, o->config.reps, o->config.quick ? "true" : "false");
    for (int i = 0; i < count; i++) {
        const bench_entry *e = &entries[i];
        char target[48];
        target_text(e, target, sizeof target);
        fprintf(f, "    {\"name\": ");
        json_string(f, e->name);
        fprintf(f, ", \"shape\": ");
        json_string(f, e->shape);
        fprintf(f, ", \"unit\": ");
        json_string(f, e->unit);
        fprintf(f, ", \"limit\": ");
        json_string(f, e->limit ? bench_limit_name(e->limit) : "");
        fprintf(f, ", ");
        json_number(f, "tessera_s", e->tessera, true);
        json_number(f, "torch_s", e->torch, true);
        json_number(f, "limit_s", e->raw, true);
        json_number(f, "tessera", figure(e, e->tessera), true);
        json_number(f, "torch", figure(e, e->torch), true);
        json_number(f, "limit_figure", figure(e, e->raw), true);
        json_number(f, "vs_torch", ratio(e->torch, e->tessera), true);
        json_number(f, "vs_limit", ratio(e->raw, e->tessera), true);
        fprintf(f, "\"target\": ");
        json_string(f, target);
        fprintf(f, ", \"verdict\": ");
        json_string(f, verdict(e));
        fprintf(f, ", \"note\": ");
        json_string(f, e->note);
        fprintf(f, "}%s\n", i + 1 < count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    return fclose(f);
}

/* The plot needs matplotlib; without it the JSON still has everything. */
static void make_plot(const options *o)
{
    if (o->plot == NULL || o->plot[0] == '\0' || access(o->python, X_OK) != 0 ||
        access(o->plot_script, R_OK) != 0) {
        printf("plot: skipped (no %s or %s)\n", o->python, o->plot_script);
        return;
    }
    char command[4096];
    snprintf(command, sizeof command, "'%s' '%s' '%s' '%s'", o->python, o->plot_script, o->json,
             o->plot);
    int status = system(command);
    printf("plot: %s%s\n", status == 0 ? "" : "failed: ", o->plot);
}

/* ------------------------------------------------------------------------ */
/* Main                                                                      */
/* ------------------------------------------------------------------------ */

/* tessera and the raw limit take turns, call by call, so a noisy moment on
 * the machine hits both alike; each figure is the median of its calls. */
static void measure(const bench_config *config, tsr_backend *backend, bench_entry *e)
{
    enum { MAX_REPS = 64 };
    double tessera[MAX_REPS], limit[MAX_REPS];
    int reps = config->reps < MAX_REPS ? config->reps : MAX_REPS, good = 0;
    bench_case *c = bench_suite_prepare(backend, e);
    bench_limit_run *run = bench_limit_prepare(config, e);
    for (int r = 0; r < reps; r++) {
        if (c != NULL) {
            tessera[good] = bench_suite_once(c);
            good += tessera[good] >= 0;
        }
        if (run != NULL) {
            limit[r] = bench_limit_once(run);
        }
    }
    e->tessera = c != NULL && good == reps ? bench_median(tessera, reps) : -1.0;
    e->raw = run != NULL ? bench_median(limit, reps) : -1.0;
    bench_suite_finish(c);
    bench_limit_finish(run);
}

/* An entry measured in a child process, in milliseconds. */
static void add_time_entry(bench_entry *e, const char *name, const char *what, double seconds,
                           double target)
{
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->shape, sizeof e->shape, "%s", what);
    e->unit = "ms";
    e->tessera = seconds;
    e->torch = e->raw = -1.0;
    e->target_kind = target > 0 ? BENCH_TARGET_MAX : BENCH_TARGET_NONE;
    e->target = target;
}

/* The backend's describe() text and its plugin file (as a load probe). */
static void find_plugin(const tsr_backend *backend, char *device, size_t device_size, char *probe,
                        size_t probe_size)
{
    size_t plugins = 0;
    tsr_plugin_count(&plugins);
    for (size_t i = 0; i < plugins; i++) {
        tsr_plugin_info info = {.struct_size = sizeof info};
        if (tsr_plugin_get_info(i, &info) == TSR_OK && info.backend == backend) {
            snprintf(device, device_size, "%s", info.device);
            snprintf(probe, probe_size, "plugin:%s", info.path);
        }
    }
}

/* Runs the suite and the load probes; returns the number of entries. */
static int run_suite(const options *o, const char *self, tsr_backend *backend, bench_entry *entries)
{
    int count = bench_suite_build(&o->config, entries, MAX_ENTRIES - 3);
    double load_all = run_load_probe(self, o, "all");
    double first_use = run_load_probe(self, o, "first");
    char device[512] = "", probe[1100] = "", name[64];
    find_plugin(backend, device, sizeof device, probe, sizeof probe);
    double load_one = probe[0] ? run_load_probe(self, o, probe) : -1.0;
    printf("tessera-bench: backend %s (%s), %d threads, %d timed runs each%s\n",
           tsr_backend_name(backend), device, o->config.threads, o->config.reps,
           o->config.quick ? ", quick sizes" : "");
    bench_limits_start(o->config.threads);
    for (int i = 0; i < count; i++) {
        fprintf(stderr, "  %s ...\n", entries[i].name);
        measure(&o->config, backend, &entries[i]);
    }
    bench_limits_stop();
    add_time_entry(&entries[count++], "load_all_plugins", "find, load, init all", load_all, 0.020);
    snprintf(name, sizeof name, "load_init_%s", tsr_backend_name(backend));
    add_time_entry(&entries[count++], name, "dlopen, probe, init of its file alone", load_one, 0);
    snprintf(name, sizeof name, "first_use_%s", tsr_backend_name(backend));
    add_time_entry(&entries[count++], name, "tsr_backend_get in a fresh process", first_use, 0);
    return count;
}

int main(int argc, char **argv)
{
    options o;
    int status = parse(argc, argv, &o);
    if (status != 0) {
        return status;
    }
    /* The thread count reaches the backend through its environment. */
    char threads[16];
    snprintf(threads, sizeof threads, "%d", o.config.threads);
    setenv("TESSERA_NUM_THREADS", threads, 1);
    if (o.load_probe != NULL) {
        return load_probe(&o);
    }
    char command[1024] = "";
    for (int i = 0; i < argc; i++) {
        size_t used = strlen(command);
        snprintf(command + used, sizeof command - used, "%s%s", i ? " " : "", argv[i]);
    }
    tsr_backend *backend = NULL;
    if (tsr_backend_get(o.config.backend, &backend) != TSR_OK) {
        fprintf(stderr, "tessera-bench: %s\n", tsr_last_error());
        return 1;
    }
    bench_entry entries[MAX_ENTRIES];
    int count = run_suite(&o, argv[0], backend, entries);
    char torch_version[320] = "not run", device[512] = "", probe[1100];
    find_plugin(backend, device, sizeof device, probe, sizeof probe);
    if (o.peer) {
        char why[256];
        fprintf(stderr, "  PyTorch peer ...\n");
        if (bench_peer_run(&o.config, o.python, o.peer_script, entries, count - 3, why, sizeof why,
                           torch_version, sizeof torch_version) != 0) {
            printf("torch: %s\n", why);
            snprintf(torch_version, sizeof torch_version, "unavailable: %s", why);
        }
    }
    print_table(entries, count);
    printf("\ntorch: %s\ncommand: %s\n", torch_version, command);
    if (write_json(o.json, &o, tsr_backend_name(backend), device, torch_version, command, entries,
                   count) != 0) {
        fprintf(stderr, "tessera-bench: cannot write %s\n", o.json);
        return 1;
    }
    printf("json: %s\n", o.json);
    if (!o.config.quick) {
        make_plot(&o);
    }
    return 0;
}
