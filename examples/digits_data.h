/* The UCI digits for the training demos (train_digits.c, train_digits_cnn.c):
 * loading examples/data/digits.csv.gz, the seeded shuffle that splits it, and
 * gathering rows into tensors. Each function reports errors on stderr
 * prefixed by the program's name. */
#ifndef TESSERA_EXAMPLES_DIGITS_DATA_H
#define TESSERA_EXAMPLES_DIGITS_DATA_H

#include <tessera/tessera.h>

#include <stddef.h>
#include <stdint.h>

enum { DIGITS_PIXELS = 64, DIGITS_SIDE = 8, DIGITS_CLASSES = 10 };

typedef struct digits_dataset {
    int n;
    float *x;   /* n x DIGITS_PIXELS, scaled to [0, 1] */
    int64_t *y; /* n labels */
} digits_dataset;

/* Reads "p0,...,p63,label" lines; pixels 0..16 become p / 16. Returns 0, or
 * 1 after a message naming `prog`; free the dataset either way. */
int digits_load(const char *prog, const char *path, digits_dataset *d);
void digits_free(digits_dataset *d);

/* A seeded permutation of 0..n-1 drawn from the library's generator, the
 * same on every backend. */
tsr_status digits_permutation(tsr_generator *gen, int n, int *perm);

/* Rows idx[0..count) of d as an [count, 64] float32 tensor and [count] int64
 * labels (y may be NULL: labels only copied to ybuf). xbuf and ybuf hold
 * count rows. */
tsr_status digits_gather(const digits_dataset *d, const int *idx, int count, float *xbuf,
                         int64_t *ybuf, tsr_tensor **x, tsr_tensor **y);

/* The digits beside an installed binary (`installed`, relative to the
 * binary's directory) when present, else `source` (the source tree's copy
 * the binary was built from). buf holds the result. */
const char *digits_default_path(const char *installed, const char *source, char *buf,
                                size_t capacity);

#endif /* TESSERA_EXAMPLES_DIGITS_DATA_H */
