"""mx.np.genfromtxt: read a text table into an mx.np array."""
import numpy as onp

from ..context import current_context
from .multiarray import array

__all__ = ['genfromtxt']


def genfromtxt(*args, **kwargs):
    """numpy.genfromtxt's table (same arguments, same dtype) as an mx.np array on `ctx` (a
    keyword, default the current context)."""
    ctx = kwargs.pop('ctx', None) or current_context()
    value = onp.genfromtxt(*args, **kwargs)
    return array(value, dtype=value.dtype, ctx=ctx)
