/* tessera: Reductions and scans: sum, mean, var, amax, argmax, cumsum, ...
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_REDUCE_H
#define TESSERA_REDUCE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_REDUCE_H */
