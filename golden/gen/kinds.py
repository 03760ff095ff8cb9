"""Value kinds added after the first case set (see T in framework.py).

They live apart from framework._draw so that the draws of the older kinds, and
with them the older cases, stay byte-identical."""

import numpy as np
import torch

EXTRA_KINDS = ("distinct", "above_one", "prob")


def draw(rng, spec, n, dtype):
    """Base tensor of spec (n elements) for the kinds in EXTRA_KINDS, range:LO:HI
    and perm:D:N; dtype is spec's torch dtype."""
    shape, dt, kind = spec.shape, spec.dtype, spec.kind
    integral = not (dtype.is_floating_point or dtype.is_complex or dtype == torch.bool)
    if kind.startswith("range:"):
        lo, hi = (int(x) for x in kind.split(":")[1:])
        data = rng.integers(lo, hi, n)
    elif kind.startswith("perm:"):
        # Distinct indices in [0, N) along dim D (scatter_/index_copy_ targets).
        d, hi = (int(x) for x in kind.split(":")[1:])
        full = list(shape)
        full[d] = hi
        order = np.argsort(rng.random(full), axis=d, kind="stable")
        data = np.take(order, range(shape[d]), axis=d)
    elif kind == "distinct":
        if dt == "bool":
            assert n <= 2, "distinct bools"
            data = rng.permutation(2)[:n].astype(bool)
        elif dt in ("uint8",):
            data = rng.permutation(256)[:n]
        elif integral:
            data = rng.permutation(256)[:n] - 128 if n <= 256 else rng.permutation(n) - n // 2
        else:
            assert n <= 256 or dt not in ("bfloat16",), "bfloat16 distinct needs n <= 256"
            data = (rng.permutation(max(n, 1))[:n] - n // 2) * 0.25
    elif kind == "above_one":
        data = rng.uniform(1.1, 4.0, n)
    else:
        data = rng.uniform(0.05, 0.95, n)
    if dtype.is_complex and kind != "distinct":
        data = data + 1j * rng.uniform(-1.0, 1.0, n)
    t = torch.from_numpy(np.asarray(data).reshape(shape))
    return t.to(dtype)
