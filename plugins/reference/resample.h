/* What the resampling kernels share (resample.c, resample_grid.c): the
 * tensors of one call seen as [N, C, S0, S1, S2], with the spatial dims a
 * tensor lacks added in front with size 1, so that one loop serves 1-, 2-
 * and 3-d inputs. */
#ifndef TSR_REFERENCE_RESAMPLE_H
#define TSR_REFERENCE_RESAMPLE_H

#include <stdint.h>
#include <string.h>

#include <tessera/plugin.h>

enum { TSR__REF_RESAMPLE_DIMS = 3 };

/* A [N, C, spatial...] descriptor in five dims, strides in bytes. */
typedef struct tsr__ref_volume {
    char *base;
    int64_t size[2 + TSR__REF_RESAMPLE_DIMS];
    int64_t step[2 + TSR__REF_RESAMPLE_DIMS];
} tsr__ref_volume;

/* Fills *v from desc, whose rank must be 2 + k with k in 1..3. */
static inline void tsr__ref_volume_init(tsr__ref_volume *v, const tsr_tensor_desc *desc,
                                        int64_t esize)
{
    int k = desc->ndim - 2;
    v->base = (char *)desc->data + desc->byte_offset;
    for (int d = 0; d < 2 + TSR__REF_RESAMPLE_DIMS; d++) {
        v->size[d] = 1;
        v->step[d] = 0;
    }
    for (int d = 0; d < 2; d++) {
        v->size[d] = desc->shape[d];
        v->step[d] = desc->strides[d] * esize;
    }
    for (int d = 0; d < k; d++) {
        int to = 2 + TSR__REF_RESAMPLE_DIMS - k + d;
        v->size[to] = desc->shape[2 + d];
        v->step[to] = desc->strides[2 + d] * esize;
    }
}

/* The precision ATen's resampling arithmetic runs in for a dtype. */
enum { TSR__REF_PREC_DOUBLE = 0, TSR__REF_PREC_FLOAT = 1, TSR__REF_PREC_BFLOAT16 = 2 };

/* Rounds v to the precision: applied after every operation, it makes double
 * arithmetic give float's (or bfloat16's) results, as ATen's arithmetic in
 * the input's type does. float results of + - * / are exact in double, so
 * rounding those to bfloat16 equals bfloat16's own operators. */
static inline double tsr__ref_resample_round(int prec, double v)
{
    if (prec == TSR__REF_PREC_DOUBLE)
        return v;
    float f = (float)v;
    if (prec == TSR__REF_PREC_FLOAT || f != f)
        return (double)f;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
    memcpy(&f, &bits, sizeof f);
    return (double)f;
}

/* One spatial dim of upsample (resample.c): for each output position the
 * input positions it reads and their weights, as the kernel computes them.
 * The cpu backend builds the same tables to give the same bits. */
typedef struct tsr__ref_resample_axis {
    int taps;       /* per output position: 1, 2 or 4 */
    int64_t *index; /* [out * taps] input positions */
    double *weight; /* [out * taps] */
} tsr__ref_resample_axis;

/* The TSR__REF_PREC_* of a dtype's index arithmetic. */
int tsr__ref_resample_prec(int32_t dtype);
/* The table of a dim from `in` to `out` positions with scale factor `given`
 * (<= 0: none); a dim the tensor lacks (real_dim 0) has one tap of weight 1.
 * backward: ATen's nearest backward indexing. TSR_ERR_OUT_OF_MEMORY or
 * TSR_OK; free with tsr__ref_resample_axis_free either way. */
int tsr__ref_resample_axis_build(const tsr_resample_attrs *at, int prec, int backward, int64_t in,
                                 int64_t out, double given, int real_dim,
                                 tsr__ref_resample_axis *axis);
void tsr__ref_resample_axis_free(tsr__ref_resample_axis *axis);

#endif
