/* The kernel functions the table points at, and which shader each
 * (op, dtype) runs on, so kernel_table.c can register exactly what the
 * device can create. */
#ifndef TSR_VULKAN_KERNELS_H
#define TSR_VULKAN_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <tessera/plugin.h>

#include "device.h"

/* elementwise.c: the arithmetic, comparison, logical, unary, where
 * and clamp ops. Inputs arrive in the computation dtype, broadcast to the
 * output's shape (plugin.h). */
int tsr__vk_kernel_elementwise(void *backend, const tsr_kernel_args *args);

/* Whether `op` is one tsr__vk_kernel_elementwise runs. */
int tsr__vk_elementwise_op(int32_t op);

/* Whether `op` writes bool whatever its input dtype (comparisons, logical). */
int tsr__vk_elementwise_bool_out(int32_t op);

/* The shader (enum tsr__vk_shader) running `op` on `dtype`, and the one
 * it runs on `dev` (a fallback where the first cannot be created). */
int tsr__vk_elementwise_shader(int32_t op, int32_t dtype);
int tsr__vk_elementwise_shader_on(const struct tsr__vk_device *dev, int32_t op, int32_t dtype);

/* elementwise2.c: the second family's attributes as the shaders
 * read them. Fills l->scalar; returns 1 when the op also needs `*third`
 * bound as input 1 (float64 elu and nan_to_num), which
 * tsr__vk_ew2_launch_with_third does (with the lock held). */
struct tsr__vk_launch;
struct tsr__vk_backend;
int tsr__vk_ew2_params(const tsr_elementwise_attrs *attrs, int32_t dtype, struct tsr__vk_launch *l,
                       double *third);
int tsr__vk_ew2_launch_with_third(struct tsr__vk_backend *b, struct tsr__vk_launch *l,
                                  double third);

/* products.c: matmul, and whether this device runs it on a dtype. */
struct tsr__vk_backend;
int tsr__vk_kernel_matmul(void *backend, const tsr_kernel_args *args);
int tsr__vk_matmul_supported(const struct tsr__vk_backend *b, int32_t dtype);

/* conv.c: im2col and col2im (float32), and whether this device runs them. */
int tsr__vk_kernel_conv(void *backend, const tsr_kernel_args *args);
int tsr__vk_conv_supported(const struct tsr__vk_device *dev, int32_t op, int32_t dtype);

/* copy.c: copy (any dtype to any dtype) and fill. */
int tsr__vk_kernel_copy(void *backend, const tsr_kernel_args *args);
int tsr__vk_kernel_fill(void *backend, const tsr_kernel_args *args);

/* The shader converting `from` to `to`. */
int tsr__vk_copy_shader(int32_t from, int32_t to);

/* reduce.c: the TSR_OP_LIST_REDUCE ops (but linalg_vector_norm);
 * whether (op, dtype) runs here and, if so, its output dtype. */
int tsr__vk_kernel_reduce(void *backend, const tsr_kernel_args *args);
int tsr__vk_reduce_supported(const struct tsr__vk_backend *b, int32_t op, int32_t dtype,
                             int32_t *dtype_out);
/* Whether a wide (double, int64) reduce or scan shader is used, and the
 * reduce shader variant for an input dtype, -1 if none runs it. */
int tsr__vk_reduce_wide(const struct tsr__vk_backend *b, int shader);
int tsr__vk_reduce_shader(const struct tsr__vk_backend *b, int32_t dtype);
/* The argument checks reductions and scans share: a current argument block
 * with one input and `outputs` outputs, and attributes of at least
 * `attrs_size` bytes (the message names `ops` and `attrs_type`). */
int tsr__vk_one_input_args(struct tsr__vk_backend *b, const tsr_kernel_args *args, int outputs,
                           size_t attrs_size, const char *ops, const char *attrs_type);
/* reduce_launch.c: records reduce.comp over the dims of `mask`. */
struct tsr__vk_launch;
int tsr__vk_launch_reduce(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                          uint32_t mask);

/* scan.c: cumsum and cumprod. */
int tsr__vk_kernel_scan(void *backend, const tsr_kernel_args *args);
int tsr__vk_scan_supported(const struct tsr__vk_backend *b, int32_t op, int32_t dtype);

/* softmax.c: softmax, log_softmax; norm.c: layer_norm, rms_norm; index.c:
 * index_select, gather; scatter.c: scatter, index_add, index_copy;
 * rearrange.c: tril, triu. The *_kernel functions give the kernel for
 * (op, dtype) on this device, or NULL (input and output share the dtype):
 * tsr__vk_nn_kernel (launch_rows.c) for the row ops, tsr__vk_index_kernel
 * (index.c) for the others. */
int tsr__vk_kernel_softmax(void *backend, const tsr_kernel_args *args);
/* softmax/log_softmax of rows too long for a CPU device's loop limit,
 * composed from whole-tensor kernels (softmax_long.c); checked args. */
int tsr__vk_softmax_composed(struct tsr__vk_backend *b, const tsr_kernel_args *args, int dim);
int tsr__vk_kernel_norm(void *backend, const tsr_kernel_args *args);
tsr_kernel_fn tsr__vk_nn_kernel(const struct tsr__vk_backend *b, int32_t op, int32_t dtype);
int tsr__vk_kernel_gather(void *backend, const tsr_kernel_args *args);
int tsr__vk_kernel_scatter(void *backend, const tsr_kernel_args *args);
int tsr__vk_kernel_tri(void *backend, const tsr_kernel_args *args);
tsr_kernel_fn tsr__vk_index_kernel(const struct tsr__vk_backend *b, int32_t op, int32_t dtype);
/* scatter.c: the scatter shader this device uses (the wide one wherever it
 * has it), and whether it combines (every reduce, index_add) `dtype`. */
int tsr__vk_scatter_shader(const struct tsr__vk_device *dev);
int tsr__vk_combines(const struct tsr__vk_device *dev, int32_t dtype);

/* kernel_table.c: whether tensors of `dtype` can live on this device
 * (kernels check it before trusting a dtype id), and whether a copy from
 * `from` to `to` runs here. */
int tsr__vk_dtype_held(const struct tsr__vk_device *dev, int32_t dtype);
int tsr__vk_copy_supported(const struct tsr__vk_device *dev, int32_t from, int32_t to);

/* pool.c: the pooling kernels (float32, contiguous operands), and whether
 * `op` runs here. */
int tsr__vk_kernel_pool(void *backend, const tsr_kernel_args *args);
int tsr__vk_pool_supported(const struct tsr__vk_backend *b, int32_t op);
/* resample.c: upsample, upsample_backward (the same function) and
 * grid_sampler, float32. */
int tsr__vk_kernel_upsample(void *backend, const tsr_kernel_args *args);
int tsr__vk_kernel_grid_sampler(void *backend, const tsr_kernel_args *args);

#endif /* TSR_VULKAN_KERNELS_H */
