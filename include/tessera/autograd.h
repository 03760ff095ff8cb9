/* tessera: Reverse-mode automatic differentiation.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_AUTOGRAD_H
#define TESSERA_AUTOGRAD_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_AUTOGRAD_H */
