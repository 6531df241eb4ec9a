"""Op table: NN layers besides convolution/pooling/batch norm (Dropout, LeakyReLU, LayerNorm,
InstanceNorm, L2Normalization, LRN, UpSampling) and the loss wrappers MakeLoss/make_loss.
Forward references in NumPy (float64); imperative calls run in predict mode."""
import math

import numpy as np

from . import FLOATS, FLOATS_AND_HALF, OpEntry, Sample

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_LAMBDA = 1.0507009873554804934193349852946

# ------------------------------------------------------------------------------- Dropout


def _dropout_always_check(outs, inputs, kwargs, dtype):
    """mode='always' drops even in predict mode: every output is 0 or x / (1 - p)."""
    (y,), (x,) = outs, inputs
    p = kwargs["p"]
    x = x.astype("float64")
    kept = np.abs(y) > 0
    tol = 1e-2 if dtype == "float16" else 1e-5
    np.testing.assert_allclose(y[kept], x[kept] / (1 - p), rtol=tol, atol=tol)
    frac = 1 - kept.mean()
    assert abs(frac - p) < 0.05, "dropped fraction %.3f, p=%.3f" % (frac, p)


# ----------------------------------------------------------------------------- LeakyReLU


def _erf(x):
    return np.vectorize(math.erf)(x)


def leaky_relu_ref(x, gamma=None, act_type="leaky", slope=0.25, lower_bound=0.125,
                   upper_bound=0.334):
    """NumPy LeakyReLU (rrelu in predict mode: the mean slope, also returned as the mask)."""
    x = x.astype("float64")
    if act_type == "leaky":
        return np.where(x > 0, x, slope * x)
    if act_type == "elu":
        return np.where(x > 0, x, slope * np.expm1(x))
    if act_type == "selu":
        return SELU_LAMBDA * np.where(x > 0, x, SELU_ALPHA * np.expm1(x))
    if act_type == "gelu":
        return 0.5 * x * (1 + _erf(x / np.sqrt(2)))
    if act_type == "prelu":
        g = gamma.astype("float64")
        shape = [1] * x.ndim
        if g.size > 1:
            shape[1 if x.ndim > 1 else 0] = g.size
        return np.where(x > 0, x, g.reshape(shape) * x)
    if act_type == "rrelu":
        mean = (lower_bound + upper_bound) / 2.0
        return np.where(x > 0, x, mean * x), np.full(x.shape, mean)
    raise ValueError(act_type)


def _prelu_inputs(shape, gshape):
    def make(rng, dtype):
        return [rng.uniform(-2, 2, size=shape).astype(dtype),
                rng.uniform(0.05, 0.5, size=gshape).astype(dtype)]
    return make


# ------------------------------------------------------------------------- normalisation


def layer_norm_ref(x, gamma, beta, axis=-1, eps=1e-5, output_mean_var=False):
    x = x.astype("float64")
    mean = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True)
    std = np.sqrt(var + eps)
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    out = (x - mean) / std * gamma.astype("float64").reshape(shape) + \
        beta.astype("float64").reshape(shape)
    if output_mean_var:
        return out, mean, std
    return out


def instance_norm_ref(x, gamma, beta, eps=1e-3):
    x = x.astype("float64")
    axes = tuple(range(2, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    return (x - mean) / np.sqrt(var + eps) * gamma.astype("float64").reshape(shape) + \
        beta.astype("float64").reshape(shape)


def l2_normalization_ref(x, mode="instance", eps=1e-10):
    x = x.astype("float64")
    if mode == "instance":
        axes = tuple(range(1, x.ndim))
    elif mode == "channel":
        axes = (1,)
    else:
        axes = tuple(range(2, x.ndim))
    return x / np.sqrt((x * x).sum(axis=axes, keepdims=True) + eps)


def lrn_ref(x, nsize, alpha=1e-4, beta=0.75, knorm=2.0):
    x = x.astype("float64")
    half = (nsize - 1) // 2
    sq = x * x
    norm = np.empty_like(x)
    for c in range(x.shape[1]):
        lo, hi = max(0, c - half), min(x.shape[1] - 1, c + half)
        norm[:, c] = knorm + alpha / nsize * sq[:, lo:hi + 1].sum(axis=1)
    return x * norm ** -beta


def _norm_inputs(shape, axis):
    def make(rng, dtype):
        c = shape[axis]
        return [rng.uniform(-2, 2, size=shape).astype(dtype),
                rng.uniform(0.5, 1.5, size=(c,)).astype(dtype),
                rng.uniform(-0.5, 0.5, size=(c,)).astype(dtype)]
    return make


# ----------------------------------------------------------------------------- UpSampling


def upsampling_ref(*inputs, scale, sample_type, num_filter=0, multi_input_mode="concat",
                   num_args=None, workspace=None):
    if sample_type == "bilinear":
        x, w = (a.astype("float64") for a in inputs)
        return bilinear_upsampling_ref(x, w, scale)
    oh, ow = inputs[0].shape[2] * scale, inputs[0].shape[3] * scale
    ups = []
    for a in inputs:
        s = oh // a.shape[2]
        ups.append(a.astype("float64").repeat(s, axis=2).repeat(s, axis=3))
    assert all(u.shape[2:] == (oh, ow) for u in ups)
    if multi_input_mode == "sum":
        return sum(ups)
    return np.concatenate(ups, axis=1)


def bilinear_upsampling_ref(x, w, scale):
    """Depthwise transposed convolution, stride scale, pad ceil((scale-1)/2)."""
    n, c, h, wd = x.shape
    k = 2 * scale - scale % 2
    p = int(math.ceil((scale - 1) / 2.0))
    full = np.zeros((n, c, (h - 1) * scale + k, (wd - 1) * scale + k))
    for iy in range(h):
        for ix in range(wd):
            full[:, :, iy * scale:iy * scale + k, ix * scale:ix * scale + k] += \
                x[:, :, iy:iy + 1, ix:ix + 1] * w[None, :, 0]
    return full[:, :, p:p + h * scale, p:p + wd * scale]


def _upsampling_inputs(*shapes):
    def make(rng, dtype):
        return [rng.uniform(-2, 2, size=s).astype(dtype) for s in shapes]
    return make


ENTRIES = [
    OpEntry("Dropout", ref=lambda x, **_: x, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([(3, 4)]),
                     Sample([(2, 3, 4)], {"p": 0.3}),
                     Sample([(4, 5)], {"p": 0.7, "axes": (1,)}),
                     Sample([(5,)], {"p": 0.0})],
            covers=["_npx_dropout"]),
    OpEntry("Dropout", ref=None, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([(100, 100)], {"p": 0.4, "mode": "always"}),
                     Sample([(50, 80)], {"p": 0.1, "mode": "always"})],
            low=0.5, high=2.0, check=_dropout_always_check),
    OpEntry("LeakyReLU", ref=leaky_relu_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 4)]),
                     Sample([(2, 3, 4)], {"act_type": "leaky", "slope": 0.1}),
                     Sample([(2, 3, 4)], {"act_type": "elu", "slope": 0.7}),
                     Sample([(4, 5)], {"act_type": "selu"}),
                     Sample([(4, 5)], {"act_type": "gelu"}),
                     Sample([(6,)], {"act_type": "gelu"})],
            covers=["_npx_leaky_relu"]),
    OpEntry("LeakyReLU", ref=leaky_relu_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample(kwargs={"act_type": "prelu"}, arrays=_prelu_inputs((2, 3, 4), (3,))),
                     Sample(kwargs={"act_type": "prelu"}, arrays=_prelu_inputs((4, 5), (1,))),
                     Sample(kwargs={"act_type": "prelu"},
                            arrays=_prelu_inputs((2, 3, 2, 2), (3,))),
                     Sample(kwargs={"act_type": "prelu"}, arrays=_prelu_inputs((5,), (5,)))]),
    # rrelu in predict mode: the mean slope (randomness is tested in test_nn_layers.py).
    OpEntry("LeakyReLU", ref=leaky_relu_ref, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([(3, 4)], {"act_type": "rrelu"}),
                     Sample([(2, 3, 4)], {"act_type": "rrelu", "lower_bound": 0.2,
                                          "upper_bound": 0.6})]),
    OpEntry("LayerNorm", ref=layer_norm_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample(arrays=_norm_inputs((4, 5), -1)),
                     Sample(kwargs={"axis": 1}, arrays=_norm_inputs((2, 3, 4), 1)),
                     Sample(kwargs={"axis": 0, "eps": 1e-3}, arrays=_norm_inputs((3, 4), 0)),
                     Sample(kwargs={"output_mean_var": True}, arrays=_norm_inputs((2, 3, 6), 2)),
                     Sample(arrays=_norm_inputs((7,), 0))],
            rtol=1e-4, atol=1e-5, covers=["_npx_layer_norm"]),
    OpEntry("InstanceNorm", ref=instance_norm_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample(arrays=_norm_inputs((2, 3, 5), 1)),
                     Sample(kwargs={"eps": 1e-5}, arrays=_norm_inputs((2, 2, 3, 4), 1)),
                     Sample(arrays=_norm_inputs((1, 4, 2, 2, 3), 1))],
            rtol=1e-4, atol=1e-5),
    OpEntry("L2Normalization", ref=l2_normalization_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 4)]),
                     Sample([(2, 3, 4)], {"mode": "instance"}),
                     Sample([(2, 3, 4, 2)], {"mode": "channel"}),
                     Sample([(2, 3, 4, 2)], {"mode": "spatial"}),
                     Sample([(2, 3, 5)], {"mode": "channel", "eps": 1e-3}),
                     Sample([(5,)])],
            rtol=1e-4, atol=1e-5),
    OpEntry("LRN", ref=lrn_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(2, 5, 3, 3)], {"nsize": 3}),
                     Sample([(1, 6, 2, 4)], {"nsize": 5, "alpha": 0.1, "beta": 0.5,
                                             "knorm": 1.0}),
                     Sample([(2, 4, 3, 3)], {"nsize": 2, "alpha": 0.5}),
                     Sample([(1, 3, 4)], {"nsize": 1, "alpha": 1.0})],
            rtol=1e-4, atol=1e-5),
    OpEntry("UpSampling", ref=upsampling_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(1, 2, 3, 3)], {"scale": 2, "sample_type": "nearest"}),
                     Sample([(2, 1, 2, 3)], {"scale": 3, "sample_type": "nearest"}),
                     Sample(kwargs={"scale": 2, "sample_type": "nearest", "num_args": 2},
                            arrays=_upsampling_inputs((1, 2, 2, 2), (1, 3, 4, 4))),
                     Sample(kwargs={"scale": 2, "sample_type": "nearest", "num_args": 3,
                                    "multi_input_mode": "sum"},
                            arrays=_upsampling_inputs((2, 2, 2, 2), (2, 2, 4, 4),
                                                      (2, 2, 1, 1))),
                     Sample(kwargs={"scale": 2, "sample_type": "bilinear", "num_filter": 2},
                            arrays=_upsampling_inputs((1, 2, 3, 3), (2, 1, 4, 4))),
                     Sample(kwargs={"scale": 3, "sample_type": "bilinear", "num_filter": 3},
                            arrays=_upsampling_inputs((2, 3, 2, 3), (3, 1, 5, 5)))],
            rtol=1e-4, atol=1e-5),
    # Loss wrappers: identity forwards; their backward is not the derivative (no numeric grad).
    OpEntry("MakeLoss", ref=lambda x, **_: x, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([(3, 4)]),
                     Sample([(2, 3)], {"grad_scale": 2.0, "normalization": "valid"})]),
    OpEntry("make_loss", ref=lambda x: x, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([(3, 4)]), Sample([(5,)])], covers=["_sparse_make_loss"]),
]

EXEMPT = {}
