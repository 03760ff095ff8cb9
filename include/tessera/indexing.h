/* tessera: Indexing and joining: cat, stack, split, gather, scatter, index_select, pad, flip, ...
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_INDEXING_H
#define TESSERA_INDEXING_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_INDEXING_H */
