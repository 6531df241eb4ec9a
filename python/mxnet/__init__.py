"""MXNet: a from-scratch implementation of the MXNet 1.x deep-learning library."""
import atexit as _atexit
import ctypes as _ctypes

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
from . import io
from . import recordio
from . import kvstore
from . import kvstore as kv
from . import random
from . import random as rnd


def _library_version():
    out = _ctypes.c_int()
    check_call(_LIB.MXGetVersion(_ctypes.byref(out)))
    v = out.value
    return "%d.%d.%d" % (v // 10000, (v // 100) % 100, v % 100)


__version__ = _library_version()

_atexit.register(_notify_shutdown)
