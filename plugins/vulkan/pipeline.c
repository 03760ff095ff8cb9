#include "pipeline.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"

static const struct {
    const char *stem;
    int needs;
} tsr__vk_shader_info[TSR__VK_SHADER_COUNT] = {
#define TSR__VK_SHADER_INFO_(id, stem, needs) {stem, needs},
    TSR__VK_SHADER_LIST(TSR__VK_SHADER_INFO_)
#undef TSR__VK_SHADER_INFO_
};

int tsr__vk_shader_supported(const struct tsr__vk_device *dev, int shader)
{
    if (shader < 0 || shader >= TSR__VK_SHADER_COUNT)
        return 0;
    int needs = tsr__vk_shader_info[shader].needs;
    if ((needs & TSR__VK_NEEDS_INT64) && !dev->features.int64)
        return 0;
    if ((needs & TSR__VK_NEEDS_FLOAT64) && !dev->features.float64)
        return 0;
    return 1;
}

static const struct tsr__vk_spirv *tsr__vk_find_spirv(const char *stem)
{
    for (size_t i = 0; i < tsr__vk_spirv_count; ++i)
        if (strcmp(tsr__vk_spirv_table[i].stem, stem) == 0)
            return &tsr__vk_spirv_table[i];
    return NULL;
}

static int tsr__vk_fail(struct tsr__vk_pipelines *p, const char *what, VkResult r)
{
    return tsr__vk_error(p->dev->host, TSR_ERR_BACKEND, "%s failed: %s", what,
                         tsr__vk_result_name(r));
}

int tsr__vk_pipelines_init(struct tsr__vk_pipelines *p, struct tsr__vk_device *dev)
{
    memset(p, 0, sizeof *p);
    p->dev = dev;
    struct tsr__vk_fns *fns = &dev->fns;
    const VkPhysicalDeviceLimits *limits = &dev->props.limits;
    p->local_size = 256;
    if (p->local_size > limits->maxComputeWorkGroupSize[0])
        p->local_size = limits->maxComputeWorkGroupSize[0];
    if (p->local_size > limits->maxComputeWorkGroupInvocations)
        p->local_size = limits->maxComputeWorkGroupInvocations;

    VkDescriptorSetLayoutBinding bindings[TSR__VK_BINDING_COUNT];
    for (uint32_t i = 0; i < TSR__VK_BINDING_COUNT; ++i) {
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    }
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = TSR__VK_BINDING_COUNT,
        .pBindings = bindings,
    };
    VkResult r = fns->vkCreateDescriptorSetLayout(dev->device, &set_info, NULL, &p->set_layout);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(p, "vkCreateDescriptorSetLayout", r);
    VkPushConstantRange push = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        .size = sizeof(struct tsr__vk_push),
    };
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &p->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &push,
    };
    r = fns->vkCreatePipelineLayout(dev->device, &layout_info, NULL, &p->layout);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(p, "vkCreatePipelineLayout", r);
    VkPipelineCacheCreateInfo cache_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    r = fns->vkCreatePipelineCache(dev->device, &cache_info, NULL, &p->cache);
    if (r != VK_SUCCESS)
        p->cache = VK_NULL_HANDLE; /* only an optimisation */
    return TSR_OK;
}

void tsr__vk_pipelines_shutdown(struct tsr__vk_pipelines *p)
{
    struct tsr__vk_device *dev = p->dev;
    if (!dev || !dev->device)
        return;
    struct tsr__vk_fns *fns = &dev->fns;
    for (size_t i = 0; i < p->capacity; ++i)
        if (p->slots[i].shader >= 0)
            fns->vkDestroyPipeline(dev->device, p->slots[i].pipeline, NULL);
    free(p->slots);
    for (int i = 0; i < TSR__VK_SHADER_COUNT; ++i)
        if (p->modules[i])
            fns->vkDestroyShaderModule(dev->device, p->modules[i], NULL);
    if (p->cache)
        fns->vkDestroyPipelineCache(dev->device, p->cache, NULL);
    if (p->layout)
        fns->vkDestroyPipelineLayout(dev->device, p->layout, NULL);
    if (p->set_layout)
        fns->vkDestroyDescriptorSetLayout(dev->device, p->set_layout, NULL);
    memset(p, 0, sizeof *p);
}

static int tsr__vk_module(struct tsr__vk_pipelines *p, int shader, VkShaderModule *out)
{
    if (p->modules[shader]) {
        *out = p->modules[shader];
        return TSR_OK;
    }
    const char *stem = tsr__vk_shader_info[shader].stem;
    if (!tsr__vk_shader_supported(p->dev, shader))
        return tsr__vk_error(p->dev->host, TSR_ERR_UNIMPLEMENTED,
                             "shader %s needs device features this device lacks", stem);
    const struct tsr__vk_spirv *spirv = tsr__vk_find_spirv(stem);
    if (!spirv)
        return tsr__vk_error(p->dev->host, TSR_ERR_BACKEND, "shader %s is not built in", stem);
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = spirv->word_count * sizeof(uint32_t),
        .pCode = spirv->words,
    };
    VkResult r = p->dev->fns.vkCreateShaderModule(p->dev->device, &info, NULL, &p->modules[shader]);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(p, "vkCreateShaderModule", r);
    *out = p->modules[shader];
    return TSR_OK;
}

static size_t tsr__vk_slot_hash(int shader, const struct tsr__vk_spec *spec)
{
    uint64_t h = 1469598103934665603ull;
    const int32_t words[5] = {shader, spec->op, spec->dtype_in, spec->dtype_out, spec->mode};
    for (int i = 0; i < 5; ++i) {
        h ^= (uint32_t)words[i];
        h *= 1099511628211ull;
    }
    return (size_t)h;
}

static struct tsr__vk_pipeline_slot *tsr__vk_slot_find(struct tsr__vk_pipelines *p, int shader,
                                                       const struct tsr__vk_spec *spec)
{
    size_t mask = p->capacity - 1;
    for (size_t i = tsr__vk_slot_hash(shader, spec) & mask;; i = (i + 1) & mask) {
        struct tsr__vk_pipeline_slot *slot = &p->slots[i];
        if (slot->shader < 0 ||
            (slot->shader == shader && memcmp(&slot->spec, spec, sizeof *spec) == 0))
            return slot;
    }
}

static int tsr__vk_slots_grow(struct tsr__vk_pipelines *p)
{
    size_t capacity = p->capacity ? 2 * p->capacity : 64;
    struct tsr__vk_pipeline_slot *old = p->slots;
    size_t old_capacity = p->capacity;
    p->slots = malloc(capacity * sizeof *p->slots);
    if (!p->slots) {
        p->slots = old;
        return tsr__vk_error(p->dev->host, TSR_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    p->capacity = capacity;
    for (size_t i = 0; i < capacity; ++i)
        p->slots[i].shader = -1;
    for (size_t i = 0; i < old_capacity; ++i)
        if (old[i].shader >= 0)
            *tsr__vk_slot_find(p, old[i].shader, &old[i].spec) = old[i];
    free(old);
    return TSR_OK;
}

int tsr__vk_pipeline_get(struct tsr__vk_pipelines *p, int shader, const struct tsr__vk_spec *spec,
                         VkPipeline *out)
{
    if (p->count + 1 > p->capacity / 2) {
        int status = tsr__vk_slots_grow(p);
        if (status != TSR_OK)
            return status;
    }
    struct tsr__vk_pipeline_slot *slot = tsr__vk_slot_find(p, shader, spec);
    if (slot->shader >= 0) {
        *out = slot->pipeline;
        return TSR_OK;
    }
    VkShaderModule module = VK_NULL_HANDLE;
    int status = tsr__vk_module(p, shader, &module);
    if (status != TSR_OK)
        return status;
    const int32_t values[5] = {(int32_t)p->local_size, spec->op, spec->dtype_in, spec->dtype_out,
                               spec->mode};
    VkSpecializationMapEntry entries[5];
    for (uint32_t i = 0; i < 5; ++i)
        entries[i] = (VkSpecializationMapEntry){i, i * sizeof(int32_t), sizeof(int32_t)};
    VkSpecializationInfo specialization = {
        .mapEntryCount = 5,
        .pMapEntries = entries,
        .dataSize = sizeof values,
        .pData = values,
    };
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage =
            {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main",
                .pSpecializationInfo = &specialization,
            },
        .layout = p->layout,
    };
    VkPipeline pipeline;
    VkResult r =
        p->dev->fns.vkCreateComputePipelines(p->dev->device, p->cache, 1, &info, NULL, &pipeline);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(p, "vkCreateComputePipelines", r);
    slot->shader = shader;
    slot->spec = *spec;
    slot->pipeline = pipeline;
    p->count++;
    *out = pipeline;
    return TSR_OK;
}
