/* The elementwise launch's host planning without a device: collapsing dims
 * keeps every operand's element order (checked by enumerating offsets
 * before and after, on thousands of random layouts with size-1 dims,
 * broadcasts, transposes and slices), the 32-bit index test's boundaries,
 * and the vectorised path's conditions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch_plan.h"

static int failures;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static uint64_t state = 0x243F6A8885A308D3ull;
static uint32_t next_random(void)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(state >> 33);
}

/* The offset of element `linear` (C order) of operand k, as the strided
 * kernel computes it. */
static int64_t offset_of(const tsr__cu_layout *l, int k, int64_t linear)
{
    int64_t offset = 0;
    for (int32_t d = l->ndim - 1; d >= 0; d--) {
        offset += (linear % l->shape[d]) * l->strides[k][d];
        linear /= l->shape[d];
    }
    return offset;
}

static tsr__cu_layout random_layout(void)
{
    tsr__cu_layout l;
    memset(&l, 0, sizeof l);
    l.ndim = (int32_t)(next_random() % 7);
    l.operands = 1 + (int32_t)(next_random() % TSR__CU_MAX_OPERANDS);
    for (int32_t d = 0; d < l.ndim; d++)
        l.shape[d] = next_random() % 3 == 0 ? 1 : 1 + next_random() % 5;
    for (int k = 0; k < l.operands; k++) {
        /* contiguous, a permutation-like scramble, a slice, or broadcast dims */
        int kind = (int)(next_random() % 4);
        int64_t stride = 1 + (kind == 2 ? next_random() % 3 : 0);
        for (int32_t d = l.ndim - 1; d >= 0; d--) {
            int broadcast = k > 0 && kind == 3 && next_random() % 2;
            l.strides[k][d] = broadcast ? 0 : stride;
            stride *= l.shape[d] + (kind == 2 ? 1 : 0);
        }
        if (kind == 1 && l.ndim >= 2) {
            int32_t a = (int32_t)(next_random() % (uint32_t)l.ndim);
            int32_t b = (int32_t)(next_random() % (uint32_t)l.ndim);
            int64_t t = l.strides[k][a];
            l.strides[k][a] = l.strides[k][b];
            l.strides[k][b] = t;
        }
    }
    return l;
}

static void test_collapse_keeps_order(void)
{
    int merged = 0;
    for (int trial = 0; trial < 20000; trial++) {
        tsr__cu_layout before = random_layout(), after = before;
        tsr__cu_collapse(&after);
        int64_t count = tsr__cu_layout_count(&before);
        CHECK(tsr__cu_layout_count(&after) == count);
        CHECK(after.ndim <= before.ndim);
        merged += after.ndim < before.ndim;
        for (int32_t d = 0; d < after.ndim; d++)
            CHECK(after.shape[d] > 1);
        for (int k = 0; k < before.operands; k++)
            for (int64_t i = 0; i < count; i++)
                if (offset_of(&before, k, i) != offset_of(&after, k, i)) {
                    fprintf(stderr, "trial %d operand %d element %lld moved\n", trial, k,
                            (long long)i);
                    failures++;
                    k = before.operands;
                    break;
                }
    }
    CHECK(merged > 1000); /* the generator does produce mergeable layouts */
}

static void test_collapse_cases(void)
{
    /* A contiguous [2, 3, 4] with a broadcast row [1, 1, 4]: the output
     * merges to one dim but the input's 0 strides block it. */
    tsr__cu_layout l = {3, 2, {2, 3, 4}, {{12, 4, 1}, {0, 0, 1}}};
    tsr__cu_collapse(&l);
    CHECK(l.ndim == 2 && l.shape[0] == 6 && l.shape[1] == 4);
    CHECK(l.strides[0][0] == 4 && l.strides[1][0] == 0 && l.strides[1][1] == 1);
    /* A transpose does not merge. */
    tsr__cu_layout t = {2, 1, {3, 5}, {{1, 3}}};
    tsr__cu_collapse(&t);
    CHECK(t.ndim == 2);
    /* An empty extent anywhere: one dim of 0. */
    tsr__cu_layout e = {3, 2, {4, 0, 2}, {{2, 2, 1}, {2, 2, 1}}};
    tsr__cu_collapse(&e);
    CHECK(e.ndim == 1 && e.shape[0] == 0 && tsr__cu_layout_count(&e) == 0);
    /* All size 1 (and 0-d): no dims, one element. */
    tsr__cu_layout one = {2, 1, {1, 1}, {{7, 9}}};
    tsr__cu_collapse(&one);
    CHECK(one.ndim == 0 && tsr__cu_layout_count(&one) == 1);
}

static void test_int32_limits(void)
{
    /* 2^31 - 1 elements fit; 2^31 do not. */
    tsr__cu_layout l = {1, 1, {(INT64_C(1) << 31) - 1}, {{1}}};
    CHECK(tsr__cu_layout_fits_int32(&l));
    l.shape[0] = INT64_C(1) << 31;
    CHECK(!tsr__cu_layout_fits_int32(&l));
    /* Few elements, but an offset past 2^31 (a stride of 2^20 over 2^12 rows). */
    tsr__cu_layout s = {2, 2, {4096, 2}, {{2, 1}, {INT64_C(1) << 20, 1}}};
    CHECK(!tsr__cu_layout_fits_int32(&s));
    s.shape[0] = 2048; /* largest offset 2047 * 2^20 + 1 < 2^31 */
    CHECK(tsr__cu_layout_fits_int32(&s));
    /* A huge stride that would overflow int64 when multiplied. */
    tsr__cu_layout h = {1, 1, {3}, {{INT64_MAX / 2}}};
    CHECK(!tsr__cu_layout_fits_int32(&h));
}

static void test_vectorizable(void)
{
    const int32_t sizes[3] = {4, 4, 2};
    uintptr_t aligned[3] = {4096, 8192, 1024};
    tsr__cu_layout l = {1, 3, {1000}, {{1, 1, 1}}};
    CHECK(tsr__cu_layout_vectorizable(&l, aligned, sizes));
    l.strides[2][0] = 0; /* a broadcast input is fine */
    CHECK(tsr__cu_layout_vectorizable(&l, aligned, sizes));
    l.strides[0][0] = 0; /* a broadcast output is not */
    CHECK(!tsr__cu_layout_vectorizable(&l, aligned, sizes));
    l.strides[0][0] = 1;
    l.strides[1][0] = 2; /* a strided input is not */
    CHECK(!tsr__cu_layout_vectorizable(&l, aligned, sizes));
    l.strides[1][0] = 1;
    uintptr_t misaligned[3] = {4096, 8192 + 4, 1024};
    CHECK(!tsr__cu_layout_vectorizable(&l, misaligned, sizes));
    tsr__cu_layout two = {2, 1, {3, 4}, {{8, 1}}};
    CHECK(!tsr__cu_layout_vectorizable(&two, aligned, sizes));
}

int main(void)
{
    test_collapse_keeps_order();
    test_collapse_cases();
    test_int32_limits();
    test_vectorizable();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("cuda layout: all checks passed\n");
    return 0;
}
