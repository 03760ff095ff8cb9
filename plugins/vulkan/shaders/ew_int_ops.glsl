// Integer elementwise ops, shared by ew_int.comp (IT = int) and
// ew_int64.comp (IT = int64_t). The including file defines IT and UT (the
// signed and unsigned compute types), load_i, store_i, load_alpha (the
// first push-constant scalar: add's alpha, addcmul's value, hardtanh's
// min) and load_param1 (the second: hardtanh's max), and SHIFT_MASK (the
// count bits a shift uses).
// Arithmetic goes through UT where overflow must wrap.

IT wrap_neg(IT a) { return IT(UT(0) - UT(a)); }

// A divisor that is never 0 or -1, so a / safe_divisor(b) cannot trap
// (lavapipe runs shaders on the CPU, where INT_MIN / -1 faults) even when a
// compiler evaluates both arms of a selection.
IT safe_divisor(IT b) { return b == IT(0) || b == IT(-1) ? IT(1) : b; }

// Truncating division; b == -1 negates so INT_MIN / -1 wraps. The 32-bit
// quotient of narrower types is then cut to size.
IT div_trunc(IT a, IT b)
{
    if (b == IT(0))
        tsr_flag(TSR_STATUS_INT_DIV_BY_ZERO);
    IT q = a / safe_divisor(b);
    return b == IT(0) ? IT(0) : (b == IT(-1) ? wrap_neg(a) : q);
}

IT div_floor(IT a, IT b)
{
    IT q = div_trunc(a, b);
    if (b != 0 && b != -1 && (a < 0) != (b < 0) && q * b != a)
        q -= 1;
    return q;
}

IT remainder_py(IT a, IT b)
{
    if (b == IT(0))
        tsr_flag(TSR_STATUS_INT_DIV_BY_ZERO);
    IT d = safe_divisor(b);
    IT r = a - (a / d) * d;
    if (r != IT(0) && (r < IT(0)) != (d < IT(0)))
        r += d;
    return b == IT(0) || b == IT(-1) ? IT(0) : r;
}

// Exponentiation by squaring, wrapping. A negative exponent has an integer
// answer only for bases 1 and -1; every other base gives 0 (trunc(1/b^n)).
IT ipow(IT base, IT e)
{
    if (e < 0) {
        if (base == 1)
            return IT(1);
        if (base == -1)
            return (e & IT(1)) != IT(0) ? IT(-1) : IT(1);
        return IT(0);
    }
    UT result = UT(1), b = UT(base);
    UT n = UT(e);
    while (n != UT(0)) {
        if ((n & UT(1)) != UT(0))
            result *= b;
        b *= b;
        n >>= 1;
    }
    return IT(result);
}

// C's %: the dividend's sign; x % -1 is 0 (INT_MIN % -1 would trap).
IT fmod_c(IT a, IT b)
{
    if (b == IT(0))
        tsr_flag(TSR_STATUS_INT_DIV_BY_ZERO);
    IT d = safe_divisor(b);
    IT r = a - (a / d) * d;
    return b == IT(0) || b == IT(-1) ? IT(0) : r;
}

// PyTorch 1.13 on x86-64 shifts by the count's low bits (SHIFT_MASK), in
// 32 bits for narrow dtypes, whose stores keep the low bits. uint8 values
// arrive zero-extended, so the arithmetic right shift is a logical one.
IT shift(IT a, IT count, bool left)
{
    uint n = uint(count) & uint(SHIFT_MASK);
    return left ? IT(UT(a) << n) : a >> n;
}

IT binary2(IT a, IT b)
{
    switch (OP) {
    case TSR_OP_FMOD: return fmod_c(a, b);
    case TSR_OP_FMAX: return a < b ? b : a;
    case TSR_OP_FMIN: return b < a ? b : a;
    case TSR_OP_BITWISE_AND: return a & b;
    case TSR_OP_BITWISE_OR: return a | b;
    case TSR_OP_BITWISE_XOR: return a ^ b;
    case TSR_OP_BITWISE_LEFT_SHIFT: return shift(a, b, true);
    case TSR_OP_BITWISE_RIGHT_SHIFT: return shift(a, b, false);
    }
    return a;
}

IT unary2(IT x)
{
    switch (OP) {
    case TSR_OP_BITWISE_NOT: return DT_IN == TSR_BOOL ? IT(x == IT(0) ? 1 : 0) : ~x;
    case TSR_OP_SQUARE: return IT(UT(x) * UT(x));
    case TSR_OP_HARDTANH: {
        IT lo = load_alpha(), hi = load_param1();
        x = x < lo ? lo : x;
        return hi < x ? hi : x;
    }
    }
    return x;
}

IT binary(IT a, IT b)
{
    IT alpha = load_alpha();
    switch (OP) {
    case TSR_OP_ADD: return a + alpha * b;
    case TSR_OP_SUB: return a - alpha * b;
    case TSR_OP_MUL: return a * b;
    case TSR_OP_DIV: return MODE == TSR_ROUND_FLOOR ? div_floor(a, b) : div_trunc(a, b);
    case TSR_OP_FLOOR_DIVIDE: return div_floor(a, b);
    case TSR_OP_REMAINDER: return remainder_py(a, b);
    case TSR_OP_POW: return ipow(a, b);
    case TSR_OP_MAXIMUM: return a < b ? b : a;
    case TSR_OP_MINIMUM: return b < a ? b : a;
    }
    return a;
}

bool predicate(IT a, IT b)
{
    switch (OP) {
    case TSR_OP_EQ: return a == b;
    case TSR_OP_NE: return a != b;
    case TSR_OP_LT: return a < b;
    case TSR_OP_LE: return a <= b;
    case TSR_OP_GT: return a > b;
    case TSR_OP_GE: return a >= b;
    case TSR_OP_LOGICAL_AND: return a != 0 && b != 0;
    case TSR_OP_LOGICAL_OR: return a != 0 || b != 0;
    case TSR_OP_LOGICAL_XOR: return (a != 0) != (b != 0);
    }
    return false;
}

IT unary(IT x)
{
    switch (OP) {
    case TSR_OP_NEG: return wrap_neg(x);
    case TSR_OP_ABS: return x < 0 ? wrap_neg(x) : x;
    case TSR_OP_SIGN: return x > 0 ? IT(1) : (x < 0 ? IT(-1) : IT(0));
    case TSR_OP_RELU: return x < 0 ? IT(0) : x;
    }
    return x;
}

IT clamp_value(IT x, IT lo, IT hi)
{
    if ((MODE & TSR_CLAMP_HAS_MIN) != 0)
        x = x < lo ? lo : x;
    if ((MODE & TSR_CLAMP_HAS_MAX) != 0)
        x = hi < x ? hi : x;
    return x;
}

void tsr_element(uvec4 o)
{
    if ((MODE & TSR_MODE_CHECK_DIVISOR) != 0) { // the pass before a division
        if (load_i(1, o.z) == IT(0))
            tsr_flag(TSR_STATUS_INT_DIV_BY_ZERO);
        return;
    }
    if (OP == TSR_OP_WHERE) {
        tsr_where(o);
    } else if (OP == TSR_OP_CLAMP) {
        IT lo = (MODE & TSR_CLAMP_HAS_MIN) != 0 ? load_i(1, o.z) : IT(0);
        IT hi = (MODE & TSR_CLAMP_HAS_MAX) != 0 ? load_i(2, o.w) : IT(0);
        store_i(o.x, clamp_value(load_i(0, o.y), lo, hi));
    } else if (OP == TSR_OP_LOGICAL_NOT) {
        tsr_store_bool(o.x, load_i(0, o.y) == 0);
    } else if (OP >= TSR_OP_EQ && OP <= TSR_OP_LOGICAL_XOR) {
        tsr_store_bool(o.x, predicate(load_i(0, o.y), load_i(1, o.z)));
    } else if (OP >= TSR_OP_ADD && OP <= TSR_OP_MINIMUM) {
        store_i(o.x, binary(load_i(0, o.y), load_i(1, o.z)));
    } else if (OP >= TSR_OP_FMOD && OP <= TSR_OP_BITWISE_RIGHT_SHIFT &&
               OP != TSR_OP_BITWISE_NOT) {
        store_i(o.x, binary2(load_i(0, o.y), load_i(1, o.z)));
    } else if (OP >= TSR_OP_ISNAN && OP <= TSR_OP_ISFINITE) { // integers are finite
        tsr_store_bool(o.x, OP == TSR_OP_ISFINITE);
    } else if (OP == TSR_OP_ADDCMUL) { // self + value * t1 * t2, wrapping
        UT product = UT(load_alpha()) * UT(load_i(1, o.z)) * UT(load_i(2, o.w));
        store_i(o.x, IT(UT(load_i(0, o.y)) + product));
    } else if (OP >= TSR_OP_FMOD) {
        store_i(o.x, unary2(load_i(0, o.y)));
    } else {
        store_i(o.x, unary(load_i(0, o.y)));
    }
}
