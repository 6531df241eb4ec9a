"""`AttrScope`: attributes attached to every symbol created inside a ``with`` block."""
import threading

from .base import string_types, classproperty
# Names MXNet 1.9.1's module also exposes (it imports them).
from collections import defaultdict  # noqa: F401

__all__ = ["AttrScope"]


class AttrScope(object):
    """Attribute manager for scoping.

    User can also inherit this object to change naming behavior.

    >>> with mx.AttrScope(ctx_group='dev1'):
    ...     w = mx.sym.var('w')           # w.attr('ctx_group') == 'dev1'

    Parameters
    ----------
    kwargs
        The attributes to set for all symbol creations in the scope (string values).
    """
    _current = threading.local()

    def __init__(self, **kwargs):
        self._old_scope = None
        for value in kwargs.values():
            if not isinstance(value, string_types):
                raise ValueError("Attributes need to be string")
        self._attr = kwargs

    def get(self, attr):
        """The scope's attributes merged with (and overridden by) the dict `attr`."""
        if self._attr:
            ret = self._attr.copy()
            if attr:
                ret.update(attr)
            return ret
        return attr if attr else {}

    def __enter__(self):
        if not hasattr(AttrScope._current, "value"):
            AttrScope._current.value = AttrScope()
        self._old_scope = AttrScope._current.value
        attr = AttrScope._current.value._attr.copy()
        attr.update(self._attr)
        self._attr = attr
        AttrScope._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        assert self._old_scope
        AttrScope._current.value = self._old_scope

    @classproperty
    def current(cls):  # pylint: disable=no-self-argument
        """The attribute scope of this thread (an empty one by default)."""
        if not hasattr(cls._current, "value"):
            cls._current.value = AttrScope()
        return cls._current.value
