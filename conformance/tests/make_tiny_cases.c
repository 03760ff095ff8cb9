/* Writes two tiny golden case sets by hand, byte by byte, without the
 * generator or NumPy, for run_tiny_cases.cmake:
 *   DIR/good  every case passes except one op without an adapter (a skip)
 *   DIR/bad   a wrong expected value and a missing expected error
 * Usage: conformance_make_tiny_cases DIR */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *root;

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        perror(path);
        exit(2);
    }
}

/* Writes SET/NAME as a format 1.0 .npy file of `descr` and `shape` (a Python
 * tuple literal such as "(2, 3)"). */
static void npy(const char *set, const char *name, const char *descr, const char *shape,
                const void *data, size_t bytes)
{
    char path[1024], dict[256];
    snprintf(path, sizeof path, "%s/%s/%s", root, set, name);
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                     descr, shape);
    size_t header_len = (10 + (size_t)n + 1 + 63) / 64 * 64 - 10;
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc((int)(header_len & 0xff), f);
    fputc((int)(header_len >> 8), f);
    fwrite(dict, 1, (size_t)n, f);
    for (size_t i = (size_t)n; i + 1 < header_len; i++)
        fputc(' ', f);
    fputc('\n', f);
    fwrite(data, 1, bytes, f);
    fclose(f);
}

static void manifest(const char *set, const char *const *lines, size_t count)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/manifest.jsonl", root, set);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    for (size_t i = 0; i < count; i++)
        fprintf(f, "%s\n", lines[i]);
    fclose(f);
}

static void good_files(void)
{
    const float x3[3] = {1, 2, 3}, y3[3] = {10, 20, 30}, sum3[3] = {11, 22, 33};
    npy("good", "x3.npy", "<f4", "(3,)", x3, sizeof x3);
    npy("good", "y3.npy", "<f4", "(3,)", y3, sizeof y3);
    npy("good", "sum3.npy", "<f4", "(3,)", sum3, sizeof sum3);
    const float m23[6] = {0, 1, 2, 3, 4, 5}, neg_t[6] = {-0.0f, -3, -1, -4, -2, -5};
    npy("good", "m23.npy", "<f4", "(2, 3)", m23, sizeof m23);
    npy("good", "neg_t.npy", "<f4", "(3, 2)", neg_t, sizeof neg_t);
    const int64_t i3[3] = {1, 2, 3}, i3_out[3] = {7, 8, 9};
    npy("good", "i3.npy", "<i8", "(3,)", i3, sizeof i3);
    npy("good", "i3_out.npy", "<i8", "(3,)", i3_out, sizeof i3_out);
    const uint8_t b2[2] = {1, 0};
    npy("good", "b2.npy", "|b1", "(2,)", b2, sizeof b2);
    const int32_t q[4] = {1, 2, 3, 4}, r[2] = {1, 4}, z4[4] = {0, 0, 0, 0};
    const uint8_t eq[4] = {1, 0, 0, 1};
    npy("good", "q.npy", "<i4", "(2, 2)", q, sizeof q);
    npy("good", "r.npy", "<i4", "(2,)", r, sizeof r);
    npy("good", "eq.npy", "|b1", "(2, 2)", eq, sizeof eq);
    npy("good", "z4.npy", "<i4", "(2, 2)", z4, sizeof z4);
    /* bfloat16 bits of 1, 2 + 0.5, 0.25 = 1.5, 2.25 (all exact). */
    const uint16_t h1[2] = {0x3f80, 0x4000}, h2[2] = {0x3f00, 0x3e80}, hs[2] = {0x3fc0, 0x4010};
    npy("good", "h1.npy", "<u2", "(2,)", h1, sizeof h1);
    npy("good", "h2.npy", "<u2", "(2,)", h2, sizeof h2);
    npy("good", "hs.npy", "<u2", "(2,)", hs, sizeof hs);
    const double d2[2] = {1.5, -2}, d2sq[2] = {2.25, 4};
    npy("good", "d2.npy", "<f8", "(2,)", d2, sizeof d2);
    npy("good", "d2sq.npy", "<f8", "(2,)", d2sq, sizeof d2sq);
    const float p[2] = {7, -7}, p_floor[2] = {3, -4};
    npy("good", "p.npy", "<f4", "(2,)", p, sizeof p);
    npy("good", "p_floor.npy", "<f4", "(2,)", p_floor, sizeof p_floor);
    const float s22[4] = {1, 2, 3, 4}, o22[4] = {10, 20, 30, 40}, s22_out[4] = {11, 23, 32, 44};
    npy("good", "s22.npy", "<f4", "(2, 2)", s22, sizeof s22);
    npy("good", "o22.npy", "<f4", "(2, 2)", o22, sizeof o22);
    npy("good", "s22_out.npy", "<f4", "(2, 2)", s22_out, sizeof s22_out);
}

static const char *const good_lines[] = {
    "{\"op\": \"add\", \"case\": \"f32_basic\", \"inputs\": [{\"name\": \"input\", \"file\": "
    "\"x3.npy\"}, {\"name\": \"other\", \"file\": \"y3.npy\"}], \"args\": {}, \"outputs\": "
    "[{\"file\": \"sum3.npy\"}]}",
    "{\"op\": \"neg\", \"case\": \"f32_transposed\", \"inputs\": [{\"name\": \"input\", "
    "\"file\": \"m23.npy\", \"view\": [\"transpose:0:1\"]}], \"args\": {}, \"outputs\": "
    "[{\"file\": \"neg_t.npy\"}]}",
    "{\"op\": \"add\", \"case\": \"i64_int_scalar_alpha\", \"inputs\": [{\"name\": \"input\", "
    "\"file\": \"i3.npy\"}, {\"name\": \"other\", \"scalar\": 2, \"scalar_type\": \"int\"}], "
    "\"args\": {\"alpha\": 3}, \"outputs\": [{\"file\": \"i3_out.npy\"}]}",
    "{\"op\": \"sub\", \"case\": \"bool_error\", \"inputs\": [{\"name\": \"input\", \"file\": "
    "\"b2.npy\"}, {\"name\": \"other\", \"file\": \"b2.npy\"}], \"args\": {}, \"error\": "
    "\"RuntimeError\"}",
    "{\"op\": \"eq\", \"case\": \"i32_broadcast\", \"inputs\": [{\"name\": \"input\", \"file\": "
    "\"q.npy\"}, {\"name\": \"other\", \"file\": \"r.npy\"}], \"outputs\": [{\"file\": "
    "\"eq.npy\"}]}",
    "{\"op\": \"zeros\", \"case\": \"i32\", \"inputs\": [], \"args\": {\"size\": [2, 2], "
    "\"dtype\": \"int32\"}, \"outputs\": [{\"file\": \"z4.npy\"}]}",
    "{\"op\": \"add\", \"case\": \"bf16\", \"inputs\": [{\"name\": \"input\", \"file\": "
    "\"h1.npy\", \"dtype\": \"bfloat16\"}, {\"name\": \"other\", \"file\": \"h2.npy\", "
    "\"dtype\": \"bfloat16\"}], \"outputs\": [{\"file\": \"hs.npy\", \"dtype\": \"bfloat16\"}]}",
    "{\"op\": \"mul\", \"case\": \"f64_unknown_keys\", \"future\": {\"a\": [1, 2.5]}, \"inputs\": "
    "[{\"name\": \"input\", \"file\": \"d2.npy\", \"note\": \"x\"}, {\"name\": \"other\", "
    "\"file\": \"d2.npy\"}], \"outputs\": [{\"file\": \"d2sq.npy\", \"hint\": 1}]}",
    "{\"op\": \"frobnicate\", \"case\": \"no_adapter\", \"inputs\": [{\"name\": \"input\", "
    "\"file\": \"x3.npy\"}], \"outputs\": [{\"file\": \"x3.npy\"}]}",
    "{\"op\": \"div\", \"case\": \"f32_floor_int_scalar\", \"inputs\": [{\"name\": \"input\", "
    "\"file\": \"p.npy\"}, {\"name\": \"other\", \"scalar\": 2, \"scalar_type\": \"int\"}], "
    "\"args\": {\"rounding_mode\": \"floor\"}, \"outputs\": [{\"file\": \"p_floor.npy\"}]}",
    "{\"op\": \"add_\", \"case\": \"f32_through_view\", \"inputs\": [{\"name\": \"self\", "
    "\"file\": \"s22.npy\", \"view\": [\"transpose:0:1\"]}, {\"name\": \"other\", \"file\": "
    "\"o22.npy\"}], \"outputs\": [{\"file\": \"s22_out.npy\"}]}",
};

static void bad_files(void)
{
    const float x3[3] = {1, 2, 3}, y3[3] = {10, 20, 30}, sum3[3] = {11, 22, 33},
                wrong[3] = {11, 23, 33};
    npy("bad", "x3.npy", "<f4", "(3,)", x3, sizeof x3);
    npy("bad", "y3.npy", "<f4", "(3,)", y3, sizeof y3);
    npy("bad", "sum3.npy", "<f4", "(3,)", sum3, sizeof sum3);
    npy("bad", "wrong.npy", "<f4", "(3,)", wrong, sizeof wrong);
}

static const char *const bad_lines[] = {
    "{\"op\": \"add\", \"case\": \"wrong_value\", \"inputs\": [{\"name\": \"input\", \"file\": "
    "\"x3.npy\"}, {\"name\": \"other\", \"file\": \"y3.npy\"}], \"outputs\": [{\"file\": "
    "\"wrong.npy\"}]}",
    "{\"op\": \"neg\", \"case\": \"missing_error\", \"inputs\": [{\"name\": \"input\", \"file\": "
    "\"x3.npy\"}], \"error\": \"RuntimeError\"}",
    "{\"op\": \"add\", \"case\": \"right_value\", \"inputs\": [{\"name\": \"input\", \"file\": "
    "\"x3.npy\"}, {\"name\": \"other\", \"file\": \"y3.npy\"}], \"outputs\": [{\"file\": "
    "\"sum3.npy\"}]}",
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    root = argv[1];
    char path[1024];
    make_dir(root);
    snprintf(path, sizeof path, "%s/good", root);
    make_dir(path);
    snprintf(path, sizeof path, "%s/bad", root);
    make_dir(path);
    good_files();
    manifest("good", good_lines, sizeof good_lines / sizeof good_lines[0]);
    bad_files();
    manifest("bad", bad_lines, sizeof bad_lines / sizeof bad_lines[0]);
    return 0;
}
