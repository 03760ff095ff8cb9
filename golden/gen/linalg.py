"""Linear algebra: Cholesky, LU, triangular and general solves, inverses and
determinants (torch.linalg names as linalg_<name>, and the older forms).

Matrices are drawn here, not by the framework: positive-definite ones as
M M^H + n I, triangular ones with a dominant diagonal, general ones with
a shifted diagonal, so every solve is well conditioned and float32 cases
compare at float32's tolerance. Singular and not-positive-definite inputs
are written out exactly."""

import hashlib

import numpy as np
import torch

from .framework import SHORT, T

F32, F64, C64, C128 = "float32", "float64", "complex64", "complex128"
DTYPES = (F32, F64, C64, C128)
TOL = {F32: (1e-4, 1e-4), C64: (1e-4, 1e-4), F64: (1e-10, 1e-10), C128: (1e-10, 1e-10)}


def _rng(name):
    digest = hashlib.sha256(f"linalg/{name}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _values(a):
    return [complex(v) if np.iscomplexobj(a) else float(v) for v in np.asarray(a).reshape(-1)]


def _draw(rng, shape, dt):
    a = rng.standard_normal(shape)
    if dt in (C64, C128):
        a = a + 1j * rng.standard_normal(shape)
    return a


def spd(name, shape, dt, view=()):
    """Hermitian positive-definite matrices of shape (..., n, n)."""
    n = shape[-1]
    m = _draw(_rng(name), shape, dt)
    a = m @ np.conj(np.swapaxes(m, -1, -2)) + n * np.eye(n)
    return T(shape, dt, values=_values(a), view=view)


def general(name, shape, dt, view=(), shift=2.0):
    """Matrices with a shifted diagonal (well conditioned when square)."""
    a = _draw(_rng(name), shape, dt)
    k = min(shape[-2], shape[-1])
    a[..., range(k), range(k)] += shift
    return T(shape, dt, values=_values(a), view=view)


def triangular(name, shape, dt, upper, view=(), real_diagonal=False):
    a = _draw(_rng(name), shape, dt) * 0.5
    n = shape[-1]
    if real_diagonal:  # a Cholesky factor's: LAPACK's potri reads only its real part
        a[..., range(n), range(n)] = a[..., range(n), range(n)].real
    a[..., range(n), range(n)] += 3.0
    a = np.triu(a) if upper else np.tril(a)
    return T(shape, dt, values=_values(a), view=view)


def rhs(name, shape, dt, view=()):
    return T(shape, dt, values=_values(_draw(_rng(name), shape, dt)), view=view)


def exact(shape, dt, vals):
    return T(shape, dt, values=vals)


# ---- torch callables ------------------------------------------------------
# Results are resolved: torch returns some as conjugated views (upper
# Cholesky factors, adjoint solves), which have no plain .npy form.

def _resolved(result):
    if isinstance(result, tuple):
        return tuple(t.resolve_conj() for t in result)
    return result.resolve_conj()


def _cholesky(A, **kw):
    return _resolved(torch.linalg.cholesky(A, **kw))


def _cholesky_ex(A, **kw):
    return _resolved(tuple(torch.linalg.cholesky_ex(A, **kw)))


def _cholesky_old(input, **kw):
    return _resolved(torch.cholesky(input, **kw))


def _cholesky_solve(input, input2, **kw):
    return _resolved(torch.cholesky_solve(input, input2, **kw))


def _cholesky_inverse(input, **kw):
    return _resolved(torch.cholesky_inverse(input, **kw))


def _solve_triangular(A, B, **kw):
    return _resolved(torch.linalg.solve_triangular(A, B, **kw))


def _triangular_solve(input, A, **kw):
    return _resolved(tuple(torch.triangular_solve(input, A, **kw)))


def _lu_factor(A, **kw):
    return _resolved(tuple(torch.linalg.lu_factor(A, **kw)))


def _lu_factor_ex(A, **kw):
    return _resolved(tuple(torch.linalg.lu_factor_ex(A, **kw)))


def _lu(A, **kw):
    return _resolved(tuple(torch.linalg.lu(A, **kw)))


def _lu_unpack(LU_data, LU_pivots, **kw):
    return _resolved(tuple(torch.lu_unpack(LU_data, LU_pivots, **kw)))


def _lu_solve(LU, pivots, B, **kw):
    return _resolved(torch.linalg.lu_solve(LU, pivots, B, **kw))


def _lu_solve_old(input, LU_data, LU_pivots):
    return _resolved(torch.lu_solve(input, LU_data, LU_pivots))


def _solve(A, B, **kw):
    return _resolved(torch.linalg.solve(A, B, **kw))


def _solve_ex(A, B, **kw):
    return _resolved(tuple(torch.linalg.solve_ex(A, B, **kw)))


def _inv(A):
    return _resolved(torch.linalg.inv(A))


def _inv_ex(A, **kw):
    return _resolved(tuple(torch.linalg.inv_ex(A, **kw)))


def _det(A):
    return _resolved(torch.linalg.det(A))


def _slogdet(A):
    return _resolved(tuple(torch.linalg.slogdet(A)))


def _logdet(input):
    return _resolved(torch.logdet(input))


def _grad(dt):
    return ["A"] if dt == F64 else None


# ---- cases -----------------------------------------------------------------

def cholesky(b):
    for dt in DTYPES:
        s = SHORT[dt]
        for upper in (False, True):
            tag = "upper" if upper else "lower"
            for op, fn, arg in (("linalg_cholesky", _cholesky, "A"),
                                ("linalg_cholesky_ex", _cholesky_ex, "A")):
                b.case(op, f"{s}_{tag}", fn, {arg: spd(f"{op}{s}{tag}", (4, 4), dt)},
                       {"upper": upper}, tol=TOL, grad=["A"] if dt == F64 else None)
            b.case("linalg_cholesky", f"{s}_{tag}_batched", _cholesky,
                   {"A": spd(f"chb{s}{tag}", (2, 3, 3, 3), dt)}, {"upper": upper}, tol=TOL)
        b.case("cholesky", f"{s}_lower", _cholesky_old, {"input": spd(f"cho{s}", (3, 3), dt)},
               tol=TOL)
        b.case("cholesky", f"{s}_upper", _cholesky_old, {"input": spd(f"chu{s}", (3, 3), dt)},
               {"upper": True}, tol=TOL)
    b.case("linalg_cholesky", "f64_transposed_view", _cholesky,
           {"A": spd("chtv", (2, 4, 4), F64, view=["transpose:1:2"])}, tol=TOL)
    b.case("linalg_cholesky", "f64_stepped_view", _cholesky,
           {"A": spd("chsv", (3, 3, 3), F64, view=["slice:0:0:3:2"])}, tol=TOL)
    b.case("linalg_cholesky", "f32_empty_batch", _cholesky, {"A": T((0, 3, 3), F32)})
    b.case("linalg_cholesky", "f64_0x0", _cholesky, {"A": T((2, 0, 0), F64)})
    b.case("linalg_cholesky", "f64_large_16", _cholesky, {"A": spd("ch16", (17, 17), F64)},
           tol=TOL)
    b.case("linalg_cholesky", "f32_large_40", _cholesky, {"A": spd("ch40", (40, 40), F32)},
           tol={F32: (1e-4, 1e-3)})
    b.case("linalg_cholesky", "grad_f64_batched_upper", _cholesky,
           {"A": spd("chgb", (2, 3, 3), F64)}, {"upper": True}, grad=["A"], tol=TOL)
    not_pd = [1.0, 2.0, 2.0, 1.0]
    b.case("linalg_cholesky", "not_positive_definite_error", _cholesky,
           {"A": exact((2, 2), F64, not_pd)}, expect="error")
    b.case("linalg_cholesky", "batched_not_positive_definite_error", _cholesky,
           {"A": exact((2, 2, 2), F64, [1.0, 0.0, 0.0, 1.0] + not_pd)}, expect="error")
    b.case("cholesky", "not_positive_definite_error", _cholesky_old,
           {"input": exact((2, 2), F32, not_pd)}, expect="error")
    # info at the first and at the last minor: L is then the same whatever
    # order the factorisation takes its columns in.
    b.case("linalg_cholesky_ex", "f64_fails_at_last_minor", _cholesky_ex,
           {"A": exact((2, 2), F64, not_pd)}, tol=TOL)
    b.case("linalg_cholesky_ex", "f32_fails_at_first_minor", _cholesky_ex,
           {"A": exact((3, 3), F32, [-1.0, 2.0, 3.0, 2.0, 5.0, 1.0, 3.0, 1.0, 6.0])}, tol=TOL)
    b.case("linalg_cholesky_ex", "f64_nan_fails", _cholesky_ex,
           {"A": exact((2, 2), F64, ["nan", 0.0, 0.0, 1.0])}, tol=TOL)
    b.case("linalg_cholesky_ex", "batched_info", _cholesky_ex,
           {"A": exact((2, 2, 2), F64, [4.0, 2.0, 2.0, 5.0] + not_pd)}, tol=TOL)
    b.case("linalg_cholesky_ex", "check_errors_error", _cholesky_ex,
           {"A": exact((2, 2), F64, not_pd)}, {"check_errors": True}, expect="error")
    b.case("linalg_cholesky", "not_square_error", _cholesky, {"A": T((2, 3), F64)},
           expect="error")
    b.case("linalg_cholesky", "vector_error", _cholesky, {"A": T((3,), F64)}, expect="error")
    b.case("linalg_cholesky", "int_error", _cholesky, {"A": T((2, 2), "int64")}, expect="error")
    b.case("linalg_cholesky", "half_error", _cholesky, {"A": T((2, 2), "float16")},
           expect="error")
    for dt in DTYPES:
        s = SHORT[dt]
        for upper in (False, True):
            tag = "upper" if upper else "lower"
            factor = triangular(f"cs{s}{tag}", (3, 3), dt, upper)
            b.case("cholesky_solve", f"{s}_{tag}", _cholesky_solve,
                   {"input": rhs(f"csb{s}{tag}", (3, 2), dt), "input2": factor},
                   {"upper": upper}, tol=TOL,
                   grad=["input", "input2"] if dt == F64 else None)
            b.case("cholesky_inverse", f"{s}_{tag}", _cholesky_inverse,
                   {"input": triangular(f"ci{s}{tag}", (3, 3), dt, upper, real_diagonal=True)}, {"upper": upper},
                   tol=TOL, grad=["input"] if dt == F64 else None)
    b.case("cholesky_solve", "f64_broadcast_batch", _cholesky_solve,
           {"input": rhs("csbb", (2, 3, 2), F64), "input2": triangular("csbl", (3, 3), F64,
                                                                         False)}, tol=TOL)
    b.case("cholesky_solve", "dtype_mismatch_error", _cholesky_solve,
           {"input": T((3, 2), F32), "input2": triangular("csdm", (3, 3), F64, False)},
           expect="error")


def solve_triangular(b):
    for dt in DTYPES:
        s = SHORT[dt]
        for upper in (False, True):
            for left in (True, False):
                for unit in (False, True):
                    tag = (f"{'upper' if upper else 'lower'}_{'left' if left else 'right'}"
                           f"{'_unit' if unit else ''}")
                    bshape = (3, 2) if left else (2, 3)
                    b.case("linalg_solve_triangular", f"{s}_{tag}", _solve_triangular,
                           {"A": triangular(f"st{s}{tag}", (3, 3), dt, upper),
                            "B": rhs(f"stb{s}{tag}", bshape, dt)},
                           {"upper": upper, "left": left, "unitriangular": unit}, tol=TOL,
                           grad=["A", "B"] if dt == F64 else None)
        for upper in (False, True):
            for transpose in (False, True):
                tag = f"{'upper' if upper else 'lower'}{'_transpose' if transpose else ''}"
                b.case("triangular_solve", f"{s}_{tag}", _triangular_solve,
                       {"input": rhs(f"tsb{s}{tag}", (3, 2), dt),
                        "A": triangular(f"ts{s}{tag}", (3, 3), dt, upper)},
                       {"upper": upper, "transpose": transpose}, tol=TOL,
                       grad=["input", "A"] if dt == F64 else None)
    b.case("linalg_solve_triangular", "f64_broadcast_batch", _solve_triangular,
           {"A": triangular("stbb", (2, 1, 3, 3), F64, True), "B": rhs("stbbb", (4, 3, 2), F64)},
           {"upper": True}, tol=TOL, grad=["A", "B"])
    b.case("linalg_solve_triangular", "f64_transposed_views", _solve_triangular,
           {"A": triangular("sttv", (3, 3), F64, True, view=["transpose:0:1"]),
            "B": rhs("sttvb", (2, 3), F64, view=["transpose:0:1"])}, {"upper": False}, tol=TOL)
    b.case("linalg_solve_triangular", "f64_zero_diagonal_gives_inf", _solve_triangular,
           {"A": exact((2, 2), F64, [1.0, 0.0, 1.0, 0.0]), "B": exact((2, 1), F64, [1.0, 1.0])},
           {"upper": False})
    b.case("linalg_solve_triangular", "f32_large_20", _solve_triangular,
           {"A": triangular("st20", (20, 20), F32, False), "B": rhs("st20b", (20, 18), F32)},
           {"upper": False}, tol={F32: (1e-4, 1e-4)})
    b.case("linalg_solve_triangular", "f64_empty", _solve_triangular,
           {"A": T((0, 3, 3), F64), "B": T((0, 3, 2), F64)}, {"upper": True})
    b.case("linalg_solve_triangular", "shape_error", _solve_triangular,
           {"A": T((2, 2), F32), "B": T((3, 1), F32)}, {"upper": True}, expect="error")
    b.case("linalg_solve_triangular", "promotes_f32_and_f64", _solve_triangular,
           {"A": triangular("stpr", (2, 2), F64, True), "B": rhs("stprb", (2, 1), F32)},
           {"upper": True}, tol=TOL)
    b.case("triangular_solve", "dtype_mismatch_error", _triangular_solve,
           {"input": T((2, 1), F32), "A": triangular("tsdm", (2, 2), F64, True)},
           expect="error")


def _factor(name, shape, dt):
    a = general(name, shape, dt)
    t = torch.tensor(a.values, dtype=getattr(torch, dt)).reshape(shape)
    lu, piv = torch.linalg.lu_factor(t)
    return (T(shape, dt, values=_values(lu.resolve_conj().numpy())),
            T(tuple(piv.shape), "int32", values=[int(v) for v in piv.reshape(-1)]))


def lu(b):
    singular = [1.0, 2.0, 2.0, 4.0]
    for dt in DTYPES:
        s = SHORT[dt]
        for shape in ((4, 4), (3, 5), (5, 3), (2, 3, 3)):
            tag = "x".join(map(str, shape))
            for op, fn in (("linalg_lu_factor", _lu_factor), ("linalg_lu_factor_ex",
                                                               _lu_factor_ex),
                           ("linalg_lu", _lu)):
                square = shape[-1] == shape[-2]
                b.case(op, f"{s}_{tag}", fn, {"A": general(f"lu{op}{s}{tag}", shape, dt)},
                       tol=TOL,
                       grad=["A"] if dt == F64 and square and op != "linalg_lu" else None)
        lu_t, piv_t = _factor(f"lus{s}", (2, 3, 3), dt)
        b.case("lu_unpack", f"{s}_batched", _lu_unpack, {"LU_data": lu_t, "LU_pivots": piv_t},
               tol=TOL)
        lu_r, piv_r = _factor(f"lur{s}", (3, 5), dt)
        b.case("lu_unpack", f"{s}_wide", _lu_unpack, {"LU_data": lu_r, "LU_pivots": piv_r},
               tol=TOL)
        for left in (True, False):
            for adjoint in (False, True):
                tag = f"{'left' if left else 'right'}{'_adjoint' if adjoint else ''}"
                lu_s, piv_s = _factor(f"lsv{s}{tag}", (3, 3), dt)
                b.case("linalg_lu_solve", f"{s}_{tag}", _lu_solve,
                       {"LU": lu_s, "pivots": piv_s,
                        "B": rhs(f"lsb{s}{tag}", (3, 2) if left else (2, 3), dt)},
                       {"left": left, "adjoint": adjoint}, tol=TOL,
                       grad=["LU", "B"] if dt == F64 else None)
        lu_o, piv_o = _factor(f"lso{s}", (3, 3), dt)
        b.case("lu_solve", f"{s}", _lu_solve_old,
               {"input": rhs(f"lsob{s}", (3, 2), dt), "LU_data": lu_o, "LU_pivots": piv_o},
               tol=TOL)
    lu_b, piv_b = _factor("lsbb", (2, 3, 3), F64)
    b.case("linalg_lu_solve", "f64_broadcast_b", _lu_solve,
           {"LU": lu_b, "pivots": piv_b, "B": rhs("lsbbb", (3, 1), F64)}, tol=TOL)
    b.case("lu_unpack", "f64_no_pivots", _lu_unpack,
           {"LU_data": lu_b, "LU_pivots": piv_b}, {"unpack_pivots": False}, tol=TOL)
    b.case("linalg_lu_factor", "f64_large_20", _lu_factor, {"A": general("lu20", (20, 20), F64)},
           tol=TOL)
    b.case("linalg_lu_factor", "f64_empty_batch", _lu_factor, {"A": T((0, 3, 3), F64)})
    b.case("linalg_lu_factor", "f64_0x0", _lu_factor, {"A": T((2, 0, 0), F64)})
    b.case("linalg_lu_factor", "f64_transposed_view", _lu_factor,
           {"A": general("lutv", (4, 4), F64, view=["transpose:0:1"])}, tol=TOL)
    b.case("linalg_lu_factor", "singular_error", _lu_factor, {"A": exact((2, 2), F64, singular)},
           expect="error")
    b.case("linalg_lu_factor_ex", "f64_singular_info", _lu_factor_ex,
           {"A": exact((2, 2), F64, singular)}, tol=TOL)
    b.case("linalg_lu_factor", "int_error", _lu_factor, {"A": T((2, 2), "int32")},
           expect="error")
    b.case("linalg_lu_factor", "no_pivot_error", _lu_factor, {"A": general("lunp", (2, 2), F64)},
           {"pivot": False}, expect="error")


def solve(b):
    singular = [1.0, 2.0, 2.0, 4.0]
    for dt in DTYPES:
        s = SHORT[dt]
        g = _grad(dt)
        b.case("linalg_solve", f"{s}_matrix", _solve,
               {"A": general(f"sv{s}", (3, 3), dt), "B": rhs(f"svb{s}", (3, 2), dt)}, tol=TOL,
               grad=["A", "B"] if g else None)
        b.case("linalg_solve", f"{s}_vector", _solve,
               {"A": general(f"svv{s}", (3, 3), dt), "B": rhs(f"svvb{s}", (3,), dt)}, tol=TOL)
        b.case("linalg_solve", f"{s}_right", _solve,
               {"A": general(f"svr{s}", (3, 3), dt), "B": rhs(f"svrb{s}", (2, 3), dt)},
               {"left": False}, tol=TOL, grad=["A", "B"] if g else None)
        b.case("linalg_solve_ex", f"{s}_matrix", _solve_ex,
               {"A": general(f"sve{s}", (3, 3), dt), "B": rhs(f"sveb{s}", (3, 2), dt)}, tol=TOL)
        b.case("linalg_inv", f"{s}", _inv, {"A": general(f"inv{s}", (4, 4), dt)}, tol=TOL,
               grad=g)
        b.case("linalg_inv_ex", f"{s}", _inv_ex, {"A": general(f"inve{s}", (3, 3), dt)},
               tol=TOL)
        for op, fn, arg in (("linalg_det", _det, "A"), ("linalg_slogdet", _slogdet, "A"),
                            ("logdet", _logdet, "input")):
            b.case(op, f"{s}", fn, {arg: general(f"{op}{s}", (4, 4), dt)}, tol=TOL,
                   grad=[arg] if dt == F64 else None)
            b.case(op, f"{s}_batched", fn, {arg: general(f"{op}b{s}", (2, 3, 3), dt, shift=0.0)},
                   tol=TOL)
    b.case("linalg_solve", "f64_broadcast_batch", _solve,
           {"A": general("svbb", (2, 1, 3, 3), F64), "B": rhs("svbbb", (4, 3, 2), F64)},
           tol=TOL, grad=["A", "B"])
    b.case("linalg_solve", "f64_batched_vector", _solve,
           {"A": general("svbv", (2, 3, 3), F64), "B": rhs("svbvb", (2, 3), F64)}, tol=TOL)
    b.case("linalg_solve", "f64_transposed_view", _solve,
           {"A": general("svtv", (3, 3), F64, view=["transpose:0:1"]),
            "B": rhs("svtvb", (3, 2), F64)}, tol=TOL)
    b.case("linalg_solve", "f64_large_24", _solve,
           {"A": general("sv24", (24, 24), F64, shift=8.0), "B": rhs("sv24b", (24, 3), F64)},
           tol={F64: (1e-9, 1e-9)})
    b.case("linalg_solve", "singular_error", _solve,
           {"A": exact((2, 2), F64, singular), "B": exact((2, 2), F64, [1.0, 2.0, 2.0, 1.0])},
           expect="error")
    b.case("linalg_solve", "dtype_mismatch_error", _solve,
           {"A": general("svdm", (2, 2), F32), "B": T((2,), F64)}, expect="error")
    b.case("linalg_solve", "shape_error", _solve,
           {"A": general("svse", (2, 2), F64), "B": T((3, 1), F64)}, expect="error")
    b.case("linalg_solve_ex", "f64_singular_info", _solve_ex,
           {"A": exact((2, 2), F64, singular), "B": exact((2, 2), F64, [1.0, 2.0, 2.0, 1.0])})
    b.case("linalg_inv", "f64_batched", _inv, {"A": general("invb", (2, 3, 3), F64)}, tol=TOL,
           grad=["A"])
    b.case("linalg_inv", "f64_0x0", _inv, {"A": T((0, 0), F64)})
    b.case("linalg_inv", "singular_error", _inv, {"A": exact((2, 2), F64, singular)},
           expect="error")
    b.case("linalg_inv", "batched_singular_error", _inv,
           {"A": exact((2, 2, 2), F64, [1.0, 0.0, 0.0, 1.0] + singular)}, expect="error")
    b.case("linalg_inv", "bfloat16_error", _inv, {"A": T((2, 2), "bfloat16")}, expect="error")
    b.case("linalg_inv_ex", "f64_singular_info", _inv_ex, {"A": exact((2, 2), F64, singular)})
    b.case("linalg_det", "f64_singular", _det, {"A": exact((2, 2), F64, singular)})
    b.case("linalg_det", "f64_0x0", _det, {"A": T((0, 0), F64)})
    b.case("linalg_det", "f64_empty_batch", _det, {"A": T((0, 2, 2), F64)})
    b.case("linalg_det", "not_square_error", _det, {"A": T((2, 3), F64)}, expect="error")
    b.case("linalg_slogdet", "f64_singular", _slogdet, {"A": exact((2, 2), F64, singular)})
    b.case("logdet", "f64_negative_det_is_nan", _logdet,
           {"input": exact((2, 2), F64, [0.0, 1.0, 1.0, 0.0])})
    b.case("logdet", "f64_singular_is_minus_inf", _logdet, {"input": exact((2, 2), F64,
                                                                          singular)})

