/* im2col and col2im on the device (conv.c, shaders/conv_im2col.comp and
 * conv_col2im.comp), float32: im2col moves bits, so it must equal a host im2col
 * exactly (padding zeros included) on 1-d, 2-d and 3-d geometries and on a
 * channels-last image view; col2im must equal a host gather summed in the
 * shader's order (kernel offsets ascending, float32 additions), also where
 * a negative padding_end leaves positions in no window; a bad call is
 * refused with the output untouched. Linked with test_vulkan_kernels.c,
 * which loads the plugin and calls run_all_cases. */
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

struct geometry {
    const char *name;
    int nd;
    int64_t n, c, in[3], k[3], stride[3], pad[3], pad_end[3], dil[3];
    int channels_last;
};

static int64_t windows(const struct geometry *g, int d)
{
    int64_t room = g->in[d] + g->pad[d] + g->pad_end[d] - g->dil[d] * (g->k[d] - 1) - 1;
    return room < 0 ? 0 : room / g->stride[d] + 1;
}

static tsr_conv_attrs attrs_of(const struct geometry *g)
{
    tsr_conv_attrs a = {.struct_size = sizeof a, .spatial_ndim = g->nd, .groups = 1};
    for (int d = 0; d < g->nd; ++d) {
        a.kernel[d] = g->k[d];
        a.stride[d] = g->stride[d];
        a.padding[d] = g->pad[d];
        a.padding_end[d] = g->pad_end[d];
        a.dilation[d] = g->dil[d];
    }
    return a;
}

static int call(int op, const struct view *out, const struct view *in, const tsr_conv_attrs *a)
{
    tsr_kernel_fn fn = find_kernel(op, TSR_FLOAT32, TSR_FLOAT32);
    if (!fn) {
        printf("FAIL no kernel for op %d on float32\n", op);
        ++failures;
        return TSR_ERR_UNIMPLEMENTED;
    }
    tsr_kernel_args args = {sizeof args, op, 1, 1, &in->d, &out->d, a};
    return fn(backend, &args);
}

/* Sizes: image [N, C, in...], columns [N, C*K, L]; image strides
 * row-major or channels-last. */
struct layout {
    int64_t image[5], image_strides[5], cols[3], cols_strides[3], volume, windows, numel;
};

static void layout_of(const struct geometry *g, struct layout *l)
{
    int nd = g->nd;
    l->image[0] = g->n;
    l->image[1] = g->c;
    l->volume = 1;
    l->windows = 1;
    for (int d = 0; d < nd; ++d) {
        l->image[2 + d] = g->in[d];
        l->volume *= g->k[d];
        l->windows *= windows(g, d);
    }
    int64_t step = 1;
    if (g->channels_last) {
        l->image_strides[1] = 1;
        step = g->c;
        for (int d = nd - 1; d >= 0; --d) {
            l->image_strides[2 + d] = step;
            step *= g->in[d];
        }
        l->image_strides[0] = step;
        step *= g->n;
    } else {
        for (int d = nd + 1; d >= 0; --d) {
            l->image_strides[d] = step;
            step *= l->image[d];
        }
    }
    l->numel = step;
    l->cols[0] = g->n;
    l->cols[1] = g->c * l->volume;
    l->cols[2] = l->windows;
    l->cols_strides[2] = 1;
    l->cols_strides[1] = l->windows;
    l->cols_strides[0] = l->cols[1] * l->windows;
}

/* The image element feeding column (n, row, window), or -1 for padding. */
static int64_t source(const struct geometry *g, const struct layout *l, int64_t n, int64_t row,
                      int64_t w)
{
    int64_t c = row / l->volume, j = row % l->volume,
            at = n * l->image_strides[0] + c * l->image_strides[1];
    for (int d = g->nd - 1; d >= 0; --d) {
        int64_t jd = j % g->k[d], od = w % windows(g, d);
        j /= g->k[d];
        w /= windows(g, d);
        int64_t pos = od * g->stride[d] - g->pad[d] + jd * g->dil[d];
        if (pos < 0 || pos >= g->in[d])
            return -1;
        at += pos * l->image_strides[2 + d];
    }
    return at;
}

static float *values(int64_t n, int salt)
{
    float *v = malloc((size_t)n * sizeof *v + sizeof *v);
    for (int64_t i = 0; i < n; ++i)
        v[i] = (float)((i * 37 + salt * 11) % 29) / 7.0f - 2.0f + 0.001f * (float)i;
    return v;
}

static void check_im2col(const struct geometry *g)
{
    struct layout l;
    layout_of(g, &l);
    int nd = g->nd;
    float *x = values(l.numel, 1);
    int64_t cols_n = l.cols[0] * l.cols[1] * l.cols[2];
    float *got = malloc((size_t)cols_n * sizeof *got + 4);
    struct view vx, vc;
    void *xm = upload(x, (size_t)l.numel * 4), *cm = upload(NULL, (size_t)cols_n * 4 + 4);
    view_of(&vx, xm, TSR_FLOAT32, 2 + nd, l.image, l.image_strides, 0, 4);
    view_of(&vc, cm, TSR_FLOAT32, 3, l.cols, l.cols_strides, 0, 4);
    tsr_conv_attrs a = attrs_of(g);
    int status = call(TSR_OP_IM2COL, &vc, &vx, &a);
    EXPECT(status == TSR_OK, "%s: im2col: %s", g->name, last_error);
    download(cm, got, (size_t)cols_n * 4);
    int bad = 0;
    for (int64_t n = 0; n < l.cols[0]; ++n)
        for (int64_t r = 0; r < l.cols[1]; ++r)
            for (int64_t w = 0; w < l.windows; ++w) {
                int64_t at = source(g, &l, n, r, w);
                float want = at < 0 ? 0.0f : x[at];
                float have = got[(n * l.cols[1] + r) * l.windows + w];
                if (memcmp(&want, &have, 4) != 0 && bad++ == 0)
                    printf("FAIL %s im2col [%lld,%lld,%lld]: %g, want %g\n", g->name, (long long)n,
                           (long long)r, (long long)w, have, want);
            }
    EXPECT(bad == 0, "%s: %d im2col elements differ", g->name, bad);
    plugin->memory_free(backend, xm);
    plugin->memory_free(backend, cm);
    free(x);
    free(got);
}

static void check_col2im(const struct geometry *g)
{
    struct layout l;
    layout_of(g, &l);
    int nd = g->nd;
    int64_t cols_n = l.cols[0] * l.cols[1] * l.cols[2];
    float *cols = values(cols_n, 2), *got = malloc((size_t)l.numel * 4 + 4);
    float *want = calloc((size_t)l.numel + 1, 4);
    /* The shader's order: per image element, kernel offsets ascending. Each
     * image element has one window per offset at most, so summing the
     * columns in (row, window) order per element gives the same sequence. */
    for (int64_t n = 0; n < l.cols[0]; ++n)
        for (int64_t r = 0; r < l.cols[1]; ++r)
            for (int64_t w = 0; w < l.windows; ++w) {
                int64_t at = source(g, &l, n, r, w);
                if (at >= 0)
                    want[at] += cols[(n * l.cols[1] + r) * l.windows + w];
            }
    struct view vx, vc;
    void *xm = upload(NULL, (size_t)l.numel * 4 + 4), *cm = upload(cols, (size_t)cols_n * 4);
    view_of(&vx, xm, TSR_FLOAT32, 2 + nd, l.image, l.image_strides, 0, 4);
    view_of(&vc, cm, TSR_FLOAT32, 3, l.cols, l.cols_strides, 0, 4);
    tsr_conv_attrs a = attrs_of(g);
    int status = call(TSR_OP_COL2IM, &vx, &vc, &a);
    EXPECT(status == TSR_OK, "%s: col2im: %s", g->name, last_error);
    download(xm, got, (size_t)l.numel * 4);
    int bad = 0;
    for (int64_t i = 0; i < l.numel; ++i)
        if (memcmp(&want[i], &got[i], 4) != 0 && bad++ == 0)
            printf("FAIL %s col2im [%lld]: %.9g, want %.9g\n", g->name, (long long)i, got[i],
                   want[i]);
    EXPECT(bad == 0, "%s: %d col2im elements differ", g->name, bad);
    plugin->memory_free(backend, xm);
    plugin->memory_free(backend, cm);
    free(cols);
    free(got);
    free(want);
}

static const struct geometry GEOMETRIES[] = {
    {"plain_2d", 2, 2, 3, {5, 4}, {2, 2}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, 0},
    {"stride_padding_dilation", 2, 1, 2, {7, 6}, {3, 2}, {2, 1}, {1, 2}, {1, 2}, {1, 2}, 0},
    {"padding_past_half", 2, 1, 1, {3, 3}, {2, 2}, {1, 1}, {2, 2}, {2, 2}, {1, 1}, 0},
    {"same_even_kernel", 2, 1, 2, {5, 6}, {4, 2}, {1, 1}, {1, 0}, {2, 1}, {1, 1}, 0},
    {"channels_last", 2, 2, 4, {5, 5}, {3, 3}, {1, 2}, {1, 1}, {1, 1}, {1, 1}, 1},
    {"conv1d", 1, 2, 3, {11}, {3}, {2}, {1}, {1}, {2}, 0},
    {"conv3d", 3, 1, 2, {4, 5, 3}, {2, 3, 2}, {1, 2, 1}, {1, 0, 1}, {1, 0, 1}, {1, 1, 2}, 0},
    {"negative_padding_end", 1, 1, 1, {6}, {2}, {1}, {0}, {-1}, {3}, 0},
};

static void im2col_and_col2im_match_the_host(void)
{
    for (size_t i = 0; i < sizeof GEOMETRIES / sizeof GEOMETRIES[0]; ++i) {
        check_im2col(&GEOMETRIES[i]);
        check_col2im(&GEOMETRIES[i]);
    }
}

/* Columns of the wrong shape: refused, the output keeps its bits. */
static void mismatched_columns_are_refused(void)
{
    struct geometry g = GEOMETRIES[0];
    struct layout l;
    layout_of(&g, &l);
    float x[2 * 3 * 5 * 4], sentinel[64], back[64];
    for (int i = 0; i < 64; ++i)
        sentinel[i] = (float)i;
    struct view vx, vc;
    void *xm = upload(x, sizeof x), *cm = upload(sentinel, sizeof sentinel);
    int64_t wrong[3] = {2, 12, 5}, wrong_strides[3] = {60, 5, 1};
    view_of(&vx, xm, TSR_FLOAT32, 4, l.image, l.image_strides, 0, 4);
    view_of(&vc, cm, TSR_FLOAT32, 3, wrong, wrong_strides, 0, 4);
    tsr_conv_attrs a = attrs_of(&g);
    int status = call(TSR_OP_IM2COL, &vc, &vx, &a);
    EXPECT(status == TSR_ERR_SHAPE, "im2col accepted columns [2, 12, 5] (status %d)", status);
    EXPECT(!has_kernel(TSR_OP_IM2COL, TSR_FLOAT64, TSR_FLOAT64), "im2col claims float64");
    download(cm, back, sizeof back);
    EXPECT(memcmp(back, sentinel, sizeof back) == 0, "a refused im2col wrote its output");
    plugin->memory_free(backend, xm);
    plugin->memory_free(backend, cm);
}

void run_all_cases(void)
{
    im2col_and_col2im_match_the_host();
    mismatched_columns_are_refused();
}
