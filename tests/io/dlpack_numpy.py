"""tessera's DLPack against NumPy's importer (np.from_dlpack) and, with
--torch, PyTorch's (torch.utils.dlpack), both ways, through ctypes.

    dlpack_numpy.py LIBTESSERA [--torch]

Checks values, dtypes and that no copy was made (a write on one side is
seen on the other). With --torch and no torch importable it prints why and
exits 77 (the CTest's SKIP_RETURN_CODE)."""
import ctypes as C
import sys

LIB = C.CDLL(sys.argv[1])
TORCH = "--torch" in sys.argv[2:]

if TORCH:
    try:
        import torch
        import torch.utils.dlpack
    except ImportError as e:
        print(f"SKIP: torch is not importable by {sys.executable}: {e}")
        sys.exit(77)
import numpy as np


class DLDevice(C.Structure):
    _fields_ = [("device_type", C.c_int), ("device_id", C.c_int)]


class DLDataType(C.Structure):
    _fields_ = [("code", C.c_uint8), ("bits", C.c_uint8), ("lanes", C.c_uint16)]


class DLTensor(C.Structure):
    _fields_ = [("data", C.c_void_p), ("device", DLDevice), ("ndim", C.c_int),
                ("dtype", DLDataType), ("shape", C.POINTER(C.c_int64)),
                ("strides", C.POINTER(C.c_int64)), ("byte_offset", C.c_uint64)]


class DLManagedTensor(C.Structure):
    pass


DELETER = C.CFUNCTYPE(None, C.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", C.c_void_p),
                            ("deleter", DELETER)]

API = C.pythonapi
API.PyCapsule_New.restype = C.py_object
API.PyCapsule_New.argtypes = [C.c_void_p, C.c_char_p, C.c_void_p]
API.PyCapsule_GetPointer.restype = C.c_void_p
API.PyCapsule_GetPointer.argtypes = [C.py_object, C.c_char_p]
API.PyCapsule_SetName.restype = C.c_int
API.PyCapsule_SetName.argtypes = [C.py_object, C.c_char_p]
API.PyCapsule_IsValid.restype = C.c_int
API.PyCapsule_IsValid.argtypes = [C.c_void_p, C.c_char_p]
API.PyCapsule_GetPointer.restype = C.c_void_p
NAME, USED = b"dltensor", b"used_dltensor"

LIB.tsr_last_error.restype = C.c_char_p
LIB.tsr_tensor_release.argtypes = [C.c_void_p]
LIB.tsr_tensor_numel.restype = C.c_int64
LIB.tsr_tensor_numel.argtypes = [C.c_void_p]
LIB.tsr_tensor_dtype.argtypes = [C.c_void_p]
LIB.tsr_dtype_size.restype = C.c_size_t
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print(f"FAIL: {what}")


def ok(status, call):
    if status != 0:
        raise RuntimeError(f"{call}: {LIB.tsr_last_error().decode()}")


def dtype_id(name):
    out = C.c_int()
    ok(LIB.tsr_dtype_from_name(name.encode(), C.byref(out)), "dtype_from_name")
    return out.value


# Unconsumed capsules delete their managed tensor, as the protocol asks.
@C.CFUNCTYPE(None, C.c_void_p)
def capsule_destructor(capsule):
    if API.PyCapsule_IsValid(capsule, NAME):
        m = C.cast(API.PyCapsule_GetPointer(C.cast(capsule, C.py_object), NAME),
                   C.POINTER(DLManagedTensor))
        m.contents.deleter(m)


class Exported:
    """A tessera tensor seen through the DLPack protocol."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        m = C.c_void_p()
        ok(LIB.tsr_to_dlpack(C.c_void_p(self.tensor), C.byref(m)), "tsr_to_dlpack")
        return API.PyCapsule_New(m, NAME, C.cast(capsule_destructor, C.c_void_p))

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def tensor_from(array, dtype_name):
    array = np.ascontiguousarray(array)
    shape = (C.c_int64 * max(array.ndim, 1))(*array.shape)
    t = C.c_void_p()
    ok(LIB.tsr_from_host(C.c_void_p(array.ctypes.data), C.c_size_t(array.nbytes), array.ndim,
                         shape, dtype_id(dtype_name), None, C.byref(t)), "tsr_from_host")
    return t.value


def to_numpy_copy(t, np_dtype, shape):
    out = np.zeros(shape, dtype=np_dtype)
    ok(LIB.tsr_to_host(C.c_void_p(t), C.c_void_p(out.ctypes.data), C.c_size_t(out.nbytes)),
       "tsr_to_host")
    return out


def overwrite(t, array, dtype_name):
    """Writes `array` into tensor t with tessera's own copy_."""
    src = tensor_from(array, dtype_name)
    ok(LIB.tsr_copy_(C.c_void_p(t), C.c_void_p(src)), "tsr_copy_")
    LIB.tsr_tensor_release(src)


def import_capsule(capsule):
    """A tessera tensor over a producer's capsule, consuming it."""
    m = API.PyCapsule_GetPointer(capsule, NAME)
    t = C.c_void_p()
    ok(LIB.tsr_from_dlpack(C.c_void_p(m), None, C.byref(t)), "tsr_from_dlpack")
    API.PyCapsule_SetName(capsule, USED)
    return t.value


NUMPY_DTYPES = ["float32", "float64", "float16", "int8", "int16", "int32", "int64", "uint8",
                "complex64", "complex128"]


def numpy_imports_every_dtype():
    for name in NUMPY_DTYPES:
        a = (np.arange(6) - 2).astype(name).reshape(2, 3)
        t = tensor_from(a, name)
        b = np.from_dlpack(Exported(t))
        check(b.dtype == a.dtype and np.array_equal(b, a), f"numpy {name}: {b!r} != {a!r}")
        overwrite(t, a + 1, name)
        check(np.array_equal(b, a + 1), f"numpy {name}: a write through tessera is not seen")
        LIB.tsr_tensor_release(C.c_void_p(t))
        del b


def numpy_imports_views_and_bool():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = tensor_from(a, "float32")
    n, v = C.c_void_p(), C.c_void_p()
    ok(LIB.tsr_narrow(C.c_void_p(t), C.c_int64(1), C.c_int64(1), C.c_int64(2), C.byref(n)),
       "narrow")
    ok(LIB.tsr_transpose(n, C.c_int64(0), C.c_int64(1), C.byref(v)), "transpose")
    b = np.from_dlpack(Exported(v.value))
    check(np.array_equal(b, a[:, 1:3].T), f"numpy view: {b!r}")
    overwrite(t, np.zeros((3, 4), np.float32), "float32")
    check(not b.any(), "numpy view: a write through tessera is not seen")
    for x in (t, n.value, v.value):
        LIB.tsr_tensor_release(C.c_void_p(x))
    flags = np.array([True, False, True])
    t = tensor_from(flags, "bool")
    b = np.from_dlpack(Exported(t))  # kDLUInt 8, as PyTorch 1.13 exports bool
    check(b.dtype == np.uint8 and list(b) == [1, 0, 1], f"numpy bool: {b!r}")
    LIB.tsr_tensor_release(C.c_void_p(t))


def tessera_imports_numpy():
    base = np.arange(12, dtype=np.int32).reshape(3, 4)
    a = base[:, 1:3]  # strided, offset
    t = import_capsule(a.__dlpack__())
    check(np.array_equal(to_numpy_copy(t, np.int32, (3, 2)), a), "tessera from numpy: values")
    a[2, 1] = -7
    check(to_numpy_copy(t, np.int32, (3, 2))[2, 1] == -7,
          "tessera from numpy: a write through numpy is not seen")
    LIB.tsr_tensor_release(C.c_void_p(t))


def torch_both_ways():
    for name, tdtype in [("float32", torch.float32), ("bfloat16", torch.bfloat16),
                         ("complex64", torch.complex64), ("int64", torch.int64),
                         ("float16", torch.float16)]:
        x = (torch.arange(6) - 2).to(tdtype).reshape(2, 3)
        t = import_capsule(torch.utils.dlpack.to_dlpack(x))
        y = torch.utils.dlpack.from_dlpack(Exported(t))
        check(y.dtype == tdtype and torch.equal(x, y), f"torch {name}: {y!r} != {x!r}")
        x.add_(1)
        check(torch.equal(x, y), f"torch {name}: the round trip copied")
        LIB.tsr_tensor_release(C.c_void_p(t))
        del y
    t = tensor_from(np.array([True, False]), "bool")
    y = torch.utils.dlpack.from_dlpack(Exported(t))
    check(y.dtype == torch.uint8 and y.tolist() == [1, 0], f"torch bool: {y!r}")
    LIB.tsr_tensor_release(C.c_void_p(t))


if TORCH:
    torch_both_ways()
else:
    numpy_imports_every_dtype()
    numpy_imports_views_and_bool()
    tessera_imports_numpy()
print(f"dlpack_numpy{' --torch' if TORCH else ''}: {failures} failure(s)")
sys.exit(1 if failures else 0)
