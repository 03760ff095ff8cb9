/* What the Vulkan tests written against the public API share (resample,
 * interop, large): a failure counter with its EXPECT, and getting the
 * reference and vulkan backends, skipping where no Vulkan device loads.
 * Each test is its own executable, so the definitions here are made once
 * per program. */
#ifndef TSR_VULKAN_API_TEST_H
#define TSR_VULKAN_API_TEST_H

#include <stdio.h>
#include <string.h>

#include <tessera/tessera.h>

static int failures;

/* Counts a failure and prints the message; never aborts. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL %s:%d: ", __func__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

/* Gets both backends: 0 when they loaded, 77 (CTest's skip) when there is
 * no Vulkan device or loader, 1 on any other failure; main returns it. */
static int get_reference_and_vulkan(tsr_backend **ref, tsr_backend **vk)
{
    if (tsr_backend_get("reference", ref) != TSR_OK) {
        printf("FAIL no reference backend: %s\n", tsr_last_error());
        return 1;
    }
    if (tsr_backend_get("vulkan", vk) != TSR_OK) {
        const char *why = tsr_last_error();
        if (strstr(why, "no Vulkan device") || strstr(why, "no Vulkan loader")) {
            printf("SKIP: needs a Vulkan device: %s\n", why);
            return 77;
        }
        printf("FAIL the vulkan backend does not load: %s\n", why);
        return 1;
    }
    return 0;
}

#endif
