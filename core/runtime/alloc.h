/* Host allocations of the core (internal). Every malloc, calloc, realloc and
 * strdup of core/ goes through these, so that a test build can fail the Nth
 * one (TESSERA_FAULT_ALLOC, docs/reliability.md); memory they return is
 * released with free(). */
#ifndef TSR_CORE_ALLOC_H
#define TSR_CORE_ALLOC_H

#include <stddef.h>

void *tsr__malloc(size_t bytes);
void *tsr__calloc(size_t count, size_t size);
void *tsr__realloc(void *ptr, size_t bytes);
char *tsr__strdup(const char *s);

#endif
