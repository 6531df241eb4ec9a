"""Image transforms as Blocks."""
import numpy as np

from ...block import Block, HybridBlock
from ...nn import Sequential, HybridSequential

__all__ = ["Compose", "Cast", "ToTensor", "Normalize"]


class Compose(Sequential):
    """Applies the given transforms in order."""

    def __init__(self, transforms):
        super(Compose, self).__init__()
        transforms.append(None)
        hybrid = []
        for i in transforms:
            if isinstance(i, HybridBlock):
                hybrid.append(i)
                continue
            elif len(hybrid) == 1:
                self.add(hybrid[0])
                hybrid = []
            elif len(hybrid) > 1:
                hblock = HybridSequential()
                for j in hybrid:
                    hblock.add(j)
                self.add(hblock)
                hybrid = []
            if i is not None:
                self.add(i)


class Cast(HybridBlock):
    """Casts to `dtype`."""

    def __init__(self, dtype="float32"):
        super(Cast, self).__init__()
        self._dtype = dtype

    def hybrid_forward(self, F, *args):
        if len(args) == 1:
            return F.cast(args[0], self._dtype)
        return tuple(F.cast(x, self._dtype) for x in args)


class _ImperativeTransform(HybridBlock):
    """A transform that needs the input's shape, so it always runs imperatively (this build
    has no image operators to put into a graph)."""

    def hybridize(self, active=True, **kwargs):
        self._active = False

    def forward(self, x, *args):
        from .... import symbol
        if isinstance(x, symbol.Symbol):
            raise NotImplementedError("%s cannot be used in a symbolic graph in this build"
                                      % self.__class__.__name__)
        return super(_ImperativeTransform, self).forward(x, *args)


class ToTensor(_ImperativeTransform):
    """(H, W, C) or (N, H, W, C) uint8 in [0, 255] -> (C, H, W) / (N, C, H, W) float32 in
    [0, 1)."""

    def __init__(self):
        super(ToTensor, self).__init__()

    def hybrid_forward(self, F, x):
        x = F.cast(x, "float32") / 255.0
        if len(x.shape) == 4:
            return F.transpose(x, axes=(0, 3, 1, 2))
        if len(x.shape) == 3:
            return F.transpose(x, axes=(2, 0, 1))
        raise ValueError("ToTensor expects a 3-D (H, W, C) or 4-D (N, H, W, C) input, got "
                         "shape %s" % (x.shape,))


class Normalize(_ImperativeTransform):
    """(x - mean) / std per channel of a (C, H, W) or (N, C, H, W) tensor."""

    def __init__(self, mean=0.0, std=1.0):
        super(Normalize, self).__init__()
        self._mean = mean
        self._std = std

    def hybrid_forward(self, F, x):
        mean = np.array(self._mean, dtype=np.float32).reshape(-1)
        std = np.array(self._std, dtype=np.float32).reshape(-1)
        channels = x.shape[-3]
        if mean.size not in (1, channels) or std.size not in (1, channels):
            raise ValueError("Normalize: mean %s / std %s must have 1 or %d (channels) values"
                             % (self._mean, self._std, channels))
        shape = (channels, 1, 1)
        mean_nd = F.array(np.broadcast_to(mean, (channels,)).reshape(shape), ctx=x.context)
        std_nd = F.array(np.broadcast_to(std, (channels,)).reshape(shape), ctx=x.context)
        return F.broadcast_div(F.broadcast_sub(x, mean_nd), std_nd)
