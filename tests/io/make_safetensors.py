"""Writes tests/data/safetensors/: small .safetensors files from PyTorch
tensors, by the format's specification (Debian has no safetensors package),
and expected.json with each tensor's dtype, shape and values.

    /usr/bin/python3 tests/io/make_safetensors.py

Format: u64 little-endian header length N, N bytes of JSON
{"NAME": {"dtype": ..., "shape": [...], "data_offsets": [BEGIN, END]},
"__metadata__": {...}} padded with spaces, then the data, offsets from its
start. Values are small integers and halves, exact in every dtype."""
import json
import os
import struct

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "safetensors")
CODES = {torch.float64: "F64", torch.float32: "F32", torch.float16: "F16",
         torch.bfloat16: "BF16", torch.int64: "I64", torch.int32: "I32", torch.int16: "I16",
         torch.int8: "I8", torch.uint8: "U8", torch.bool: "BOOL"}


def raw_bytes(t):
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes()


def write(path, tensors, metadata=None):
    header, blobs, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, t in tensors.items():
        data = raw_bytes(t)
        header[name] = {"dtype": CODES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def main():
    os.makedirs(OUT, exist_ok=True)
    base = torch.tensor([[0.0, -1.5, 2.0], [3.5, -4.0, 1.0]])
    tensors = {}
    for dtype, code in CODES.items():
        v = base if dtype.is_floating_point else base.round().abs() if dtype == torch.uint8 \
            else base.round()
        tensors[code.lower()] = v.to(dtype)
    tensors["bool"] = base != 0
    tensors["empty"] = torch.zeros(0, 3)
    tensors["scalar"] = torch.tensor(7, dtype=torch.int64)
    tensors["strided"] = torch.arange(12, dtype=torch.float32).reshape(3, 4).t()
    write(os.path.join(OUT, "all_dtypes.safetensors"), tensors, {"format": "pt"})
    expected = {name: {"dtype": CODES[t.dtype], "shape": list(t.shape),
                       "values": t.double().flatten().tolist()}
                for name, t in tensors.items()}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
