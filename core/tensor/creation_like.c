/* The *_like creation functions: torch.zeros_like(input, dtype=None) and
 * its siblings take the input's shape and backend, and its dtype unless
 * dtype= overrides it (TSR_DTYPE_INFER stands for PyTorch's None). */
#include "runtime/error.h"
#include "tensor/tensor.h"

/* The creation functions name themselves in their errors; each *_like op
 * renames the message to its own name (tsr__rename_error). */
static tsr_status like(const char *op, const tsr_tensor *input, tsr_dtype dtype, tsr_dtype *chosen)
{
    if (!input)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input must not be NULL", op);
    *chosen = dtype == TSR_DTYPE_INFER ? input->dtype : dtype;
    if (!tsr_dtype_name(*chosen))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: dtype %d is not a dtype", op, (int)dtype);
    return TSR_OK;
}

tsr_status tsr_empty_like(const tsr_tensor *input, tsr_dtype dtype, tsr_tensor **out)
{
    tsr_dtype d;
    tsr_status st = like("empty_like", input, dtype, &d);
    if (st != TSR_OK)
        return st;
    return tsr__rename_error("empty_like", "empty",
                   tsr_empty(input->ndim, input->shape, d, tsr_tensor_backend(input), out));
}

tsr_status tsr_zeros_like(const tsr_tensor *input, tsr_dtype dtype, tsr_tensor **out)
{
    tsr_dtype d;
    tsr_status st = like("zeros_like", input, dtype, &d);
    if (st != TSR_OK)
        return st;
    return tsr__rename_error("zeros_like", "zeros",
                   tsr_zeros(input->ndim, input->shape, d, tsr_tensor_backend(input), out));
}

tsr_status tsr_ones_like(const tsr_tensor *input, tsr_dtype dtype, tsr_tensor **out)
{
    tsr_dtype d;
    tsr_status st = like("ones_like", input, dtype, &d);
    if (st != TSR_OK)
        return st;
    return tsr__rename_error("ones_like", "ones", tsr_ones(input->ndim, input->shape, d, tsr_tensor_backend(input), out));
}

tsr_status tsr_full_like(const tsr_tensor *input, tsr_scalar fill_value, tsr_dtype dtype,
                         tsr_tensor **out)
{
    tsr_dtype d;
    tsr_status st = like("full_like", input, dtype, &d);
    if (st != TSR_OK)
        return st;
    return tsr__rename_error("full_like", "full",
                   tsr_full(input->ndim, input->shape, fill_value, d, tsr_tensor_backend(input), out));
}

tsr_status tsr_rand_like(tsr_generator *gen, const tsr_tensor *input, tsr_dtype dtype,
                         tsr_tensor **out)
{
    tsr_dtype d;
    tsr_status st = like("rand_like", input, dtype, &d);
    if (st != TSR_OK)
        return st;
    return tsr__rename_error("rand_like", "rand",
                   tsr_rand(gen, input->ndim, input->shape, d, tsr_tensor_backend(input), out));
}

tsr_status tsr_randn_like(tsr_generator *gen, const tsr_tensor *input, tsr_dtype dtype,
                          tsr_tensor **out)
{
    tsr_dtype d;
    tsr_status st = like("randn_like", input, dtype, &d);
    if (st != TSR_OK)
        return st;
    return tsr__rename_error("randn_like", "randn",
                   tsr_randn(gen, input->ndim, input->shape, d, tsr_tensor_backend(input), out));
}

tsr_status tsr_randint_like(tsr_generator *gen, const tsr_tensor *input, int64_t low,
                            int64_t high, tsr_dtype dtype, tsr_tensor **out)
{
    tsr_dtype d;
    tsr_status st = like("randint_like", input, dtype, &d);
    if (st != TSR_OK)
        return st;
    return tsr__rename_error("randint_like", "randint",
                   tsr_randint(gen, low, high, input->ndim, input->shape, d, tsr_tensor_backend(input), out));
}
