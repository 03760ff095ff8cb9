/* Elementwise walks for the fast kernels.
 *
 * Operands (the output, then the inputs, all of the output's shape) are
 * collapsed to the fewest dims: size-1 dims are dropped and neighbours that
 * are contiguous with each other in every operand merge. The walk only
 * takes layouts the SIMD rows handle: a contiguous innermost dim in the
 * output and, in each input, a contiguous or broadcast (stride 0) innermost
 * dim; every other stride non-negative. Anything else goes to the reference
 * kernel. Elementwise results do not depend on how the index range is cut,
 * so the pool may split it anywhere; it is cut into fixed blocks anyway. */
#ifndef TSR_CPU_WALK_H
#define TSR_CPU_WALK_H

#include <stdint.h>

#include <tessera/plugin.h>

#include "cpu_backend.h"

enum { TSR__CPU_WALK_MAX_OPERANDS = 4 };

typedef struct tsr__cpu_walk {
    int32_t operands;
    int32_t ndim; /* >= 1 after collapsing */
    int64_t numel;
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR__CPU_WALK_MAX_OPERANDS][TSR_MAX_DIMS]; /* in elements */
    char *base[TSR__CPU_WALK_MAX_OPERANDS];
    int64_t elsize[TSR__CPU_WALK_MAX_OPERANDS];
} tsr__cpu_walk;

/* Prepares a walk over `out` and `inputs` (num_inputs <= 3). Returns 1 when
 * the layout fits the fast rows (see above), 0 when the caller must use the
 * reference kernel. Never reports errors: the reference kernel does. */
int tsr__cpu_walk_init(tsr__cpu_walk *walk, const tsr_tensor_desc *out,
                       const tsr_tensor_desc *inputs, int32_t num_inputs);

/* Processes elements [0, n) of one innermost row: element i of operand k is
 * ptrs[k] + i * steps[k] * elsize[k], steps being 1 or 0 (output always 1). */
typedef void (*tsr__cpu_row_fn)(void *context, char *const *ptrs, const int64_t *steps, int64_t n);

/* Calls `row` over flat indices [begin, end) in row-major order. */
void tsr__cpu_walk_range(const tsr__cpu_walk *walk, int64_t begin, int64_t end, tsr__cpu_row_fn row,
                         void *context);

/* Runs the whole walk on the pool in blocks of `grain` elements (one block,
 * on the calling thread, when numel <= grain). */
void tsr__cpu_walk_run(tsr__cpu_backend *backend, const tsr__cpu_walk *walk, int64_t grain,
                       tsr__cpu_row_fn row, void *context);

/* 1 when `desc` is row-major without gaps over its dims of extent > 1 and
 * has memory: the layout the row kernels (reductions, softmax, norms, sort,
 * gathers) take as one flat array. Size-1 dims may have any stride. */
int tsr__cpu_desc_dense(const tsr_tensor_desc *desc);

/* Elements per task for streaming elementwise work: large enough that the
 * pool's wake-up cost disappears, small enough to balance two threads. */
#define TSR__CPU_ELEMENTWISE_GRAIN ((int64_t)1 << 16)

#endif /* TSR_CPU_WALK_H */
