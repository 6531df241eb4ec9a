"""Automatic names for symbols: `NameManager` and `Prefix`."""
import threading

from .base import classproperty

__all__ = ["NameManager", "Prefix"]


class NameManager(object):
    """Gives unique names to symbols created without one: '<hint><counter>', e.g. 'fullyconnected0'.

    Used as a ``with`` block it becomes the current manager of the thread.

    >>> with mx.name.NameManager():
    ...     net = mx.sym.FullyConnected(data, num_hidden=10)   # named fullyconnected0
    """
    _current = threading.local()

    def __init__(self):
        self._counter = {}
        self._old_manager = None

    def get(self, name, hint):
        """`name` if given, else a new unique name from `hint`."""
        if name:
            return name
        if hint not in self._counter:
            self._counter[hint] = 0
        name = "%s%d" % (hint, self._counter[hint])
        self._counter[hint] += 1
        return name

    def __enter__(self):
        if not hasattr(NameManager._current, "value"):
            NameManager._current.value = NameManager()
        self._old_manager = NameManager._current.value
        NameManager._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        assert self._old_manager
        NameManager._current.value = self._old_manager

    @classproperty
    def current(cls):  # pylint: disable=no-self-argument
        """The name manager of this thread (created on first use)."""
        if not hasattr(cls._current, "value"):
            cls._current.value = NameManager()
        return cls._current.value


class Prefix(NameManager):
    """A name manager that prepends `prefix` to every name, given or generated.

    >>> with mx.name.Prefix('mynet_'):
    ...     net = mx.sym.FullyConnected(data, num_hidden=10, name='fc1')   # 'mynet_fc1'
    """

    def __init__(self, prefix):
        super(Prefix, self).__init__()
        self._prefix = prefix

    def get(self, name, hint):
        name = super(Prefix, self).get(name, hint)
        return self._prefix + name
