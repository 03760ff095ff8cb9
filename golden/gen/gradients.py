"""Gradients for golden cases: the manifest's optional `grad` entry.

record() differentiates a case's floating outputs, weighted by grad_outputs
drawn from the case's own RNG after its inputs (so a case without `grad` draws
exactly what it drew before), with respect to the named operands *after* their
view steps: each named operand, or each element of a named list operand,
becomes an autograd leaf with the viewed shape and strides, as the runner's
tensor would be.  An expanded operand therefore gets one gradient element per
viewed element, not the sum over its broadcast copies.
"""

import numpy as np
import torch


def floating(t):
    return t.is_floating_point() or t.is_complex()


def _leaves(values, wrt):
    vals, leaves = dict(values), []
    for name in wrt:
        v = vals[name]
        if isinstance(v, list):
            new = [x.detach().requires_grad_(True) for x in v]
            leaves.extend(new)
        else:
            new = v.detach().requires_grad_(True)
            leaves.append(new)
        vals[name] = new
    return vals, leaves


def run(fn, values, args, wrt, grad_outputs):
    """(outputs, gradients) of fn at values; gradients in wrt order, list
    operands flattened element by element."""
    vals, leaves = _leaves(values, wrt)
    with torch.enable_grad():
        res = fn(**vals, **args)
    outs = res if isinstance(res, (tuple, list)) else (res,)
    fouts = [o for o in outs if floating(o)]
    grads = torch.autograd.grad(fouts, leaves, grad_outputs, allow_unused=True)
    if any(g is None for g in grads):
        raise RuntimeError("an operand in wrt does not reach any output")
    # complex gradients may come back as lazy conjugates (matmul's): resolve
    # them to plain values (a no-op for real tensors)
    return [o.detach() for o in outs], [g.detach().resolve_conj().resolve_neg() for g in grads]


def _grad_output(rng, out):
    """A standard normal grad_output shaped like out; a complex output's has an
    imaginary part too, drawn after the real parts (real outputs draw exactly
    what they always drew)."""
    g = np.asarray(rng.standard_normal(tuple(out.shape)))
    if out.is_complex():
        g = g + 1j * np.asarray(rng.standard_normal(tuple(out.shape)))
    return torch.from_numpy(np.asarray(g)).to(out.dtype)


def record(builder, key, rng, fn, values, args, wrt, outs):
    """Compute and store the gradients of one case; returns its `grad` entry."""
    from .framework import bitwise_same, npy_bytes

    gouts = [_grad_output(rng, o) for o in outs if floating(o)]
    again, grads = run(fn, values, args, wrt, gouts)
    for a, b in zip(outs, again):
        if not bitwise_same(a.contiguous(), b.contiguous()):
            raise RuntimeError(f"{key}: outputs differ when computed with autograd")
    entry = {"wrt": list(wrt), "grad_outputs": [], "expected": []}
    for i, g in enumerate(gouts):
        path = f"{key}_gout{i}.npy"
        builder.files[path] = npy_bytes(g)
        ent = {"file": path}
        if g.dtype == torch.bfloat16:
            ent["dtype"] = "bfloat16"
        entry["grad_outputs"].append(ent)
    names = []
    for name in wrt:
        v = values[name]
        names.extend([f"{name}{i}" for i in range(len(v))] if isinstance(v, list) else [name])
    for name, g in zip(names, grads):
        path = f"{key}_grad_{name}.npy"
        builder.files[path] = npy_bytes(g)
        entry["expected"].append({"file": path})
    return entry
