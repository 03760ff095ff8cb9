/* repr(tensor) as torch/_tensor_str.py (PyTorch 1.13) writes it with the
 * default print options. The rules mirrored here, by that file's names:
 * _Formatter (int_mode, sci_mode, max_width over the summarized data),
 * _vector_str (elements per line from linewidth), _tensor_str_with_formatter
 * (nesting and "..."), _str_intern (suffixes) and _add_suffixes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/backend.h"
#include "runtime/alloc.h"
#include "runtime/error.h"
#include "tensor/copy.h"

enum { PRECISION = 4, THRESHOLD = 1000, EDGEITEMS = 3, LINEWIDTH = 80, INDENT = 7 };

/* ---- a growing string ---- */

typedef struct text {
    char *p;
    size_t len, cap;
    bool failed;
} text;

static void put(text *s, const char *str, size_t n)
{
    if (s->failed)
        return;
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->len + n + 1)
            cap *= 2;
        char *p = tsr__realloc(s->p, cap);
        if (!p) {
            s->failed = true;
            return;
        }
        s->p = p, s->cap = cap;
    }
    memcpy(s->p + s->len, str, n);
    s->len += n;
    s->p[s->len] = '\0';
}

static void puts_(text *s, const char *str)
{
    put(s, str, strlen(str));
}

static void spaces(text *s, int n)
{
    for (int i = 0; i < n; i++)
        put(s, " ", 1);
}

/* ---- the values, on the host ---- */

typedef struct values {
    bool floating, complex, boolean;
    const int64_t *shape;
    int ndim;
    int64_t numel;
    double *f;  /* floating: numel values; complex: 2 * numel (re, im) */
    int64_t *i; /* integers and bool */
} values;

/* ---- _Formatter ---- */

typedef struct formatter {
    bool floating, int_mode, sci_mode;
    int max_width;
} formatter;

/* Python's "{:.Nf}" / "{:.Ne}" for a double: C's with Python's spelling of
 * NaN (never "-nan"). */
static void format_float(char *buf, size_t size, const char *conv, int width, double v)
{
    if (isnan(v))
        snprintf(buf, size, "nan");
    else if (isinf(v))
        snprintf(buf, size, v > 0 ? "inf" : "-inf");
    else if (strcmp(conv, "e") == 0)
        snprintf(buf, size, "%*.*e", width, PRECISION, v);
    else if (strcmp(conv, "f") == 0)
        snprintf(buf, size, "%.*f", PRECISION, v);
    else
        snprintf(buf, size, "%.0f", v);
}

static int len_of(const char *conv, double v)
{
    char buf[64];
    format_float(buf, sizeof buf, conv, 0, v);
    return (int)strlen(buf);
}

static void int_str(char *buf, size_t size, bool boolean, int64_t v)
{
    if (boolean)
        snprintf(buf, size, "%s", v ? "True" : "False");
    else
        snprintf(buf, size, "%lld", (long long)v);
}

/* `pick` lists the element indices of the summarized data; stride 2 and
 * offset 0 or 1 select the real or imaginary parts of complex data. */
static formatter make_float_formatter(const double *f, int step, const int64_t *pick, int64_t n)
{
    formatter fm = {.floating = true, .int_mode = true, .max_width = 1};
    double lo = INFINITY, hi = 0;
    int64_t count = 0;
    for (int64_t k = 0; k < n; k++) {
        double v = f[pick[k] * step];
        if (!isfinite(v) || v == 0)
            continue;
        count++;
        lo = fmin(lo, fabs(v)), hi = fmax(hi, fabs(v));
        if (v != ceil(v))
            fm.int_mode = false;
    }
    if (count == 0)
        return fm;
    bool wide = hi / lo > 1000.0 || hi > 1.0e8;
    fm.sci_mode = fm.int_mode ? wide : wide || lo < 1.0e-4;
    const char *conv = fm.sci_mode ? "e" : fm.int_mode ? "0" : "f";
    for (int64_t k = 0; k < n; k++) {
        double v = f[pick[k] * step];
        if (!isfinite(v) || v == 0)
            continue;
        int w = len_of(conv, v) + (fm.int_mode && !fm.sci_mode ? 1 : 0);
        if (w > fm.max_width)
            fm.max_width = w;
    }
    return fm;
}

static formatter make_int_formatter(const values *v, const int64_t *pick, int64_t n)
{
    formatter fm = {.max_width = 1};
    for (int64_t k = 0; k < n; k++) {
        char buf[32];
        int_str(buf, sizeof buf, v->boolean, v->i[pick[k]]);
        if ((int)strlen(buf) > fm.max_width)
            fm.max_width = (int)strlen(buf);
    }
    return fm;
}

/* _Formatter.format: padded on the left to max_width. */
static void format_value(const formatter *fm, const values *v, double f, int64_t i, char *out,
                         size_t size)
{
    char buf[64];
    if (!fm->floating) {
        int_str(buf, sizeof buf, v->boolean, i);
    } else if (fm->sci_mode) {
        format_float(buf, sizeof buf, "e", fm->max_width, f);
    } else if (fm->int_mode) {
        format_float(buf, sizeof buf, "0", 0, f);
        if (isfinite(f))
            strcat(buf, ".");
    } else {
        format_float(buf, sizeof buf, "f", 0, f);
    }
    int pad = fm->max_width - (int)strlen(buf);
    snprintf(out, size, "%*s%s", pad > 0 ? pad : 0, "", buf);
}

/* ---- walking the tensor ---- */

typedef struct printer {
    const values *v;
    bool summarize;
    formatter re, im; /* im only for complex */
    text *s;
} printer;

static void element(const printer *pr, int64_t index, char *out, size_t size)
{
    const values *v = pr->v;
    if (!v->complex) {
        format_value(&pr->re, v, v->floating ? v->f[index] : 0, v->floating ? 0 : v->i[index], out,
                     size);
        return;
    }
    char re[64], im[80];
    format_value(&pr->re, v, v->f[2 * index], 0, re, sizeof re);
    format_value(&pr->im, v, v->f[2 * index + 1], 0, im, sizeof im);
    const char *imag = im;
    while (*imag == ' ')
        imag++;
    snprintf(out, size, "%s%s%sj", re, *imag == '+' || *imag == '-' ? "" : "+", imag);
}

static int64_t stride_of(const values *v, int dim)
{
    int64_t stride = 1;
    for (int d = dim + 1; d < v->ndim; d++)
        stride *= v->shape[d];
    return stride;
}

static bool elided(const printer *pr, int dim)
{
    return pr->summarize && pr->v->shape[dim] > 2 * EDGEITEMS;
}

static void vector(const printer *pr, int64_t base, int indent)
{
    int element_length = pr->re.max_width + 2 + (pr->v->complex ? pr->im.max_width + 1 : 0);
    int per_line = (LINEWIDTH - indent) / element_length;
    if (per_line < 1)
        per_line = 1;
    int64_t n = pr->v->shape[pr->v->ndim - 1];
    bool cut = elided(pr, pr->v->ndim - 1);
    int64_t items = cut ? 2 * EDGEITEMS + 1 : n;
    put(pr->s, "[", 1);
    for (int64_t k = 0; k < items; k++) {
        if (k > 0) {
            puts_(pr->s, ",");
            if (k % per_line == 0) {
                puts_(pr->s, "\n");
                spaces(pr->s, indent + 1);
            } else {
                puts_(pr->s, " ");
            }
        }
        char buf[160];
        if (cut && k == EDGEITEMS)
            snprintf(buf, sizeof buf, " ...");
        else
            element(pr, base + (cut && k > EDGEITEMS ? n - (items - k) : k), buf, sizeof buf);
        puts_(pr->s, buf);
    }
    put(pr->s, "]", 1);
}

static void nested(const printer *pr, int dim, int64_t base, int indent)
{
    if (dim == pr->v->ndim - 1) {
        vector(pr, base, indent);
        return;
    }
    int64_t n = pr->v->shape[dim], stride = stride_of(pr->v, dim);
    bool cut = elided(pr, dim);
    int64_t items = cut ? 2 * EDGEITEMS + 1 : n;
    put(pr->s, "[", 1);
    for (int64_t k = 0; k < items; k++) {
        if (k > 0) {
            puts_(pr->s, ",");
            for (int d = dim + 1; d < pr->v->ndim; d++)
                puts_(pr->s, "\n");
            spaces(pr->s, indent + 1);
        }
        if (cut && k == EDGEITEMS)
            puts_(pr->s, "...");
        else
            nested(pr, dim + 1, base + (cut && k > EDGEITEMS ? n - (items - k) : k) * stride,
                   indent + 1);
    }
    put(pr->s, "]", 1);
}

/* get_summarized_data's elements: their flat indices, in order. */
static int64_t pick_elements(const values *v, bool summarize, int dim, int64_t base, int64_t *pick,
                             int64_t count)
{
    if (dim == v->ndim) {
        pick[count] = base;
        return count + 1;
    }
    int64_t n = v->shape[dim], stride = stride_of(v, dim);
    for (int64_t k = 0; k < n; k++) {
        if (summarize && n > 2 * EDGEITEMS && k == EDGEITEMS)
            k = n - EDGEITEMS;
        count = pick_elements(v, summarize, dim + 1, base + k * stride, pick, count);
    }
    return count;
}

/* ---- the suffixes ---- */

static bool default_dtype(tsr_dtype d)
{
    return d == TSR_FLOAT32 || d == TSR_COMPLEX64 || d == TSR_INT64 || d == TSR_BOOL;
}

static void add_suffixes(text *s, char suffixes[][96], int count)
{
    const char *last_nl = s->p ? strrchr(s->p, '\n') : NULL;
    /* _add_suffixes: len(str) - str.rfind("\n") + 1, rfind giving -1 */
    long last = last_nl ? (long)(s->len - (size_t)(last_nl - s->p)) + 1 : (long)s->len + 2;
    for (int k = 0; k < count; k++) {
        long n = (long)strlen(suffixes[k]);
        if (last + n + 2 > LINEWIDTH) {
            puts_(s, ",\n");
            spaces(s, INDENT);
            last = INDENT + n;
        } else {
            puts_(s, ", ");
            last += n + 2;
        }
        puts_(s, suffixes[k]);
    }
    puts_(s, ")");
}

static int suffixes_of(const tsr_tensor *t, char suffixes[][96])
{
    int count = 0;
    tsr_backend *b = tsr_tensor_backend(t);
    if (b && !b->host_memory)
        snprintf(suffixes[count++], 96, "device='%s'", b->name);
    int64_t numel = tsr_tensor_numel(t);
    if (numel == 0 && tsr_tensor_ndim(t) != 1) {
        char shape[80] = "(";
        for (int d = 0; d < tsr_tensor_ndim(t); d++) {
            size_t len = strlen(shape);
            snprintf(shape + len, sizeof shape - len, "%s%lld", d ? ", " : "",
                     (long long)tsr_tensor_shape(t)[d]);
        }
        snprintf(suffixes[count++], 96, "size=%s)", shape);
    }
    tsr_dtype d = tsr_tensor_dtype(t);
    if (numel == 0 ? d != TSR_FLOAT32 : !default_dtype(d))
        snprintf(suffixes[count++], 96, "dtype=torch.%s", tsr_dtype_name(d));
    const char *grad_fn = tsr_tensor_grad_fn_name(t);
    if (grad_fn)
        snprintf(suffixes[count++], 96, "grad_fn=<%s>", grad_fn);
    else if (tsr_tensor_requires_grad(t))
        snprintf(suffixes[count++], 96, "requires_grad=True");
    return count;
}

/* ---- the data ---- */

static tsr_status load_values(const tsr_tensor *t, values *v, void **buffer)
{
    tsr_dtype d = tsr_tensor_dtype(t);
    v->complex = tsr_dtype_is_complex(d);
    v->floating = v->complex || tsr_dtype_is_floating(d);
    v->boolean = d == TSR_BOOL;
    v->shape = tsr_tensor_shape(t);
    v->ndim = tsr_tensor_ndim(t);
    v->numel = tsr_tensor_numel(t);
    tsr_dtype wide = v->complex ? TSR_COMPLEX128 : v->floating ? TSR_FLOAT64 : TSR_INT64;
    size_t bytes = (size_t)v->numel * tsr_dtype_size(wide);
    *buffer = tsr__malloc(bytes ? bytes : 1);
    if (!*buffer)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tensor_to_string: out of host memory");
    tsr_tensor *w = NULL;
    tsr_status st = tsr__convert("tensor_to_string", t, wide, &w);
    if (st == TSR_OK)
        st = tsr__rename_error("tensor_to_string", "to_host", tsr_to_host(w, *buffer, bytes));
    tsr_tensor_release(w);
    v->f = v->floating ? *buffer : NULL;
    v->i = v->floating ? NULL : *buffer;
    return st;
}

static void write_data(const values *v, text *s)
{
    if (v->numel == 0) {
        puts_(s, "[]");
        return;
    }
    bool summarize = v->numel > THRESHOLD;
    int64_t picked = 1; /* at most 2 * EDGEITEMS per dim when summarized */
    for (int d = 0; d < v->ndim; d++)
        picked *= summarize && v->shape[d] > 2 * EDGEITEMS ? 2 * EDGEITEMS : v->shape[d];
    int64_t *pick = tsr__malloc((size_t)picked * sizeof *pick);
    if (!pick) {
        s->failed = true;
        return;
    }
    int64_t n = pick_elements(v, summarize, 0, 0, pick, 0);
    printer pr = {.v = v, .summarize = summarize, .s = s};
    if (v->complex) {
        pr.re = make_float_formatter(v->f, 2, pick, n);
        pr.im = make_float_formatter(v->f + 1, 2, pick, n);
    } else {
        pr.re = v->floating ? make_float_formatter(v->f, 1, pick, n) : make_int_formatter(v, pick, n);
    }
    free(pick);
    if (v->ndim == 0) {
        char buf[160];
        element(&pr, 0, buf, sizeof buf);
        puts_(s, buf);
    } else {
        nested(&pr, 0, 0, INDENT);
    }
}

tsr_status tsr_tensor_to_string(const tsr_tensor *t, char **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tensor_to_string: tensor and out must not be NULL");
    values v = {0};
    void *buffer = NULL;
    tsr_status st = load_values(t, &v, &buffer);
    if (st != TSR_OK) {
        free(buffer);
        return st;
    }
    text s = {0};
    puts_(&s, "tensor(");
    write_data(&v, &s);
    free(buffer);
    char suffixes[4][96];
    int count = suffixes_of(t, suffixes);
    add_suffixes(&s, suffixes, count);
    if (s.failed) {
        free(s.p);
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tensor_to_string: out of host memory");
    }
    *out = s.p;
    return TSR_OK;
}

void tsr_string_free(char *string)
{
    free(string);
}

tsr_status tsr_print(const tsr_tensor *t)
{
    char *s = NULL;
    tsr_status st = tsr__rename_error("print", "tensor_to_string", tsr_tensor_to_string(t, &s));
    if (st == TSR_OK) {
        puts(s);
        fflush(stdout);
    }
    tsr_string_free(s);
    return st;
}
