/* tsr_load_safetensors / tsr_save_safetensors: the committed files that
 * tests/io/make_safetensors.py wrote from PyTorch tensors (every dtype, an
 * empty and a 0-d tensor) against its expected.json, a round trip, and
 * corrupt files refused with the problem named. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "check.h"

#include <cjson/cJSON.h>

#include <stdlib.h>

static char temp_dir[256];

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    size_t got = fread(text, 1, (size_t)n, f);
    text[got] = '\0';
    fclose(f);
    return text;
}

static const char *dtype_code(tsr_dtype d)
{
    switch (d) {
    case TSR_FLOAT64:
        return "F64";
    case TSR_FLOAT32:
        return "F32";
    case TSR_FLOAT16:
        return "F16";
    case TSR_BFLOAT16:
        return "BF16";
    case TSR_INT64:
        return "I64";
    case TSR_INT32:
        return "I32";
    case TSR_INT16:
        return "I16";
    case TSR_INT8:
        return "I8";
    case TSR_UINT8:
        return "U8";
    case TSR_BOOL:
        return "BOOL";
    default:
        return "?";
    }
}

/* One loaded tensor against its expected.json entry. */
static void compare(const char *name, const tsr_tensor *t, const cJSON *want)
{
    CHECK_TRUE(want != NULL);
    if (!want)
        return;
    const cJSON *dtype = cJSON_GetObjectItem(want, "dtype");
    const cJSON *shape = cJSON_GetObjectItem(want, "shape");
    const cJSON *values = cJSON_GetObjectItem(want, "values");
    CHECK_STR(dtype_code(tsr_tensor_dtype(t)), dtype->valuestring);
    CHECK_INT(tsr_tensor_ndim(t), cJSON_GetArraySize(shape));
    for (int d = 0; d < tsr_tensor_ndim(t) && d < cJSON_GetArraySize(shape); d++)
        CHECK_INT(tsr_tensor_shape(t)[d], cJSON_GetArrayItem(shape, d)->valueint);
    int64_t n = tsr_tensor_numel(t);
    CHECK_INT(n, cJSON_GetArraySize(values));
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &wide));
    double *got = calloc((size_t)n + 1, sizeof *got);
    CHECK_OK(tsr_to_host(wide, got, (size_t)n * sizeof *got));
    for (int64_t i = 0; i < n && i < cJSON_GetArraySize(values); i++) {
        double e = cJSON_GetArrayItem(values, (int)i)->valuedouble;
        if (got[i] != e)
            CHECK_FAIL_("%s[%lld] is %g, expected %g", name, (long long)i, got[i], e);
    }
    free(got);
    tsr_tensor_release(wide);
}

static void load_matches_pytorch(void)
{
    char *text = read_text(TSR_TEST_DATA_DIR "/safetensors/expected.json");
    cJSON *expected = cJSON_Parse(text);
    free(text);
    CHECK_TRUE(expected != NULL);
    char **names = NULL;
    tsr_tensor **tensors = NULL;
    size_t count = 0;
    CHECK_OK(tsr_load_safetensors(TSR_TEST_DATA_DIR "/safetensors/all_dtypes.safetensors", NULL,
                                  &names, &tensors, &count));
    CHECK_INT(count, cJSON_GetArraySize(expected));
    for (size_t i = 0; i < count; i++)
        compare(names[i], tensors[i], cJSON_GetObjectItemCaseSensitive(expected, names[i]));
    CHECK_STR(names[0], "f64"); /* data order */
    /* a round trip keeps names, dtypes and bytes */
    char path[512];
    snprintf(path, sizeof path, "%s/round.safetensors", temp_dir);
    CHECK_OK(tsr_save_safetensors(path, (const char *const *)names,
                                  (const tsr_tensor *const *)tensors, count));
    char **names2 = NULL;
    tsr_tensor **tensors2 = NULL;
    size_t count2 = 0;
    CHECK_OK(tsr_load_safetensors(path, NULL, &names2, &tensors2, &count2));
    CHECK_INT(count2, count);
    for (size_t i = 0; i < count2 && i < count; i++) {
        CHECK_STR(names2[i], names[i]);
        compare(names2[i], tensors2[i], cJSON_GetObjectItemCaseSensitive(expected, names2[i]));
    }
    tsr_named_tensors_free(names2, tensors2, count2);
    tsr_named_tensors_free(names, tensors, count);
    cJSON_Delete(expected);
}

/* Writes a file of a u64 length, the header text and `data_len` zero bytes;
 * `len` overrides the length field when not 0. */
static void write_file(const char *path, uint64_t len, const char *header, size_t data_len)
{
    FILE *f = fopen(path, "wb");
    size_t n = strlen(header);
    uint64_t field = len ? len : n;
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(field >> (8 * i));
    fwrite(b, 1, 8, f);
    fwrite(header, 1, n, f);
    for (size_t i = 0; i < data_len; i++)
        fputc(0, f);
    fclose(f);
}

static void expect_corrupt(const char *file, uint64_t len, const char *header, size_t data_len,
                           int status, const char *fragment)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.safetensors", temp_dir, file);
    write_file(path, len, header, data_len);
    char **names = NULL;
    tsr_tensor **tensors = NULL;
    size_t count = 99;
    if (status == TSR_OK) { /* the control: the same writer makes good files */
        CHECK_OK(tsr_load_safetensors(path, NULL, &names, &tensors, &count));
        CHECK_INT(count, 1);
        tsr_named_tensors_free(names, tensors, count);
        return;
    }
    CHECK_ERROR(tsr_load_safetensors(path, NULL, &names, &tensors, &count), status, fragment);
    CHECK_TRUE(names == NULL && tensors == NULL && count == 99);
    if (!strstr(tsr_last_error(), path))
        CHECK_FAIL_("%s: the message \"%s\" does not name the file", file, tsr_last_error());
}

static void load_refuses_corrupt_files(void)
{
    const char *one = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    expect_corrupt("ok_control", 0, one, 8, TSR_OK, "");
    char path[512];
    snprintf(path, sizeof path, "%s/short.safetensors", temp_dir);
    FILE *f = fopen(path, "wb");
    fwrite("abc", 1, 3, f);
    fclose(f);
    char **names = NULL;
    tsr_tensor **tensors = NULL;
    size_t count = 0;
    CHECK_ERROR(tsr_load_safetensors(path, NULL, &names, &tensors, &count), TSR_ERR_FORMAT,
                "shorter than the 8-byte header length");
    expect_corrupt("huge_len", 1ull << 40, one, 8, TSR_ERR_FORMAT, "exceeds the 100000000-byte");
    expect_corrupt("long_len", 4096, one, 8, TSR_ERR_FORMAT, "exceeds the file's");
    expect_corrupt("json", 0, "{\"a\":", 0, TSR_ERR_FORMAT, "not valid JSON");
    expect_corrupt("array", 0, "[1,2]", 0, TSR_ERR_FORMAT, "not a JSON object");
    expect_corrupt("past_end", 0, one, 4, TSR_ERR_FORMAT, "reach past the end");
    expect_corrupt("size", 0, "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", 8,
                   TSR_ERR_FORMAT, "span a size other than the shape's");
    expect_corrupt("overlap", 0,
                   "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                   "\"b\":{\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
                   8, TSR_ERR_FORMAT, "overlaps");
    expect_corrupt("dtype", 0, "{\"a\":{\"dtype\":\"U16\",\"shape\":[2],\"data_offsets\":[0,4]}}",
                   4, TSR_ERR_DTYPE, "\"U16\"");
    expect_corrupt("twice", 0,
                   "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                   "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}",
                   2, TSR_ERR_FORMAT, "named twice");
    expect_corrupt("metadata", 0, "{\"__metadata__\":{\"k\":1}}", 0, TSR_ERR_FORMAT,
                   "__metadata__");
    expect_corrupt("offsets", 0, "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,0]}}",
                   2, TSR_ERR_FORMAT, "BEGIN <= END");
    expect_corrupt("neg_shape", 0,
                   "{\"a\":{\"dtype\":\"U8\",\"shape\":[-1],\"data_offsets\":[0,0]}}", 2,
                   TSR_ERR_FORMAT, "shape holds");
    expect_corrupt("big_shape", 0,
                   "{\"a\":{\"dtype\":\"F64\",\"shape\":[4294967296,4294967296],"
                   "\"data_offsets\":[0,0]}}",
                   2, TSR_ERR_FORMAT, "shape is too large");
    expect_corrupt("fields", 0, "{\"a\":{\"dtype\":\"U8\"}}", 0, TSR_ERR_FORMAT, "needs");
    CHECK_ERROR(tsr_load_safetensors(NULL, NULL, &names, &tensors, &count),
                TSR_ERR_INVALID_ARGUMENT, "tsr_load_safetensors: path");
    CHECK_ERROR(tsr_load_safetensors(path, NULL, NULL, &tensors, &count), TSR_ERR_INVALID_ARGUMENT,
                "names");
    CHECK_ERROR(tsr_load_safetensors("/nonexistent/x.safetensors", NULL, &names, &tensors, &count),
                TSR_ERR_IO, "cannot open");
}

static void save_refuses_bad_input(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.safetensors", temp_dir);
    int64_t shape[1] = {1};
    double v[2] = {1, 2};
    tsr_tensor *c = NULL, *f = NULL;
    CHECK_OK(tsr_from_host(v, sizeof v, 1, shape, TSR_COMPLEX128, NULL, &c));
    CHECK_OK(tsr_from_host(v, sizeof(double), 1, shape, TSR_FLOAT64, NULL, &f));
    const tsr_tensor *ts[2] = {f, c};
    const char *names[2] = {"f", "c"}, *twice[2] = {"f", "f"}, *meta[1] = {"__metadata__"};
    CHECK_ERROR(tsr_save_safetensors(path, names, ts, 2), TSR_ERR_DTYPE,
                "tensors[1]: safetensors has no complex128");
    CHECK_ERROR(tsr_save_safetensors(path, twice, ts, 2), TSR_ERR_INVALID_ARGUMENT,
                "names[1]: \"f\" is used twice");
    CHECK_ERROR(tsr_save_safetensors(path, meta, ts, 1), TSR_ERR_INVALID_ARGUMENT, "names[0]");
    CHECK_ERROR(tsr_save_safetensors(NULL, names, ts, 1), TSR_ERR_INVALID_ARGUMENT,
                "tsr_save_safetensors: path");
    FILE *left = fopen(path, "rb");
    CHECK_TRUE(left == NULL);
    if (left)
        fclose(left);
    tsr_tensor_release(c);
    tsr_tensor_release(f);
}

int main(void)
{
    snprintf(temp_dir, sizeof temp_dir, "%s/tessera_st_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(temp_dir))
        return 2;
    RUN_TEST(load_matches_pytorch);
    RUN_TEST(load_refuses_corrupt_files);
    RUN_TEST(save_refuses_bad_input);
    if (check_failures == 0) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", temp_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", temp_dir);
    }
    return check_summary("test_safetensors");
}
