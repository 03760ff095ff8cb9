/* Helpers shared by test_vulkan_kernels.c (host, loading, main) and
 * test_vulkan_elementwise_cases.c (the cases). */
#ifndef TSR_VULKAN_TEST_KERNELS_H
#define TSR_VULKAN_TEST_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <tessera/plugin.h>

extern const tsr_plugin *plugin;
extern void *backend;
extern char last_error[2048];
extern int failures;

/* Counts a failure and prints both sides; never aborts. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL %s:%d: ", __func__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

struct view {
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR_MAX_DIMS];
    tsr_tensor_desc d;
};

/* The minimal host, for a test that starts a second instance. */
const tsr_host_api *test_host(void);

/* Device memory holding `bytes` copied from `data` (left unset if NULL). */
void *upload(const void *data, size_t bytes);
void download(void *mem, void *out, size_t bytes);

/* Views: element strides, offset in elements. */
void view_of(struct view *v, void *mem, int dtype, int ndim, const int64_t *shape,
             const int64_t *strides, int64_t offset, int64_t itemsize);
void flat(struct view *v, void *mem, int dtype, int64_t n, int64_t itemsize);
/* upload() of n elements (unset if data is NULL) and their flat view. */
void *upload_flat(struct view *v, const void *data, int dtype, int64_t n, int64_t itemsize);

/* Runs the registered kernel for (op, input dtype, output dtype). */
int run(int op, const struct view *out, const struct view *const *in, int nin,
        const tsr_elementwise_attrs *attrs);
int run1(int op, const struct view *out, const struct view *a, const tsr_elementwise_attrs *attrs);
int run2(int op, const struct view *out, const struct view *a, const struct view *b,
         const tsr_elementwise_attrs *attrs);
int has_kernel(int op, int in, int out);
tsr_kernel_fn find_kernel(int op, int in, int out);

tsr_elementwise_attrs attrs_mode(int mode);
tsr_elementwise_attrs attrs_float(double v);
tsr_elementwise_attrs attrs_int(int64_t v);

int close_to(double got, double want, double rtol, double atol);

/* float16 bits through the compiler's _Float16. */
uint16_t to_half(float f);
float from_half(uint16_t bits);

/* test_vulkan_elementwise_cases.c: runs every case, the arithmetic ones and
 * these from test_vulkan_copy_cases.c. */
void run_all_cases(void);
void where_with_a_broadcast_condition_moves_bits(void);
void clamp_propagates_nan_and_applies_min_first(void);
void copy_converts_like_pytorch_on_x86(void);
void copy_int64_and_float64_when_registered(void);
void fill_checks_overflow_and_fills_strided_views(void);
void free_while_queued_keeps_memory_until_done(void);
void copy_on_device_handles_overlap(void);
void large_and_high_rank_tensors(void);
void complex_values_move_fill_and_select(void);
void empty_tensors_are_a_no_op(void);

/* test_vulkan_elementwise_dtypes.c */
void binary_ops_on_every_registered_dtype(void);

/* test_vulkan_elementwise2_cases.c */
void family2_unary_ops_match_host_formulas(void);
void family2_round_decimals_and_bfloat16_steps(void);
void family2_ternary_ops(void);
void family2_integer_ops(void);
void family2_complex_conversions(void);

#endif /* TSR_VULKAN_TEST_KERNELS_H */
