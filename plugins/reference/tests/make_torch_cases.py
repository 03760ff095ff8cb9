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

    def case(self, label, op, din, dout, inputs, expected, mode=0, alpha=None, exact=False):
        names = [self.blob(x) for x in inputs] + ["NULL"] * (3 - len(inputs))
        self.cases.append((label, op, ENUM[din], ENUM[dout], mode, alpha or "ALPHA_NONE",
                           len(inputs), len(expected), names, self.blob(expected), exact))
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
    for (label, op, din, dout, mode, alpha, arity, count, names, exp, exact) in w.cases:
        out.write('    {"%s", %s, %s, %s, %d, %s, %d, %d, {%s}, %s, %d},\n'
                  % (label, op, din, dout, mode, alpha, arity, count, ", ".join(names), exp,
                     int(exact)))
    out.write("};\n\nstatic const torch_triple torch_supported[] = {\n")
    order = {("TSR_OP_" + k): i for i, k in enumerate(OP_ORDER)}
    ids = {ENUM[t]: i for i, (_, t) in enumerate(DTYPES)}
    for op, din, dout in sorted(w.supported, key=lambda t: (order[t[0]], ids[t[1]], ids[t[2]])):
        out.write("    {%s, %s, %s},\n" % (op, din, dout))
    out.write("};\n")


OP_ORDER = ["COPY", "FILL", "ADD", "SUB", "MUL", "DIV", "FLOOR_DIVIDE", "REMAINDER", "POW",
            "MAXIMUM", "MINIMUM", "EQ", "NE", "LT", "LE", "GT", "GE", "LOGICAL_AND",
            "LOGICAL_OR", "LOGICAL_XOR", "NEG", "ABS", "SIGN", "EXP", "LOG", "LOG1P", "EXPM1",
            "SQRT", "RSQRT", "SIN", "COS", "TANH", "SIGMOID", "RELU", "GELU", "ERF",
            "LOGICAL_NOT", "WHERE", "CLAMP"]

if __name__ == "__main__":
    writer = Writer()
    copy_cases(writer)
    fill_cases(writer)
    binary_cases(writer)
    unary_cases(writer)
    where_cases(writer)
    clamp_cases(writer)
    emit(writer)
