/* Data in and out without copies: user memory (tsr_from_blob), DLPack, and
 * files of named tensors (safetensors). Included by tessera.h. */
#ifndef TESSERA_INTEROP_H
#define TESSERA_INTEROP_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* User memory                                                               */
/* ======================================================================== */

/* Called once, when the last tensor viewing the memory is released. */
typedef void (*tsr_blob_deleter)(void *data, void *context);

/* A tensor over `data` without a copy (torch.from_blob): `shape` (ndim
 * entries, 0 to TSR_MAX_DIMS) and `strides` in elements (NULL: contiguous;
 * non-negative), `data` aligned to the dtype's element size. The memory must
 * be host memory and stay valid until `deleter(data, context)` is called
 * (NULL deleter: the caller keeps ownership and must outlive every tensor
 * viewing it). `backend` must use host memory (cpu, reference); NULL picks
 * the default backend if it does, else cpu, else reference. Writes through
 * the tensor reach `data`. On failure the deleter is not called. */
TSR_API tsr_status tsr_from_blob(void *data, int ndim, const int64_t *shape, const int64_t *strides,
                                 tsr_dtype dtype, tsr_blob_deleter deleter, void *context,
                                 tsr_backend *backend, tsr_tensor **out);

/* ======================================================================== */
/* DLPack (dlpack/dlpack.h, version 0.6 and later)                          */
/* ======================================================================== */

struct DLManagedTensor;

/* Exports `tensor` as a DLManagedTensor sharing its memory (no copy): data
 * is the storage, byte_offset the view's offset, shape and strides the
 * view's (strides in elements), device kDLCPU for host backends. The
 * managed tensor holds a reference to the tensor until its deleter runs;
 * the consumer calls the deleter exactly once. dtypes: bool as kDLUInt 8
 * (as PyTorch 1.13 and DLPack 0.6, which has no bool code), uint8, int8..64
 * kDLInt, float16/32/64 kDLFloat, bfloat16 kDLBfloat 16, complex64/128
 * kDLComplex 64/128. A tensor on a device backend (vulkan) is refused with
 * TSR_ERR_UNIMPLEMENTED: the plugin ABI lends no exportable buffer handle, so
 * copy it to a host backend first (tsr_to_backend). */
TSR_API tsr_status tsr_to_dlpack(const tsr_tensor *tensor, struct DLManagedTensor **out);

/* A tensor over a DLManagedTensor's memory without a copy. The device must
 * be kDLCPU (or kDLCUDAHost); strides NULL (contiguous) or non-negative;
 * the dtype one of those tsr_to_dlpack writes, lanes 1, and additionally
 * kDLBool 8 (DLPack 0.8's code 6) as bool. On success the tensor owns
 * `managed`: its deleter (if not NULL) is called exactly once, when the last
 * tensor viewing the memory is released. On failure `managed` is untouched
 * and still the caller's. `backend` as for tsr_from_blob. */
TSR_API tsr_status tsr_from_dlpack(struct DLManagedTensor *managed, tsr_backend *backend,
                                   tsr_tensor **out);

/* ======================================================================== */
/* Named tensors in files                                                    */
/* ======================================================================== */

/* Frees what tsr_load_safetensors or tsr_load_npz returned: every name, a
 * reference to every tensor, and the two arrays. NULL arrays are fine. */
TSR_API void tsr_named_tensors_free(char **names, tsr_tensor **tensors, size_t count);

/* Reads a .safetensors file onto `backend`: *count tensors in the file's
 * data order, *names[i] naming (*tensors)[i]. dtypes F64 F32 F16 BF16 I64
 * I32 I16 I8 U8 BOOL (the format has no complex type, so complex tensors
 * cannot be stored). The header (a u64 little-endian length, at most
 * 100 MB, then JSON) is parsed with cJSON; `__metadata__` (strings) is
 * accepted and not returned. Offsets must lie in the file, match the shape's
 * size, and not overlap; any corrupt file is TSR_ERR_FORMAT naming the
 * tensor and the problem, checked before anything is allocated for data.
 * Free the result with tsr_named_tensors_free. */
TSR_API tsr_status tsr_load_safetensors(const char *path, tsr_backend *backend, char ***names,
                                        tsr_tensor ***tensors, size_t *count);
/* Writes count tensors as a .safetensors file (names unique, non-empty, not
 * "__metadata__"), through a temporary file and a rename. Complex dtypes are
 * refused with TSR_ERR_DTYPE. */
TSR_API tsr_status tsr_save_safetensors(const char *path, const char *const *names,
                                        const tsr_tensor *const *tensors, size_t count);

/* Reads a NumPy .npz archive (np.savez: stored members; np.savez_compressed:
 * deflated) onto `backend`: one tensor per member "NAME.npy", named NAME,
 * in archive order, each read as tsr_load_npy reads a file (so '<u2' is
 * refused). Members must be .npy files; zip64 archives (over 65535 members
 * or 4 GiB) are refused; each member's size is checked against the archive
 * and its CRC-32 verified, so a corrupt archive is TSR_ERR_FORMAT naming the
 * member. Free the result with tsr_named_tensors_free. */
TSR_API tsr_status tsr_load_npz(const char *path, tsr_backend *backend, char ***names,
                                tsr_tensor ***tensors, size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_INTEROP_H */
