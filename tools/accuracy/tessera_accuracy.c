/* tessera-accuracy: the largest error, in units in the last place of the
 * result's dtype, of each transcendental kernel on each backend.
 *
 * Inputs: every float32 bit pattern (--stride 1) or every STRIDE-th one,
 * every bfloat16 and float16 pattern, and a sample of float64 patterns spread
 * evenly over the whole bit space (so every exponent and sign is visited).
 * The reference is glibc's long double function of the exact input (64-bit
 * significand: 40 bits beyond float32's, 11 beyond float64's), so the error
 * measured for float64 is accurate to about 2^-11 ulp.
 *
 * A result is a "special mismatch" where one side is NaN and the other not,
 * or one is infinite and the other finite and in range; these are counted,
 * not measured. With --bounds FILE the run fails (exit 1) if any measured
 * error or mismatch count exceeds the committed bound. */
#include "accuracy.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK ((size_t)1 << 22)

static int fmt_of(tsr_dtype dt, acc_format *f)
{
    static const acc_format formats[] = {
        {TSR_FLOAT32, 24, -126, 128, 4}, {TSR_FLOAT64, 53, -1022, 1024, 8},
        {TSR_BFLOAT16, 8, -126, 128, 2}, {TSR_FLOAT16, 11, -14, 16, 2}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].dtype == dt) {
            *f = formats[i];
            return 0;
        }
    return -1;
}

/* Error of got against the exact ref, in ulps of fmt; INFINITY for a
 * special mismatch. A ref past the overflow threshold is the infinity it
 * rounds to; an infinite result against a finite in-range ref, or a finite
 * result against an overflowing ref, stands for 2^emax, the first value past
 * the largest finite one, so a result that overflows a little early or late
 * is measured rather than counted. */
double acc_ulp_error(long double got, long double ref, const acc_format *fmt)
{
    if (isnan(ref) || isnan(got))
        return isnan(ref) && isnan(got) ? 0.0 : INFINITY;
    long double top = ldexpl(1.0L, fmt->emax);
    long double edge = top - ldexpl(1.0L, fmt->emax - fmt->precision - 1);
    if (isinf(ref))
        return got == ref ? 0.0 : INFINITY;
    if (fabsl(ref) >= edge) {
        if (isinf(got) && signbit(got) == signbit(ref))
            return 0.0;
        ref = copysignl(top, ref);
    }
    if (isinf(got))
        got = copysignl(top, got);
    if (got == ref)
        return 0.0;
    int e = ilogbl(ref == 0.0L ? ldexpl(1.0L, fmt->emin) : ref);
    if (e < fmt->emin)
        e = fmt->emin;
    return (double)(fabsl(got - ref) / ldexpl(1.0L, e - fmt->precision + 1));
}

/* The n-th input of a sweep, as a value of the dtype stored at out. */
static void make_input(const acc_format *f, const acc_sweep_walk *sw, uint64_t i, void *out)
{
    uint64_t bits = sw->first + i * sw->step;
    if (f->size == 4) {
        uint32_t b = (uint32_t)bits;
        memcpy(out, &b, 4);
    } else if (f->size == 8) {
        memcpy(out, &bits, 8);
    } else {
        uint16_t b = (uint16_t)bits;
        memcpy(out, &b, 2);
    }
}

static int run_chunk(const acc_op *op, tsr_backend *be, const acc_format *f, const void *x,
                     const void *y, size_t n, void *got)
{
    int64_t shape[1] = {(int64_t)n};
    tsr_tensor *tx = NULL, *ty = NULL, *tz = NULL;
    tsr_status st = tsr_from_host(x, n * f->size, 1, shape, f->dtype, be, &tx);
    if (st == TSR_OK && op->binary)
        st = tsr_from_host(y, n * f->size, 1, shape, f->dtype, be, &ty);
    if (st == TSR_OK)
        st = acc_call(op, tx, ty, &tz);
    if (st == TSR_OK)
        st = tsr_to_host(tz, got, n * f->size);
    tsr_tensor_release(tx);
    tsr_tensor_release(ty);
    tsr_tensor_release(tz);
    if (st != TSR_OK)
        fprintf(stderr, "tessera-accuracy: %s on %s: %s\n", op->name, tsr_backend_name(be),
                tsr_last_error());
    return st == TSR_OK ? 0 : -1;
}

/* Measures one op and dtype on every backend, chunk by chunk: the reference
 * values are computed once per chunk and shared by the backends. */
static int measure(const acc_op *op, const acc_format *f, const acc_sweep *sw,
                   tsr_backend **bes, int nbe, acc_result *res)
{
    char *x = malloc(CHUNK * 8), *y = malloc(CHUNK * 8), *got = malloc(CHUNK * 8);
    long double *ref = malloc(CHUNK * sizeof *ref);
    int rc = x && y && got && ref ? 0 : -1;
    for (uint64_t done = 0; rc == 0 && done < sw->x.count; done += CHUNK) {
        size_t n = (size_t)(sw->x.count - done < CHUNK ? sw->x.count - done : CHUNK);
        for (size_t i = 0; i < n; i++) {
            make_input(f, &sw->x, done + i, x + i * f->size);
            /* The second operand walks the space at another rate. */
            make_input(f, &sw->y, done + i, y + i * f->size);
            ref[i] = acc_reference(op, acc_load(f, x + i * f->size),
                                   acc_load(f, y + i * f->size));
        }
        for (int b = 0; b < nbe && rc == 0; b++) {
            if (!res[b].claimed)
                continue;
            rc = run_chunk(op, bes[b], f, x, y, n, got);
            for (size_t i = 0; rc == 0 && i < n; i++) {
                double e = acc_ulp_error(acc_load(f, got + i * f->size), ref[i], f);
                res[b].count++;
                if (isinf(e)) {
                    if (res[b].specials++ == 0)
                        res[b].special_x = (double)acc_load(f, x + i * f->size);
                } else if (e > res[b].max_ulp) {
                    res[b].max_ulp = e;
                    res[b].worst_x = (double)acc_load(f, x + i * f->size);
                    res[b].worst_y = (double)acc_load(f, y + i * f->size);
                }
            }
        }
    }
    free(x);
    free(y);
    free(got);
    free(ref);
    return rc;
}

static void usage(FILE *to)
{
    fputs("usage: tessera-accuracy [--backends a,b,...] [--ops a,b,...] [--stride N]\n"
          "                        [--samples N] [--bounds FILE] [--write-bounds FILE]\n"
          "                        [--doc FILE]\n"
          "  --stride N      float32: every N-th bit pattern (1: all 2^32; default 4099)\n"
          "  --samples N     float64 and binary ops: N inputs (default 2^22)\n"
          "  --bounds FILE   fail (exit 1) where an error exceeds FILE's bound\n"
          "  --write-bounds FILE, --doc FILE  write the bounds table, docs/accuracy.md\n"
          "Prints: op dtype backend inputs max_ulp worst_input specials\n"
          "Exit: 0, 1 past a bound, 2 bad usage or a failed call, 77 no backend loads\n",
          to);
}

static int parse_args(int argc, char **argv, acc_options *o)
{
    *o = (acc_options){"reference,cpu,vulkan", NULL, 4099, 1u << 22, NULL, NULL, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (!strcmp(a, "--version")) {
            printf("tessera-accuracy %s\n", tsr_version(NULL));
            exit(0);
        }
        if (!v) {
            fprintf(stderr, "tessera-accuracy: %s: unknown option or missing value\n", a);
            return -1;
        }
        i++;
        if (!strcmp(a, "--backends"))
            o->backends = v;
        else if (!strcmp(a, "--ops"))
            o->ops = v;
        else if (!strcmp(a, "--stride") || !strcmp(a, "--samples")) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (errno || *end || n == 0 || (!strcmp(a, "--stride") && n > 0xffffffffull)) {
                fprintf(stderr, "tessera-accuracy: %s: bad count '%s'\n", a, v);
                return -1;
            }
            *(a[2] == 's' && a[3] == 't' ? &o->stride : &o->samples) = n;
        } else if (!strcmp(a, "--bounds"))
            o->bounds = v;
        else if (!strcmp(a, "--write-bounds"))
            o->write_bounds = v;
        else if (!strcmp(a, "--doc"))
            o->doc = v;
        else {
            fprintf(stderr, "tessera-accuracy: unknown option %s\n", a);
            return -1;
        }
    }
    return 0;
}

/* The inputs of one dtype: float32 strided, the 16-bit ones exhaustive,
 * float64 evenly spread over the bit space. */
static acc_sweep sweep_of(const acc_format *f, const acc_options *o)
{
    acc_sweep s = {{0, 1, 0}, {0x3f800000u, 1, 0}};
    if (f->size == 2) {
        s.x.count = 65536;
    } else if (f->size == 4) {
        s.x.step = o->stride;
        s.x.count = 0xffffffffull / o->stride + 1;
    } else {
        s.x.count = o->samples;
        s.x.step = UINT64_MAX / o->samples;
        s.x.first = 0x9e3779b97f4a7c15ull % s.x.step;
    }
    s.y.count = s.x.count;
    s.y.step = f->size == 8 ? s.x.step * 3 + 1 : (f->size == 4 ? 2654435761u : 40503u);
    return s;
}

int main(int argc, char **argv)
{
    acc_options o;
    if (parse_args(argc, argv, &o) != 0) {
        usage(stderr);
        return 2;
    }
    tsr_backend *bes[ACC_MAX_BACKENDS];
    const char *names[ACC_MAX_BACKENDS];
    int nbe = acc_open_backends(o.backends, bes, names);
    if (nbe < 0)
        return 2;
    if (nbe == 0)
        return 77; /* CTest's skip, said why on stderr */
    acc_table table = {0};
    static const tsr_dtype dtypes[] = {TSR_FLOAT32, TSR_FLOAT64, TSR_BFLOAT16, TSR_FLOAT16};
    int rc = 0;
    for (const acc_op *op = acc_ops; op->name && rc == 0; op++) {
        if (!acc_selected(o.ops, op->name))
            continue;
        for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0] && rc == 0; d++) {
            acc_format f;
            fmt_of(dtypes[d], &f);
            acc_sweep sw = sweep_of(&f, &o);
            if (op->binary && f.size == 4) {
                sw.x.count = sw.y.count = o.samples;
                sw.x.step = 0xffffffffull / o.samples;
            }
            acc_result res[ACC_MAX_BACKENDS] = {{0}};
            for (int b = 0; b < nbe; b++) {
                res[b].claimed = tsr_backend_has_kernel(bes[b], op->op, f.dtype, f.dtype);
                res[b].op = op->name, res[b].dtype = tsr_dtype_name(f.dtype);
                res[b].backend = names[b];
            }
            rc = measure(op, &f, &sw, bes, nbe, res);
            for (int b = 0; b < nbe && rc == 0; b++)
                if (res[b].claimed) {
                    acc_print(&res[b]);
                    rc = acc_table_add(&table, &res[b]);
                }
        }
    }
    if (rc != 0)
        return 2;
    if (o.write_bounds && acc_write_bounds(&table, o.write_bounds) != 0)
        return 2;
    if (o.doc && acc_write_doc(&table, &o, o.doc) != 0)
        return 2;
    return o.bounds ? acc_check_bounds(&table, o.bounds, names, nbe) : 0;
}
