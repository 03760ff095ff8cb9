/* tessera: Matrix products: matmul, mm, bmm, dot, outer, addmm, einsum, tensordot.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_PRODUCTS_H
#define TESSERA_PRODUCTS_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_PRODUCTS_H */
