/* The gradient of the scans (internal). */
#ifndef TSR_CORE_OPS_SCAN_GRAD_H
#define TSR_CORE_OPS_SCAN_GRAD_H

#include "tensor/tensor.h"

/* Which formula a scan's node uses (PyTorch's derivatives.yaml). */
typedef enum tsr__scan_grad_kind {
    TSR__SGRAD_CUMSUM,
    TSR__SGRAD_CUMPROD,
    TSR__SGRAD_CUMMAXMIN, /* cummax, cummin: to the indices (passed as indices) */
    TSR__SGRAD_LOGCUMSUMEXP,
} tsr__scan_grad_kind;

/* Records scan `name` of t along dim (wrapped); indices: cummax's and
 * cummin's int64 indices (NULL for the others). Nothing unless t needs a
 * gradient and out is floating. */
tsr_status tsr__grad_record_scan(tsr__scan_grad_kind kind, const char *name, const tsr_tensor *t,
                                 int dim, tsr_tensor *out, const tsr_tensor *indices);

#endif
