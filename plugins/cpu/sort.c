/* sort of dense rows (the sorted dim last among dims of extent > 1): a
 * stable LSD radix sort of order-preserving integer keys, with the row's
 * positions carried along. A stable sort's result is unique, so this gives
 * exactly the reference kernel's values and indices, with any thread count:
 *   - keys: floats map to unsigned integers that order as the reference
 *     orders (-inf < ... < -0.0 = +0.0 < ... < +inf < NaN, every NaN
 *     equal); signed integers flip their sign bit; descending sorts invert
 *     every key, which keeps equal elements in their order and puts NaN
 *     first, as the reference does;
 *   - 8-bit digits, least significant first; a digit on which all keys
 *     agree is skipped (the high bytes of small integers, of float32 keys
 *     held in 64 bits);
 *   - a long row splits into fixed chunks: the pool counts each chunk's
 *     digits, offsets come from the counts in (digit, chunk) order, and
 *     each chunk scatters its elements there, which is stable;
 *   - values are the input's element bytes gathered by position, moved
 *     unchanged (NaN payloads and the sign of zero survive).
 * Short rows use a stable insertion sort on the same keys. Other layouts,
 * rows of 2^32 elements or more, and complex dtypes go to the reference
 * kernel. */
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "cpu_walk.h"
#include "index_walk.h" /* tsr__ref_kernel_sort */

enum { DIGITS = 8, BUCKETS = 256, INSERTION_MAX = 48 };
#define CHUNK ((int64_t)1 << 16)

typedef struct sort_plan {
    int32_t dtype;
    size_t size;
    int descending;
    int64_t rows, n;
    const char *in;
    char *values;
    int64_t *indices;
} sort_plan;

/* ------------------------------------------------------------------------ */
/* Keys                                                                      */
/* ------------------------------------------------------------------------ */

/* Floating bits (sign bit `sign`, exponent and mantissa masks) to a key. */
static uint64_t float_key(uint64_t bits, uint64_t sign, uint64_t exponent, uint64_t mantissa)
{
    if ((bits & exponent) == exponent && (bits & mantissa) != 0) {
        return (sign << 1) - 1; /* NaN: above +inf */
    }
    if ((bits & ~sign) == 0) {
        bits = 0; /* -0.0 orders as +0.0 */
    }
    return (bits & sign) ? ~bits & ((sign << 1) - 1) : bits | sign;
}

static uint64_t key_of(const sort_plan *plan, const char *element)
{
    uint64_t key;
    switch (plan->dtype) {
    case TSR_BOOL:
    case TSR_UINT8:
        key = *(const uint8_t *)element;
        break;
    case TSR_INT8:
        key = (uint8_t)(*(const uint8_t *)element ^ 0x80u);
        break;
    case TSR_INT16: {
        uint16_t v;
        memcpy(&v, element, 2);
        key = (uint16_t)(v ^ 0x8000u);
        break;
    }
    case TSR_INT32: {
        uint32_t v;
        memcpy(&v, element, 4);
        key = v ^ UINT32_C(0x80000000);
        break;
    }
    case TSR_INT64: {
        uint64_t v;
        memcpy(&v, element, 8);
        key = v ^ UINT64_C(0x8000000000000000);
        break;
    }
    case TSR_FLOAT16: {
        uint16_t v;
        memcpy(&v, element, 2);
        key = float_key(v, 0x8000u, 0x7c00u, 0x03ffu);
        break;
    }
    case TSR_BFLOAT16: {
        uint16_t v;
        memcpy(&v, element, 2);
        key = float_key(v, 0x8000u, 0x7f80u, 0x007fu);
        break;
    }
    case TSR_FLOAT32: {
        uint32_t v;
        memcpy(&v, element, 4);
        key = float_key(v, UINT32_C(0x80000000), UINT32_C(0x7f800000), UINT32_C(0x007fffff));
        break;
    }
    default: {
        uint64_t v;
        memcpy(&v, element, 8);
        key = float_key(v, UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000000),
                        UINT64_C(0x000fffffffffffff));
        break;
    }
    }
    return plan->descending ? ~key : key;
}

/* ------------------------------------------------------------------------ */
/* One row                                                                   */
/* ------------------------------------------------------------------------ */

/* The row's buffers: keys and positions, twice (for the passes). */
typedef struct row_buffers {
    uint64_t *keys, *keys_tmp;
    uint32_t *order, *order_tmp;
} row_buffers;

static void load_keys(const sort_plan *plan, const char *row, int64_t begin, int64_t end,
                      row_buffers *b)
{
    for (int64_t i = begin; i < end; i++) {
        b->keys[i] = key_of(plan, row + (size_t)i * plan->size);
        b->order[i] = (uint32_t)i;
    }
}

/* Stable: an element moves left only past strictly greater keys. */
static void insertion_sort(int64_t n, row_buffers *b)
{
    for (int64_t i = 1; i < n; i++) {
        uint64_t key = b->keys[i];
        uint32_t pos = b->order[i];
        int64_t j = i;
        while (j > 0 && b->keys[j - 1] > key) {
            b->keys[j] = b->keys[j - 1];
            b->order[j] = b->order[j - 1];
            j--;
        }
        b->keys[j] = key;
        b->order[j] = pos;
    }
}

static void swap_buffers(row_buffers *b)
{
    uint64_t *k = b->keys;
    uint32_t *o = b->order;
    b->keys = b->keys_tmp;
    b->order = b->order_tmp;
    b->keys_tmp = k;
    b->order_tmp = o;
}

/* A serial LSD radix sort of one row. */
static void radix_sort(int64_t n, row_buffers *b)
{
    static _Thread_local uint32_t counts[DIGITS][BUCKETS];
    memset(counts, 0, sizeof counts);
    for (int64_t i = 0; i < n; i++) {
        uint64_t key = b->keys[i];
        for (int d = 0; d < DIGITS; d++) {
            counts[d][(key >> (8 * d)) & 0xff]++;
        }
    }
    for (int d = 0; d < DIGITS; d++) {
        uint32_t offsets[BUCKETS], total = 0;
        int trivial = 0;
        for (int v = 0; v < BUCKETS; v++) {
            trivial |= counts[d][v] == (uint32_t)n;
            offsets[v] = total;
            total += counts[d][v];
        }
        if (trivial) {
            continue;
        }
        for (int64_t i = 0; i < n; i++) {
            uint32_t slot = offsets[(b->keys[i] >> (8 * d)) & 0xff]++;
            b->keys_tmp[slot] = b->keys[i];
            b->order_tmp[slot] = b->order[i];
        }
        swap_buffers(b);
    }
}

static void write_row(const sort_plan *plan, const char *source, char *values, int64_t *indices,
                      int64_t begin, int64_t end, const uint32_t *order)
{
    for (int64_t i = begin; i < end; i++) {
        memcpy(values + (size_t)i * plan->size, source + (size_t)order[i] * plan->size, plan->size);
        indices[i] = order[i];
    }
}

/* ------------------------------------------------------------------------ */
/* Many rows: one task per group of rows                                     */
/* ------------------------------------------------------------------------ */

typedef struct rows_job {
    const sort_plan *plan;
    int64_t rows_per_task;
    int failed;
} rows_job;

static void rows_task(void *context, int64_t task)
{
    rows_job *job = context;
    const sort_plan *plan = job->plan;
    int64_t n = plan->n;
    size_t bytes =
        (size_t)n * (2 * sizeof(uint64_t) + 2 * sizeof(uint32_t)) + (size_t)n * plan->size;
    char *memory = malloc(bytes + 1);
    if (memory == NULL) {
        job->failed = 1;
        return;
    }
    row_buffers b = {(uint64_t *)memory, (uint64_t *)memory + n,
                     (uint32_t *)((uint64_t *)memory + 2 * n),
                     (uint32_t *)((uint64_t *)memory + 2 * n) + n};
    char *copy = (char *)(b.order_tmp + n);
    int64_t first = task * job->rows_per_task;
    int64_t last =
        first + job->rows_per_task < plan->rows ? first + job->rows_per_task : plan->rows;
    for (int64_t r = first; r < last; r++) {
        const char *row = plan->in + (size_t)(r * n) * plan->size;
        row_buffers rb = b;
        load_keys(plan, row, 0, n, &rb);
        if (n <= INSERTION_MAX) {
            insertion_sort(n, &rb);
        } else {
            radix_sort(n, &rb);
        }
        /* The values may be the input itself (in place): gather from a copy. */
        memcpy(copy, row, (size_t)n * plan->size);
        write_row(plan, copy, plan->values + (size_t)(r * n) * plan->size, plan->indices + r * n, 0,
                  n, rb.order);
    }
    free(memory);
}

/* ------------------------------------------------------------------------ */
/* One long row: chunks counted and scattered by the pool                    */
/* ------------------------------------------------------------------------ */

typedef struct long_job {
    const sort_plan *plan;
    const char *row;    /* the input row */
    const char *source; /* where values are gathered from */
    char *values;
    int64_t *indices;
    row_buffers b;
    int64_t chunks;
    int digit;
    uint32_t (*counts)[BUCKETS];      /* per chunk, for the current digit */
    uint32_t (*all)[DIGITS][BUCKETS]; /* per chunk, every digit, first pass */
} long_job;

static int64_t chunk_end(const long_job *job, int64_t chunk)
{
    int64_t end = (chunk + 1) * CHUNK;
    return end < job->plan->n ? end : job->plan->n;
}

static void keys_task(void *context, int64_t chunk)
{
    long_job *job = context;
    int64_t begin = chunk * CHUNK, end = chunk_end(job, chunk);
    load_keys(job->plan, job->row, begin, end, &job->b);
    uint32_t(*all)[BUCKETS] = job->all[chunk];
    memset(all, 0, sizeof job->all[chunk]);
    for (int64_t i = begin; i < end; i++) {
        uint64_t key = job->b.keys[i];
        for (int d = 0; d < DIGITS; d++) {
            all[d][(key >> (8 * d)) & 0xff]++;
        }
    }
}

static void count_task(void *context, int64_t chunk)
{
    long_job *job = context;
    uint32_t *counts = job->counts[chunk];
    memset(counts, 0, BUCKETS * sizeof *counts);
    int shift = 8 * job->digit;
    for (int64_t i = chunk * CHUNK, end = chunk_end(job, chunk); i < end; i++) {
        counts[(job->b.keys[i] >> shift) & 0xff]++;
    }
}

/* Scatters a chunk; job->counts now holds the chunk's first slot per digit. */
static void scatter_task(void *context, int64_t chunk)
{
    long_job *job = context;
    uint32_t *slots = job->counts[chunk];
    int shift = 8 * job->digit;
    for (int64_t i = chunk * CHUNK, end = chunk_end(job, chunk); i < end; i++) {
        uint64_t key = job->b.keys[i];
        uint32_t slot = slots[(key >> shift) & 0xff]++;
        job->b.keys_tmp[slot] = key;
        job->b.order_tmp[slot] = job->b.order[i];
    }
}

static void write_task(void *context, int64_t chunk)
{
    long_job *job = context;
    write_row(job->plan, job->source, job->values, job->indices, chunk * CHUNK,
              chunk_end(job, chunk), job->b.order);
}

/* Turns per-chunk counts of one digit into per-chunk first slots, in
 * (digit value, chunk) order: that order is what makes the pass stable. */
static int counts_to_slots(long_job *job)
{
    uint32_t total = 0;
    for (int v = 0; v < BUCKETS; v++) {
        uint32_t digit_total = 0;
        for (int64_t c = 0; c < job->chunks; c++) {
            uint32_t count = job->counts[c][v];
            job->counts[c][v] = total;
            total += count;
            digit_total += count;
        }
        if (digit_total == (uint32_t)job->plan->n) {
            return 0; /* every key has this digit: nothing moves */
        }
    }
    return 1;
}

static int sort_long_row(tsr__cpu_backend *backend, const sort_plan *plan, int64_t r)
{
    int64_t n = plan->n, chunks = (n + CHUNK - 1) / CHUNK;
    size_t bytes = (size_t)n * (2 * sizeof(uint64_t) + 2 * sizeof(uint32_t) + plan->size) +
                   (size_t)chunks * (sizeof(uint32_t[BUCKETS]) + sizeof(uint32_t[DIGITS][BUCKETS]));
    char *memory = tsr__cpu_alloc(backend->cache, bytes);
    if (memory == NULL) {
        return tsr__cpu_error(backend, TSR_ERR_OUT_OF_MEMORY, "sort: no memory for %lld keys",
                              (long long)n);
    }
    long_job job = {.plan = plan,
                    .row = plan->in + (size_t)(r * n) * plan->size,
                    .values = plan->values + (size_t)(r * n) * plan->size,
                    .indices = plan->indices + r * n,
                    .chunks = chunks};
    uint64_t *keys = (uint64_t *)memory;
    uint32_t *orders = (uint32_t *)(keys + 2 * n);
    job.b = (row_buffers){keys, keys + n, orders, orders + n};
    job.counts = (uint32_t(*)[BUCKETS])(orders + 2 * n);
    job.all = (uint32_t(*)[DIGITS][BUCKETS])(job.counts + chunks);
    char *copy = (char *)(job.all + chunks);
    tsr__cpu_pool_run(backend->pool, chunks, keys_task, &job);
    for (int d = 0; d < DIGITS; d++) {
        job.digit = d;
        if (d == 0) {
            for (int64_t c = 0; c < chunks; c++) {
                memcpy(job.counts[c], job.all[c][0], sizeof job.counts[c]);
            }
        } else {
            /* A digit all keys share needs no pass: the first counts say so. */
            uint32_t any[BUCKETS] = {0};
            int trivial = 0;
            for (int64_t c = 0; c < chunks; c++) {
                for (int v = 0; v < BUCKETS; v++) {
                    any[v] += job.all[c][d][v];
                }
            }
            for (int v = 0; v < BUCKETS; v++) {
                trivial |= any[v] == (uint32_t)n;
            }
            if (trivial) {
                continue;
            }
            tsr__cpu_pool_run(backend->pool, chunks, count_task, &job);
        }
        if (!counts_to_slots(&job)) {
            continue;
        }
        tsr__cpu_pool_run(backend->pool, chunks, scatter_task, &job);
        swap_buffers(&job.b);
    }
    /* The values may be the input itself (in place): gather from a copy. */
    job.source = job.row;
    if (plan->values == plan->in) {
        memcpy(copy, job.row, (size_t)n * plan->size);
        job.source = copy;
    }
    tsr__cpu_pool_run(backend->pool, chunks, write_task, &job);
    tsr__cpu_free(backend->cache, memory);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Which calls fit                                                           */
/* ------------------------------------------------------------------------ */

static int fits(const tsr_kernel_args *args, sort_plan *plan)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 2 || args->inputs == NULL || args->outputs == NULL ||
        args->attrs == NULL) {
        return 0;
    }
    const tsr_index_attrs *attrs = args->attrs;
    const tsr_tensor_desc *in = &args->inputs[0];
    const tsr_tensor_desc *values = &args->outputs[0], *indices = &args->outputs[1];
    if (attrs->struct_size < sizeof(tsr_index_attrs) || in->ndim < 1 || in->ndim > TSR_MAX_DIMS ||
        attrs->dim < 0 || attrs->dim >= in->ndim || values->ndim != in->ndim ||
        indices->ndim != in->ndim || values->dtype != in->dtype || indices->dtype != TSR_INT64 ||
        in->dtype < 0 || in->dtype > TSR_FLOAT64 || in->data == NULL || values->data == NULL ||
        indices->data == NULL) {
        return 0;
    }
    int64_t numel = 1;
    for (int32_t d = 0; d < in->ndim; d++) {
        if (values->shape[d] != in->shape[d] || indices->shape[d] != in->shape[d] ||
            (d > attrs->dim && in->shape[d] != 1)) {
            return 0;
        }
        numel *= in->shape[d];
    }
    int64_t n = in->shape[attrs->dim];
    if (!tsr__cpu_desc_dense(in) || !tsr__cpu_desc_dense(values) || !tsr__cpu_desc_dense(indices) ||
        numel == 0 || n >= INT64_C(1) << 32) {
        return 0;
    }
    static const size_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
    *plan = (sort_plan){.dtype = in->dtype,
                        .size = sizes[in->dtype],
                        .descending = (attrs->flags & TSR_INDEX_DESCENDING) != 0,
                        .rows = numel / n,
                        .n = n,
                        .in = (const char *)in->data + in->byte_offset,
                        .values = (char *)values->data + values->byte_offset,
                        .indices = (int64_t *)((char *)indices->data + indices->byte_offset)};
    return 1;
}

int tsr__cpu_kernel_sort(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    sort_plan plan;
    if (!fits(args, &plan)) {
        return tsr__ref_kernel_sort(backend, args);
    }
    if (plan.n >= 4 * CHUNK) {
        for (int64_t r = 0; r < plan.rows; r++) {
            int status = sort_long_row(backend, &plan, r);
            if (status != TSR_OK) {
                return status;
            }
        }
        return TSR_OK;
    }
    rows_job job = {&plan, plan.n >= CHUNK ? 1 : CHUNK / plan.n, 0};
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(plan.rows, job.rows_per_task), rows_task,
                      &job);
    if (job.failed) {
        return tsr__cpu_error(backend, TSR_ERR_OUT_OF_MEMORY, "sort: no memory for rows of %lld",
                              (long long)plan.n);
    }
    return TSR_OK;
}
