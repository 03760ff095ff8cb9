/* The UCI digits for the training demos: see digits_data.h. */
#define _POSIX_C_SOURCE 200809L

#include "digits_data.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

int digits_load(const char *prog, const char *path, digits_dataset *d)
{
    gzFile f = gzopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open %s\n", prog, path);
        return 1;
    }
    int cap = 2048, line_no = 0, rc = 0;
    d->n = 0;
    d->x = malloc((size_t)cap * DIGITS_PIXELS * sizeof *d->x);
    d->y = malloc((size_t)cap * sizeof *d->y);
    char line[1024];
    while (rc == 0 && d->x && d->y && gzgets(f, line, sizeof line)) {
        line_no++;
        if (line[0] == '\n' || line[0] == '\0')
            continue;
        if (d->n == cap) {
            fprintf(stderr, "%s: %s: more than %d rows\n", prog, path, cap);
            rc = 1;
            break;
        }
        char *p = line, *end;
        for (int c = 0; c <= DIGITS_PIXELS && rc == 0; c++) {
            long v = strtol(p, &end, 10);
            bool bad = end == p || (c < DIGITS_PIXELS ? (v < 0 || v > 16 || *end != ',')
                                                      : (v < 0 || v >= DIGITS_CLASSES));
            if (bad) {
                fprintf(stderr, "%s: %s:%d: malformed row\n", prog, path, line_no);
                rc = 1;
            } else if (c < DIGITS_PIXELS) {
                d->x[(size_t)d->n * DIGITS_PIXELS + c] = (float)v / 16.0f;
            } else {
                d->y[d->n] = v;
            }
            p = end + 1;
        }
        d->n++;
    }
    if (!d->x || !d->y) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = 1;
    }
    gzclose(f);
    if (rc == 0 && d->n == 0) {
        fprintf(stderr, "%s: %s holds no rows\n", prog, path);
        rc = 1;
    }
    return rc;
}

void digits_free(digits_dataset *d)
{
    free(d->x);
    free(d->y);
}

/* Fisher-Yates driven by uniforms drawn as float32, which every backend
 * holds: the values are the same bits everywhere. */
tsr_status digits_permutation(tsr_generator *gen, int n, int *perm)
{
    int64_t shape = n;
    tsr_tensor *u = NULL;
    float *host = malloc((size_t)n * sizeof *host);
    if (!host)
        return TSR_ERR_OUT_OF_MEMORY;
    tsr_status st = tsr_rand(gen, 1, &shape, TSR_FLOAT32, NULL, &u);
    if (st == TSR_OK)
        st = tsr_to_host(u, host, (size_t)n * sizeof *host);
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; st == TSR_OK && i > 0; i--) {
        int j = (int)(host[i] * (float)(i + 1));
        j = j > i ? i : j;
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    tsr_tensor_release(u);
    free(host);
    return st;
}

tsr_status digits_gather(const digits_dataset *d, const int *idx, int count, float *xbuf,
                         int64_t *ybuf, tsr_tensor **x, tsr_tensor **y)
{
    for (int i = 0; i < count; i++) {
        memcpy(xbuf + (size_t)i * DIGITS_PIXELS, d->x + (size_t)idx[i] * DIGITS_PIXELS,
               DIGITS_PIXELS * sizeof *xbuf);
        ybuf[i] = d->y[idx[i]];
    }
    int64_t xshape[2] = {count, DIGITS_PIXELS}, yshape = count;
    tsr_status st = tsr_from_host(xbuf, (size_t)count * DIGITS_PIXELS * sizeof *xbuf, 2, xshape,
                                  TSR_FLOAT32, NULL, x);
    if (st == TSR_OK && y) {
        st = tsr_from_host(ybuf, (size_t)count * sizeof *ybuf, 1, &yshape, TSR_INT64, NULL, y);
        if (st != TSR_OK)
            tsr_tensor_release(*x);
    }
    return st;
}

const char *digits_default_path(const char *installed, const char *source, char *buf,
                                size_t capacity)
{
    ssize_t n = readlink("/proc/self/exe", buf, capacity - 1);
    if (n > 0)
        buf[n] = '\0';
    char *slash = n > 0 ? strrchr(buf, '/') : NULL;
    size_t len = strlen(installed) + 1;
    if (slash && (size_t)(slash + 1 - buf) + len <= capacity) {
        memcpy(slash + 1, installed, len);
        if (access(buf, R_OK) == 0)
            return buf;
    }
    return source;
}
