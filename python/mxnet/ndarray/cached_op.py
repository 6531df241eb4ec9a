"""`mx.nd.CachedOp`: a symbol compiled once and called like an operator (Gluon's hybridize).

    op = mx.nd.CachedOp(sym, [("static_alloc", True)])
    out = op(data, weight, bias)          # NDArrays in sym.list_inputs() order

Under `autograd.record()` the call is recorded as one node; `backward()` runs the graph's
gradient with the same bound executor.
"""
import ctypes

from ..base import _LIB, check_call, c_str_array, get_last_ffi_error, MXNetError
from .ndarray import NDArray
from .sparse import _ndarray_cls

__all__ = ["CachedOp"]

_c_void_p = ctypes.c_void_p
_MONITOR_CB = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p)


def _flag_str(value):
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(int(v)) for v in value) + "]"
    return str(value)


class CachedOp(object):
    """Cached operator handle; `flags` is a dict or a list of (key, value) pairs."""
    __slots__ = ("handle", "_monitor_callback", "__weakref__")

    def __init__(self, sym, flags=(), thread_safe=False):
        from ..symbol import Symbol
        if not isinstance(sym, Symbol):
            raise TypeError("CachedOp: expected a Symbol, got %s" % type(sym).__name__)
        items = list(flags.items()) if isinstance(flags, dict) else list(flags)
        for item in items:
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise TypeError("CachedOp: flags must be (key, value) pairs, got %r" % (item,))
        keys = c_str_array([str(k) for k, _ in items])
        vals = c_str_array([_flag_str(v) for _, v in items])
        self.handle = None
        self._monitor_callback = None
        hdl = _c_void_p()
        check_call(_LIB.MXCreateCachedOpEX(sym.handle, len(items), keys, vals,
                                           ctypes.byref(hdl), ctypes.c_bool(thread_safe)))
        self.handle = hdl

    def __del__(self):
        handle = getattr(self, "handle", None)
        if handle is not None:
            try:
                _LIB.MXFreeCachedOp(handle)
            except Exception:  # pylint: disable=broad-except  (interpreter shutdown)
                pass

    def __call__(self, *args, out=None, default_ctx=None, **kwargs):
        if kwargs:
            raise TypeError("CachedOp.__call__ got unexpected keyword argument(s) %s"
                            % ", ".join(sorted(kwargs)))
        if self.handle is None:
            raise MXNetError("CachedOp has been freed")
        if default_ctx is not None and getattr(default_ctx, "device_type", "cpu") != "cpu":
            raise MXNetError("CachedOp: default_ctx %s is not supported (cpu only)" % default_ctx)
        for i, a in enumerate(args):
            if not isinstance(a, NDArray):
                raise TypeError("CachedOp: input %d must be an NDArray, got %s"
                                % (i, type(a).__name__))
        ins = (_c_void_p * len(args))(*[a.handle for a in args])
        nout = ctypes.c_int(0)
        stypes = ctypes.POINTER(ctypes.c_int)()
        if out is None:
            outp = ctypes.POINTER(_c_void_p)()
        else:
            outs = [out] if isinstance(out, NDArray) else list(out)
            nout.value = len(outs)
            outp = ctypes.cast((_c_void_p * len(outs))(*[o.handle for o in outs]),
                               ctypes.POINTER(_c_void_p))
        if _LIB.MXInvokeCachedOpEx(self.handle, len(args), ins, ctypes.byref(nout),
                                   ctypes.byref(outp), ctypes.byref(stypes)) != 0:
            raise get_last_ffi_error()
        if out is not None:
            return out
        n = nout.value
        results = [_ndarray_cls(_c_void_p(outp[i]), stype=stypes[i]) for i in range(n)]
        return results[0] if n == 1 else results

    def _register_op_hook(self, callback, monitor_all=False):
        """Call callback(node_name, op_name, NDArray) after every operator of later calls."""

        def wrapper(name, op_name, handle):
            callback(name.decode() if name else "", op_name.decode() if op_name else "",
                     NDArray(_c_void_p(handle)))

        self._monitor_callback = _MONITOR_CB(wrapper) if callback else None
        check_call(_LIB.MXCachedOpRegisterOpHook(
            self.handle, self._monitor_callback if callback else None,
            ctypes.c_bool(monitor_all)))
