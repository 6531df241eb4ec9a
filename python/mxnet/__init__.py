"""MXNet: a from-scratch implementation of the MXNet 1.x deep-learning library."""
import atexit as _atexit
import ctypes as _ctypes
import sys as _sys

from .base import MXNetError, _LIB, check_call, _notify_shutdown
from . import base
from . import libinfo
from .context import Context, current_context, cpu, gpu, cpu_pinned
from . import context
from . import engine
from . import name
from . import attribute
from .attribute import AttrScope
from . import ndarray
from . import ndarray as nd
from . import executor
from . import symbol
from . import symbol as sym
from . import random
from . import random as rnd
from . import autograd
from . import test_utils
test_utils.mx = _sys.modules[__name__]  # as MXNet 1.9.1's `import mxnet as mx` there, without the circle
from . import io
from . import recordio
from . import kvstore
from . import kvstore as kv
from . import registry
from . import initializer
from . import initializer as init
from . import lr_scheduler
from . import optimizer
from . import optimizer as opt
from . import metric
from . import callback
from . import model
from . import module
from . import module as mod
from . import rnn
from . import contrib
from . import library
from . import operator
from . import random
from . import random as rnd
from . import profiler
from . import rtc
from . import log
from . import error
from . import util
from . import runtime
from . import monitor
from . import monitor as mon
from . import visualization
from . import visualization as viz
from . import image
from . import image as img
from .util import is_np_shape, set_np_shape, np_shape, use_np_shape
from .util import is_np_array, np_array, use_np_array, use_np
from . import numpy
from . import numpy as np
from . import numpy_extension
from . import numpy_extension as npx
from .symbol import numpy as _sym_np, numpy_extension as _sym_npx
# F.np / F.npx inside HybridBlock.hybrid_forward (F is mx.nd or mx.sym).
from .ndarray import numpy as _nd_np, numpy_extension as _nd_npx  # noqa: E402
ndarray.np = _nd_np
ndarray.npx = _nd_npx
symbol.np = _sym_np
symbol.npx = _sym_npx


def _library_version():
    out = _ctypes.c_int()
    check_call(_LIB.MXGetVersion(_ctypes.byref(out)))
    v = out.value
    return "%d.%d.%d" % (v // 10000, (v // 100) % 100, v % 100)


__version__ = _library_version()

_atexit.register(_notify_shutdown)


def __getattr__(name):
    # mx.gluon is imported on first use, keeping `import mxnet` light.
    if name == "gluon":
        import importlib
        return importlib.import_module(".gluon", __name__)
    raise AttributeError("module 'mxnet' has no attribute %r" % name)
