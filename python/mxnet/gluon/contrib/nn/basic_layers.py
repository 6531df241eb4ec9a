"""Blocks that run children side by side, a pass-through block, and sub-pixel upsampling
(pixel shuffle), as in mx.gluon.contrib.nn of MXNet 1.9.1."""
from ... import nn
from ...block import HybridBlock
from .... import ndarray

__all__ = ['Concurrent', 'HybridConcurrent', 'Identity',
           'PixelShuffle1D', 'PixelShuffle2D', 'PixelShuffle3D']


class Concurrent(nn.Sequential):
    """Feeds the same input to every child and concatenates their outputs along `axis`."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super(Concurrent, self).__init__(prefix=prefix, params=params)
        self.axis = axis

    def forward(self, x):
        outputs = [child(x) for child in self._children.values()]
        return ndarray.concat(*outputs, dim=self.axis)


class HybridConcurrent(nn.HybridSequential):
    """Concurrent for hybrid blocks: the children's outputs concatenated along `axis`."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super(HybridConcurrent, self).__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        outputs = [child(x) for child in self._children.values()]
        return F.concat(*outputs, dim=self.axis)


class Identity(HybridBlock):
    """Returns its input unchanged (e.g. the shortcut branch of a Concurrent)."""

    def hybrid_forward(self, F, x):
        return x


def _factors(factor, ndim):
    try:
        factors = tuple(int(f) for f in factor)
    except TypeError:
        factors = (int(factor),) * ndim
    if len(factors) != ndim or any(f < 1 for f in factors):
        raise ValueError("PixelShuffle%dD: factor must be a positive int or %d positive ints, "
                         "got %r" % (ndim, ndim, factor))
    return factors


class PixelShuffle1D(HybridBlock):
    """(N, C*f, W) -> (N, C, W*f): channel c*f + i goes to position w*f + i."""

    def __init__(self, factor):
        super(PixelShuffle1D, self).__init__()
        self._factor = _factors(factor, 1)[0]

    def hybrid_forward(self, F, x):
        f = self._factor
        x = F.reshape(x, (0, -4, -1, f, 0))   # (N, C, f, W)
        x = F.transpose(x, (0, 1, 3, 2))      # (N, C, W, f)
        return F.reshape(x, (0, 0, -3))       # (N, C, W*f)

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._factor)


class PixelShuffle2D(HybridBlock):
    """(N, C*f1*f2, H, W) -> (N, C, H*f1, W*f2): channel c*f1*f2 + i*f2 + j goes to
    position (h*f1 + i, w*f2 + j)."""

    def __init__(self, factor):
        super(PixelShuffle2D, self).__init__()
        self._factors = _factors(factor, 2)

    def hybrid_forward(self, F, x):
        f1, f2 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2, 0, 0))  # (N, C, f1*f2, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2, 0, 0))    # (N, C, f1, f2, H, W)
        x = F.transpose(x, (0, 1, 4, 2, 5, 3))        # (N, C, H, f1, W, f2)
        return F.reshape(x, (0, 0, -3, -3))           # (N, C, H*f1, W*f2)

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._factors)


class PixelShuffle3D(HybridBlock):
    """(N, C*f1*f2*f3, D, H, W) -> (N, C, D*f1, H*f2, W*f3), the 3-D analogue of
    PixelShuffle2D."""

    def __init__(self, factor):
        super(PixelShuffle3D, self).__init__()
        self._factors = _factors(factor, 3)

    def hybrid_forward(self, F, x):
        f1, f2, f3 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2 * f3, 0, 0, 0))  # (N, C, f1*f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, -4, f1, f2 * f3, 0, 0, 0))    # (N, C, f1, f2*f3, D, H, W)
        x = F.reshape(x, (0, 0, 0, -4, f2, f3, 0, 0, 0))      # (N, C, f1, f2, f3, D, H, W)
        x = F.transpose(x, (0, 1, 5, 2, 6, 3, 7, 4))          # (N, C, D, f1, H, f2, W, f3)
        return F.reshape(x, (0, 0, -3, -3, -3))               # (N, C, D*f1, H*f2, W*f3)

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__, self._factors)
