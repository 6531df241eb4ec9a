"""Op table: BLAS-backed and basic NN ops (dot, batch_dot, FullyConnected, the softmax family,
SoftmaxOutput, softmax_cross_entropy, regression outputs)."""
import numpy as np

from . import FLOATS, FLOATS_AND_HALF, INTS, OpEntry, Sample

# ---------------------------------------------------------------------------------- dot


def _dot_ref(a, b, transpose_a=False, transpose_b=False, **_):
    """MXNet dot: lhs as (prod(shape[:-1]), shape[-1]) (or transposed (shape[0], rest)^T),
    rhs as (shape[0], rest) (or transposed (prod(shape[:-1]), shape[-1])^T)."""
    if a.ndim == 1 and b.ndim == 1:
        return np.array([np.dot(a.astype("float64"), b.astype("float64"))]).astype(a.dtype)
    acc = "int64" if np.issubdtype(a.dtype, np.integer) else "float64"
    if transpose_a:
        am = a.reshape(a.shape[0], -1).T
        afree = a.shape[1:]
    else:
        am = a.reshape(-1, a.shape[-1])
        afree = a.shape[:-1]
    if transpose_b:
        bm = b.reshape(-1, b.shape[-1]).T
        bfree = b.shape[:-1]
    else:
        bm = b.reshape(b.shape[0], -1)
        bfree = b.shape[1:]
    out = am.astype(acc) @ bm.astype(acc)
    shape = (afree if a.ndim > 1 else ()) + (bfree if b.ndim > 1 else ())
    return out.reshape(shape).astype(a.dtype)


def _batch_dot_ref(a, b, transpose_a=False, transpose_b=False, **_):
    acc = "int64" if np.issubdtype(a.dtype, np.integer) else "float64"
    a = a.astype(acc)
    b = b.astype(acc)
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


# ------------------------------------------------------------------------- FullyConnected


def _fc_ref(x, w, b=None, num_hidden=None, no_bias=False, flatten=True):
    x64 = x.astype("float64")
    if flatten:
        x64 = x64.reshape(x.shape[0], -1)
    out = x64 @ w.astype("float64").T
    if not no_bias:
        out = out + b.astype("float64")
    return out


# ------------------------------------------------------------------------- softmax family


def _softmax_np(x, axis=-1, temperature=None):
    t = 1.0 if temperature is None else temperature
    z = x.astype("float64") / t
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def _softmax_ref(x, axis=-1, temperature=None, dtype=None, **_):
    return _softmax_np(x, axis, temperature)


def _log_softmax_ref(x, axis=-1, temperature=None, **_):
    return np.log(_softmax_np(x, axis, temperature))


def _softmin_ref(x, axis=-1, temperature=None, **_):
    return _softmax_np(-x.astype("float64"), axis, temperature)


def _masked_softmax_ref(x, length, axis=-1, use_length=True, **_):
    """Softmax over the first length[...] entries along axis; the others are 0."""
    x = np.moveaxis(x.astype("float64"), axis, -1)
    out = np.zeros_like(x)
    lens = length.reshape(x.shape[:-1])
    for idx in np.ndindex(*x.shape[:-1]):
        n = int(lens[idx])
        if n > 0:
            out[idx][:n] = _softmax_np(x[idx][:n])
    return np.moveaxis(out, -1, axis)


def _masked_inputs(rng, dtype):
    x = rng.uniform(-2, 2, size=(3, 4, 5)).astype(dtype)
    length = rng.randint(1, 6, size=(3, 4)).astype("int32")
    return [x, length]


def _softmax_activation_ref(x, mode="instance"):
    if mode == "channel":
        return _softmax_np(x, axis=1)
    return _softmax_np(x.reshape(x.shape[0], -1), axis=1).reshape(x.shape)


def _softmax_output_ref(x, label, preserve_shape=False, multi_output=False, **_):
    if multi_output:
        return _softmax_np(x, axis=1)
    if preserve_shape:
        return _softmax_np(x, axis=-1)
    return _softmax_np(x.reshape(x.shape[0], -1), axis=1).reshape(x.shape)


def _labels(shape, classes, label_shape):
    def make(rng, dtype):
        x = rng.uniform(-2, 2, size=shape).astype(dtype)
        label = rng.randint(0, classes, size=label_shape).astype(dtype)
        return [x, label]
    return make


def _softmax_ce_ref(x, label):
    p = _softmax_np(x, axis=1)
    return np.array([-np.log(p[np.arange(x.shape[0]), label.astype("int64")]).sum()])


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x.astype("float64")))


ENTRIES = [
    OpEntry("dot", ref=_dot_ref, dtypes=FLOATS_AND_HALF + ("int32", "int64"),
            samples=[Sample([(3, 4), (4, 5)]),
                     Sample([(7,), (7,)]),
                     Sample([(4,), (4, 3)]),
                     Sample([(3, 4), (4,)]),
                     Sample([(4, 3), (4, 5)], {"transpose_a": True}),
                     Sample([(3, 4), (5, 4)], {"transpose_b": True}),
                     Sample([(4, 3), (5, 4)], {"transpose_a": True, "transpose_b": True}),
                     Sample([(2, 3, 4), (4, 2, 3)]),
                     Sample([(2, 3, 4), (6, 4)], {"transpose_b": True}),
                     Sample([(4, 2, 3), (4, 5)], {"transpose_a": True}),
                     Sample([(0, 4), (4, 3)]),
                     Sample([(65, 130), (130, 33)])],
            covers=["_sparse_dot"], rtol=1e-4, atol=1e-5),
    OpEntry("batch_dot", ref=_batch_dot_ref, dtypes=FLOATS_AND_HALF + ("int32",),
            samples=[Sample([(2, 3, 4), (2, 4, 5)]),
                     Sample([(3, 4, 2), (3, 4, 5)], {"transpose_a": True}),
                     Sample([(3, 2, 4), (3, 5, 4)], {"transpose_b": True}),
                     Sample([(2, 4, 3), (2, 5, 4)], {"transpose_a": True, "transpose_b": True}),
                     Sample([(2, 3, 2, 4), (2, 3, 4, 3)])],
            rtol=1e-4, atol=1e-5),
    OpEntry("FullyConnected", ref=_fc_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(4, 5), (3, 5), (3,)], {"num_hidden": 3}),
                     Sample([(2, 3, 4), (6, 12), (6,)], {"num_hidden": 6}),
                     Sample([(4, 5), (3, 5)], {"num_hidden": 3, "no_bias": True}),
                     Sample([(2, 3, 4), (5, 4), (5,)], {"num_hidden": 5, "flatten": False}),
                     Sample([(1, 7), (2, 7), (2,)], {"num_hidden": 2})],
            covers=["_sparse_FullyConnected"], rtol=1e-4, atol=1e-5),
    OpEntry("softmax", ref=_softmax_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 5)]),
                     Sample([(2, 3, 4)], {"axis": 1}),
                     Sample([(2, 3, 4)], {"axis": 0, "temperature": 2.0}),
                     Sample([(6,)]),
                     Sample([(2, 3)], {"axis": -2})]),
    OpEntry("softmax", ref=_masked_softmax_ref, dtypes=FLOATS,
            samples=[Sample(kwargs={"use_length": True}, arrays=_masked_inputs)]),
    OpEntry("log_softmax", ref=_log_softmax_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 5)]),
                     Sample([(2, 3, 4)], {"axis": 1}),
                     Sample([(2, 3, 4)], {"axis": 2, "temperature": 0.5})]),
    OpEntry("softmin", ref=_softmin_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 5)]),
                     Sample([(2, 3, 4)], {"axis": 0}),
                     Sample([(4, 3)], {"temperature": 3.0})]),
    OpEntry("SoftmaxActivation", ref=_softmax_activation_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(3, 5)]),
                     Sample([(2, 3, 4)]),
                     Sample([(2, 3, 4, 2)], {"mode": "channel"})]),
    OpEntry("SoftmaxOutput", ref=_softmax_output_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample(arrays=_labels((4, 5), 5, (4,))),
                     Sample(arrays=_labels((2, 3, 4), 3, (2, 4)), kwargs={"multi_output": True}),
                     Sample(arrays=_labels((2, 3, 4), 4, (2, 3)),
                            kwargs={"preserve_shape": True}),
                     Sample(arrays=_labels((3, 2, 2), 4, (3,)))],
            covers=["Softmax"], grad=False),  # backward: the CE gradient, not d(softmax)
    OpEntry("softmax_cross_entropy", ref=_softmax_ce_ref, dtypes=FLOATS,
            samples=[Sample(arrays=_labels((4, 5), 5, (4,))),
                     Sample(arrays=_labels((1, 3), 3, (1,)))], rtol=1e-4),
    OpEntry("LinearRegressionOutput", ref=lambda x, label, **_: x, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(4, 3), (4, 3)]), Sample([(5, 1), (5,)])],
            grad=False, covers=["_sparse_LinearRegressionOutput"]),
    OpEntry("MAERegressionOutput", ref=lambda x, label, **_: x, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(4, 3), (4, 3)])], grad=False,
            covers=["_sparse_MAERegressionOutput"]),
    OpEntry("LogisticRegressionOutput", ref=lambda x, label, **_: _sigmoid(x),
            dtypes=FLOATS_AND_HALF, samples=[Sample([(4, 3), (4, 3)])],
            grad=False, covers=["_sparse_LogisticRegressionOutput"]),
]

EXEMPT = {}
