#!/usr/bin/python3
"""Writes torch_cases.inc: PyTorch's answers for the reference backend's test.

Run with Debian's interpreter, which has torch:
    /usr/bin/python3 plugins/reference/tests/make_torch_cases.py > plugins/reference/tests/torch_cases.inc

For every op and dtype PyTorch 1.13 supports on CPU it records inputs and
the expected outputs as raw element bytes (hex), plus the list of supported
(op, dtype_in, dtype_out) triples the kernel table must equal. Each element
is computed with a one-element tensor, so PyTorch takes its scalar code
path: its vectorised paths differ in a few signed zeros and NaN payloads.
"""
import itertools
import sys
import warnings

import torch

warnings.filterwarnings("ignore")
nan, inf = float("nan"), float("inf")

DTYPES = [  # (tessera enum suffix, torch dtype), in tessera's id order
    ("BOOL", torch.bool), ("UINT8", torch.uint8), ("INT8", torch.int8),
    ("INT16", torch.int16), ("INT32", torch.int32), ("INT64", torch.int64),
    ("FLOAT16", torch.float16), ("BFLOAT16", torch.bfloat16),
    ("FLOAT32", torch.float32), ("FLOAT64", torch.float64),
    ("COMPLEX64", torch.complex64), ("COMPLEX128", torch.complex128),
]
ENUM = {t: "TSR_" + n for n, t in DTYPES}


def is_int(dt):
    return not dt.is_floating_point and not dt.is_complex and dt != torch.bool


def values(dt, unary=False):
    """Interesting inputs for a dtype, as Python values it holds exactly."""
    if dt == torch.bool:
        return [False, True]
    if is_int(dt):
        info = torch.iinfo(dt)
        base = [0, 1, 2, 7, info.max] + ([100, info.max - 1] if unary else [])
        if info.min < 0:
            base += [-1, -7, info.min] + ([-2, info.min + 1] if unary else [])
        return [v for v in base if info.min <= v <= info.max]
    if dt.is_complex:
        extra = [-1 + 0j, complex(inf, 1), complex(-inf, 2), complex(0, nan)] if unary else []
        return [0j, 1 + 0j, 1j, 1 + 1j, -2.5 + 0.5j, complex(0.0, -0.0), complex(inf, 0),
                complex(nan, 0), complex(0, inf)] + extra
    if unary:
        raw = [nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 10.0, -20.0,
               100.0, 1e-5, -1e-5, 88.5, -88.5, 1e30, -1e30, 3.3e38, 1e-310]
    else:
        raw = [nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 5.0, -2.5, 3.0]
    return torch.tensor(raw, dtype=torch.float64).to(dt).tolist()


def hexbytes(t):
    """Raw little-endian element bytes of a contiguous tensor."""
    return bytes(t.contiguous().view(torch.uint8).tolist()).hex()


class Writer:
    def __init__(self):
        self.strings = {}
        self.cases = []
        self.supported = set()

    def blob(self, t):
        text = hexbytes(t)
        if text not in self.strings:
            self.strings[text] = "blob%d" % len(self.strings)
        return self.strings[text]

    def case(self, label, op, din, dout, inputs, expected, mode=0, alpha=None, exact=False,
             extra=None):
        names = [self.blob(x) for x in inputs] + ["NULL"] * (3 - len(inputs))
        self.cases.append((label, op, ENUM[din], ENUM[dout], mode, alpha or "ALPHA_NONE",
                           len(inputs), len(expected), names, self.blob(expected), exact,
                           extra or []))
        self.supported.add((op, ENUM[din], ENUM[dout]))


def elementwise(fn, columns, dout):
    """Applies fn to one-element tensors; None when PyTorch refuses."""
    out = []
    for row in zip(*columns):
        try:
            r = fn(*[x.reshape(1) for x in row])
        except Exception:
            return None
        if r.dtype != dout:
            return None
        out.append(r.reshape(()))
    return torch.stack(out) if out else torch.empty(0, dtype=dout)


def tensor(vals, dt):
    return torch.tensor(vals, dtype=dt)


# ---------------------------------------------------------------- binary ops
BINARY = {
    "ADD": lambda a, b: torch.add(a, b), "SUB": lambda a, b: torch.sub(a, b),
    "MUL": torch.mul, "FLOOR_DIVIDE": torch.floor_divide, "REMAINDER": torch.remainder,
    "POW": torch.pow, "MAXIMUM": torch.maximum, "MINIMUM": torch.minimum,
    "EQ": torch.eq, "NE": torch.ne, "LT": torch.lt, "LE": torch.le, "GT": torch.gt,
    "GE": torch.ge, "LOGICAL_AND": torch.logical_and, "LOGICAL_OR": torch.logical_or,
    "LOGICAL_XOR": torch.logical_xor,
}
BOOL_RESULT = {"EQ", "NE", "LT", "LE", "GT", "GE", "LOGICAL_AND", "LOGICAL_OR", "LOGICAL_XOR",
               "LOGICAL_NOT"}
EXACT = {"ADD", "SUB", "MUL", "FLOOR_DIVIDE", "REMAINDER", "MAXIMUM", "MINIMUM", "NEG", "ABS",
         "SIGN", "RELU", "CLAMP"}


def pairs(dt, op):
    vals = values(dt)
    if op == "POW" and is_int(dt):
        info = torch.iinfo(dt)
        exps = [e for e in [0, 1, 2, 3, 7, 31, 62, 63, 64, -1, -2, -3] if info.min <= e <= info.max]
        return list(itertools.product(vals, exps))
    ps = list(itertools.product(vals, vals))
    if dt.is_floating_point and op in ("FLOOR_DIVIDE", "REMAINDER", "DIV"):
        # Quotients that land on an integer only after rounding to the dtype.
        near = [(5.0, 0.1), (0.3, 0.1), (-0.3, 0.1), (0.7, 0.1), (1.0, 0.1), (2.9, 0.1),
                (1e4, 3.0), (-1e4, 3.0), (1e30, 3.0), (7.5, -2.0)]
        ps += [tuple(torch.tensor(p, dtype=torch.float64).to(dt).tolist()) for p in near]
    if is_int(dt) and op in ("FLOOR_DIVIDE", "REMAINDER", "DIV"):
        # PyTorch raises on zero divisors, and int32/int64 minimum // -1 dies
        # with SIGFPE there (x86 idiv); the C test pins both separately.
        lowest = torch.iinfo(dt).min
        wide = dt in (torch.int32, torch.int64)
        ps = [(a, b) for a, b in ps if b != 0 and not (wide and a == lowest and b == -1)]
    return ps


def alpha_for(dt):
    """A non-default alpha per category, with its C initialiser."""
    if dt == torch.bool:
        return True, "ALPHA_BOOL(1)"
    if is_int(dt):
        return 3, "ALPHA_INT(3)"
    if dt.is_complex:
        return 1 - 2j, "ALPHA_COMPLEX(1.0, -2.0)"
    return 2.5, "ALPHA_FLOAT(2.5)"


def binary_cases(w):
    for op, fn in BINARY.items():
        for _, dt in DTYPES:
            ps = pairs(dt, op)
            a = tensor([p[0] for p in ps], dt)
            b = tensor([p[1] for p in ps], dt)
            dout = torch.bool if op in BOOL_RESULT else dt
            exp = elementwise(fn, [a, b], dout)
            if exp is None:
                continue
            exact = op in EXACT and not dt.is_complex
            w.case(op.lower(), "TSR_OP_" + op, dt, dout, [a, b], exp, exact=exact or is_int(dt))
            if op in ("ADD", "SUB"):
                alpha, init = alpha_for(dt)
                f = (lambda x, y: torch.add(x, y, alpha=alpha)) if op == "ADD" else \
                    (lambda x, y: torch.sub(x, y, alpha=alpha))
                exp = elementwise(f, [a, b], dt)
                if exp is not None:
                    w.case(op.lower() + " alpha", "TSR_OP_" + op, dt, dt, [a, b], exp,
                           alpha=init, exact=is_int(dt) or dt == torch.bool)
    # div is one kernel with three rounding modes.
    for _, dt in DTYPES:
        for mode, name in [(0, None), (1, "trunc"), (2, "floor")]:
            ps = pairs(dt, "DIV")
            a = tensor([p[0] for p in ps], dt)
            b = tensor([p[1] for p in ps], dt)
            exp = elementwise(lambda x, y: torch.div(x, y, rounding_mode=name), [a, b], dt)
            if exp is not None:
                w.case("div mode %d" % mode, "TSR_OP_DIV", dt, dt, [a, b], exp, mode=mode,
                       exact=(mode != 0 or not dt.is_complex))


# ----------------------------------------------------------------- unary ops
UNARY = {
    "NEG": torch.neg, "ABS": torch.abs, "SIGN": torch.sign, "EXP": torch.exp,
    "LOG": torch.log, "LOG1P": torch.log1p, "EXPM1": torch.expm1, "SQRT": torch.sqrt,
    "RSQRT": torch.rsqrt, "SIN": torch.sin, "COS": torch.cos, "TANH": torch.tanh,
    "SIGMOID": torch.sigmoid, "RELU": torch.relu, "ERF": torch.erf,
    "LOGICAL_NOT": torch.logical_not,
}


def unary_cases(w):
    for op, fn in UNARY.items():
        for _, dt in DTYPES:
            x = tensor(values(dt, unary=True), dt)
            if op in BOOL_RESULT:
                dout = torch.bool
            elif op == "ABS" and dt.is_complex:
                dout = torch.float32 if dt == torch.complex64 else torch.float64
            else:
                dout = dt
            exp = elementwise(fn, [x], dout)
            if exp is not None:
                w.case(op.lower(), "TSR_OP_" + op, dt, dout, [x], exp,
                       exact=(op in EXACT and not dt.is_complex) or is_int(dt))
    for _, dt in DTYPES:
        x = tensor(values(dt, unary=True), dt)
        for mode, approx in [(0, "none"), (1, "tanh")]:
            f = lambda v: torch.nn.functional.gelu(v, approximate=approx)
            exp = elementwise(f, [x], dt)
            if exp is not None:
                w.case("gelu mode %d" % mode, "TSR_OP_GELU", dt, dt, [x], exp, mode=mode)


# ------------------------------------------------------- clamp, where, copy
def clamp_cases(w):
    """The clamp kernel is PyTorch's clamp kernels: a dtype counts when the
    two-bound form runs (one-sided tensor bounds run maximum/minimum)."""
    for _, dt in DTYPES:
        if dt.is_complex:
            continue
        small = values(dt)[:5] if not dt.is_floating_point else \
            torch.tensor([nan, -1.0, -0.0, 2.0, 5.0], dtype=torch.float64).to(dt).tolist()
        trip = list(itertools.product(small, small, small))
        x, lo, hi = (tensor([t[i] for t in trip], dt) for i in range(3))
        both = elementwise(lambda a, l, h: torch.clamp(a, l, h), [x, lo, hi], dt)
        if both is None:
            continue
        w.case("clamp mode 3", "TSR_OP_CLAMP", dt, dt, [x, lo, hi], both, mode=3, exact=True)
        # Mode bit 4: the bounds were Python scalars (a lone NaN bound is ignored).
        forms = [(1, lambda a, l, h: torch.clamp(a, min=l), [x, lo, x]),
                 (2, lambda a, l, h: torch.clamp(a, max=h), [x, x, hi]),
                 (5, lambda a, l, h: torch.clamp(a, min=l.item()), [x, lo, x]),
                 (6, lambda a, l, h: torch.clamp(a, max=h.item()), [x, x, hi]),
                 (7, lambda a, l, h: torch.clamp(a, l.item(), h.item()), [x, lo, hi])]
        for mode, f, ins in forms:
            exp = elementwise(f, [x, lo, hi], dt)
            if exp is not None:
                w.case("clamp mode %d" % mode, "TSR_OP_CLAMP", dt, dt, ins, exp, mode=mode,
                       exact=True)


def where_cases(w):
    for _, dt in DTYPES:
        vals = values(dt)
        trip = list(itertools.product([False, True], vals[:5], vals[-5:]))
        c = tensor([t[0] for t in trip], torch.bool)
        a = tensor([t[1] for t in trip], dt)
        b = tensor([t[2] for t in trip], dt)
        exp = elementwise(torch.where, [c, a, b], dt)
        if exp is not None:
            w.case("where", "TSR_OP_WHERE", dt, dt, [c, a, b], exp, exact=True)


COPY_EXTRA = [300.0, 255.9, -129.0, 65543.0, -32769.0, 2147483653.0, 3e9, -3e9, 4294967301.0,
              9.3e18, -9.3e18, 1e10, 65519.0, 65520.0, 1.0 + 2.0 ** -11 + 2.0 ** -40,
              1.0 + 2.0 ** -8 + 2.0 ** -40, 2.0 ** -25, 3 * 2.0 ** -25, 1e-40, 3.4e38]
COPY_EXTRA_INT = [2 ** 30 + 2 ** 22 + 1, 2 ** 24 + 1, 2 ** 53 + 1, 2 ** 60 + 2 ** 36 + 1, 65520, 2049]


def copy_cases(w):
    for _, src in DTYPES:
        vals = values(src, unary=True)
        if src.is_floating_point:
            vals += torch.tensor(COPY_EXTRA, dtype=torch.float64).to(src).tolist()
        if src == torch.int64:
            vals += COPY_EXTRA_INT
        if src.is_complex:
            vals += [complex(300.5, 7), complex(-1, 0), complex(3e9, 0)]
        x = tensor(vals, src)
        for _, dst in DTYPES:
            exp = elementwise(lambda v: v.to(dst), [x], dst)
            if exp is not None:
                w.case("copy", "TSR_OP_COPY", src, dst, [x], exp, exact=True)


def fill_cases(w):
    scalars = [(0, "FILL_INT(0)"), (-1, "FILL_INT(-1)"), (300, "FILL_INT(300)"),
               (True, "FILL_BOOL(1)"), (2.75, "FILL_FLOAT(2.75)"), (-0.0, "FILL_FLOAT(-0.0)"),
               (nan, "FILL_FLOAT(NAN)"), (inf, "FILL_FLOAT(INFINITY)"),
               (1e10, "FILL_FLOAT(1e10)"), (1 + 2j, "FILL_COMPLEX(1.0, 2.0)")]
    for _, dt in DTYPES:
        for value, init in scalars:
            try:
                exp = torch.empty(1, dtype=dt).fill_(value)
            except Exception:
                continue
            w.case("fill", "TSR_OP_FILL", dt, dt, [], exp, alpha=init, exact=True)



# ------------------------------------------------ the second elementwise family
BINARY2 = {
    "FMOD": torch.fmod, "ATAN2": torch.atan2, "HYPOT": torch.hypot, "COPYSIGN": torch.copysign,
    "FMAX": torch.fmax, "FMIN": torch.fmin, "BITWISE_AND": torch.bitwise_and,
    "BITWISE_OR": torch.bitwise_or, "BITWISE_XOR": torch.bitwise_xor,
    "BITWISE_LEFT_SHIFT": torch.bitwise_left_shift,
    "BITWISE_RIGHT_SHIFT": torch.bitwise_right_shift,
}
UNARY2 = {
    "BITWISE_NOT": torch.bitwise_not, "EXP2": torch.exp2, "LOG2": torch.log2,
    "LOG10": torch.log10, "TAN": torch.tan, "ASIN": torch.asin, "ACOS": torch.acos,
    "ATAN": torch.atan, "SINH": torch.sinh, "COSH": torch.cosh, "ASINH": torch.asinh,
    "ACOSH": torch.acosh, "ATANH": torch.atanh, "ERFC": torch.erfc,
    "SILU": torch.nn.functional.silu, "FLOOR": torch.floor, "CEIL": torch.ceil,
    "ROUND": torch.round, "TRUNC": torch.trunc, "FRAC": torch.frac,
    "RECIPROCAL": torch.reciprocal, "SQUARE": torch.square, "ISNAN": torch.isnan,
    "ISINF": torch.isinf, "ISFINITE": torch.isfinite,
}
PREDICATES = {"ISNAN", "ISINF", "ISFINITE"}
EXACT2 = {"FMOD", "COPYSIGN", "FMAX", "FMIN", "BITWISE_AND", "BITWISE_OR", "BITWISE_XOR",
          "BITWISE_NOT", "BITWISE_LEFT_SHIFT", "BITWISE_RIGHT_SHIFT", "FLOOR", "CEIL", "ROUND",
          "TRUNC", "FRAC", "RECIPROCAL", "SQUARE", "ISNAN", "ISINF", "ISFINITE", "NAN_TO_NUM",
          "HARDTANH", "LEAKY_RELU"}
# The identity on integers: the core copies, so there are no integer kernels.
INTEGER_IDENTITY = {"FLOOR", "CEIL", "ROUND", "TRUNC", "NAN_TO_NUM"}


def float_init(v):
    """A C initialiser for a float scalar."""
    if v != v:
        return "ALPHA_FLOAT(NAN)"
    if v in (inf, -inf):
        return "ALPHA_FLOAT(%sINFINITY)" % ("-" if v < 0 else "")
    return "ALPHA_FLOAT(%r)" % float(v)


def kernel_dtype(op, dt):
    return not (op in INTEGER_IDENTITY and (is_int(dt) or dt == torch.bool))


def binary2_cases(w):
    for op, fn in BINARY2.items():
        for _, dt in DTYPES:
            ps = list(itertools.product(values(dt), values(dt)))
            if is_int(dt) and op == "FMOD":
                lowest = torch.iinfo(dt).min
                wide = dt in (torch.int32, torch.int64)  # x86 idiv traps on MIN % -1
                ps = [(a, b) for a, b in ps if b != 0 and not (wide and a == lowest and b == -1)]
            a = tensor([p[0] for p in ps], dt)
            b = tensor([p[1] for p in ps], dt)
            exp = elementwise(fn, [a, b], dt)
            if exp is not None:
                w.case(op.lower(), "TSR_OP_" + op, dt, dt, [a, b], exp,
                       exact=op in EXACT2 and not dt.is_complex)


def unary2_cases(w):
    for op, fn in UNARY2.items():
        for _, dt in DTYPES:
            if not kernel_dtype(op, dt):
                continue
            x = tensor(values(dt, unary=True), dt)
            dout = torch.bool if op in PREDICATES else dt
            exp = elementwise(fn, [x], dout)
            if exp is not None:
                w.case(op.lower(), "TSR_OP_" + op, dt, dout, [x], exp,
                       exact=(op in EXACT2 and not dt.is_complex) or is_int(dt))


def parameter_cases(w):
    """Ops with scalar attributes: scalars[0] is the `alpha` column, the
    others go to `extra`."""
    F = torch.nn.functional
    forms = [
        ("SOFTPLUS", 0, [1, 20], lambda x: F.softplus(x)),
        ("SOFTPLUS", 0, [2.0, 1.0], lambda x: F.softplus(x, beta=2.0, threshold=1.0)),
        ("SOFTPLUS", 0, [-0.5, 3.0], lambda x: F.softplus(x, beta=-0.5, threshold=3.0)),
        ("LEAKY_RELU", 0, [0.01], lambda x: F.leaky_relu(x)),
        ("LEAKY_RELU", 0, [-2.0], lambda x: F.leaky_relu(x, -2.0)),
        ("ELU", 0, [1, 1, 1], lambda x: F.elu(x)),
        ("ELU", 0, [0.5, 2.0, 3.0], lambda x: torch.ops.aten.elu(x, 0.5, 2.0, 3.0)),
        ("HARDTANH", 0, [-0.5, 0.5], lambda x: F.hardtanh(x, -0.5, 0.5)),
        ("HARDTANH", 0, [1.0, -1.0], lambda x: F.hardtanh(x, 1.0, -1.0)),
        ("HARDTANH", 0, [2, 100], lambda x: F.hardtanh(x, 2, 100)),
        ("ROUND", 2, [], lambda x: torch.round(x, decimals=2)),
        ("ROUND", -1, [], lambda x: torch.round(x, decimals=-1)),
        ("NAN_TO_NUM", 0, [7.0, 1e10, -3.0], lambda x: torch.nan_to_num(x, 7.0, 1e10, -3.0)),
    ]
    for op, mode, scalars, fn in forms:
        for _, dt in DTYPES:
            if not kernel_dtype(op, dt):
                continue
            if op == "HARDTANH" and is_int(dt) and scalars != [2, 100]:
                continue  # the core truncates float bounds for integers first
            x = tensor(values(dt, unary=True), dt)
            exp = elementwise(fn, [x], dt)
            if exp is None:
                continue
            inits = ["ALPHA_INT(%d)" % v if isinstance(v, int) else float_init(v)
                     for v in scalars]
            w.case(op.lower() + " " + ",".join(str(v) for v in scalars) + (" mode %d" % mode),
                   "TSR_OP_" + op, dt, dt, [x], exp, mode=mode,
                   alpha=inits[0] if inits else None, extra=inits[1:],
                   exact=(op in EXACT2 and not dt.is_complex) or is_int(dt))
    # nan_to_num's defaults, spelled out as the core passes them
    for _, dt in DTYPES:
        if not dt.is_floating_point:
            continue
        x = tensor(values(dt, unary=True), dt)
        exp = elementwise(torch.nan_to_num, [x], dt)
        big = torch.finfo(dt).max
        w.case("nan_to_num defaults", "TSR_OP_NAN_TO_NUM", dt, dt, [x], exp,
               alpha=float_init(0.0), extra=[float_init(big), float_init(-big)], exact=True)


def value_init(dt, v):
    if is_int(dt):
        return "ALPHA_INT(%d)" % int(v)
    if dt.is_complex:
        return "ALPHA_COMPLEX(%r, %r)" % (complex(v).real, complex(v).imag)
    return float_init(v)


def ternary_cases(w):
    for _, dt in DTYPES:
        vals = values(dt)[:6]
        trip = list(itertools.product(vals, vals, vals))
        a, b, c = (tensor([t[i] for t in trip], dt) for i in range(3))
        if dt.is_floating_point or dt.is_complex:
            unit = torch.tensor([-1.0, 0.0, 0.25, 0.5, 0.75, 2.0], dtype=torch.float64).to(dt)
            weights = unit.repeat(len(trip) // 6 + 1)[:len(trip)]
            exp = elementwise(torch.lerp, [a, b, weights], dt)
            if exp is not None:
                w.case("lerp tensor weight", "TSR_OP_LERP", dt, dt, [a, b, weights], exp)
                for weight in (0.3, 0.75, -1.5):
                    exp = elementwise(lambda s, e: torch.lerp(s, e, weight), [a, b], dt)
                    w.case("lerp scalar weight %g" % weight, "TSR_OP_LERP", dt, dt, [a, b, a], exp,
                           mode=1, alpha=float_init(weight))
        if is_int(dt):
            values_of_dtype = (3,)
        elif dt.is_complex:
            values_of_dtype = (1 - 2j,)
        else:
            values_of_dtype = (0.5, -2.0)
        for op, fn in (("ADDCMUL", torch.addcmul), ("ADDCDIV", torch.addcdiv)):
            for value in values_of_dtype:
                exp = elementwise(lambda s, t1, t2: fn(s, t1, t2, value=value), [a, b, c], dt)
                if exp is not None:
                    w.case(op.lower() + " value", "TSR_OP_" + op, dt, dt, [a, b, c], exp,
                           alpha=value_init(dt, value), exact=is_int(dt))


def emit(w):
    out = sys.stdout
    out.write("/* Generated by make_torch_cases.py from PyTorch %s. Do not edit. */\n\n"
              % torch.__version__)
    for text, name in w.strings.items():
        out.write('static const char %s[] =\n' % name)
        for i in range(0, max(len(text), 1), 96):
            out.write('    "%s"\n' % text[i:i + 96])
        out.write("    ;\n")
    out.write("\nstatic const torch_case torch_cases[] = {\n")
    for (label, op, din, dout, mode, alpha, arity, count, names, exp, exact, extra) in w.cases:
        tail = ", {%s}" % ", ".join((extra + ["ALPHA_NONE"] * 2)[:2])
        out.write('    {"%s", %s, %s, %s, %d, %s, %d, %d, {%s}, %s, %d%s},\n'
                  % (label, op, din, dout, mode, alpha, arity, count, ", ".join(names), exp,
                     int(exact), tail))
    out.write("};\n\nstatic const torch_triple torch_supported[] = {\n")
    order = {("TSR_OP_" + k): i for i, k in enumerate(OP_ORDER)}
    ids = {ENUM[t]: i for i, (_, t) in enumerate(DTYPES)}
    for op, din, dout in sorted(w.supported, key=lambda t: (order[t[0]], ids[t[1]], ids[t[2]])):
        out.write("    {%s, %s, %s},\n" % (op, din, dout))
    out.write("};\n")


# ------------------------------------------------ reductions and scans
# No cases here (tests/test_reduce.c and the golden cases check values); only
# the (op, dtype_in, dtype_out) rows PyTorch supports on CPU, in the kernel
# convention of plugin.h: the input arrives in the computation dtype, all/any
# write bool, argmax/argmin/count_nonzero int64, var/std/norm the real dtype.
REDUCTIONS = {
    "SUM": lambda x: torch.sum(x, 0, dtype=x.dtype),
    "NANSUM": lambda x: torch.nansum(x, 0, dtype=x.dtype),
    "PROD": lambda x: torch.prod(x, 0, dtype=x.dtype),
    "MEAN": lambda x: torch.mean(x, 0, dtype=x.dtype),
    "NANMEAN": lambda x: torch.nanmean(x, 0),
    "AMAX": lambda x: torch.amax(x, 0), "AMIN": lambda x: torch.amin(x, 0),
    "MAX_DIM": lambda x: torch.max(x, 0)[0], "MIN_DIM": lambda x: torch.min(x, 0)[0],
    "ARGMAX": lambda x: torch.argmax(x, 0), "ARGMIN": lambda x: torch.argmin(x, 0),
    "VAR": lambda x: torch.var(x, 0), "STD": lambda x: torch.std(x, 0),
    "ALL": lambda x: torch.all(x, 0).bool(), "ANY": lambda x: torch.any(x, 0).bool(),
    "NORM": lambda x: torch.linalg.vector_norm(x, 2, 0),
    "LOGSUMEXP": lambda x: torch.logsumexp(x, 0),
    "COUNT_NONZERO": lambda x: torch.count_nonzero(x, 0),
    "CUMSUM": lambda x: torch.cumsum(x, 0, dtype=x.dtype),
    "CUMPROD": lambda x: torch.cumprod(x, 0, dtype=x.dtype),
    "CUMMAX": lambda x: torch.cummax(x, 0)[0], "CUMMIN": lambda x: torch.cummin(x, 0)[0],
    "LOGCUMSUMEXP": lambda x: torch.logcumsumexp(x, 0),
}
# Ops whose kernel computes in the input dtype: a result of another dtype
# (logsumexp of integers is float32) comes from a conversion in the core.
SAME_DTYPE = {"SUM", "NANSUM", "PROD", "MEAN", "NANMEAN", "AMAX", "AMIN", "MAX_DIM",
              "MIN_DIM", "LOGSUMEXP", "CUMSUM", "CUMPROD", "CUMMAX", "CUMMIN", "LOGCUMSUMEXP"}


WIDENING = {"SUM": lambda x: torch.sum(x, 0), "NANSUM": lambda x: torch.nansum(x, 0),
            "PROD": lambda x: torch.prod(x, 0)}


def reduction_support(w):
    for name, fn in REDUCTIONS.items():
        for _, dt in DTYPES:
            x = torch.tensor([[1, 0], [2, 1]]).to(dt)
            try:
                r = fn(x)
            except Exception:
                continue
            if name in SAME_DTYPE and r.dtype != dt:
                continue
            w.supported.add(("TSR_OP_" + name, ENUM[dt], ENUM[r.dtype]))
    # Without dtype=, sum, nansum and prod of bool and narrow integers give
    # int64: a kernel reads the narrow input and writes int64 (no widened copy).
    for name, fn in WIDENING.items():
        for _, dt in DTYPES:
            x = torch.tensor([[1, 0], [2, 1]]).to(dt)
            try:
                r = fn(x)
            except Exception:
                continue
            if r.dtype != dt:
                w.supported.add(("TSR_OP_" + name, ENUM[dt], ENUM[r.dtype]))


# ------------------------------------------------ products
# No cases here (tests/test_products.c and the golden cases check values):
# the dtypes PyTorch multiplies matrices in on CPU, (dtype, dtype) rows.
def matmul_support(w):
    for _, dt in DTYPES:
        x = torch.tensor([[1, 0], [2, 1]]).to(dt)
        try:
            torch.mm(x, x)
        except RuntimeError:
            continue
        w.supported.add(("TSR_OP_MATMUL", ENUM[dt], ENUM[dt]))


# ------------------------------------------------ indexing and sorting
# No cases here (tests/test_indexing.c, tests/test_sorting.c and the golden
# cases check values): the rows PyTorch supports on CPU, in plugin.h's
# convention: (dtype, dtype) but nonzero (dtype, int64) and searchsorted
# (dtype, int32) and (dtype, int64).
def index_support(w):
    i0 = torch.tensor([0])
    i2 = torch.tensor([[0, 1]])
    probes = {
        "INDEX_SELECT": lambda x: torch.index_select(x, 0, i0),
        "GATHER": lambda x: torch.gather(x, 0, i2),
        "SCATTER": lambda x: torch.scatter(x, 0, i2, x[:1]),
        "INDEX_ADD": lambda x: torch.index_add(x, 0, i0, x[:1]),
        "INDEX_COPY": lambda x: torch.index_copy(x, 0, i0, x[:1]),
        "NONZERO": torch.nonzero,
        "TRIL": torch.tril, "TRIU": torch.triu,
        "SORT": lambda x: torch.sort(x, 1)[0],
    }
    for _, dt in DTYPES:
        x = torch.tensor([[1, 0], [2, 1]]).to(dt)
        for name, fn in probes.items():
            try:
                r = fn(x)
            except RuntimeError:
                continue
            w.supported.add(("TSR_OP_" + name, ENUM[dt], ENUM[r.dtype]))
        for out_int32 in (True, False):
            try:
                r = torch.searchsorted(x[0].sort()[0], x, out_int32=out_int32)
            except RuntimeError:
                continue
            w.supported.add(("TSR_OP_SEARCHSORTED", ENUM[dt], ENUM[r.dtype]))


# ------------------------------------------------ probing the kernel-level ops
# The support tables below run each probe on one small input per dtype:
# whatever PyTorch computes is a (op, dtype, result dtype) row; an error, or
# a probe answering None, claims nothing.
def add_probes(w, probes, make_input, errors=(RuntimeError,)):
    for _, dt in DTYPES:
        x = make_input(dt)
        for name, fn in probes.items():
            try:
                r = fn(x)
            except errors:
                continue
            if r is not None:
                w.supported.add(("TSR_OP_" + name, ENUM[dt], ENUM[r.dtype]))


def input_grad(fn, x):
    """The gradient of sum(fn(x)) with respect to x."""
    x = x.clone().requires_grad_()
    fn(x).sum().backward()
    return x.grad


# ------------------------------------------------ neural network
# No cases here (tests/test_nn*.c and the golden cases check values): the
# dtypes of PyTorch's CPU softmax, log_softmax and layer_norm kernels, all
# (dtype, dtype). rms_norm is not in PyTorch 1.13; its kernel takes the
# floating dtypes of the composite later versions define. cross_entropy's
# fused kernel takes the logits' dtypes F.cross_entropy accepts with int64
# class indices (its loss has the logits' dtype).
def nn_support(w):
    probes = {
        "SOFTMAX": lambda x: torch.softmax(x, 1),
        "LOG_SOFTMAX": lambda x: torch.log_softmax(x, 1),
        "LAYER_NORM": lambda x: torch.nn.functional.layer_norm(x, (2,)),
        "CROSS_ENTROPY": lambda x: torch.nn.functional.cross_entropy(
            x, torch.tensor([0, 1]), reduction="none"),
    }
    add_probes(w, probes, lambda dt: torch.tensor([[1, 0], [2, 1]]).to(dt))
    for _, dt in DTYPES:
        if dt.is_floating_point:
            w.supported.add(("TSR_OP_RMS_NORM", ENUM[dt], ENUM[dt]))


# ------------------------------------------------ pooling
# No cases here (tests/ops/test_pool.c and the golden cases check values):
# the dtypes of PyTorch's CPU pooling kernels and their backward, any rank
# (a dtype counts when one of the 1-d, 2-d and 3-d forms takes it), all
# (dtype, dtype).
def pool_support(w):
    import torch.nn.functional as F

    def any_rank(fns):
        def run(x):
            for d, fn in fns.items():
                try:
                    return fn(x[:4 ** d].reshape((1, 1) + (4,) * d))
                except RuntimeError:
                    continue
            raise RuntimeError("no rank")
        return run

    forms = {
        "POOL_MAX": {1: lambda x: F.max_pool1d(x, 2), 2: lambda x: F.max_pool2d(x, 2),
                     3: lambda x: F.max_pool3d(x, 2)},
        "POOL_AVG": {1: lambda x: F.avg_pool1d(x, 2), 2: lambda x: F.avg_pool2d(x, 2),
                     3: lambda x: F.avg_pool3d(x, 2)},
        "POOL_ADAPTIVE_AVG": {1: lambda x: F.adaptive_avg_pool1d(x, 3),
                              2: lambda x: F.adaptive_avg_pool2d(x, 3),
                              3: lambda x: F.adaptive_avg_pool3d(x, 3)},
        "POOL_ADAPTIVE_MAX": {1: lambda x: F.adaptive_max_pool1d(x, 3),
                              2: lambda x: F.adaptive_max_pool2d(x, 3),
                              3: lambda x: F.adaptive_max_pool3d(x, 3)},
    }
    probes = {}
    for name, fns in forms.items():
        probes[name] = any_rank(fns)
        if name != "POOL_ADAPTIVE_MAX":  # adaptive max shares max's backward
            probes[name + "_BACKWARD"] = any_rank(
                {d: (lambda f: lambda x: input_grad(f, x))(f) for d, f in fns.items()})
    add_probes(w, probes, lambda dt: torch.arange(64).to(dt), (RuntimeError, TypeError))


# ------------------------------------------------ convolution
# No cases here (tests/ops/test_conv.c and the golden cases check values):
# the dtypes F.unfold (im2col), F.fold (col2im) and conv2d with both of its
# gradients take on CPU, all (dtype, dtype).
def conv_support(w):
    import torch.nn.functional as F

    def grads(dt):
        x = torch.ones(1, 1, 3, 3, dtype=dt, requires_grad=True)
        k = torch.ones(1, 1, 2, 2, dtype=dt, requires_grad=True)
        F.conv2d(x, k).sum().abs().backward() if dt.is_complex else F.conv2d(x, k).sum().backward()
        return x.grad, k.grad

    probes = {
        "IM2COL": lambda dt: F.unfold(torch.ones(1, 1, 2, 2, dtype=dt), 1),
        "COL2IM": lambda dt: F.fold(torch.ones(1, 1, 4, dtype=dt), (2, 2), 1),
        "CONVOLUTION": lambda dt: F.conv2d(torch.ones(1, 1, 3, 3, dtype=dt),
                                           torch.ones(1, 1, 2, 2, dtype=dt)),
        "CONVOLUTION_BACKWARD_DATA": lambda dt: grads(dt)[0],
        "CONVOLUTION_BACKWARD_WEIGHT": lambda dt: grads(dt)[1],
    }
    # Known gap, not a choice of PyTorch's: torch 1.13 convolves integers
    # forward (conv1d-3d and transposed, no gradient); tessera refuses
    # integer convolution for now (docs/ops.md).
    forward = probes["CONVOLUTION"]
    probes["CONVOLUTION"] = lambda dt: None if is_int(dt) else forward(dt)
    add_probes(w, probes, lambda dt: dt)  # these probes build their own inputs


# ------------------------------------------------ resampling
# No cases here (tests/ops/test_resample.c and the golden cases check
# values): the dtypes of PyTorch's CPU upsample kernels (any mode: nearest
# takes the most) and their backward, and of grid_sampler and its backward,
# all (dtype, dtype).
def resample_support(w):
    import torch.nn.functional as F

    probes = {
        "UPSAMPLE": lambda x: F.interpolate(x, scale_factor=2.0, mode="nearest"),
        "UPSAMPLE_BACKWARD": lambda x: input_grad(
            lambda v: F.interpolate(v, scale_factor=2.0, mode="bilinear"), x),
        "GRID_SAMPLER": lambda x: F.grid_sample(x, torch.zeros(1, 2, 2, 2, dtype=x.dtype),
                                                align_corners=False),
        "GRID_SAMPLER_BACKWARD": lambda x: input_grad(
            lambda v: F.grid_sample(v, torch.zeros(1, 2, 2, 2, dtype=x.dtype),
                                    align_corners=False), x),
    }
    add_probes(w, probes, lambda dt: torch.ones(1, 1, 2, 2).to(dt))


# ------------------------------------------------ Fourier transforms
# No cases here (plugins/reference/tests/test_fft_bound.c and the golden
# cases check values): the dtypes PyTorch's CPU transforms take without
# converting, c2c complex to itself, r2c real to its complex, c2r back.
def fft_support(w):
    probes = {
        "FFT_C2C": lambda x: torch.fft.fft(x) if x.is_complex() else None,
        "FFT_R2C": lambda x: torch.fft.rfft(x) if x.is_floating_point() else None,
        "FFT_C2R": lambda x: torch.fft.irfft(x) if x.is_complex() else None,
    }
    add_probes(w, probes, lambda dt: torch.tensor([[1, 0], [2, 1]]).to(dt))


# ------------------------------------------------ linear algebra
# No cases here (tests/ops/test_linalg*.c check the residual bounds and the
# golden cases values): the dtypes torch.linalg's CPU factorisations take.
# Each kernel writes its input's dtype, except eig, whose eigenpairs of a
# real matrix are complex: (dtype, dtype of torch's eigenvalues).
def linalg_support(w):
    a = [[4.0, 1.0], [1.0, 3.0]]
    probes = {
        "LINALG_CHOLESKY": lambda x: torch.linalg.cholesky(x),
        "LINALG_LU": lambda x: torch.linalg.lu_factor(x)[0],
        "LINALG_SOLVE_TRIANGULAR": lambda x: torch.linalg.solve_triangular(x, x, upper=True),
        "LINALG_QR": lambda x: torch.linalg.qr(x)[0],
        "LINALG_EIGH": lambda x: torch.linalg.eigh(x)[1],
        "LINALG_SVD": lambda x: torch.linalg.svd(x)[0],
        "LINALG_GEQRF": lambda x: torch.geqrf(x)[0],
        "LINALG_EIG": lambda x: torch.linalg.eig(x)[0],
    }
    add_probes(w, probes, lambda dt: torch.tensor(a).to(dt))


OP_ORDER = ["COPY", "FILL", "ADD", "SUB", "MUL", "DIV", "FLOOR_DIVIDE", "REMAINDER", "POW",
            "MAXIMUM", "MINIMUM", "EQ", "NE", "LT", "LE", "GT", "GE", "LOGICAL_AND",
            "LOGICAL_OR", "LOGICAL_XOR", "NEG", "ABS", "SIGN", "EXP", "LOG", "LOG1P", "EXPM1",
            "SQRT", "RSQRT", "SIN", "COS", "TANH", "SIGMOID", "RELU", "GELU", "ERF",
            "LOGICAL_NOT", "WHERE", "CLAMP"] + [
            "FMOD", "ATAN2", "HYPOT", "COPYSIGN", "FMAX", "FMIN", "BITWISE_AND", "BITWISE_OR",
            "BITWISE_XOR", "BITWISE_NOT", "BITWISE_LEFT_SHIFT", "BITWISE_RIGHT_SHIFT", "EXP2",
            "LOG2", "LOG10", "TAN", "ASIN", "ACOS", "ATAN", "SINH", "COSH", "ASINH", "ACOSH",
            "ATANH", "ERFC", "SILU", "SOFTPLUS", "LEAKY_RELU", "ELU", "HARDTANH", "FLOOR",
            "CEIL", "ROUND", "TRUNC", "FRAC", "RECIPROCAL", "SQUARE", "ISNAN", "ISINF",
            "ISFINITE", "NAN_TO_NUM", "LERP", "ADDCMUL", "ADDCDIV"] + [
            "SUM", "NANSUM", "PROD", "MEAN", "NANMEAN", "AMAX", "AMIN", "MAX_DIM", "MIN_DIM",
            "ARGMAX", "ARGMIN", "VAR", "STD", "ALL", "ANY", "NORM", "LOGSUMEXP",
            "COUNT_NONZERO", "CUMSUM", "CUMPROD", "CUMMAX", "CUMMIN", "LOGCUMSUMEXP"] + [
            "MATMUL"] + [
            "INDEX_SELECT", "GATHER", "SCATTER", "INDEX_ADD", "INDEX_COPY", "NONZERO", "TRIL",
            "TRIU", "SORT", "SEARCHSORTED"] + [
            "SOFTMAX", "LOG_SOFTMAX", "LAYER_NORM", "RMS_NORM", "CROSS_ENTROPY"] + [
            "POOL_MAX", "POOL_MAX_BACKWARD", "POOL_AVG", "POOL_AVG_BACKWARD",
            "POOL_ADAPTIVE_AVG", "POOL_ADAPTIVE_AVG_BACKWARD", "POOL_ADAPTIVE_MAX"] + [
            "IM2COL", "COL2IM", "CONVOLUTION", "CONVOLUTION_BACKWARD_DATA",
            "CONVOLUTION_BACKWARD_WEIGHT"] + [
            "UPSAMPLE", "UPSAMPLE_BACKWARD", "GRID_SAMPLER", "GRID_SAMPLER_BACKWARD"] + [
            "FFT_C2C", "FFT_R2C", "FFT_C2R"] + [
            "LINALG_CHOLESKY", "LINALG_LU", "LINALG_SOLVE_TRIANGULAR", "LINALG_QR",
            "LINALG_EIGH", "LINALG_SVD", "LINALG_GEQRF", "LINALG_EIG"]

if __name__ == "__main__":
    writer = Writer()
    copy_cases(writer)
    fill_cases(writer)
    binary_cases(writer)
    unary_cases(writer)
    where_cases(writer)
    clamp_cases(writer)
    binary2_cases(writer)
    unary2_cases(writer)
    parameter_cases(writer)
    ternary_cases(writer)
    reduction_support(writer)
    matmul_support(writer)
    index_support(writer)
    nn_support(writer)
    pool_support(writer)
    conv_support(writer)
    resample_support(writer)
    fft_support(writer)
    linalg_support(writer)
    emit(writer)
