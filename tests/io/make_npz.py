"""Writes tests/data/npz/: .npz archives from NumPy itself, one stored
(np.savez) and one deflated (np.savez_compressed), with the same arrays;
tests/io/test_npz.c holds the values inline.

    /usr/bin/python3 tests/io/make_npz.py"""
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "npz")


def arrays():
    return {
        "f32": np.array([[0.0, -1.5, 2.0], [3.5, -4.0, 1.0]], dtype=np.float32),
        "i64": np.arange(5, dtype=np.int64) - 2,
        "flags": np.array([True, False, True]),
        "c128": np.array([1 + 2j, -3.5j], dtype=np.complex128),
        "empty": np.zeros((0, 4), dtype=np.float64),
        "scalar": np.array(7, dtype=np.int16),
        "ramp": np.arange(2000, dtype=np.int32) % 7,  # compresses well
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    np.savez(os.path.join(OUT, "stored.npz"), **arrays())
    np.savez_compressed(os.path.join(OUT, "deflated.npz"), **arrays())
    # tessera has no uint16: loading this must fail naming the dtype
    np.savez(os.path.join(OUT, "uint16.npz"), u=np.array([1, 2], dtype=np.uint16))


if __name__ == "__main__":
    main()
