/* NumPy .npy parsing (internal): the header parser behind tsr_load_npy,
 * exposed so that tests and the fuzzer can feed it memory buffers. */
#ifndef TSR_CORE_NPY_H
#define TSR_CORE_NPY_H

#include "tessera/tessera.h"

#include <stddef.h>
#include <stdint.h>

/* Longest header dict accepted (format 2.0/3.0 could announce 4 GiB). */
#define TSR__NPY_MAX_HEADER 65536
/* Magic (6) + version (2) + header length (2 or 4). */
#define TSR__NPY_MAX_PREAMBLE 12

/* What a parsed header says about the array that follows it. */
typedef struct tsr__npy_header {
    int major, minor; /* format version */
    tsr_dtype dtype;  /* '<u2' gives TSR_BFLOAT16, with raw_u2 set */
    bool raw_u2;      /* the descr was '<u2': bfloat16 bits only when asked for */
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
    int64_t numel;
    size_t data_bytes;  /* numel * element size, checked for overflow */
    size_t data_offset; /* where the array data starts */
} tsr__npy_header;

/* Parses magic, version and header dict at the start of `data` (`size`
 * bytes, at least the whole header; the array data need not follow). `name`
 * names the source in messages. Returns TSR_OK, or TSR_ERR_FORMAT (malformed
 * or truncated header), TSR_ERR_DTYPE (dtype tessera cannot hold) or
 * TSR_ERR_OVERFLOW (shape too large) after setting the thread's message.
 * Never reads past data + size. Thread-safe. */
int tsr__npy_parse_header(const void *data, size_t size, const char *name, tsr__npy_header *out);

/* Refuses a parsed header whose dtype is not `want` (TSR_DTYPE_INFER: any
 * dtype tessera has), naming `op`; '<u2' passes only for want TSR_BFLOAT16,
 * since tessera has no uint16 and NumPy writes uint16 arrays as '<u2'. */
int tsr__npy_check_dtype(const tsr__npy_header *h, tsr_dtype want, const char *op,
                         const char *name);

/* Loads a whole .npy image held in memory (header and data) onto `backend`,
 * with the same checks as tsr_load_npy_as(want). Returns a new reference. */
int tsr__npy_load_buffer(const void *data, size_t size, const char *name, tsr_dtype want,
                         tsr_backend *backend, tsr_tensor **out);

/* The .npy descr string for a dtype ('<u2' for bfloat16), NULL if invalid. */
const char *tsr__npy_descr(tsr_dtype dtype);

#endif
