/* nonzero(as_tuple=True), each test pinning one PyTorch 1.13 rule (expected
 * values printed by torch 1.13): one int64 coordinate tensor per dim, in C
 * order, through the count-then-fill protocol of tessera/join.h.
 *
 * Family: mask (nonzero). masked_* are in test_index.c. */
#include "check.h"

#include <math.h>

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static void check_coords(const tsr_tensor *t, const int64_t *expected, int64_t n)
{
    int64_t got[16];
    if (!t || tsr_tensor_dtype(t) != TSR_INT64 || tsr_tensor_ndim(t) != 1 ||
        tsr_tensor_numel(t) != n || n > 16 ||
        (n > 0 && tsr_to_host(t, got, (size_t)n * sizeof(int64_t)) != TSR_OK)) {
        CHECK_TRUE(!"a 1-d int64 tensor of the expected length");
        return;
    }
    for (int64_t i = 0; i < n; i++)
        CHECK_INT(got[i], expected[i]);
}

static void release_all(tsr_tensor **ts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tsr_tensor_release(ts[i]);
        ts[i] = NULL;
    }
}

/* torch.nonzero([[0, 1], [2, 0]], as_tuple=True) == ([0, 1], [1, 0]). */
static void as_tuple_gives_one_tensor_per_dim(void)
{
    tsr_tensor *t = make_f32(2, SHAPE(2, 2), (const float[]){0, 1, 2, 0}, 4);
    tsr_tensor *outs[4] = {NULL};
    size_t count = 0;
    CHECK_OK(tsr_nonzero_tuple(t, NULL, 0, &count)); /* count first */
    CHECK_INT(count, 2);
    CHECK_OK(tsr_nonzero_tuple(t, outs, 4, &count));
    CHECK_INT(count, 2);
    check_coords(outs[0], (const int64_t[]){0, 1}, 2);
    check_coords(outs[1], (const int64_t[]){1, 0}, 2);
    CHECK_TRUE(outs[2] == NULL);
    release_all(outs, 4);
    tsr_tensor_release(t);
}

/* A 0-d input reads as 1-d: (tensor([0]),) when nonzero, (tensor([]),)
 * when zero; never an empty tuple. */
static void zero_dim_input_gives_one_tensor(void)
{
    tsr_tensor *three = make_f32(0, NULL, (const float[]){3}, 1);
    tsr_tensor *zero = make_f32(0, NULL, (const float[]){0}, 1);
    tsr_tensor *outs[1] = {NULL};
    size_t count = 0;
    CHECK_OK(tsr_nonzero_tuple(three, outs, 1, &count));
    CHECK_INT(count, 1);
    check_coords(outs[0], (const int64_t[]){0}, 1);
    release_all(outs, 1);
    CHECK_OK(tsr_nonzero_tuple(zero, outs, 1, &count));
    CHECK_INT(count, 1);
    check_coords(outs[0], NULL, 0);
    release_all(outs, 1);
    tsr_tensor_release(zero);
    tsr_tensor_release(three);
}

/* NaN is nonzero, -0.0 is zero, as a bool conversion reads them. */
static void nan_counts_and_negative_zero_does_not(void)
{
    tsr_tensor *t = make_f32(1, SHAPE(4), (const float[]){-0.0f, NAN, 0, 1}, 4);
    tsr_tensor *outs[1] = {NULL};
    size_t count = 0;
    CHECK_OK(tsr_nonzero_tuple(t, outs, 1, &count));
    check_coords(outs[0], (const int64_t[]){1, 3}, 2);
    release_all(outs, 1);
    tsr_tensor_release(t);
}

/* A transposed view is read in its own C order, not its memory's. */
static void a_view_is_read_in_its_own_order(void)
{
    tsr_tensor *t = make_f32(2, SHAPE(2, 3), (const float[]){1, 0, 0, 0, 1, 1}, 6), *v = NULL;
    CHECK_OK(tsr_transpose(t, 0, 1, &v)); /* [[1, 0], [0, 1], [0, 1]] */
    tsr_tensor *outs[2] = {NULL};
    size_t count = 0;
    CHECK_OK(tsr_nonzero_tuple(v, outs, 2, &count));
    check_coords(outs[0], (const int64_t[]){0, 1, 2}, 3);
    check_coords(outs[1], (const int64_t[]){0, 1, 1}, 3);
    release_all(outs, 2);
    tsr_tensor_release(v);
    tsr_tensor_release(t);
}

/* Too small a capacity is an error that writes nothing but the count. */
static void too_small_a_capacity_writes_nothing(void)
{
    tsr_tensor *t = make_f32(3, SHAPE(1, 2, 1), (const float[]){1, 1}, 2);
    tsr_tensor *outs[2] = {NULL, NULL};
    size_t count = 0;
    CHECK_ERROR(tsr_nonzero_tuple(t, outs, 2, &count), TSR_ERR_INVALID_ARGUMENT, "capacity");
    CHECK_INT(count, 3);
    CHECK_TRUE(outs[0] == NULL && outs[1] == NULL);
    CHECK_ERROR(tsr_nonzero_tuple(t, outs, 2, NULL), TSR_ERR_INVALID_ARGUMENT, "nonzero");
    tsr_tensor_release(t);
}

int main(void)
{
    RUN_TEST(as_tuple_gives_one_tensor_per_dim);
    RUN_TEST(zero_dim_input_gives_one_tensor);
    RUN_TEST(nan_counts_and_negative_zero_does_not);
    RUN_TEST(a_view_is_read_in_its_own_order);
    RUN_TEST(too_small_a_capacity_writes_nothing);
    return check_summary("test_mask");
}
