/* tessera-bench: a fixed suite run on one backend, on PyTorch and on the
 * raw limits of the machine, in one run and on one thread count, reported
 * as ratios. */
#ifndef TSR_BENCH_H
#define TSR_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include <tessera/tessera.h>

typedef struct bench_config {
    const char *backend; /* NULL: the default backend */
    int threads;
    bool quick;       /* tiny sizes: a smoke test that everything runs */
    int reps;         /* timed runs per measurement (median taken) */
    const char *only; /* run entries whose name contains this, NULL: all */
} bench_config;

/* What an entry is compared with besides PyTorch. */
typedef enum bench_limit {
    BENCH_LIMIT_NONE,
    BENCH_LIMIT_SGEMM,      /* cblas_sgemm called directly */
    BENCH_LIMIT_STREAM_ADD, /* c[i] = a[i] + b[i] into an existing array */
    BENCH_LIMIT_COPY,       /* c[i] = a[i]: one read and one write stream */
    BENCH_LIMIT_READ_SUM,   /* a plain read-only sum loop */
} bench_limit;

/* Which ratio a target is stated against. */
typedef enum bench_target_kind {
    BENCH_TARGET_NONE,
    BENCH_TARGET_TORCH, /* torch time / tessera time >= value */
    BENCH_TARGET_LIMIT, /* limit time / tessera time >= value */
    BENCH_TARGET_MAX,   /* the tessera figure itself <= value (us per op, ms) */
} bench_target_kind;

typedef struct bench_entry {
    char name[48];
    char shape[48];   /* "1024x1024", "16777216" */
    double work;      /* flops or bytes per call; 0: report times only */
    const char *unit; /* "GFLOP/s", "GB/s", "us", "ms" */
    bench_limit limit;
    int64_t size[3]; /* entry-specific sizes (matmul n; elements; rows, cols) */
    bench_target_kind target_kind;
    double target;
    /* Results in seconds; < 0 when not measured. */
    double tessera, torch, raw;
    char note[160]; /* why something was skipped */
} bench_entry;

/* ---- the tessera side (suite.c) ---- */

/* Fills `entries` with the suite for `config`; returns the count. */
int bench_suite_build(const bench_config *config, bench_entry *entries, int capacity);

/* One entry on `backend`: inputs made and one warm-up call done; NULL with
 * entry->note set when the backend lacks an op. */
typedef struct bench_case bench_case;
bench_case *bench_suite_prepare(tsr_backend *backend, bench_entry *entry);
/* Seconds of one call (per call for the overhead entry), < 0 on failure. */
double bench_suite_once(bench_case *c);
void bench_suite_finish(bench_case *c);

/* ---- the raw limits (limits.c) ---- */

int bench_limits_start(int threads);
void bench_limits_stop(void);
/* The entry's raw limit, arrays made and warmed up; NULL when it has none. */
typedef struct bench_limit_run bench_limit_run;
bench_limit_run *bench_limit_prepare(const bench_config *config, const bench_entry *entry);
double bench_limit_once(bench_limit_run *run);
void bench_limit_finish(bench_limit_run *run);
/* A description of the limit for the table ("cblas_sgemm", "STREAM add"). */
const char *bench_limit_name(bench_limit limit);

/* ---- PyTorch (peer.c) ---- */

/* Runs the peer script once for every entry, filling entry->torch; returns
 * 0, or -1 with `why` filled when the peer could not run at all. */
int bench_peer_run(const bench_config *config, const char *python, const char *script,
                   bench_entry *entries, int count, char *why, size_t why_size, char *torch_version,
                   size_t version_size);

/* ---- timing helpers (suite.c) ---- */

double bench_now(void);
double bench_median(double *values, int count);

#endif /* TSR_BENCH_H */
