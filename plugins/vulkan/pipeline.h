/* Shader modules, the shared pipeline layout, and the pipeline cache.
 *
 * All compute shaders share one descriptor set layout (six storage buffers:
 * metadata, output, inputs 0..2, status word) and one push-constant range
 * (struct tsr__vk_push), so a pipeline is identified by its shader and its
 * specialisation constants alone. Pipelines are created on first use and
 * kept until shutdown; a VkPipelineCache lets the driver share work between
 * specialisations of one module.
 */
#ifndef TSR_VULKAN_PIPELINE_H
#define TSR_VULKAN_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "shaders.h"

enum {
    TSR__VK_BINDING_META = 0,
    TSR__VK_BINDING_OUT = 1,
    TSR__VK_BINDING_IN0 = 2, /* inputs 0..2 are bindings 2..4 */
    TSR__VK_BINDING_STATUS = 5,
    TSR__VK_BINDING_COUNT = 6,
};

/* Specialisation constants 1..4 (0 is the workgroup size). */
struct tsr__vk_spec {
    int32_t op;        /* tsr_op */
    int32_t dtype_in;  /* tsr_dtype of the inputs */
    int32_t dtype_out; /* tsr_dtype of the output */
    int32_t mode;      /* op-specific: rounding mode, gelu form, clamp bounds */
};

/* Push constants, identical in every shader (24 of the 128 bytes). */
struct tsr__vk_push {
    uint32_t numel;     /* elements of the output */
    uint32_t ndim;      /* rank after merging dimensions, 1..TSR_MAX_DIMS */
    uint32_t scalar[4]; /* two 64-bit scalars as (low, high) words */
};

struct tsr__vk_pipeline_slot {
    int shader; /* -1 when empty */
    struct tsr__vk_spec spec;
    VkPipeline pipeline;
};

struct tsr__vk_pipelines {
    struct tsr__vk_device *dev;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipelineCache cache;
    VkShaderModule modules[TSR__VK_SHADER_COUNT];
    struct tsr__vk_pipeline_slot *slots; /* open addressing, power-of-two size */
    size_t capacity, count;
    uint32_t local_size; /* threads per workgroup */
};

int tsr__vk_pipelines_init(struct tsr__vk_pipelines *p, struct tsr__vk_device *dev);
void tsr__vk_pipelines_shutdown(struct tsr__vk_pipelines *p);

/* Whether `shader` can be created on this device (its SPIR-V capabilities). */
int tsr__vk_shader_supported(const struct tsr__vk_device *dev, int shader);

/* The pipeline for (shader, spec), created on first use. */
int tsr__vk_pipeline_get(struct tsr__vk_pipelines *p, int shader, const struct tsr__vk_spec *spec,
                         VkPipeline *out);

#endif /* TSR_VULKAN_PIPELINE_H */
