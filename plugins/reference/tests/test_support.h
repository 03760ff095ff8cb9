/* Shared pieces of the reference backend's standalone test: a minimal host
 * for the plugin, kernel lookup, tensors in plugin memory and assertions
 * that print both values. */
#ifndef TSR_REFERENCE_TEST_SUPPORT_H
#define TSR_REFERENCE_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include <tessera/plugin.h>

/* ------------------------------------------------------------------------ */
/* The plugin under test                                                     */
/* ------------------------------------------------------------------------ */

typedef struct test_plugin {
    tsr_plugin_entry_fn entry;
    const tsr_plugin *table;
    void *backend;
    const tsr_kernel_entry *kernels;
    size_t kernel_count;
} test_plugin;

extern test_plugin plugin;
extern const tsr_host_api test_host;

/* The last message the plugin reported through set_error, and its status. */
const char *test_last_error(void);
int test_last_status(void);
void test_clear_error(void);

/* dlopens `path`, calls the entry point, inits, fetches the kernel table.
 * Returns 0 or prints why not and returns -1. */
int test_plugin_open(const char *path);
void test_plugin_close(void);

/* The table's kernel for (op, dtype_in, dtype_out), or NULL. */
const tsr_kernel_entry *test_find_kernel(int32_t op, int32_t dtype_in, int32_t dtype_out);

/* ------------------------------------------------------------------------ */
/* Tensors in plugin memory                                                  */
/* ------------------------------------------------------------------------ */

typedef struct test_tensor {
    tsr_tensor_desc desc;
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR_MAX_DIMS];
    unsigned char *memory; /* plugin handle: a host pointer */
    size_t bytes;
} test_tensor;

size_t test_dtype_size(int32_t dtype);
const char *test_dtype_name(int32_t dtype);
const char *test_op_name(int32_t op);

/* A tensor of `dtype` and `shape` over `storage_elements` elements of fresh
 * memory filled with 0xab; strides NULL means contiguous. */
void test_tensor_init(test_tensor *t, int32_t dtype, int32_t ndim, const int64_t *shape,
                      const int64_t *strides, int64_t offset_elements, size_t storage_elements);
/* A contiguous 1-d tensor of n elements. */
void test_tensor_vector(test_tensor *t, int32_t dtype, int64_t n);
void test_tensor_free(test_tensor *t);
/* Address of the element at multi-index `index` (ndim entries). */
unsigned char *test_tensor_at(const test_tensor *t, const int64_t *index);

/* Runs (op) through the table's kernel for (dtype_in, dtype_out). Returns
 * the kernel's status, or TSR_ERR_UNIMPLEMENTED when there is none. */
int test_run(int32_t op, int32_t dtype_in, const test_tensor *out, const test_tensor *inputs,
             int32_t num_inputs, const tsr_elementwise_attrs *attrs);

/* ------------------------------------------------------------------------ */
/* Element values                                                            */
/* ------------------------------------------------------------------------ */

/* Decodes an element to double (real part for complex). Integers exactly
 * only up to 2^53: compare integers with test_element_int. */
double test_element_real(int32_t dtype, const void *element);
double test_element_imag(int32_t dtype, const void *element);
int64_t test_element_int(int32_t dtype, const void *element);
/* Encodes a value (exactly representable in dtype) into an element. */
void test_element_set(int32_t dtype, void *element, double re, double im);
void test_element_set_int(int32_t dtype, void *element, int64_t value);

/* ------------------------------------------------------------------------ */
/* Assertions                                                                */
/* ------------------------------------------------------------------------ */

extern int test_failures;
extern const char *test_current;

#define CHECK_INT(actual, expected)                                                                \
    test_check_int((int64_t)(actual), (int64_t)(expected), #actual, __FILE__, __LINE__)
/* Bitwise equality of doubles, so NaN equals NaN and -0.0 differs from 0.0. */
#define CHECK_SAME_DOUBLE(actual, expected)                                                        \
    test_check_same_double((actual), (expected), #actual, __FILE__, __LINE__)
#define CHECK_TRUE(cond) test_check_int(!!(cond), 1, #cond, __FILE__, __LINE__)

void test_check_int(int64_t actual, int64_t expected, const char *what, const char *file, int line);
void test_check_same_double(double actual, double expected, const char *what, const char *file,
                            int line);

#endif /* TSR_REFERENCE_TEST_SUPPORT_H */
