/* tsr_load_npy / tsr_save_npy: round trips for every dtype and shape kind, and
 * one test per malformed-file rule, each asserting the status and the message. */
#define _POSIX_C_SOURCE 200809L

#include "tessera/tessera.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
static char temp_dir[256];

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: %s: check failed: %s\n  ", __FILE__, __LINE__, __func__,       \
                    #cond);                                                                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            failures++;                                                                            \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_STATUS(got, want)                                                                    \
    CHECK((got) == (want), "status %s, expected %s (message: %s)", tsr_status_name(got),           \
          tsr_status_name(want), tsr_last_error())

/* ------------------------------------------------------------------------ */
/* Helpers: files written byte by byte, as NumPy (or a broken writer) would  */
/* ------------------------------------------------------------------------ */

static void temp_path(const char *name, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", temp_dir, name);
}

static void write_bytes(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fwrite(bytes, 1, n, f);
    fclose(f);
}

/* A file of format `major`.`minor` with `dict` padded to 64 bytes and ended by
 * '\n', followed by `data`. */
static void write_npy(const char *path, int major, int minor, const char *dict, const void *data,
                      size_t data_len)
{
    size_t len_bytes = major == 1 ? 2 : 4;
    size_t dict_len = strlen(dict);
    size_t total = (8 + len_bytes + dict_len + 1 + 63) / 64 * 64;
    size_t header_len = total - 8 - len_bytes;
    unsigned char *buf = malloc(total + data_len);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = (unsigned char)minor;
    for (size_t i = 0; i < len_bytes; i++)
        buf[8 + i] = (unsigned char)(header_len >> (8 * i));
    memcpy(buf + 8 + len_bytes, dict, dict_len);
    memset(buf + 8 + len_bytes + dict_len, ' ', header_len - dict_len - 1);
    buf[total - 1] = '\n';
    if (data_len)
        memcpy(buf + total, data, data_len);
    write_bytes(path, buf, total + data_len);
    free(buf);
}

#define WRITE_LITERAL(path, text) write_bytes((path), (text), sizeof(text) - 1)

static size_t read_file(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* Loads `path` expecting failure with `status` and a message containing both
 * the path and `text`. */
static void expect_load_error(const char *test, const char *path, int status, const char *text)
{
    tsr_tensor *t = NULL;
    tsr_clear_error();
    int st = tsr_load_npy(path, NULL, &t);
    const char *msg = tsr_last_error();
    if (st != status || t != NULL || !strstr(msg, text) || !strstr(msg, path)) {
        fprintf(stderr,
                "%s: loading %s: status %s (expected %s), out %s, message \"%s\" (expected "
                "to contain \"%s\" and the path)\n",
                test, path, tsr_status_name(st), tsr_status_name(status), t ? "set" : "untouched",
                msg, text);
        failures++;
    }
    tsr_tensor_release(t);
}

static void expect_dict_error(const char *test, const char *dict, int status, const char *text)
{
    char path[512];
    temp_path(test, path, sizeof path);
    unsigned char data[64] = {0};
    write_npy(path, 1, 0, dict, data, sizeof data);
    expect_load_error(test, path, status, text);
}

/* Fills `n` bytes of a valid element pattern for dtype (bools 0/1). */
static void fill_pattern(tsr_dtype dtype, unsigned char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = dtype == TSR_BOOL ? (unsigned char)(i % 3 == 1) : (unsigned char)(i * 37 + 11);
}

/* Saves a tensor of `dtype` and `shape`, loads it back, and compares every
 * property and byte. */
static void round_trip(const char *test, tsr_dtype dtype, int ndim, const int64_t *shape)
{
    int64_t numel = 1;
    for (int i = 0; i < ndim; i++)
        numel *= shape[i];
    size_t bytes = (size_t)numel * tsr_dtype_size(dtype);
    unsigned char *in = malloc(bytes + 1), *back = malloc(bytes + 1);
    fill_pattern(dtype, in, bytes);
    char path[512];
    snprintf(path, sizeof path, "%s/%s_%s.npy", temp_dir, test, tsr_dtype_name(dtype));
    tsr_tensor *t = NULL, *u = NULL;
    int st = tsr_from_host(in, bytes, ndim, shape, dtype, NULL, &t);
    if (st == TSR_OK)
        st = tsr_save_npy(path, t);
    if (st == TSR_OK)
        st = tsr_load_npy_as(path, dtype, NULL, &u);
    if (st == TSR_OK)
        st = tsr_to_host(u, back, bytes);
    bool ok = st == TSR_OK && tsr_tensor_dtype(u) == dtype && tsr_tensor_ndim(u) == ndim &&
              memcmp(tsr_tensor_shape(u), shape, sizeof(int64_t) * (size_t)ndim) == 0 &&
              memcmp(in, back, bytes) == 0;
    if (!ok) {
        fprintf(stderr,
                "%s: %s round trip: status %s (%s), dtype %s (expected %s), ndim %d "
                "(expected %d), bytes %s\n",
                test, tsr_dtype_name(dtype), tsr_status_name(st), tsr_last_error(),
                u ? tsr_dtype_name(tsr_tensor_dtype(u)) : "-", tsr_dtype_name(dtype),
                u ? tsr_tensor_ndim(u) : -1, ndim,
                st == TSR_OK && memcmp(in, back, bytes) == 0 ? "equal" : "differ");
        failures++;
    }
    tsr_tensor_release(t);
    tsr_tensor_release(u);
    free(in);
    free(back);
}

/* ------------------------------------------------------------------------ */
/* Round trips                                                               */
/* ------------------------------------------------------------------------ */

static void round_trip_preserves_every_dtype(void)
{
    const int64_t shape[2] = {2, 3};
    for (int d = 0; d < TSR_DTYPE_COUNT; d++)
        round_trip(__func__, (tsr_dtype)d, 2, shape);
}

static void round_trip_preserves_zero_dim_tensors(void)
{
    const int64_t unused[1] = {0};
    for (int d = 0; d < TSR_DTYPE_COUNT; d++)
        round_trip(__func__, (tsr_dtype)d, 0, unused);
}

static void round_trip_preserves_empty_shapes(void)
{
    const int64_t a[2] = {0, 3}, b[3] = {3, 0, 2}, c[1] = {0};
    round_trip("empty_0x3", TSR_FLOAT32, 2, a);
    round_trip("empty_3x0x2", TSR_INT64, 3, b);
    round_trip("empty_0", TSR_BFLOAT16, 1, c);
}

static void round_trip_preserves_sixteen_dims(void)
{
    int64_t shape[TSR_MAX_DIMS];
    for (int i = 0; i < TSR_MAX_DIMS; i++)
        shape[i] = i % 5 == 0 ? 2 : 1;
    round_trip(__func__, TSR_INT16, TSR_MAX_DIMS, shape);
}

static void save_writes_numpy_header_64_byte_aligned(void)
{
    const int64_t shape[1] = {5};
    float v[5] = {1, 2, 3, 4, 5};
    tsr_tensor *t = NULL;
    char path[512];
    temp_path("aligned.npy", path, sizeof path);
    int st = tsr_from_host(v, sizeof v, 1, shape, TSR_FLOAT32, NULL, &t);
    CHECK_STATUS(st, TSR_OK);
    st = tsr_save_npy(path, t);
    tsr_tensor_release(t);
    CHECK_STATUS(st, TSR_OK);
    unsigned char buf[256];
    size_t n = read_file(path, buf, sizeof buf);
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }";
    /* 10 + 58 + 1 bytes, padded to 128 as NumPy pads them. */
    CHECK(n == 128 + sizeof v, "file size %zu, expected %zu", n, 128 + sizeof v);
    CHECK(memcmp(buf, "\x93NUMPY\x01\x00", 8) == 0, "magic/version bytes differ");
    CHECK(buf[8] == 118 && buf[9] == 0, "header length %d, expected 118", buf[8] | buf[9] << 8);
    CHECK(memcmp(buf + 10, dict, strlen(dict)) == 0, "dict \"%.*s\", expected \"%s\"",
          (int)strlen(dict), (const char *)buf + 10, dict);
    CHECK(buf[127] == '\n', "header ends with 0x%02x, expected a newline", buf[127]);
}

static void save_writes_bfloat16_as_u2(void)
{
    const int64_t shape[2] = {1, 2};
    uint16_t v[2] = {0x3f80, 0xc000};
    tsr_tensor *t = NULL;
    char path[512];
    temp_path("bf16.npy", path, sizeof path);
    int st = tsr_from_host(v, sizeof v, 2, shape, TSR_BFLOAT16, NULL, &t);
    CHECK_STATUS(st, TSR_OK);
    st = tsr_save_npy(path, t);
    tsr_tensor_release(t);
    CHECK_STATUS(st, TSR_OK);
    unsigned char buf[256];
    size_t n = read_file(path, buf, sizeof buf - 1);
    buf[n] = '\0';
    CHECK(strstr((const char *)buf + 10, "'descr': '<u2'") != NULL, "header: %s",
          (const char *)buf + 10);
    CHECK(strstr((const char *)buf + 10, "'shape': (1, 2)") != NULL, "header: %s",
          (const char *)buf + 10);
}

static void load_refuses_u2_unless_asked_for_bfloat16(void)
{
    const uint16_t v[2] = {0x3f80, 0xc000};
    char path[512];
    temp_path("u2.npy", path, sizeof path);
    write_npy(path, 1, 0, "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", v,
              sizeof v);
    expect_load_error("u2_default", path, TSR_ERR_DTYPE, "'<u2' (uint16) is not a tessera dtype");
    tsr_tensor *t = NULL;
    tsr_clear_error();
    int st = tsr_load_npy_as(path, TSR_FLOAT16, NULL, &t);
    CHECK(st == TSR_ERR_DTYPE && t == NULL && strstr(tsr_last_error(), "uint16"),
          "u2 as float16: %s (%s)", tsr_status_name(st), tsr_last_error());
    uint16_t back[2] = {0, 0};
    st = tsr_load_npy_as(path, TSR_BFLOAT16, NULL, &t);
    CHECK_STATUS(st, TSR_OK);
    CHECK(tsr_tensor_dtype(t) == TSR_BFLOAT16, "dtype %s", tsr_dtype_name(tsr_tensor_dtype(t)));
    st = tsr_to_host(t, back, sizeof back);
    tsr_tensor_release(t);
    CHECK_STATUS(st, TSR_OK);
    CHECK(back[0] == 0x3f80 && back[1] == 0xc000, "bits %04x %04x", back[0], back[1]);
}

static void load_as_refuses_another_dtype(void)
{
    const int32_t v[2] = {1, 2};
    char path[512];
    temp_path("as_i4.npy", path, sizeof path);
    write_npy(path, 1, 0, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", v,
              sizeof v);
    tsr_tensor *t = NULL;
    int st = tsr_load_npy_as(path, TSR_INT64, NULL, &t);
    CHECK(st == TSR_ERR_DTYPE && t == NULL && strstr(tsr_last_error(), "holds int32") &&
              strstr(tsr_last_error(), "asks for int64"),
          "i4 as int64: %s (%s)", tsr_status_name(st), tsr_last_error());
    st = tsr_load_npy_as(path, (tsr_dtype)999, NULL, &t);
    CHECK(st == TSR_ERR_INVALID_ARGUMENT && t == NULL && strstr(tsr_last_error(), "dtype"),
          "bad dtype: %s (%s)", tsr_status_name(st), tsr_last_error());
}

static void load_accepts_format_versions_1_2_and_3(void)
{
    const int64_t want[2] = {2, 2};
    int32_t v[4] = {1, -2, 3, -4};
    for (int major = 1; major <= 3; major++) {
        char path[512], name[64];
        snprintf(name, sizeof name, "version%d.npy", major);
        temp_path(name, path, sizeof path);
        write_npy(path, major, 0, "{\"descr\": '<i4', 'shape': (2,2), 'fortran_order': False}", v,
                  sizeof v);
        tsr_tensor *t = NULL;
        int32_t back[4] = {0};
        int st = tsr_load_npy(path, NULL, &t);
        CHECK_STATUS(st, TSR_OK);
        st = tsr_to_host(t, back, sizeof back);
        bool shape_ok = tsr_tensor_ndim(t) == 2 && memcmp(tsr_tensor_shape(t), want, 16) == 0;
        tsr_tensor_release(t);
        CHECK_STATUS(st, TSR_OK);
        CHECK(shape_ok, "version %d: shape differs from (2, 2)", major);
        CHECK(memcmp(back, v, sizeof v) == 0, "version %d: values %d %d %d %d, expected 1 -2 3 -4",
              major, back[0], back[1], back[2], back[3]);
    }
}

static void load_reads_nonzero_bool_bytes_as_true(void)
{
    const unsigned char v[3] = {0, 7, 1};
    char path[512];
    temp_path("bool7.npy", path, sizeof path);
    write_npy(path, 1, 0, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", v, 3);
    tsr_tensor *t = NULL;
    unsigned char back[3] = {9, 9, 9};
    int st = tsr_load_npy(path, NULL, &t);
    CHECK_STATUS(st, TSR_OK);
    st = tsr_to_host(t, back, 3);
    tsr_tensor_release(t);
    CHECK_STATUS(st, TSR_OK);
    CHECK(back[0] == 0 && back[1] == 1 && back[2] == 1, "bools %d %d %d, expected 0 1 1", back[0],
          back[1], back[2]);
}

static void load_ignores_bytes_after_the_data(void)
{
    const int64_t v[2] = {5, 6};
    unsigned char data[20];
    memcpy(data, v, 16);
    memset(data + 16, 0xee, 4);
    char path[512];
    temp_path("trailing.npy", path, sizeof path);
    write_npy(path, 1, 0, "{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", data, 20);
    tsr_tensor *t = NULL;
    int st = tsr_load_npy(path, NULL, &t);
    int64_t numel = st == TSR_OK ? tsr_tensor_numel(t) : -1;
    tsr_tensor_release(t);
    CHECK_STATUS(st, TSR_OK);
    CHECK(numel == 2, "numel %lld, expected 2", (long long)numel);
}

/* ------------------------------------------------------------------------ */
/* Malformed files                                                           */
/* ------------------------------------------------------------------------ */

static void load_rejects_missing_file(void)
{
    char path[512];
    temp_path("does_not_exist.npy", path, sizeof path);
    expect_load_error(__func__, path, TSR_ERR_IO, "cannot open");
}

static void load_rejects_bad_magic(void)
{
    char path[512];
    temp_path("magic.npy", path, sizeof path);
    WRITE_LITERAL(path, "PK\x03\x04 this is a zip file, not npy");
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "bad magic");
    write_bytes(path, "", 0);
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "bad magic");
}

static void load_rejects_unsupported_versions(void)
{
    char path[512];
    temp_path("version.npy", path, sizeof path);
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
    write_npy(path, 4, 0, dict, "abcd", 4);
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "unsupported format version 4.0");
    write_npy(path, 1, 1, dict, "abcd", 4);
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "unsupported format version 1.1");
    write_npy(path, 0, 0, dict, "abcd", 4);
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "unsupported format version 0.0");
}

static void load_rejects_truncated_header(void)
{
    char path[512];
    temp_path("trunc_header.npy", path, sizeof path);
    WRITE_LITERAL(path, "\x93NUMPY\x01\x00\x40");
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "truncated header");
    WRITE_LITERAL(path, "\x93NUMPY\x01\x00\x40\x00{'descr': '<f4'");
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "truncated header");
}

static void load_rejects_header_longer_than_64_kib(void)
{
    char path[512];
    temp_path("long_header.npy", path, sizeof path);
    /* Format 2.0 announcing a 16 MiB header in a 40-byte file. */
    WRITE_LITERAL(path, "\x93NUMPY\x02\x00\x00\x00\x00\x01{'descr': '<f4', 'fortran");
    expect_load_error(__func__, path, TSR_ERR_FORMAT, "exceeds the 65536-byte limit");
}

static void load_rejects_unterminated_header(void)
{
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, ", TSR_ERR_FORMAT,
                      "not terminated");
    expect_dict_error(__func__, "{'descr': '<f4", TSR_ERR_FORMAT, "unterminated string");
}

static void load_rejects_fortran_order(void)
{
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                      TSR_ERR_FORMAT, "Fortran-ordered");
}

static void load_rejects_big_endian(void)
{
    expect_dict_error(__func__, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                      TSR_ERR_DTYPE, "big-endian dtype '>f4'");
}

static void load_rejects_unknown_dtypes(void)
{
    expect_dict_error(__func__, "{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }",
                      TSR_ERR_DTYPE, "unsupported dtype '<U3'");
    expect_dict_error(__func__, "{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }",
                      TSR_ERR_DTYPE, "unsupported dtype '<u4'");
    expect_dict_error(__func__,
                      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
                      TSR_ERR_DTYPE, "structured dtypes");
}

static void load_rejects_bad_shape_syntax(void)
{
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (2; 3), }",
                      TSR_ERR_FORMAT, "malformed shape");
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }",
                      TSR_ERR_FORMAT, "malformed shape");
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (2), }",
                      TSR_ERR_FORMAT, "not a tuple");
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (,), }",
                      TSR_ERR_FORMAT, "malformed shape");
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,), }",
                      TSR_ERR_FORMAT, "malformed shape");
    expect_dict_error(__func__,
                      "{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }",
                      TSR_ERR_FORMAT, "more than 16 dimensions");
}

static void load_rejects_negative_dims(void)
{
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }",
                      TSR_ERR_FORMAT, "negative dimension");
}

static void load_rejects_shapes_whose_size_overflows(void)
{
    expect_dict_error(__func__,
                      "{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(4294967296, 4294967296), }",
                      TSR_ERR_OVERFLOW, "overflows");
    /* 2^61 elements fit in int64, their bytes do not. */
    expect_dict_error(__func__,
                      "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }",
                      TSR_ERR_OVERFLOW, "overflows");
    expect_dict_error(
        __func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
        TSR_ERR_OVERFLOW, "dimension too large");
}

/* NumPy writes this file, but as in PyTorch the storage size of the other
 * extents overflows even though a zero extent makes the tensor empty. */
static void load_refuses_zero_extent_beside_huge_ones(void)
{
    expect_dict_error(__func__,
                      "{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(0, 4294967296, 4294967296), }",
                      TSR_ERR_OVERFLOW, "Storage size calculation overflowed");
    expect_dict_error(__func__,
                      "{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(0, 4611686018427387904, 4611686018427387904), }",
                      TSR_ERR_OVERFLOW, "Storage size calculation overflowed");
}

static void load_rejects_data_shorter_than_the_shape(void)
{
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (17,), }",
                      TSR_ERR_FORMAT, "truncated data");
    /* A terabyte announced by a tiny file fails before anything is allocated. */
    expect_dict_error(__func__,
                      "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,), }",
                      TSR_ERR_FORMAT, "truncated data");
}

static void load_rejects_bad_dict_keys(void)
{
    expect_dict_error(__func__, "{'descr': '<f4', 'shape': (2,), }", TSR_ERR_FORMAT,
                      "lacks one of");
    expect_dict_error(__func__,
                      "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
                      TSR_ERR_FORMAT, "duplicate key");
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}",
                      TSR_ERR_FORMAT, "unknown key");
    expect_dict_error(__func__, "['descr', '<f4']", TSR_ERR_FORMAT, "not a dict");
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x",
                      TSR_ERR_FORMAT, "unexpected text after");
    expect_dict_error(__func__, "{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}",
                      TSR_ERR_FORMAT, "expected ',' or '}'");
    expect_dict_error(__func__, "{'descr': '<f4', 'fortran_order': Nope, 'shape': (2,)}",
                      TSR_ERR_FORMAT, "expected True or False");
}

static void save_failure_leaves_no_file(void)
{
    const int64_t shape[1] = {1};
    float v = 1.0f;
    tsr_tensor *t = NULL;
    char path[512];
    temp_path("no_such_dir/x.npy", path, sizeof path);
    int st = tsr_from_host(&v, sizeof v, 1, shape, TSR_FLOAT32, NULL, &t);
    CHECK_STATUS(st, TSR_OK);
    st = tsr_save_npy(path, t);
    tsr_tensor_release(t);
    CHECK_STATUS(st, TSR_ERR_IO);
    CHECK(strstr(tsr_last_error(), path) != NULL, "message \"%s\" does not name %s",
          tsr_last_error(), path);
    CHECK(access(path, F_OK) != 0, "%s exists after a failed save", path);
}

int main(void)
{
    snprintf(temp_dir, sizeof temp_dir, "%s/tessera_npy_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(temp_dir)) {
        perror("mkdtemp");
        return 2;
    }
    round_trip_preserves_every_dtype();
    round_trip_preserves_zero_dim_tensors();
    round_trip_preserves_empty_shapes();
    round_trip_preserves_sixteen_dims();
    save_writes_numpy_header_64_byte_aligned();
    save_writes_bfloat16_as_u2();
    load_refuses_u2_unless_asked_for_bfloat16();
    load_as_refuses_another_dtype();
    load_accepts_format_versions_1_2_and_3();
    load_reads_nonzero_bool_bytes_as_true();
    load_ignores_bytes_after_the_data();
    load_rejects_missing_file();
    load_rejects_bad_magic();
    load_rejects_unsupported_versions();
    load_rejects_truncated_header();
    load_rejects_header_longer_than_64_kib();
    load_rejects_unterminated_header();
    load_rejects_fortran_order();
    load_rejects_big_endian();
    load_rejects_unknown_dtypes();
    load_rejects_bad_shape_syntax();
    load_rejects_negative_dims();
    load_rejects_shapes_whose_size_overflows();
    load_refuses_zero_extent_beside_huge_ones();
    load_rejects_data_shorter_than_the_shape();
    load_rejects_bad_dict_keys();
    save_failure_leaves_no_file();
    if (failures == 0) {
        /* Only a passing run cleans up, so a failure leaves its files to inspect. */
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", temp_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", temp_dir);
    }
    printf("test_npy: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
