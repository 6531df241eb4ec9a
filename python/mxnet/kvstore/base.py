"""KVStoreBase, the base and registry of the key-value stores (mx.kv.create is in the package)."""
from ..ndarray import NDArray
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array  # noqa: F401
from ..base import KVStoreHandle, string_types  # noqa: F401

__all__ = ["KVStoreBase", "TestStore"]  # and create, added by the package


class KVStoreBase(object):
    """Base of the key-value stores. Subclasses registered with KVStoreBase.register are
    created by name before falling back to the library's stores."""

    kv_registry = {}

    OPTIMIZER = 'optimizer'

    @staticmethod
    def register(klass):
        """Class decorator: make `klass` creatable as mx.kv.create(klass.__name__.lower())."""
        if not issubclass(klass, KVStoreBase):
            raise TypeError("Can only register subclass of KVStoreBase")
        name = klass.__name__.lower()
        KVStoreBase.kv_registry[name] = klass
        return klass

    @staticmethod
    def is_capable(capability):
        """Whether the store supports `capability` (KVStoreBase.OPTIMIZER)."""
        raise NotImplementedError()

    def broadcast(self, key, value, out, priority=0):
        raise NotImplementedError()

    def pushpull(self, key, value, out=None, priority=0):
        raise NotImplementedError()

    def set_optimizer(self, optimizer):
        raise NotImplementedError()

    def save_optimizer_states(self, fname, dump_optimizer=False):
        raise NotImplementedError()

    def load_optimizer_states(self, fname):
        raise NotImplementedError()

    @property
    def type(self):
        raise NotImplementedError()

    @property
    def rank(self):
        raise NotImplementedError()

    @property
    def num_workers(self):
        raise NotImplementedError()


@KVStoreBase.register
class TestStore(KVStoreBase):
    """A single-process store for testing Python stores: broadcast copies the value to the
    outputs; pushpull sums the values (on the first value's context) and writes the sum to
    the outputs, or back into the values when there are none. It keeps no optimizer."""

    def broadcast(self, key, value, out, priority=0):
        for o in (out if isinstance(out, list) else [out]):
            o[:] = value

    def pushpull(self, key, value, out=None, priority=0):
        if isinstance(value, NDArray):
            if out is not None:
                for o in (out if isinstance(out, list) else [out]):
                    o[:] = value
            return
        ctx = value[0].context
        reduced = value[0].copy()
        for v in value[1:]:
            reduced += v.as_in_context(ctx)
        for o in (value if out is None else (out if isinstance(out, list) else [out])):
            o[:] = reduced

    @staticmethod
    def is_capable(capability):
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return False
        raise ValueError('Unknown capability: {}'.format(capability))

    @property
    def type(self):
        return 'teststore'

    @property
    def rank(self):
        return 0

    @property
    def num_workers(self):
        return 1
