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
