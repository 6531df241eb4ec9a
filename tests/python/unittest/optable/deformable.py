"""Op table: deformable and rotated-ROI operators (src/operator/contrib/{deformable_convolution,
deformable_psroi_pooling,rroi_align}.cc). The NumPy references are written from the operators'
definitions (float64); test_deformable_ops.py reuses them and compares with MXNet 1.9.1.

Sampling conventions (as MXNet 1.9.1):
- DeformableConvolution (v1) samples a point (y, x) only when 0 <= y < H and 0 <= x < W, and
  clamps the interpolation at the last row/column (a point in [H-1, H) reads row H-1).
- ModulatedDeformableConvolution (v2) samples when -1 < y < H and -1 < x < W and treats the
  cells outside the map as zeros.
- DeformablePSROIPooling skips samples outside [-0.5, size-0.5], clamps the others to the map.
- RROIAlign samples like ROIAlign: points outside [-1, size] are 0, the rest clamped.
"""
import math

import numpy as np

from . import FLOATS, OpEntry, Sample


def _pair(v, default):
    if v is None or len(v) == 0:
        return (default, default)
    return tuple(int(a) for a in v)


def _out_size(x, k, s, d, p):
    return (x + 2 * p - d * (k - 1) - 1) // s + 1


# ---- bilinear sampling (vectorised over arbitrary point arrays) ------------------------------

def _sample_v1(plane, y, x):
    """DCNv1 sampling of a (H, W) plane at points y, x (same-shape arrays)."""
    h, w = plane.shape
    valid = (y >= 0) & (x >= 0) & (y < h) & (x < w)
    y = np.where(valid, y, 0.0)
    x = np.where(valid, x, 0.0)
    y0 = np.floor(y).astype(np.int64)
    x0 = np.floor(x).astype(np.int64)
    ylast, xlast = y0 >= h - 1, x0 >= w - 1
    y0 = np.where(ylast, h - 1, y0)
    x0 = np.where(xlast, w - 1, x0)
    y1 = np.where(ylast, h - 1, y0 + 1)
    x1 = np.where(xlast, w - 1, x0 + 1)
    ly = np.where(ylast, 0.0, y - y0)
    lx = np.where(xlast, 0.0, x - x0)
    v = ((1 - ly) * (1 - lx) * plane[y0, x0] + (1 - ly) * lx * plane[y0, x1] +
         ly * (1 - lx) * plane[y1, x0] + ly * lx * plane[y1, x1])
    return np.where(valid, v, 0.0)


def _sample_v2(plane, y, x):
    """DCNv2 sampling: zero outside the map, corners outside the map count as 0."""
    h, w = plane.shape
    valid = (y > -1) & (x > -1) & (y < h) & (x < w)
    y = np.where(valid, y, -5.0)
    x = np.where(valid, x, -5.0)
    y0 = np.floor(y).astype(np.int64)
    x0 = np.floor(x).astype(np.int64)
    ly, lx = y - y0, x - x0

    def at(yy, xx):
        ok = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
        return np.where(ok, plane[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)], 0.0)

    v = ((1 - ly) * (1 - lx) * at(y0, x0) + (1 - ly) * lx * at(y0, x0 + 1) +
         ly * (1 - lx) * at(y0 + 1, x0) + ly * lx * at(y0 + 1, x0 + 1))
    return np.where(valid, v, 0.0)


# ---- deformable convolution ------------------------------------------------------------------

def _deformable_columns(data, offset, mask, kernel, stride, dilate, pad, dg, sample):
    """The sampled columns (N, C, KH, KW, OH, OW)."""
    n, c, h, w = data.shape
    kh, kw = kernel
    sh, sw = _pair(stride, 1)
    dh, dw = _pair(dilate, 1)
    ph, pw = _pair(pad, 0)
    oh, ow = _out_size(h, kh, sh, dh, ph), _out_size(w, kw, sw, dw, pw)
    off = offset.astype(np.float64).reshape(n, dg, kh, kw, 2, oh, ow)
    m = None if mask is None else mask.astype(np.float64).reshape(n, dg, kh, kw, oh, ow)
    base_y = (np.arange(oh) * sh - ph)[:, None]
    base_x = (np.arange(ow) * sw - pw)[None, :]
    cols = np.zeros((n, c, kh, kw, oh, ow))
    d = data.astype(np.float64)
    cpg = c // dg
    for b in range(n):
        for ch in range(c):
            g = ch // cpg
            for i in range(kh):
                for j in range(kw):
                    y = base_y + i * dh + off[b, g, i, j, 0]
                    x = base_x + j * dw + off[b, g, i, j, 1]
                    v = sample(d[b, ch], y, x)
                    if m is not None:
                        v = v * m[b, g, i, j]
                    cols[b, ch, i, j] = v
    return cols


def _grouped_gemm(cols, weight, bias, num_group, no_bias):
    n, c, kh, kw, oh, ow = cols.shape
    f = weight.shape[0]
    cg, fg = c // num_group, f // num_group
    wt = weight.astype(np.float64)
    out = np.zeros((n, f, oh, ow))
    for g in range(num_group):
        out[:, g * fg:(g + 1) * fg] = np.einsum(
            "ncijyx,fcij->nfyx", cols[:, g * cg:(g + 1) * cg], wt[g * fg:(g + 1) * fg])
    if not no_bias and bias is not None:
        out += bias.astype(np.float64).reshape(1, f, 1, 1)
    return out


def deformable_conv_ref(data, offset, weight, bias=None, kernel=(), stride=(), dilate=(), pad=(),
                        num_filter=None, num_group=1, num_deformable_group=1, no_bias=False,
                        **_):
    cols = _deformable_columns(data, offset, None, kernel, stride, dilate, pad,
                               num_deformable_group, _sample_v1)
    return _grouped_gemm(cols, weight, bias, num_group, no_bias).astype(data.dtype)


def modulated_deformable_conv_ref(data, offset, mask, weight, bias=None, kernel=(), stride=(),
                                  dilate=(), pad=(), num_filter=None, num_group=1,
                                  num_deformable_group=1, no_bias=False, **_):
    cols = _deformable_columns(data, offset, mask, kernel, stride, dilate, pad,
                               num_deformable_group, _sample_v2)
    return _grouped_gemm(cols, weight, bias, num_group, no_bias).astype(data.dtype)


# ---- deformable PS-ROI pooling ---------------------------------------------------------------

def _c_round(x):
    return math.copysign(math.floor(abs(x) + 0.5), x)


def _interp_clamped(plane, y, x):
    y0, x0 = int(math.floor(y)), int(math.floor(x))
    y1, x1 = int(math.ceil(y)), int(math.ceil(x))
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * plane[y0, x0] + (1 - ly) * lx * plane[y0, x1] +
            ly * (1 - lx) * plane[y1, x0] + ly * lx * plane[y1, x1])


def deformable_psroi_pooling_ref(data, rois, trans=None, spatial_scale=1.0, output_dim=1,
                                 group_size=1, pooled_size=1, part_size=0, sample_per_part=1,
                                 trans_std=0.0, no_trans=False):
    """Returns (output, top_count)."""
    n, c, h, w = data.shape
    p = pooled_size
    part = part_size if part_size > 0 else p
    scale = float(np.float32(spatial_scale))
    tstd = float(np.float32(trans_std))
    classes = 1 if no_trans else trans.shape[1] // 2
    per_class = output_dim // classes
    out = np.zeros((rois.shape[0], output_dim, p, p))
    count = np.zeros_like(out)
    d = data.astype(np.float64)
    for r, roi in enumerate(rois.astype(np.float64)):
        b = int(roi[0])
        if b < 0 or b >= n:   # MXNet 1.9.1 reads out of bounds here; this library gives 0
            continue
        x1 = _c_round(roi[1]) * scale - 0.5
        y1 = _c_round(roi[2]) * scale - 0.5
        x2 = (_c_round(roi[3]) + 1) * scale - 0.5
        y2 = (_c_round(roi[4]) + 1) * scale - 0.5
        rw, rh = max(x2 - x1, 0.1), max(y2 - y1, 0.1)
        bw, bh = rw / p, rh / p
        sbw, sbh = bw / sample_per_part, bh / sample_per_part
        for co in range(output_dim):
            cls = co // per_class
            for i in range(p):
                part_h = int(math.floor(i / p * part))
                gi = min(max(int(math.floor(i * group_size / p)), 0), group_size - 1)
                for j in range(p):
                    part_w = int(math.floor(j / p * part))
                    gj = min(max(int(math.floor(j * group_size / p)), 0), group_size - 1)
                    tx = ty = 0.0
                    if not no_trans:
                        tx = float(trans[r, 2 * cls, part_h, part_w]) * tstd
                        ty = float(trans[r, 2 * cls + 1, part_h, part_w]) * tstd
                    ws = j * bw + x1 + tx * rw
                    hs = i * bh + y1 + ty * rh
                    plane = d[b, (co * group_size + gi) * group_size + gj]
                    total, cnt = 0.0, 0
                    for iy in range(sample_per_part):
                        for ix in range(sample_per_part):
                            x = ws + ix * sbw
                            y = hs + iy * sbh
                            if x < -0.5 or x > w - 0.5 or y < -0.5 or y > h - 0.5:
                                continue
                            x = min(max(x, 0.0), w - 1.0)
                            y = min(max(y, 0.0), h - 1.0)
                            total += _interp_clamped(plane, y, x)
                            cnt += 1
                    out[r, co, i, j] = total / cnt if cnt else 0.0
                    count[r, co, i, j] = cnt
    return out.astype(data.dtype), count.astype(data.dtype)


def _dpsroi_output_only(*args, **kwargs):
    return deformable_psroi_pooling_ref(*args, **kwargs)[0]


# ---- rotated ROI align -----------------------------------------------------------------------

def _sample_clamped(plane, y, x):
    h, w = plane.shape
    if y < -1 or y > h or x < -1 or x > w:
        return 0.0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * plane[y0, x0] + (1 - ly) * lx * plane[y0, x1] +
            ly * (1 - lx) * plane[y1, x0] + ly * lx * plane[y1, x1])


def rroi_align_ref(data, rois, pooled_size=(1, 1), spatial_scale=1.0, sampling_ratio=-1):
    n, c, h, w = data.shape
    ph, pw = pooled_size
    scale = float(np.float32(spatial_scale))
    out = np.zeros((rois.shape[0], c, ph, pw))
    d = data.astype(np.float64)
    for r, roi in enumerate(rois.astype(np.float64)):
        b = int(roi[0])
        if b < 0 or b >= n:
            continue
        cx, cy = roi[1] * scale, roi[2] * scale
        rw, rh = max(roi[3] * scale, 1.0), max(roi[4] * scale, 1.0)
        theta = roi[5] * math.pi / 180.0
        ct, st = math.cos(theta), math.sin(theta)
        bh, bw = rh / ph, rw / pw
        gh = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rh / ph))
        gw = sampling_ratio if sampling_ratio > 0 else int(math.ceil(rw / pw))
        cnt = max(gh * gw, 1)
        for i in range(ph):
            for j in range(pw):
                pts = []
                for iy in range(gh):
                    yy = -rh / 2 + i * bh + (iy + 0.5) * bh / gh
                    for ix in range(gw):
                        xx = -rw / 2 + j * bw + (ix + 0.5) * bw / gw
                        pts.append((yy * ct - xx * st + cy, xx * ct + yy * st + cx))
                for ch in range(c):
                    out[r, ch, i, j] = sum(_sample_clamped(d[b, ch], y, x) for y, x in pts) / cnt
    return out.astype(data.dtype)


# ---- samples ---------------------------------------------------------------------------------

def _fractional(rng, shape, lo, hi):
    """Values in [lo, hi) whose fractional part stays in [0.2, 0.8]: sample points keep away
    from the integer grid, where bilinear sampling has kinks (finite differences)."""
    return rng.randint(lo, hi, size=shape) + rng.uniform(0.2, 0.8, size=shape)


def dconv_arrays(n, c, hw, f, kernel, out_hw, dg=1, mask=False, bias=True, lo=-2, hi=2):
    def make(rng, dtype):
        kh, kw = kernel
        arrays = [rng.uniform(-1, 1, size=(n, c) + hw),
                  _fractional(rng, (n, dg * 2 * kh * kw) + out_hw, lo, hi)]
        if mask:
            arrays.append(rng.uniform(0.1, 1.9, size=(n, dg * kh * kw) + out_hw))
        arrays.append(rng.uniform(-1, 1, size=(f, c) + tuple(kernel)))
        if bias:
            arrays.append(rng.uniform(-1, 1, size=(f,)))
        return [a.astype(dtype) for a in arrays]
    return make


def dconv_grouped_arrays(n, c, hw, f, g, kernel, out_hw, dg, mask=False):
    def make(rng, dtype):
        arrays = dconv_arrays(n, c, hw, f, kernel, out_hw, dg, mask)(rng, dtype)
        widx = 3 if mask else 2
        arrays[widx] = arrays[widx][:, :c // g].copy()
        return arrays
    return make


def dpsroi_arrays(shape, rois, trans_shape=None):
    def make(rng, dtype):
        arrays = [rng.uniform(-1, 1, size=shape), np.asarray(rois, dtype=np.float64)]
        if trans_shape is not None:
            arrays.append(rng.uniform(-1, 1, size=trans_shape))
        return [a.astype(dtype) for a in arrays]
    return make


# Rotated rois: [batch, cx, cy, w, h, angle in degrees].
RROIS = np.array([[0, 5.3, 4.1, 6.2, 3.3, 30.0], [1, 3.7, 6.2, 4.6, 5.8, -65.0],
                  [1, 8.1, 2.4, 12.3, 2.7, 120.0], [0, 1.2, 7.7, 0.7, 0.4, 0.0]])

DPS_ROIS = np.array([[0, 1, 2, 9, 7], [1, 0, 0, 10, 8], [0, 4, 3, 5, 4]], dtype=np.float64)

ENTRIES = [
    OpEntry("contrib.DeformableConvolution", ref=deformable_conv_ref, rtol=1e-4, atol=1e-5,
            samples=[
                Sample(arrays=dconv_arrays(2, 3, (7, 6), 4, (3, 3), (5, 4)),
                       kwargs={"kernel": (3, 3), "num_filter": 4}),
                Sample(arrays=dconv_grouped_arrays(1, 4, (8, 7), 4, 2, (3, 2), (4, 4), 2),
                       kwargs={"kernel": (3, 2), "num_filter": 4, "num_group": 2,
                               "num_deformable_group": 2, "stride": (2, 2), "pad": (1, 1),
                               "dilate": (1, 2)}),
                Sample(arrays=dconv_arrays(1, 2, (5, 5), 3, (2, 2), (6, 6), bias=False),
                       kwargs={"kernel": (2, 2), "num_filter": 3, "pad": (1, 1),
                               "no_bias": True}),
            ]),
    OpEntry("contrib.ModulatedDeformableConvolution", ref=modulated_deformable_conv_ref,
            rtol=1e-4, atol=1e-5,
            samples=[
                Sample(arrays=dconv_arrays(2, 3, (7, 6), 4, (3, 3), (5, 4), mask=True),
                       kwargs={"kernel": (3, 3), "num_filter": 4}),
                Sample(arrays=dconv_grouped_arrays(1, 4, (8, 7), 4, 2, (3, 2), (4, 4), 2,
                                                   mask=True),
                       kwargs={"kernel": (3, 2), "num_filter": 4, "num_group": 2,
                               "num_deformable_group": 2, "stride": (2, 2), "pad": (1, 1),
                               "dilate": (1, 2)}),
                Sample(arrays=dconv_arrays(4, 2, (5, 5), 3, (2, 2), (6, 6), mask=True,
                                           bias=False),
                       kwargs={"kernel": (2, 2), "num_filter": 3, "pad": (1, 1),
                               "no_bias": True, "im2col_step": 2}),
            ]),
    OpEntry("contrib.DeformablePSROIPooling", ref=_dpsroi_output_only, rtol=1e-4, atol=1e-5,
            samples=[
                Sample(arrays=dpsroi_arrays((2, 8, 9, 11), DPS_ROIS, (3, 4, 2, 2)),
                       kwargs={"spatial_scale": 0.7, "output_dim": 2, "group_size": 2,
                               "pooled_size": 2, "sample_per_part": 2, "trans_std": 0.1}),
                Sample(arrays=dpsroi_arrays((2, 18, 9, 11), DPS_ROIS, (3, 2, 2, 2)),
                       kwargs={"spatial_scale": 0.8, "output_dim": 2, "group_size": 3,
                               "pooled_size": 3, "part_size": 2, "sample_per_part": 3,
                               "trans_std": 0.2}),
                Sample(arrays=dpsroi_arrays((2, 8, 9, 11), DPS_ROIS),
                       kwargs={"spatial_scale": 0.6, "output_dim": 2, "group_size": 2,
                               "pooled_size": 3, "sample_per_part": 2, "no_trans": True}),
            ]),
    OpEntry("contrib.RROIAlign", ref=rroi_align_ref, grad=False, rtol=1e-4, atol=1e-5,
            samples=[
                Sample(arrays=lambda rng, dtype: [
                    rng.uniform(-1, 1, size=(2, 3, 9, 10)).astype(dtype), RROIS.astype(dtype)],
                    kwargs={"pooled_size": (2, 3), "spatial_scale": 1.0}),
                Sample(arrays=lambda rng, dtype: [
                    rng.uniform(-1, 1, size=(2, 2, 9, 10)).astype(dtype), RROIS.astype(dtype)],
                    kwargs={"pooled_size": (3, 2), "spatial_scale": 0.8, "sampling_ratio": 2}),
            ]),
]
