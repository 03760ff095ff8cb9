/* The adapter tables, one per op family (ops_*.c). bind.c searches them. */
#ifndef CONF_BINDINGS_H
#define CONF_BINDINGS_H

#include "bindings/bind.h"

extern const conf_adapter conf_ops_elementwise[];
extern const size_t conf_ops_elementwise_count;
extern const conf_adapter conf_ops_elementwise2[];
extern const size_t conf_ops_elementwise2_count;
extern const conf_adapter conf_ops_inplace[];
extern const size_t conf_ops_inplace_count;
extern const conf_adapter conf_ops_creation[];
extern const size_t conf_ops_creation_count;
extern const conf_adapter conf_ops_shape[];
extern const size_t conf_ops_shape_count;
extern const conf_adapter conf_ops_index[];
extern const size_t conf_ops_index_count;
extern const conf_adapter conf_ops_sort[];
extern const size_t conf_ops_sort_count;
extern const conf_adapter conf_ops_nn[];
extern const size_t conf_ops_nn_count;
extern const conf_adapter conf_ops_products[];
extern const size_t conf_ops_products_count;
extern const conf_adapter conf_ops_reduce[];
extern const size_t conf_ops_reduce_count;

/* div's rounding_mode: NULL (true division), "trunc" or "floor"; any other
 * name gives -1, which the library must refuse as PyTorch refuses the name. */
int conf_rounding_mode(const char *mode);

#endif
