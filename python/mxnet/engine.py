"""Engine controls: bulking of imperative operations."""
import ctypes
from contextlib import contextmanager

from .base import _LIB, check_call

__all__ = ["set_bulk_size", "bulk"]


def set_bulk_size(size):
    """Set how many imperative operations this thread groups into one engine push.

    Returns the previous size. Errors of a bulked operation surface at the end of the bulk.
    """
    prev = ctypes.c_int()
    check_call(_LIB.MXEngineSetBulkSize(ctypes.c_int(size), ctypes.byref(prev)))
    return prev.value


@contextmanager
def bulk(size):
    """Bulk imperative operations inside the ``with`` block (restores the previous size).

    >>> with mx.engine.bulk(10):
    ...     for _ in range(100):
    ...         x += 1
    """
    prev = set_bulk_size(size)
    try:
        yield
    finally:
        set_bulk_size(prev)
