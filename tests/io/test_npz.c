/* tsr_load_npz: archives written by NumPy itself (tests/io/make_npz.py:
 * np.savez stores, np.savez_compressed deflates), and corrupt ones refused
 * with the member and the problem named. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "check.h"

#include <stdlib.h>

#define NPZ_DIR TSR_TEST_DATA_DIR "/npz"

static char temp_dir[256];

static void check_values(const tsr_tensor *t, tsr_dtype dtype, const double *want, int64_t n)
{
    CHECK_INT(tsr_tensor_dtype(t), dtype);
    CHECK_INT(tsr_tensor_numel(t), n);
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &wide));
    double got[8] = {0};
    CHECK_OK(tsr_to_host(wide, got, (size_t)n * sizeof(double)));
    for (int64_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], want[i], 0);
    tsr_tensor_release(wide);
}

static void load_numpy_archive(const char *file)
{
    char **names = NULL;
    tsr_tensor **ts = NULL;
    size_t count = 0;
    CHECK_OK(tsr_load_npz(file, NULL, &names, &ts, &count));
    CHECK_INT(count, 7);
    if (count != 7)
        return;
    const char *order[7] = {"f32", "i64", "flags", "c128", "empty", "scalar", "ramp"};
    for (int i = 0; i < 7; i++)
        CHECK_STR(names[i], order[i]);
    const double f32[6] = {0, -1.5, 2, 3.5, -4, 1}, i64[5] = {-2, -1, 0, 1, 2}, fl[3] = {1, 0, 1};
    check_values(ts[0], TSR_FLOAT32, f32, 6);
    CHECK_INT(tsr_tensor_ndim(ts[0]), 2);
    check_values(ts[1], TSR_INT64, i64, 5);
    check_values(ts[2], TSR_BOOL, fl, 3);
    double c[4] = {0};
    CHECK_INT(tsr_tensor_dtype(ts[3]), TSR_COMPLEX128);
    CHECK_OK(tsr_to_host(ts[3], c, sizeof c));
    CHECK_DOUBLE(c[0], 1, 0);
    CHECK_DOUBLE(c[1], 2, 0);
    CHECK_DOUBLE(c[3], -3.5, 0);
    CHECK_INT(tsr_tensor_numel(ts[4]), 0);
    CHECK_INT(tsr_tensor_shape(ts[4])[1], 4);
    const double seven = 7;
    check_values(ts[5], TSR_INT16, &seven, 1);
    CHECK_INT(tsr_tensor_ndim(ts[5]), 0);
    int32_t ramp[2000];
    CHECK_INT(tsr_tensor_numel(ts[6]), 2000);
    CHECK_OK(tsr_to_host(ts[6], ramp, sizeof ramp));
    CHECK_INT(ramp[1999], 1999 % 7);
    tsr_named_tensors_free(names, ts, count);
}

static void load_stored_and_deflated(void)
{
    load_numpy_archive(NPZ_DIR "/stored.npz");
    load_numpy_archive(NPZ_DIR "/deflated.npz");
}

/* A copy of `src` cut to `keep` bytes (0: whole) with byte `flip` inverted
 * (-1: none). */
static void corrupt_copy(const char *src, const char *dst, long keep, long flip)
{
    FILE *in = fopen(src, "rb");
    static unsigned char buf[16384];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    if (keep)
        n = (size_t)keep;
    if (flip >= 0)
        buf[flip] ^= 0xff;
    FILE *out = fopen(dst, "wb");
    fwrite(buf, 1, n, out);
    fclose(out);
}

static void expect_npz_error(const char *path, int status, const char *fragment)
{
    char **names = NULL;
    tsr_tensor **ts = NULL;
    size_t count = 42;
    CHECK_ERROR(tsr_load_npz(path, NULL, &names, &ts, &count), status, fragment);
    CHECK_TRUE(names == NULL && ts == NULL && count == 42);
}

static void load_refuses_corrupt_archives(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cut.npz", temp_dir);
    corrupt_copy(NPZ_DIR "/stored.npz", path, 5000, -1);
    expect_npz_error(path, TSR_ERR_FORMAT, "no end of central directory");
    snprintf(path, sizeof path, "%s/crc.npz", temp_dir);
    corrupt_copy(NPZ_DIR "/stored.npz", path, 0, 5000); /* inside ramp.npy's data */
    expect_npz_error(path, TSR_ERR_FORMAT, "member \"ramp.npy\": corrupt data");
    snprintf(path, sizeof path, "%s/inflate.npz", temp_dir);
    corrupt_copy(NPZ_DIR "/deflated.npz", path, 0, 120); /* inside f32.npy's stream */
    expect_npz_error(path, TSR_ERR_FORMAT, "corrupt data");
    snprintf(path, sizeof path, "%s/tiny.npz", temp_dir);
    corrupt_copy(NPZ_DIR "/stored.npz", path, 10, -1);
    expect_npz_error(path, TSR_ERR_FORMAT, "too short");
    expect_npz_error(NPZ_DIR "/uint16.npz", TSR_ERR_DTYPE, "'<u2' (uint16)");
    expect_npz_error(TSR_TEST_DATA_DIR "/safetensors/expected.json", TSR_ERR_FORMAT,
                     "not a zip archive");
    expect_npz_error("/nonexistent.npz", TSR_ERR_IO, "cannot open");
    char **names = NULL;
    tsr_tensor **ts = NULL;
    size_t count = 0;
    CHECK_ERROR(tsr_load_npz(NULL, NULL, &names, &ts, &count), TSR_ERR_INVALID_ARGUMENT,
                "tsr_load_npz: path");
    CHECK_ERROR(tsr_load_npz(NPZ_DIR "/stored.npz", NULL, &names, NULL, &count),
                TSR_ERR_INVALID_ARGUMENT, "tensors");
}

int main(void)
{
    snprintf(temp_dir, sizeof temp_dir, "%s/tessera_npz_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(temp_dir))
        return 2;
    RUN_TEST(load_stored_and_deflated);
    RUN_TEST(load_refuses_corrupt_archives);
    if (check_failures == 0) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", temp_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", temp_dir);
    }
    return check_summary("test_npz");
}
