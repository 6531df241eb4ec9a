"""Compile-time features of the loaded libmxnet (MXLibInfoFeatures).

    features = mx.runtime.Features()
    features.is_enabled('PROFILER')      # True
    mx.runtime.feature_list()            # [✖ CUDA, ✖ CUDNN, ..., ✔ PROFILER, ...]
    mx.runtime.operators_with_kernel('gpu')   # operators that can run on a GPU
"""
import collections
import ctypes

from .base import _LIB, check_call

__all__ = ['Feature', 'Features', 'feature_list', 'operators_with_kernel']


class Feature(ctypes.Structure):
    """One feature: `name` and whether it is `enabled` (C struct LibFeature)."""
    _fields_ = [("_name", ctypes.c_char_p), ("_enabled", ctypes.c_bool)]

    @property
    def name(self):
        return self._name.decode()

    @property
    def enabled(self):
        return self._enabled

    def __repr__(self):
        return ('✔ ' if self.enabled else '✖ ') + self.name


def operators_with_kernel(device='gpu'):
    """Sorted names of the operators that have a kernel for `device` ('cpu' or 'gpu')."""
    dev_type = {'cpu': 1, 'gpu': 2}.get(device)
    if dev_type is None:
        raise ValueError("operators_with_kernel: device must be 'cpu' or 'gpu', got %r" % (device,))
    size = ctypes.c_uint32()
    names = ctypes.POINTER(ctypes.c_char_p)()
    check_call(_LIB.MXListOperatorsWithKernel(ctypes.c_int(dev_type), ctypes.byref(size),
                                              ctypes.byref(names)))
    return sorted(names[i].decode() for i in range(size.value))


def feature_list():
    """All features of the library, in the library's order."""
    array = ctypes.POINTER(Feature)()
    size = ctypes.c_size_t()
    check_call(_LIB.MXLibInfoFeatures(ctypes.byref(array), ctypes.byref(size)))
    return [array[i] for i in range(size.value)]


class Features(collections.OrderedDict):
    """Mapping feature name -> Feature, in the library's order (built once)."""
    instance = None

    def __new__(cls):
        if cls.instance is None:
            cls.instance = super(Features, cls).__new__(cls)
            super(Features, cls.instance).__init__([(f.name, f) for f in feature_list()])
        return cls.instance

    def __init__(self):  # pylint: disable=super-init-not-called
        pass  # filled once in __new__

    def __repr__(self):
        return str(list(self.values()))

    def is_enabled(self, feature_name):
        """Whether the named feature is on; RuntimeError for an unknown name."""
        feature_name = feature_name.upper()
        if feature_name not in self:
            raise RuntimeError("Feature '{}' is unknown, known features are: {}".format(
                feature_name, list(self.keys())))
        return self[feature_name].enabled
