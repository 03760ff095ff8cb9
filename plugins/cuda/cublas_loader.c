/* Opening cuBLAS at first use (cublas_loader.h). */
#include "cublas_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *open_first(const char *name, char *tried, size_t capacity)
{
    const char *home = getenv("CUDA_HOME");
    char paths[3][512];
    int count = 0;
    snprintf(paths[count++], sizeof paths[0], "%s", name ? name : TSR__CU_CUBLAS_SONAME);
    if (!name) {
        if (home && *home)
            snprintf(paths[count++], sizeof paths[0], "%s/lib64/%s", home, TSR__CU_CUBLAS_SONAME);
        snprintf(paths[count++], sizeof paths[0], "/usr/local/cuda/lib64/%s",
                 TSR__CU_CUBLAS_SONAME);
    }
    size_t used = 0;
    tried[0] = '\0';
    for (int i = 0; i < count; i++) {
        void *library = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
        if (library)
            return library;
        const char *why = dlerror();
        int n =
            snprintf(tried + used, capacity - used, "%s%s", used ? "; " : "", why ? why : paths[i]);
        if (n > 0 && (size_t)n < capacity - used)
            used += (size_t)n;
    }
    return NULL;
}

int tsr__cu_cublas_open(const char *name, tsr__cu_cublas *lib, char *message, size_t capacity)
{
    memset(lib, 0, sizeof *lib);
    char tried[1024];
    lib->library = open_first(name, tried, sizeof tried);
    if (!lib->library) {
        snprintf(message, capacity, "matmul needs cuBLAS (%s), which could not be loaded: %s",
                 name ? name : TSR__CU_CUBLAS_SONAME, tried);
        return -1;
    }
    struct {
        const char *symbol;
        void **slot;
    } symbols[] = {
        {"cublasCreate_v2", (void **)&lib->create},
        {"cublasDestroy_v2", (void **)&lib->destroy},
        {"cublasSetStream_v2", (void **)&lib->set_stream},
        {"cublasGemmStridedBatchedEx", (void **)&lib->gemm_strided_batched},
        {"cublasGetStatusString", (void **)&lib->status_string},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *address = dlsym(lib->library, symbols[i].symbol);
        if (!address) {
            snprintf(message, capacity, "matmul: %s has no %s", name ? name : TSR__CU_CUBLAS_SONAME,
                     symbols[i].symbol);
            tsr__cu_cublas_close(lib);
            return -1;
        }
        memcpy(symbols[i].slot, &address, sizeof address); /* object to function pointer */
    }
    return 0;
}

/* The library stays loaded for the life of the process: its static C++
 * runtime allocates state at load that only the loaded image references
 * (unloaded, LeakSanitizer reports it), and unloading a CUDA library while
 * the runtime may still hold references to it is fragile. dlopen counts
 * references, so a later matmul's open finds the same image. */
void tsr__cu_cublas_close(tsr__cu_cublas *lib)
{
    memset(lib, 0, sizeof *lib);
}

int tsr__cu_tf32_enabled(void)
{
    const char *value = getenv("TESSERA_CUDA_TF32");
    return value && strcmp(value, "1") == 0;
}
