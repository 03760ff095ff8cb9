#!/usr/bin/python3
"""Write tests/data/promotion.json: PyTorch's type promotion tables.

Run with Debian's PyTorch:  /usr/bin/python3 golden/gen_promotion.py [--out PATH]

Schema (one JSON object; every dtype is one of the 12 names in "dtypes"):

  "torch_version":  string, the torch that produced the file
  "default_dtype":  "float32", the dtype a Python float scalar becomes
  "dtypes":         the 12 dtype names, in this fixed order:
                    bool uint8 int8 int16 int32 int64 float16 bfloat16
                    float32 float64 complex64 complex128
  "promote_types":  12 x 12 array of dtype names;
                    promote_types[i][j] == torch.promote_types(dtypes[i], dtypes[j])
  "result_type":    array of objects, one per ordered operand pair (a, b):
                      {"a": OPERAND, "b": OPERAND, "result": NAME}
                    or, where torch raises, {"a": ..., "b": ..., "error": CLASS}
                    result == torch.result_type(a, b).  One result lies outside
                    the 12 names: "complex32" (torch's ComplexHalf), which
                    torch 1.13 gives for float16 with a complex scalar or
                    0-d complex operand.
                    OPERAND is one of
                      {"kind": "tensor",   "dtype": NAME}  a tensor of shape [2]
                      {"kind": "zero_dim", "dtype": NAME}  a 0-d tensor
                      {"kind": "scalar",   "type": T, "value": V}
                         a Python scalar; T is bool | int | float | complex,
                         V is true, 2, 2.5 or [1.0, 2.0] (real, imag) respectively
                    All (12 + 12 + 4)^2 = 784 ordered pairs are listed, tensor
                    operands first, in "dtypes" order, then the scalars in the
                    order bool, int, float, complex.
"""

import argparse
import json
import os

import torch

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8,
    "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "float16": torch.float16, "bfloat16": torch.bfloat16,
    "float32": torch.float32, "float64": torch.float64,
    "complex64": torch.complex64, "complex128": torch.complex128,
}
NAME_OF = {v: k for k, v in DTYPES.items()}
SCALARS = [("bool", True, True), ("int", 2, 2), ("float", 2.5, 2.5),
           ("complex", 1 + 2j, [1.0, 2.0])]


def dtype_name(dt):
    # torch 1.13 answers complex32 (ComplexHalf) for float16 with a complex
    # scalar; it is recorded by torch's own name although tessera lacks it.
    return NAME_OF.get(dt) or str(dt).replace("torch.", "")


def operands():
    """(description, python value) for every operand kind."""
    out = []
    for kind, shape in (("tensor", (2,)), ("zero_dim", ())):
        for name, dt in DTYPES.items():
            out.append(({"kind": kind, "dtype": name}, torch.ones(shape, dtype=dt)))
    for kind, value, json_value in SCALARS:
        out.append(({"kind": "scalar", "type": kind, "value": json_value}, value))
    return out


def _compact(doc):
    """JSON with one table row or one result_type pair per line."""
    lines = ["{"]
    for key in ("torch_version", "default_dtype", "dtypes"):
        lines.append(f' "{key}": {json.dumps(doc[key])},')
    rows = ",\n  ".join(json.dumps(r) for r in doc["promote_types"])
    lines.append(f' "promote_types": [\n  {rows}\n ],')
    pairs = ",\n  ".join(json.dumps(p) for p in doc["result_type"])
    lines.append(f' "result_type": [\n  {pairs}\n ]')
    lines.append("}")
    return "\n".join(lines)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(os.path.dirname(here), "tests", "data", "promotion.json")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=default)
    opts = parser.parse_args()

    names = list(DTYPES)
    table = [[NAME_OF[torch.promote_types(DTYPES[a], DTYPES[b])] for b in names] for a in names]
    pairs = []
    ops = operands()
    for desc_a, a in ops:
        for desc_b, b in ops:
            entry = {"a": desc_a, "b": desc_b}
            try:
                entry["result"] = dtype_name(torch.result_type(a, b))
            except (RuntimeError, TypeError) as exc:
                entry["error"] = type(exc).__name__
            pairs.append(entry)
    doc = {
        "torch_version": torch.__version__,
        "default_dtype": NAME_OF[torch.get_default_dtype()],
        "dtypes": names,
        "promote_types": table,
        "result_type": pairs,
    }
    os.makedirs(os.path.dirname(opts.out), exist_ok=True)
    with open(opts.out, "w", encoding="utf-8") as f:
        f.write(_compact(doc) + "\n")
    errors = sum("error" in p for p in pairs)
    print(f"wrote {opts.out}: 12x12 promote_types, {len(pairs)} result_type pairs "
          f"({errors} raise)")


if __name__ == "__main__":
    main()
