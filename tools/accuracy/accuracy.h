/* tessera-accuracy's pieces: the op table and reference functions
 * (accuracy_ops.c), the results table, bounds and document
 * (accuracy_report.c), the sweep (tessera_accuracy.c). */
#ifndef TSR_TOOLS_ACCURACY_H
#define TSR_TOOLS_ACCURACY_H

#include <stdbool.h>
#include <stdint.h>

#include <tessera/tessera.h>

enum { ACC_MAX_BACKENDS = 4, ACC_MAX_ROWS = 512 };

typedef struct acc_format {
    tsr_dtype dtype;
    int precision; /* significand bits, the implicit one included */
    int emin;      /* exponent of the smallest normal */
    int emax;      /* 2^emax is the first value past the largest finite one */
    int size;      /* bytes */
} acc_format;

/* count inputs: bit patterns first, first + step, ... (mod the width);
 * other: the second operand's walk for binary ops. */
typedef struct acc_sweep_walk {
    uint64_t first, step, count;
} acc_sweep_walk;

typedef struct acc_sweep {
    acc_sweep_walk x, y;
} acc_sweep;

typedef struct acc_op {
    const char *name;
    tsr_op op;
    bool binary;
    long double (*unary_ref)(long double);
    long double (*binary_ref)(long double, long double);
} acc_op;

typedef struct acc_result {
    const char *op, *dtype, *backend;
    bool claimed, bounded;
    uint64_t count, specials;
    double max_ulp, worst_x, worst_y, special_x;
} acc_result;

typedef struct acc_table {
    int rows;
    acc_result r[ACC_MAX_ROWS];
} acc_table;

typedef struct acc_options {
    const char *backends, *ops;
    unsigned long long stride, samples;
    const char *bounds, *write_bounds, *doc;
} acc_options;

extern const acc_op acc_ops[]; /* ends with a NULL name */

double acc_ulp_error(long double got, long double ref, const acc_format *fmt);
long double acc_load(const acc_format *f, const void *p);
long double acc_reference(const acc_op *op, long double x, long double y);
tsr_status acc_call(const acc_op *op, const tsr_tensor *x, const tsr_tensor *y, tsr_tensor **out);
bool acc_selected(const char *list, const char *name);
int acc_open_backends(const char *list, tsr_backend **out, const char **names);

void acc_print(const acc_result *r);
int acc_table_add(acc_table *t, const acc_result *r);
int acc_write_bounds(const acc_table *t, const char *path);
int acc_write_doc(const acc_table *t, const acc_options *o, const char *path);
int acc_check_bounds(acc_table *t, const char *path, const char **names, int nbe);

#endif
