"""Op table: the `_image_*` operators and the spatial sampling ops (GridGenerator,
BilinearSampler, SpatialTransformer), with independent NumPy references. The references are
also used by test_image_ops.py."""
import colorsys

import numpy as np

from . import FLOATS, OpEntry, Sample

IMAGE_DTYPES = ("float32", "float64", "uint8")
EIGVAL = np.array([55.46, 4.794, 1.148])
EIGVEC = np.array([[-0.5675, 0.7192, 0.4009],
                   [-0.5808, -0.0045, -0.8140],
                   [-0.5836, -0.6948, 0.4203]])


def store_like(values, dtype):
    """How the image ops store a float result: integers clamp to their range and truncate."""
    dtype = np.dtype(dtype)
    if dtype.kind in "ui":
        info = np.iinfo(dtype)
        return np.trunc(np.clip(values, info.min, info.max)).astype(dtype)
    return values.astype(dtype)


# ---- references -------------------------------------------------------------------------------
def ref_to_tensor(x):
    axes = (2, 0, 1) if x.ndim == 3 else (0, 3, 1, 2)
    return np.transpose(x.astype(np.float64) / 255.0, axes)


def ref_normalize(x, mean=(0.0,), std=(1.0,)):
    c = x.shape[-3]
    m = np.broadcast_to(np.asarray(mean, np.float64).reshape(-1)[:c], (c,))
    s = np.broadcast_to(np.asarray(std, np.float64).reshape(-1)[:c], (c,))
    return (x.astype(np.float64) - m[:, None, None]) / s[:, None, None]


def ref_crop(x, x0, y0, width, height):
    return x[..., y0:y0 + height, x0:x0 + width, :]


def ref_brightness(x, alpha):
    return store_like(x.astype(np.float64) * alpha, x.dtype)


def ref_contrast(x, alpha):
    gray = (x.astype(np.float64) @ np.array([0.299, 0.587, 0.114])).mean()
    return store_like(x * alpha + (1 - alpha) * gray, x.dtype)


def ref_saturation(x, alpha):
    # MXNet 1.9.1's gray value keeps only its last term, 0.114 * blue (reproduced on purpose).
    gray = 0.114 * x[..., 2:3].astype(np.float64)
    return store_like(x * alpha + (1 - alpha) * gray, x.dtype)


def ref_hue(x, alpha):
    """Hue rotation by alpha turns through the standard library's HLS conversion."""
    out = np.empty(x.shape, np.float64)
    for idx in np.ndindex(x.shape[:2]):
        r, g, b = (x[idx].astype(np.float64) / 255.0)
        h, l, s = colorsys.rgb_to_hls(r, g, b)
        out[idx] = np.array(colorsys.hls_to_rgb((h + alpha) % 1.0, l, s)) * 255.0
    return store_like(out, x.dtype)


def ref_lighting(x, alpha):
    pca = EIGVEC @ (np.asarray(alpha, np.float64) * EIGVAL)
    return store_like(x.astype(np.float64) + pca, x.dtype)


def ref_resize_float(x, size, interp=1):
    """cv::resize on float images: nearest = floor(d * in / out); bilinear = half-pixel centres,
    neighbours clamped to the image."""
    h, w = x.shape[-3], x.shape[-2]
    ow, oh = (size[0], size[1]) if len(size) == 2 else (size[0], size[0])

    def taps(n_in, n_out):
        d = np.arange(n_out)
        if interp == 0:
            i0 = np.minimum(np.floor(d * (n_in / n_out)).astype(int), n_in - 1)
            return i0, i0, np.zeros(n_out)
        src = np.maximum((d + 0.5) * (n_in / n_out) - 0.5, 0)
        i0 = np.minimum(np.floor(src).astype(int), n_in - 1)
        return i0, np.minimum(i0 + 1, n_in - 1), np.where(i0 >= n_in - 1, 0, src - i0)

    r0, r1, fy = taps(h, oh)
    c0, c1, fx = taps(w, ow)
    xf = x.astype(np.float64)
    rows = (xf[..., r0, :, :] * (1 - fy)[:, None, None] + xf[..., r1, :, :] * fy[:, None, None])
    return rows[..., c0, :] * (1 - fx)[:, None] + rows[..., c1, :] * fx[:, None]


def _target_coords(h, w):
    ys = np.linspace(-1, 1, h) if h > 1 else np.array([-1.0])
    xs = np.linspace(-1, 1, w) if w > 1 else np.array([-1.0])
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx.ravel(), gy.ravel(), np.ones(h * w)])  # (3, h * w)


def ref_grid_affine(theta, target_shape):
    h, w = target_shape
    grid = theta.astype(np.float64).reshape(-1, 2, 3) @ _target_coords(h, w)
    return grid.reshape(-1, 2, h, w)


def ref_grid_warp(flow):
    n, _, h, w = flow.shape
    jj, ii = np.meshgrid(np.arange(w), np.arange(h))
    out = np.empty(flow.shape, np.float64)
    out[:, 0] = (flow[:, 0] + jj) / ((w - 1) / 2.0) - 1
    out[:, 1] = (flow[:, 1] + ii) / ((h - 1) / 2.0) - 1
    return out


def ref_bilinear_sampler(data, grid):
    n, c, h, w = data.shape
    oh, ow = grid.shape[2:]
    out = np.zeros((n, c, oh, ow))
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                xr = (grid[b, 0, i, j] + 1) * (w - 1) / 2.0
                yr = (grid[b, 1, i, j] + 1) * (h - 1) / 2.0
                x0, y0 = int(np.floor(xr)), int(np.floor(yr))
                for yy, wy in ((y0, 1 - (yr - y0)), (y0 + 1, yr - y0)):
                    for xx, wx in ((x0, 1 - (xr - x0)), (x0 + 1, xr - x0)):
                        if 0 <= yy < h and 0 <= xx < w:
                            out[b, :, i, j] += data[b, :, yy, xx] * wy * wx
    return out


def ref_spatial_transformer(data, loc, target_shape, **kwargs):
    return ref_bilinear_sampler(data, ref_grid_affine(loc, target_shape))


# ---- sample builders --------------------------------------------------------------------------
def ref_copy_make_border(x, top, bot, left, right, type=0, value=0.0, values=()):
    """cv::copyMakeBorder through np.pad; the constant fill is `values` per channel (missing
    ones 0), else `value` for every channel."""
    pad = ((top, bot), (left, right), (0, 0))
    if type != 0:
        mode = {1: "edge", 2: "symmetric", 3: "wrap", 4: "reflect"}[type]
        return np.pad(x, pad, mode=mode)
    c = x.shape[2]
    fill = [values[k] if k < len(values) else 0.0 for k in range(c)] if values else [value] * c
    out = np.empty((x.shape[0] + top + bot, x.shape[1] + left + right, c), x.dtype)
    out[...] = np.asarray(fill, np.float64).astype(x.dtype)
    out[top:top + x.shape[0], left:left + x.shape[1]] = x
    return out


def _image(shape, lo=0, hi=255):
    def make(rng, dtype):
        return [rng.uniform(lo, hi, size=shape).astype(dtype)]
    return make


def _affine(n, scale=0.3):
    """Near-identity affine matrices (sampling mostly inside the image)."""
    def base(rng):
        return (np.tile([0.9, 0.0, 0.0, 0.0, 0.9, 0.0], (n, 1))
                + rng.uniform(-scale, scale, size=(n, 6)))
    return base


def _sampler_inputs(n=2, c=2, h=5, w=6, oh=4, ow=3):
    def make(rng, dtype):
        data = rng.uniform(-1, 1, size=(n, c, h, w)).astype(dtype)
        grid = rng.uniform(-1.1, 1.1, size=(n, 2, oh, ow)).astype(dtype)
        return [data, grid]
    return make


def _transformer_inputs(n=2, c=2, h=5, w=6):
    def make(rng, dtype):
        data = rng.uniform(-1, 1, size=(n, c, h, w)).astype(dtype)
        return [data, _affine(n)(rng).astype(dtype)]
    return make


def _flow(n=2, h=4, w=5):
    def make(rng, dtype):
        return [rng.uniform(-1.5, 1.5, size=(n, 2, h, w)).astype(dtype)]
    return make


def _theta(n=2):
    def make(rng, dtype):
        return [_affine(n)(rng).astype(dtype)]
    return make


ENTRIES = [
    OpEntry("image.to_tensor", ref=ref_to_tensor, dtypes=("float32", "uint8"),
            samples=[Sample(arrays=_image((4, 5, 3))), Sample(arrays=_image((2, 3, 4, 1)))]),
    OpEntry("image.normalize", ref=ref_normalize, dtypes=FLOATS,
            samples=[Sample(arrays=_image((3, 4, 5), 0, 1),
                            kwargs=dict(mean=(0.1, 0.2, 0.3), std=(0.5, 0.25, 2.0))),
                     Sample(arrays=_image((2, 1, 3, 4), 0, 1), kwargs=dict(mean=0.4, std=0.3)),
                     Sample(arrays=_image((2, 3, 2, 3), 0, 1),
                            kwargs=dict(mean=(0.5,), std=(0.2, 0.3, 0.4)))]),
    OpEntry("image.flip_left_right", ref=lambda x: x[:, ::-1], dtypes=IMAGE_DTYPES,
            samples=[Sample(arrays=_image((4, 5, 3))), Sample(arrays=_image((3, 2, 1)))]),
    OpEntry("image.flip_top_bottom", ref=lambda x: x[::-1], dtypes=IMAGE_DTYPES,
            samples=[Sample(arrays=_image((4, 5, 3))), Sample(arrays=_image((5, 2, 1)))]),
    OpEntry("image.crop", ref=lambda img, **k: ref_crop(img, k["x"], k["y"], k["width"], k["height"]),
            dtypes=IMAGE_DTYPES,
            samples=[Sample(arrays=_image((5, 6, 3)), kwargs=dict(x=1, y=2, width=4, height=3)),
                     Sample(arrays=_image((2, 4, 4, 1)), kwargs=dict(x=0, y=1, width=4, height=2))]),
    OpEntry("image.adjust_lighting", ref=lambda x, alpha: ref_lighting(x, alpha),
            dtypes=IMAGE_DTYPES, rtol=1e-5, atol=1e-3,
            samples=[Sample(arrays=_image((3, 4, 3), 20, 235), kwargs=dict(alpha=(0.1, -0.2, 0.3)))]),
    OpEntry("image.resize", ref=lambda x, size, interp=1, **k: ref_resize_float(x, size, interp),
            dtypes=FLOATS, grad=False, rtol=1e-5, atol=1e-3,
            samples=[Sample(arrays=_image((5, 7, 3)), kwargs=dict(size=(4, 3), interp=1)),
                     Sample(arrays=_image((5, 7, 3)), kwargs=dict(size=(11, 9), interp=1)),
                     Sample(arrays=_image((2, 4, 6, 1)), kwargs=dict(size=(5,), interp=0)),
                     Sample(arrays=_image((6, 5, 3)), kwargs=dict(size=(13, 4), interp=0))]),
    OpEntry("_internal._cvimresize",
            ref=lambda x, w, h, interp=1: ref_resize_float(x, (w, h), interp),
            dtypes=FLOATS, grad=False, rtol=1e-5, atol=1e-3,
            samples=[Sample(arrays=_image((5, 7, 3)), kwargs=dict(w=4, h=3)),
                     Sample(arrays=_image((5, 7, 3)), kwargs=dict(w=11, h=9, interp=1)),
                     Sample(arrays=_image((6, 5, 1)), kwargs=dict(w=13, h=4, interp=0))]),
    OpEntry("_internal._cvcopyMakeBorder", ref=ref_copy_make_border,
            dtypes=IMAGE_DTYPES, grad=False,
            samples=[Sample(arrays=_image((3, 4, 3)), kwargs=dict(top=1, bot=2, left=3, right=0)),
                     Sample(arrays=_image((3, 4, 3)),
                            kwargs=dict(top=1, bot=0, left=2, right=1, values=(5.0, 6.0))),
                     Sample(arrays=_image((2, 3, 2)),
                            kwargs=dict(top=4, bot=1, left=5, right=4, type=1)),
                     Sample(arrays=_image((2, 3, 2)),
                            kwargs=dict(top=4, bot=1, left=5, right=4, type=2)),
                     Sample(arrays=_image((2, 3, 2)),
                            kwargs=dict(top=4, bot=1, left=7, right=4, type=3)),
                     Sample(arrays=_image((2, 3, 2)),
                            kwargs=dict(top=1, bot=1, left=2, right=2, type=4, value=9.0))]),
    OpEntry("GridGenerator", ref=lambda d, transform_type, target_shape=None:
            ref_grid_affine(d, target_shape) if transform_type == "affine" else ref_grid_warp(d),
            samples=[Sample(arrays=_theta(2), kwargs=dict(transform_type="affine",
                                                          target_shape=(3, 4))),
                     Sample(arrays=_flow(2), kwargs=dict(transform_type="warp"))]),
    OpEntry("BilinearSampler", ref=ref_bilinear_sampler, rtol=1e-5, atol=1e-5,
            samples=[Sample(arrays=_sampler_inputs()),
                     Sample(arrays=_sampler_inputs(n=1, c=3, h=3, w=4, oh=5, ow=5))]),
    OpEntry("SpatialTransformer", ref=ref_spatial_transformer, rtol=1e-5, atol=1e-5,
            samples=[Sample(arrays=_transformer_inputs(),
                            kwargs=dict(target_shape=(4, 3), transform_type="affine",
                                        sampler_type="bilinear"))]),
]

_RANDOM_REASON = ("random per call (kRandom); seeded determinism, value ranges and statistics "
                  "in test_image_ops.py")
EXEMPT = {
    "_cvimdecode": "input is encoded JPEG/PNG bytes and the output shape depends on them; "
                   "tested against MXNet 1.9.1 and round trips in test_image.py",
    "_cvimread": "reads a file named by a parameter (no tensor inputs); tested in test_image.py",
    "_image_random_flip_left_right": _RANDOM_REASON,
    "_image_random_flip_top_bottom": _RANDOM_REASON,
    "_image_random_brightness": _RANDOM_REASON,
    "_image_random_contrast": _RANDOM_REASON,
    "_image_random_saturation": _RANDOM_REASON,
    "_image_random_hue": _RANDOM_REASON,
    "_image_random_color_jitter": _RANDOM_REASON,
    "_image_random_lighting": _RANDOM_REASON,
}
