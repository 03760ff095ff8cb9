/* tessera-info: which plugins were found, which loaded, and what they cover. */
#include <tessera/tessera.h>

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: tessera-info [--json | --ops-markdown | --version | --help]\n"
          "Lists every plugin found (TESSERA_PLUGIN_PATH, then tessera/ beside libtessera.so),\n"
          "whether it loaded or why not, its version, device and op x dtype coverage, and the\n"
          "default backend (TESSERA_BACKEND). Exits 1 when the default cannot be used.\n"
          "  --json          the same as one JSON object\n"
          "  --ops-markdown  the op x backend table of docs/ops.md\n"
          "  --version       the tessera version and the plugin ABI it loads\n"
          "  --help          this text\n",
          f);
}

static void print_version(void)
{
    uint32_t abi;
    const char *version = tsr_version(&abi);
    printf("tessera-info (tessera %s, plugin ABI %u.%u)\n", version, abi >> 16, abi & 0xffff);
}

/* Input dtypes of `op` that have a kernel for some output dtype. */
static int covered_dtypes(const tsr_backend *b, tsr_op op, bool *covered)
{
    int n = 0;
    for (int in = 0; in < TSR_DTYPE_COUNT; in++) {
        covered[in] = false;
        for (int out = 0; out < TSR_DTYPE_COUNT && !covered[in]; out++)
            covered[in] = tsr_backend_has_kernel(b, op, (tsr_dtype)in, (tsr_dtype)out);
        n += covered[in];
    }
    return n;
}

static int count_ops(const tsr_backend *b)
{
    int n = 0;
    bool covered[TSR_DTYPE_COUNT];
    for (int op = 0; op < TSR_OP_COUNT; op++)
        n += covered_dtypes(b, (tsr_op)op, covered) > 0;
    return n;
}

static void print_coverage_text(const tsr_backend *b)
{
    bool covered[TSR_DTYPE_COUNT];
    printf("    coverage: %d of %d ops\n", count_ops(b), TSR_OP_COUNT);
    for (int op = 0; op < TSR_OP_COUNT; op++) {
        if (!covered_dtypes(b, (tsr_op)op, covered))
            continue;
        printf("      %-14s", tsr_op_name((tsr_op)op));
        for (int d = 0; d < TSR_DTYPE_COUNT; d++) {
            if (covered[d])
                printf(" %s", tsr_dtype_name((tsr_dtype)d));
        }
        printf("\n");
    }
}

static void print_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void print_coverage_json(const tsr_backend *b)
{
    bool covered[TSR_DTYPE_COUNT];
    printf(", \"coverage\": {");
    bool first_op = true;
    for (int op = 0; op < TSR_OP_COUNT; op++) {
        if (!covered_dtypes(b, (tsr_op)op, covered))
            continue;
        printf("%s\"%s\": [", first_op ? "" : ", ", tsr_op_name((tsr_op)op));
        first_op = false;
        bool first = true;
        for (int d = 0; d < TSR_DTYPE_COUNT; d++) {
            if (covered[d]) {
                printf("%s\"%s\"", first ? "" : ", ", tsr_dtype_name((tsr_dtype)d));
                first = false;
            }
        }
        printf("]");
    }
    printf("}");
}

static void print_plugin(const tsr_plugin_info *info, bool json, bool first)
{
    if (json) {
        printf("%s\n    {\"name\": ", first ? "" : ",");
        print_json_string(info->name);
        printf(", \"path\": ");
        print_json_string(info->path);
        printf(", \"version\": ");
        print_json_string(info->version);
        printf(", \"loaded\": %s, \"reason\": ", info->loaded ? "true" : "false");
        print_json_string(info->reason);
        printf(", \"device\": ");
        print_json_string(info->device);
        printf(", \"score\": %d", info->score);
        if (info->backend)
            print_coverage_json(info->backend);
        printf("}");
        return;
    }
    printf("%s (%s)\n", info->name, info->path);
    printf("    version: %s\n", *info->version ? info->version : "unknown");
    printf("    status: %s%s%s\n", info->loaded ? "loaded" : "not loaded", info->loaded ? "" : ": ",
           info->reason);
    if (*info->device)
        printf("    device: %s\n", info->device);
    if (info->backend)
        print_coverage_text(info->backend);
}

static const char *const short_dtype[TSR_DTYPE_COUNT] = {
    "b", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "c64", "c128"};

/* docs/ops.md's list of named functions, from the public op lists
 * (tessera/elementwise_named.h), so a new op in a list is documented. */
#define NAMED_FN(name, op, form, inplace) printf(NAMED_##form, #name, #op);
#define NAMED_FN_IP(name, op, form, inplace) printf(NAMED_IP_##inplace, #name, #op);
#define NAMED_PLAIN "| `tsr_%s` | `TSR_OP_%s` |\n"
#define NAMED_OWN "| `tsr_%s` (its parameters: family header) | `TSR_OP_%s` |\n"
#define NAMED_IP_IP "| `tsr_%s_` | `TSR_OP_%s` |\n"
#define NAMED_IP_OWN_IP "| `tsr_%s_` (its parameters: inplace.h) | `TSR_OP_%s` |\n"
#define NAMED_IP_NO_IP "%.0s%.0s"

static void print_named_markdown(void)
{
    printf("\n## Named functions\n\n"
           "Generated from `TSR_UNARY_OP_LIST` and `TSR_BINARY_OP_LIST`\n"
           "(`include/tessera/elementwise_named.h`): `tsr_NAME(t, &out)` for a unary op,\n"
           "`tsr_NAME(a, b, &out)` over two tensors for a binary one (as `tsr_unary` /\n"
           "`tsr_binary` with the op's id and PyTorch's defaults), and the in-place\n"
           "`tsr_NAME_(self)` / `tsr_NAME_(self, other)` (as `tsr_unary_` / `tsr_binary_`).\n\n"
           "| function | op |\n| --- | --- |\n");
    TSR_UNARY_OP_LIST(NAMED_FN)
    TSR_BINARY_OP_LIST(NAMED_FN)
    TSR_UNARY_OP_LIST(NAMED_FN_IP)
    TSR_BINARY_OP_LIST(NAMED_FN_IP)
    printf("\nAlso: `tsr_add_scaled` / `tsr_sub_scaled` (alpha), `tsr_div_rounding`\n"
           "(rounding_mode); `tsr_empty_like`, `tsr_zeros_like`, `tsr_ones_like`,\n"
           "`tsr_full_like`, `tsr_rand_like`, `tsr_randn_like`, `tsr_randint_like`\n"
           "(`include/tessera/creation.h`, dtype `TSR_DTYPE_INFER` for PyTorch's\n"
           "`dtype=None`); `tsr_item`, `tsr_tensor_to_string`, `tsr_string_free`,\n"
           "`tsr_print` (`include/tessera/tessera.h`).\n");
}

/* docs/ops.md: every kernel-level op, and for each loaded backend the input
 * dtypes it has a kernel for, straight from the registry; then the named
 * functions. */
static int print_ops_markdown(size_t count)
{
    tsr_backend *backends[32];
    size_t n = 0;
    for (size_t i = 0; i < count && n < 32; i++) {
        tsr_plugin_info info = {.struct_size = sizeof info};
        if (tsr_plugin_get_info(i, &info) == TSR_OK && info.backend)
            backends[n++] = info.backend;
    }
    printf("| op |");
    for (size_t b = 0; b < n; b++)
        printf(" %s |", tsr_backend_name(backends[b]));
    printf("\n| --- |");
    for (size_t b = 0; b < n; b++)
        printf(" --- |");
    printf("\n");
    for (int op = 0; op < TSR_OP_COUNT; op++) {
        printf("| `%s` |", tsr_op_name((tsr_op)op));
        for (size_t b = 0; b < n; b++) {
            bool covered[TSR_DTYPE_COUNT];
            int k = covered_dtypes(backends[b], (tsr_op)op, covered);
            for (int d = 0, first = 1; d < TSR_DTYPE_COUNT; d++) {
                if (covered[d]) {
                    printf("%s%s", first ? " " : ", ", short_dtype[d]);
                    first = 0;
                }
            }
            printf("%s |", k ? "" : " –");
        }
        printf("\n");
    }
    print_named_markdown();
    return 0;
}

/* TESSERA_FALLBACK: the host backend that runs the kernels a backend lacks.
 * Returns whether the setting is usable (unset counts as usable). */
static bool print_fallback(bool json)
{
    tsr_backend *fallback = NULL;
    bool ok = tsr_fallback_backend(&fallback) == TSR_OK;
    const char *problem = ok ? "" : tsr_last_error();
    if (json) {
        printf(", \"fallback\": ");
        if (fallback)
            print_json_string(tsr_backend_name(fallback));
        else
            printf("null");
        printf(", \"fallback_problem\": ");
        print_json_string(problem);
    } else if (!ok) {
        printf("\nfallback: unusable: %s\n", problem);
    } else {
        printf("\nfallback: %s\n", fallback ? tsr_backend_name(fallback)
                                             : "none (TESSERA_FALLBACK is not set)");
    }
    if (!ok)
        fprintf(stderr, "tessera-info: %s\n", problem);
    return ok;
}

int main(int argc, char **argv)
{
    bool json = argc > 1 && strcmp(argv[1], "--json") == 0;
    bool markdown = argc > 1 && strcmp(argv[1], "--ops-markdown") == 0;
    if (argc == 2 && strcmp(argv[1], "--version") == 0)
        return print_version(), 0;
    if (argc == 2 && strcmp(argv[1], "--help") == 0)
        return usage(stdout), 0;
    if (argc > 2 || (argc > 1 && !json && !markdown)) {
        usage(stderr);
        return 2;
    }
    size_t count;
    if (tsr_plugin_count(&count) != TSR_OK) {
        fprintf(stderr, "tessera-info: %s\n", tsr_last_error());
        return 1;
    }
    if (markdown)
        return print_ops_markdown(count);
    /* The default honours TESSERA_BACKEND, so an unknown or unusable name
     * there shows up as the problem and the exit status. */
    char problem[1200] = "";
    tsr_backend *def = NULL;
    if (tsr_backend_get(NULL, &def) != TSR_OK)
        snprintf(problem, sizeof problem, "%s", tsr_last_error());
    if (json)
        printf("{\"default\": %s%s%s, \"plugins\": [", def ? "\"" : "",
               def ? tsr_backend_name(def) : "null", def ? "\"" : "");
    else
        printf("default backend: %s\n%zu plugin%s found\n\n", def ? tsr_backend_name(def) : "none",
               count, count == 1 ? "" : "s");
    for (size_t i = 0; i < count; i++) {
        tsr_plugin_info info = {.struct_size = sizeof info};
        if (tsr_plugin_get_info(i, &info) == TSR_OK)
            print_plugin(&info, json, i == 0);
    }
    if (json) {
        printf("\n  ], \"problem\": ");
        print_json_string(problem);
    }
    bool fallback_ok = print_fallback(json);
    if (json)
        printf("}\n");
    if (*problem)
        fprintf(stderr, "tessera-info: %s\n", problem);
    return def && fallback_ok ? 0 : 1;
}
