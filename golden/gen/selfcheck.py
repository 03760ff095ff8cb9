"""Re-run every case from what is on disk: manifest.jsonl + npy files.

This is what a runner sees, so it catches anything lost between the builder
and the files: JSON scalars and args, bfloat16 bit storage, view strings
(checked strictly, e.g. slice bounds must be in range, as a C runner will).
Each case is recomputed with the same torch callable and must give the same
bits (NaN matches NaN) or the same exception class."""

import json
import os
import warnings

import numpy as np
import torch

from . import gradients
from .framework import DTYPES, apply_view, bitwise_same

NONFINITE = {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}


def load(path, dtype=None):
    arr = np.load(path, allow_pickle=False)
    if dtype == "bfloat16":
        return torch.from_numpy(arr.astype(np.int16, copy=True)).view(torch.bfloat16)
    return torch.from_numpy(arr.copy())


def _check_view(shape, steps):
    """Validate view steps against a shape the way a strict runner would."""
    shape = list(shape)
    for step in steps:
        name, *nums = step.split(":")
        a = [int(x) for x in nums]
        nd = len(shape)

        def dim(d, rank=nd):
            assert -max(rank, 1) <= d < max(rank, 1), f"{step}: dim out of range"
            return d % max(rank, 1)
        if name == "transpose":
            i, j = dim(a[0]), dim(a[1])
            shape[i], shape[j] = shape[j], shape[i]
        elif name == "permute":
            assert sorted(dim(x) for x in a) == list(range(nd)), step
            shape = [shape[dim(x)] for x in a]
        elif name == "slice":
            d, start, end, st = dim(a[0]), a[1], a[2], a[3]
            assert 0 <= start <= end <= shape[d] and st > 0, f"{step} on {shape}"
            shape[d] = (end - start + st - 1) // st
        elif name == "expand":
            assert len(a) >= nd, step
            lead = len(a) - nd
            new = []
            for i, s in enumerate(a):
                old = shape[i - lead] if i >= lead else None
                if s == -1:
                    assert old is not None, step
                    s = old
                assert old is None or old == s or old == 1, f"{step} on {shape}"
                new.append(s)
            shape = new
        elif name == "unsqueeze":
            shape.insert(dim(a[0], nd + 1), 1)
        elif name == "diagonal":
            off, i, j = a[0], dim(a[1]), dim(a[2])
            n = max(0, min(shape[i] + min(off, 0), shape[j] - max(off, 0)))
            shape = [s for k, s in enumerate(shape) if k not in (i, j)] + [n]
        else:
            raise AssertionError(f"unknown view step {step}")
    return shape


def _operand(root, ent):
    if "list" in ent:
        return [_operand(root, item) for item in ent["list"]]
    if "scalar" in ent:
        v = ent["scalar"]
        v = NONFINITE.get(v, v) if isinstance(v, str) else v
        kind = ent["scalar_type"]
        assert kind in ("bool", "int", "float"), kind
        return {"bool": bool, "int": int, "float": float}[kind](v)
    base = load(os.path.join(root, ent["file"]), ent.get("dtype"))
    assert base.is_contiguous()
    steps = ent.get("view", [])
    got = list(apply_view(base.clone(), steps).shape)
    assert _check_view(base.shape, steps) == got, f"view {steps} on {list(base.shape)}"
    return apply_view(base, steps)


def _arg(v):
    if isinstance(v, str):
        return NONFINITE.get(v, v)
    if isinstance(v, list):
        return [_arg(x) for x in v]
    return v


def _check_grad(root, e, fn, args):
    g = e["grad"]
    values = {ent["name"]: _operand(root, ent) for ent in e["inputs"]}
    gouts = [load(os.path.join(root, ent["file"]), ent.get("dtype"))
             for ent in g["grad_outputs"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, grads = gradients.run(fn, values, args, g["wrt"], gouts)
    assert len(grads) == len(g["expected"]), "number of gradients"
    for i, (got, ent) in enumerate(zip(grads, g["expected"])):
        want = load(os.path.join(root, ent["file"]), ent.get("dtype"))
        assert got.dtype == want.dtype, f"gradient {i}: dtype {got.dtype} vs {want.dtype}"
        assert bitwise_same(got.contiguous(), want), f"gradient {i} differs"


def check(root, fns):
    """Recompute every manifest line with fns[(op, case)]; return problems."""
    problems = []
    with open(os.path.join(root, "manifest.jsonl"), encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    keys = [(e["op"], e["case"]) for e in lines]
    if keys != sorted(keys) or len(set(keys)) != len(keys):
        problems.append("manifest not sorted or has duplicates")
    for e in lines:
        key = (e["op"], e["case"])
        try:
            values = {ent["name"]: _operand(root, ent) for ent in e["inputs"]}
            args = {k: _arg(v) for k, v in e["args"].items()}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    result = fns[key](**values, **args)
                    error = None
                except (RuntimeError, IndexError, ValueError, TypeError) as exc:
                    error = type(exc).__name__
            if "error" in e:
                assert error == e["error"], f"expected {e['error']}, got {error}"
                continue
            assert error is None, f"raised {error}"
            outs = result if isinstance(result, (tuple, list)) else (result,)
            assert len(outs) == len(e["outputs"])
            for out, ent in zip(outs, e["outputs"]):
                want = load(os.path.join(root, ent["file"]), ent.get("dtype"))
                assert out.dtype == want.dtype, f"dtype {out.dtype} vs {want.dtype}"
                assert bitwise_same(out.contiguous(), want), "values differ"
            if "grad" in e:
                _check_grad(root, e, fns[key], args)
        except AssertionError as exc:
            problems.append(f"{key[0]}/{key[1]}: {exc}")
    return problems


__all__ = ["check", "DTYPES"]
