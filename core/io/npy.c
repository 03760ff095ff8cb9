/* NumPy .npy files: a small, strict reader and a writer.
 *
 * The header is a Python dict literal. Rather than a general parser, this
 * accepts exactly the three keys NumPy writes ('descr', 'fortran_order',
 * 'shape') with string, bool and int-tuple values, so a hostile file can only
 * be rejected, never misread. Sizes are checked before anything is allocated:
 * a header may announce any shape, but the loader allocates only what the
 * file (or buffer) actually holds. */
#include "io/npy.h"

#include "runtime/alloc.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* Longest string value we keep (descrs are at most a few characters). */
enum { NPY_STRING_CAPACITY = 64 };

typedef struct npy_descr {
    const char *descr;
    tsr_dtype dtype;
    size_t size;
} npy_descr;

/* The first row for a dtype is the one written by tsr_save_npy. One-byte
 * types carry no byte order; '<' and '=' are accepted for them as NumPy does. */
static const npy_descr npy_descrs[] = {
    {"|b1", TSR_BOOL, 1},    {"|u1", TSR_UINT8, 1},     {"|i1", TSR_INT8, 1},
    {"<i2", TSR_INT16, 2},   {"<i4", TSR_INT32, 4},     {"<i8", TSR_INT64, 8},
    {"<f2", TSR_FLOAT16, 2}, {"<u2", TSR_BFLOAT16, 2},  {"<f4", TSR_FLOAT32, 4},
    {"<f8", TSR_FLOAT64, 8}, {"<c8", TSR_COMPLEX64, 8}, {"<c16", TSR_COMPLEX128, 16},
    {"<b1", TSR_BOOL, 1},    {"=b1", TSR_BOOL, 1},      {"<u1", TSR_UINT8, 1},
    {"=u1", TSR_UINT8, 1},   {"<i1", TSR_INT8, 1},      {"=i1", TSR_INT8, 1},
};

const char *tsr__npy_descr(tsr_dtype dtype)
{
    for (size_t i = 0; i < sizeof npy_descrs / sizeof npy_descrs[0]; i++) {
        if (npy_descrs[i].dtype == dtype)
            return npy_descrs[i].descr;
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Header parsing                                                            */
/* ------------------------------------------------------------------------ */

typedef struct npy_parser {
    const char *start; /* first byte of the dict text */
    const char *p;
    const char *end;
    const char *name;
} npy_parser;

static int npy_fail(const npy_parser *ps, int status, const char *what)
{
    return tsr__set_error(status, "tsr_load_npy: %s: %s at header byte %zu", ps->name, what,
                          (size_t)(ps->p - ps->start));
}

static void npy_skip_space(npy_parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

/* Consumes `c` after optional whitespace. */
static bool npy_accept(npy_parser *ps, char c)
{
    npy_skip_space(ps);
    if (ps->p < ps->end && *ps->p == c) {
        ps->p++;
        return true;
    }
    return false;
}

/* A quoted string without escapes: NumPy never needs them for these keys. */
static int npy_parse_string(npy_parser *ps, char *buf, size_t capacity)
{
    npy_skip_space(ps);
    if (ps->p >= ps->end || (*ps->p != '\'' && *ps->p != '"'))
        return npy_fail(ps, TSR_ERR_FORMAT, "expected a quoted string");
    char quote = *ps->p++;
    size_t n = 0;
    while (ps->p < ps->end && *ps->p != quote) {
        unsigned char c = (unsigned char)*ps->p;
        if (c == '\n')
            break;
        if (c == '\\' || c < 0x20 || c >= 0x7f)
            return npy_fail(ps, TSR_ERR_FORMAT, "unsupported character in string");
        if (n + 1 >= capacity)
            return npy_fail(ps, TSR_ERR_FORMAT, "string too long");
        buf[n++] = (char)c;
        ps->p++;
    }
    if (ps->p >= ps->end || *ps->p != quote)
        return npy_fail(ps, TSR_ERR_FORMAT, "unterminated string");
    ps->p++;
    buf[n] = '\0';
    return TSR_OK;
}

static int npy_parse_bool(npy_parser *ps, bool *out)
{
    npy_skip_space(ps);
    size_t left = (size_t)(ps->end - ps->p);
    if (left >= 4 && memcmp(ps->p, "True", 4) == 0) {
        ps->p += 4;
        *out = true;
        return TSR_OK;
    }
    if (left >= 5 && memcmp(ps->p, "False", 5) == 0) {
        ps->p += 5;
        *out = false;
        return TSR_OK;
    }
    return npy_fail(ps, TSR_ERR_FORMAT, "expected True or False");
}

static int npy_parse_dim(npy_parser *ps, int64_t *out)
{
    npy_skip_space(ps);
    if (ps->p < ps->end && *ps->p == '-')
        return npy_fail(ps, TSR_ERR_FORMAT, "negative dimension in shape");
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
        return npy_fail(ps, TSR_ERR_FORMAT, "malformed shape: expected a dimension");
    int64_t value = 0;
    while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
        int digit = *ps->p - '0';
        if (value > (INT64_MAX - digit) / 10)
            return npy_fail(ps, TSR_ERR_OVERFLOW, "dimension too large");
        value = value * 10 + digit;
        ps->p++;
    }
    *out = value;
    return TSR_OK;
}

/* A Python tuple of non-negative ints: (), (5,), (2, 3) or (2, 3,). */
static int npy_parse_shape(npy_parser *ps, tsr__npy_header *h)
{
    if (!npy_accept(ps, '('))
        return npy_fail(ps, TSR_ERR_FORMAT, "malformed shape: expected '('");
    h->ndim = 0;
    bool trailing_comma = false;
    while (!npy_accept(ps, ')')) {
        if (h->ndim == TSR_MAX_DIMS)
            return npy_fail(ps, TSR_ERR_FORMAT, "shape has more than 16 dimensions");
        int st = npy_parse_dim(ps, &h->shape[h->ndim]);
        if (st != TSR_OK)
            return st;
        h->ndim++;
        trailing_comma = npy_accept(ps, ',');
        npy_skip_space(ps);
        if (!trailing_comma && (ps->p >= ps->end || *ps->p != ')'))
            return npy_fail(ps, TSR_ERR_FORMAT, "malformed shape: expected ',' or ')'");
    }
    if (h->ndim == 1 && !trailing_comma)
        return npy_fail(ps, TSR_ERR_FORMAT, "malformed shape: (n) is not a tuple, write (n,)");
    return TSR_OK;
}

static int npy_set_dtype(npy_parser *ps, const char *descr, tsr__npy_header *h)
{
    for (size_t i = 0; i < sizeof npy_descrs / sizeof npy_descrs[0]; i++) {
        if (strcmp(npy_descrs[i].descr, descr) == 0) {
            h->dtype = npy_descrs[i].dtype;
            h->raw_u2 = strcmp(descr, "<u2") == 0;
            return TSR_OK;
        }
    }
    const char *why = descr[0] == '>' ? "big-endian dtype" : "unsupported dtype";
    return tsr__set_error(TSR_ERR_DTYPE, "tsr_load_npy: %s: %s '%s'", ps->name, why, descr);
}

/* One "key: value" pair; `seen` has a bit per key so duplicates fail. */
static int npy_parse_item(npy_parser *ps, tsr__npy_header *h, unsigned *seen)
{
    char key[NPY_STRING_CAPACITY];
    int st = npy_parse_string(ps, key, sizeof key);
    if (st != TSR_OK)
        return st;
    if (!npy_accept(ps, ':'))
        return npy_fail(ps, TSR_ERR_FORMAT, "expected ':' after key");
    unsigned bit = strcmp(key, "descr") == 0           ? 1u
                   : strcmp(key, "fortran_order") == 0 ? 2u
                   : strcmp(key, "shape") == 0         ? 4u
                                                       : 0u;
    if (bit == 0)
        return npy_fail(ps, TSR_ERR_FORMAT, "unknown key in header dict");
    if (*seen & bit)
        return npy_fail(ps, TSR_ERR_FORMAT, "duplicate key in header dict");
    *seen |= bit;
    if (bit == 1u) {
        char descr[NPY_STRING_CAPACITY];
        npy_skip_space(ps);
        if (ps->p < ps->end && *ps->p == '[')
            return npy_fail(ps, TSR_ERR_DTYPE, "structured dtypes are not supported");
        st = npy_parse_string(ps, descr, sizeof descr);
        return st != TSR_OK ? st : npy_set_dtype(ps, descr, h);
    }
    if (bit == 2u) {
        bool fortran = false;
        st = npy_parse_bool(ps, &fortran);
        if (st == TSR_OK && fortran)
            return npy_fail(ps, TSR_ERR_FORMAT, "Fortran-ordered arrays are not supported");
        return st;
    }
    return npy_parse_shape(ps, h);
}

static int npy_parse_dict(npy_parser *ps, tsr__npy_header *h)
{
    unsigned seen = 0;
    if (!npy_accept(ps, '{'))
        return npy_fail(ps, TSR_ERR_FORMAT, "header is not a dict");
    while (!npy_accept(ps, '}')) {
        npy_skip_space(ps);
        if (ps->p >= ps->end)
            return npy_fail(ps, TSR_ERR_FORMAT, "header dict is not terminated");
        int st = npy_parse_item(ps, h, &seen);
        if (st != TSR_OK)
            return st;
        if (!npy_accept(ps, ',')) {
            npy_skip_space(ps);
            if (ps->p >= ps->end)
                return npy_fail(ps, TSR_ERR_FORMAT, "header dict is not terminated");
            if (*ps->p != '}')
                return npy_fail(ps, TSR_ERR_FORMAT, "expected ',' or '}' in header dict");
        }
    }
    npy_skip_space(ps);
    if (ps->p != ps->end)
        return npy_fail(ps, TSR_ERR_FORMAT, "unexpected text after header dict");
    if (seen != 7u)
        return npy_fail(ps, TSR_ERR_FORMAT,
                        "header dict lacks one of 'descr', 'fortran_order', 'shape'");
    return TSR_OK;
}

static size_t npy_dtype_size(tsr_dtype dtype)
{
    for (size_t i = 0; i < sizeof npy_descrs / sizeof npy_descrs[0]; i++) {
        if (npy_descrs[i].dtype == dtype)
            return npy_descrs[i].size;
    }
    return 0;
}

/* numel and data_bytes, refusing shapes whose size does not fit in int64
 * by the core's rule (tsr__check_shape): NumPy writes (0, 2^32, 2^32), but
 * as in PyTorch its storage size overflows, and the tensor could not be
 * made anyway. */
static int npy_compute_sizes(const char *name, tsr__npy_header *h)
{
    int64_t numel = 0;
    size_t elem = npy_dtype_size(h->dtype);
    int st = tsr__check_shape("tsr_load_npy", name, h->ndim, h->shape, elem, &numel);
    if (st != TSR_OK)
        return st;
    h->numel = numel;
    h->data_bytes = (size_t)numel * elem;
    return TSR_OK;
}

/* Magic, version and header length; sets h->data_offset. Whether that many
 * bytes are present is the caller's check. */
static int npy_parse_preamble(const unsigned char *b, size_t size, const char *name,
                              tsr__npy_header *h, size_t *header_len)
{
    if (size < 8 || memcmp(b, npy_magic, sizeof npy_magic) != 0)
        return tsr__set_error(TSR_ERR_FORMAT, "tsr_load_npy: %s: not a .npy file (bad magic)",
                              name);
    h->major = b[6];
    h->minor = b[7];
    if (h->major < 1 || h->major > 3 || h->minor != 0)
        return tsr__set_error(TSR_ERR_FORMAT, "tsr_load_npy: %s: unsupported format version %d.%d",
                              name, h->major, h->minor);
    size_t len_bytes = h->major == 1 ? 2 : 4;
    if (size < 8 + len_bytes)
        return tsr__set_error(TSR_ERR_FORMAT, "tsr_load_npy: %s: truncated header", name);
    size_t len = (size_t)b[8] | (size_t)b[9] << 8;
    if (len_bytes == 4)
        len |= (size_t)b[10] << 16 | (size_t)b[11] << 24;
    if (len > TSR__NPY_MAX_HEADER)
        return tsr__set_error(TSR_ERR_FORMAT,
                              "tsr_load_npy: %s: header length %zu exceeds the %d-byte limit", name,
                              len, TSR__NPY_MAX_HEADER);
    h->data_offset = 8 + len_bytes + len;
    *header_len = len;
    return TSR_OK;
}

int tsr__npy_parse_header(const void *data, size_t size, const char *name, tsr__npy_header *out)
{
    if (!data || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_load_npy: NULL buffer");
    if (!name)
        name = "(buffer)";
    tsr__npy_header h;
    memset(&h, 0, sizeof h);
    size_t header_len = 0;
    int st = npy_parse_preamble(data, size, name, &h, &header_len);
    if (st != TSR_OK)
        return st;
    if (size < h.data_offset)
        return tsr__set_error(TSR_ERR_FORMAT,
                              "tsr_load_npy: %s: truncated header (%zu of %zu bytes present)", name,
                              size - (h.data_offset - header_len), header_len);
    const char *text = (const char *)data + (h.data_offset - header_len);
    npy_parser ps = {text, text, text + header_len, name};
    st = npy_parse_dict(&ps, &h);
    if (st == TSR_OK)
        st = npy_compute_sizes(name, &h);
    if (st == TSR_OK)
        *out = h;
    return st;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

/* Creates the tensor from `data` (exactly h->data_bytes). Bool bytes other
 * than 0 and 1 are read as true, as NumPy does, so tessera only sees 0/1. */
static int npy_make_tensor(const tsr__npy_header *h, const unsigned char *data, const char *name,
                           tsr_backend *backend, tsr_tensor **out)
{
    unsigned char *fixed = NULL;
    if (h->dtype == TSR_BOOL) {
        for (size_t i = 0; i < h->data_bytes && !fixed; i++) {
            if (data[i] > 1)
                fixed = tsr__malloc(h->data_bytes);
        }
        if (fixed) {
            for (size_t i = 0; i < h->data_bytes; i++)
                fixed[i] = data[i] != 0;
            data = fixed;
        }
    }
    int st = tsr_from_host(data, h->data_bytes, h->ndim, h->shape, h->dtype, backend, out);
    free(fixed);
    if (st != TSR_OK)
        tsr__prefix_error("tsr_load_npy: %s", name);
    return st;
}

static int npy_truncated(const char *name, const tsr__npy_header *h, size_t present)
{
    return tsr__set_error(TSR_ERR_FORMAT,
                          "tsr_load_npy: %s: truncated data: a %s array of %lld elements needs "
                          "%zu bytes, the file holds %zu",
                          name, tsr_dtype_name(h->dtype), (long long)h->numel, h->data_bytes,
                          present);
}

int tsr__npy_check_dtype(const tsr__npy_header *h, tsr_dtype want, const char *op, const char *name)
{
    if (h->raw_u2 && want != TSR_BFLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: %s: dtype '<u2' (uint16) is not a tessera dtype; load it with "
                              "tsr_load_npy_as(..., TSR_BFLOAT16, ...) if it holds bfloat16 bits",
                              op, name);
    if (want != TSR_DTYPE_INFER && want != h->dtype)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: %s: the file holds %s, dtype asks for %s", op,
                              name, tsr_dtype_name(h->dtype),
                              tsr_dtype_name(want) ? tsr_dtype_name(want) : "an invalid dtype");
    return TSR_OK;
}

int tsr__npy_load_buffer(const void *data, size_t size, const char *name, tsr_dtype want,
                         tsr_backend *backend, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_load_npy: out must not be NULL");
    tsr__npy_header h;
    int st = tsr__npy_parse_header(data, size, name, &h);
    if (st != TSR_OK)
        return st;
    if (!name)
        name = "(buffer)";
    st = tsr__npy_check_dtype(&h, want, "tsr_load_npy", name);
    if (st != TSR_OK)
        return st;
    if (size - h.data_offset < h.data_bytes)
        return npy_truncated(name, &h, size - h.data_offset);
    return npy_make_tensor(&h, (const unsigned char *)data + h.data_offset, name, backend, out);
}

/* Reads the preamble and header dict into `prefix` (room for
 * TSR__NPY_MAX_PREAMBLE + TSR__NPY_MAX_HEADER bytes) and parses them. */
static int npy_read_header(FILE *f, const char *path, unsigned char *prefix, tsr__npy_header *h)
{
    size_t got = fread(prefix, 1, TSR__NPY_MAX_PREAMBLE, f);
    tsr__npy_header preamble;
    size_t header_len = 0;
    int st = npy_parse_preamble(prefix, got, path, &preamble, &header_len);
    if (st != TSR_OK)
        return st;
    if (preamble.data_offset > got)
        got += fread(prefix + got, 1, preamble.data_offset - got, f);
    return tsr__npy_parse_header(prefix, got, path, h);
}

static int npy_file_size(FILE *f, const char *path, size_t *out)
{
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size < 0)
        return tsr__set_error(TSR_ERR_IO, "tsr_load_npy: %s: cannot determine the file size", path);
    *out = (size_t)size;
    return TSR_OK;
}

static int npy_load_file(FILE *f, const char *path, tsr_dtype want, tsr_backend *backend,
                         tsr_tensor **out)
{
    size_t file_size = 0;
    int st = npy_file_size(f, path, &file_size);
    if (st != TSR_OK)
        return st;
    rewind(f);
    unsigned char *prefix = tsr__malloc(TSR__NPY_MAX_PREAMBLE + TSR__NPY_MAX_HEADER);
    if (!prefix)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tsr_load_npy: %s: out of memory", path);
    tsr__npy_header h;
    st = npy_read_header(f, path, prefix, &h);
    free(prefix);
    if (st == TSR_OK)
        st = tsr__npy_check_dtype(&h, want, "tsr_load_npy", path);
    if (st != TSR_OK)
        return st;
    size_t present = file_size > h.data_offset ? file_size - h.data_offset : 0;
    if (present < h.data_bytes)
        return npy_truncated(path, &h, present);
    unsigned char *data = tsr__malloc(h.data_bytes ? h.data_bytes : 1);
    if (!data)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tsr_load_npy: %s: cannot allocate %zu bytes",
                              path, h.data_bytes);
    if (fseek(f, (long)h.data_offset, SEEK_SET) != 0 ||
        fread(data, 1, h.data_bytes, f) != h.data_bytes) {
        free(data);
        return tsr__set_error(TSR_ERR_IO, "tsr_load_npy: %s: read error", path);
    }
    st = npy_make_tensor(&h, data, path, backend, out);
    free(data);
    return st;
}

tsr_status tsr_load_npy(const char *path, tsr_backend *backend, tsr_tensor **out)
{
    return tsr_load_npy_as(path, TSR_DTYPE_INFER, backend, out);
}

tsr_status tsr_load_npy_as(const char *path, tsr_dtype dtype, tsr_backend *backend,
                           tsr_tensor **out)
{
    if (!path || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tsr_load_npy: path and out must not be NULL");
    if (dtype != TSR_DTYPE_INFER && !tsr_dtype_name(dtype))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_load_npy: dtype %d is invalid",
                              (int)dtype);
    FILE *f = fopen(path, "rb");
    if (!f)
        return tsr__set_error(TSR_ERR_IO, "tsr_load_npy: %s: cannot open file", path);
    int st = npy_load_file(f, path, dtype, backend, out);
    fclose(f);
    return (tsr_status)st;
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                    */
/* ------------------------------------------------------------------------ */

/* Writes preamble + dict + padding + '\n' into buf (1024 bytes) and returns
 * its length; the data that follows is 64-byte aligned, as NumPy writes it.
 * With at most 16 dims the dict stays far below format 1.0's 64 KiB limit,
 * so format 2.0 is never needed. */
static size_t npy_format_header(const tsr_tensor *t, const char *descr, char *buf)
{
    char dict[600];
    int n =
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    int ndim = tsr_tensor_ndim(t);
    const int64_t *shape = tsr_tensor_shape(t);
    for (int i = 0; i < ndim; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, i + 1 < ndim ? "%lld, " : "%lld",
                      (long long)shape[i]);
    n += snprintf(dict + n, sizeof dict - (size_t)n, ndim == 1 ? ",), }" : "), }");
    size_t dict_len = (size_t)n;
    size_t total = 10 + dict_len + 1;
    size_t padded = (total + 63) / 64 * 64;
    size_t header_len = padded - 10;
    memcpy(buf, npy_magic, sizeof npy_magic);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (char)(header_len & 0xff);
    buf[9] = (char)(header_len >> 8);
    memcpy(buf + 10, dict, dict_len);
    memset(buf + 10 + dict_len, ' ', padded - 10 - dict_len - 1);
    buf[padded - 1] = '\n';
    return padded;
}

static int npy_write_file(const char *path, const char *header, size_t header_len, const void *data,
                          size_t bytes)
{
    size_t tmp_len = strlen(path) + 16;
    char *tmp = tsr__malloc(tmp_len);
    if (!tmp)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tsr_save_npy: %s: out of memory", path);
    snprintf(tmp, tmp_len, "%s.partial", path);
    /* Written beside the target and renamed, so a failure never leaves a
     * half-written file under the real name. */
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(tmp);
        return tsr__set_error(TSR_ERR_IO, "tsr_save_npy: %s: cannot create file", path);
    }
    bool ok = fwrite(header, 1, header_len, f) == header_len && fwrite(data, 1, bytes, f) == bytes;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok ? TSR_OK : tsr__set_error(TSR_ERR_IO, "tsr_save_npy: %s: write failed", path);
}

tsr_status tsr_save_npy(const char *path, const tsr_tensor *tensor)
{
    if (!path || !tensor)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tsr_save_npy: path and tensor must not be NULL");
    const char *descr = tsr__npy_descr(tsr_tensor_dtype(tensor));
    if (!descr)
        return tsr__set_error(TSR_ERR_DTYPE, "tsr_save_npy: %s: invalid dtype", path);
    size_t bytes = (size_t)tsr_tensor_numel(tensor) * npy_dtype_size(tsr_tensor_dtype(tensor));
    unsigned char *data = tsr__malloc(bytes ? bytes : 1);
    if (!data)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tsr_save_npy: %s: cannot allocate %zu bytes",
                              path, bytes);
    int st = tsr_to_host(tensor, data, bytes);
    if (st != TSR_OK) {
        tsr__prefix_error("tsr_save_npy: %s", path);
        free(data);
        return (tsr_status)st;
    }
    char header[1024];
    size_t header_len = npy_format_header(tensor, descr, header);
    st = npy_write_file(path, header, header_len, data, bytes);
    free(data);
    return (tsr_status)st;
}
