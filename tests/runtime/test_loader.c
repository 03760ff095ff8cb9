/* The plugin loader and backend selection, seen from a program.
 *
 * The loader reads TESSERA_PLUGIN_PATH, TESSERA_BACKEND and TESSERA_LOG once
 * per process, so each scenario is a mode of this one executable and a
 * CTest test of its own with its own environment (tests/runtime/CMakeLists.txt):
 *
 *   toy            a third-party plugin on TESSERA_PLUGIN_PATH, chosen by TESSERA_BACKEND
 *   same-file      one file reached through several path entries loads once
 *   duplicate      a second file with an already-taken backend name is refused
 *   bad            every broken plugin is listed as not loaded, with its reason
 *   long-list      a TESSERA_BACKEND over 511 characters is refused with an error
 *   named-broken   TESSERA_BACKEND naming a plugin whose init fails is an error
 *   unknown        TESSERA_BACKEND naming no plugin at all is an error
 *   log            TESSERA_LOG=loader prints every candidate and its fate
 */
#include "check.h"

#include <dirent.h>
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

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The loader's record of the candidate file called `file` (a base name). */
static bool find_plugin_file(const char *file, tsr_plugin_info *info)
{
    size_t n = 0;
    if (tsr_plugin_count(&n) != TSR_OK)
        return false;
    for (size_t i = 0; i < n; i++) {
        tsr_plugin_info candidate = {.struct_size = sizeof candidate};
        if (tsr_plugin_get_info(i, &candidate) == TSR_OK &&
            strcmp(base_name(candidate.path), file) == 0) {
            *info = candidate;
            return true;
        }
    }
    return false;
}

static int count_plugin_files(const char *file)
{
    size_t n = 0;
    int found = 0;
    tsr_plugin_count(&n);
    for (size_t i = 0; i < n; i++) {
        tsr_plugin_info info = {.struct_size = sizeof info};
        found += tsr_plugin_get_info(i, &info) == TSR_OK && strcmp(base_name(info.path), file) == 0;
    }
    return found;
}

/* The n-th directory of TESSERA_PLUGIN_PATH, or "" if there is none. */
static void plugin_path_entry(int index, char *out, size_t capacity)
{
    const char *p = getenv("TESSERA_PLUGIN_PATH");
    out[0] = '\0';
    for (int i = 0; p && *p; i++) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (i == index) {
            snprintf(out, capacity, "%.*s", (int)len, p);
            return;
        }
        p = end ? end + 1 : NULL;
    }
}

static tsr_tensor *floats_on(tsr_backend *backend, int ndim, const int64_t *shape,
                             const float *values, size_t count)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(values, count * sizeof *values, ndim, shape, TSR_FLOAT32, backend, &t));
    return t;
}

/* The tensor's values must equal `expected` exactly (every value here is a
 * small integer, so float32 arithmetic is exact). */
static void check_floats(const tsr_tensor *t, const float *expected, size_t count)
{
    check_count++;
    if (!t) {
        CHECK_FAIL_("no tensor to compare");
        return;
    }
    float got[64] = {0};
    if (count > 64 || (size_t)tsr_tensor_numel(t) != count) {
        CHECK_FAIL_("tensor has %lld elements, expected %zu", (long long)tsr_tensor_numel(t),
                    count);
        return;
    }
    CHECK_OK(tsr_to_host(t, got, count * sizeof *got));
    for (size_t i = 0; i < count; i++) {
        if (got[i] != expected[i]) {
            CHECK_FAIL_("element %zu is %g, expected %g", i, got[i], expected[i]);
            return;
        }
    }
}

static tsr_backend *backend_named(const char *name)
{
    tsr_backend *b = NULL;
    CHECK_OK(tsr_backend_get(name, &b));
    return b;
}

/* ------------------------------------------------------------------------ */
/* toy: a third-party plugin found on TESSERA_PLUGIN_PATH                    */
/* ------------------------------------------------------------------------ */

/* The toy plugin counts its add calls in an exported variable; reading it
 * through the already-loaded library proves the core called that kernel. */
static long toy_add_calls(void)
{
    tsr_plugin_info info = {.struct_size = sizeof info};
    if (!find_plugin_file("libtessera_toy.so", &info))
        return -1;
    void *library = dlopen(info.path, RTLD_NOW | RTLD_NOLOAD);
    if (!library)
        return -1;
    atomic_long *calls = dlsym(library, "toy_add_calls");
    long n = calls ? atomic_load(calls) : -1;
    dlclose(library);
    return n;
}

static void tessera_backend_selects_the_toy_plugin(void)
{
    tsr_backend *def = NULL;
    CHECK_OK(tsr_backend_get(NULL, &def));
    CHECK_STR(tsr_backend_name(def), "toy");
    CHECK_TRUE(def == backend_named("toy"));
}

static void toy_plugin_is_found_on_the_plugin_path(void)
{
    char dir[1024];
    plugin_path_entry(0, dir, sizeof dir);
    tsr_plugin_info info = {.struct_size = sizeof info};
    CHECK_TRUE(find_plugin_file("libtessera_toy.so", &info));
    CHECK_STR(info.name, "toy");
    CHECK_TRUE(info.loaded);
    CHECK_STR(info.reason, "");
    CHECK_STR(info.version, "1.0.0");
    CHECK_STR(info.device, "toy device (host memory)");
    CHECK_TRUE(strncmp(info.path, dir, strlen(dir)) == 0);
    CHECK_TRUE(info.backend == backend_named("toy"));
}

static void tensors_are_created_on_the_default_toy_backend(void)
{
    const int64_t shape[2] = {2, 2};
    const float values[4] = {1, 2, 3, 4};
    tsr_tensor *t = floats_on(NULL, 2, shape, values, 4);
    CHECK_STR(tsr_backend_name(tsr_tensor_backend(t)), "toy");
    check_floats(t, values, 4);

    tsr_tensor *zeros = NULL, *full = NULL;
    CHECK_OK(tsr_zeros(2, shape, TSR_FLOAT32, NULL, &zeros)); /* the toy fill kernel */
    CHECK_STR(tsr_backend_name(tsr_tensor_backend(zeros)), "toy");
    check_floats(zeros, (const float[]){0, 0, 0, 0}, 4);
    CHECK_OK(tsr_full(2, shape, tsr_scalar_float(2.5), TSR_FLOAT32, NULL, &full));
    check_floats(full, (const float[]){2.5f, 2.5f, 2.5f, 2.5f}, 4);
    tsr_tensor_release(t);
    tsr_tensor_release(zeros);
    tsr_tensor_release(full);
}

static void add_runs_the_toy_kernel(void)
{
    const int64_t shape[1] = {4};
    tsr_tensor *a = floats_on(NULL, 1, shape, (const float[]){1, 2, 3, 4}, 4);
    tsr_tensor *b = floats_on(NULL, 1, shape, (const float[]){10, 20, 30, 40}, 4);
    tsr_tensor *sum = NULL, *scaled = NULL;
    long before = toy_add_calls();
    CHECK_TRUE(before >= 0);
    CHECK_OK(tsr_add(a, b, &sum));
    CHECK_INT(toy_add_calls(), before + 1);
    CHECK_STR(tsr_backend_name(tsr_tensor_backend(sum)), "toy");
    check_floats(sum, (const float[]){11, 22, 33, 44}, 4);

    CHECK_OK(
        tsr_add_scaled(tsr_operand_tensor(a), tsr_operand_tensor(b), tsr_scalar_int(2), &scaled));
    CHECK_INT(toy_add_calls(), before + 2);
    check_floats(scaled, (const float[]){21, 42, 63, 84}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(sum);
    tsr_tensor_release(scaled);
}

/* The toy add registers no flags and fails on a strided input, so these
 * pass only if the core copies views and broadcasts (with the toy's copy
 * kernel) and stages the in-place output. */
static void core_prepares_operands_for_a_kernel_without_flags(void)
{
    const int64_t shape[2] = {2, 3}, row_shape[1] = {3};
    tsr_tensor *m = floats_on(NULL, 2, shape, (const float[]){1, 2, 3, 4, 5, 6}, 6);
    tsr_tensor *row = floats_on(NULL, 1, row_shape, (const float[]){100, 200, 300}, 3);
    tsr_tensor *broadcast = NULL, *mt = NULL, *transposed_sum = NULL;
    long before = toy_add_calls();

    CHECK_OK(tsr_add(m, row, &broadcast));
    check_floats(broadcast, (const float[]){101, 202, 303, 104, 205, 306}, 6);

    CHECK_OK(tsr_transpose(m, 0, 1, &mt)); /* 3x2, strided */
    CHECK_OK(tsr_add(mt, mt, &transposed_sum));
    check_floats(transposed_sum, (const float[]){2, 8, 4, 10, 6, 12}, 6);

    CHECK_OK(tsr_add_(m, tsr_operand_tensor(row), tsr_scalar_int(1)));
    check_floats(m, (const float[]){101, 202, 303, 104, 205, 306}, 6);
    CHECK_INT(toy_add_calls(), before + 3);
    tsr_tensor_release(m);
    tsr_tensor_release(row);
    tsr_tensor_release(broadcast);
    tsr_tensor_release(mt);
    tsr_tensor_release(transposed_sum);
}

static void capability_query_reads_the_toy_kernel_table(void)
{
    tsr_backend *toy = backend_named("toy");
    CHECK_TRUE(tsr_backend_has_kernel(toy, TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT32));
    CHECK_TRUE(tsr_backend_has_kernel(toy, TSR_OP_COPY, TSR_FLOAT32, TSR_FLOAT32));
    CHECK_TRUE(tsr_backend_has_kernel(toy, TSR_OP_FILL, TSR_FLOAT32, TSR_FLOAT32));
    CHECK_TRUE(!tsr_backend_has_kernel(toy, TSR_OP_ADD, TSR_INT32, TSR_INT32));
    CHECK_TRUE(!tsr_backend_has_kernel(toy, TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT64));
    CHECK_TRUE(!tsr_backend_has_kernel(toy, TSR_OP_MUL, TSR_FLOAT32, TSR_FLOAT32));
    CHECK_TRUE(!tsr_backend_has_kernel(toy, TSR_OP_COPY, TSR_FLOAT32, TSR_INT32));
}

static void missing_kernel_names_op_dtype_and_backend(void)
{
    const int64_t shape[1] = {2};
    tsr_tensor *a = floats_on(NULL, 1, shape, (const float[]){1, 2}, 2);
    tsr_tensor *out = NULL;
    CHECK_ERROR(tsr_mul(a, a, &out), TSR_ERR_UNIMPLEMENTED, "mul");
    CHECK_CONTAINS(tsr_last_error(), "float32");
    CHECK_CONTAINS(tsr_last_error(), "'toy'");
    CHECK_TRUE(out == NULL);

    /* Creating int32 tensors needs no kernel; adding them does. */
    tsr_tensor *i = NULL;
    CHECK_OK(
        tsr_from_host((const int32_t[]){1, 2}, 2 * sizeof(int32_t), 1, shape, TSR_INT32, NULL, &i));
    CHECK_ERROR(tsr_add(i, i, &out), TSR_ERR_UNIMPLEMENTED, "add");
    CHECK_CONTAINS(tsr_last_error(), "int32");
    CHECK_CONTAINS(tsr_last_error(), "'toy'");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(a);
    tsr_tensor_release(i);
}

static void reference_backend_keeps_working_alongside(void)
{
    tsr_backend *ref = backend_named("reference");
    CHECK_STR(tsr_backend_name(ref), "reference");
    tsr_plugin_info info = {.struct_size = sizeof info};
    CHECK_TRUE(find_plugin_file("libtessera_reference.so", &info));
    CHECK_TRUE(info.loaded);
    /* from the default directory beside libtessera.so, not the plugin path */
    CHECK_CONTAINS(info.path, "/tessera/libtessera_reference.so");

    const int64_t shape[1] = {3};
    tsr_tensor *a = floats_on(ref, 1, shape, (const float[]){1, 2, 3}, 3);
    tsr_tensor *sum = NULL;
    long before = toy_add_calls();
    CHECK_OK(tsr_add(a, a, &sum));
    CHECK_INT(toy_add_calls(), before);
    CHECK_STR(tsr_backend_name(tsr_tensor_backend(sum)), "reference");
    check_floats(sum, (const float[]){2, 4, 6}, 3);
    tsr_tensor_release(a);
    tsr_tensor_release(sum);
}

static void to_backend_moves_values_between_toy_and_reference(void)
{
    tsr_backend *toy = backend_named("toy"), *ref = backend_named("reference");
    const int64_t shape[2] = {2, 3};
    const float values[6] = {1, 2, 3, 4, 5, 6};
    tsr_tensor *on_toy = floats_on(toy, 2, shape, values, 6);
    tsr_tensor *on_ref = NULL, *back = NULL, *view = NULL, *moved_view = NULL;

    CHECK_OK(tsr_to_backend(on_toy, ref, &on_ref));
    CHECK_STR(tsr_backend_name(tsr_tensor_backend(on_ref)), "reference");
    check_floats(on_ref, values, 6);
    CHECK_OK(tsr_to_backend(on_ref, toy, &back));
    CHECK_STR(tsr_backend_name(tsr_tensor_backend(back)), "toy");
    check_floats(back, values, 6);

    /* a strided view leaves the toy backend in its logical order */
    CHECK_OK(tsr_transpose(on_toy, 0, 1, &view));
    CHECK_OK(tsr_to_backend(view, ref, &moved_view));
    CHECK_INT(tsr_tensor_shape(moved_view)[0], 3);
    check_floats(moved_view, (const float[]){1, 4, 2, 5, 3, 6}, 6);
    tsr_tensor_release(on_toy);
    tsr_tensor_release(on_ref);
    tsr_tensor_release(back);
    tsr_tensor_release(view);
    tsr_tensor_release(moved_view);
}

static void mixing_backends_in_one_op_is_a_device_mismatch(void)
{
    tsr_backend *toy = backend_named("toy"), *ref = backend_named("reference");
    const int64_t shape[1] = {2};
    tsr_tensor *a = floats_on(toy, 1, shape, (const float[]){1, 2}, 2);
    tsr_tensor *b = floats_on(ref, 1, shape, (const float[]){3, 4}, 2);
    tsr_tensor *out = NULL;
    CHECK_ERROR(tsr_add(a, b, &out), TSR_ERR_DEVICE_MISMATCH, "'toy'");
    CHECK_CONTAINS(tsr_last_error(), "'reference'");
    CHECK_TRUE(out == NULL);

    /* copy_ is the one op that moves its source across backends itself */
    CHECK_OK(tsr_copy_(a, b));
    check_floats(a, (const float[]){3, 4}, 2);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
}

/* Even where both backends keep host memory, so that the kernel could read
 * the foreign pointer, the core must refuse rather than pass it on. */
static void an_inplace_op_with_an_operand_on_another_backend_is_a_device_mismatch(void)
{
    tsr_backend *toy = backend_named("toy"), *ref = backend_named("reference");
    const int64_t shape[1] = {2};
    tsr_tensor *self = floats_on(toy, 1, shape, (const float[]){1, 2}, 2);
    tsr_tensor *other = floats_on(ref, 1, shape, (const float[]){3, 4}, 2);
    CHECK_ERROR(tsr_add_(self, tsr_operand_tensor(other), tsr_scalar_int(1)),
                TSR_ERR_DEVICE_MISMATCH, "'toy'");
    CHECK_CONTAINS(tsr_last_error(), "'reference'");
    check_floats(self, (const float[]){1, 2}, 2);
    tsr_tensor_release(self);
    tsr_tensor_release(other);
}

static void run_toy(void)
{
    RUN_TEST(tessera_backend_selects_the_toy_plugin);
    RUN_TEST(toy_plugin_is_found_on_the_plugin_path);
    RUN_TEST(tensors_are_created_on_the_default_toy_backend);
    RUN_TEST(add_runs_the_toy_kernel);
    RUN_TEST(core_prepares_operands_for_a_kernel_without_flags);
    RUN_TEST(capability_query_reads_the_toy_kernel_table);
    RUN_TEST(missing_kernel_names_op_dtype_and_backend);
    RUN_TEST(reference_backend_keeps_working_alongside);
    RUN_TEST(to_backend_moves_values_between_toy_and_reference);
    RUN_TEST(mixing_backends_in_one_op_is_a_device_mismatch);
    RUN_TEST(an_inplace_op_with_an_operand_on_another_backend_is_a_device_mismatch);
}

/* ------------------------------------------------------------------------ */
/* same-file and duplicate: one backend per name                            */
/* ------------------------------------------------------------------------ */

/* TESSERA_PLUGIN_PATH names the toy directory twice (spelt differently)
 * and the default directory as well. */
static void the_same_file_is_loaded_once(void)
{
    CHECK_INT(count_plugin_files("libtessera_toy.so"), 1);
    CHECK_INT(count_plugin_files("libtessera_reference.so"), 1);
    tsr_plugin_info info = {.struct_size = sizeof info};
    CHECK_TRUE(find_plugin_file("libtessera_toy.so", &info));
    CHECK_TRUE(info.loaded);
    CHECK_STR(tsr_backend_name(backend_named("toy")), "toy");
    CHECK_STR(tsr_backend_name(backend_named("reference")), "reference");
}

static void run_same_file(void)
{
    RUN_TEST(the_same_file_is_loaded_once);
}

/* TESSERA_PLUGIN_PATH is toy-dir:duplicate-dir; both hold a backend "toy". */
static void a_second_plugin_with_a_taken_name_is_refused(void)
{
    tsr_plugin_info first = {.struct_size = sizeof first}, second = {.struct_size = sizeof second};
    CHECK_TRUE(find_plugin_file("libtessera_toy.so", &first));
    CHECK_TRUE(find_plugin_file("libtessera_toy_again.so", &second));
    CHECK_TRUE(first.loaded);
    CHECK_TRUE(!second.loaded);
    CHECK_CONTAINS(second.reason, "'toy'");
    CHECK_CONTAINS(second.reason, "already found");
    CHECK_TRUE(second.backend == NULL);

    tsr_backend *toy = backend_named("toy");
    CHECK_TRUE(toy == first.backend);
    CHECK_TRUE(tsr_backend_has_kernel(toy, TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT32));
}

static void run_duplicate(void)
{
    RUN_TEST(a_second_plugin_with_a_taken_name_is_refused);
}

/* ------------------------------------------------------------------------ */
/* bad: every refusal says why, and the rest keep working                   */
/* ------------------------------------------------------------------------ */

typedef struct refusal {
    const char *file;
    const char *name;         /* as the loader lists it */
    const char *fragments[3]; /* each must occur in the reason */
} refusal;

static const refusal refusals[] = {
    {"libtessera_badabi.so", "badabi", {"incompatible ABI major version", "plugin ABI 2.0"}},
    {"libtessera_noentry.so", "noentry", {"no entry symbol", "tsr_plugin_entry"}},
    {"libtessera_refuses.so", "refuses", {"refused this host", "lacks the frobnicator extension"}},
    {"libtessera_initfail.so", "initfail", {"init failed", "no device found on bus 0"}},
    {"libtessera_badop.so", "badop", {"invalid kernel table", "row 1", "unknown op id 9999"}},
    {"libtessera_nullfn.so", "nullfn", {"invalid kernel table", "row 0 (add)", "NULL function"}},
    {"libtessera_noalloc.so", "noalloc", {"lacks the required function", "memory_alloc"}},
    {"libtessera_small.so", "small", {"plugin table too small", "need at least"}},
    {"libtessera_garbage.so", "garbage", {"dlopen failed"}},
    {"libtessera_entryisdata.so", "entryisdata", {"entry symbol", "is not a function"}},
};

static void every_bad_plugin_is_listed_with_its_reason(void)
{
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const refusal *r = &refusals[i];
        tsr_plugin_info info = {.struct_size = sizeof info};
        if (!find_plugin_file(r->file, &info)) {
            CHECK_FAIL_("%s is not listed by tsr_plugin_get_info", r->file);
            continue;
        }
        CHECK_STR(info.name, r->name);
        CHECK_TRUE(!info.loaded);
        CHECK_TRUE(info.backend == NULL);
        for (int f = 0; f < 3 && r->fragments[f]; f++)
            CHECK_CONTAINS(info.reason, r->fragments[f]);
    }
}

static void a_plugin_of_an_older_minor_version_loads(void)
{
    tsr_plugin_info info = {.struct_size = sizeof info};
    CHECK_TRUE(find_plugin_file("libtessera_oldminor.so", &info));
    CHECK_TRUE(info.loaded);
    CHECK_STR(info.reason, "");
    CHECK_STR(info.version, "1.0-era");

    /* no kernels, but memory and transfers are enough to hold data */
    tsr_backend *old = backend_named("oldminor");
    CHECK_TRUE(!tsr_backend_has_kernel(old, TSR_OP_COPY, TSR_FLOAT32, TSR_FLOAT32));
    const int64_t shape[1] = {3};
    tsr_tensor *t = floats_on(old, 1, shape, (const float[]){7, 8, 9}, 3);
    check_floats(t, (const float[]){7, 8, 9}, 3);
    tsr_tensor_release(t);
}

static void a_plugin_of_a_newer_minor_version_loads_without_unknown_ops(void)
{
    tsr_plugin_info info = {.struct_size = sizeof info};
    CHECK_TRUE(find_plugin_file("libtessera_newminor.so", &info));
    CHECK_TRUE(info.loaded);
    CHECK_STR(info.reason, "");
    tsr_backend *newer = backend_named("newminor");
    CHECK_TRUE(tsr_backend_has_kernel(newer, TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT32));
    CHECK_TRUE(!tsr_backend_has_kernel(newer, TSR_OP_COUNT, TSR_FLOAT32, TSR_FLOAT32));
}

/* Its probe leaves the reason unterminated: the core cuts it at its buffer. */
static void a_probe_reason_without_nul_is_cut(void)
{
    tsr_plugin_info info = {.struct_size = sizeof info};
    CHECK_TRUE(find_plugin_file("libtessera_probenonul.so", &info));
    CHECK_TRUE(info.loaded);
    CHECK_TRUE(backend_named("probenonul") != NULL);
}

static void reference_still_loads_beside_bad_plugins(void)
{
    tsr_backend *def = NULL;
    CHECK_OK(tsr_backend_get(NULL, &def));
    CHECK_STR(tsr_backend_name(def), "reference");
    const int64_t shape[1] = {2};
    tsr_tensor *a = floats_on(NULL, 1, shape, (const float[]){1, 2}, 2), *sum = NULL;
    CHECK_OK(tsr_add(a, a, &sum));
    check_floats(sum, (const float[]){2, 4}, 2);
    tsr_tensor_release(a);
    tsr_tensor_release(sum);
}

static void asking_for_a_bad_plugin_by_name_gives_its_reason(void)
{
    tsr_backend *b = NULL;
    CHECK_ERROR(tsr_backend_get("initfail", &b), TSR_ERR_PLUGIN, "no device found on bus 0");
    CHECK_ERROR(tsr_backend_get("badabi", &b), TSR_ERR_PLUGIN, "incompatible ABI major version");
    CHECK_ERROR(tsr_backend_get("nosuch", &b), TSR_ERR_PLUGIN, "'nosuch'");
    CHECK_TRUE(b == NULL);
}

static void run_bad(void)
{
    RUN_TEST(every_bad_plugin_is_listed_with_its_reason);
    RUN_TEST(a_plugin_of_an_older_minor_version_loads);
    RUN_TEST(a_plugin_of_a_newer_minor_version_loads_without_unknown_ops);
    RUN_TEST(a_probe_reason_without_nul_is_cut);
    RUN_TEST(reference_still_loads_beside_bad_plugins);
    RUN_TEST(asking_for_a_bad_plugin_by_name_gives_its_reason);
}

/* ------------------------------------------------------------------------ */
/* named-broken and unknown: TESSERA_BACKEND never falls back silently      */
/* ------------------------------------------------------------------------ */

/* TESSERA_BACKEND=initfail with the bad directory on the path. */
static void a_named_backend_that_fails_init_is_an_error(void)
{
    tsr_backend *b = NULL;
    CHECK_ERROR(tsr_backend_get(NULL, &b), TSR_ERR_PLUGIN, "initfail");
    CHECK_CONTAINS(tsr_last_error(), "no device found on bus 0");
    CHECK_TRUE(b == NULL);
    tsr_tensor *t = NULL;
    const int64_t shape[1] = {1};
    CHECK_ERROR(tsr_empty(1, shape, TSR_FLOAT32, NULL, &t), TSR_ERR_PLUGIN,
                "no device found on bus 0");
    CHECK_TRUE(t == NULL);
}

static void run_named_broken(void)
{
    RUN_TEST(a_named_backend_that_fails_init_is_an_error);
}

/* TESSERA_BACKEND=nosuch. */
static void an_unknown_backend_name_is_an_error_naming_it(void)
{
    tsr_backend *b = NULL;
    CHECK_ERROR(tsr_backend_get(NULL, &b), TSR_ERR_PLUGIN, "'nosuch'");
    CHECK_TRUE(b == NULL);
    /* asked again, the answer is the same */
    CHECK_ERROR(tsr_backend_get(NULL, &b), TSR_ERR_PLUGIN, "'nosuch'");
    tsr_tensor *t = NULL;
    const int64_t shape[1] = {1};
    CHECK_ERROR(tsr_empty(1, shape, TSR_FLOAT32, NULL, &t), TSR_ERR_PLUGIN, "'nosuch'");
    CHECK_TRUE(t == NULL);
    /* an explicit backend still works */
    CHECK_STR(tsr_backend_name(backend_named("reference")), "reference");
}

static void run_unknown(void)
{
    RUN_TEST(an_unknown_backend_name_is_an_error_naming_it);
}

/* ------------------------------------------------------------------------ */
/* log: TESSERA_LOG=loader prints every candidate and its fate              */
/* ------------------------------------------------------------------------ */

/* Runs discovery with stderr redirected into a buffer. */
static char *capture_loader_log(void)
{
    FILE *capture = tmpfile();
    if (!capture)
        return NULL;
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(capture), 2);
    size_t n = 0;
    tsr_plugin_count(&n);
    tsr_backend *b;
    tsr_backend_get(NULL, &b);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);

    fseek(capture, 0, SEEK_END);
    long size = ftell(capture);
    char *text = calloc(1, size > 0 ? (size_t)size + 1 : 1);
    rewind(capture);
    if (text && size > 0 && fread(text, 1, (size_t)size, capture) != (size_t)size)
        text[0] = '\0';
    fclose(capture);
    return text;
}

/* Every libtessera_*.so of `dir` has a "candidate" line, then a line saying
 * whether it was found (and then loaded or failed) or refused. */
static void check_directory_logged(const char *log, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        CHECK_FAIL_("cannot list %s", dir);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "libtessera_", 11) != 0 || len < 4 ||
            strcmp(e->d_name + len - 3, ".so") != 0)
            continue;
        char line[2048];
        snprintf(line, sizeof line, "%s/%s", dir, e->d_name);
        if (access(line, F_OK) != 0) { /* a dangling symlink */
            snprintf(line, sizeof line, "tessera[loader]: skipping %s/%s: cannot resolve it", dir,
                     e->d_name);
            CHECK_CONTAINS(log, line);
            continue;
        }
        snprintf(line, sizeof line, "tessera[loader]: candidate %s/%s\n", dir, e->d_name);
        CHECK_CONTAINS(log, line);
        char found[2048], refused[2048];
        snprintf(found, sizeof found, "tessera[loader]: found %s/%s: backend '", dir, e->d_name);
        snprintf(refused, sizeof refused, "tessera[loader]: refused %s/%s: ", dir, e->d_name);
        check_count++;
        if (!strstr(log, found) && !strstr(log, refused))
            CHECK_FAIL_("the log says neither \"%s\" nor \"%s\"", found, refused);
    }
    closedir(d);
}

static void loader_log_names_every_candidate_and_its_fate(void)
{
    char *log = capture_loader_log();
    CHECK_TRUE(log != NULL);
    if (!log)
        return;
    char dir[1024];
    for (int i = 0; plugin_path_entry(i, dir, sizeof dir), *dir; i++) {
        if (access(dir, F_OK) == 0)
            check_directory_logged(log, dir);
        else
            CHECK_CONTAINS(log, "skipping directory");
    }
    /* the default directory too, which holds the reference plugin */
    tsr_plugin_info ref = {.struct_size = sizeof ref};
    CHECK_TRUE(find_plugin_file("libtessera_reference.so", &ref));
    snprintf(dir, sizeof dir, "%.*s", (int)(base_name(ref.path) - 1 - ref.path), ref.path);
    check_directory_logged(log, dir);

    CHECK_CONTAINS(log, "refused ");
    CHECK_CONTAINS(log, "incompatible ABI major version");
    CHECK_CONTAINS(log, "libtessera_initfail.so failed: init failed");
    CHECK_CONTAINS(log, "loaded backend 'toy'");
    if (check_failures)
        fprintf(stderr, "--- captured log ---\n%s--- end ---\n", log);
    free(log);
}

/* long-list: a TESSERA_BACKEND longer than 511 characters is refused, not cut. */
static void a_long_backend_list_is_refused(void)
{
    char list[700];
    memset(list, 0, sizeof list);
    for (size_t i = 0; i + 4 < sizeof list - 1; i += 4)
        memcpy(list + i, "toy,", 4);
    setenv("TESSERA_BACKEND", list, 1);
    tsr_backend *b = NULL;
    CHECK_ERROR(tsr_backend_get(NULL, &b), TSR_ERR_PLUGIN, "at most 511 are allowed");
    CHECK_TRUE(b == NULL);
}

static void run_long_list(void)
{
    RUN_TEST(a_long_backend_list_is_refused);
}

static void run_log(void)
{
    RUN_TEST(loader_log_names_every_candidate_and_its_fate);
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    static const struct {
        const char *mode;
        void (*run)(void);
    } modes[] = {
        {"toy", run_toy}, {"same-file", run_same_file},       {"duplicate", run_duplicate},
        {"bad", run_bad}, {"long-list", run_long_list}, {"named-broken", run_named_broken}, {"unknown", run_unknown},
        {"log", run_log},
    };
    for (size_t i = 0; argc == 2 && i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(argv[1], modes[i].mode) == 0) {
            modes[i].run();
            return check_summary(argv[1]);
        }
    }
    fprintf(stderr, "usage: test_loader toy|same-file|duplicate|bad|long-list|named-broken|unknown|log\n"
                    "(each mode expects the environment that tests/runtime/CMakeLists.txt sets)\n");
    return 2;
}
