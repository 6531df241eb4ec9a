"""The hot path from Python to MXImperativeInvokeEx.

Everything here is shaped by per-call cost: C argument buffers are allocated once per thread
and reused (ctypes releases the GIL during a call, so they cannot be shared between threads),
out-parameters are pre-wrapped with byref, and the operator handles used by the NDArray
operators (``a + b``) are looked up once at import into `OPS`.
"""
import ctypes
import threading

from ..base import get_last_ffi_error, lib_function

__all__ = ["NDArrayBase", "imperative_invoke", "invoke_nd_nd", "invoke_nd_scalar", "OPS",
           "set_ndarray_class", "invoke_nd"]

_c_void_p = ctypes.c_void_p
_c_char_p = ctypes.c_char_p
_MAX_IN = 16          # reusable buffer sizes; larger calls allocate
_MAX_PARAMS = 32

_MXImperativeInvokeEx = lib_function("MXImperativeInvokeEx")
_MXNDArrayFree = lib_function("MXNDArrayFree")


class NDArrayBase(object):
    """Owner of one NDArrayHandle (a reference to a shared chunk); frees it when collected."""
    __slots__ = ("handle", "writable", "__weakref__")

    def __init__(self, handle, writable=True):
        if handle is not None and not isinstance(handle, _c_void_p):
            raise TypeError("NDArray handle must be a ctypes.c_void_p, got %s" % type(handle))
        self.handle = handle
        self.writable = writable

    def __del__(self):
        try:
            handle = self.handle
        except AttributeError:       # __init__ never ran to the end
            return
        if handle is not None:
            try:
                _MXNDArrayFree(handle)
            except Exception:  # pylint: disable=broad-except  (interpreter shutdown)
                pass


# The classes results are wrapped in; set by ndarray.py / sparse.py once they exist.
_NDARRAY_CLS = NDArrayBase
_SPARSE_CLS = {}


def set_ndarray_class(cls, sparse_classes=None):
    """Register the Python classes for dense (and stype code -> class for sparse) results."""
    global _NDARRAY_CLS
    _NDARRAY_CLS = cls
    if sparse_classes:
        _SPARSE_CLS.update(sparse_classes)


def _wrap(handle_value, stype):
    if stype == 0 or stype == -1:
        return _NDARRAY_CLS(_c_void_p(handle_value))
    return _SPARSE_CLS.get(stype, _NDARRAY_CLS)(_c_void_p(handle_value))


def _wrap_all(s):
    outp = s.outp
    stypes = s.stypes
    return [_wrap(outp[i], stypes[i]) for i in range(s.nout.value)]


class _Scratch(object):
    """Argument buffers for MXImperativeInvokeEx, one set per thread."""
    __slots__ = ("nout", "nout_ref", "outp", "outp_ref", "outp_addr", "stypes", "stypes_ref",
                 "ins", "outs", "outs_addr", "keys", "vals", "val1")

    def __init__(self):
        self.nout = ctypes.c_int(0)
        self.nout_ref = ctypes.byref(self.nout)
        self.outp = ctypes.POINTER(_c_void_p)()
        self.outp_ref = ctypes.byref(self.outp)
        self.outp_addr = _c_void_p.from_buffer(self.outp)   # writes set the pointer itself
        self.stypes = ctypes.POINTER(ctypes.c_int)()
        self.stypes_ref = ctypes.byref(self.stypes)
        self.ins = (_c_void_p * _MAX_IN)()
        self.outs = (_c_void_p * _MAX_IN)()
        self.outs_addr = ctypes.addressof(self.outs)
        self.keys = (_c_char_p * _MAX_PARAMS)()
        self.vals = (_c_char_p * _MAX_PARAMS)()
        self.val1 = (_c_char_p * 1)()


class _ThreadScratch(threading.local):
    # One threading.local lookup per call, then plain slot accesses (much cheaper).
    def __init__(self):
        super().__init__()
        self.s = _Scratch()


_TLS = _ThreadScratch()
_SCALAR_KEY = (_c_char_p * 1)(b"scalar")
_SCALAR_STR = {}        # scalar -> its param bytes; most programs use a few distinct scalars
_new = object.__new__


def _scalar_bytes(scalar):
    try:
        b = _SCALAR_STR.get(scalar)
    except TypeError:           # unhashable
        b = None
    if b is None:
        b = str(float(scalar)).encode()
        if scalar == 0:         # keep -0.0 and 0.0 apart (equal keys, different results)
            return b
        if len(_SCALAR_STR) > 4096:
            _SCALAR_STR.clear()
        try:
            _SCALAR_STR[scalar] = b
        except TypeError:
            pass
    return b


class _OpHandles(object):
    """Operator handles used by NDArray operators, filled in by register.py at import."""

    def __getattr__(self, name):
        raise AttributeError("operator %r is not registered in this libmxnet" % name)


OPS = _OpHandles()


def imperative_invoke(handle, ndargs, keys, vals, out, output_is_list=False):
    """Run operator `handle` on NDArrays `ndargs` with string params `keys`/`vals` (bytes).

    `out` is None (the library allocates and the results are returned), one NDArray, or a
    list/tuple of NDArrays written in place (then `out` itself is returned).
    """
    s = _TLS.s
    n_in = len(ndargs)
    if n_in <= _MAX_IN:
        ins = s.ins
        for i in range(n_in):
            ins[i] = ndargs[i].handle
    else:
        ins = (_c_void_p * n_in)(*[a.handle for a in ndargs])
    n_par = len(keys)
    if n_par == 0:
        kbuf = vbuf = None
    elif n_par <= _MAX_PARAMS:
        kbuf = s.keys
        vbuf = s.vals
        kbuf[:n_par] = keys
        vbuf[:n_par] = vals
    else:
        kbuf = (_c_char_p * n_par)(*keys)
        vbuf = (_c_char_p * n_par)(*vals)
    if out is None:
        s.outp_addr.value = None     # NULL: the library allocates (num_outputs ignored)
    else:
        outs_list = (out,) if isinstance(out, NDArrayBase) else out
        n_out = len(outs_list)
        if n_out <= _MAX_IN:
            obuf = s.outs
            for i in range(n_out):
                obuf[i] = outs_list[i].handle
            s.outp_addr.value = s.outs_addr
        else:
            obuf = (_c_void_p * n_out)(*[o.handle for o in outs_list])
            s.outp_addr.value = ctypes.addressof(obuf)
        s.nout.value = n_out
    if _MXImperativeInvokeEx(handle, n_in, ins, s.nout_ref, s.outp_ref, n_par, kbuf, vbuf,
                             s.stypes_ref) != 0:
        raise get_last_ffi_error()
    if out is not None:
        return out
    n = s.nout.value
    outp = s.outp
    stypes = s.stypes
    if n == 1 and not output_is_list:
        return _wrap(outp[0], stypes[0])
    return [_wrap(outp[i], stypes[i]) for i in range(n)]


def _invoke_one_output(s, handle, n_in, n_par, keys, vals, out):
    """The shared tail of the fast paths below, with inputs already in `s.ins`: write into `out`
    or let the library allocate, call the operator, wrap its output."""
    if out is None:
        s.outp_addr.value = None     # NULL: the library allocates (num_outputs ignored)
    else:
        s.outs[0] = out.handle
        s.outp_addr.value = s.outs_addr
        s.nout.value = 1
    if _MXImperativeInvokeEx(handle, n_in, s.ins, s.nout_ref, s.outp_ref, n_par, keys, vals,
                             s.stypes_ref) != 0:
        raise get_last_ffi_error()
    if out is not None:
        return out
    if s.nout.value != 1:
        return _wrap_all(s)
    if s.stypes[0] != 0:
        return _wrap(s.outp[0], s.stypes[0])
    arr = _new(_NDARRAY_CLS)
    arr.handle = _c_void_p(s.outp[0])
    arr.writable = True
    return arr


def invoke_nd_nd(handle, lhs, rhs, out=None):
    """Binary operator without params on two NDArrays (the `a + b` path)."""
    s = _TLS.s
    ins = s.ins
    ins[0] = lhs.handle
    ins[1] = rhs.handle
    return _invoke_one_output(s, handle, 2, 0, None, None, out)


def invoke_nd_scalar(handle, lhs, scalar, out=None):
    """`<op>(lhs, scalar=float(scalar))` (the `a + 1` path)."""
    s = _TLS.s
    ins = s.ins
    ins[0] = lhs.handle
    val = s.val1
    val[0] = _scalar_bytes(scalar)
    return _invoke_one_output(s, handle, 1, 1, _SCALAR_KEY, val, out)


def invoke_nd(handle, data, out=None):
    """Unary operator without params (`abs(a)`)."""
    s = _TLS.s
    ins = s.ins
    ins[0] = data.handle
    return _invoke_one_output(s, handle, 1, 0, None, None, out)

