/* tessera: Sorting and sets: sort, argsort, topk, kthvalue, median, searchsorted, unique.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_SORTING_H
#define TESSERA_SORTING_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_SORTING_H */
