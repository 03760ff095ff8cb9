/* tessera: Neural network functions: softmax, losses, normalisation, dropout, linear, attention.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_NN_H
#define TESSERA_NN_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_NN_H */
