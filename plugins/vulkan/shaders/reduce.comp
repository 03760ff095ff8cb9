#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// Reductions (TSR_OP_LIST_REDUCE) over the terms of each output, combined in
// the reference backend's fixed order (docs/determinism.md), so the result
// never depends on the layout, the workgroup count or the scheduling:
//   - terms are numbered row-major over the reduced dims and cut into
//     blocks of 1024; in a block, lane k % 16 folds term k, lanes in
//     increasing term order from the identity;
//   - the 16 lanes combine pairwise (lane i takes i + 8, i + 4, i + 2, i + 1);
//   - block results merge like a binary counter (the tree whose left part is
//     the largest power of two of blocks below the count).
// Built twice: REDUCE_WIDE (shaderInt64 + shaderFloat64) carries floats in
// double and integers in int64, which reproduces the reference bit for bit;
// without it floats are carried in float and integers in int32 (the low
// bits of an int64 wrapping sum are the same).
//
// The paths (MODE >> 1, chosen by reduce_launch.c) differ only in who
// computes which part of that tree:
//   0: a team of 16 invocations is one block's lanes. An output of at most
//      one block is one team's (a workgroup holds several); a longer one is
//      the whole workgroup's, teams taking consecutive blocks and
//      invocation 0 merging the block results in order;
//   1, 2: a few long outputs split into runs of blocks over workgroups,
//      then merged (see reduce_partials);
//   3: one invocation per output of at most one block (CPU devices).
//
// Metadata (reduce_launch.c): [0] output base, [1] input base, [2] kept
// rank, [3] reduced rank, [4..20) kept shape, [20..36) kept output byte
// strides, [36..52) kept input byte strides, [52..68) reduced shape,
// [68..84) reduced input byte strides. Push constants: numel = outputs,
// ndim = terms per output, s0 = var/std's correction (FT bits).
// MODE bit 0 writes the index of an extremum (argmax, max_dim's second
// output).

#ifdef REDUCE_WIDE
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define TM_INT64
#define TM_DOUBLE
#endif
#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#ifdef REDUCE_WIDE
#include "tm_math_f64.glsl"
#define FT double
#define IT int64_t
#define f_isnan tm_disnan
#define f_isinf tm_disinf
#define f_div tm_ddiv
#define f_exp tm_dexp
#define f_log tm_dlog
#define f_sqrt tm_dsqrt_ieee
#else
#include "tm_math_f32.glsl"
#define FT float
#define IT int
#define f_isnan tm_isnan
#define f_isinf tm_isinf
#define f_div tm_div
#define f_exp tm_exp
#define f_log tm_log
#define f_sqrt tm_sqrtf
#endif
#include "tm_convert.glsl"
#include "reduce_ops.glsl"

// Outputs of at most one block: one team each.
void reduce_short(uint outputs, uint terms)
{
    uint t = gl_LocalInvocationIndex;
    uint team = t / LANES;
    uint teams = gl_WorkGroupSize.x / LANES;
    uint step = gl_NumWorkGroups.x * teams;
    for (uint base = gl_WorkGroupID.x * teams; base < outputs; base += step) {
        uint o = base + team;
        bool live = o < outputs;
        uvec2 off = output_offsets(live ? o : 0u);
        FT param = first_param(off.y, terms, live);
        Acc r = identity(0);
        for (int pass = 0; pass < PASSES; ++pass) {
            fold_blocks(off.y, 0u, terms, live, pass, param);
            r = get(team * LANES);
            param = next_param(r, pass, param, terms);
            barrier(); // the next fold overwrites the slots
        }
        if (live && t % LANES == 0u)
            finish(off.x, r, param, terms);
        if (outputs - base <= step) // base + step would pass outputs (or wrap)
            break;
    }
}

// Blocks [begin, end) of one output, teams taking consecutive blocks and
// invocation 0 merging their results like a binary counter; the result is
// invocation 0's.
Acc reduce_blocks(uint in_base, uint begin, uint end, uint terms, int pass, FT param)
{
    uint t = gl_LocalInvocationIndex;
    uint team = t / LANES;
    uint teams = gl_WorkGroupSize.x / LANES;
    Acc stack[32];
    uint count[32];
    int depth = 0;
    for (uint b0 = begin; b0 < end; b0 += teams) {
        uint blk = b0 + team;
        bool live = blk < end;
        fold_blocks(in_base, live ? blk * BLOCK : 0u, terms, live, pass, param);
        if (t == 0u) {
            for (uint g = 0u; g < teams && b0 + g < end; ++g) {
                stack[depth] = get(g * LANES);
                count[depth] = 1u;
                depth++;
                while (depth >= 2 && count[depth - 1] == count[depth - 2]) {
                    stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1], pass);
                    count[depth - 2] *= 2u;
                    depth--;
                }
            }
        }
        barrier(); // invocation 0 has read the slots
    }
    while (depth >= 2) {
        stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1], pass);
        depth--;
    }
    return depth > 0 ? stack[0] : identity(pass);
}

uint block_count(uint terms) { return terms / BLOCK + (terms % BLOCK != 0u ? 1u : 0u); }

// Longer outputs: one workgroup each.
void reduce_long(uint outputs, uint terms)
{
    uint t = gl_LocalInvocationIndex;
    uint blocks = block_count(terms);
    for (uint o = gl_WorkGroupID.x; o < outputs; o += gl_NumWorkGroups.x) {
        uvec2 off = output_offsets(o);
        FT param = first_param(off.y, terms, true);
        Acc r = identity(0);
        for (int pass = 0; pass < PASSES; ++pass) {
            r = reduce_blocks(off.y, 0u, blocks, terms, pass, param);
            if (t == 0u)
                sh_result[0] = next_param(r, pass, param, terms);
            barrier();
            param = sh_result[0];
        }
        if (t == 0u)
            finish(off.x, r, param, terms);
        if (outputs - o <= gl_NumWorkGroups.x)
            break;
    }
}

// Few long outputs (split): each is cut into `chunks` runs of 2^m blocks,
// one workgroup each (STAGE_PARTIALS); one invocation per output then
// merges the runs' results in order (STAGE_MERGE). A run of 2^m blocks is a
// whole subtree of the binary counter, so the bits are those of
// reduce_long. Ops of two passes take both stages twice, the merge of pass
// 0 leaving the parameter of pass 1 in scratch. Push constants: s1.x =
// m | pass << 8 | tiled << 9 | first << 10, s1.y = chunks. A tiled
// dispatch (an input past maxStorageBufferRange, reduce_launch.c) computes
// only runs first .. first + workgroups - 1 of its one output, the input's
// window covering just their terms (meta[1] is shifted back so that a
// term's offset, computed modulo 2^32, lands inside it).
const int STAGE = (MODE >> 1) & 3;
const int STAGE_PARTIALS = 1, STAGE_MERGE = 2;

void reduce_partials(uint outputs, uint terms)
{
    uint m = pc.s1.x & 0xffu, chunks = pc.s1.y;
    int pass = int((pc.s1.x >> 8) & 1u);
    bool tiled = ((pc.s1.x >> 9) & 1u) != 0u;
    uint blocks = block_count(terms);
    uint total = outputs * chunks;
    uint first = tiled ? pc.s1.x >> 10 : 0u;
    uint end = tiled ? min(total, first + gl_NumWorkGroups.x) : total;
    for (uint w = first + gl_WorkGroupID.x; w < end; w += gl_NumWorkGroups.x) {
        uint o = w / chunks, begin = (w % chunks) << m;
        uvec2 off = output_offsets(o);
        FT param = pass == 0 ? first_param(off.y, terms, true)
                             : f_from(uvec2(out_w[total * 6u + o * 2u],
                                            out_w[total * 6u + o * 2u + 1u]));
        Acc r = reduce_blocks(off.y, begin, min(begin + (1u << m), blocks), terms, pass, param);
        if (gl_LocalInvocationIndex == 0u)
            acc_store(w * 6u, r);
        if (end - w <= gl_NumWorkGroups.x)
            break;
    }
}

void reduce_merge(uint outputs, uint terms)
{
    uint chunks = pc.s1.y;
    int pass = int((pc.s1.x >> 8) & 1u);
    bool last = pass == PASSES - 1;
    uint total = outputs * chunks;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint o = gl_GlobalInvocationID.x; o < outputs; o += step) {
        uvec2 off = output_offsets(o);
        uint pw = total * 6u + o * 2u;
        FT param = pass == 0 ? first_param(off.y, terms, true)
                             : f_from(uvec2(scratch_word(last, pw), scratch_word(last, pw + 1u)));
        Acc stack[32];
        uint count[32];
        int depth = 0;
        for (uint c = 0u; c < chunks; ++c) {
            stack[depth] = acc_load(last, (o * chunks + c) * 6u);
            count[depth] = 1u;
            depth++;
            while (depth >= 2 && count[depth - 1] == count[depth - 2]) {
                stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1], pass);
                count[depth - 2] *= 2u;
                depth--;
            }
        }
        while (depth >= 2) {
            stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1], pass);
            depth--;
        }
        if (last) {
            finish(off.x, stack[0], param, terms);
        } else {
            uvec2 next = f_words(next_param(stack[0], pass, param, terms));
            out_w[pw] = next.x;
            out_w[pw + 1u] = next.y;
        }
        if (outputs - o <= step)
            break;
    }
}

// One invocation per output of at most one block (STAGE_SERIAL), the same
// order without shared memory or barriers: a CPU implementation such as
// lavapipe runs a workgroup's barriers as coroutine switches, which cost
// far more there than the lanes gain. (A per-invocation binary counter over
// more blocks, in a private array, gave wrong sums on lavapipe 22.3, so
// longer outputs keep the workgroup paths.)
const int STAGE_SERIAL = 3;

// One block's lanes, halved pairwise (unrolled: the lanes stay registers).
Acc serial_block(uint in_base, uint first, uint n, int pass, FT param)
{
    Acc lanes[LANES];
    [[unroll]] for (uint l = 0u; l < LANES; ++l) {
        Acc acc = identity(pass);
        for (uint k = l; k < n; k += LANES)
            acc = combine(acc, term(in_base + term_offset(first + k), first + k, pass, param),
                          pass);
        lanes[l] = acc;
    }
    [[unroll]] for (uint width = LANES / 2u; width >= 1u; width /= 2u)
        [[unroll]] for (uint l = 0u; l < width; ++l)
            lanes[l] = combine(lanes[l], lanes[l + width], pass);
    return lanes[0];
}

void reduce_serial(uint outputs, uint terms)
{
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint o = gl_GlobalInvocationID.x; o < outputs; o += step) {
        uvec2 off = output_offsets(o);
        FT param = first_param(off.y, terms, true);
        Acc r = identity(0);
        for (int pass = 0; pass < PASSES; ++pass) {
            r = serial_block(off.y, 0u, terms, pass, param);
            param = next_param(r, pass, param, terms);
        }
        finish(off.x, r, param, terms);
        if (outputs - o <= step)
            break;
    }
}

void main()
{
    if (STAGE == STAGE_SERIAL)
        reduce_serial(pc.numel, pc.ndim);
    else if (STAGE == STAGE_PARTIALS)
        reduce_partials(pc.numel, pc.ndim);
    else if (STAGE == STAGE_MERGE)
        reduce_merge(pc.numel, pc.ndim);
    else if (pc.ndim <= BLOCK)
        reduce_short(pc.numel, pc.ndim);
    else
        reduce_long(pc.numel, pc.ndim);
}
