"""mx.rtc: CUDA C++ kernels compiled at run time (NVRTC) and launched on GPU NDArrays.

    source = r'''
    extern "C" __global__ void axpy(const float *x, float *y, float alpha) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        y[i] += alpha * x[i];
    }'''
    module = mx.rtc.CudaModule(source)
    axpy = module.get_kernel("axpy", "const float *x, float *y, float alpha")
    axpy.launch([x, y, 3.0], mx.gpu(0), (1, 1, 1), (10, 1, 1))

Needs a libmxnet built with CUDA; a CPU-only build raises when a module is created, as MXNet
1.9.1's CPU builds do.
"""
import ctypes
import re
from array import array  # noqa: F401  (1.9.1's module exports it)

import numpy as np

from .base import _LIB, check_call, c_str, c_str_array, c_array, mx_uint  # noqa: F401
from .base import numeric_types, string_types  # noqa: F401
from .ndarray import NDArray
from ._enums import _DTYPE_NP_TO_MX

__all__ = ['CudaModule', 'CudaKernel']

CudaModuleHandle = ctypes.c_void_p
CudaKernelHandle = ctypes.c_void_p

# C type names a signature may use -> numpy dtype.
_C_TYPES = {
    'float': np.float32, 'double': np.float64, '__half': np.float16, 'uint8_t': np.uint8,
    'int': np.int32, 'int32_t': np.int32, 'int8_t': np.int8, 'char': np.int8,
    'int64_t': np.int64,
}
_PARAM = re.compile(r'^\s*(const\s+)?([\w:]+)\s*(\*)?\s*(?:const\s*)?(\w+)?\s*$')


def _parse_signature(name, signature):
    """(is_ndarray, is_const, numpy dtypes) per parameter of the C parameter list."""
    is_ndarray, is_const, dtypes = [], [], []
    for i, param in enumerate(p for p in signature.split(',') if p.strip()):
        match = _PARAM.match(param)
        if match is None or match.group(2) not in _C_TYPES:
            raise ValueError(
                "CudaModule.get_kernel(%r): cannot read parameter %d '%s' of the signature; "
                "expected '[const] <type> [*][name]' with a type among %s"
                % (name, i, param.strip(), ', '.join(sorted(_C_TYPES))))
        is_const.append(bool(match.group(1)))
        is_ndarray.append(bool(match.group(3)))
        dtypes.append(np.dtype(_C_TYPES[match.group(2)]))
    return is_ndarray, is_const, dtypes


class CudaModule(object):
    """CUDA C++ `source` compiled with NVRTC.

    options: NVRTC flags, e.g. ('--use_fast_math', '-std=c++14').
    exports: C++ kernel names (templates, overloads; not extern "C") that get_kernel will be
    asked for, e.g. ('axpy<float>',)."""

    def __init__(self, source, options=(), exports=()):
        if isinstance(options, string_types):
            options = (options,)
        if isinstance(exports, string_types):
            exports = (exports,)
        self.handle = CudaModuleHandle()
        check_call(_LIB.MXRtcCudaModuleCreate(
            c_str(source), len(options), c_str_array(options), len(exports),
            c_str_array(exports), ctypes.byref(self.handle)))

    def __del__(self):
        if getattr(self, 'handle', None) and _LIB is not None:
            check_call(_LIB.MXRtcCudaModuleFree(self.handle))

    def get_kernel(self, name, signature):
        """The kernel `name` with the C parameter list `signature`, e.g.
        'const float *x, float *y, int n': pointers take NDArrays of that dtype (const ones
        are only read), the others numbers."""
        is_ndarray, is_const, dtypes = _parse_signature(name, signature)
        handle = CudaKernelHandle()
        check_call(_LIB.MXRtcCudaKernelCreate(
            self.handle, c_str(name), len(dtypes),
            c_array(ctypes.c_int, [int(b) for b in is_ndarray]),
            c_array(ctypes.c_int, [int(b) for b in is_const]),
            c_array(ctypes.c_int, [_DTYPE_NP_TO_MX[d.type] for d in dtypes]),
            ctypes.byref(handle)))
        return CudaKernel(handle, name, is_ndarray, dtypes)


class CudaKernel(object):
    """A kernel of a CudaModule (made by CudaModule.get_kernel)."""

    def __init__(self, handle, name, is_ndarray, dtypes):
        self.handle = handle
        self._name = name
        self._is_ndarray = is_ndarray
        self._dtypes = dtypes

    def __del__(self):
        if getattr(self, 'handle', None) and _LIB is not None:
            check_call(_LIB.MXRtcCudaKernelFree(self.handle))

    def launch(self, args, ctx, grid_dims, block_dims, shared_mem=0):
        """Runs the kernel on GPU context `ctx` with `args` (NDArrays for pointer parameters,
        numbers for the others) over grid_dims blocks of block_dims threads (3-tuples)."""
        if ctx.device_type != 'gpu':
            raise ValueError("CudaKernel %s: kernels run on a GPU context, got %s"
                             % (self._name, ctx))
        if len(args) != len(self._dtypes):
            raise ValueError("CudaKernel %s: expected %d arguments, got %d"
                             % (self._name, len(self._dtypes), len(args)))
        grid_dims, block_dims = tuple(grid_dims), tuple(block_dims)
        if len(grid_dims) != 3 or len(block_dims) != 3:
            raise ValueError("CudaKernel %s: grid_dims and block_dims must have 3 entries, got "
                             "%s and %s" % (self._name, grid_dims, block_dims))
        keep, pointers = [], []
        for i, (arg, is_nd, dtype) in enumerate(zip(args, self._is_ndarray, self._dtypes)):
            if is_nd:
                if not isinstance(arg, NDArray):
                    raise TypeError("CudaKernel %s: argument %d must be an NDArray of %s, got %s"
                                    % (self._name, i, dtype.name, type(arg).__name__))
                pointers.append(arg.handle)
            else:
                if not isinstance(arg, numeric_types):
                    raise TypeError("CudaKernel %s: argument %d must be a number (%s), got %s"
                                    % (self._name, i, dtype.name, type(arg).__name__))
                value = np.array([arg], dtype=dtype)
                keep.append(value)
                pointers.append(value.ctypes.data_as(ctypes.c_void_p))
        check_call(_LIB.MXRtcCudaKernelCall(
            self.handle, ctx.device_id, c_array(ctypes.c_void_p, pointers),
            mx_uint(grid_dims[0]), mx_uint(grid_dims[1]), mx_uint(grid_dims[2]),
            mx_uint(block_dims[0]), mx_uint(block_dims[1]), mx_uint(block_dims[2]),
            mx_uint(shared_mem)))
