/* safetensors files: a u64 little-endian header length, a JSON header
 * {"NAME": {"dtype": "F32", "shape": [2, 3], "data_offsets": [BEGIN, END]},
 * "__metadata__": {"k": "v"}}, then the data (offsets from its start).
 *
 * Everything the header says is checked against the size of the source
 * before a byte of data is allocated: a header can announce any shape, but
 * only what the file holds is ever read. Reading goes through a small
 * source (a file or a memory buffer) so that the fuzzer runs the very code
 * that files do. */
#include "io/safetensors.h"
#include "runtime/alloc.h"

#include "runtime/error.h"
#include "tensor/shape.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char LOAD[] = "tsr_load_safetensors";
static const char SAVE[] = "tsr_save_safetensors";

typedef struct st_dtype {
    const char *name;
    tsr_dtype dtype;
} st_dtype;

/* Every dtype PyTorch writes; the format has no complex type. */
static const st_dtype st_dtypes[] = {
    {"F64", TSR_FLOAT64}, {"F32", TSR_FLOAT32}, {"F16", TSR_FLOAT16}, {"BF16", TSR_BFLOAT16},
    {"I64", TSR_INT64},   {"I32", TSR_INT32},   {"I16", TSR_INT16},   {"I8", TSR_INT8},
    {"U8", TSR_UINT8},    {"BOOL", TSR_BOOL},
};
enum { ST_DTYPES = sizeof st_dtypes / sizeof st_dtypes[0] };

/* ------------------------------------------------------------------------ */
/* Sources                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct st_source {
    FILE *file;                /* or */
    const unsigned char *data; /* a buffer */
    uint64_t size;
    const char *name;
} st_source;

static int st_read(const st_source *src, uint64_t offset, void *dst, size_t bytes)
{
    if (offset > src->size || bytes > src->size - offset)
        return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: truncated: %zu bytes at %llu", LOAD,
                              src->name, bytes, (unsigned long long)offset);
    if (!src->file) {
        memcpy(dst, src->data + offset, bytes);
        return TSR_OK;
    }
    if (fseeko(src->file, (off_t)offset, SEEK_SET) != 0 || fread(dst, 1, bytes, src->file) != bytes)
        return tsr__set_error(TSR_ERR_IO, "%s: %s: read error", LOAD, src->name);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* The header                                                                */
/* ------------------------------------------------------------------------ */

typedef struct st_entry {
    const char *name; /* borrowed from the cJSON tree */
    tsr_dtype dtype;
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
    uint64_t begin, end;
} st_entry;

static int st_bad(const st_source *src, const char *tensor, const char *what)
{
    return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: tensor \"%s\": %s", LOAD, src->name, tensor,
                          what);
}

/* A JSON number that is an exact non-negative integer below 2^53. */
static bool st_uint(const cJSON *item, uint64_t *out)
{
    if (!cJSON_IsNumber(item))
        return false;
    double v = item->valuedouble;
    if (!(v >= 0 && v < 9007199254740992.0) || v != (double)(uint64_t)v)
        return false;
    *out = (uint64_t)v;
    return true;
}

static int st_parse_entry(const st_source *src, const cJSON *item, st_entry *e)
{
    e->name = item->string;
    if (!cJSON_IsObject(item))
        return st_bad(src, e->name, "is not a JSON object");
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(item, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(item, "shape");
    const cJSON *offsets = cJSON_GetObjectItemCaseSensitive(item, "data_offsets");
    if (!cJSON_IsString(dtype) || !cJSON_IsArray(shape) || !cJSON_IsArray(offsets))
        return st_bad(src, e->name,
                      "needs \"dtype\" (string), \"shape\" and \"data_offsets\" "
                      "(arrays)");
    size_t k = 0;
    while (k < ST_DTYPES && strcmp(st_dtypes[k].name, dtype->valuestring) != 0)
        k++;
    if (k == ST_DTYPES)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: %s: tensor \"%s\": dtype \"%.32s\" has no "
                              "tessera dtype",
                              LOAD, src->name, e->name, dtype->valuestring);
    e->dtype = st_dtypes[k].dtype;
    int n = cJSON_GetArraySize(shape);
    if (n > TSR_MAX_DIMS)
        return st_bad(src, e->name, "shape has more than 16 dimensions");
    e->ndim = 0;
    for (const cJSON *d = shape->child; d; d = d->next) {
        uint64_t v = 0;
        if (!st_uint(d, &v) || v > (uint64_t)INT64_MAX)
            return st_bad(src, e->name, "shape holds something other than sizes");
        e->shape[e->ndim++] = (int64_t)v;
    }
    if (cJSON_GetArraySize(offsets) != 2 || !st_uint(offsets->child, &e->begin) ||
        !st_uint(offsets->child->next, &e->end) || e->begin > e->end)
        return st_bad(src, e->name, "data_offsets is not [BEGIN, END] with BEGIN <= END");
    int64_t numel = 0;
    size_t elem = tsr_dtype_size(e->dtype);
    if (tsr__check_shape(LOAD, e->name, e->ndim, e->shape, elem, &numel) != TSR_OK)
        return st_bad(src, e->name, "shape is too large");
    if ((uint64_t)numel * elem != e->end - e->begin)
        return st_bad(src, e->name, "data_offsets span a size other than the shape's");
    return TSR_OK;
}

static int st_check_metadata(const st_source *src, const cJSON *item)
{
    if (!cJSON_IsObject(item))
        return st_bad(src, "__metadata__", "is not a JSON object");
    for (const cJSON *v = item->child; v; v = v->next)
        if (!cJSON_IsString(v))
            return st_bad(src, "__metadata__", "holds a value that is not a string");
    return TSR_OK;
}

static int st_by_offset(const void *a, const void *b)
{
    const st_entry *x = a, *y = b;
    return x->begin < y->begin   ? -1
           : x->begin > y->begin ? 1
                                 : (x->end > y->end) - (x->end < y->end);
}

/* Entries of the header in data order, checked against `data_size`. */
static int st_parse_header(const st_source *src, const cJSON *root, uint64_t data_size,
                           st_entry **out, size_t *count)
{
    if (!cJSON_IsObject(root))
        return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: the header is not a JSON object", LOAD,
                              src->name);
    size_t n = 0;
    for (const cJSON *c = root->child; c; c = c->next)
        n++;
    st_entry *e = tsr__calloc(n ? n : 1, sizeof *e);
    if (!e)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: %s: out of memory", LOAD, src->name);
    size_t k = 0;
    int st = TSR_OK;
    for (const cJSON *c = root->child; c && st == TSR_OK; c = c->next) {
        if (strcmp(c->string, "__metadata__") == 0) {
            st = st_check_metadata(src, c);
            continue;
        }
        for (size_t j = 0; j < k && st == TSR_OK; j++)
            if (strcmp(e[j].name, c->string) == 0)
                st = st_bad(src, c->string, "is named twice");
        if (st == TSR_OK)
            st = st_parse_entry(src, c, &e[k]);
        if (st == TSR_OK && e[k].end > data_size)
            st = st_bad(src, c->string, "data_offsets reach past the end of the file");
        k++;
    }
    if (st == TSR_OK)
        qsort(e, k, sizeof *e, st_by_offset);
    for (size_t j = 1; j < k && st == TSR_OK; j++)
        if (e[j].begin < e[j - 1].end)
            st = st_bad(src, e[j].name, "data overlaps another tensor's");
    if (st != TSR_OK) {
        free(e);
        return st;
    }
    *out = e;
    *count = k;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

static int st_make_tensor(const st_source *src, const st_entry *e, uint64_t data_start,
                          tsr_backend *backend, tsr_tensor **out)
{
    size_t bytes = (size_t)(e->end - e->begin);
    unsigned char *buf = tsr__malloc(bytes ? bytes : 1);
    if (!buf)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: %s: cannot allocate %zu bytes", LOAD,
                              src->name, bytes);
    int st = st_read(src, data_start + e->begin, buf, bytes);
    /* bool bytes other than 0 and 1 are read as true, as PyTorch does */
    for (size_t i = 0; st == TSR_OK && e->dtype == TSR_BOOL && i < bytes; i++)
        buf[i] = buf[i] != 0;
    if (st == TSR_OK) {
        st = tsr_from_host(buf, bytes, e->ndim, e->shape, e->dtype, backend, out);
        if (st != TSR_OK)
            tsr__prefix_error("%s: %s: tensor \"%s\"", LOAD, src->name, e->name);
    }
    free(buf);
    return st;
}

static int st_make_all(const st_source *src, const st_entry *e, size_t n, uint64_t data_start,
                       tsr_backend *backend, char ***names, tsr_tensor ***tensors)
{
    char **nm = tsr__calloc(n ? n : 1, sizeof *nm);
    tsr_tensor **ts = tsr__calloc(n ? n : 1, sizeof *ts);
    int st = nm && ts
                 ? TSR_OK
                 : tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: %s: out of memory", LOAD, src->name);
    for (size_t i = 0; i < n && st == TSR_OK; i++) {
        nm[i] = tsr__strdup(e[i].name);
        st = nm[i] ? st_make_tensor(src, &e[i], data_start, backend, &ts[i])
                   : tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", LOAD);
    }
    if (st != TSR_OK) {
        tsr_named_tensors_free(nm, ts, nm && ts ? n : 0);
        return st;
    }
    *names = nm;
    *tensors = ts;
    return TSR_OK;
}

/* meta_value (when not NULL) gets a copy of __metadata__[meta_key], or an
 * error when the file has none. */
static int st_metadata(const st_source *src, const cJSON *root, const char *meta_key,
                       char **meta_value)
{
    const cJSON *md = cJSON_GetObjectItemCaseSensitive(root, "__metadata__");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(md, meta_key);
    if (!cJSON_IsString(v))
        return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: __metadata__ has no \"%s\"", LOAD, src->name,
                              meta_key);
    *meta_value = tsr__strdup(v->valuestring);
    return *meta_value ? TSR_OK : tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", LOAD);
}

static int st_load(const st_source *src, tsr_backend *backend, const char *meta_key,
                   char **meta_value, char ***names, tsr_tensor ***tensors, size_t *count)
{
    unsigned char len_bytes[8];
    if (src->size < 8)
        return tsr__set_error(TSR_ERR_FORMAT,
                              "%s: %s: %llu bytes, shorter than the 8-byte "
                              "header length",
                              LOAD, src->name, (unsigned long long)src->size);
    int st = st_read(src, 0, len_bytes, 8);
    if (st != TSR_OK)
        return st;
    uint64_t len = 0;
    for (int i = 7; i >= 0; i--)
        len = len << 8 | len_bytes[i];
    if (len > TSR__SAFETENSORS_MAX_HEADER)
        return tsr__set_error(TSR_ERR_FORMAT,
                              "%s: %s: header length %llu exceeds the %llu-byte "
                              "limit",
                              LOAD, src->name, (unsigned long long)len,
                              TSR__SAFETENSORS_MAX_HEADER);
    if (len > src->size - 8)
        return tsr__set_error(TSR_ERR_FORMAT,
                              "%s: %s: header length %llu exceeds the file's "
                              "%llu bytes",
                              LOAD, src->name, (unsigned long long)len,
                              (unsigned long long)src->size);
    char *text = tsr__malloc((size_t)len + 1);
    if (!text)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: %s: out of memory", LOAD, src->name);
    st = st_read(src, 8, text, (size_t)len);
    cJSON *root = NULL;
    if (st == TSR_OK) {
        root = cJSON_ParseWithLength(text, (size_t)len);
        if (!root)
            st = tsr__set_error(TSR_ERR_FORMAT, "%s: %s: the header is not valid JSON", LOAD,
                                src->name);
    }
    free(text);
    st_entry *e = NULL;
    size_t n = 0;
    if (st == TSR_OK)
        st = st_parse_header(src, root, src->size - 8 - len, &e, &n);
    char *value = NULL;
    if (st == TSR_OK && meta_key)
        st = st_metadata(src, root, meta_key, &value);
    if (st == TSR_OK)
        st = st_make_all(src, e, n, 8 + len, backend, names, tensors);
    if (st == TSR_OK) {
        *count = n;
        if (meta_value)
            *meta_value = value;
    } else {
        free(value);
    }
    free(e);
    cJSON_Delete(root);
    return st;
}

static int st_check_outs(char ***names, tsr_tensor ***tensors, size_t *count)
{
    if (!names || !tensors || !count)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: names, tensors and count must not be NULL", LOAD);
    return TSR_OK;
}

int tsr__safetensors_load_buffer(const void *data, size_t size, const char *name,
                                 tsr_backend *backend, char ***names, tsr_tensor ***tensors,
                                 size_t *count)
{
    int st = st_check_outs(names, tensors, count);
    if (st != TSR_OK)
        return st;
    if (!data)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: data must not be NULL", LOAD);
    st_source src = {NULL, data, size, name ? name : "(buffer)"};
    return st_load(&src, backend, NULL, NULL, names, tensors, count);
}

tsr_status tsr_load_safetensors(const char *path, tsr_backend *backend, char ***names,
                                tsr_tensor ***tensors, size_t *count)
{
    return (tsr_status)tsr__safetensors_load_meta(path, backend, NULL, NULL, names, tensors, count);
}

int tsr__safetensors_load_meta(const char *path, tsr_backend *backend, const char *meta_key,
                               char **meta_value, char ***names, tsr_tensor ***tensors,
                               size_t *count)
{
    int st = st_check_outs(names, tensors, count);
    if (st != TSR_OK)
        return (tsr_status)st;
    if (!path)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: path must not be NULL", LOAD);
    FILE *f = fopen(path, "rb");
    if (!f)
        return tsr__set_error(TSR_ERR_IO, "%s: %s: cannot open file", LOAD, path);
    off_t size = -1;
    if (fseeko(f, 0, SEEK_END) == 0)
        size = ftello(f);
    st_source src = {f, NULL, size < 0 ? 0 : (uint64_t)size, path};
    st = size < 0 ? tsr__set_error(TSR_ERR_IO, "%s: %s: cannot determine the file size", LOAD, path)
                  : st_load(&src, backend, meta_key, meta_value, names, tensors, count);
    fclose(f);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                    */
/* ------------------------------------------------------------------------ */

static const char *st_dtype_name(tsr_dtype dtype)
{
    for (size_t k = 0; k < ST_DTYPES; k++)
        if (st_dtypes[k].dtype == dtype)
            return st_dtypes[k].name;
    return NULL;
}

static int st_check_save(const char *path, const char *const *names,
                         const tsr_tensor *const *tensors, size_t count)
{
    if (!path || (count > 0 && (!names || !tensors)))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: path, names and tensors must not be NULL", SAVE);
    for (size_t i = 0; i < count; i++) {
        if (!tensors[i])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors[%zu] is NULL", SAVE, i);
        if (!names[i] || !names[i][0] || strcmp(names[i], "__metadata__") == 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: names[%zu] must be a non-empty name other than "
                                  "\"__metadata__\"",
                                  SAVE, i);
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                      "%s: names[%zu]: \"%s\" is used twice", SAVE, i, names[i]);
        if (!st_dtype_name(tsr_tensor_dtype(tensors[i])))
            return tsr__set_error(TSR_ERR_DTYPE, "%s: tensors[%zu]: safetensors has no %s dtype",
                                  SAVE, i, tsr_dtype_name(tsr_tensor_dtype(tensors[i])));
    }
    return TSR_OK;
}

/* The header text, padded with spaces to a multiple of 8 bytes. */
static char *st_header(const char *const *names, const tsr_tensor *const *tensors, size_t count,
                       const char *meta_key, const char *meta_value, size_t *len)
{
    cJSON *root = cJSON_CreateObject();
    if (root && meta_key) {
        cJSON *md = cJSON_AddObjectToObject(root, "__metadata__");
        if (!md || !cJSON_AddStringToObject(md, meta_key, meta_value)) {
            cJSON_Delete(root);
            root = NULL;
        }
    }
    uint64_t offset = 0;
    for (size_t i = 0; root && i < count; i++) {
        const tsr_tensor *t = tensors[i];
        uint64_t bytes = (uint64_t)tsr_tensor_numel(t) * tsr_dtype_size(tsr_tensor_dtype(t));
        cJSON *e = cJSON_AddObjectToObject(root, names[i]);
        cJSON *shape = e ? cJSON_AddArrayToObject(e, "shape") : NULL;
        cJSON *offsets = shape ? cJSON_AddArrayToObject(e, "data_offsets") : NULL;
        bool ok =
            offsets && cJSON_AddStringToObject(e, "dtype", st_dtype_name(tsr_tensor_dtype(t)));
        for (int d = 0; ok && d < tsr_tensor_ndim(t); d++)
            ok = cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)tsr_tensor_shape(t)[d]));
        ok = ok && cJSON_AddItemToArray(offsets, cJSON_CreateNumber((double)offset)) &&
             cJSON_AddItemToArray(offsets, cJSON_CreateNumber((double)(offset + bytes)));
        offset += bytes;
        if (!ok) {
            cJSON_Delete(root);
            root = NULL;
        }
    }
    char *text = root ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return NULL;
    size_t n = strlen(text), padded = (n + 7) / 8 * 8;
    char *out = tsr__realloc(text, padded + 1);
    if (!out) {
        free(text);
        return NULL;
    }
    memset(out + n, ' ', padded - n);
    out[padded] = '\0';
    *len = padded;
    return out;
}

static int st_write_data(FILE *f, const tsr_tensor *t)
{
    size_t bytes = (size_t)tsr_tensor_numel(t) * tsr_dtype_size(tsr_tensor_dtype(t));
    unsigned char *buf = tsr__malloc(bytes ? bytes : 1);
    if (!buf)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes", SAVE, bytes);
    int st = tsr_to_host(t, buf, bytes);
    if (st != TSR_OK)
        tsr__prefix_error("%s", SAVE);
    else if (fwrite(buf, 1, bytes, f) != bytes)
        st = tsr__set_error(TSR_ERR_IO, "%s: write failed", SAVE);
    free(buf);
    return st;
}

static int st_write(FILE *f, const char *header, size_t len, const tsr_tensor *const *tensors,
                    size_t count)
{
    unsigned char len_bytes[8];
    for (int i = 0; i < 8; i++)
        len_bytes[i] = (unsigned char)((uint64_t)len >> (8 * i));
    if (fwrite(len_bytes, 1, 8, f) != 8 || fwrite(header, 1, len, f) != len)
        return tsr__set_error(TSR_ERR_IO, "%s: write failed", SAVE);
    int st = TSR_OK;
    for (size_t i = 0; i < count && st == TSR_OK; i++)
        st = st_write_data(f, tensors[i]);
    return st;
}

tsr_status tsr_save_safetensors(const char *path, const char *const *names,
                                const tsr_tensor *const *tensors, size_t count)
{
    return (tsr_status)tsr__safetensors_save_meta(path, names, tensors, count, NULL, NULL);
}

int tsr__safetensors_save_meta(const char *path, const char *const *names,
                               const tsr_tensor *const *tensors, size_t count, const char *meta_key,
                               const char *meta_value)
{
    int st = st_check_save(path, names, tensors, count);
    if (st != TSR_OK)
        return st;
    size_t len = 0;
    char *header = st_header(names, tensors, count, meta_key, meta_value, &len);
    size_t tmp_len = strlen(path) + 16;
    char *tmp = tsr__malloc(tmp_len);
    if (!header || !tmp) {
        free(header);
        free(tmp);
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: %s: out of memory", SAVE, path);
    }
    /* beside the target and renamed, so a failure leaves no half file */
    snprintf(tmp, tmp_len, "%s.partial", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        st = tsr__set_error(TSR_ERR_IO, "%s: %s: cannot create file", SAVE, path);
    else {
        st = st_write(f, header, len, tensors, count);
        if (fclose(f) != 0 && st == TSR_OK)
            st = tsr__set_error(TSR_ERR_IO, "%s: %s: write failed", SAVE, path);
        if (st == TSR_OK && rename(tmp, path) != 0)
            st =
                tsr__set_error(TSR_ERR_IO, "%s: %s: cannot rename the file into place", SAVE, path);
        if (st != TSR_OK)
            remove(tmp);
    }
    free(tmp);
    free(header);
    return st;
}
