/* The suite and its tessera side. Every call makes a fresh output and
 * releases it, as a PyTorch call does; inputs are made once per entry from
 * a seeded generator on the backend under test. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tessera/nn.h>
#include <tessera/products.h>
#include <tessera/reduce.h>
#include <tessera/sorting.h>

#include "bench.h"
#include "vision.h"

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *values, int count)
{
    if (count <= 0) {
        return -1.0;
    }
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

/* ------------------------------------------------------------------------ */
/* The entries                                                               */
/* ------------------------------------------------------------------------ */

typedef enum entry_kind {
    KIND_MATMUL,
    KIND_ADD,
    KIND_MUL,
    KIND_EXP,
    KIND_SUM,
    KIND_SOFTMAX,
    KIND_LAYER_NORM,
    KIND_CROSS_ENTROPY,
    KIND_SORT,
    KIND_OVERHEAD,
    KIND_VISION, /* vision.c's entries */
} entry_kind;

static entry_kind kind_of(const bench_entry *e)
{
    if (bench_vision_owns(e)) {
        return KIND_VISION;
    }
    static const struct {
        const char *prefix;
        entry_kind kind;
    } kinds[] = {{"matmul", KIND_MATMUL},
                 {"add", KIND_ADD},
                 {"mul", KIND_MUL},
                 {"exp", KIND_EXP},
                 {"sum", KIND_SUM},
                 {"softmax", KIND_SOFTMAX},
                 {"layer_norm", KIND_LAYER_NORM},
                 {"cross_entropy", KIND_CROSS_ENTROPY},
                 {"sort", KIND_SORT},
                 {"overhead", KIND_OVERHEAD}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strncmp(e->name, kinds[i].prefix, strlen(kinds[i].prefix)) == 0) {
            return kinds[i].kind;
        }
    }
    return KIND_OVERHEAD;
}

static bench_entry *add_entry(bench_entry *entries, int *count, int capacity, const char *name)
{
    if (*count >= capacity) {
        return NULL;
    }
    bench_entry *e = &entries[(*count)++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->tessera = e->torch = e->raw = -1.0;
    return e;
}

static void add_matmul_entries(bool quick, bench_entry *entries, int *count, int capacity)
{
    static const int64_t full[4] = {256, 512, 1024, 2048}, small[4] = {16, 32, 48, 64};
    for (int i = 0; i < 4; i++) {
        int64_t n = quick ? small[i] : full[i];
        char name[48];
        snprintf(name, sizeof name, "matmul_f32_%d", (int)full[i]);
        bench_entry *e = add_entry(entries, count, capacity, name);
        if (e == NULL) {
            return;
        }
        snprintf(e->shape, sizeof e->shape, "%lldx%lld @ %lldx%lld", (long long)n, (long long)n,
                 (long long)n, (long long)n);
        e->size[0] = n;
        e->work = 2.0 * (double)n * (double)n * (double)n;
        e->unit = "GFLOP/s";
        e->limit = BENCH_LIMIT_SGEMM;
        e->target_kind = i >= 2 ? BENCH_TARGET_LIMIT : BENCH_TARGET_NONE;
        e->target = 0.95;
    }
    /* bfloat16 through oneDNN: the target is twice our float32 throughput,
     * stated against cblas_sgemm, which the float32 rows match. */
    static const int64_t bf16_full[2] = {1024, 2048}, bf16_small[2] = {32, 64};
    for (int i = 0; i < 2; i++) {
        int64_t n = quick ? bf16_small[i] : bf16_full[i];
        char name[48];
        snprintf(name, sizeof name, "matmul_bf16_%d", (int)bf16_full[i]);
        bench_entry *e = add_entry(entries, count, capacity, name);
        if (e == NULL) {
            return;
        }
        snprintf(e->shape, sizeof e->shape, "%lldx%lld @ %lldx%lld bf16", (long long)n,
                 (long long)n, (long long)n, (long long)n);
        e->size[0] = n;
        e->work = 2.0 * (double)n * (double)n * (double)n;
        e->unit = "GFLOP/s";
        e->limit = BENCH_LIMIT_SGEMM;
        e->target_kind = BENCH_TARGET_LIMIT;
        e->target = 2.0;
    }
}

/* add, mul (two reads, one write), exp (one and one), sum (one read). */
static void add_stream_entries(bool quick, bench_entry *entries, int *count, int capacity)
{
    static const struct {
        const char *name;
        double bytes_per_element;
        bench_limit limit;
        bench_target_kind target_kind;
        double target;
    } streams[] = {{"add_16M", 12.0, BENCH_LIMIT_STREAM_ADD, BENCH_TARGET_LIMIT, 0.85},
                   {"mul_16M", 12.0, BENCH_LIMIT_STREAM_ADD, BENCH_TARGET_LIMIT, 0.85},
                   {"exp_16M", 8.0, BENCH_LIMIT_COPY, BENCH_TARGET_TORCH, 2.0},
                   {"sum_16M", 4.0, BENCH_LIMIT_READ_SUM, BENCH_TARGET_LIMIT, 0.9}};
    int64_t n = quick ? 65536 : (int64_t)16 << 20;
    for (int i = 0; i < 4; i++) {
        bench_entry *e = add_entry(entries, count, capacity, streams[i].name);
        if (e == NULL) {
            return;
        }
        snprintf(e->shape, sizeof e->shape, "%lld float32", (long long)n);
        e->size[0] = n;
        e->unit = "GB/s";
        e->work = streams[i].bytes_per_element * (double)n;
        e->limit = streams[i].limit;
        e->target_kind = streams[i].target_kind;
        e->target = streams[i].target;
    }
}

/* Row ops: the limit is a copy of the same bytes (one read, one write). */
static void add_row_entries(bool quick, bench_entry *entries, int *count, int capacity)
{
    static const struct {
        const char *name;
        int64_t rows, cols, quick_rows, quick_cols;
        bench_limit limit;
    } rows[] = {{"softmax_4096x4096", 4096, 4096, 64, 64, BENCH_LIMIT_COPY},
                {"layer_norm_8192x1024", 8192, 1024, 128, 64, BENCH_LIMIT_COPY},
                {"cross_entropy_8192x1000", 8192, 1000, 128, 10, BENCH_LIMIT_NONE}};
    for (int i = 0; i < 3; i++) {
        bench_entry *e = add_entry(entries, count, capacity, rows[i].name);
        if (e == NULL) {
            return;
        }
        e->size[1] = quick ? rows[i].quick_rows : rows[i].rows;
        e->size[2] = quick ? rows[i].quick_cols : rows[i].cols;
        e->size[0] = e->size[1] * e->size[2];
        snprintf(e->shape, sizeof e->shape, "%lldx%lld float32", (long long)e->size[1],
                 (long long)e->size[2]);
        e->unit = "GB/s";
        e->work = (rows[i].limit == BENCH_LIMIT_COPY ? 8.0 : 4.0) * (double)e->size[0];
        e->limit = rows[i].limit;
        e->target_kind = BENCH_TARGET_TORCH;
        e->target = 3.0;
    }
}

int bench_suite_build(const bench_config *config, bench_entry *entries, int capacity)
{
    int count = 0;
    bool q = config->quick;
    add_matmul_entries(q, entries, &count, capacity);
    add_stream_entries(q, entries, &count, capacity);
    add_row_entries(q, entries, &count, capacity);
    bench_entry *e = add_entry(entries, &count, capacity, "sort_4M");
    if (e != NULL) {
        e->size[0] = q ? 4096 : (int64_t)4 << 20;
        snprintf(e->shape, sizeof e->shape, "%lld float32", (long long)e->size[0]);
        e->unit = "ms";
        e->target_kind = BENCH_TARGET_TORCH;
        e->target = 2.0;
    }
    e = add_entry(entries, &count, capacity, "overhead_add_1");
    if (e != NULL) {
        e->size[0] = q ? 2000 : 200000; /* calls per timed run */
        snprintf(e->shape, sizeof e->shape, "1 float32 + 1 float32");
        e->unit = "us";
        e->target_kind = BENCH_TARGET_MAX;
        e->target = 0.25e-6;
    }
    bench_vision_add_entries(q, entries, &count, capacity);
    if (config->only != NULL) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (strstr(entries[i].name, config->only) != NULL) {
                entries[kept++] = entries[i];
            }
        }
        count = kept;
    }
    return count;
}

/* ------------------------------------------------------------------------ */
/* Measuring                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct bench_inputs {
    tsr_tensor *a, *b, *w, *bias, *target;
} bench_inputs;

static void release_inputs(bench_inputs *in)
{
    tsr_tensor_release(in->a);
    tsr_tensor_release(in->b);
    tsr_tensor_release(in->w);
    tsr_tensor_release(in->bias);
    tsr_tensor_release(in->target);
}

static tsr_status make_inputs(const bench_entry *e, tsr_backend *backend, bench_inputs *in)
{
    tsr_generator *gen = NULL;
    tsr_status st = tsr_generator_create(1234, &gen);
    if (st != TSR_OK) {
        return st;
    }
    int64_t n = e->size[0], rows = e->size[1], cols = e->size[2];
    int64_t square[2] = {n, n}, flat[1] = {n}, table[2] = {rows, cols}, row[1] = {cols};
    int64_t one[1] = {1}, targets[1] = {rows};
    switch (kind_of(e)) {
    case KIND_MATMUL: {
        tsr_dtype dtype = strstr(e->name, "bf16") != NULL ? TSR_BFLOAT16 : TSR_FLOAT32;
        st = tsr_randn(gen, 2, square, dtype, backend, &in->a);
        if (st == TSR_OK) {
            st = tsr_randn(gen, 2, square, dtype, backend, &in->b);
        }
        break;
    }
    case KIND_ADD:
    case KIND_MUL:
    case KIND_EXP:
    case KIND_SUM:
    case KIND_SORT:
        st = tsr_randn(gen, 1, flat, TSR_FLOAT32, backend, &in->a);
        if (st == TSR_OK) {
            st = tsr_randn(gen, 1, flat, TSR_FLOAT32, backend, &in->b);
        }
        break;
    case KIND_SOFTMAX:
        st = tsr_randn(gen, 2, table, TSR_FLOAT32, backend, &in->a);
        break;
    case KIND_LAYER_NORM:
        st = tsr_randn(gen, 2, table, TSR_FLOAT32, backend, &in->a);
        if (st == TSR_OK) {
            st = tsr_randn(gen, 1, row, TSR_FLOAT32, backend, &in->w);
        }
        if (st == TSR_OK) {
            st = tsr_randn(gen, 1, row, TSR_FLOAT32, backend, &in->bias);
        }
        break;
    case KIND_CROSS_ENTROPY:
        st = tsr_randn(gen, 2, table, TSR_FLOAT32, backend, &in->a);
        if (st == TSR_OK) {
            st = tsr_randint(gen, 0, cols, 1, targets, TSR_INT64, backend, &in->target);
        }
        break;
    case KIND_VISION:
        st = bench_vision_make_inputs(e, backend, gen, &in->a, &in->w, &in->b);
        break;
    case KIND_OVERHEAD:
        st = tsr_randn(gen, 1, one, TSR_FLOAT32, backend, &in->a);
        if (st == TSR_OK) {
            st = tsr_randn(gen, 1, one, TSR_FLOAT32, backend, &in->b);
        }
        break;
    }
    tsr_generator_destroy(gen);
    return st;
}

/* One call of the entry's op, its outputs released. */
static tsr_status call_once(const bench_entry *e, const bench_inputs *in)
{
    tsr_tensor *out = NULL, *extra = NULL;
    tsr_status st;
    int64_t last = -1;
    switch (kind_of(e)) {
    case KIND_MATMUL:
        st = tsr_matmul(in->a, in->b, &out);
        break;
    case KIND_ADD:
        st = tsr_add(in->a, in->b, &out);
        break;
    case KIND_MUL:
        st = tsr_mul(in->a, in->b, &out);
        break;
    case KIND_EXP:
        st = tsr_unary(TSR_OP_EXP, in->a, &out);
        break;
    case KIND_SUM:
        st = tsr_sum(in->a, NULL, 0, false, TSR_DTYPE_INFER, &out);
        break;
    case KIND_SOFTMAX:
        st = tsr_softmax(in->a, last, TSR_DTYPE_INFER, &out);
        break;
    case KIND_LAYER_NORM:
        st = tsr_layer_norm(in->a, 1, &e->size[2], in->w, in->bias, 1e-5, &out);
        break;
    case KIND_CROSS_ENTROPY:
        st = tsr_cross_entropy(in->a, in->target, NULL, -100, TSR_LOSS_MEAN, 0.0, &out);
        break;
    case KIND_SORT:
        st = tsr_sort(in->a, 0, false, &out, &extra);
        break;
    case KIND_VISION:
        st = bench_vision_call_once(e, in->a, in->w, in->b);
        break;
    default: {
        st = TSR_OK;
        for (int64_t i = 0; i < e->size[0] && st == TSR_OK; i++) {
            st = tsr_add(in->a, in->b, &out);
            tsr_tensor_release(out);
            out = NULL;
        }
        break;
    }
    }
    tsr_tensor_release(out);
    tsr_tensor_release(extra);
    return st;
}

struct bench_case {
    const bench_entry *entry;
    tsr_backend *backend;
    bench_inputs in;
};

bench_case *bench_suite_prepare(tsr_backend *backend, bench_entry *e)
{
    bench_case *c = calloc(1, sizeof *c);
    if (c == NULL) {
        snprintf(e->note, sizeof e->note, "skipped: out of memory");
        return NULL;
    }
    c->entry = e;
    c->backend = backend;
    tsr_status st = make_inputs(e, backend, &c->in);
    if (st == TSR_OK) {
        st = call_once(e, &c->in); /* warm up: caches, allocator, pool */
    }
    if (st != TSR_OK) {
        snprintf(e->note, sizeof e->note, "skipped: %s", tsr_last_error());
        bench_suite_finish(c);
        return NULL;
    }
    return c;
}

double bench_suite_once(bench_case *c)
{
    double t0 = bench_now();
    tsr_status st = call_once(c->entry, &c->in);
    tsr_backend_synchronize(c->backend);
    double seconds = bench_now() - t0;
    if (st != TSR_OK) {
        return -1.0;
    }
    return kind_of(c->entry) == KIND_OVERHEAD ? seconds / (double)c->entry->size[0] : seconds;
}

void bench_suite_finish(bench_case *c)
{
    if (c != NULL) {
        release_inputs(&c->in);
        free(c);
    }
}
