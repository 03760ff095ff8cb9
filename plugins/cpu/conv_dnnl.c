/* The direct convolution rows (forward, backward-data, backward-weight) for
 * float32 and bfloat16 through oneDNN's convolution primitives.
 *
 * Each primitive is created with "any" layouts, so oneDNN picks its own
 * blocked layouts (nChw16c and friends) for the fastest implementation;
 * the tensors keep their own strided layouts, and reorders between the two
 * run before (inputs) and after (the output) the primitive. The primitive,
 * its reorders and the sizes of their buffers are cached together, keyed by
 * every shape, stride and geometry they depend on, in a small LRU like the
 * matmul cache (dnnl_cache.c). Only the direct algorithm is used (no
 * Winograd), so float32 results keep float32 accuracy; bfloat16 primitives
 * accumulate in float32 and round once, as PyTorch's.
 *
 * A call oneDNN cannot take (a zero or negative stride, an empty dim, a
 * negative padding_end, a primitive oneDNN refuses) goes to the reference
 * kernel, which also reports malformed calls. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "cpu_dnnl.h"
#include "cpu_dnnl_api.h"
#include "kernels.h" /* tsr__ref_kernel_convolution */

enum { IMAGE, WEIGHT, WINDOWS, BIAS, ROLES };
enum { CACHE_SLOTS = 8, MAX_RANK = DNNL_MAX_NDIMS };

/* Everything a primitive depends on; zeroed, then filled, then compared
 * bytewise. The weight is in oneDNN's grouped form [g, Cout/g, Cin/g, k...]
 * when groups > 1. */
typedef struct conv_key {
    int32_t op, dtype, nd, has_bias;
    int64_t threads, groups;
    int64_t rank[ROLES];
    int64_t dims[ROLES][MAX_RANK];
    int64_t strides[ROLES][MAX_RANK];
    int64_t stride[TSR_CONV_MAX_SPATIAL], dilate[TSR_CONV_MAX_SPATIAL];
    int64_t pad_l[TSR_CONV_MAX_SPATIAL], pad_r[TSR_CONV_MAX_SPATIAL];
} conv_key;

typedef struct conv_entry {
    conv_key key;
    dnnl_primitive_t primitive;
    /* Per role: the reorder between the tensor's layout and the
     * primitive's (NULL when they are the same) and the primitive's bytes. */
    dnnl_primitive_t reorder[ROLES];
    dnnl_memory_desc_t chosen[ROLES];
    size_t chosen_bytes[ROLES];
    dnnl_memory_desc_t scratch_md;
    size_t scratch_bytes;
    char impl[64]; /* oneDNN's implementation name, "brg_conv_fwd:avx512_core" */
    int users, evicted;
    uint64_t used;
} conv_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static conv_entry *cache[CACHE_SLOTS];
static uint64_t cache_tick;
static _Thread_local char last_impl[64];

const char *tsr__cpu_dnnl_conv_last_impl(void)
{
    return last_impl;
}

/* oneDNN's OpenMP threads: the backend's, one under AddressSanitizer (see
 * products_dnnl.c for why). */
static int64_t omp_threads(const tsr__cpu_backend *backend)
{
#if defined(__SANITIZE_ADDRESS__)
    (void)backend;
    return 1;
#else
    return backend->threads;
#endif
}

/* ------------------------------------------------------------------------ */
/* The key                                                                   */
/* ------------------------------------------------------------------------ */

/* Which role each operand of the call plays; the output's index is -1. */
static void roles_of(int32_t op, int *in0, int *in1, int *out)
{
    *in0 = op == TSR_OP_CONVOLUTION ? IMAGE : WINDOWS;
    *in1 = op == TSR_OP_CONVOLUTION_BACKWARD_WEIGHT ? IMAGE : WEIGHT;
    *out = op == TSR_OP_CONVOLUTION                 ? WINDOWS
           : op == TSR_OP_CONVOLUTION_BACKWARD_DATA ? IMAGE
                                                    : WEIGHT;
}

/* A size-1 dim may carry any stride; oneDNN knows its plain layouts by
 * strides, so it gets the span of the others. */
static void normalise(int64_t rank, const int64_t *dims, int64_t *strides)
{
    int64_t span = 1;
    for (int64_t d = 0; d < rank; d++) {
        if (dims[d] > 1 && dims[d] * strides[d] > span) {
            span = dims[d] * strides[d];
        }
    }
    for (int64_t d = 0; d < rank; d++) {
        if (dims[d] == 1) {
            strides[d] = span;
        }
    }
}

/* Copies a descriptor into the key (the weight split by groups); 0 for a
 * layout oneDNN's plain descriptors cannot hold. */
static int key_tensor(conv_key *k, int role, const tsr_tensor_desc *t)
{
    if (t->dtype != k->dtype || t->data == NULL) {
        return 0;
    }
    int64_t rank = t->ndim, *dims = k->dims[role], *strides = k->strides[role];
    for (int64_t d = 0; d < rank; d++) {
        if (t->shape[d] < 1 || t->strides[d] < 0 || (t->strides[d] == 0 && t->shape[d] > 1)) {
            return 0;
        }
    }
    if (role == WEIGHT && k->groups > 1) {
        dims[0] = k->groups;
        strides[0] = t->strides[0] * (t->shape[0] / k->groups);
        dims[1] = t->shape[0] / k->groups;
        strides[1] = t->strides[0];
        for (int64_t d = 1; d < rank; d++) {
            dims[d + 1] = t->shape[d];
            strides[d + 1] = t->strides[d];
        }
        rank++;
    } else {
        memcpy(dims, t->shape, (size_t)rank * sizeof *dims);
        memcpy(strides, t->strides, (size_t)rank * sizeof *strides);
    }
    k->rank[role] = rank;
    normalise(rank, dims, strides);
    return 1;
}

static int key_build(const tsr__cpu_backend *backend, const tsr_kernel_args *args, conv_key *k)
{
    const tsr_conv_attrs *a = args->attrs;
    if (args->num_outputs != 1 || args->num_inputs < 2 || args->num_inputs > 3 || a == NULL ||
        a->struct_size < sizeof *a || a->spatial_ndim < 1 || a->spatial_ndim > 3 || a->groups < 1 ||
        (args->num_inputs == 3 && args->op != TSR_OP_CONVOLUTION)) {
        return 0;
    }
    memset(k, 0, sizeof *k);
    k->op = args->op;
    k->dtype = args->outputs[0].dtype;
    k->nd = a->spatial_ndim;
    k->groups = a->groups;
    k->has_bias = args->num_inputs == 3;
    int64_t work = 1;
    for (int d = 0; d < k->nd; d++) {
        if (a->padding[d] < 0 || a->padding_end[d] < 0 || a->stride[d] < 1 || a->dilation[d] < 1) {
            return 0;
        }
        k->stride[d] = a->stride[d];
        k->dilate[d] = a->dilation[d] - 1;
        k->pad_l[d] = a->padding[d];
        k->pad_r[d] = a->padding_end[d];
    }
    int in0, in1, out;
    roles_of(args->op, &in0, &in1, &out);
    if (!key_tensor(k, in0, &args->inputs[0]) || !key_tensor(k, in1, &args->inputs[1]) ||
        !key_tensor(k, out, &args->outputs[0]) ||
        (k->has_bias && !key_tensor(k, BIAS, &args->inputs[2]))) {
        return 0;
    }
    if (k->rank[IMAGE] != 2 + k->nd || k->rank[WINDOWS] != 2 + k->nd) {
        return 0;
    }
    for (int64_t d = 0; d < k->rank[WINDOWS]; d++) {
        work *= k->dims[WINDOWS][d];
    }
    for (int64_t d = 0; d < k->rank[WEIGHT]; d++) {
        work *= d == 0 && k->groups > 1 ? 1 : k->dims[WEIGHT][d];
    }
    /* Below 64^3 multiply-adds one thread, like the matmul path. */
    k->threads = work / (k->dims[WINDOWS][1] > 0 ? k->dims[WINDOWS][1] : 1) < 262144
                     ? 1
                     : omp_threads(backend);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Creating a primitive and its reorders                                     */
/* ------------------------------------------------------------------------ */

static dnnl_data_type_t data_type(const conv_key *k)
{
    return k->dtype == TSR_BFLOAT16 ? dnnl_bf16 : dnnl_f32;
}

static void user_md(const tsr__cpu_dnnl_api *dnnl, const conv_key *k, int role,
                    dnnl_memory_desc_t *md)
{
    dnnl->memory_desc_init_by_strides(md, (int)k->rank[role], k->dims[role], data_type(k),
                                      k->strides[role]);
}

static void any_md(const tsr__cpu_dnnl_api *dnnl, const conv_key *k, int role,
                   dnnl_memory_desc_t *md)
{
    dnnl->memory_desc_init_by_tag(md, (int)k->rank[role], k->dims[role], data_type(k),
                                  dnnl_format_tag_any);
}

/* The descriptor of the operation itself for `prop` (the forward one also
 * serves as the hint the backward primitives need). */
static int op_desc(const tsr__cpu_dnnl_api *dnnl, const conv_key *k, int32_t op,
                   dnnl_convolution_desc_t *desc)
{
    dnnl_memory_desc_t md[ROLES];
    for (int r = 0; r < ROLES; r++) {
        if (r != BIAS || k->has_bias) {
            any_md(dnnl, k, r, &md[r]);
        }
    }
    const dnnl_memory_desc_t *bias = k->has_bias && op == TSR_OP_CONVOLUTION ? &md[BIAS] : NULL;
    /* oneDNN reads its dims arrays whole (DNNL_MAX_NDIMS entries). */
    dnnl_dims_t stride = {0}, dilate = {0}, pad_l = {0}, pad_r = {0};
    for (int d = 0; d < k->nd; d++) {
        stride[d] = k->stride[d];
        dilate[d] = k->dilate[d];
        pad_l[d] = k->pad_l[d];
        pad_r[d] = k->pad_r[d];
    }
    dnnl_status_t st;
    if (op == TSR_OP_CONVOLUTION) {
        st = dnnl->dilated_convolution_forward_desc_init(
            desc, dnnl_forward_training, dnnl_convolution_direct, &md[IMAGE], &md[WEIGHT], bias,
            &md[WINDOWS], stride, dilate, pad_l, pad_r);
    } else if (op == TSR_OP_CONVOLUTION_BACKWARD_DATA) {
        st = dnnl->dilated_convolution_backward_data_desc_init(
            desc, dnnl_convolution_direct, &md[IMAGE], &md[WEIGHT], &md[WINDOWS], stride, dilate,
            pad_l, pad_r);
    } else {
        st = dnnl->dilated_convolution_backward_weights_desc_init(
            desc, dnnl_convolution_direct, &md[IMAGE], &md[WEIGHT], NULL, &md[WINDOWS], stride,
            dilate, pad_l, pad_r);
    }
    return st == dnnl_success;
}

/* What the primitive calls each role, and whether the role is its output. */
static dnnl_query_t role_query(int32_t op, int role)
{
    static const dnnl_query_t forward[ROLES] = {dnnl_query_src_md, dnnl_query_weights_md,
                                                dnnl_query_dst_md, dnnl_query_weights_md};
    if (op == TSR_OP_CONVOLUTION) {
        return forward[role];
    }
    if (role == WINDOWS) {
        return dnnl_query_diff_dst_md;
    }
    if (op == TSR_OP_CONVOLUTION_BACKWARD_DATA) {
        return role == IMAGE ? dnnl_query_diff_src_md : dnnl_query_weights_md;
    }
    return role == IMAGE ? dnnl_query_src_md : dnnl_query_diff_weights_md;
}

static int role_is_output(int32_t op, int role)
{
    int in0, in1, out;
    roles_of(op, &in0, &in1, &out);
    return role == out;
}

static void entry_destroy(const tsr__cpu_dnnl_api *dnnl, conv_entry *e)
{
    if (e == NULL) {
        return;
    }
    if (e->primitive != NULL) {
        dnnl->primitive_destroy(e->primitive);
    }
    for (int r = 0; r < ROLES; r++) {
        if (e->reorder[r] != NULL) {
            dnnl->primitive_destroy(e->reorder[r]);
        }
    }
    free(e);
}

/* The reorder between role r's own layout and the primitive's, or none. */
static int make_reorder(const tsr__cpu_dnnl_api *dnnl, conv_entry *e, int r)
{
    dnnl_memory_desc_t own;
    user_md(dnnl, &e->key, r, &own);
    if (dnnl->memory_desc_equal(&own, &e->chosen[r])) {
        return 1;
    }
    e->chosen_bytes[r] = dnnl->memory_desc_get_size(&e->chosen[r]);
    int out = role_is_output(e->key.op, r);
    dnnl_primitive_desc_t pd = NULL;
    int ok = dnnl->reorder_primitive_desc_create(&pd, out ? &e->chosen[r] : &own, dnnl->engine,
                                                 out ? &own : &e->chosen[r], dnnl->engine,
                                                 NULL) == dnnl_success &&
             dnnl->primitive_create(&e->reorder[r], pd) == dnnl_success;
    if (pd != NULL) {
        dnnl->primitive_desc_destroy(pd);
    }
    return ok;
}

static conv_entry *entry_create(const tsr__cpu_dnnl_api *dnnl, const conv_key *k)
{
    conv_entry *e = calloc(1, sizeof *e);
    dnnl_convolution_desc_t desc, hint_desc;
    dnnl_primitive_attr_t attr = NULL;
    dnnl_primitive_desc_t pd = NULL, hint = NULL;
    dnnl->omp_set_num_threads((int)k->threads);
    int ok =
        e != NULL && op_desc(dnnl, k, k->op, &desc) &&
        dnnl->primitive_attr_create(&attr) == dnnl_success &&
        dnnl->primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) == dnnl_success;
    if (ok && k->op != TSR_OP_CONVOLUTION) {
        ok = op_desc(dnnl, k, TSR_OP_CONVOLUTION, &hint_desc) &&
             dnnl->primitive_desc_create(&hint, &hint_desc, NULL, dnnl->engine, NULL) ==
                 dnnl_success;
    }
    ok = ok && dnnl->primitive_desc_create(&pd, &desc, attr, dnnl->engine, hint) == dnnl_success;
    if (ok) {
        e->key = *k;
        e->scratch_md = *dnnl->primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
        e->scratch_bytes = dnnl->memory_desc_get_size(&e->scratch_md);
        const char *impl = NULL;
        if (dnnl->primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success) {
            snprintf(e->impl, sizeof e->impl, "%s", impl);
        }
        for (int r = 0; r < ROLES && ok; r++) {
            if (r == BIAS && !k->has_bias) {
                continue;
            }
            e->chosen[r] = *dnnl->primitive_desc_query_md(pd, role_query(k->op, r), r == BIAS);
            ok = make_reorder(dnnl, e, r);
        }
        ok = ok && dnnl->primitive_create(&e->primitive, pd) == dnnl_success;
    }
    if (pd != NULL) {
        dnnl->primitive_desc_destroy(pd);
    }
    if (hint != NULL) {
        dnnl->primitive_desc_destroy(hint);
    }
    if (attr != NULL) {
        dnnl->primitive_attr_destroy(attr);
    }
    if (!ok) {
        entry_destroy(dnnl, e);
        return NULL;
    }
    return e;
}

/* ------------------------------------------------------------------------ */
/* The cache                                                                 */
/* ------------------------------------------------------------------------ */

static conv_entry *acquire(const tsr__cpu_dnnl_api *dnnl, const conv_key *k)
{
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (cache[i] != NULL && memcmp(&cache[i]->key, k, sizeof *k) == 0) {
            cache[i]->users++;
            cache[i]->used = ++cache_tick;
            conv_entry *hit = cache[i];
            pthread_mutex_unlock(&cache_lock);
            return hit;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    conv_entry *fresh = entry_create(dnnl, k); /* unlocked: it takes milliseconds */
    if (fresh == NULL) {
        return NULL;
    }
    fresh->users = 1;
    pthread_mutex_lock(&cache_lock);
    fresh->used = ++cache_tick;
    int victim = 0;
    for (int i = 1; i < CACHE_SLOTS; i++) {
        if (cache[victim] != NULL && (cache[i] == NULL || cache[i]->used < cache[victim]->used)) {
            victim = i;
        }
    }
    conv_entry *old = cache[victim];
    cache[victim] = fresh;
    int destroy_old = old != NULL && old->users == 0;
    if (old != NULL) {
        old->evicted = 1;
    }
    pthread_mutex_unlock(&cache_lock);
    if (destroy_old) {
        entry_destroy(dnnl, old);
    }
    return fresh;
}

static void release(const tsr__cpu_dnnl_api *dnnl, conv_entry *e)
{
    pthread_mutex_lock(&cache_lock);
    int destroy = --e->users == 0 && e->evicted;
    pthread_mutex_unlock(&cache_lock);
    if (destroy) {
        entry_destroy(dnnl, e);
    }
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */
/* ------------------------------------------------------------------------ */

static int exec_arg(int32_t op, int role)
{
    static const int forward[ROLES] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_BIAS};
    if (op == TSR_OP_CONVOLUTION) {
        return forward[role];
    }
    if (role == WINDOWS) {
        return DNNL_ARG_DIFF_DST;
    }
    if (op == TSR_OP_CONVOLUTION_BACKWARD_DATA) {
        return role == IMAGE ? DNNL_ARG_DIFF_SRC : DNNL_ARG_WEIGHTS;
    }
    return role == IMAGE ? DNNL_ARG_SRC : DNNL_ARG_DIFF_WEIGHTS;
}

static int run_reorder(const tsr__cpu_dnnl_api *dnnl, dnnl_stream_t stream,
                       dnnl_primitive_t reorder, dnnl_memory_t from, dnnl_memory_t to)
{
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    return dnnl->primitive_execute(reorder, stream, 2, args) == dnnl_success;
}

/* Returns 0 when the call did not run; the caller then hands it to the
 * reference kernel (the output is written only at the end, by the
 * primitive or the last reorder, so a failure leaves nothing half done
 * that the reference kernel would not overwrite). */
static int execute(const tsr__cpu_dnnl_api *dnnl, tsr__cpu_backend *backend, const conv_entry *e,
                   char *const *base)
{
    const conv_key *k = &e->key;
    dnnl_memory_t own[ROLES] = {NULL}, chosen[ROLES] = {NULL}, scratch_mem = NULL;
    void *buffer[ROLES] = {NULL}, *scratch = NULL;
    dnnl_stream_t stream = NULL;
    int ok = 1;
    for (int r = 0; r < ROLES && ok; r++) {
        if (r == BIAS && !k->has_bias) {
            continue;
        }
        dnnl_memory_desc_t md;
        user_md(dnnl, k, r, &md);
        ok = dnnl->memory_create(&own[r], &md, dnnl->engine, base[r]) == dnnl_success;
        if (ok && e->reorder[r] != NULL) {
            buffer[r] = tsr__cpu_alloc(backend->cache, e->chosen_bytes[r]);
            ok = buffer[r] != NULL && dnnl->memory_create(&chosen[r], &e->chosen[r], dnnl->engine,
                                                          buffer[r]) == dnnl_success;
        }
    }
    if (ok && e->scratch_bytes > 0) {
        scratch = tsr__cpu_alloc(backend->cache, e->scratch_bytes);
        ok = scratch != NULL && dnnl->memory_create(&scratch_mem, &e->scratch_md, dnnl->engine,
                                                    scratch) == dnnl_success;
    }
    ok =
        ok && dnnl->stream_create(&stream, dnnl->engine, dnnl_stream_default_flags) == dnnl_success;
    dnnl->omp_set_num_threads((int)k->threads);
    dnnl_exec_arg_t args[ROLES + 1];
    int nargs = 0;
    for (int r = 0; r < ROLES && ok; r++) {
        if (r == BIAS && !k->has_bias) {
            continue;
        }
        dnnl_memory_t m = chosen[r] != NULL ? chosen[r] : own[r];
        args[nargs++] = (dnnl_exec_arg_t){exec_arg(k->op, r), m};
        if (chosen[r] != NULL && !role_is_output(k->op, r)) {
            ok = run_reorder(dnnl, stream, e->reorder[r], own[r], chosen[r]);
        }
    }
    if (ok && scratch_mem != NULL) {
        args[nargs++] = (dnnl_exec_arg_t){DNNL_ARG_SCRATCHPAD, scratch_mem};
    }
    ok = ok && dnnl->primitive_execute(e->primitive, stream, nargs, args) == dnnl_success;
    for (int r = 0; r < ROLES && ok; r++) {
        if (chosen[r] != NULL && role_is_output(k->op, r)) {
            ok = run_reorder(dnnl, stream, e->reorder[r], chosen[r], own[r]);
        }
    }
    if (stream != NULL) {
        dnnl->stream_destroy(stream);
    }
    for (int r = 0; r < ROLES; r++) {
        if (own[r] != NULL) {
            dnnl->memory_destroy(own[r]);
        }
        if (chosen[r] != NULL) {
            dnnl->memory_destroy(chosen[r]);
        }
        tsr__cpu_free(backend->cache, buffer[r]);
    }
    if (scratch_mem != NULL) {
        dnnl->memory_destroy(scratch_mem);
    }
    tsr__cpu_free(backend->cache, scratch);
    return ok;
}

static char *base_of(const tsr_tensor_desc *t)
{
    return (char *)t->data + t->byte_offset;
}

int tsr__cpu_kernel_convolution_dnnl(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    const tsr__cpu_dnnl_api *dnnl = NULL;
    conv_entry *entry = NULL;
    conv_key key;
    last_impl[0] = '\0';
    if (args == NULL || args->struct_size < sizeof *args || args->inputs == NULL ||
        args->outputs == NULL || !key_build(backend, args, &key) ||
        (dnnl = tsr__cpu_dnnl_get()) == NULL || (entry = acquire(dnnl, &key)) == NULL) {
        return tsr__ref_kernel_convolution(backend, args);
    }
    char *base[ROLES] = {NULL};
    int in0, in1, out;
    roles_of(args->op, &in0, &in1, &out);
    base[in0] = base_of(&args->inputs[0]);
    base[in1] = base_of(&args->inputs[1]);
    base[out] = base_of(&args->outputs[0]);
    if (key.has_bias) {
        base[BIAS] = base_of(&args->inputs[2]);
    }
    int ran = execute(dnnl, backend, entry, base);
    if (ran) {
        snprintf(last_impl, sizeof last_impl, "%s", entry->impl);
    }
    release(dnnl, entry);
    return ran ? TSR_OK : tsr__ref_kernel_convolution(backend, args);
}
