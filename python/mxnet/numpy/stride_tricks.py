"""mx.np.broadcast_arrays."""
from .multiarray import _as_array, broadcast_to

__all__ = ['broadcast_arrays']


def broadcast_arrays(*args):
    """The arrays broadcast against each other to their common shape (a list)."""
    import numpy as onp
    arrays = [_as_array(a) for a in args]
    shape = onp.broadcast_shapes(*[a.shape for a in arrays])
    return [a if a.shape == shape else broadcast_to(a, shape) for a in arrays]
