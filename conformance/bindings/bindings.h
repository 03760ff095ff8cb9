/* The adapter tables, one per op family (bindings/FAMILY.c; copy.c holds
 * three). bind.c searches them. */
#ifndef CONF_BINDINGS_H
#define CONF_BINDINGS_H

#include "bindings/bind.h"

extern const conf_adapter conf_bindings_elementwise[];
extern const size_t conf_bindings_elementwise_count;
extern const conf_adapter conf_bindings_copy_to[];
extern const size_t conf_bindings_copy_to_count;
extern const conf_adapter conf_bindings_elementwise2[];
extern const size_t conf_bindings_elementwise2_count;
extern const conf_adapter conf_bindings_ternary[];
extern const size_t conf_bindings_ternary_count;
extern const conf_adapter conf_bindings_inplace[];
extern const size_t conf_bindings_inplace_count;
extern const conf_adapter conf_bindings_copy_inplace[];
extern const size_t conf_bindings_copy_inplace_count;
extern const conf_adapter conf_bindings_creation[];
extern const size_t conf_bindings_creation_count;
extern const conf_adapter conf_bindings_views[];
extern const size_t conf_bindings_views_count;
extern const conf_adapter conf_bindings_copy[];
extern const size_t conf_bindings_copy_count;
extern const conf_adapter conf_bindings_join[];
extern const size_t conf_bindings_join_count;
extern const conf_adapter conf_bindings_mask[];
extern const size_t conf_bindings_mask_count;
extern const conf_adapter conf_bindings_index[];
extern const size_t conf_bindings_index_count;
extern const conf_adapter conf_bindings_scatter[];
extern const size_t conf_bindings_scatter_count;
extern const conf_adapter conf_bindings_rearrange[];
extern const size_t conf_bindings_rearrange_count;
extern const conf_adapter conf_bindings_sort[];
extern const size_t conf_bindings_sort_count;
extern const conf_adapter conf_bindings_unique[];
extern const size_t conf_bindings_unique_count;
extern const conf_adapter conf_bindings_softmax[];
extern const size_t conf_bindings_softmax_count;
extern const conf_adapter conf_bindings_norm[];
extern const size_t conf_bindings_norm_count;
extern const conf_adapter conf_bindings_loss[];
extern const size_t conf_bindings_loss_count;
extern const conf_adapter conf_bindings_nn[];
extern const size_t conf_bindings_nn_count;
extern const conf_adapter conf_bindings_attention[];
extern const size_t conf_bindings_attention_count;
extern const conf_adapter conf_bindings_products[];
extern const size_t conf_bindings_products_count;
extern const conf_adapter conf_bindings_reduce[];
extern const size_t conf_bindings_reduce_count;
extern const conf_adapter conf_bindings_scan[];
extern const size_t conf_bindings_scan_count;
extern const conf_adapter conf_bindings_pool[];
extern const size_t conf_bindings_pool_count;
extern const conf_adapter conf_bindings_conv[];
extern const size_t conf_bindings_conv_count;
extern const conf_adapter conf_bindings_products_vector[];
extern const size_t conf_bindings_products_vector_count;
extern const conf_adapter conf_bindings_resample[];
extern const size_t conf_bindings_resample_count;
extern const conf_adapter conf_bindings_fft[];
extern const size_t conf_bindings_fft_count;
extern const conf_adapter conf_bindings_linalg[];
extern const size_t conf_bindings_linalg_count;

/* div's rounding_mode: NULL (true division), "trunc" or "floor"; any other
 * name gives -1, which the library must refuse as PyTorch refuses the name. */
int conf_rounding_mode(const char *mode);

#endif
