// Complex steps of scatter.comp (included there after the real ones):
// scatter's reduces and index_add on complex64/complex128, computed part
// by part in double as the reference's C complex arithmetic, so only in
// the wide build; elsewhere these dtypes only move (R_NONE, index_copy).

#ifdef SCATTER_WIDE
#define IS_COMPLEX (DT_IN == TSR_COMPLEX64 || DT_IN == TSR_COMPLEX128)

// A complex element as (re, im) in double; complex64 holds two floats.
dvec2 c_unpack(uvec2 lo, uvec2 hi)
{
    if (DT_IN == TSR_COMPLEX64)
        return dvec2(double(uintBitsToFloat(lo.x)), double(uintBitsToFloat(lo.y)));
    return dvec2(packDouble2x32(lo), packDouble2x32(hi));
}

dvec2 c_load_out(uint addr)
{
    uint w = addr >> 2;
    uvec2 lo = uvec2(out_w[w], out_w[w + 1u]);
    if (DT_IN == TSR_COMPLEX64)
        return c_unpack(lo, uvec2(0u));
    return c_unpack(lo, uvec2(out_w[w + 2u], out_w[w + 3u]));
}

dvec2 c_load_src(uint addr)
{
    if (DT_IN == TSR_COMPLEX64)
        return c_unpack(tsr_load_bits64(1, addr), uvec2(0u));
    return c_unpack(tsr_load_bits64(1, addr), tsr_load_bits64(1, addr + 8u));
}

void c_store(uint addr, dvec2 v)
{
    if (DT_IN == TSR_COMPLEX64) {
        tsr_store_bits64(addr, uvec2(floatBitsToUint(float(v.x)), floatBitsToUint(float(v.y))));
    } else {
        tsr_store_bits64(addr, unpackDouble2x32(v.x));
        tsr_store_bits64(addr + 8u, unpackDouble2x32(v.y));
    }
}

// The sign of s on the magnitude of m.
double c_sign(double m, double s)
{
    uint64_t sign = 0x8000000000000000UL;
    return tm_bits2d((tm_d2bits(m) & ~sign) | (tm_d2bits(s) & sign));
}

// An infinite part as 1 and a finite one as 0, signs kept (C's Annex G).
dvec2 c_box(dvec2 v)
{
    return dvec2(c_sign(tm_disinf(v.x) ? 1.0lf : 0.0lf, v.x),
                 c_sign(tm_disinf(v.y) ? 1.0lf : 0.0lf, v.y));
}

// NaN parts as zeros of their sign.
dvec2 c_nan_to_zero(dvec2 v)
{
    return dvec2(tm_disnan(v.x) ? c_sign(0.0lf, v.x) : v.x,
                 tm_disnan(v.y) ? c_sign(0.0lf, v.y) : v.y);
}

bool c_has_inf(dvec2 v) { return tm_disinf(v.x) || tm_disinf(v.y); }

double c_dot(double a, double b, double c, double d, bool minus)
{
    precise double ab = a * b, cd = c * d;
    precise double r = minus ? ab - cd : ab + cd;
    return r;
}

// The reference's C complex product: no contraction, and where both parts
// come out NaN from infinite operands, C's recovery gives the infinity.
dvec2 c_mul(dvec2 a, dvec2 b)
{
    dvec2 r = dvec2(c_dot(a.x, b.x, a.y, b.y, true), c_dot(a.x, b.y, a.y, b.x, false));
    if (!tm_disnan(r.x) || !tm_disnan(r.y))
        return r;
    bool again = false;
    if (c_has_inf(a)) {
        a = c_box(a);
        b = c_nan_to_zero(b);
        again = true;
    }
    if (c_has_inf(b)) {
        b = c_box(b);
        a = c_nan_to_zero(a);
        again = true;
    }
    if (!again && (tm_disinf(a.x * b.x) || tm_disinf(a.y * b.y) || tm_disinf(a.x * b.y) ||
                   tm_disinf(a.y * b.x))) {
        a = c_nan_to_zero(a);
        b = c_nan_to_zero(b);
        again = true;
    }
    if (again)
        r = tm_dinf() * dvec2(c_dot(a.x, b.x, a.y, b.y, true), c_dot(a.x, b.y, a.y, b.x, false));
    return r;
}

// One slice's combining steps on complex elements: products for prod,
// sums for everything else (as the reference), index_add adding alpha * v.
void complex_slice(uvec4 o, uint len, uint out_step, uint index_step, uint src_step,
                   uint extent)
{
    dvec2 scalar = c_unpack(pc.s0, pc.s1);
    if (EXCLUDE_SELF)
        for (uint j = 0u; j < len; ++j)
            c_store(o.x + tsr_load_bits(0, o.y + j * index_step, 4) * out_step,
                    dvec2(REDUCE == R_PROD ? 1.0lf : 0.0lf, 0.0lf));
    for (uint j = 0u; j < len; ++j) {
        uint t = o.x + tsr_load_bits(0, o.y + j * index_step, 4) * out_step;
        dvec2 v = scalar;
        if (!SCALAR_SRC)
            v = c_load_src(o.z + j * src_step);
        dvec2 acc = c_load_out(t);
        if (OP == TSR_OP_INDEX_ADD)
            v = c_mul(scalar, v);
        precise dvec2 r = REDUCE == R_PROD ? c_mul(acc, v) : acc + v;
        c_store(t, r);
    }
    if (REDUCE == R_MEAN)
        for (uint k = 0u; k < extent; ++k) {
            uint self = EXCLUDE_SELF ? 0u : 1u;
            uint count = self;
            for (uint j = 0u; j < len; ++j)
                count += tsr_load_bits(0, o.y + j * index_step, 4) == k ? 1u : 0u;
            if (count > self) {
                uint t = o.x + k * out_step;
                dvec2 acc = c_load_out(t);
                c_store(t, dvec2(tm_ddiv(acc.x, double(count)), tm_ddiv(acc.y, double(count))));
            }
        }
}
#else
#define IS_COMPLEX false
void complex_slice(uvec4 o, uint len, uint out_step, uint index_step, uint src_step,
                   uint extent)
{
}
#endif
