"""`Executor`: a Symbol bound to arrays (made by Symbol.bind / Symbol.simple_bind).

>>> ex = net.simple_bind(mx.cpu(), data=(4, 20))
>>> ex.forward(is_train=True, data=x)
>>> ex.backward()                      # loss outputs need no head gradient
>>> ex.grad_dict['fc1_weight']
"""
import ctypes

import numpy as np
from .ndarray._sparse import _ndarray_cls

from .base import (_LIB, check_call, c_str_array, c_array, mx_uint, py_str, NDArrayHandle,
                   ExecutorHandle, SymbolHandle)
from .ndarray import NDArray
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array as py_array  # noqa: F401
from .base import SymbolHandle, mx_int  # noqa: F401

__all__ = ["Executor"]


class Executor(object):
    """Runs forward and backward over the arrays it was bound to.

    arg_arrays / grad_arrays / aux_arrays are in list_arguments / list_auxiliary_states order;
    outputs are the same arrays after every forward (read them after forward).
    """

    def __init__(self, handle, symbol, ctx, grad_req, group2ctx):
        if not isinstance(handle, ExecutorHandle):
            raise TypeError("Handle type error")
        self.handle = handle
        self.arg_arrays = []
        self.grad_arrays = []
        self.aux_arrays = []
        self._symbol = symbol.__copy__()
        self._arg_names = symbol.list_arguments()
        self._aux_names = symbol.list_auxiliary_states()
        self._output_names = symbol.list_outputs()
        self._ctx = ctx
        self._grad_req = grad_req
        self._group2ctx = group2ctx
        self._arg_dict = None
        self._grad_dict = None
        self._aux_dict = None
        self._output_dict = None
        self._monitor_callback = None
        self.outputs = self._get_outputs()

    def __del__(self):
        try:
            if self.handle is not None:
                _LIB.MXExecutorFree(self.handle)
        except Exception:  # pylint: disable=broad-except
            pass

    def _get_outputs(self):
        size = mx_uint()
        handles = ctypes.POINTER(NDArrayHandle)()
        check_call(_LIB.MXExecutorOutputs(self.handle, ctypes.byref(size), ctypes.byref(handles)))
        return [_ndarray_cls(NDArrayHandle(handles[i])) for i in range(size.value)]

    def forward(self, is_train=False, **kwargs):
        """Copy kwargs (name=array) into the arguments, run forward, return the outputs."""
        if kwargs:
            arg_dict = self.arg_dict
            for name, array in kwargs.items():
                if not isinstance(array, (NDArray, np.ndarray)):
                    raise ValueError("only accept keyword argument of NDArrays and numpy.ndarray")
                if name not in arg_dict:
                    raise TypeError("Unknown argument %s" % name)
                dst = arg_dict[name]
                if dst.shape != array.shape:
                    raise ValueError("Shape not match! Argument %s, need: %s, received: %s"
                                     % (name, str(dst.shape), str(array.shape)))
                if isinstance(array, NDArray):
                    array.copyto(dst)
                else:
                    dst[:] = array
        check_call(_LIB.MXExecutorForward(self.handle, ctypes.c_int(int(is_train))))
        return self.outputs

    def backward(self, out_grads=None, is_train=True):
        """Run backward; out_grads: one NDArray per output (none needed for loss outputs)."""
        if out_grads is None:
            check_call(_LIB.MXExecutorBackwardEx(self.handle, 0, None, ctypes.c_int(int(is_train))))
            return
        if isinstance(out_grads, NDArray):
            out_grads = [out_grads]
        elif isinstance(out_grads, dict):
            out_grads = [out_grads[k] for k in self._output_names]
        for g in out_grads:
            if g is not None and not isinstance(g, NDArray):
                raise TypeError("inputs must be NDArray")
        handles = c_array(ctypes.c_void_p, [g.handle if g is not None else None
                                            for g in out_grads])
        check_call(_LIB.MXExecutorBackwardEx(self.handle, mx_uint(len(out_grads)), handles,
                                             ctypes.c_int(int(is_train))))

    def set_monitor_callback(self, callback, monitor_all=False):
        """Call callback(name, array_handle) for every op output (and input with monitor_all)
        as it is computed; name is bytes, the handle a new NDArrayHandle (as in MXNet 1.x)."""
        cb_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, NDArrayHandle, ctypes.c_void_p)

        def monitor(name, array, _):
            callback(name, array)
        self._monitor_callback = cb_type(monitor)
        check_call(_LIB.MXExecutorSetMonitorCallbackEX(self.handle, self._monitor_callback,
                                                       None, ctypes.c_bool(monitor_all)))

    @staticmethod
    def _dict(names, arrays, what):
        if len(set(names)) != len(names):
            seen = set()
            for n in names:
                if n in seen:
                    raise ValueError("Duplicate names detected, %s" % str(names))
                seen.add(n)
        return dict(zip(names, arrays))

    @property
    def arg_dict(self):
        if self._arg_dict is None:
            self._arg_dict = Executor._dict(self._arg_names, self.arg_arrays, "arg")
        return self._arg_dict

    @property
    def grad_dict(self):
        if self._grad_dict is None:
            self._grad_dict = Executor._dict(self._arg_names, self.grad_arrays, "grad")
        return self._grad_dict

    @property
    def aux_dict(self):
        if self._aux_dict is None:
            self._aux_dict = Executor._dict(self._aux_names, self.aux_arrays, "aux")
        return self._aux_dict

    @property
    def output_dict(self):
        if self._output_dict is None:
            self._output_dict = Executor._dict(self._output_names, self.outputs, "output")
        return self._output_dict

    def copy_params_from(self, arg_params, aux_params=None, allow_extra_params=False):
        """Copy named parameter arrays into the bound arguments (and aux states)."""
        for name, array in arg_params.items():
            if name in self.arg_dict:
                dst = self.arg_dict[name]
                array.astype(dst.dtype).copyto(dst)
            elif not allow_extra_params:
                raise ValueError("Find name \"%s\" that is not in the arguments" % name)
        if aux_params is None:
            return
        for name, array in aux_params.items():
            if name in self.aux_dict:
                dst = self.aux_dict[name]
                array.astype(dst.dtype).copyto(dst)
            elif not allow_extra_params:
                raise ValueError("Find name %s that is not in the auxiliary states" % name)

    def reshape(self, partial_shaping=False, allow_up_sizing=False, **kwargs):
        """A new executor for new input shapes, sharing memory with this one where it fits."""
        names, data, idx = [], [], [0]
        for k, v in kwargs.items():
            if isinstance(v, tuple):
                names.append(k)
                data.extend(v)
                idx.append(len(data))
        g2c = self._group2ctx or {}
        num_in = mx_uint()
        in_h = ctypes.POINTER(NDArrayHandle)()
        grad_h = ctypes.POINTER(NDArrayHandle)()
        num_aux = mx_uint()
        aux_h = ctypes.POINTER(NDArrayHandle)()
        handle = ExecutorHandle()
        check_call(_LIB.MXExecutorReshapeEx(
            ctypes.c_int(int(partial_shaping)), ctypes.c_int(int(allow_up_sizing)),
            ctypes.c_int(self._ctx.device_typeid), ctypes.c_int(self._ctx.device_id),
            mx_uint(len(g2c)), c_str_array(list(g2c.keys())),
            c_array(ctypes.c_int, [c.device_typeid for c in g2c.values()]),
            c_array(ctypes.c_int, [c.device_id for c in g2c.values()]),
            mx_uint(len(names)), c_str_array(names), c_array(ctypes.c_int, data),
            c_array(mx_uint, idx), ctypes.byref(num_in), ctypes.byref(in_h),
            ctypes.byref(grad_h), ctypes.byref(num_aux), ctypes.byref(aux_h),
            self.handle, ctypes.byref(handle)))
        ex = Executor(handle, self._symbol, self._ctx, self._grad_req, self._group2ctx)
        ex.arg_arrays = [_ndarray_cls(NDArrayHandle(in_h[i])) for i in range(num_in.value)]
        ex.grad_arrays = [_ndarray_cls(NDArrayHandle(grad_h[i])) if grad_h[i] else None
                          for i in range(num_in.value)]
        ex.aux_arrays = [_ndarray_cls(NDArrayHandle(aux_h[i])) for i in range(num_aux.value)]
        return ex

    def debug_str(self):
        out = ctypes.c_char_p()
        check_call(_LIB.MXExecutorPrint(self.handle, ctypes.byref(out)))
        return py_str(out.value)

    def get_optimized_symbol(self):
        from .symbol import Symbol
        hdl = SymbolHandle()
        check_call(_LIB.MXExecutorGetOptimizedSymbol(self.handle, ctypes.byref(hdl)))
        return Symbol(hdl)

