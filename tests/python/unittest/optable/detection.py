"""Op table: object-detection operators (src/operator/contrib/{bounding_box,roi_pooling,
multibox}.cc). The NumPy references here are direct loops written from the operators'
definitions; test_detection_ops.py reuses them and also compares with real MXNet 1.9.1."""
import math

import numpy as np

from . import FLOATS, OpEntry, Sample


# ---- geometry --------------------------------------------------------------------------------

def to_corner(b, fmt):
    b = np.asarray(b, dtype=np.float64)
    if fmt == "corner":
        return b.copy()
    x, y, w, h = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    return np.stack([x - w / 2, y - h / 2, x + w / 2, y + h / 2], -1)


def iou_one(a, b):
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = max(0.0, a[2] - a[0]) * max(0.0, a[3] - a[1]) + \
        max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def box_iou_ref(lhs, rhs, format="corner"):
    l = to_corner(lhs, format).reshape(-1, 4)
    r = to_corner(rhs, format).reshape(-1, 4)
    out = np.array([[iou_one(a, b) for b in r] for a in l]).reshape(
        lhs.shape[:-1] + rhs.shape[:-1])
    return out.astype(lhs.dtype)


def box_nms_ref(data, overlap_thresh=0.5, valid_thresh=0.0, topk=-1, coord_start=2,
                score_index=1, id_index=-1, background_id=-1, force_suppress=False,
                in_format="corner", out_format="corner"):
    """Greedy NMS per batch: valid rows sorted by score, kept rows first, then -1 rows."""
    shape = data.shape
    flat = data.astype(np.float64).reshape(-1, shape[-2], shape[-1])
    out = -np.ones_like(flat)
    for b, rows in enumerate(flat):
        cand = [i for i, r in enumerate(rows) if r[score_index] > valid_thresh and not (
            id_index >= 0 and background_id >= 0 and r[id_index] == background_id)]
        cand.sort(key=lambda i: -rows[i][score_index])
        if topk > 0:
            cand = cand[:topk]
        corners = [to_corner(rows[i][coord_start:coord_start + 4], in_format) for i in cand]
        keep = [True] * len(cand)
        for i in range(len(cand)):
            if not keep[i]:
                continue
            for j in range(i + 1, len(cand)):
                same = force_suppress or id_index < 0 or \
                    rows[cand[i]][id_index] == rows[cand[j]][id_index]
                if keep[j] and same and iou_one(corners[i], corners[j]) > overlap_thresh:
                    keep[j] = False
        pos = 0
        for k, i in enumerate(cand):
            if not keep[k]:
                continue
            out[b, pos] = rows[i]
            if in_format != out_format:
                c = corners[k]
                out[b, pos, coord_start:coord_start + 4] = [
                    (c[0] + c[2]) / 2, (c[1] + c[3]) / 2, c[2] - c[0], c[3] - c[1]] \
                    if out_format == "center" else c
            pos += 1
    return out.reshape(shape).astype(data.dtype)


def bipartite_matching_ref(data, threshold, is_ascend=False, topk=-1):
    shape = data.shape
    flat = data.astype(np.float64).reshape(-1, shape[-2], shape[-1])
    rows = -np.ones(flat.shape[:2])
    cols = -np.ones((flat.shape[0], flat.shape[2]))
    for b, s in enumerate(flat):
        order = np.argsort(s.ravel() if is_ascend else -s.ravel(), kind="stable")
        count = 0
        for k in order:
            v = s.ravel()[k]
            if not (v < threshold if is_ascend else v > threshold):
                break
            r, c = divmod(int(k), s.shape[1])
            if rows[b, r] != -1 or cols[b, c] != -1:
                continue
            rows[b, r], cols[b, c] = c, r
            count += 1
            if topk > 0 and count > topk:   # 1.9.1 makes topk + 1 matches
                break
    return (rows.reshape(shape[:-1]).astype(data.dtype),
            cols.reshape(shape[:-2] + shape[-1:]).astype(data.dtype))


def _center(c):
    w, h = c[..., 2] - c[..., 0], c[..., 3] - c[..., 1]
    return c[..., 0] + w / 2, c[..., 1] + h / 2, w, h


def box_encode_ref(samples, matches, anchors, refs, means, stds):
    targets = np.zeros(anchors.shape)
    masks = np.zeros(anchors.shape)
    for b in range(samples.shape[0]):
        for i in range(samples.shape[1]):
            if samples[b, i] <= 0.5:
                continue
            ax, ay, aw, ah = _center(anchors[b, i].astype(np.float64))
            gx, gy, gw, gh = _center(refs[b, int(matches[b, i])].astype(np.float64))
            t = np.array([(gx - ax) / aw, (gy - ay) / ah, np.log(gw / aw), np.log(gh / ah)])
            targets[b, i] = (t - means) / stds
            masks[b, i] = 1
    return targets.astype(anchors.dtype), masks.astype(anchors.dtype)


def box_decode_ref(data, anchors, std0=1.0, std1=1.0, std2=1.0, std3=1.0, clip=-1.0,
                   format="center"):
    ax, ay, aw, ah = _center(to_corner(anchors, format))
    d = data.astype(np.float64)
    ox = d[..., 0] * std0 * aw + ax
    oy = d[..., 1] * std1 * ah + ay
    dw, dh = d[..., 2] * std2, d[..., 3] * std3
    if clip > 0:
        dw, dh = np.minimum(dw, clip), np.minimum(dh, clip)
    hw, hh = np.exp(dw) * aw / 2, np.exp(dh) * ah / 2
    return np.stack([ox - hw, oy - hh, ox + hw, oy + hh], -1).astype(data.dtype)


# ---- ROI pooling -----------------------------------------------------------------------------

def _c_round(x):
    return math.copysign(math.floor(abs(x) + 0.5), x)


def roi_pooling_ref(data, rois, pooled_size, spatial_scale):
    n, c, h, w = data.shape
    ph, pw = pooled_size
    spatial_scale = float(np.float32(spatial_scale))   # a float parameter in MXNet
    out = np.zeros((rois.shape[0], c, ph, pw))
    for r, roi in enumerate(rois.astype(np.float64)):
        b = int(roi[0])
        if b < 0 or b >= n:
            continue
        x1, y1, x2, y2 = [int(_c_round(v * spatial_scale)) for v in roi[1:]]
        bin_h = max(y2 - y1 + 1, 1) / ph
        bin_w = max(x2 - x1 + 1, 1) / pw
        for i in range(ph):
            hs = min(max(int(math.floor(i * bin_h)) + y1, 0), h)
            he = min(max(int(math.ceil((i + 1) * bin_h)) + y1, 0), h)
            for j in range(pw):
                ws = min(max(int(math.floor(j * bin_w)) + x1, 0), w)
                we = min(max(int(math.ceil((j + 1) * bin_w)) + x1, 0), w)
                if he > hs and we > ws:
                    out[r, :, i, j] = data[b, :, hs:he, ws:we].max(axis=(1, 2))
    return out.astype(data.dtype)


def _bilinear(plane, y, x):
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


def roi_align_ref(data, rois, pooled_size, spatial_scale, sample_ratio=-1,
                  position_sensitive=False, aligned=False):
    n, c, h, w = data.shape
    ph, pw = pooled_size
    spatial_scale = float(np.float32(spatial_scale))   # a float parameter in MXNet
    c_out = c // (ph * pw) if position_sensitive else c
    out = np.zeros((rois.shape[0], c_out, ph, pw))
    off = 0.5 if aligned else 0.0
    d = data.astype(np.float64)
    for r, roi in enumerate(rois.astype(np.float64)):
        b = int(roi[0])
        if b < 0 or b >= n:
            continue
        x1, y1 = roi[1] * spatial_scale - off, roi[2] * spatial_scale - off
        rw, rh = roi[3] * spatial_scale - off - x1, roi[4] * spatial_scale - off - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / ph, rw / pw
        gh = sample_ratio if sample_ratio > 0 else int(math.ceil(rh / ph))
        gw = sample_ratio if sample_ratio > 0 else int(math.ceil(rw / pw))
        count = max(gh * gw, 1)
        for co in range(c_out):
            for i in range(ph):
                for j in range(pw):
                    ci = (co * ph + i) * pw + j if position_sensitive else co
                    total = 0.0
                    for iy in range(gh):
                        y = y1 + i * bh + (iy + 0.5) * bh / gh
                        for ix in range(gw):
                            x = x1 + j * bw + (ix + 0.5) * bw / gw
                            total += _bilinear(d[b, ci], y, x)
                    out[r, co, i, j] = total / count
    return out.astype(data.dtype)


def psroi_pooling_ref(data, rois, spatial_scale, output_dim, pooled_size, group_size=0):
    n, c, h, w = data.shape
    group = group_size if group_size > 0 else pooled_size
    scale = float(np.float32(spatial_scale))
    out = np.zeros((rois.shape[0], output_dim, pooled_size, pooled_size))
    d = data.astype(np.float64)
    for r, roi in enumerate(rois.astype(np.float64)):
        b = int(roi[0])
        if b < 0 or b >= n:
            continue
        x1, y1 = _c_round(roi[1]) * scale, _c_round(roi[2]) * scale
        x2, y2 = (_c_round(roi[3]) + 1) * scale, (_c_round(roi[4]) + 1) * scale
        bw, bh = max(x2 - x1, 0.1) / pooled_size, max(y2 - y1, 0.1) / pooled_size
        for i in range(pooled_size):
            hs = min(max(int(math.floor(i * bh + y1)), 0), h)
            he = min(max(int(math.ceil((i + 1) * bh + y1)), 0), h)
            gi = min(max(i * group // pooled_size, 0), group - 1)
            for j in range(pooled_size):
                ws = min(max(int(math.floor(j * bw + x1)), 0), w)
                we = min(max(int(math.ceil((j + 1) * bw + x1)), 0), w)
                gj = min(max(j * group // pooled_size, 0), group - 1)
                if he <= hs or we <= ws:
                    continue
                for co in range(output_dim):
                    out[r, co, i, j] = d[b, (co * group + gi) * group + gj, hs:he, ws:we].mean()
    return out.astype(data.dtype)


# ---- SSD -------------------------------------------------------------------------------------

def multibox_prior_ref(data, sizes=(1.0,), ratios=(1.0,), clip=False, steps=(-1.0, -1.0),
                       offsets=(0.5, 0.5)):
    h, w = data.shape[2:]
    sy = steps[0] if steps[0] > 0 else 1.0 / h
    sx = steps[1] if steps[1] > 0 else 1.0 / w
    boxes = []
    for r in range(h):
        cy = (r + offsets[0]) * sy
        for c in range(w):
            cx = (c + offsets[1]) * sx
            halves = [(s * h / w / 2, s / 2) for s in sizes]
            halves += [(sizes[0] * h / w * math.sqrt(q) / 2, sizes[0] / math.sqrt(q) / 2)
                       for q in ratios[1:]]
            boxes += [[cx - hw, cy - hh, cx + hw, cy + hh] for hw, hh in halves]
    out = np.array(boxes)[None]
    if clip:
        out = np.clip(out, 0, 1)
    return out.astype(data.dtype)


# ---- samples ---------------------------------------------------------------------------------

def _boxes(rng, shape, dtype):
    xy = rng.uniform(0, 1, size=shape[:-1] + (2,))
    wh = rng.uniform(0.05, 0.5, size=shape[:-1] + (2,))
    return np.concatenate([xy, xy + wh], -1).astype(dtype)


def _iou_arrays(lshape, rshape):
    return lambda rng, dtype: [_boxes(rng, lshape, dtype), _boxes(rng, rshape, dtype)]


def nms_data(rng, dtype, batch=(2,), n=12):
    return [nms_array(rng, dtype, batch, n)]


def nms_array(rng, dtype, batch=(2,), n=12):
    ids = rng.randint(0, 3, size=batch + (n, 1))
    scores = rng.uniform(0, 1, size=batch + (n, 1))
    return np.concatenate([ids, scores, _boxes(rng, batch + (n, 4), "float64")],
                          -1).astype(dtype)


# rois with integer coordinates (the gradient tests skip integer-valued inputs: rois carry no
# gradient), some outside the map, one with a batch index of another image.
ROIS = np.array([[0, 2, 3, 30, 21], [1, 0, 0, 43, 35], [1, 10, 7, 15, 10], [0, -5, -3, 8, 50],
                 [1, 30, 20, 60, 80], [0, 3, 3, 3, 3]], dtype=np.float64)


def roi_arrays(shape=(2, 4, 9, 11), rois=ROIS):
    return lambda rng, dtype: [rng.uniform(-1, 1, size=shape).astype(dtype),
                               rois.astype(dtype)]


ENTRIES = [
    OpEntry("contrib.box_iou", ref=box_iou_ref, grad=False,
            samples=[Sample(arrays=_iou_arrays((3, 4), (2, 5, 4))),
                     Sample(arrays=_iou_arrays((6, 4), (4,)), kwargs={"format": "center"})]),
    OpEntry("contrib.box_nms", ref=box_nms_ref, covers=("_contrib_box_non_maximum_suppression",),
            samples=[Sample(arrays=nms_data),
                     Sample(arrays=nms_data, kwargs={"overlap_thresh": 0.2, "topk": 5,
                                                     "valid_thresh": 0.1, "id_index": 0}),
                     Sample(arrays=lambda rng, dtype: nms_data(rng, dtype, (2, 2), 8),
                            kwargs={"overlap_thresh": 0.1, "id_index": 0,
                                    "force_suppress": True})]),
    # Not differentiated: a perturbed class id stops matching background_id; the format
    # conversion is not part of 1.9.1's gradient (it routes rows unchanged).
    OpEntry("contrib.box_nms", ref=box_nms_ref, grad=False,
            samples=[Sample(arrays=lambda rng, dtype: nms_data(rng, dtype, (2, 2), 8),
                            kwargs={"overlap_thresh": 0.1, "id_index": 0, "background_id": 1}),
                     Sample(arrays=nms_data, kwargs={"out_format": "center",
                                                     "overlap_thresh": 0.2}),
                     Sample(arrays=nms_data, kwargs={"in_format": "center",
                                                     "overlap_thresh": 0.3})]),
    OpEntry("contrib.bipartite_matching", ref=bipartite_matching_ref, grad=False,
            samples=[Sample(shapes=[(2, 5, 7)], kwargs={"threshold": 0.3}),
                     Sample(shapes=[(3, 4)], kwargs={"threshold": 0.6, "is_ascend": True}),
                     Sample(shapes=[(2, 6, 4)], kwargs={"threshold": 0.1, "topk": 2})],
            low=0.0, high=1.0),
    OpEntry("contrib.box_encode", ref=box_encode_ref, grad=False,
            samples=[Sample(arrays=lambda rng, dtype: [
                rng.choice([-1.0, 0.0, 1.0], size=(2, 6)).astype(dtype),
                rng.randint(0, 3, size=(2, 6)).astype(dtype), _boxes(rng, (2, 6, 4), dtype),
                _boxes(rng, (2, 3, 4), dtype), np.array([0.1, 0.2, 0.0, 0.05], dtype),
                np.array([0.1, 0.1, 0.2, 0.2], dtype)])], rtol=1e-4, atol=1e-5),
    OpEntry("contrib.box_decode", ref=box_decode_ref, grad=False,
            samples=[Sample(arrays=lambda rng, dtype: [
                rng.normal(size=(2, 6, 4)).astype(dtype),
                np.abs(rng.uniform(0.1, 1, size=(1, 6, 4))).astype(dtype)]),
                Sample(arrays=lambda rng, dtype: [
                    rng.normal(size=(2, 6, 4)).astype(dtype), _boxes(rng, (1, 6, 4), dtype)],
                    kwargs={"std0": 0.1, "std1": 0.1, "std2": 0.2, "std3": 0.2, "clip": 0.3,
                            "format": "corner"})], rtol=1e-4, atol=1e-5),
    OpEntry("ROIPooling", ref=roi_pooling_ref,
            samples=[Sample(arrays=roi_arrays(), kwargs={"pooled_size": (2, 3),
                                                         "spatial_scale": 0.25}),
                     Sample(arrays=roi_arrays(), kwargs={"pooled_size": (3, 3),
                                                         "spatial_scale": 0.5})]),
    OpEntry("contrib.ROIAlign", ref=roi_align_ref, rtol=1e-4, atol=1e-5,
            samples=[Sample(arrays=roi_arrays(), kwargs={"pooled_size": (2, 3),
                                                         "spatial_scale": 0.25}),
                     Sample(arrays=roi_arrays(), kwargs={"pooled_size": (3, 3),
                                                         "spatial_scale": 0.5,
                                                         "sample_ratio": 2}),
                     Sample(arrays=roi_arrays(), kwargs={"pooled_size": (2, 2),
                                                         "spatial_scale": 0.25,
                                                         "position_sensitive": True}),
                     Sample(arrays=roi_arrays(), kwargs={"pooled_size": (2, 3),
                                                         "spatial_scale": 0.35,
                                                         "aligned": True})]),
    OpEntry("contrib.PSROIPooling", ref=psroi_pooling_ref, rtol=1e-4, atol=1e-5,
            samples=[Sample(arrays=roi_arrays((2, 18, 9, 11)),
                            kwargs={"spatial_scale": 0.25, "output_dim": 2, "pooled_size": 3}),
                     Sample(arrays=roi_arrays((2, 12, 9, 11)),
                            kwargs={"spatial_scale": 0.5, "output_dim": 3, "pooled_size": 4,
                                    "group_size": 2})]),
    OpEntry("contrib.MultiBoxPrior", ref=multibox_prior_ref, grad=False,
            samples=[Sample(shapes=[(2, 3, 4, 5)]),
                     Sample(shapes=[(1, 2, 3, 3)], kwargs={"sizes": (0.5, 0.25),
                                                          "ratios": (1, 2, 0.5)}),
                     Sample(shapes=[(1, 2, 4, 2)], kwargs={
                         "sizes": (0.7, 0.3), "ratios": (1, 3), "clip": True,
                         "steps": (0.2, 0.1), "offsets": (0.3, 0.6)})]),
]

EXEMPT = {
    "_contrib_Proposal": "RPN proposal generation with no gradient; checked against real MXNet "
                         "1.9.1 outputs in test_detection_ops.py",
    "_contrib_MultiProposal": "batched RPN proposals with no gradient; checked against real "
                              "MXNet 1.9.1 outputs in test_detection_ops.py",
    "_contrib_MultiBoxTarget": "training-target assignment with no gradient; checked against "
                               "real MXNet 1.9.1 outputs in test_detection_ops.py",
    "_contrib_MultiBoxDetection": "decoding + NMS with no gradient; checked against real "
                                  "MXNet 1.9.1 outputs and properties in test_detection_ops.py",
}
