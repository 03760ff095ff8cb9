#!/usr/bin/python3
"""Writes tests/data/repr_cases.json: tensors (dtype, shape, values) and
PyTorch 1.13's repr of each, for tests/io/test_repr.c.

Run: /usr/bin/python3 tests/io/make_repr_cases.py  (needs python3-torch)."""
import json
import math
import os

import torch


def enc(x):
    if isinstance(x, bool):
        return x
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    return x


def ramp(shape, start, step, dtype):
    """A large tensor stored as its formula, start + k * step in double."""
    n = math.prod(shape)
    t = (torch.arange(n, dtype=torch.float64) * step + start).to(dtype).reshape(shape)
    c = case(t)
    del c["values"]
    c["ramp"] = [start, step]
    return c


def case(t, requires_grad=False):
    flat = t.reshape(-1).tolist()
    if t.is_complex():
        values = [[enc(v.real), enc(v.imag)] for v in flat]
    else:
        values = [enc(v) for v in flat]
    shown = t.clone().requires_grad_(True) if requires_grad else t
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
            "requires_grad": requires_grad, "values": values, "repr": repr(shown)}


def cases():
    g = torch.Generator().manual_seed(0)
    f = torch.float32
    yield case(torch.tensor([1.0, 2.0, 3.0]))
    yield case(torch.tensor(3.5))
    yield case(torch.tensor(7))
    yield case(torch.tensor(True))
    yield case(torch.tensor([0.1234567, -2.5, 10.0]))
    yield case(torch.tensor([1e-5, 1.0, 2.0]))
    yield case(torch.tensor([1e10, 1.0]))
    yield case(torch.tensor([1.0, 2000.0]))
    yield case(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]))
    yield case(torch.tensor([0.0, -0.0, 0.0]))
    yield case(torch.tensor([float("nan"), 0.0]))
    yield case(torch.randn(3, 4, generator=g))
    yield case(torch.randn(2, 3, 4, generator=g))
    yield case(torch.randn(2, 1, 2, 3, generator=g, dtype=torch.float64))
    yield case(torch.arange(12, dtype=torch.int32).reshape(3, 4))
    yield case(torch.arange(-5, 5, dtype=torch.int64))
    yield case(torch.arange(30, dtype=torch.int16))
    yield case(torch.tensor([[True, False], [False, True]]))
    yield case(torch.tensor([1, 200], dtype=torch.uint8))
    yield case(torch.tensor([1.5, -2.25], dtype=torch.float16))
    yield case(torch.tensor([1.5, -2.25], dtype=torch.bfloat16))
    yield case(torch.randn(30, generator=g))
    yield ramp([2000], 0, 1, f)
    yield ramp([40, 40], -3.5, 0.0043, f)
    yield ramp([1100], -7, 3, torch.int64)
    yield ramp([11, 10, 10], -200, 0.37, f)
    yield ramp([1001], 0, 1, torch.int32)
    yield ramp([4, 300], 1e-3, 0.5, torch.float64)
    yield case(torch.zeros(0))
    yield case(torch.zeros(2, 0))
    yield case(torch.zeros(0, dtype=torch.int64))
    yield case(torch.zeros(3, 0, 2, dtype=torch.int32))
    yield case(torch.tensor([1 + 2j, -0.5 - 1j, 3j]))
    yield case(torch.tensor(2 - 1.5j, dtype=torch.complex128))
    yield case(torch.tensor([[1e-6 + 1j, 2 + 0j]], dtype=torch.complex64))
    yield case(torch.tensor([1.0, 2.0]), requires_grad=True)
    yield case(torch.randn(5, 17, generator=g, dtype=torch.float64))
    yield case(torch.tensor([123456.0, 0.5]))
    yield case(torch.tensor([-1e-3, 5.0]))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "data", "repr_cases.json")
    with open(path, "w") as out:
        out.write('{"torch": %s, "cases": [\n' % json.dumps(torch.__version__))
        out.write(",\n".join(json.dumps(c) for c in cases()))
        out.write("\n]}\n")


if __name__ == "__main__":
    main()
