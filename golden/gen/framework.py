"""Case-building framework for the golden generator.

A case is an op name, a case name, named operands (tensor specs or Python
scalars), keyword args and a torch callable.  The builder draws each base
tensor from an RNG seeded by sha256("op/case"), writes it contiguous, applies
the view steps in torch exactly as the runner will, calls torch on the viewed
operands and records either the outputs or the exception class.

Tolerances the runner is assumed to use when a case gives none (roughly
torch.testing's defaults):
    bool and integer dtypes   exact
    float16                   rtol 1e-3    atol 1e-3
    bfloat16                  rtol 1e-2    atol 1e-2
    float32 / complex64       rtol 1.3e-6  atol 1e-5
    float64 / complex128      rtol 1e-7    atol 1e-7
NaN matches NaN, infinities match exactly; +0 == -0 unless "signed_zeros".
A case passes rtol/atol explicitly only where these defaults would be wrong,
e.g. TRANSCENDENTAL below for float32 libm functions.  For float16/bfloat16
the defaults already allow one ulp of the half type (2^-10 < 1e-3, 2^-7 < 1e-2),
which is what torch's compute-in-float32-then-round-once can differ by.
"""

import hashlib
import io
import json
import math
import warnings

import numpy as np
import torch

from . import gradients, kinds

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8,
    "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "float16": torch.float16, "bfloat16": torch.bfloat16,
    "float32": torch.float32, "float64": torch.float64,
    "complex64": torch.complex64, "complex128": torch.complex128,
}
NAMES = list(DTYPES)
NAME_OF = {v: k for k, v in DTYPES.items()}
SHORT = {
    "bool": "b8", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "float16": "f16", "bfloat16": "bf16", "float32": "f32",
    "float64": "f64", "complex64": "c64", "complex128": "c128",
}
INTS = ["uint8", "int8", "int16", "int32", "int64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]

# Looser float32 tolerance for libm-style functions (exp, log, tanh, erf, pow, ...).
TRANSCENDENTAL = {"float32": (1e-5, 1e-6), "complex64": (1e-5, 1e-6)}

# Special float values per dtype: NaN, infinities, signed zeros, units, a
# half-integer, a tiny normal, a denormal and a huge finite value.
SPECIALS = {
    "float32": ["nan", "inf", "-inf", 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0,
                1e-30, 1e-40, 1e30, -1e30],
    "float64": ["nan", "inf", "-inf", 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0,
                1e-300, 1e-310, 1e300, -1e300],
    "float16": ["nan", "inf", "-inf", 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0,
                1e-4, 1e-6, 60000.0, -60000.0],
    "bfloat16": ["nan", "inf", "-inf", 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0,
                 1e-30, 1e-40, 1e30, -1e30],
}


def fval(v):
    """Python float from a value that may be 'nan'/'inf'/'-inf'."""
    return float(v) if isinstance(v, str) else v


def jval(v):
    """JSON-safe value: non-finite floats become the strings nan/inf/-inf."""
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, (list, tuple)):
        return [jval(x) for x in v]
    if isinstance(v, dict):
        return {k: jval(x) for k, x in v.items()}
    if isinstance(v, torch.dtype):
        return NAME_OF[v]
    return v


def rng_for(op, case):
    digest = hashlib.sha256(f"{op}/{case}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


class T:
    """A tensor operand: base shape, dtype name, value kind, view steps.

    kind: normal | positive | unit | nonzero | ties | int | small | bool |
    distinct (no two elements equal, exact in every dtype for up to 256
    elements) | above_one (floats in (1.1, 4)) | prob (floats in (0.05, 0.95)) |
    range:LO:HI (integers in [LO, HI), e.g. indices) | perm:D:N (indices in
    [0, N), distinct along dim D) |
    values (then `values` gives the base contents, reshaped to `shape`).
    """

    def __init__(self, shape, dtype, kind="normal", view=(), values=None):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.kind = "values" if values is not None else kind
        self.view = list(view)
        self.values = values


class L:
    """A list operand (cat's `tensors`, einsum's `operands`): tensor specs,
    drawn in order; element i is stored as <case>_<name><i>.npy."""

    def __init__(self, items):
        self.items = list(items)


class S:
    """A Python scalar operand; scalar_type follows the Python type."""

    def __init__(self, value):
        self.value = value

    @property
    def scalar_type(self):
        v = self.value
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return "int"
        return "float"


def _draw(rng, spec):
    shape, dt, kind = spec.shape, spec.dtype, spec.kind
    if kind == "values":
        vals = [fval(v) if not isinstance(v, complex) else v for v in spec.values]
        return torch.tensor(vals, dtype=DTYPES[dt]).reshape(shape)
    n = int(np.prod(shape)) if shape else 1
    if kind in kinds.EXTRA_KINDS or kind.startswith(("range:", "perm:")):
        return kinds.draw(rng, spec, n, DTYPES[dt])
    if dt == "bool" or kind == "bool":
        data = rng.random(n) < 0.5
    elif dt in INTS:
        lo, hi = {"uint8": (0, 20), "int8": (-10, 10)}.get(dt, (-20, 20))
        if kind in ("small", "positive", "unit"):
            lo, hi = (0, 4) if dt == "uint8" else (-4, 4)
            if kind == "positive":
                lo = 1
        data = rng.integers(lo, hi + 1, n)
        if kind == "nonzero":
            data = np.where(data == 0, 3, data)
    else:
        def real():
            if kind == "positive":
                return rng.uniform(0.1, 4.0, n)
            if kind == "unit":
                return rng.uniform(-0.9, 0.9, n)
            if kind == "nonzero":
                return rng.choice([-1.0, 1.0], n) * rng.uniform(0.5, 2.5, n)
            if kind in ("ties", "int", "small"):
                return rng.integers(-3, 4, n).astype(np.float64)
            return rng.standard_normal(n) * 2.0
        data = real()
        if dt in COMPLEX:
            data = data + 1j * real()
    t = torch.from_numpy(np.asarray(data).reshape(shape))
    return t.to(DTYPES[dt])


def apply_view(t, steps):
    for step in steps:
        name, *nums = step.split(":")
        a = [int(x) for x in nums]
        if name == "transpose":
            t = t.transpose(a[0], a[1])
        elif name == "permute":
            t = t.permute(*a)
        elif name == "slice":
            dim, start, end, stepn = a
            t = t[(slice(None),) * dim + (slice(start, end, stepn),)]
        elif name == "expand":
            t = t.expand(*a)
        elif name == "unsqueeze":
            t = t.unsqueeze(a[0])
        elif name == "diagonal":
            t = torch.diagonal(t, a[0], a[1], a[2])
        else:
            raise ValueError(f"unknown view step {step}")
    return t


def npy_bytes(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        arr = t.view(torch.int16).numpy().view(np.uint16)
    else:
        arr = t.numpy()
    buf = io.BytesIO()
    # t.contiguous() is C-ordered already; np.ascontiguousarray would turn a
    # 0-d array into shape (1,).
    assert arr.flags["C_CONTIGUOUS"] and arr.shape == tuple(t.shape)
    np.save(buf, arr, allow_pickle=False)
    return buf.getvalue()


def _first_line(msg):
    return str(msg).strip().splitlines()[0][:200] if str(msg).strip() else ""


def bitwise_same(x, y, zero_sign=True, exact=True):
    """Same shape/dtype and values; NaN matches NaN; zero signs compared
    only when zero_sign; last-bit differences allowed unless exact."""
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    if not (x.is_floating_point() or x.is_complex()):
        return bool(torch.equal(x, y))
    if x.is_complex():
        return bitwise_same(torch.view_as_real(x), torch.view_as_real(y), zero_sign, exact)
    xf, yf = x.double(), y.double()
    nan_same = torch.equal(torch.isnan(xf), torch.isnan(yf))
    xf, yf = torch.nan_to_num(xf, nan=0.0), torch.nan_to_num(yf, nan=0.0)
    close = torch.isclose(xf, yf, rtol=1e-6 if x.element_size() < 8 else 1e-14, atol=0)
    same = bool(nan_same and (torch.equal(xf, yf) if exact else bool(close.all())))
    if zero_sign:
        same = same and torch.equal(torch.signbit(xf), torch.signbit(yf))
    return same


def strided_copy(t):
    """Same values in a non-contiguous layout (every other element of a buffer)."""
    if not isinstance(t, torch.Tensor) or t.dim() == 0:
        return t
    buf = torch.zeros(t.shape[:-1] + (t.shape[-1] * 2,), dtype=t.dtype)
    view = buf[..., ::2]
    view.copy_(t)
    return view


def other_paths(fn, operands, args):
    """torch's results for the same operands laid out three other ways: dense
    contiguous operands, the same copied into strided buffers, and one element
    at a time.  torch's vectorised and scalar kernels do not always agree
    (zero signs, overflow)."""
    tensors = {k: v for k, v in operands.items() if isinstance(v, torch.Tensor)}
    shape = torch.broadcast_shapes(*[v.shape for v in tensors.values()])
    dense = {k: (v.expand(shape).contiguous() if k in tensors else v)
             for k, v in operands.items()}
    contiguous = fn(**dense, **args)
    strided = fn(**{k: strided_copy(v) for k, v in dense.items()}, **args)
    flat = {k: (v.reshape(-1) if k in tensors else v) for k, v in dense.items()}
    n = int(torch.Size(shape).numel())
    ones = [fn(**{k: (v[i:i + 1] if k in tensors else v) for k, v in flat.items()}, **args)
            for i in range(n)]
    single = torch.cat(ones).reshape(shape) if ones else strided
    return contiguous, strided, single


class Builder:
    """Collects cases; write() puts the files and manifest on disk."""

    def __init__(self):
        self.entries = {}   # (op, case) -> manifest entry
        self.files = {}     # relative path -> bytes
        self.fns = {}       # (op, case) -> torch callable, for the self-check
        self.notes = []     # generator diagnostics printed at the end
        self.layout_dependent = []

    def case(self, op, name, fn, inputs, args=None, *, tol=None, rtol=None,
             atol=None, signed_zeros=False, expect="ok", grad=None):
        """Add one case.

        fn(**operands, **args) computes the expected value(s) in torch.
        tol=TRANSCENDENTAL picks rtol/atol by output dtype.
        expect: "ok" (must not raise), "error" (must raise) or "any"
        (dtype sweeps: record whatever torch does).
        grad: operand names to differentiate with respect to (see gradients.py).
        """
        key = (op, name)
        if key in self.entries:
            raise ValueError(f"duplicate case {op}/{name}")
        args = dict(args or {})
        self.fns[key] = fn
        rng = rng_for(op, name)
        entry = {"op": op, "case": name, "inputs": [], "args": jval(args)}
        values, bases = {}, {}
        for iname, spec in inputs.items():
            if isinstance(spec, S):
                entry["inputs"].append({"name": iname, "scalar": jval(fval(spec.value)),
                                        "scalar_type": spec.scalar_type})
                values[iname] = fval(spec.value)
                continue
            if isinstance(spec, L):
                ents, values[iname], bases[iname] = [], [], []
                for i, item in enumerate(spec.items):
                    ent, base = self._tensor(rng, f"{op}/{name}_{iname}{i}.npy", item)
                    ents.append(ent)
                    values[iname].append(apply_view(base.clone(), item.view))
                    bases[iname].append((base, item.view))
                entry["inputs"].append({"name": iname, "list": ents})
                continue
            ent, base = self._tensor(rng, f"{op}/{name}_{iname}.npy", spec)
            entry["inputs"].append(dict(name=iname, **ent))
            values[iname] = apply_view(base.clone(), spec.view)
            bases[iname] = (base, spec.view)

        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            try:
                result = fn(**values, **args)
                error = None
            except (RuntimeError, IndexError, ValueError) as exc:
                error = exc
            except TypeError as exc:
                # A TypeError is usually Python argument parsing, not the op:
                # only record it where the case asks for an error.
                if expect != "error":
                    raise
                error = exc
        # Warnings are not recorded: torch issues many of them once per
        # process, so which case saw one would depend on case order.
        if error is not None:
            if expect == "ok":
                raise RuntimeError(f"{op}/{name}: torch raised {error!r}") from error
            entry["error"] = type(error).__name__
            entry["error_message"] = _first_line(error)
        else:
            if expect == "error":
                raise RuntimeError(f"{op}/{name}: expected torch to raise")
            outs = result if isinstance(result, (tuple, list)) else (result,)
            entry["outputs"] = []
            for i, out in enumerate(outs):
                path = f"{op}/{name}_out{i}.npy"
                self.files[path] = npy_bytes(out)
                ent = {"file": path}
                if out.dtype == torch.bfloat16:
                    ent["dtype"] = "bfloat16"
                entry["outputs"].append(ent)
            dt = NAME_OF[outs[0].dtype] if outs else None  # unbind of an empty dim: none
            if tol is not None and dt in tol:
                rtol, atol = tol[dt]
        if rtol is not None and "outputs" in entry:
            entry["rtol"] = rtol
        if atol is not None and "outputs" in entry:
            entry["atol"] = atol
        if grad and "outputs" in entry:
            fresh = {k: ([apply_view(b.clone(), v) for b, v in bases[k]]
                         if isinstance(bases[k], list) else apply_view(bases[k][0].clone(),
                                                                       bases[k][1]))
                     if k in bases else values[k] for k in values}
            entry["grad"] = gradients.record(self, f"{op}/{name}", rng, fn, fresh, args,
                                             grad, outs)
        if signed_zeros == "auto" and "outputs" in entry:
            signed_zeros = self._layout_check(op, name, fn, values, args, outs[0])
        floating = ("outputs" in entry and bool(outs)
                    and (outs[0].is_floating_point() or outs[0].is_complex()))
        if signed_zeros is True and floating:
            entry["signed_zeros"] = True
        self.entries[key] = entry
        return entry

    def _tensor(self, rng, path, spec):
        """Draw one tensor operand and store its base; (manifest entry, base)."""
        base = _draw(rng, spec)
        self.files[path] = npy_bytes(base)
        ent = {"file": path}
        if spec.view:
            ent["view"] = list(spec.view)
        if spec.dtype == "bfloat16":
            ent["dtype"] = "bfloat16"
        return ent, base

    def _layout_check(self, op, name, fn, values, args, result):
        """Pin the sign of zero only where torch gives the same bits whatever
        the layout; report cases whose values depend on the layout."""
        zero_signs = True
        paths = ("contiguous", "strided", "elementwise")
        for path, other in zip(paths, other_paths(fn, values, args)):
            if not bitwise_same(result, other, zero_sign=False, exact=False):
                self.note(f"{op}/{name}: values differ from torch's {path} path")
                self.layout_dependent.append(f"{op}/{name} ({path})")
                return False
            zero_signs = zero_signs and bitwise_same(result, other)
        if not zero_signs:
            self.note(f"{op}/{name}: zero signs depend on layout, signed_zeros not set")
        return zero_signs

    def note(self, text):
        self.notes.append(text)

    def manifest_lines(self):
        for key in sorted(self.entries):
            yield json.dumps(self.entries[key], allow_nan=False)
