/* Per-thread free lists of the core's small fixed-size records (internal). */
#ifndef TSR_CORE_RECORD_CACHE_H
#define TSR_CORE_RECORD_CACHE_H

/* Which list: each kind has one record size, fixed for the process. */
typedef enum tsr__record_kind {
    TSR__RECORD_TENSOR,
    TSR__RECORD_STORAGE,
    TSR__RECORD_KIND_COUNT
} tsr__record_kind;

/* A zeroed record of the kind's size (struct tsr_tensor, tsr__storage), from
 * the calling thread's list when it has one, else from calloc. NULL when out
 * of memory. */
void *tsr__record_alloc(tsr__record_kind kind);

/* Gives a record back to the calling thread's list (any thread may free a
 * record another allocated); beyond a small bound it goes back to free(). */
void tsr__record_free(tsr__record_kind kind, void *record);

#endif
