"""ROI and spatial-sampling operators on the GPU against the CPU in float64, with gradients:
ROIPooling, ROIAlign (plain, aligned, position-sensitive), PSROIPooling, RROIAlign (forward
only), DeformablePSROIPooling (with and without trans), GridGenerator, BilinearSampler,
SpatialTransformer and Correlation.

The inputs are rounded to float16 first, so every dtype sees the same values, and the roi and
grid coordinates keep their bin edges and sampling points away from cell boundaries, where
float16 geometry could pick another cell (or a max another argmax)."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DTYPES, TOL, check_fn

# Roi and grid geometry is computed in float for float16, so allow for float16 sums of many
# terms in the data gradients.
SUM_TOL = dict(TOL)
SUM_TOL[np.float16] = (2e-2, 2e-2)


def _h(a):
    """The values of `a` that float16 represents exactly (as float64)."""
    return np.asarray(a, dtype=np.float64).astype(np.float16).astype(np.float64)


def _distinct(shape, seed=0):
    """Data with distinct float16 values (no ties for a max)."""
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape))
    return _h(rng.permutation(np.linspace(-1, 1, n)).reshape(shape))


def _uniform(shape, seed=0, low=-1.0, high=1.0):
    return _h(np.random.RandomState(seed).uniform(low, high, shape))


# Rois in image coordinates (spatial_scale 0.5 maps them onto an 8 x 10 map); corners on
# quarter pixels so that rounding and bin edges are exact; the last roi has no image.
ROIS = _h(np.array([[0, 1.5, 2.5, 13.5, 11.5], [1, 0.5, 0.5, 17.5, 14.5],
                    [1, 4.5, 3.5, 9.5, 8.5], [0, -3.5, -2.5, 7.5, 19.5],
                    [3, 1.5, 1.5, 5.5, 5.5]]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_roi_pooling_and_gradient(dtype):
    check_fn(lambda d, r: mx.nd.ROIPooling(d, r, pooled_size=(3, 2), spatial_scale=0.5),
             [_distinct((2, 3, 8, 10)), ROIS], dtype, True, "ROIPooling")


# Rois whose sizes divided by the bins are not near integers (the adaptive sample grid).
ALIGN_ROIS = _h(np.array([[0, 1.3, 2.2, 12.9, 11.1], [1, 0.6, 0.7, 17.2, 13.8],
                          [1, 4.1, 3.3, 9.6, 8.7], [0, -3.1, -2.3, 7.7, 17.3],
                          [-1, 1.0, 1.0, 5.0, 5.0]]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sample_ratio,aligned,ps", [(2, False, False), (-1, False, False),
                                                     (2, True, False), (-1, True, False),
                                                     (2, False, True)])
def test_roi_align_and_gradient(sample_ratio, aligned, ps, dtype):
    channels = 8 if ps else 3
    check_fn(lambda d, r: mx.nd.contrib.ROIAlign(d, r, pooled_size=(2, 2), spatial_scale=0.5,
                                                 sample_ratio=sample_ratio, aligned=aligned,
                                                 position_sensitive=ps),
             [_uniform((2, channels, 8, 10)), ALIGN_ROIS], dtype, True,
             "ROIAlign sample_ratio=%d aligned=%s ps=%s" % (sample_ratio, aligned, ps),
             tol=SUM_TOL[dtype])


# PSROIPooling rounds the corners, then scales: bin edges (k * bin + start) land on quarters.
PS_ROIS = _h(np.array([[0, 1, 2, 12, 10], [1, 0, 0, 16, 14], [1, 4, 3, 11, 6],
                       [0, -3, -2, 7, 19], [2, 1, 1, 5, 5]]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("group", [0, 2])
def test_psroi_pooling_and_gradient(group, dtype):
    pooled = 2
    g = group or pooled
    check_fn(lambda d, r: mx.nd.contrib.PSROIPooling(d, r, spatial_scale=0.5, output_dim=3,
                                                     pooled_size=pooled, group_size=group),
             [_uniform((2, 3 * g * g, 8, 10)), PS_ROIS], dtype, True,
             "PSROIPooling group=%d" % group, tol=SUM_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_rroi_align(dtype):
    rois = _h(np.array([[0, 5.3, 4.1, 6.2, 3.3, 30.0], [1, 3.7, 6.2, 4.6, 5.8, -65.0],
                        [0, 8.2, 4.4, 9.9, 2.1, 10.0], [2, 1, 1, 2, 2, 0]]))
    check_fn(lambda d, r: mx.nd.contrib.RROIAlign(d, r, pooled_size=(3, 2), spatial_scale=0.5,
                                                  sampling_ratio=2),
             [_uniform((2, 3, 9, 10)), rois], dtype, False, "RROIAlign")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("no_trans", [False, True])
def test_deformable_psroi_pooling_and_gradient(no_trans, dtype):
    rois = _h(np.array([[0, 1, 2, 9, 7], [1, 0, 0, 10, 8], [0, 4, 3, 5, 4], [5, 1, 1, 4, 4]]))
    arrays = [_uniform((2, 8, 9, 11)), rois]
    if not no_trans:
        arrays.append(_uniform((4, 4, 2, 2), seed=1, low=-0.7, high=0.7))
    check_fn(lambda *a: mx.nd.contrib.DeformablePSROIPooling(
                 *a, spatial_scale=0.35, output_dim=2, group_size=2, pooled_size=2,
                 part_size=2, sample_per_part=2, trans_std=0.1, no_trans=no_trans),
             arrays, dtype, True, "DeformablePSROIPooling no_trans=%s" % no_trans,
             tol=SUM_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_grid_generator_and_gradient(dtype):
    theta = _h([[0.9, 0.1, 0.05, -0.1, 1.1, 0.02], [1.2, -0.3, 0.1, 0.2, 0.8, -0.1]])
    check_fn(lambda t: mx.nd.GridGenerator(t, transform_type="affine", target_shape=(5, 6)),
             [theta], dtype, True, "GridGenerator affine", tol=SUM_TOL[dtype])
    check_fn(lambda f: mx.nd.GridGenerator(f, transform_type="warp"),
             [_uniform((2, 2, 5, 6), low=-2, high=2)], dtype, True, "GridGenerator warp")


def _grid_points(n, h, w, oh, ow, seed=0):
    """A grid (n, 2, oh, ow) whose points sit 0.2-0.8 of a pixel past a pixel, some of them
    outside the image."""
    rng = np.random.RandomState(seed)
    xr = rng.randint(-2, w + 1, (n, oh, ow)) + rng.uniform(0.2, 0.8, (n, oh, ow))
    yr = rng.randint(-2, h + 1, (n, oh, ow)) + rng.uniform(0.2, 0.8, (n, oh, ow))
    return _h(np.stack([xr / ((w - 1) / 2.0) - 1, yr / ((h - 1) / 2.0) - 1], axis=1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_bilinear_sampler_and_gradient(dtype):
    data = _uniform((2, 3, 6, 9))
    check_fn(lambda d, g: mx.nd.BilinearSampler(d, g), [data, _grid_points(2, 6, 9, 4, 5)],
             dtype, True, "BilinearSampler", tol=SUM_TOL[dtype])


def _affine_away_from_pixels(h, w, oh, ow):
    """theta (2, 6) whose grid over (oh, ow) keeps every point 0.15+ of a pixel off the pixel
    lines of an h x w image."""
    rng = np.random.RandomState(3)
    ys, xs = np.meshgrid(np.linspace(-1, 1, oh), np.linspace(-1, 1, ow), indexing="ij")
    out = []
    while len(out) < 2:
        t = _h(np.array([rng.uniform(0.6, 1.1), rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2),
                         rng.uniform(-0.2, 0.2), rng.uniform(0.6, 1.1), rng.uniform(-0.2, 0.2)]))
        gx = (t[0] * xs + t[1] * ys + t[2] + 1) * (w - 1) / 2
        gy = (t[3] * xs + t[4] * ys + t[5] + 1) * (h - 1) / 2
        frac = np.concatenate([gx.ravel() % 1, gy.ravel() % 1])
        if np.all((frac > 0.15) & (frac < 0.85)):
            out.append(t)
    return np.array(out)


@pytest.mark.parametrize("dtype", DTYPES)
def test_spatial_transformer_and_gradient(dtype):
    data = _uniform((2, 3, 7, 8))
    loc = _affine_away_from_pixels(7, 8, 3, 4)
    check_fn(lambda d, l: mx.nd.SpatialTransformer(d, l, target_shape=(3, 4),
                                                   transform_type="affine",
                                                   sampler_type="bilinear"),
             [data, loc], dtype, True, "SpatialTransformer", tol=SUM_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("params", [
    dict(kernel_size=1, max_displacement=2, stride1=1, stride2=1, pad_size=2),
    dict(kernel_size=3, max_displacement=2, stride1=2, stride2=1, pad_size=2),
    dict(kernel_size=1, max_displacement=4, stride1=1, stride2=2, pad_size=4),
    dict(kernel_size=3, max_displacement=1, stride1=1, stride2=1, pad_size=0)])
@pytest.mark.parametrize("is_multiply", [True, False])
def test_correlation_and_gradient(params, is_multiply, dtype):
    a, b = _uniform((2, 3, 7, 8), seed=1), _uniform((2, 3, 7, 8), seed=2)
    check_fn(lambda x, y: mx.nd.Correlation(x, y, is_multiply=is_multiply, **params), [a, b],
             dtype, True, "Correlation %s multiply=%s" % (params, is_multiply),
             tol=SUM_TOL[dtype])
