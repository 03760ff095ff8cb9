/* NumPy .npz archives: a zip file of .npy members, stored (np.savez) or
 * deflated (np.savez_compressed).
 *
 * Only the central directory is trusted for sizes (members NumPy writes
 * with force_zip64 have 0xFFFFFFFF in their local headers); every offset is
 * checked against the file, a member's inflated size is bounded by
 * deflate's largest ratio (1032:1) before it is allocated, and each member's
 * CRC-32 is checked. Members are parsed by the .npy reader in memory. */
#include "io/npy.h"
#include "io/npz.h"
#include "runtime/alloc.h"

#include "runtime/error.h"

#include <zlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char OP[] = "tsr_load_npz";

enum {
    EOCD_SIZE = 22,
    EOCD_SEARCH = EOCD_SIZE + 65535, /* the archive comment is at most 64 KiB */
    CDIR_SIZE = 46,
    LOCAL_SIZE = 30,
    MAX_RATIO = 1032, /* deflate's largest expansion */
};

typedef struct npz_file {
    const unsigned char *data; /* the whole archive, read into memory */
    size_t size;
    const char *path;
} npz_file;

static uint32_t le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
    return le16(p) | le16(p + 2) << 16;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static int npz_bad(const npz_file *z, const char *what)
{
    return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: %s", OP, z->path, what);
}

/* One member as the central directory describes it. */
typedef struct npz_member {
    char name[256];
    uint32_t method, crc;
    uint64_t csize, usize, offset;
} npz_member;

/* Sizes and offset that the zip64 extra field carries instead (0xFFFFFFFF). */
static int npz_zip64(const npz_file *z, const unsigned char *extra, size_t len, npz_member *m)
{
    for (size_t at = 0; at + 4 <= len;) {
        uint32_t id = le16(extra + at), n = le16(extra + at + 2);
        if (at + 4 + n > len)
            break;
        if (id == 1) {
            const unsigned char *p = extra + at + 4, *end = p + n;
            uint64_t *fields[3] = {&m->usize, &m->csize, &m->offset};
            for (int i = 0; i < 3; i++) {
                if (*fields[i] != 0xFFFFFFFFu)
                    continue;
                if (end - p < 8)
                    return npz_bad(z, "zip64 extra field too short");
                *fields[i] = le64(p);
                p += 8;
            }
            return TSR_OK;
        }
        at += 4 + n;
    }
    return TSR_OK;
}

static int npz_read_member(const npz_file *z, size_t *at, npz_member *m)
{
    const unsigned char *p = z->data + *at;
    if (z->size - *at < CDIR_SIZE || le32(p) != 0x02014b50u)
        return npz_bad(z, "corrupt central directory");
    m->method = le16(p + 10);
    m->crc = le32(p + 16);
    m->csize = le32(p + 20);
    m->usize = le32(p + 24);
    size_t nlen = le16(p + 28), elen = le16(p + 30), clen = le16(p + 32);
    m->offset = le32(p + 42);
    if (z->size - *at - CDIR_SIZE < nlen + elen + clen)
        return npz_bad(z, "corrupt central directory");
    if (nlen == 0 || nlen >= sizeof m->name)
        return npz_bad(z, "member name empty or longer than 255 bytes");
    memcpy(m->name, p + CDIR_SIZE, nlen);
    m->name[nlen] = '\0';
    *at += CDIR_SIZE + nlen + elen + clen;
    return npz_zip64(z, p + CDIR_SIZE + nlen, elen, m);
}

/* The member's bytes, inflated and CRC-checked, in a new buffer. */
static int npz_extract(const npz_file *z, const npz_member *m, unsigned char **out)
{
    if (m->offset > z->size || z->size - m->offset < LOCAL_SIZE ||
        le32(z->data + m->offset) != 0x04034b50u)
        return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: member \"%s\": bad local header", OP,
                              z->path, m->name);
    const unsigned char *lh = z->data + m->offset;
    uint64_t start = m->offset + LOCAL_SIZE + le16(lh + 26) + le16(lh + 28);
    if (start > z->size || z->size - start < m->csize)
        return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: member \"%s\": data past the end", OP,
                              z->path, m->name);
    if (m->method != 0 && m->method != 8)
        return tsr__set_error(TSR_ERR_FORMAT,
                              "%s: %s: member \"%s\": compression method %u "
                              "(only stored and deflated)",
                              OP, z->path, m->name, m->method);
    if ((m->method == 0 && m->usize != m->csize) ||
        (m->method == 8 && m->usize / MAX_RATIO > m->csize + 1) || m->usize > SIZE_MAX / 2)
        return tsr__set_error(TSR_ERR_FORMAT,
                              "%s: %s: member \"%s\": size %llu does not fit "
                              "its %llu compressed bytes",
                              OP, z->path, m->name, (unsigned long long)m->usize,
                              (unsigned long long)m->csize);
    unsigned char *buf = tsr__malloc(m->usize ? (size_t)m->usize : 1);
    if (!buf)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: %s: out of memory", OP, z->path);
    bool ok = true;
    if (m->method == 0) {
        memcpy(buf, z->data + start, (size_t)m->usize);
    } else {
        z_stream s = {0};
        ok = inflateInit2(&s, -MAX_WBITS) == Z_OK;
        s.next_in = (Bytef *)(z->data + start);
        s.avail_in = (uInt)m->csize;
        s.next_out = buf;
        s.avail_out = (uInt)m->usize;
        ok = ok && m->csize <= UINT32_MAX && m->usize <= UINT32_MAX &&
             inflate(&s, Z_FINISH) == Z_STREAM_END && s.total_out == m->usize;
        inflateEnd(&s);
    }
    ok = ok && crc32(0L, buf, (uInt)m->usize) == m->crc;
    if (!ok) {
        free(buf);
        return tsr__set_error(TSR_ERR_FORMAT,
                              "%s: %s: member \"%s\": corrupt data (inflate or "
                              "CRC-32 failed)",
                              OP, z->path, m->name);
    }
    *out = buf;
    return TSR_OK;
}

/* Where the central directory starts and how many members it lists. */
static int npz_directory(const npz_file *z, size_t *start, size_t *count)
{
    if (z->size < EOCD_SIZE)
        return npz_bad(z, "not a zip archive (too short)");
    size_t lowest = z->size > EOCD_SEARCH ? z->size - EOCD_SEARCH : 0;
    for (size_t at = z->size - EOCD_SIZE + 1; at-- > lowest;) {
        const unsigned char *p = z->data + at;
        if (le32(p) != 0x06054b50u)
            continue;
        uint32_t n = le16(p + 10), off = le32(p + 16);
        if (n == 0xFFFF || off == 0xFFFFFFFFu)
            return npz_bad(z, "zip64 archives (over 65535 members or 4 GiB) are not supported");
        if (off > at)
            return npz_bad(z, "corrupt end of central directory");
        *start = off;
        *count = n;
        return TSR_OK;
    }
    return npz_bad(z, "not a zip archive (no end of central directory)");
}

static int npz_member_tensor(const npz_file *z, const npz_member *m, tsr_backend *backend,
                             char **name, tsr_tensor **t)
{
    size_t n = strlen(m->name);
    if (n < 5 || strcmp(m->name + n - 4, ".npy") != 0)
        return tsr__set_error(TSR_ERR_FORMAT, "%s: %s: member \"%s\" is not a .npy file", OP,
                              z->path, m->name);
    unsigned char *bytes = NULL;
    int st = npz_extract(z, m, &bytes);
    if (st != TSR_OK)
        return st;
    char what[600];
    snprintf(what, sizeof what, "%s: %s", z->path, m->name);
    st = tsr__npy_load_buffer(bytes, (size_t)m->usize, what, TSR_DTYPE_INFER, backend, t);
    free(bytes);
    if (st == TSR_OK && (*name = tsr__malloc(n - 3)) != NULL) {
        memcpy(*name, m->name, n - 4); /* the member's name without ".npy" */
        (*name)[n - 4] = '\0';
    } else if (st == TSR_OK) {
        tsr_tensor_release(*t);
        *t = NULL;
        st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", OP);
    }
    return st;
}

static int npz_load(const npz_file *z, tsr_backend *backend, char ***names, tsr_tensor ***tensors,
                    size_t *count)
{
    size_t at = 0, n = 0;
    int st = npz_directory(z, &at, &n);
    if (st != TSR_OK)
        return st;
    char **nm = tsr__calloc(n ? n : 1, sizeof *nm);
    tsr_tensor **ts = tsr__calloc(n ? n : 1, sizeof *ts);
    if (!nm || !ts)
        st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", OP);
    for (size_t i = 0; i < n && st == TSR_OK; i++) {
        npz_member m;
        st = npz_read_member(z, &at, &m);
        if (st == TSR_OK)
            st = npz_member_tensor(z, &m, backend, &nm[i], &ts[i]);
        for (size_t j = 0; j < i && st == TSR_OK; j++)
            if (strcmp(nm[j], nm[i]) == 0)
                st = tsr__set_error(TSR_ERR_FORMAT, "%s: %s: member \"%s\" appears twice", OP,
                                    z->path, m.name);
    }
    if (st != TSR_OK) {
        tsr_named_tensors_free(nm, ts, nm && ts ? n : 0);
        return st;
    }
    *names = nm;
    *tensors = ts;
    *count = n;
    return TSR_OK;
}

int tsr__npz_load_buffer(const void *data, size_t size, const char *name, tsr_backend *backend,
                         char ***names, tsr_tensor ***tensors, size_t *count)
{
    npz_file z = {data, size, name};
    return npz_load(&z, backend, names, tensors, count);
}

tsr_status tsr_load_npz(const char *path, tsr_backend *backend, char ***names,
                        tsr_tensor ***tensors, size_t *count)
{
    if (!path || !names || !tensors || !count)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: path, names, tensors and count must not be NULL", OP);
    FILE *f = fopen(path, "rb");
    if (!f)
        return tsr__set_error(TSR_ERR_IO, "%s: %s: cannot open file", OP, path);
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    rewind(f);
    unsigned char *data = size >= 0 ? tsr__malloc(size ? (size_t)size : 1) : NULL;
    int st = TSR_OK;
    if (size < 0)
        st = tsr__set_error(TSR_ERR_IO, "%s: %s: cannot determine the file size", OP, path);
    else if (!data)
        st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: %s: out of memory", OP, path);
    else if (fread(data, 1, (size_t)size, f) != (size_t)size)
        st = tsr__set_error(TSR_ERR_IO, "%s: %s: read error", OP, path);
    fclose(f);
    if (st == TSR_OK)
        st = tsr__npz_load_buffer(data, (size_t)size, path, backend, names, tensors, count);
    free(data);
    return (tsr_status)st;
}
