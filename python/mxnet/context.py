"""Device contexts: where arrays live and operators run (`mx.cpu()`, `mx.gpu(1)`, ...)."""
import ctypes
import threading

from .base import _LIB, check_call, classproperty

__all__ = ["Context", "cpu", "gpu", "cpu_pinned", "cpu_shared", "current_context", "num_gpus",
           "gpu_memory_info"]


class Context(object):
    """A device: type ('cpu', 'gpu', 'cpu_pinned', 'cpu_shared') and id.

    Used as a ``with`` block it becomes the default context of the current thread for arrays
    created inside (``with mx.gpu(0): x = mx.nd.zeros((2, 3))``).

    Examples
    --------
    >>> mx.cpu()
    cpu(0)
    >>> mx.Context('gpu', 1).device_typeid
    2
    """
    __slots__ = ("device_typeid", "device_id")
    devtype2str = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    devstr2type = {"cpu": 1, "gpu": 2, "cpu_pinned": 3, "cpu_shared": 5}
    _default_ctx = threading.local()      # .stack: list of entered contexts, per thread

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            self.device_typeid = device_type.device_typeid
            self.device_id = device_type.device_id
        else:
            try:
                self.device_typeid = Context.devstr2type[device_type]
            except KeyError:
                raise ValueError("unknown device type %r, expected one of %s"
                                 % (device_type, sorted(Context.devstr2type))) from None
            self.device_id = int(device_id)

    @property
    def device_type(self):
        """Device type as a string: 'cpu', 'gpu', 'cpu_pinned' or 'cpu_shared'."""
        return Context.devtype2str[self.device_typeid]

    def __hash__(self):
        return hash((self.device_typeid, self.device_id))

    def __eq__(self, other):
        return (isinstance(other, Context) and self.device_typeid == other.device_typeid
                and self.device_id == other.device_id)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __str__(self):
        return "%s(%d)" % (self.device_type, self.device_id)

    __repr__ = __str__

    def __getstate__(self):
        return (self.device_typeid, self.device_id)

    def __setstate__(self, state):
        self.device_typeid, self.device_id = state

    def __enter__(self):
        stack = _ctx_stack()
        stack.append(self)
        return self

    def __exit__(self, ptype, value, trace):
        stack = _ctx_stack()
        if stack:
            stack.pop()

    @classproperty
    def default_ctx(cls):  # pylint: disable=no-self-argument
        """The current default context (deprecated in MXNet; use current_context())."""
        return current_context()

    def empty_cache(self):
        """Return the pooled memory of this device to the system (MXStorageEmptyCache)."""
        check_call(_LIB.MXStorageEmptyCache(ctypes.c_int(self.device_typeid),
                                            ctypes.c_int(self.device_id)))


def _ctx_stack():
    local = Context._default_ctx
    try:
        return local.stack
    except AttributeError:
        local.stack = []
        return local.stack


_CPU0 = Context("cpu", 0)


def cpu(device_id=0):
    """A CPU context. `device_id` has no effect on placement (all CPU memory is one pool)."""
    return Context("cpu", device_id)


def cpu_pinned(device_id=0):
    """Page-locked CPU memory, for fast copies to and from GPU `device_id`."""
    return Context("cpu_pinned", device_id)


def cpu_shared(device_id=0):
    """CPU shared memory (for passing arrays between processes)."""
    return Context("cpu_shared", device_id)


def gpu(device_id=0):
    """GPU `device_id`."""
    return Context("gpu", device_id)


def num_gpus():
    """Number of GPUs the library can use (MXGetGPUCount); 0 on a CPU-only build."""
    count = ctypes.c_int()
    check_call(_LIB.MXGetGPUCount(ctypes.byref(count)))
    return count.value


def gpu_memory_info(device_id=0):
    """(free, total) bytes of GPU `device_id` (MXGetGPUMemoryInformation64)."""
    free = ctypes.c_uint64()
    total = ctypes.c_uint64()
    check_call(_LIB.MXGetGPUMemoryInformation64(ctypes.c_int(device_id), ctypes.byref(free),
                                                ctypes.byref(total)))
    return (free.value, total.value)


def current_context():
    """The innermost context entered with ``with`` on this thread, else cpu(0)."""
    try:
        stack = Context._default_ctx.stack
    except AttributeError:
        return _CPU0
    return stack[-1] if stack else _CPU0
