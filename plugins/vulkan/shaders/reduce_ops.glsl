// reduce.comp's accumulator: what one term contributes, how two partial
// results combine, and how an output's result is finished and stored, for
// every op of TSR_OP_LIST_REDUCE it runs. FT and IT are the float and
// integer accumulator types (double and int64_t in the wide build).

#define LANES 16u
#define BLOCK 1024u
#define EMPTY 0xffffffffu // no term yet (extrema)
#define MAX_GROUP 256

// linalg_vector_norm (reduce.c): ord inf and -inf run as amax and
// amin, ord 0 as count_nonzero, with MAGNITUDE set (|x| as the terms, NaN
// for an empty extremum, a float count); other ords run as TSR_OP_NORM with
// NORM_KIND 0 (p in s0), 1 (p = 1) or 2 (p = 2). Kept out of the constants
// below: glslang's optimizer fails on longer specialization expressions.
#define MAGNITUDE ((MODE & 8) != 0)
#define NORM_KIND (MODE >> 4)
const bool NORM = OP == TSR_OP_NORM;

const bool IS_FLOAT = DT_IN == TSR_FLOAT16 || DT_IN == TSR_BFLOAT16 || DT_IN == TSR_FLOAT32 ||
                      DT_IN == TSR_FLOAT64;
const bool EXTREME = OP == TSR_OP_AMAX || OP == TSR_OP_AMIN || OP == TSR_OP_MAX_DIM ||
                     OP == TSR_OP_MIN_DIM || OP == TSR_OP_ARGMAX || OP == TSR_OP_ARGMIN;
const bool WANT_MAX = OP == TSR_OP_AMAX || OP == TSR_OP_MAX_DIM || OP == TSR_OP_ARGMAX ||
                      OP == TSR_OP_LOGSUMEXP;
const bool COUNTING = OP == TSR_OP_ALL || OP == TSR_OP_ANY || OP == TSR_OP_COUNT_NONZERO;
const bool PRODUCT = OP == TSR_OP_PROD;

// f: a float value or sum; i: an integer one; n: an index (extrema) or a
// count (all, any, count_nonzero, nanmean's terms).
struct Acc {
    FT f;
    IT i;
    uint n;
};

shared FT sh_f[MAX_GROUP];
shared IT sh_i[MAX_GROUP];
shared uint sh_n[MAX_GROUP];
shared FT sh_result[1]; // a pass's result, from invocation 0 to all

FT load_f(uint addr)
{
#ifdef REDUCE_WIDE
    if (DT_IN == TSR_FLOAT64)
        return packDouble2x32(tsr_load_bits64(0, addr));
#endif
    if (DT_IN == TSR_FLOAT16)
        return FT(tm_f16_to_f32(tsr_load_bits(0, addr, 2)));
    if (DT_IN == TSR_BFLOAT16)
        return FT(tm_bf16_to_f32(tsr_load_bits(0, addr, 2)));
    return FT(uintBitsToFloat(tsr_load_bits(0, addr, 4)));
}

IT load_i(uint addr)
{
#ifdef REDUCE_WIDE
    if (DT_IN == TSR_INT64)
        return int64_t(packUint2x32(tsr_load_bits64(0, addr)));
#endif
    if (DT_IN == TSR_BOOL || DT_IN == TSR_UINT8)
        return IT(tsr_load_bits(0, addr, 1));
    return IT(tsr_load_signed(0, addr, tsr_size(DT_IN)));
}

// A value rounded to the input's dtype (PyTorch's mean divides a sum that
// was first rounded to the dtype).
FT to_dtype(FT v)
{
    if (DT_IN == TSR_FLOAT16)
        return FT(tm_f16_to_f32(tm_f32_to_f16(float(v))));
    if (DT_IN == TSR_BFLOAT16)
        return FT(tm_bf16_to_f32(tm_f32_to_bf16(float(v))));
    if (DT_IN == TSR_FLOAT32)
        return FT(float(v));
    return v;
}

// PyTorch computes the norms of inputs narrower than float64 in float: |x|^p
// and the final sum are rounded to float (the sum itself runs in FT).
FT to_opmath(FT v) { return DT_IN == TSR_FLOAT64 ? v : FT(float(v)); }

#ifdef REDUCE_WIDE
FT f_abs(FT v) { return tm_dfabs(v); }
#else
FT f_abs(FT v) { return tm_fabs(v); }
#endif

FT norm_p()
{
#ifdef REDUCE_WIDE
    return packDouble2x32(pc.s0);
#else
    return FT(1); // not listed without the wide build (pow needs doubles)
#endif
}

// |x|^p with the powers 1 and 2 written out, as the reference computes it.
FT norm_term(FT x)
{
    FT m = to_opmath(f_abs(x));
    if (NORM_KIND == 1)
        return m;
    precise FT square = m * m;
    if (NORM_KIND == 2)
        return to_opmath(square);
#ifdef REDUCE_WIDE
    return to_opmath(tm_dpow(m, norm_p()));
#else
    return m;
#endif
}

// The norm from the combined terms; an empty extreme one is NaN, as the
// reference gives it.
FT norm_finish(Acc r)
{
    if (EXTREME)
        return r.n == EMPTY ? FT(uintBitsToFloat(0x7fc00000u)) : r.f;
    if (COUNTING)
        return FT(r.n);
    FT total = to_opmath(r.f);
    if (NORM_KIND == 1)
        return total;
    if (NORM_KIND == 2)
        return f_sqrt(total);
#ifdef REDUCE_WIDE
    return tm_dpow(total, tm_ddiv(1.0lf, norm_p()));
#else
    return total;
#endif
}

const bool LSE = OP == TSR_OP_LOGSUMEXP;
FT neg_inf() { return FT(uintBitsToFloat(0xff800000u)); }

// logsumexp's pass 0 is a maximum that NaN wins; its pass 1 and every pass
// of the other sum-like ops add (or multiply).
Acc identity(int pass)
{
    Acc a;
    a.f = PRODUCT ? FT(1) : LSE && pass == 0 ? neg_inf() : FT(0);
    a.i = PRODUCT ? IT(1) : IT(0);
    a.n = EXTREME ? EMPTY : 0u;
    return a;
}

// Whether b replaces a as the extremum: the first NaN wins, otherwise the
// strictly better value, and ties go to the lower index.
bool better(Acc a, Acc b, bool want_max)
{
    if (a.n == EMPTY)
        return true;
    if (b.n == EMPTY)
        return false;
    if (IS_FLOAT) {
        bool an = f_isnan(a.f), bn = f_isnan(b.f);
        if (an || bn)
            return an && bn ? b.n < a.n : bn;
        if (a.f != b.f)
            return want_max ? b.f > a.f : b.f < a.f;
    } else if (a.i != b.i) {
        return want_max ? b.i > a.i : b.i < a.i;
    }
    return b.n < a.n;
}

Acc combine(Acc a, Acc b, int pass)
{
    if (EXTREME)
        return better(a, b, WANT_MAX) ? b : a;
    Acc r;
    if (LSE && pass == 0) {
        r.f = f_isnan(a.f) ? a.f : f_isnan(b.f) || b.f > a.f ? b.f : a.f;
        r.i = IT(0);
        r.n = 0u;
        return r;
    }
    if (PRODUCT) {
        precise FT f = a.f * b.f;
        r.f = f;
        r.i = a.i * b.i;
    } else {
        precise FT f = a.f + b.f;
        r.f = f;
        r.i = a.i + b.i;
    }
    r.n = a.n + b.n;
    return r;
}

// Term k as the pass combines it; `param` is the previous pass's result
// (var: the shift, then the mean; logsumexp: the shift).
Acc term(uint addr, uint k, int pass, FT param)
{
    Acc a = identity(pass);
    if (COUNTING) {
        // NaN counts as true; -0 as false.
        a.n = (IS_FLOAT ? f_isnan(load_f(addr)) || load_f(addr) != FT(0) : load_i(addr) != IT(0))
                  ? 1u : 0u;
        return a;
    }
    if (!IS_FLOAT) {
        a.i = load_i(addr);
        a.n = EXTREME ? k : 0u;
        return a;
    }
    precise FT x = load_f(addr);
    if (EXTREME || (LSE && pass == 0)) {
        a.f = MAGNITUDE ? f_abs(x) : x;
        a.n = k;
    } else if (NORM) {
        a.f = norm_term(x);
    } else if (OP == TSR_OP_NANSUM || OP == TSR_OP_NANMEAN) {
        a.f = f_isnan(x) ? FT(0) : x;
        a.n = f_isnan(x) ? 0u : 1u;
    } else if (OP == TSR_OP_VAR || OP == TSR_OP_STD) {
        precise FT d = x - param;
        a.f = pass == 0 ? d : d * d;
    } else if (LSE) {
        a.f = f_exp(x - param);
    } else {
        a.f = x;
    }
    return a;
}

// Byte offset of term k in the input, from the output's first term.
uint term_offset(uint k)
{
    int red = int(meta[3]);
    uint o = 0u;
    for (int d = red - 1; d >= 0; --d) {
        uint c = k;
        if (d > 0) {
            uint n = meta[52 + d];
            c = k % n;
            k /= n;
        }
        o += c * meta[68 + d];
    }
    return o;
}

// Byte offsets (output, input) of output number o.
uvec2 output_offsets(uint o)
{
    uvec2 r = uvec2(meta[0], meta[1]);
    for (int d = int(meta[2]) - 1; d >= 0; --d) {
        uint c = o;
        if (d > 0) {
            uint n = meta[4 + d];
            c = o % n;
            o /= n;
        }
        r += c * uvec2(meta[20 + d], meta[36 + d]);
    }
    return r;
}

void put(uint t, Acc a)
{
    sh_f[t] = a.f;
    sh_i[t] = a.i;
    sh_n[t] = a.n;
}

Acc get(uint t)
{
    Acc a;
    a.f = sh_f[t];
    a.i = sh_i[t];
    a.n = sh_n[t];
    return a;
}

// One block per team: lane l folds terms first + l + 16 j, then the lanes
// combine pairwise. The block's value ends in the team's first slot.
void fold_blocks(uint in_base, uint first, uint terms, bool live, int pass, FT param)
{
    uint t = gl_LocalInvocationIndex;
    uint lane = t % LANES;
    Acc acc = identity(pass);
    if (live && first < terms) {
        uint end = min(terms - first, BLOCK);
        for (uint k = lane; k < end; k += LANES)
            acc = combine(acc, term(in_base + term_offset(first + k), first + k, pass, param),
                          pass);
    }
    put(t, acc);
    barrier();
    for (uint width = LANES / 2u; width >= 1u; width /= 2u) {
        if (lane < width)
            put(t, combine(get(t), get(t + width), pass));
        barrier();
    }
}

void store_out(uint addr, Acc r, FT f)
{
    if ((MODE & 1) == 1 || OP == TSR_OP_ARGMAX || OP == TSR_OP_ARGMIN ||
        (OP == TSR_OP_COUNT_NONZERO && !MAGNITUDE)) {
        tsr_store_bits64(addr, uvec2(r.n, 0u));
    } else if (DT_OUT == TSR_BOOL) {
        tsr_store_bool(addr, OP == TSR_OP_ALL ? r.n == pc.ndim
                             : OP == TSR_OP_ANY ? r.n != 0u
                                                : r.i != IT(0));
    } else if (!IS_FLOAT) {
#ifdef REDUCE_WIDE
        if (DT_OUT == TSR_INT64) {
            tsr_store_bits64(addr, unpackUint2x32(uint64_t(r.i)));
            return;
        }
#endif
        tsr_store_bits(addr, tsr_size(DT_OUT), uint(r.i));
    } else {
#ifdef REDUCE_WIDE
        if (DT_OUT == TSR_FLOAT64) {
            tsr_store_bits64(addr, unpackDouble2x32(f));
            return;
        }
#endif
        if (DT_OUT == TSR_FLOAT16)
            tsr_store_bits(addr, 2, tm_f32_to_f16(float(f)));
        else if (DT_OUT == TSR_BFLOAT16)
            tsr_store_bits(addr, 2, tm_f32_to_bf16(float(f)));
        else
            tsr_store_bits(addr, 4, floatBitsToUint(float(f)));
    }
}

const int PASSES = OP == TSR_OP_VAR || OP == TSR_OP_STD || LSE ? 2 : 1;

// What pass 0 starts from: var's shift is the first term, so the mean of
// equal terms is exact and their variance exactly 0.
FT first_param(uint in_base, uint terms, bool live)
{
    if ((OP == TSR_OP_VAR || OP == TSR_OP_STD) && live && terms > 0u)
        return load_f(in_base);
    return FT(0);
}

// What the next pass needs from pass `pass`'s result r.
FT next_param(Acc r, int pass, FT param, uint terms)
{
    if ((OP == TSR_OP_VAR || OP == TSR_OP_STD) && pass == 0) {
        precise FT mean = f_div(r.f, FT(terms)) + param;
        return mean;
    }
    if (LSE && pass == 0) // shift by the maximum unless it is infinite
        return f_isinf(r.f) ? FT(0) : r.f;
    return param;
}

void finish(uint addr, Acc r, FT param, uint terms)
{
    precise FT f = r.f;
    if (OP == TSR_OP_MEAN)
        f = f_div(to_dtype(r.f), FT(terms));
    else if (OP == TSR_OP_NANMEAN)
        f = f_div(to_dtype(r.f), FT(r.n));
    else if (OP == TSR_OP_VAR || OP == TSR_OP_STD) {
#ifdef REDUCE_WIDE
        FT correction = packDouble2x32(pc.s0);
#else
        FT correction = uintBitsToFloat(pc.s0.x);
#endif
        precise FT divisor = FT(terms) - correction;
        f = f_div(r.f, divisor > FT(0) ? divisor : FT(0));
        if (OP == TSR_OP_STD)
            f = f_sqrt(f);
    } else if (LSE) {
        f = f_log(r.f) + param;
    } else if (NORM || MAGNITUDE) {
        f = norm_finish(r);
    }
    store_out(addr, r, f);
}

// ---- partial results in scratch memory (split reductions) -------------------
// A partial takes 6 words: f (2), i (2), n, unused. After the partials of
// every output come the outputs' pass parameters, 2 words each.

uvec2 f_words(FT v)
{
#ifdef REDUCE_WIDE
    return unpackDouble2x32(v);
#else
    return uvec2(floatBitsToUint(v), 0u);
#endif
}

FT f_from(uvec2 w)
{
#ifdef REDUCE_WIDE
    return packDouble2x32(w);
#else
    return uintBitsToFloat(w.x);
#endif
}

// Scratch is binding 1 while partials are written, binding 3 (input 1)
// when the last merge writes the real output through binding 1.
uint scratch_word(bool in1, uint w) { return in1 ? in1_w[w] : out_w[w]; }

void acc_store(uint w, Acc a)
{
    uvec2 f = f_words(a.f);
#ifdef REDUCE_WIDE
    uvec2 i = unpackUint2x32(uint64_t(a.i));
#else
    uvec2 i = uvec2(uint(a.i), 0u);
#endif
    out_w[w] = f.x;
    out_w[w + 1u] = f.y;
    out_w[w + 2u] = i.x;
    out_w[w + 3u] = i.y;
    out_w[w + 4u] = a.n;
}

Acc acc_load(bool in1, uint w)
{
    Acc a;
    a.f = f_from(uvec2(scratch_word(in1, w), scratch_word(in1, w + 1u)));
#ifdef REDUCE_WIDE
    a.i = int64_t(packUint2x32(uvec2(scratch_word(in1, w + 2u), scratch_word(in1, w + 3u))));
#else
    a.i = int(scratch_word(in1, w + 2u));
#endif
    a.n = scratch_word(in1, w + 4u);
    return a;
}
