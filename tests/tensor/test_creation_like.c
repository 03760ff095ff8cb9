/* The *_like creation functions: shape and backend from the input, dtype
 * from it unless dtype= overrides, errors under the *_like name. */
#include "check.h"

static void test_like(void)
{
    tsr_tensor *x = NULL, *z = NULL, *o = NULL, *f = NULL, *e = NULL, *r = NULL, *n = NULL,
               *i = NULL;
    CHECK_OK(tsr_zeros(2, (int64_t[]){2, 3}, TSR_INT32, NULL, &x));
    CHECK_OK(tsr_zeros_like(x, TSR_DTYPE_INFER, &z));
    CHECK_INT(tsr_tensor_dtype(z), TSR_INT32);
    CHECK_INT(tsr_tensor_shape(z)[1], 3);
    CHECK_OK(tsr_ones_like(x, TSR_FLOAT64, &o));
    CHECK_INT(tsr_tensor_dtype(o), TSR_FLOAT64);
    double ones[6];
    CHECK_OK(tsr_to_host(o, ones, sizeof ones));
    CHECK_DOUBLE(ones[5], 1, 0);
    CHECK_OK(tsr_full_like(x, tsr_scalar_float(2.75), TSR_DTYPE_INFER, &f));
    int32_t full[6];
    CHECK_OK(tsr_to_host(f, full, sizeof full));
    CHECK_INT(full[0], 2); /* the input's dtype, as torch.full_like */
    CHECK_OK(tsr_empty_like(x, TSR_BOOL, &e));
    CHECK_INT(tsr_tensor_dtype(e), TSR_BOOL);
    CHECK_INT(tsr_tensor_numel(e), 6);
    tsr_generator *g = NULL;
    CHECK_OK(tsr_generator_create(1, &g));
    CHECK_OK(tsr_rand_like(g, o, TSR_DTYPE_INFER, &r));
    CHECK_INT(tsr_tensor_dtype(r), TSR_FLOAT64);
    CHECK_OK(tsr_randn_like(g, x, TSR_FLOAT32, &n));
    CHECK_INT(tsr_tensor_dtype(n), TSR_FLOAT32);
    CHECK_OK(tsr_randint_like(g, x, 3, 5, TSR_DTYPE_INFER, &i));
    int32_t ints[6];
    CHECK_OK(tsr_to_host(i, ints, sizeof ints));
    for (int k = 0; k < 6; k++)
        CHECK_TRUE(ints[k] >= 3 && ints[k] < 5);
    /* errors name the *_like op, not the creation function under it */
    tsr_tensor *none = NULL;
    CHECK_ERROR(tsr_randn_like(g, x, TSR_DTYPE_INFER, &none), TSR_ERR_DTYPE,
                "randn_like: dtype must be floating");
    CHECK_ERROR(tsr_randint_like(g, x, 5, 5, TSR_DTYPE_INFER, &none), TSR_ERR_VALUE,
                "randint_like: low");
    CHECK_ERROR(tsr_zeros_like(NULL, TSR_DTYPE_INFER, &none), TSR_ERR_INVALID_ARGUMENT,
                "zeros_like: input");
    CHECK_ERROR(tsr_ones_like(x, (tsr_dtype)99, &none), TSR_ERR_DTYPE, "ones_like: dtype");
    CHECK_ERROR(tsr_full_like(x, tsr_scalar_int(1), TSR_DTYPE_INFER, NULL),
                TSR_ERR_INVALID_ARGUMENT, "full_like: out");
    CHECK_TRUE(none == NULL);
    tsr_generator_destroy(g);
    tsr_tensor *all[] = {x, z, o, f, e, r, n, i};
    for (int k = 0; k < 8; k++)
        tsr_tensor_release(all[k]);
}

int main(void)
{
    test_like();
    return check_summary("test_creation_like");
}
