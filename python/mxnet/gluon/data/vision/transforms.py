"""Image transforms as Blocks (MXNet 1.9.1's gluon.data.vision.transforms).

The HybridBlocks call the `_image_*` operators (F.image.*), so they hybridize into graphs; the
crops that pick their window from the input's shape (CenterCrop, RandomResizedCrop) are plain
Blocks working on (H, W, C) NDArrays, as in 1.9.1.
"""
import math
import numbers
import random

import numpy as np

from ....base import numeric_types
from ...block import Block, HybridBlock
from ...nn import Sequential, HybridSequential
from .... import ndarray as nd

__all__ = ["Compose", "Cast", "ToTensor", "Normalize", "Resize", "CenterCrop", "CropResize",
           "RandomResizedCrop", "RandomFlipLeftRight", "RandomFlipTopBottom",
           "RandomBrightness", "RandomContrast", "RandomSaturation", "RandomHue",
           "RandomColorJitter", "RandomLighting", "RandomApply", "Rotate", "RandomRotation"]


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


class ToTensor(HybridBlock):
    """(H, W, C) or (N, H, W, C) images in [0, 255] -> (C, H, W) / (N, C, H, W) float32 in
    [0, 1]."""

    def __init__(self):
        super(ToTensor, self).__init__()

    def hybrid_forward(self, F, x):
        return F.image.to_tensor(x)


class Normalize(HybridBlock):
    """(x - mean) / std per channel of a (C, H, W) or (N, C, H, W) tensor (C = 1 or 3); mean
    and std are scalars or one value per channel."""

    def __init__(self, mean=0.0, std=1.0):
        super(Normalize, self).__init__()
        self._mean = mean
        self._std = std

    def hybrid_forward(self, F, x):
        return F.image.normalize(x, self._mean, self._std)


def _as_size_pair(size):
    return (size, size) if isinstance(size, numeric_types) else tuple(size)


class Resize(HybridBlock):
    """Resizes (H, W, C) or (N, H, W, C) images to `size` = (width, height), or to
    (size, size), or (keep_ratio) to a short side of `size`. interpolation: 0 nearest,
    1 bilinear."""

    def __init__(self, size, keep_ratio=False, interpolation=1):
        super(Resize, self).__init__()
        self._keep = keep_ratio
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        size = (self._size,) if isinstance(self._size, numeric_types) else tuple(self._size)
        return F.image.resize(x, size, self._keep, self._interpolation)


class CropResize(HybridBlock):
    """Crops the window (x, y, width, height) and optionally resizes it to `size`
    ((width, height) or one side)."""

    def __init__(self, x, y, width, height, size=None, interpolation=None):
        super(CropResize, self).__init__()
        self._x = x
        self._y = y
        self._width = width
        self._height = height
        self._size = size
        self._interpolation = interpolation

    def hybrid_forward(self, F, x):
        out = F.image.crop(x, self._x, self._y, self._width, self._height)
        if self._size:
            size = (self._size,) if isinstance(self._size, numeric_types) else tuple(self._size)
            interp = 1 if self._interpolation is None else self._interpolation
            out = F.image.resize(out, size, False, interp)
        return out


def _check_hwc(name, x):
    if len(x.shape) != 3:
        raise ValueError("%s expects an (H, W, C) image, got shape %s" % (name, x.shape))


def _fixed_crop(x, x0, y0, w, h, size, interpolation):
    """x[y0:y0+h, x0:x0+w], resized to size (width, height) when that differs."""
    out = nd.image.crop(x, x0, y0, w, h)
    if size is not None and (w, h) != tuple(size):
        out = nd.image.resize(out, tuple(size), False, interpolation)
    return out


def _scale_down(src_size, size):
    """The crop size (w, h) shrunk, keeping its aspect ratio, to fit into the image size
    src_size (1.9.1's scale_down)."""
    w, h = size
    sw, sh = src_size
    if sh < h:
        w, h = float(w * sh) / h, sh
    if sw < w:
        w, h = sw, float(h * sw) / w
    return int(w), int(h)


def _center_crop(x, size, interpolation):
    h, w = x.shape[0], x.shape[1]
    new_w, new_h = _scale_down((w, h), size)
    x0 = int((w - new_w) / 2)
    y0 = int((h - new_h) / 2)
    return _fixed_crop(x, x0, y0, new_w, new_h, size, interpolation)


class CenterCrop(Block):
    """Crops the centre of an (H, W, C) image to the aspect ratio of `size` ((width, height) or
    one side) and resizes it to `size` (upsampling when the image is smaller)."""

    def __init__(self, size, interpolation=1):
        super(CenterCrop, self).__init__()
        self._size = _as_size_pair(size)
        self._interpolation = interpolation

    def forward(self, x):
        _check_hwc("CenterCrop", x)
        return _center_crop(x, self._size, self._interpolation)


class RandomResizedCrop(Block):
    """Crops a random window of an (H, W, C) image, with area a uniform fraction `scale` of the
    image and aspect ratio log-uniform in `ratio`, and resizes it to `size`. Falls back to a
    centre crop after 10 tries (Python's `random` draws the window, as in 1.9.1)."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        super(RandomResizedCrop, self).__init__()
        self._size = _as_size_pair(size)
        self._scale = (scale, 1.0) if isinstance(scale, numeric_types) else tuple(scale)
        self._ratio = tuple(ratio)
        self._interpolation = interpolation

    def forward(self, x):
        _check_hwc("RandomResizedCrop", x)
        h, w = x.shape[0], x.shape[1]
        src_area = h * w
        log_ratio = (math.log(self._ratio[0]), math.log(self._ratio[1]))
        for _ in range(10):
            target_area = random.uniform(self._scale[0], self._scale[1]) * src_area
            new_ratio = math.exp(random.uniform(*log_ratio))
            new_w = int(round(math.sqrt(target_area * new_ratio)))
            new_h = int(round(math.sqrt(target_area / new_ratio)))
            if 0 < new_w <= w and 0 < new_h <= h:
                x0 = random.randint(0, w - new_w)
                y0 = random.randint(0, h - new_h)
                return _fixed_crop(x, x0, y0, new_w, new_h, self._size, self._interpolation)
        return _center_crop(x, self._size, self._interpolation)


class RandomFlipLeftRight(HybridBlock):
    """Flips an (H, W, C) image left-right with probability 0.5."""

    def __init__(self):
        super(RandomFlipLeftRight, self).__init__()

    def hybrid_forward(self, F, x):
        return F.image.random_flip_left_right(x)


class RandomFlipTopBottom(HybridBlock):
    """Flips an (H, W, C) image top-bottom with probability 0.5."""

    def __init__(self):
        super(RandomFlipTopBottom, self).__init__()

    def hybrid_forward(self, F, x):
        return F.image.random_flip_top_bottom(x)


class _RandomEnhance(HybridBlock):
    """A colour op with a factor drawn from [max(0, 1 - v), 1 + v]."""
    _op = None

    def __init__(self, value):
        super(_RandomEnhance, self).__init__()
        self._args = (max(0, 1 - value), 1 + value)

    def hybrid_forward(self, F, x):
        return getattr(F.image, self._op)(x, *self._args)


class RandomBrightness(_RandomEnhance):
    """Multiplies an (H, W, C) image by a factor from [max(0, 1 - brightness), 1 + brightness].
    """
    _op = "random_brightness"

    def __init__(self, brightness):
        super(RandomBrightness, self).__init__(brightness)


class RandomContrast(_RandomEnhance):
    """Blends an (H, W, C) image with its mean gray level, factor from
    [max(0, 1 - contrast), 1 + contrast]."""
    _op = "random_contrast"

    def __init__(self, contrast):
        super(RandomContrast, self).__init__(contrast)


class RandomSaturation(_RandomEnhance):
    """Blends an (H, W, C) image with its gray version, factor from
    [max(0, 1 - saturation), 1 + saturation]."""
    _op = "random_saturation"

    def __init__(self, saturation):
        super(RandomSaturation, self).__init__(saturation)


class RandomHue(_RandomEnhance):
    """Rotates the hue of an (H, W, C) image by a * 360 degrees, a from
    [max(0, 1 - hue), 1 + hue] (as 1.9.1; whole turns change nothing)."""
    _op = "random_hue"

    def __init__(self, hue):
        super(RandomHue, self).__init__(hue)


class RandomColorJitter(HybridBlock):
    """Jitters brightness, contrast, saturation and hue of an (H, W, C) image in random order.
    """

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super(RandomColorJitter, self).__init__()
        self._args = (brightness, contrast, saturation, hue)

    def hybrid_forward(self, F, x):
        return F.image.random_color_jitter(x, *self._args)


class RandomLighting(HybridBlock):
    """AlexNet-style PCA lighting noise with strength `alpha` (the std of the per-channel
    alphas)."""

    def __init__(self, alpha):
        super(RandomLighting, self).__init__()
        self._alpha = alpha

    def hybrid_forward(self, F, x):
        return F.image.random_lighting(x, self._alpha)


class RandomApply(Sequential):
    """Applies the list of transforms together with probability p (Python's `random`)."""

    def __init__(self, transforms, p=0.5):
        super(RandomApply, self).__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, x, *args):
        if self.p < random.random():
            return x if not args else (x,) + args
        return self.transforms(x, *args)



def _rotation_grid(n, h, w, degrees, zoom_in, zoom_out):
    """BilinearSampler grids (n, 2, h, w) rotating each image by degrees[i] about its centre
    (1.9.1's image.imrotate): pixel offsets from the centre are rotated, then normalised per
    axis; zoom_in/zoom_out scale so that no border / the whole image is visible."""
    rad = np.pi * np.asarray(degrees, np.float32).reshape(n, 1, 1) / 180
    hscale, wscale = (h - 1) / 2.0, (w - 1) / 2.0
    hm = np.arange(h, dtype=np.float32).reshape(h, 1).repeat(w, axis=1)[None] - hscale
    wm = np.arange(w, dtype=np.float32).reshape(1, w).repeat(h, axis=0)[None] - wscale
    cos, sin = np.cos(rad), np.sin(rad)
    wrot = (wm * cos - hm * sin) / wscale
    hrot = (wm * sin + hm * cos) / hscale
    scale = np.ones((n, 1, 1, 1), np.float32)
    if zoom_in or zoom_out:
        rho = np.sqrt(np.float32(h * h + w * w))
        ang = np.arctan(np.float32(h) / np.float32(w))
        absrad = np.abs(rad)
        max_x = np.maximum(np.abs(rho * np.cos(ang + absrad)), np.abs(rho * np.cos(ang - absrad)))
        max_y = np.maximum(np.abs(rho * np.sin(ang + absrad)), np.abs(rho * np.sin(ang - absrad)))
        if zoom_out:
            scale = np.maximum(max_x / w, max_y / h)
        else:
            scale = np.minimum(w / max_x, h / max_y)
        scale = scale.reshape(n, 1, 1, 1).astype(np.float32)
    grid = np.concatenate([wrot[:, None], hrot[:, None]], axis=1) * scale
    return grid.astype(np.float32)


def _imrotate(x, degrees, zoom_in=False, zoom_out=False):
    if zoom_in and zoom_out:
        raise ValueError("`zoom_in` and `zoom_out` cannot be both True")
    if x.dtype != np.float32:
        raise TypeError("Only `float32` images are supported by this function")
    single = x.ndim == 3
    if single:
        if not isinstance(degrees, numbers.Number):
            raise TypeError("When a single image is passed the rotation angle is required to be "
                            "a scalar.")
        x = x.expand_dims(axis=0)
    elif x.ndim != 4:
        raise ValueError("Only 3D and 4D are supported by this function")
    n, _, h, w = x.shape
    if isinstance(degrees, numbers.Number):
        degrees = [degrees] * n
    elif isinstance(degrees, nd.NDArray):
        degrees = degrees.asnumpy()
    if len(degrees) != n:
        raise ValueError("The number of images must be equal to the number of rotation angles")
    grid = nd.array(_rotation_grid(n, h, w, degrees, zoom_in, zoom_out), ctx=x.context)
    out = nd.BilinearSampler(x, grid)
    return out[0] if single else out


class Rotate(Block):
    """Rotates a float32 (C, H, W) tensor or (N, C, H, W) batch by `rotation_degrees` about the
    centre (BilinearSampler; areas outside the source are 0)."""

    def __init__(self, rotation_degrees, zoom_in=False, zoom_out=False):
        super(Rotate, self).__init__()
        self._args = (rotation_degrees, zoom_in, zoom_out)

    def forward(self, x):
        if x.dtype != np.float32:
            raise TypeError("This transformation only supports float32. Consider calling it "
                            "after ToTensor, given: {}".format(x.dtype))
        return _imrotate(x, *self._args)


class RandomRotation(Block):
    """Rotates by angles drawn uniformly from angle_limits (NumPy's global RNG, as 1.9.1), with
    probability rotate_with_proba."""

    def __init__(self, angle_limits, zoom_in=False, zoom_out=False, rotate_with_proba=1.0):
        super(RandomRotation, self).__init__()
        lower, upper = angle_limits
        if lower >= upper:
            raise ValueError("`angle_limits` must be an ordered tuple")
        if rotate_with_proba < 0 or rotate_with_proba > 1:
            raise ValueError("Probability of rotating the image should be between 0 and 1")
        self._args = (angle_limits, zoom_in, zoom_out)
        self._rotate_with_proba = rotate_with_proba

    def forward(self, x):
        if np.random.random() > self._rotate_with_proba:
            return x
        if x.dtype != np.float32:
            raise TypeError("This transformation only supports float32. Consider calling it "
                            "after ToTensor, given: {}".format(x.dtype))
        limits, zoom_in, zoom_out = self._args
        if x.ndim == 3:
            degrees = np.random.uniform(*limits)
        else:
            degrees = np.random.uniform(*limits, size=x.shape[0])
        return _imrotate(x, degrees, zoom_in, zoom_out)
