/* Launch planning without a device: grid sizes, and that the kernels' order
 * (stride-doubling tree) is docs/determinism.md's, checked against the
 * reference backend's stack construction with a combine function that is
 * neither associative nor commutative, so any other order shows. */
#include <stdio.h>
#include <stdlib.h>

#include "launch_plan.h"

static int failures;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

static uint64_t mix(uint64_t left, uint64_t right)
{
    return (left * 0x9E3779B97F4A7C15ull) ^ (right + 0x632BE59BD9B4E019ull + (left >> 7));
}

/* determinism.md's tree as the reference builds it: a stack of partial
 * values with block counts, merging equal counts, then top down. */
static uint64_t stack_tree(const uint64_t *values, int64_t count)
{
    uint64_t stack[64];
    int64_t sizes[64];
    int top = 0;
    for (int64_t i = 0; i < count; i++) {
        stack[top] = values[i];
        sizes[top++] = 1;
        while (top >= 2 && sizes[top - 1] == sizes[top - 2]) {
            stack[top - 2] = mix(stack[top - 2], stack[top - 1]);
            sizes[top - 2] *= 2;
            top--;
        }
    }
    while (top >= 2) {
        stack[top - 2] = mix(stack[top - 2], stack[top - 1]);
        top--;
    }
    return stack[0];
}

static void test_tree_matches_determinism_order(void)
{
    enum { MAX = 3000 };
    uint64_t *values = malloc(MAX * sizeof *values), *work = malloc(MAX * sizeof *work);
    for (int64_t i = 0; i < MAX; i++)
        values[i] = (uint64_t)i * 2654435761u + 1;
    for (int64_t n = 1; n <= MAX; n++) {
        for (int64_t i = 0; i < n; i++)
            work[i] = values[i];
        if (tsr__cu_tree_sum(work, n, mix) != stack_tree(values, n)) {
            fprintf(stderr, "tree order differs at %lld blocks\n", (long long)n);
            failures++;
            break;
        }
    }
    free(values);
    free(work);
}

static void test_lane_order(void)
{
    /* 20 terms: lane l holds terms l and l+16 (for l < 4), then halving. */
    uint64_t terms[20];
    for (int k = 0; k < 20; k++)
        terms[k] = (uint64_t)k + 100;
    uint64_t lanes[16];
    for (int l = 0; l < 16; l++)
        lanes[l] = mix(0, terms[l]);
    for (int l = 0; l < 4; l++)
        lanes[l] = mix(lanes[l], terms[l + 16]);
    for (int w = 8; w >= 1; w /= 2)
        for (int i = 0; i < w; i++)
            lanes[i] = mix(lanes[i], lanes[i + w]);
    CHECK(tsr__cu_lane_sum(terms, 20, 0, mix) == lanes[0]);
}

static void test_grids(void)
{
    tsr__cu_grid g = tsr__cu_plan_elementwise(0);
    CHECK(g.blocks == 1 && g.threads == 256);
    g = tsr__cu_plan_elementwise(257);
    CHECK(g.blocks == 2);
    g = tsr__cu_plan_elementwise(INT64_MAX);
    CHECK(g.blocks == 65535);
    CHECK(tsr__cu_term_blocks(0) == 0 && tsr__cu_term_blocks(1) == 1);
    CHECK(tsr__cu_term_blocks(1024) == 1 && tsr__cu_term_blocks(1025) == 2);
}

int main(void)
{
    test_tree_matches_determinism_order();
    test_lane_order();
    test_grids();
    if (failures)
        return 1;
    printf("cuda launch plan: all checks passed\n");
    return 0;
}
