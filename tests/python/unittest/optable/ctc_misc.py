"""Op table: CTCLoss, SequenceLast/SequenceReverse and small utility operators (hard_sigmoid,
cumsum, shape_array, ...). The CTC reference sums the probability of every alignment by brute
force (tiny T and alphabet only)."""
import itertools
import math

import numpy as np

from . import FLOATS, FLOATS_AND_HALF, OpEntry, Sample
from .optimizer import _adamw_inputs, adamw_ref, lamb1_ref, lamb2_ref


def ctc_brute_force(acts, labels, blank):
    """-log sum over all paths of length T that collapse to `labels` of prod softmax(acts)."""
    acts = acts.astype(np.float64)
    z = acts - acts.max(axis=1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    steps, classes = probs.shape
    total = 0.0
    for path in itertools.product(range(classes), repeat=steps):
        collapsed = [c for i, c in enumerate(path)
                     if c != blank and (i == 0 or path[i - 1] != c)]
        if collapsed == list(labels):
            total += np.prod(probs[np.arange(steps), list(path)])
    return -np.log(total) if total > 0 else np.inf


def ctc_ref(data, label, *lengths, use_data_lengths=False, use_label_lengths=False,
            blank_label="first"):
    """CTCLoss with 1.9.1's padding rules; infeasible sequences get loss 0."""
    steps, batch, classes = data.shape
    blank = 0 if blank_label == "first" else classes - 1
    pad = 0 if blank_label == "first" else -1
    lengths = list(lengths)
    data_len = lengths.pop(0) if use_data_lengths else None
    label_len = lengths.pop(0) if use_label_lengths else None
    out = np.zeros(batch)
    for b in range(batch):
        t_b = int(data_len[b]) if data_len is not None else steps
        if label_len is not None:
            labels = [int(v) for v in label[b, :int(label_len[b])]]
        else:
            labels = []
            for v in label[b]:
                if v == pad:
                    break
                labels.append(int(v))
        repeats = sum(labels[i] == labels[i - 1] for i in range(1, len(labels)))
        if t_b == 0 or len(labels) + repeats > t_b:
            continue
        out[b] = ctc_brute_force(data[:t_b, b], labels, blank)
    return out


def _ctc_arrays(shape, labels, data_lengths=None, label_lengths=None):
    def make(rng, dtype):
        out = [rng.uniform(-2, 2, size=shape).astype(dtype), np.array(labels, dtype=dtype)]
        if data_lengths is not None:
            out.append(np.array(data_lengths, dtype=dtype))
        if label_lengths is not None:
            out.append(np.array(label_lengths, dtype=dtype))
        return out
    return make


def sequence_last_ref(data, sequence_length=None, use_sequence_length=False, axis=0):
    data = data.astype(np.float64)
    steps = data.shape[axis]
    batch = data.shape[1 - axis]
    lens = [int(v) for v in sequence_length] if use_sequence_length else [steps] * batch
    rows = [data[lens[b] - 1, b] if axis == 0 else data[b, lens[b] - 1] for b in range(batch)]
    return np.stack(rows)


def sequence_reverse_ref(data, sequence_length=None, use_sequence_length=False, axis=0):
    out = data.astype(np.float64).copy()
    steps, batch = data.shape[0], data.shape[1]
    lens = [int(v) for v in sequence_length] if use_sequence_length else [steps] * batch
    for b in range(batch):
        out[:lens[b], b] = data[:lens[b], b][::-1]
    return out


def _with_lengths(shape, lengths):
    def make(rng, dtype):
        return [rng.uniform(-2, 2, size=shape).astype(dtype), np.array(lengths, dtype=dtype)]
    return make


def _cumsum_ref(a, axis=None, dtype=None):
    return np.cumsum(a, axis=axis, dtype=dtype)


def _amp_cast_ref(x, dtype):
    return x.astype(dtype) if x.dtype in (np.float16, np.float32) else x


def _amp_multicast_ref(*xs, num_outputs, cast_narrow=False):
    floats = [x.dtype for x in xs if x.dtype in (np.float16, np.float32)]
    if not floats:
        return list(xs)
    target = min(floats, key=lambda d: d.itemsize) if cast_narrow else \
        max(floats, key=lambda d: d.itemsize)
    return [x.astype(target) if x.dtype in (np.float16, np.float32) else x for x in xs]


def _index_array_ref(x, axes=None):
    axes = range(x.ndim) if axes is None else [a % x.ndim for a in axes]
    grids = np.indices(x.shape)
    return np.stack([grids[a] for a in axes], axis=-1).astype(np.int64)


def _onehot_ref(indices, like):
    out = np.zeros(like.shape)
    out[np.arange(like.shape[0]), indices.astype(np.int64)] = 1
    return out


def _onehot_arrays(rng, dtype):
    return [np.array([2, 0, 3], dtype=dtype), rng.uniform(-1, 1, size=(3, 4)).astype(dtype)]


def _histogram_ref(data, bins=None, bin_cnt=None, range=None):  # pylint: disable=redefined-builtin
    if bins is not None:
        counts, edges = np.histogram(data, bins=bins.astype(np.float64))
    else:
        counts, edges = np.histogram(data.astype(np.float64), bins=bin_cnt, range=range)
    return counts, edges


def _histogram_bins(rng, dtype):
    return [rng.uniform(-2, 2, size=(5, 7)).astype(dtype),
            np.array([-1.5, -0.25, 0.5, 1.75], dtype=dtype)]


ENTRIES = [
    OpEntry("CTCLoss", ref=ctc_ref, dtypes=FLOATS, rtol=1e-5, atol=1e-5,
            covers=("ctc_loss", "_contrib_CTCLoss", "_contrib_ctc_loss"),
            samples=[Sample(arrays=_ctc_arrays((4, 2, 3), [[1, 2, 0], [2, 2, 0]])),
                     Sample(kwargs=dict(blank_label="last"),
                            arrays=_ctc_arrays((4, 3, 4), [[1, 0, -1], [2, -1, -1],
                                                           [0, 0, 0]])),
                     Sample(kwargs=dict(use_data_lengths=True, use_label_lengths=True),
                            arrays=_ctc_arrays((5, 2, 3), [[1, 2, 2], [2, 1, 1]], [3, 5],
                                               [2, 3])),
                     Sample(kwargs=dict(use_data_lengths=True),
                            arrays=_ctc_arrays((4, 2, 3), [[1, 0], [2, 1]], [2, 4]))]),
    OpEntry("SequenceLast", ref=sequence_last_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 2, 4)]),
                     Sample(kwargs=dict(use_sequence_length=True),
                            arrays=_with_lengths((4, 3, 2), [2, 4, 1])),
                     Sample(kwargs=dict(use_sequence_length=True, axis=1),
                            arrays=_with_lengths((3, 4, 2), [2, 4, 1])),
                     Sample(kwargs=dict(use_sequence_length=True),
                            arrays=_with_lengths((3, 2), [1, 3]))]),
    OpEntry("SequenceReverse", ref=sequence_reverse_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 2, 4)]),
                     Sample(kwargs=dict(use_sequence_length=True),
                            arrays=_with_lengths((4, 3, 2), [2, 4, 1])),
                     Sample(kwargs=dict(use_sequence_length=True),
                            arrays=_with_lengths((5, 2), [0, 3]))]),
]

ENTRIES += [
    OpEntry("hard_sigmoid", dtypes=FLOATS_AND_HALF,
            ref=lambda x, alpha=0.2, beta=0.5: np.clip(alpha * x.astype(np.float64) + beta, 0, 1),
            samples=[Sample([(3, 4)]), Sample([(2, 3, 2)], dict(alpha=0.7, beta=0.3))]),
    OpEntry("cumsum", ref=_cumsum_ref, dtypes=FLOATS + ("int32", "int64"),
            covers=("_np_cumsum",),
            samples=[Sample([(3, 4)]), Sample([(3, 4)], dict(axis=0)),
                     Sample([(2, 3, 4)], dict(axis=-1)), Sample([(2, 3, 4)], dict(axis=1)),
                     Sample([(5,)], dict(dtype="float64"))]),
    OpEntry("shape_array", ref=lambda x: np.array(x.shape, dtype=np.int64), grad=False,
            dtypes=FLOATS + ("int32",), covers=("_npx_shape_array",),
            samples=[Sample([(2, 3, 4)]), Sample([(5,)])]),
    OpEntry("size_array", ref=lambda x: np.array([x.size], dtype=np.int64), grad=False,
            dtypes=FLOATS + ("int32",), samples=[Sample([(2, 3, 4)]), Sample([(5,)])]),
    OpEntry("amp_cast", ref=_amp_cast_ref, dtypes=FLOATS_AND_HALF + ("int32",),
            samples=[Sample([(3, 4)], dict(dtype="float16")),
                     Sample([(3, 4)], dict(dtype="float32"))], rtol=1e-3, atol=1e-3),
    OpEntry("amp_multicast", ref=_amp_multicast_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 4), (2,)], dict(num_outputs=2)),
                     Sample([(3,), (2, 2), (1,)], dict(num_outputs=3, cast_narrow=True))]),
    # The default scalar 1 keeps the backward the true derivative; other scalars are checked
    # in test_ctc_misc_ops.py.
    OpEntry("contrib.gradientmultiplier", ref=lambda x, **_: x, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 4)])]),
    # Straight-through estimators: the backward is deliberately not the derivative (tested in
    # test_ctc_misc_ops.py).
    OpEntry("contrib.round_ste", ref=lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5),
            grad=False, samples=[Sample([(3, 4)])]),
    OpEntry("contrib.sign_ste", ref=np.sign, grad=False, samples=[Sample([(3, 4)])]),
    OpEntry("contrib.index_array", ref=_index_array_ref, grad=False, dtypes=("float32", "int32"),
            samples=[Sample([(2, 3)]), Sample([(2, 3, 4)], dict(axes=(0, -1))),
                     Sample([(4,)], dict(axes=(0,)))]),
    OpEntry("_internal._onehot_encode", ref=_onehot_ref, grad=False,
            samples=[Sample(arrays=_onehot_arrays)]),
    OpEntry("_internal._histogram", ref=_histogram_ref, grad=False,
            covers=("_npi_histogram",),
            samples=[Sample([(4, 5)], dict(bin_cnt=4, range=(-1.0, 1.5))),
                     Sample(arrays=_histogram_bins)]),
]

_lgamma = np.vectorize(math.lgamma)


def _pdf(logpdf):
    def ref(sample, *params, is_log=False):
        params = [p.astype(np.float64).reshape(p.shape + (1,) * (sample.ndim - p.ndim))
                  for p in params]
        lp = logpdf(sample.astype(np.float64), *params)
        return lp if is_log else np.exp(lp)
    return ref


def _log_nbinom(x, k, p):
    return _lgamma(x + k) - _lgamma(x + 1) - _lgamma(k) + k * np.log(p) + x * np.log1p(-p)


_LOGPDF = {
    "uniform": lambda x, lo, hi: -np.log(hi - lo) + 0 * x,
    "normal": lambda x, mu, sigma: -0.5 * ((x - mu) / sigma) ** 2 - np.log(sigma)
    - 0.5 * np.log(2 * np.pi),
    "gamma": lambda x, a, b: a * np.log(b) + (a - 1) * np.log(x) - b * x - _lgamma(a),
    "exponential": lambda x, lam: np.log(lam) - lam * x,
    "poisson": lambda x, lam: x * np.log(lam) - _lgamma(x + 1) - lam,
    "negative_binomial": _log_nbinom,
    "generalized_negative_binomial": lambda x, mu, alpha: _log_nbinom(
        x, 1 / alpha, 1 / (1 + alpha * mu)),
}


def _pdf_arrays(kind, param_ranges, sample_shape=(2, 3, 4)):
    def make(rng, dtype):
        pshape = sample_shape[:2]
        params = [rng.uniform(lo, hi, size=pshape) for lo, hi in param_ranges]
        if kind == "uniform":
            params[1] = params[0] + params[1]  # high = low + width
            extra = (1,) * (len(sample_shape) - 2)
            sample = params[0].reshape(pshape + extra) + rng.uniform(0, 1, size=sample_shape) \
                * (params[1] - params[0]).reshape(pshape + extra)
        elif kind in ("normal",):
            sample = rng.uniform(-2, 2, size=sample_shape)
        elif kind in ("gamma", "exponential"):
            sample = rng.uniform(0.2, 3, size=sample_shape)
        else:
            sample = rng.randint(0, 6, size=sample_shape).astype(np.float64)
        return [sample.astype(dtype)] + [p.astype(dtype) for p in params]
    return make


def _dirichlet_ref(sample, alpha, is_log=False):
    sample = sample.astype(np.float64)
    alpha = alpha.astype(np.float64)
    a = alpha.reshape(alpha.shape[:-1] + (1,) * (sample.ndim - alpha.ndim) + alpha.shape[-1:])
    lp = (_lgamma(a.sum(-1)) - _lgamma(a).sum(-1) + ((a - 1) * np.log(sample)).sum(-1))
    return lp if is_log else np.exp(lp)


def _dirichlet_arrays(rng, dtype):
    alpha = rng.uniform(0.5, 3, size=(2, 3))
    raw = rng.uniform(0.1, 1, size=(2, 4, 3))
    return [(raw / raw.sum(-1, keepdims=True)).astype(dtype), alpha.astype(dtype)]


_PDF_PARAMS = {
    "uniform": [(-1, 1), (0.5, 2)],
    "normal": [(-1, 1), (0.5, 2)],
    "gamma": [(0.5, 3), (0.5, 2)],
    "exponential": [(0.5, 2)],
    "poisson": [(0.5, 4)],
    "negative_binomial": [(0.5, 4), (0.2, 0.8)],
    "generalized_negative_binomial": [(0.5, 4), (0.2, 1.5)],
}

ENTRIES += [
    OpEntry("random_pdf_" + kind, ref=_pdf(_LOGPDF[kind]), rtol=1e-4, atol=1e-6,
            covers=("_random_pdf_" + kind,),
            samples=[Sample(arrays=_pdf_arrays(kind, _PDF_PARAMS[kind])),
                     Sample(kwargs=dict(is_log=True),
                            arrays=_pdf_arrays(kind, _PDF_PARAMS[kind], (2, 3)))])
    for kind in _PDF_PARAMS
] + [
    OpEntry("random_pdf_dirichlet", ref=_dirichlet_ref, rtol=1e-4, atol=1e-6,
            covers=("_random_pdf_dirichlet",),
            samples=[Sample(arrays=_dirichlet_arrays),
                     Sample(kwargs=dict(is_log=True), arrays=_dirichlet_arrays)]),
]

def _multi_adamw_inputs(rescale, mp):
    def make(rng, dtype):
        first = _adamw_inputs(rescale, mp)(rng, dtype)[:-1]
        second = _adamw_inputs(rescale, mp)(rng, dtype)[:-1]
        second = [a[:3] for a in second]  # a second weight of another shape
        return first + second + [np.array([rescale], dtype="float32")]
    return make


def _multi_adamw_ref(mp):
    group = 5 if mp else 4

    def ref(*arrays, lrs, wds, etas, num_weights, **kwargs):
        rescale = arrays[-1]
        outs = []
        for i in range(num_weights):
            w, g, m, v = arrays[i * group:i * group + 4]
            if mp:
                w = arrays[i * group + 4]
            outs.append(adamw_ref(w, g, m, v, rescale, lr=lrs[i], eta=etas[i], wd=wds[i],
                                  **kwargs))
        return outs
    return ref


ENTRIES += [
    OpEntry("_internal._multi_adamw_update", ref=_multi_adamw_ref(False), dtypes=FLOATS,
            grad=False, rtol=1e-4, atol=1e-5,
            samples=[Sample(kwargs=dict(lrs=(0.01, 0.02), wds=(0.1, 0.0), etas=(0.5, 1.0),
                                        num_weights=2, clip_gradient=0.3),
                            arrays=_multi_adamw_inputs(2.0, False)),
                     Sample(kwargs=dict(lrs=(0.01, 0.02), wds=(0.1, 0.0), etas=(0.5, 1.0),
                                        num_weights=2),
                            arrays=_multi_adamw_inputs(np.inf, False))]),
    OpEntry("_internal._multi_mp_adamw_update", ref=_multi_adamw_ref(True), dtypes=("float16",),
            grad=False,
            samples=[Sample(kwargs=dict(lrs=(0.01, 0.02), wds=(0.1, 0.0), etas=(0.5, 1.0),
                                        num_weights=2, beta1=0.8),
                            arrays=_multi_adamw_inputs(0.5, True))]),
]

def _multi_lamb_ref(mp):
    group = 5 if mp else 4

    def ref(*arrays, learning_rates, wds, step_count, num_tensors, lower_bound=-1.0,
            upper_bound=-1.0, **kwargs):
        outs = []
        for i in range(num_tensors):
            w, g, m, v = arrays[i * group:i * group + 4]
            if mp:
                w = arrays[i * group + 4]
            r = lamb1_ref(w, g, m, v, t=step_count[i], wd=wds[i], **kwargs)
            w64 = w.astype(np.float64)
            r1 = np.array([np.sqrt(np.sum(w64 ** 2))])
            r2 = np.array([np.sqrt(np.sum(r ** 2))])
            # 1.9.1's multi_lamb applies a bound only when it is positive.
            outs.append(lamb2_ref(w64, r, r1, r2, lr=learning_rates[i],
                                  lower_bound=lower_bound if lower_bound > 0 else -1.0,
                                  upper_bound=upper_bound if upper_bound > 0 else -1.0))
        return outs
    return ref


def _multi_lamb_inputs(mp):
    def make(rng, dtype):
        first = _adamw_inputs(1.0, mp)(rng, dtype)[:-1]
        second = [a[:3] for a in _adamw_inputs(1.0, mp)(rng, dtype)[:-1]]
        return first + second
    return make


ENTRIES += [
    OpEntry("_internal._multi_lamb_update", ref=_multi_lamb_ref(False), dtypes=FLOATS,
            grad=False, rtol=1e-4, atol=1e-5,
            samples=[Sample(kwargs=dict(learning_rates=(0.01, 0.02), wds=(0.1, 0.0),
                                        step_count=(1, 4), num_tensors=2),
                            arrays=_multi_lamb_inputs(False)),
                     Sample(kwargs=dict(learning_rates=(0.01, 0.02), wds=(0.1, 0.0),
                                        step_count=(2, 3), num_tensors=2, bias_correction=False,
                                        rescale_grad=0.5, clip_gradient=0.3, lower_bound=3.0,
                                        upper_bound=3.5),
                            arrays=_multi_lamb_inputs(False))]),
    OpEntry("_internal._multi_mp_lamb_update", ref=_multi_lamb_ref(True), dtypes=("float16",),
            grad=False, rtol=1e-3, atol=1e-3,
            samples=[Sample(kwargs=dict(learning_rates=(0.01, 0.02), wds=(0.1, 0.0),
                                        step_count=(1, 4), num_tensors=2),
                            arrays=_multi_lamb_inputs(True))]),
]

EXEMPT = {
    "_contrib_backward_gradientmultiplier": "backward of contrib.gradientmultiplier, checked "
                                            "through its gradient entry and test_ctc_misc_ops.py",
}
