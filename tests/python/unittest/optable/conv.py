"""Op table: Convolution, Deconvolution, Pooling, BatchNorm, with straightforward NumPy
references (float64, loops over kernel offsets / output windows). test_conv_ops.py reuses the
references for gradient, oneDNN-vs-native and MXNet 1.9.1 comparisons."""
import itertools

import numpy as np

from . import FLOATS, FLOATS_AND_HALF, OpEntry, Sample

# ------------------------------------------------------------------------------ helpers


def _tuple(v, n, default):
    if v is None or len(v) == 0:
        return (default,) * n
    return tuple(int(a) for a in v)


def conv_out_size(x, k, s, d, p):
    return (x + 2 * p - d * (k - 1) - 1) // s + 1


# --------------------------------------------------------------------------- convolution


def conv_ref(x, w, b=None, kernel=(), stride=(), dilate=(), pad=(), num_filter=None,
             num_group=1, no_bias=False, **_):
    """Cross-correlation of x (N, C, *sp) with w (F, C/G, *k), NumPy float64."""
    nsp = len(kernel)
    s = _tuple(stride, nsp, 1)
    d = _tuple(dilate, nsp, 1)
    p = _tuple(pad, nsp, 0)
    x = x.astype("float64")
    w = w.astype("float64")
    N, C = x.shape[:2]
    F = w.shape[0]
    G = num_group
    Cg, Fg = C // G, F // G
    out_sp = [conv_out_size(x.shape[2 + i], kernel[i], s[i], d[i], p[i]) for i in range(nsp)]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pi, pi) for pi in p])
    out = np.zeros((N, F) + tuple(out_sp))
    for g in range(G):
        for kk in itertools.product(*[range(k) for k in kernel]):
            sl = tuple(slice(kk[i] * d[i], kk[i] * d[i] + s[i] * (out_sp[i] - 1) + 1, s[i])
                       for i in range(nsp))
            patch = xp[(slice(None), slice(g * Cg, (g + 1) * Cg)) + sl]
            wk = w[(slice(g * Fg, (g + 1) * Fg), slice(None)) + tuple(kk)]  # (Fg, Cg)
            out[:, g * Fg:(g + 1) * Fg] += np.tensordot(patch, wk, axes=([1], [1])).transpose(
                [0, nsp + 1] + list(range(1, nsp + 1)))
    if not no_bias and b is not None:
        out += b.astype("float64").reshape((1, F) + (1,) * nsp)
    return out


# ------------------------------------------------------------------------- deconvolution


def deconv_pad_adj(in_sp, kernel, stride, dilate, pad, adj, target_shape):
    nsp = len(kernel)
    pads, adjs = list(pad), list(adj)
    if target_shape is not None and len(target_shape) and any(t > 0 for t in target_shape):
        for i in range(nsp):
            full = stride[i] * (in_sp[i] - 1) + dilate[i] * (kernel[i] - 1) + 1
            total = full - target_shape[i]
            pads[i] = (total + 1) // 2
            adjs[i] = total % 2
    return pads, adjs


def deconv_ref(x, w, b=None, kernel=(), stride=(), dilate=(), pad=(), adj=(), target_shape=(),
               num_filter=None, num_group=1, no_bias=True, **_):
    """Transposed convolution: scatter every input pixel times the kernel, then crop pad."""
    nsp = len(kernel)
    s = _tuple(stride, nsp, 1)
    d = _tuple(dilate, nsp, 1)
    p = _tuple(pad, nsp, 0)
    a = _tuple(adj, nsp, 0)
    x = x.astype("float64")
    w = w.astype("float64")
    N, C = x.shape[:2]
    G = num_group
    F = num_filter
    Cg, Fg = C // G, F // G
    in_sp = x.shape[2:]
    p, a = deconv_pad_adj(in_sp, kernel, s, d, p, a, target_shape)
    full = [s[i] * (in_sp[i] - 1) + d[i] * (kernel[i] - 1) + 1 for i in range(nsp)]
    out_sp = [full[i] - 2 * p[i] + a[i] for i in range(nsp)]
    big = np.zeros((N, F) + tuple(max(full[i], p[i] + out_sp[i]) for i in range(nsp)))
    for g in range(G):
        xs = x[:, g * Cg:(g + 1) * Cg]
        for kk in itertools.product(*[range(k) for k in kernel]):
            sl = tuple(slice(kk[i] * d[i], kk[i] * d[i] + s[i] * (in_sp[i] - 1) + 1, s[i])
                       for i in range(nsp))
            wk = w[(slice(g * Cg, (g + 1) * Cg), slice(None)) + tuple(kk)]  # (Cg, Fg)
            contrib = np.tensordot(xs, wk, axes=([1], [0]))  # (N, *in, Fg)
            contrib = np.moveaxis(contrib, -1, 1)
            big[(slice(None), slice(g * Fg, (g + 1) * Fg)) + sl] += contrib
    out = big[(slice(None), slice(None)) + tuple(slice(p[i], p[i] + out_sp[i])
                                                 for i in range(nsp))]
    if not no_bias and b is not None:
        out = out + b.astype("float64").reshape((1, F) + (1,) * nsp)
    return out


# ------------------------------------------------------------------------------- pooling


def pool_ref(x, kernel=(), pool_type="max", global_pool=False, pooling_convention="valid",
             stride=(), pad=(), p_value=None, count_include_pad=None, **_):
    x = x.astype("float64")
    nsp = x.ndim - 2
    in_sp = x.shape[2:]
    if global_pool:
        kernel, s, p = tuple(in_sp), (1,) * nsp, (0,) * nsp
    else:
        s = _tuple(stride, nsp, 1)
        p = _tuple(pad, nsp, 0)
    include = True if count_include_pad is None else count_include_pad
    out_sp = []
    for i in range(nsp):
        if global_pool:
            out_sp.append(1)
        elif pooling_convention == "valid":
            out_sp.append((in_sp[i] + 2 * p[i] - kernel[i]) // s[i] + 1)
        elif pooling_convention == "full":
            out_sp.append(-(-(in_sp[i] + 2 * p[i] - kernel[i]) // s[i]) + 1)
        else:  # same
            out_sp.append(-(-in_sp[i] // s[i]))
    if pooling_convention == "same" and not global_pool:
        p = tuple(max(0, (out_sp[i] - 1) * s[i] + kernel[i] - in_sp[i]) // 2 for i in range(nsp))
    out = np.zeros(x.shape[:2] + tuple(out_sp))
    for o in itertools.product(*[range(n) for n in out_sp]):
        starts = [o[i] * s[i] - p[i] for i in range(nsp)]
        lo = [max(st, 0) for st in starts]
        hi = [min(st + kernel[i], in_sp[i]) for i, st in enumerate(starts)]
        padded = [min(st + kernel[i], in_sp[i] + p[i]) - st for i, st in enumerate(starts)]
        win = x[(slice(None), slice(None)) + tuple(slice(lo[i], hi[i]) for i in range(nsp))]
        win = win.reshape(x.shape[:2] + (-1,))
        if pool_type == "max":
            val = win.max(axis=-1)
        elif pool_type == "sum":
            val = win.sum(axis=-1)
        elif pool_type == "lp":
            val = (np.abs(win) ** p_value).sum(axis=-1) ** (1.0 / p_value)
        else:
            count = np.prod(padded) if include else np.prod([h - l for l, h in zip(lo, hi)])
            val = win.sum(axis=-1) / count
        out[(slice(None), slice(None)) + tuple(o)] = val
    return out


# ----------------------------------------------------------------------------- batch norm


def bn_ref(x, gamma, beta, mm, mv, eps=1e-3, fix_gamma=True, use_global_stats=False,
           output_mean_var=False, axis=1, training=False, **_):
    """BatchNorm forward; returns out (and mean, invstd when output_mean_var)."""
    x = x.astype("float64")
    axis = axis % x.ndim
    red = tuple(i for i in range(x.ndim) if i != axis)
    bshape = [1] * x.ndim
    bshape[axis] = x.shape[axis]
    if training and not use_global_stats:
        mean = x.mean(axis=red)
        var = x.var(axis=red)
    else:
        mean = mm.astype("float64")
        var = mv.astype("float64")
    invstd = 1.0 / np.sqrt(var + eps)
    g = np.ones_like(mean) if fix_gamma else gamma.astype("float64")
    out = (x - mean.reshape(bshape)) * (invstd * g).reshape(bshape) + \
        beta.astype("float64").reshape(bshape)
    if output_mean_var:
        return out, mean, invstd
    return out


def bn_inputs(shape, axis=1):
    def make(rng, dtype):
        c = shape[axis]
        pdtype = "float32" if dtype == "float16" else dtype
        x = rng.uniform(-2, 2, size=shape).astype(dtype)
        gamma = rng.uniform(0.5, 1.5, size=(c,)).astype(pdtype)
        beta = rng.uniform(-1, 1, size=(c,)).astype(pdtype)
        mm = rng.uniform(-0.5, 0.5, size=(c,)).astype(pdtype)
        mv = rng.uniform(0.5, 2, size=(c,)).astype(pdtype)
        return [x, gamma, beta, mm, mv]
    return make


# ----------------------------------------------------------------------------- the table


def _conv(shapes, **kw):
    return Sample(list(shapes), kw)


CONV_SAMPLES = [
    _conv([(2, 3, 7, 7), (4, 3, 3, 3), (4,)], kernel=(3, 3), num_filter=4),
    _conv([(2, 3, 8, 9), (5, 3, 3, 2), (5,)], kernel=(3, 2), num_filter=5, stride=(2, 1),
          pad=(1, 1)),
    _conv([(1, 4, 9, 9), (6, 2, 3, 3), (6,)], kernel=(3, 3), num_filter=6, num_group=2,
          dilate=(2, 2), pad=(1, 2)),
    _conv([(2, 3, 6, 6), (4, 3, 1, 1)], kernel=(1, 1), num_filter=4, no_bias=True),
    _conv([(3, 2, 11), (4, 2, 3), (4,)], kernel=(3,), num_filter=4, stride=(2,), pad=(1,)),
    _conv([(2, 2, 5, 6, 5), (3, 2, 2, 3, 2), (3,)], kernel=(2, 3, 2), num_filter=3,
          stride=(1, 2, 1), pad=(1, 0, 1)),
    _conv([(2, 6, 5, 5), (6, 1, 3, 3), (6,)], kernel=(3, 3), num_filter=6, num_group=6,
          pad=(1, 1)),
    _conv([(4, 1, 28, 28), (20, 1, 5, 5), (20,)], kernel=(5, 5), num_filter=20),
]

DECONV_SAMPLES = [
    _conv([(2, 3, 4, 4), (3, 4, 3, 3)], kernel=(3, 3), num_filter=4),
    _conv([(2, 3, 4, 5), (3, 2, 3, 3), (2,)], kernel=(3, 3), num_filter=2, stride=(2, 2),
          pad=(1, 1), adj=(1, 0), no_bias=False),
    _conv([(1, 4, 5, 5), (4, 3, 2, 2)], kernel=(2, 2), num_filter=6, num_group=2,
          dilate=(2, 1)),
    _conv([(2, 2, 7), (2, 3, 4), (3,)], kernel=(4,), num_filter=3, stride=(3,), pad=(1,),
          no_bias=False),
    _conv([(1, 2, 3, 4, 3), (2, 2, 2, 2, 2)], kernel=(2, 2, 2), num_filter=2, stride=(2, 1, 2)),
    _conv([(2, 3, 4, 4), (3, 2, 3, 3)], kernel=(3, 3), num_filter=2, stride=(2, 2),
          target_shape=(8, 8)),
]

POOL_SAMPLES = [
    Sample([(2, 3, 8, 8)], {"kernel": (2, 2), "stride": (2, 2)}),
    Sample([(2, 3, 7, 7)], {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1),
                            "pool_type": "avg"}),
    Sample([(2, 3, 7, 7)], {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1),
                            "pool_type": "avg", "count_include_pad": False}),
    Sample([(1, 2, 4, 4)], {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1),
                            "pool_type": "avg", "pooling_convention": "full"}),
    Sample([(2, 2, 7, 6)], {"kernel": (3, 2), "stride": (2, 2),
                            "pooling_convention": "full"}),
    Sample([(2, 3, 5, 6)], {"kernel": (2, 3), "pool_type": "sum"}),
    Sample([(2, 3, 5, 6)], {"kernel": (2, 2), "pool_type": "lp", "p_value": 2}),
    Sample([(2, 3, 5, 6)], {"kernel": (1, 1), "pool_type": "avg", "global_pool": True}),
    Sample([(2, 3, 5, 6)], {"kernel": (2, 2), "pool_type": "max", "global_pool": True}),
    Sample([(2, 3, 9)], {"kernel": (3,), "stride": (2,), "pad": (1,)}),
    Sample([(2, 3, 9)], {"kernel": (3,), "stride": (2,), "pooling_convention": "same"}),
    Sample([(1, 2, 4, 5, 6)], {"kernel": (2, 2, 3), "stride": (2, 1, 2), "pool_type": "avg"}),
    Sample([(1, 2, 4, 5, 6)], {"kernel": (2, 3, 2), "stride": (1, 2, 2), "pad": (1, 1, 1)}),
]

def bn_relu_ref(*args, **kwargs):
    """contrib.BatchNormWithReLU: relu on BatchNorm's output; mean/invstd unchanged."""
    out = bn_ref(*args, **kwargs)
    if isinstance(out, tuple):
        return (np.maximum(out[0], 0),) + out[1:]
    return np.maximum(out, 0)


def sync_bn_ref(*args, eps=1e-3, key=None, ndev=1, **kwargs):
    """contrib.SyncBatchNorm with one device: BatchNorm over axis 1, reporting the variance."""
    out = bn_ref(*args, eps=eps, axis=1, **kwargs)
    if isinstance(out, tuple):
        return out[0], out[1], 1.0 / out[2] ** 2 - eps
    return out


SYNC_BN_SAMPLES = [
    Sample(kwargs={"key": "bn0"}, arrays=bn_inputs((4, 3, 5, 5))),
    Sample(kwargs={"key": "bn0", "fix_gamma": False, "output_mean_var": True, "eps": 1e-5},
           arrays=bn_inputs((6, 4))),
    Sample(kwargs={"key": "bn0", "fix_gamma": False, "use_global_stats": True},
           arrays=bn_inputs((3, 2, 2))),
]

BN_SAMPLES = [
    Sample(kwargs={}, arrays=bn_inputs((4, 3, 5, 5))),
    Sample(kwargs={"fix_gamma": False}, arrays=bn_inputs((4, 3, 5, 5))),
    Sample(kwargs={"fix_gamma": False, "output_mean_var": True, "eps": 1e-5},
           arrays=bn_inputs((6, 4))),
    Sample(kwargs={"fix_gamma": False, "axis": -1}, arrays=bn_inputs((2, 3, 4), axis=2)),
    Sample(kwargs={"fix_gamma": False, "use_global_stats": True, "axis": 0},
           arrays=bn_inputs((3, 2, 2), axis=0)),
    Sample(kwargs={"fix_gamma": False}, arrays=bn_inputs((2, 3, 2, 3, 2))),
]

ENTRIES = [
    OpEntry("Convolution", ref=conv_ref, dtypes=FLOATS_AND_HALF, samples=CONV_SAMPLES,
            rtol=1e-4, atol=1e-4),
    OpEntry("Deconvolution", ref=deconv_ref, dtypes=FLOATS_AND_HALF, samples=DECONV_SAMPLES,
            rtol=1e-4, atol=1e-4),
    OpEntry("Pooling", ref=pool_ref, dtypes=FLOATS_AND_HALF, samples=POOL_SAMPLES,
            rtol=1e-5, atol=1e-5),
    OpEntry("BatchNorm", ref=bn_ref, dtypes=FLOATS_AND_HALF, samples=BN_SAMPLES,
            rtol=1e-4, atol=1e-4),
    OpEntry("contrib.BatchNormWithReLU", ref=bn_relu_ref, dtypes=FLOATS_AND_HALF,
            samples=BN_SAMPLES, rtol=1e-4, atol=1e-4,
            covers=["_contrib_BatchNormWithReLU", "_backward_contrib_BatchNormWithReLU"]),
    OpEntry("contrib.SyncBatchNorm", ref=sync_bn_ref, dtypes=FLOATS_AND_HALF,
            samples=SYNC_BN_SAMPLES, rtol=1e-4, atol=1e-4,
            covers=["_contrib_SyncBatchNorm", "_backward__contrib_SyncBatchNorm"]),
]

EXEMPT = {}
