"""Op table: reductions (sum, mean, prod, nansum, nanprod, max, min, norm, argmax, argmin,
argmax_channel, pick) and broadcasts (broadcast_to, broadcast_like, broadcast_axis)."""
import numpy as np

from . import ALL_NUMERIC, FLOATS, FLOATS_AND_HALF, INTS, OpEntry, Sample


def _axes(ndim, axis, exclude):
    """MXNet's axis/exclude rules as a tuple of numpy axes (None: all)."""
    if axis is None or axis == ():
        return None
    axis = (axis,) if isinstance(axis, int) else tuple(axis)
    axis = tuple(a % ndim for a in axis)
    if exclude:
        axis = tuple(i for i in range(ndim) if i not in axis)
    return axis


def _reduce(fn, **np_kwargs):
    """A NumPy reference for an MXNet reduction with axis / keepdims / exclude."""
    def ref(x, axis=None, keepdims=False, exclude=False):
        axes = _axes(x.ndim, axis, exclude)
        out = fn(x, axis=axes, keepdims=keepdims, **np_kwargs)
        out = np.asarray(out)
        if out.ndim == 0:
            out = out.reshape((1,) * (x.ndim if keepdims else 1))
        return out.astype(x.dtype)
    return ref


def _sum(x, axis=None, keepdims=False):
    acc = np.float64 if x.dtype.kind == "f" else np.int64
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=acc)


def _mean(x, axis=None, keepdims=False):
    if x.dtype.kind == "f":
        return np.mean(x, axis=axis, keepdims=keepdims, dtype=np.float64)
    s = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
    n = x.size // max(1, np.asarray(s).size)
    return np.trunc(s / n)  # MXNet: integer mean truncates


def _prod(x, axis=None, keepdims=False):
    acc = np.float64 if x.dtype.kind == "f" else np.int64
    return np.prod(x, axis=axis, keepdims=keepdims, dtype=acc)


def _with_nans(shape):
    def make(rng, dtype):
        x = rng.uniform(-2, 2, size=shape).astype(dtype)
        x.flat[::3] = np.nan
        return [x]
    return make


REDUCE_SAMPLES = [
    Sample([(2, 3, 4)]),
    Sample([(2, 3, 4)], dict(axis=1)),
    Sample([(2, 3, 4)], dict(axis=(0, 2))),
    Sample([(2, 3, 4)], dict(axis=-1, keepdims=True)),
    Sample([(2, 3, 4)], dict(axis=(1,), exclude=True)),
    Sample([(2, 3, 4)], dict(axis=(0, 1), keepdims=True, exclude=True)),
    Sample([(5,)], dict(axis=0)),
    Sample([(3, 1, 4)], dict(axis=1)),
    Sample([(4, 5)], dict(axis=())),
    Sample([(2, 3, 4, 5)], dict(axis=(1, 3))),
]
# Large enough for the OpenMP paths (>= 32768 elements): outer, inner and full reductions.
LARGE_SAMPLES = [
    Sample([(64, 40, 30)], dict(axis=0)),
    Sample([(64, 40, 30)], dict(axis=2)),
    Sample([(64, 40, 30)], dict(axis=(0, 2))),
    Sample([(64, 40, 30)]),
    Sample([(2, 40000)], dict(axis=0)),
]


def _norm(x, ord=2, axis=None, keepdims=False):
    axes = _axes(x.ndim, axis, False)
    xf = x.astype(np.float64)
    if ord == 1:
        out = np.sum(np.abs(xf), axis=axes, keepdims=keepdims)
    else:
        out = np.sqrt(np.sum(xf * xf, axis=axes, keepdims=keepdims))
    out = np.asarray(out)
    if out.ndim == 0:
        out = out.reshape((1,) * (x.ndim if keepdims else 1))
    return out.astype(x.dtype)


def _arg(fn):
    def ref(x, axis=None, keepdims=False):
        if axis is None:
            out = np.array([fn(x.reshape(-1))])
            if keepdims:
                out = out.reshape((1,) * x.ndim)
        else:
            out = fn(x, axis=axis)
            if keepdims:
                out = np.expand_dims(out, axis)
            if out.ndim == 0:
                out = out.reshape(1)
        return out.astype(x.dtype)
    return ref


def _distinct(shape):
    """Arrays without ties (argmax/argmin of ints would otherwise depend on tie order)."""
    def make(rng, dtype):
        n = int(np.prod(shape))
        vals = rng.permutation(n) - n // 2
        if np.dtype(dtype).kind == "u":
            vals = vals + n // 2
        return [vals.reshape(shape).astype(dtype)]
    return make


def _pick(x, index, axis=-1, keepdims=False, mode="clip"):
    ax = axis % x.ndim
    idx = index.astype(np.int64)
    n = x.shape[ax]
    idx = np.clip(idx, 0, n - 1) if mode == "clip" else np.mod(idx, n)
    idx_k = idx if idx.ndim == x.ndim else np.expand_dims(idx, ax)
    out = np.take_along_axis(x, idx_k, axis=ax)
    if not keepdims:
        out = np.squeeze(out, axis=ax)
        if out.ndim == 0:
            out = out.reshape(1)
    return out


def _pick_inputs(shape, axis, low, high, keepdims=False):
    def make(rng, dtype):
        x = rng.uniform(-2, 2, size=shape).astype(dtype)
        ishape = list(shape)
        if keepdims:
            ishape[axis] = 1
        else:
            del ishape[axis]
        idx = rng.randint(low, high, size=ishape or [1]).astype("float32")
        return [x, idx]
    return make


def _broadcast_to(x, shape):
    shape = tuple(s if s != 0 else d for s, d in zip(shape, x.shape))
    return np.broadcast_to(x, shape).copy()


def _broadcast_axis(x, axis, size):
    axis = (axis,) if isinstance(axis, int) else axis
    size = (size,) if isinstance(size, int) else size
    shape = list(x.shape)
    for a, s in zip(axis, size):
        shape[a] = s
    return np.broadcast_to(x, shape).copy()


def _broadcast_like(x, y, lhs_axes=None, rhs_axes=None):
    if lhs_axes is None:
        return np.broadcast_to(x, y.shape).copy()
    shape = list(x.shape)
    for la, ra in zip(lhs_axes, rhs_axes):
        shape[la] = y.shape[ra]
    return np.broadcast_to(x, shape).copy()


ENTRIES = [
    OpEntry("sum", _reduce(_sum), REDUCE_SAMPLES + LARGE_SAMPLES, dtypes=ALL_NUMERIC,
            covers=("sum_axis", "_sparse_sum"), rtol=1e-5, atol=1e-4),
    OpEntry("sum", _reduce(_sum), REDUCE_SAMPLES[:3], dtypes=("float16",), covers=("sum",)),
    OpEntry("mean", _reduce(_mean), REDUCE_SAMPLES + LARGE_SAMPLES[:2], dtypes=ALL_NUMERIC,
            covers=("_sparse_mean",)),
    OpEntry("prod", _reduce(_prod), REDUCE_SAMPLES, dtypes=ALL_NUMERIC, low=-2, high=2),
    OpEntry("nansum", _reduce(np.nansum),
            [Sample(arrays=_with_nans((3, 4))), Sample(arrays=_with_nans((3, 4)), kwargs=dict(axis=1)),
             Sample([(2, 5)], dict(axis=0))], dtypes=FLOATS),
    OpEntry("nanprod", _reduce(np.nanprod),
            [Sample(arrays=_with_nans((3, 4))), Sample(arrays=_with_nans((3, 4)), kwargs=dict(axis=0))],
            dtypes=FLOATS),
    OpEntry("max", _reduce(np.max), REDUCE_SAMPLES + LARGE_SAMPLES, dtypes=ALL_NUMERIC + ("float16",),
            covers=("max_axis",)),
    OpEntry("min", _reduce(np.min), REDUCE_SAMPLES + LARGE_SAMPLES[:3], dtypes=ALL_NUMERIC,
            covers=("min_axis",)),
    OpEntry("norm", _norm,
            [Sample([(3, 4)]), Sample([(3, 4)], dict(ord=1)), Sample([(2, 3, 4)], dict(axis=1)),
             Sample([(2, 3, 4)], dict(ord=1, axis=(0, 2), keepdims=True)),
             Sample([(2, 3, 4)], dict(axis=-1, keepdims=True)), Sample([(64, 40, 30)], dict(axis=1))],
            dtypes=FLOATS, covers=("_sparse_norm",)),
    OpEntry("argmax", _arg(np.argmax),
            [Sample(arrays=_distinct((3, 4)), kwargs=dict(axis=1)),
             Sample(arrays=_distinct((3, 4)), kwargs=dict(axis=0, keepdims=True)),
             Sample(arrays=_distinct((2, 3, 4)), kwargs=dict(axis=-2)),
             Sample(arrays=_distinct((2, 3, 4))),
             Sample(arrays=_distinct((5,)), kwargs=dict(axis=0)),
             Sample(arrays=_distinct((64, 40, 30)), kwargs=dict(axis=1))],
            dtypes=("float32", "float64", "int32", "int64"), grad=False),
    OpEntry("argmin", _arg(np.argmin),
            [Sample(arrays=_distinct((3, 4)), kwargs=dict(axis=1)),
             Sample(arrays=_distinct((2, 3, 4)), kwargs=dict(axis=0, keepdims=True)),
             Sample(arrays=_distinct((2, 3, 4)))],
            dtypes=("float32", "float64", "int32"), grad=False),
    OpEntry("argmax_channel", lambda x: np.argmax(x, axis=-1).astype(x.dtype),
            [Sample(arrays=_distinct((3, 4))), Sample(arrays=_distinct((2, 3, 5)))],
            dtypes=FLOATS, grad=False),
    OpEntry("pick", _pick,
            [Sample(arrays=_pick_inputs((3, 4), 1, 0, 4), kwargs=dict(axis=1)),
             Sample(arrays=_pick_inputs((3, 4), 0, 0, 3), kwargs=dict(axis=0)),
             Sample(arrays=_pick_inputs((3, 4), 1, -3, 7), kwargs=dict(axis=1, mode="wrap")),
             Sample(arrays=_pick_inputs((3, 4), 1, -3, 7), kwargs=dict(axis=-1)),
             Sample(arrays=_pick_inputs((2, 3, 4), 1, 0, 3, True),
                    kwargs=dict(axis=1, keepdims=True))],
            dtypes=FLOATS, covers=("choose_element_0index", "_npx_pick")),
    OpEntry("broadcast_to", _broadcast_to,
            [Sample([(1, 3)], dict(shape=(4, 3))), Sample([(2, 1, 1)], dict(shape=(2, 3, 4))),
             Sample([(2, 1, 4)], dict(shape=(0, 5, 0))), Sample([(1,)], dict(shape=(7,))),
             Sample([(1, 200, 1)], dict(shape=(30, 200, 10)))],
            dtypes=ALL_NUMERIC),
    OpEntry("broadcast_axis", _broadcast_axis,
            [Sample([(1, 2, 1)], dict(axis=2, size=3)),
             Sample([(1, 2, 1)], dict(axis=(0, 2), size=(2, 3))),
             Sample([(3, 1)], dict(axis=-1, size=4))],
            dtypes=ALL_NUMERIC, covers=("broadcast_axes",)),
    OpEntry("broadcast_like", _broadcast_like,
            [Sample([(1, 3), (2, 3)]), Sample([(2, 1, 4), (2, 5, 4)]),
             Sample([(1,), (2, 5)], dict(lhs_axes=(0,), rhs_axes=(-1,))),
             Sample([(1, 3), (4, 6)], dict(lhs_axes=(0,), rhs_axes=(0,)))],
            dtypes=FLOATS + ("int32",)),
]
