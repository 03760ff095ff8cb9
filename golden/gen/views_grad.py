"""Gradient cases (`grad_*`) for the movement ops, whose value cases live in
views.py (contiguous and clone, copy family, included as there).  New case
names only, so the older cases stay byte-identical."""

from . import views
from .framework import SHORT, T

F32, F64 = "float32", "float64"
FLOATS = (F32, F64)


MOVES = [
    ("reshape", "input", (3, 4), ["transpose:0:1"], {"shape": [2, 6]}),
    ("reshape", "input", (2, 3, 4), [], {"shape": [-1, 4]}),
    ("view", "self", (2, 6), [], {"size": [3, 4]}),
    ("view", "self", (4, 6), ["transpose:0:1"], {"size": [2, 3, 4]}),
    ("transpose", "input", (2, 3, 4), [], {"dim0": 0, "dim1": -1}),
    ("permute", "input", (2, 3, 4), [], {"dims": [2, 0, 1]}),
    ("permute", "input", (3, 4), ["transpose:0:1"], {"dims": [1, 0]}),
    ("expand", "self", (3, 1), [], {"size": [3, 4]}),
    ("expand", "self", (4,), [], {"size": [2, 3, 4]}),
    ("expand", "self", (1, 3), ["transpose:0:1"], {"size": [3, 5]}),
    ("narrow", "input", (5, 4), [], {"dim": 0, "start": 1, "length": 3}),
    ("narrow", "input", (4, 6), ["transpose:0:1"], {"dim": -1, "start": 2, "length": 2}),
    ("squeeze", "input", (1, 3, 1, 2), [], {}),
    ("squeeze", "input", (3, 1), [], {"dim": 1}),
    ("unsqueeze", "input", (3, 4), [], {"dim": 1}),
    ("diagonal", "input", (3, 5), [], {"offset": 1, "dim1": 0, "dim2": 1}),
    ("diagonal", "input", (2, 3, 3), [], {"offset": 0, "dim1": -2, "dim2": -1}),
    ("flatten", "input", (2, 3, 4), [], {"start_dim": 1, "end_dim": 2}),
    ("unflatten", "self", (2, 12), [], {"dim": 1, "sizes": [3, 4]}),
    ("contiguous", "self", (4, 3), ["transpose:0:1"], {}),
    ("clone", "input", (3, 9), ["slice:1:1:9:2"], {}),
]


def movement(b):
    seen = {}
    for op, name, shape, view, args in MOVES:
        n = seen[op] = seen.get(op, 0) + 1
        for dt in FLOATS:
            b.case(op, f"grad_{SHORT[dt]}_{n}", views.OPS[op], {name: T(shape, dt, view=view)},
                   args, grad=[name])
    b.case("expand", "grad_f32_of_expanded_input", views.OPS["expand"],
           {"self": T((1, 4), F32, view=["expand:3:4"])}, {"size": [2, 3, 4]}, grad=["self"])
