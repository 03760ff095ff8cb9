/* TESSERA_FALLBACK: ops the toy plugin (copy, fill, add on float32) lacks
 * run on a host backend, and the rules around it.
 *
 * The variable is read once per process, so each scenario is a mode of this
 * executable and a CTest test with its own environment
 * (tests/runtime/CMakeLists.txt); every mode runs with TESSERA_BACKEND=toy:
 *
 *   on        TESSERA_FALLBACK=reference, TESSERA_LOG=fallback
 *   unset     no TESSERA_FALLBACK: the "no kernel" error names the variable
 *   unknown   TESSERA_FALLBACK names no plugin: a clean error on use
 *   device    TESSERA_FALLBACK names a device-memory backend (vulkan): refused
 *
 * and one with TESSERA_BACKEND=vulkan, whose handles are opaque:
 *
 *   device-caller  TESSERA_FALLBACK=reference runs sort, which vulkan lacks
 */
#include "check.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK_CONTAINS(text, fragment)                                                             \
    do {                                                                                           \
        check_count++;                                                                             \
        const char *t_ = (text), *f_ = (fragment);                                                 \
        if (!t_ || !strstr(t_, f_))                                                                \
            CHECK_FAIL_("%s is \"%s\", which lacks \"%s\"", #text, t_ ? t_ : "(null)", f_);        \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

static tsr_backend *backend_named(const char *name)
{
    tsr_backend *b = NULL;
    CHECK_OK(tsr_backend_get(name, &b));
    return b;
}

static tsr_tensor *floats_on(tsr_backend *b, int ndim, const int64_t *shape, const float *v,
                             size_t n)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, n * sizeof *v, ndim, shape, TSR_FLOAT32, b, &t));
    return t;
}

static tsr_tensor *int64s_on(tsr_backend *b, int ndim, const int64_t *shape, const int64_t *v,
                             size_t n)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, n * sizeof *v, ndim, shape, TSR_INT64, b, &t));
    return t;
}

static bool lives_on(const tsr_tensor *t, const char *name)
{
    return t && strcmp(tsr_backend_name(tsr_tensor_backend(t)), name) == 0;
}

/* Whether a and b hold the same float32 values, bit for bit. */
static void check_same_floats(const tsr_tensor *a, const tsr_tensor *b, size_t n)
{
    float va[64] = {0}, vb[64] = {0};
    CHECK_TRUE(n <= 64 && a && b);
    if (!(n <= 64 && a && b))
        return;
    CHECK_OK(tsr_to_host(a, va, n * sizeof(float)));
    CHECK_OK(tsr_to_host(b, vb, n * sizeof(float)));
    for (size_t i = 0; i < n; i++)
        CHECK_TRUE(memcmp(&va[i], &vb[i], sizeof(float)) == 0);
}

/* The toy counts its add calls; see tests/runtime/test_loader.c. */
static long toy_add_calls(void)
{
    for (size_t i = 0, n = 0; tsr_plugin_count(&n) == TSR_OK && i < n; i++) {
        tsr_plugin_info info = {.struct_size = sizeof info};
        if (tsr_plugin_get_info(i, &info) != TSR_OK || strcmp(info.name, "toy") != 0)
            continue;
        void *library = dlopen(info.path, RTLD_NOW | RTLD_NOLOAD);
        atomic_long *calls = library ? dlsym(library, "toy_add_calls") : NULL;
        long count = calls ? atomic_load(calls) : -1;
        if (library)
            dlclose(library);
        return count;
    }
    return -1;
}

static const int64_t shape23[2] = {2, 3};
static const float a_values[6] = {1.5f, -2, 3, 0.25f, 5, -6};
static const float b_values[6] = {2, 0.5f, -1, 4, 3, 0.125f};

/* ------------------------------------------------------------------------ */
/* on: TESSERA_FALLBACK=reference                                            */
/* ------------------------------------------------------------------------ */

/* mul: the toy has no kernel; the reference's values, on the toy. */
static void missing_op_runs_on_the_fallback_with_its_values(void)
{
    tsr_backend *toy = backend_named("toy"), *ref = backend_named("reference");
    tsr_tensor *a = floats_on(toy, 2, shape23, a_values, 6);
    tsr_tensor *b = floats_on(toy, 2, shape23, b_values, 6);
    tsr_tensor *ra = floats_on(ref, 2, shape23, a_values, 6);
    tsr_tensor *rb = floats_on(ref, 2, shape23, b_values, 6);
    tsr_tensor *out = NULL, *expected = NULL;
    CHECK_OK(tsr_mul(a, b, &out));
    CHECK_OK(tsr_mul(ra, rb, &expected));
    CHECK_TRUE(lives_on(out, "toy"));
    check_same_floats(out, expected, 6);
    tsr_backend *fallback = NULL;
    CHECK_OK(tsr_fallback_backend(&fallback));
    CHECK_TRUE(fallback == ref);
    tsr_tensor *all[] = {a, b, ra, rb, out, expected};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
}

/* The toy's own add still runs on the toy: the fallback is only for what
 * the backend lacks. */
static void own_kernels_stay_on_the_backend(void)
{
    tsr_backend *toy = backend_named("toy");
    tsr_tensor *a = floats_on(toy, 2, shape23, a_values, 6), *out = NULL;
    long before = toy_add_calls();
    CHECK_TRUE(before >= 0);
    CHECK_OK(tsr_add(a, a, &out));
    CHECK_INT(toy_add_calls(), before + 1);
    CHECK_TRUE(lives_on(out, "toy"));
    tsr_tensor_release(a);
    tsr_tensor_release(out);
}

/* Strided and broadcast operands, an int64 op (the toy has no int64 kernel
 * at all, not even copy), and an in-place op on a strided view whose
 * neighbours must stay as they were. */
static void views_dtypes_and_inplace_fall_back(void)
{
    tsr_backend *toy = backend_named("toy");
    tsr_tensor *a = floats_on(toy, 2, shape23, a_values, 6), *at = NULL, *row = NULL;
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_transpose(a, 0, 1, &at)); /* 3x2, strided */
    CHECK_OK(tsr_narrow(a, 0, 0, 1, &row)); /* 1x3 */
    tsr_tensor *row_t = NULL;
    CHECK_OK(tsr_transpose(row, 0, 1, &row_t)); /* 3x1, broadcast along dim 1 */
    CHECK_OK(tsr_mul(at, row_t, &out));
    float got[6] = {0};
    if (out)
        CHECK_OK(tsr_to_host(out, got, sizeof got));
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 2; j++)
            CHECK_DOUBLE(got[i * 2 + j], a_values[j * 3 + i] * a_values[i], 0);
    }
    tsr_tensor_release(out);

    const int64_t ints[6] = {1, 2, 3, 4, 5, 6};
    tsr_tensor *n = int64s_on(toy, 2, shape23, ints, 6), *nt = NULL, *sum = NULL;
    CHECK_OK(tsr_transpose(n, 0, 1, &nt));
    CHECK_OK(tsr_add(nt, nt, &sum));
    int64_t isum[6] = {0};
    if (sum)
        CHECK_OK(tsr_to_host(sum, isum, sizeof isum));
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 2; j++)
            CHECK_INT(isum[i * 2 + j], 2 * ints[j * 3 + i]);
    }
    CHECK_TRUE(lives_on(sum, "toy"));

    /* column 1 of a, times 10 in place: the other columns keep their values */
    tsr_tensor *column = NULL;
    CHECK_OK(tsr_narrow(a, 1, 1, 1, &column));
    CHECK_OK(tsr_binary_(TSR_OP_MUL, column, tsr_operand_scalar(tsr_scalar_float(10))));
    float after[6] = {0};
    CHECK_OK(tsr_to_host(a, after, sizeof after));
    for (int k = 0; k < 6; k++)
        CHECK_DOUBLE(after[k], k % 3 == 1 ? 10 * a_values[k] : a_values[k], 0);
    tsr_tensor *all[] = {a, at, row, row_t, n, nt, sum, column};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
}

/* y = sum(exp(x) * x): every op but the toy's add falls back, and the
 * gradient exp(x) * (1 + x) arrives on the toy. */
static void gradients_flow_through_fallen_back_ops(void)
{
    tsr_backend *toy = backend_named("toy");
    const int64_t shape[1] = {4};
    const float xs[4] = {-1, 0, 0.5f, 2};
    tsr_tensor *x = floats_on(toy, 1, shape, xs, 4), *e = NULL, *p = NULL, *y = NULL;
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    CHECK_OK(tsr_unary(TSR_OP_EXP, x, &e));
    CHECK_OK(tsr_mul(e, x, &p));
    CHECK_OK(tsr_sum(p, NULL, 0, false, TSR_DTYPE_INFER, &y));
    CHECK_TRUE(lives_on(y, "toy"));
    CHECK_TRUE(y && tsr_tensor_grad_fn_name(y) != NULL);
    CHECK_OK(tsr_backward(y, NULL, 0));
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(x, &g));
    CHECK_TRUE(lives_on(g, "toy"));
    float grad[4] = {0};
    if (g)
        CHECK_OK(tsr_to_host(g, grad, sizeof grad));
    for (int i = 0; i < 4; i++)
        CHECK_DOUBLE(grad[i], expf(xs[i]) * (1 + xs[i]), 1e-5 * (1 + fabsf(grad[i])));
    tsr_tensor *all[] = {x, e, p, y, g};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
}

/* An op neither backend has is the "no kernel" error, naming both. */
static void op_the_fallback_lacks_too_is_an_error(void)
{
    tsr_backend *toy = backend_named("toy");
    tsr_tensor *a = floats_on(toy, 2, shape23, a_values, 6), *out = NULL;
    CHECK_ERROR(tsr_binary(TSR_OP_BITWISE_AND, tsr_operand_tensor(a), tsr_operand_tensor(a), &out),
                TSR_ERR_UNIMPLEMENTED,
                "backend 'toy' has no bitwise_and kernel for float32, nor does the fallback "
                "'reference' (TESSERA_FALLBACK)");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(a);
}

static void empty_tensors_fall_back_too(void)
{
    tsr_backend *toy = backend_named("toy");
    const int64_t shape[2] = {0, 3};
    tsr_tensor *a = NULL, *out = NULL;
    CHECK_OK(tsr_from_host(NULL, 0, 2, shape, TSR_FLOAT32, toy, &a));
    CHECK_OK(tsr_mul(a, a, &out));
    CHECK_TRUE(lives_on(out, "toy"));
    CHECK_INT(out ? tsr_tensor_numel(out) : -1, 0);
    tsr_tensor_release(a);
    tsr_tensor_release(out);
}

/* TESSERA_LOG=fallback names each (backend, op, dtype) that fell back once,
 * however often it runs. stderr goes to a file while the ops run. */
static void log_names_each_fallback_once(void)
{
    char path[] = "/tmp/tessera-fallback-log-XXXXXX";
    int fd = mkstemp(path);
    CHECK_TRUE(fd >= 0);
    if (fd < 0)
        return;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    tsr_backend *toy = backend_named("toy");
    const int64_t shape[1] = {3};
    tsr_tensor *a = floats_on(toy, 1, shape, a_values, 3);
    for (int i = 0; i < 3; i++) {
        tsr_tensor *out = NULL;
        CHECK_OK(tsr_binary(TSR_OP_SUB, tsr_operand_tensor(a), tsr_operand_tensor(a), &out));
        tsr_tensor_release(out);
    }
    tsr_tensor_release(a);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char text[8192] = "";
    FILE *f = fdopen(fd, "r");
    if (f) {
        rewind(f);
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    unlink(path);
    const char *line = "tessera[fallback]: backend 'toy' has no sub kernel for float32: running "
                       "it on 'reference'\n";
    const char *first = strstr(text, line);
    CHECK_TRUE(first != NULL);
    CHECK_TRUE(first && !strstr(first + 1, line));
}

static void run_on(void)
{
    RUN_TEST(missing_op_runs_on_the_fallback_with_its_values);
    RUN_TEST(own_kernels_stay_on_the_backend);
    RUN_TEST(views_dtypes_and_inplace_fall_back);
    RUN_TEST(gradients_flow_through_fallen_back_ops);
    RUN_TEST(op_the_fallback_lacks_too_is_an_error);
    RUN_TEST(empty_tensors_fall_back_too);
    RUN_TEST(log_names_each_fallback_once);
}

/* ------------------------------------------------------------------------ */
/* unset, unknown, device                                                    */
/* ------------------------------------------------------------------------ */

static void no_kernel_error_names_the_variable(void)
{
    tsr_backend *toy = backend_named("toy");
    tsr_tensor *a = floats_on(toy, 2, shape23, a_values, 6), *out = NULL;
    CHECK_ERROR(tsr_mul(a, a, &out), TSR_ERR_UNIMPLEMENTED,
                "mul: backend 'toy' has no mul kernel for float32; set TESSERA_FALLBACK=cpu to "
                "run it on a host backend");
    CHECK_TRUE(out == NULL);
    tsr_backend *fallback = toy;
    CHECK_OK(tsr_fallback_backend(&fallback));
    CHECK_TRUE(fallback == NULL);
    tsr_tensor_release(a);

    /* on the reference, which no host backend can stand in for, no hint */
    tsr_tensor *r = floats_on(backend_named("reference"), 2, shape23, a_values, 6);
    CHECK_ERROR(tsr_binary(TSR_OP_BITWISE_AND, tsr_operand_tensor(r), tsr_operand_tensor(r), &out),
                TSR_ERR_UNIMPLEMENTED, "backend 'reference' has no bitwise_and kernel for float32");
    CHECK_TRUE(!strstr(tsr_last_error(), "TESSERA_FALLBACK"));
    tsr_tensor_release(r);
}

/* A setting that cannot be used fails every op that would need it, with a
 * message naming the variable, and leaves the backend's own ops alone. */
static void check_unusable_setting(const char *fragment)
{
    tsr_backend *toy = backend_named("toy");
    tsr_tensor *a = floats_on(toy, 2, shape23, a_values, 6), *out = NULL;
    for (int i = 0; i < 2; i++) {
        CHECK_ERROR(tsr_mul(a, a, &out), TSR_ERR_PLUGIN, fragment);
        CHECK_CONTAINS(tsr_last_error(), "mul: backend 'toy' has no mul kernel for float32");
        CHECK_TRUE(out == NULL);
    }
    tsr_backend *fallback = toy;
    CHECK_ERROR(tsr_fallback_backend(&fallback), TSR_ERR_PLUGIN, fragment);
    CHECK_TRUE(fallback == NULL);
    CHECK_OK(tsr_add(a, a, &out));
    tsr_tensor_release(out);
    tsr_tensor_release(a);
}

static void unknown_fallback_is_a_clean_error(void)
{
    check_unusable_setting("TESSERA_FALLBACK names 'nosuch', which cannot be used: backend "
                           "'nosuch': no plugin of that name was found");
}

static void device_memory_fallback_is_refused(void)
{
    check_unusable_setting("TESSERA_FALLBACK names 'vulkan', which keeps tensors in device "
                           "memory; the fallback must be a host-memory backend");
}

/* A device backend's operands move through copy_to_host / copy_from_host;
 * sort's two outputs (float32 values, int64 indices) come back to it. */
static void device_backend_falls_back_to_host(void)
{
    tsr_backend *vk = backend_named("vulkan");
    const int64_t shape[2] = {2, 3};
    tsr_tensor *a = floats_on(vk, 2, shape, a_values, 6), *at = NULL, *values = NULL,
               *indices = NULL;
    CHECK_OK(tsr_transpose(a, 0, 1, &at)); /* 3x2: sort a strided view along dim 0 */
    CHECK_OK(tsr_sort(at, 0, false, &values, &indices));
    CHECK_TRUE(lives_on(values, "vulkan") && lives_on(indices, "vulkan"));
    float v[6] = {0};
    int64_t ix[6] = {0};
    if (values && indices) {
        CHECK_OK(tsr_to_host(values, v, sizeof v));
        CHECK_OK(tsr_to_host(indices, ix, sizeof ix));
    }
    /* columns of `at` are a's rows: {1.5, -2, 3} and {0.25, 5, -6} */
    const float sorted[6] = {-2, -6, 1.5f, 0.25f, 3, 5};
    const int64_t order[6] = {1, 2, 0, 0, 2, 1};
    for (int k = 0; k < 6; k++) {
        CHECK_DOUBLE(v[k], sorted[k], 0);
        CHECK_INT(ix[k], order[k]);
    }
    tsr_tensor *all[] = {a, at, values, indices};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
}

static void run_device_caller(void)
{
    RUN_TEST(device_backend_falls_back_to_host);
}

static void run_unset(void)
{
    RUN_TEST(no_kernel_error_names_the_variable);
}

static void run_unknown(void)
{
    RUN_TEST(unknown_fallback_is_a_clean_error);
}

static void run_device(void)
{
    RUN_TEST(device_memory_fallback_is_refused);
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static const struct {
        const char *mode;
        void (*run)(void);
    } modes[] = {
        {"on", run_on},
        {"unset", run_unset},
        {"unknown", run_unknown},
        {"device", run_device},
        {"device-caller", run_device_caller},
    };
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(argv[1], modes[i].mode) == 0) {
            modes[i].run();
            return check_summary(argv[1]);
        }
    }
    fprintf(stderr, "usage: test_fallback on|unset|unknown|device|device-caller\n"
                    "(each mode expects the environment that tests/runtime/CMakeLists.txt sets)\n");
    return 2;
}
