"""Linear algebra, the spectral side: qr, eigh/eigvalsh, svd/svdvals (gauge
outputs marked for the runner's "check": "identity"), the norms and the ops
on singular values, matrix_exp, and the ops that reshape into matrices.
Matrices come from linalg.py's helpers."""

import torch

from .framework import SHORT, T
from .linalg import (C128, DTYPES, F32, F64, TOL, _resolved, exact, general, rhs, spd)


def _qr(A, **kw):
    return _resolved(tuple(torch.linalg.qr(A, **kw)))


def _eigh(A, **kw):
    return _resolved(tuple(torch.linalg.eigh(A, **kw)))


def _eigvalsh(A, **kw):
    return torch.linalg.eigvalsh(A, **kw)


def _svd(A, **kw):
    return _resolved(tuple(torch.linalg.svd(A, **kw)))


def _svdvals(A):
    return torch.linalg.svdvals(A)


def _gauged(entry, gauge):
    """Marks a case "check": "identity" and its outputs that are unique only
    up to a gauge (golden-format.md)."""
    if entry is not None and "outputs" in entry:
        entry["check"] = "identity"
        for i in gauge:
            entry["outputs"][i]["gauge"] = True


def spectral(b):
    for dt in DTYPES:
        s = SHORT[dt]
        for shape in ((4, 4), (5, 3), (3, 5), (2, 3, 3)):
            tag = "x".join(map(str, shape))
            b.case("linalg_svdvals", f"{s}_{tag}", _svdvals,
                   {"A": general(f"svals{s}{tag}", shape, dt)}, tol=TOL)
            for full in (False, True):
                e = b.case("linalg_svd", f"{s}_{tag}{'_full' if full else ''}", _svd,
                           {"A": general(f"svd{s}{tag}{full}", shape, dt)},
                           {"full_matrices": full}, tol=TOL)
                _gauged(e, (0, 2))
            for mode in ("reduced", "complete", "r"):
                e = b.case("linalg_qr", f"{s}_{tag}_{mode}", _qr,
                           {"A": general(f"qr{s}{tag}{mode}", shape, dt)}, {"mode": mode},
                           tol=TOL)
                _gauged(e, (0, 1) if mode != "r" else (1,))
        for uplo in ("L", "U"):
            b.case("linalg_eigvalsh", f"{s}_{uplo}", _eigvalsh,
                   {"A": spd(f"evh{s}{uplo}", (2, 4, 4), dt)}, {"UPLO": uplo}, tol=TOL)
            e = b.case("linalg_eigh", f"{s}_{uplo}", _eigh,
                       {"A": spd(f"eh{s}{uplo}", (2, 4, 4), dt)}, {"UPLO": uplo}, tol=TOL)
            _gauged(e, (1,))
    b.case("linalg_eigvalsh", "f64_indefinite", _eigvalsh,
           {"A": exact((3, 3), F64, [2.0, -1.0, 0.0, -1.0, 2.0, -1.0, 0.0, -1.0, -3.0])}, tol=TOL)
    b.case("linalg_eigvalsh", "f64_reads_one_triangle", _eigvalsh,
           {"A": exact((2, 2), F64, [2.0, 7.0, 1.0, 3.0])}, {"UPLO": "U"}, tol=TOL)
    b.case("linalg_svdvals", "f64_rank_deficient", _svdvals,
           {"A": exact((3, 3), F64, [1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 1.0, 0.0, 1.0])}, tol=TOL)
    b.case("linalg_svdvals", "f64_large_20x18", _svdvals, {"A": general("sv2018", (20, 18), F64)},
           tol=TOL)
    b.case("linalg_svdvals", "f64_empty_batch", _svdvals, {"A": T((0, 3, 2), F64)})
    b.case("linalg_eigvalsh", "bad_uplo_error", _eigvalsh, {"A": T((2, 2), F64)},
           {"UPLO": "X"}, expect="error")
    b.case("linalg_qr", "bad_mode_error", _qr, {"A": T((2, 2), F64)}, {"mode": "x"},
           expect="error")
    b.case("linalg_svdvals", "int_error", _svdvals, {"A": T((2, 2), "int64")}, expect="error")


def _matrix_norm(A, **kw):
    return torch.linalg.matrix_norm(A, **kw)


def _cond(A, **kw):
    return torch.linalg.cond(A, **kw)


def _matrix_rank(A, **kw):
    return torch.linalg.matrix_rank(A, **kw)


def _pinv(A, **kw):
    return torch.linalg.pinv(A, **kw)


def _pinverse(input, **kw):
    return torch.pinverse(input, **kw)


# torch's values of these differ in their last bits when computed with the
# singular vectors (as under autograd), which its generator check refuses.
SVD_ORDERS = ("nuc", 2, -2)


def norms(b):
    inf = float("inf")
    orders = ["fro", "nuc", 1, -1, 2, -2, inf, -inf]
    for dt in DTYPES:
        s = SHORT[dt]
        for ord_ in orders:
            b.case("linalg_matrix_norm", f"{s}_{ord_}", _matrix_norm,
                   {"A": general(f"mn{s}{ord_}", (2, 3, 4), dt)}, {"ord": ord_}, tol=TOL,
                   grad=["A"] if dt == F64 and ord_ not in SVD_ORDERS else None)
        b.case("linalg_cond", f"{s}_default", _cond, {"A": general(f"cd{s}", (2, 3, 3), dt)},
               tol=TOL)
        b.case("linalg_matrix_rank", f"{s}", _matrix_rank,
               {"A": general(f"mr{s}", (2, 4, 3), dt)}, tol=TOL)
        b.case("linalg_svdvals", f"{s}_batched_wide", _svdvals,
               {"A": general(f"svg{s}", (2, 3, 4), dt)}, tol=TOL)
        b.case("linalg_eigvalsh", f"{s}_batched", _eigvalsh,
               {"A": spd(f"evg{s}", (2, 3, 3), dt)}, tol=TOL)
    for ord_ in ("fro", "nuc", 1, -inf, 2):
        b.case("linalg_matrix_norm", f"f64_dims_keepdim_{ord_}", _matrix_norm,
               {"A": general(f"mnd{ord_}", (3, 2, 4), F64)},
               {"ord": ord_, "dim": [0, 2], "keepdim": True}, tol=TOL)
        b.case("linalg_cond", f"f64_{ord_}", _cond, {"A": general(f"cdp{ord_}", (3, 3), F64)},
               {"p": ord_}, tol=TOL)  # torch 1.13's cond backward fails (an in-place inv)
    b.case("linalg_cond", "f64_minus_2", _cond, {"A": general("cdm2", (3, 4), F64)}, {"p": -2},
           tol=TOL)
    b.case("linalg_matrix_norm", "bad_order_error", _matrix_norm, {"A": T((2, 2), F64)},
           {"ord": 3}, expect="error")
    b.case("linalg_matrix_norm", "vector_error", _matrix_norm, {"A": T((3,), F64)},
           expect="error")
    rank2 = [1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    b.case("linalg_matrix_rank", "f64_rank_2", _matrix_rank, {"A": exact((4, 3), F64, rank2)})
    b.case("linalg_matrix_rank", "f64_atol", _matrix_rank,
           {"A": exact((2, 2), F64, [1.0, 0.0, 0.0, 1e-3])}, {"atol": 1e-2})
    b.case("linalg_matrix_rank", "f64_hermitian", _matrix_rank,
           {"A": exact((3, 3), F64, [2.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0])},
           {"hermitian": True})
    for dt in (F32, F64):
        s = SHORT[dt]
        for shape in ((3, 3), (4, 2), (2, 4), (2, 3, 3)):
            tag = "x".join(map(str, shape))
            b.case("linalg_pinv", f"{s}_{tag}", _pinv, {"A": general(f"pv{s}{tag}", shape, dt)},
                   tol=TOL)
        b.case("linalg_pinv", f"{s}_hermitian", _pinv, {"A": spd(f"pvh{s}", (3, 3), dt)},
               {"hermitian": True}, tol=TOL)
        b.case("pinverse", f"{s}", _pinverse, {"input": general(f"pvo{s}", (3, 2), dt)}, tol=TOL)
    b.case("linalg_pinv", "f64_rank_deficient", _pinv, {"A": exact((4, 3), F64, rank2)}, tol=TOL)
    b.case("linalg_pinv", "f64_rtol", _pinv, {"A": exact((2, 2), F64, [1.0, 0.0, 0.0, 1e-3])},
           {"rtol": 1e-2}, tol=TOL)


def _matrix_exp(A):
    return torch.linalg.matrix_exp(A)


def _matrix_exp_old(input):
    return torch.matrix_exp(input)


def matrix_exp(b):
    for dt in DTYPES:
        s = SHORT[dt]
        b.case("linalg_matrix_exp", f"{s}", _matrix_exp, {"A": rhs(f"me{s}", (3, 3), dt)},
               tol=TOL, grad=["A"] if dt == F64 else None)
        b.case("linalg_matrix_exp", f"{s}_batched_large_norm", _matrix_exp,
               {"A": general(f"meb{s}", (2, 4, 4), dt, shift=3.0)}, tol=TOL)
    b.case("matrix_exp", "f64", _matrix_exp_old, {"input": rhs("meo", (3, 3), F64)}, tol=TOL)
    b.case("linalg_matrix_exp", "f64_zero", _matrix_exp, {"A": T((2, 2), F64, values=[0.0] * 4)})
    b.case("linalg_matrix_exp", "f64_empty", _matrix_exp, {"A": T((0, 3, 3), F64)})
    b.case("linalg_matrix_exp", "not_square_error", _matrix_exp, {"A": T((2, 3), F64)},
           expect="error")


def _norm(A, **kw):
    return torch.linalg.norm(A, **kw)


def _tensorinv(A, **kw):
    return torch.linalg.tensorinv(A, **kw)


def _tensorsolve(A, B, **kw):
    return torch.linalg.tensorsolve(A, B, **kw)


def _householder_product(A, tau):
    return torch.linalg.householder_product(A, tau)


def tensor_ops(b):
    inf = float("inf")
    for dt in (F32, F64, C128):
        s = SHORT[dt]
        b.case("linalg_norm", f"{s}_default", _norm, {"A": rhs(f"nd{s}", (2, 3, 4), dt)}, tol=TOL)
        b.case("linalg_norm", f"{s}_vector_3", _norm, {"A": rhs(f"nv{s}", (5,), dt)}, {"ord": 3},
               tol=TOL)
        b.case("linalg_norm", f"{s}_matrix_nuc", _norm, {"A": general(f"nn{s}", (3, 4), dt)},
               {"ord": "nuc"}, tol=TOL)
        b.case("linalg_norm", f"{s}_matrix_inf", _norm, {"A": general(f"ni{s}", (3, 4), dt)},
               {"ord": inf}, tol=TOL)
        b.case("linalg_norm", f"{s}_dims", _norm, {"A": rhs(f"ndm{s}", (2, 3, 4), dt)},
               {"ord": 1, "dim": [0, 2], "keepdim": True}, tol=TOL)
        b.case("linalg_norm", f"{s}_one_dim", _norm, {"A": rhs(f"nod{s}", (2, 3, 4), dt)},
               {"dim": 1}, tol=TOL, grad=["A"] if dt == F64 else None)
        b.case("linalg_tensorinv", f"{s}", _tensorinv,
               {"A": general(f"ti{s}", (6, 6), dt, shift=4.0)}, {"ind": 1}, tol=TOL)
    a64 = general("ti4", (6, 6), F64, shift=4.0)
    b.case("linalg_tensorinv", "f64_4d", _tensorinv,
           {"A": T((2, 3, 6), F64, values=a64.values)}, {"ind": 2}, tol=TOL, grad=["A"])
    b.case("linalg_tensorinv", "ind_error", _tensorinv, {"A": T((2, 3, 6), F64)}, {"ind": 1},
           expect="error")
    b.case("linalg_tensorsolve", "f64", _tensorsolve,
           {"A": T((2, 3, 6), F64, values=a64.values), "B": rhs("tsb", (2, 3), F64)}, tol=TOL,
           grad=["A", "B"])
    b.case("linalg_tensorsolve", "f64_dims", _tensorsolve,
           {"A": T((6, 2, 3), F64, values=a64.values), "B": rhs("tsdb", (2, 3), F64)},
           {"dims": [0]}, tol=TOL)
    for dt in (F32, F64):
        s = SHORT[dt]
        for shape, k in (((4, 3), 3), ((5, 3), 2), ((2, 4, 4), 4)):
            tag = "x".join(map(str, shape))
            tau = rhs(f"hpt{s}{tag}", shape[:-2] + (k,), dt)
            b.case("linalg_householder_product", f"{s}_{tag}_k{k}", _householder_product,
                   {"A": rhs(f"hp{s}{tag}", shape, dt), "tau": tau}, tol=TOL,
                   grad=["A", "tau"] if dt == F64 else None)
    b.case("linalg_householder_product", "wide_error", _householder_product,
           {"A": T((3, 4), F64), "tau": T((3,), F64)}, expect="error")


def _ormqr(input, input2, input3, **kw):
    return torch.ormqr(input, input2, input3, **kw)


def ormqr(b):
    for dt in (F32, F64):
        s = SHORT[dt]
        for left in (True, False):
            for transpose in (False, True):
                tag = f"{'left' if left else 'right'}{'_t' if transpose else ''}"
                cshape = (4, 2) if left else (2, 4)
                b.case("ormqr", f"{s}_{tag}", _ormqr,
                       {"input": rhs(f"om{s}{tag}", (4, 3), dt),
                        "input2": rhs(f"omt{s}{tag}", (3,), dt),
                        "input3": rhs(f"omc{s}{tag}", cshape, dt)},
                       {"left": left, "transpose": transpose}, tol=TOL)
    # (no grad entries: torch 1.13 has no ormqr derivative)
    b.case("ormqr", "f64_batched", _ormqr,
           {"input": rhs("omb", (2, 3, 3), F64), "input2": rhs("ombt", (2, 2), F64),
            "input3": rhs("ombc", (2, 3, 4), F64)}, tol=TOL)


def _geqrf(input):
    return tuple(torch.geqrf(input))


def geqrf(b):
    """geqrf's layout is LAPACK's: the same reflectors (v_j = 1, beta of the
    sign opposite alpha's) on every backend, so values compare directly."""
    for dt in DTYPES:
        s = SHORT[dt]
        for shape in ((4, 3), (3, 4), (2, 3, 3)):
            tag = "x".join(map(str, shape))
            b.case("geqrf", f"{s}_{tag}", _geqrf, {"input": general(f"gq{s}{tag}", shape, dt)},
                   tol=TOL)
    b.case("geqrf", "f64_empty", _geqrf, {"input": T((0, 3, 2), F64)})


def _lstsq(A, B, **kw):
    return tuple(torch.linalg.lstsq(A, B, **kw))


def lstsq(b):
    """Full-rank systems, where every driver gives the minimum-norm solution."""
    for dt in (F32, F64):
        s = SHORT[dt]
        for driver in (None, "gelsd", "gelss", "gels"):
            for shape in ((5, 3), (2, 4, 4)):
                tag = "x".join(map(str, shape))
                args = {"driver": driver} if driver else {}
                bshape = shape[:-1] + (2,)
                b.case("linalg_lstsq", f"{s}_{driver or 'default'}_{tag}", _lstsq,
                       {"A": general(f"ls{s}{driver}{tag}", shape, dt),
                        "B": rhs(f"lsb{s}{driver}{tag}", bshape, dt)}, args, tol=TOL)
    b.case("linalg_lstsq", "bad_driver_error", _lstsq, {"A": T((3, 2), F64), "B": T((3, 1), F64)},
           {"driver": "nope"}, expect="error")


def _eig(A):
    return _resolved(tuple(torch.linalg.eig(A)))


def _eigvals(A):
    return torch.linalg.eigvals(A)


def eig(b):
    """The eigenvalues' order is each backend's own: eigvals compares them as
    a multiset ("check": "identity" with no gauge output), eig as well and
    its vectors through A V = V diag(L)."""
    for dt in DTYPES:
        s = SHORT[dt]
        for shape in ((4, 4), (2, 3, 3)):
            tag = "x".join(map(str, shape))
            e = b.case("linalg_eig", f"{s}_{tag}", _eig, {"A": rhs(f"eg{s}{tag}", shape, dt)},
                       tol=TOL)
            _gauged(e, (1,))
            e = b.case("linalg_eigvals", f"{s}_{tag}", _eigvals,
                       {"A": rhs(f"egv{s}{tag}", shape, dt)}, tol=TOL)
            _gauged(e, ())
    e = b.case("linalg_eig", "f64_rotation", _eig,
               {"A": exact((2, 2), F64, [0.0, -1.0, 1.0, 0.0])}, tol=TOL)
    _gauged(e, (1,))
    b.case("linalg_eig", "not_square_error", _eig, {"A": T((2, 3), F64)}, expect="error")
