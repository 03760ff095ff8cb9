/* Launch planning (launch_plan.h). */
#include "launch_plan.h"

tsr__cu_grid tsr__cu_plan_elementwise(int64_t count)
{
    tsr__cu_grid grid = {1, TSR__CU_THREADS};
    if (count > 0) {
        int64_t blocks = count / TSR__CU_THREADS + (count % TSR__CU_THREADS != 0);
        grid.blocks = (uint32_t)(blocks > TSR__CU_MAX_BLOCKS ? TSR__CU_MAX_BLOCKS : blocks);
    }
    return grid;
}

int64_t tsr__cu_term_blocks(int64_t terms)
{
    return terms <= 0 ? 0 : (terms - 1) / TSR__CU_TERM_BLOCK + 1;
}

uint64_t tsr__cu_lane_sum(const uint64_t *terms, int64_t count, uint64_t identity,
                          tsr__cu_combine_fn combine)
{
    uint64_t lanes[TSR__CU_LANES];
    for (int l = 0; l < TSR__CU_LANES; l++)
        lanes[l] = identity;
    for (int64_t k = 0; k < count; k++)
        lanes[k % TSR__CU_LANES] = combine(lanes[k % TSR__CU_LANES], terms[k]);
    for (int w = TSR__CU_LANES / 2; w >= 1; w /= 2) {
        for (int i = 0; i < w; i++)
            lanes[i] = combine(lanes[i], lanes[i + w]);
    }
    return lanes[0];
}

uint64_t tsr__cu_tree_sum(uint64_t *values, int64_t count, tsr__cu_combine_fn combine)
{
    for (int64_t s = 1; s < count; s *= 2) {
        for (int64_t i = 0; i + s < count; i += 2 * s)
            values[i] = combine(values[i], values[i + s]);
    }
    return values[0];
}

void tsr__cu_collapse(tsr__cu_layout *l)
{
    int32_t n = 0;
    for (int32_t d = 0; d < l->ndim; d++) {
        if (l->shape[d] == 0) { /* nothing to run: one empty dim */
            l->ndim = 1;
            l->shape[0] = 0;
            for (int32_t k = 0; k < l->operands; k++)
                l->strides[k][0] = 0;
            return;
        }
        if (l->shape[d] == 1)
            continue;
        int merge = n > 0;
        for (int32_t k = 0; merge && k < l->operands; k++)
            merge = l->strides[k][n - 1] == l->strides[k][d] * l->shape[d];
        if (merge) {
            l->shape[n - 1] *= l->shape[d];
            for (int32_t k = 0; k < l->operands; k++)
                l->strides[k][n - 1] = l->strides[k][d];
            continue;
        }
        l->shape[n] = l->shape[d];
        for (int32_t k = 0; k < l->operands; k++)
            l->strides[k][n] = l->strides[k][d];
        n++;
    }
    l->ndim = n;
}

int64_t tsr__cu_layout_count(const tsr__cu_layout *l)
{
    int64_t count = 1;
    for (int32_t d = 0; d < l->ndim; d++)
        count *= l->shape[d];
    return count;
}

int tsr__cu_layout_fits_int32(const tsr__cu_layout *l)
{
    const int64_t limit = INT64_C(1) << 31;
    if (tsr__cu_layout_count(l) >= limit)
        return 0;
    for (int32_t k = 0; k < l->operands; k++) {
        int64_t last = 0;
        for (int32_t d = 0; d < l->ndim; d++) {
            int64_t steps = l->shape[d] - 1; /* the largest index along d */
            if (steps > 0 && l->strides[k][d] > (limit - 1 - last) / steps)
                return 0;
            last += steps > 0 ? steps * l->strides[k][d] : 0;
        }
    }
    return 1;
}

int tsr__cu_layout_vectorizable(const tsr__cu_layout *l, const uintptr_t *addresses,
                                const int32_t *element_sizes)
{
    if (l->ndim > 1)
        return 0;
    for (int32_t k = 0; k < l->operands; k++) {
        int64_t stride = l->ndim == 1 ? l->strides[k][0] : 1;
        if (stride == 0 && k > 0)
            continue;
        if (stride != 1 || addresses[k] % ((uintptr_t)TSR__CU_VEC * (uintptr_t)element_sizes[k]))
            return 0;
    }
    return 1;
}
