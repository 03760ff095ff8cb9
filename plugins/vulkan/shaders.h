/* The compute shaders built into the plugin.
 *
 * Each is compiled from shaders/<stem>.comp at build time (some stems are the
 * same source compiled with different -D flags, see CMakeLists.txt) and
 * embedded as SPIR-V in a generated source that defines tsr__vk_spirv_table.
 * A shader whose SPIR-V declares Int64 or Float64 is only ever turned into a
 * VkShaderModule on a device with that feature.
 *
 * Every shader takes the same interface (pipeline.h): specialisation
 * constants 0..4 = workgroup size, op, input dtype, output dtype, mode;
 * descriptor set 0 = metadata, output, three inputs, status word.
 */
#ifndef TSR_VULKAN_SHADERS_H
#define TSR_VULKAN_SHADERS_H

#include <stddef.h>
#include <stdint.h>

enum { TSR__VK_NEEDS_INT64 = 1, TSR__VK_NEEDS_FLOAT64 = 2 };

/* X(ID, "stem", requirements) */
#define TSR__VK_SHADER_LIST(X)                                                                     \
    X(FILL, "fill", 0)                                                                             \
    X(COPY, "copy", 0)                                                                             \
    X(COPY_INT64, "copy_int64", TSR__VK_NEEDS_INT64)                                               \
    X(COPY_FLOAT64, "copy_float64", TSR__VK_NEEDS_INT64 | TSR__VK_NEEDS_FLOAT64)                   \
    X(EW_FLOAT, "ew_float", 0)                                                                     \
    X(EW_INT, "ew_int", 0)                                                                         \
    X(EW_INT64, "ew_int64", TSR__VK_NEEDS_INT64)                                                   \
    X(EW_FLOAT64, "ew_float64", TSR__VK_NEEDS_INT64 | TSR__VK_NEEDS_FLOAT64)                   \
    X(MATMUL, "matmul", 0)                                                                         \
    X(MATMUL_INT, "matmul_int", 0)                                                                 \
    X(MATMUL_INT64, "matmul_int64", TSR__VK_NEEDS_INT64)                                           \
    X(MATMUL_FLOAT64, "matmul_float64", TSR__VK_NEEDS_FLOAT64)                                     \
    X(REDUCE, "reduce", 0)                                                                         \
    X(REDUCE_WIDE, "reduce_wide", TSR__VK_NEEDS_INT64 | TSR__VK_NEEDS_FLOAT64)                     \
    X(SCAN, "scan", 0)                                                                             \
    X(SCAN_WIDE, "scan_wide", TSR__VK_NEEDS_INT64 | TSR__VK_NEEDS_FLOAT64)                         \
    X(SOFTMAX, "softmax", 0)                                                                       \
    X(NORM, "norm", 0)                                                                             \
    X(SOFTMAX_WIDE, "softmax_wide", TSR__VK_NEEDS_INT64 | TSR__VK_NEEDS_FLOAT64)                   \
    X(NORM_WIDE, "norm_wide", TSR__VK_NEEDS_INT64 | TSR__VK_NEEDS_FLOAT64)                         \
    X(INDEX_CHECK, "index_check", 0)                                                               \
    X(INDEX_GATHER, "index_gather", 0)                                                             \
    X(SCATTER, "scatter", 0)                                                                       \
    X(SCATTER_WIDE, "scatter_wide", TSR__VK_NEEDS_INT64 | TSR__VK_NEEDS_FLOAT64)                   \
    X(TRI, "tri", 0)                                                                               \
    X(POOL, "pool", 0)                                                                             \
    X(IM2COL, "conv_im2col", 0)                                                                    \
    X(COL2IM, "conv_col2im", 0)                                                                    \
    X(RESAMPLE, "resample", 0)                                                                     \
    X(RESAMPLE_GRID, "resample_grid", 0)                                                           \
    X(RESAMPLE_BACKWARD, "resample_backward", 0)

enum tsr__vk_shader {
#define TSR__VK_SHADER_ENUM_(id, stem, needs) TSR__VK_SHADER_##id,
    TSR__VK_SHADER_LIST(TSR__VK_SHADER_ENUM_)
#undef TSR__VK_SHADER_ENUM_
        TSR__VK_SHADER_COUNT
};

/* One embedded SPIR-V module (generated: spirv_table.c in the build tree). */
struct tsr__vk_spirv {
    const char *stem;
    const uint32_t *words;
    size_t word_count;
};

extern const struct tsr__vk_spirv tsr__vk_spirv_table[];
extern const size_t tsr__vk_spirv_count;

#endif /* TSR_VULKAN_SHADERS_H */
