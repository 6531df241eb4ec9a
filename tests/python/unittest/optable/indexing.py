"""Op table: indexing (take, batch_take, Embedding, one_hot, gather_nd, scatter_nd)."""
import numpy as np

from . import ALL_NUMERIC, FLOATS, OpEntry, Sample


def _take(a, indices, axis=0, mode="clip"):
    idx = indices.astype(np.int64)
    n = a.shape[axis]
    idx = np.clip(idx, 0, n - 1) if mode == "clip" else np.mod(idx, n)
    out = np.take(a, idx, axis=axis)
    return out.reshape(1) if out.ndim == 0 else out


def _take_inputs(shape, ishape, low, high):
    def make(rng, dtype):
        a = rng.uniform(-2, 2, size=shape).astype(dtype)
        return [a, rng.randint(low, high, size=ishape).astype("float32")]
    return make


def _batch_take(a, indices):
    idx = np.clip(indices.astype(np.int64), 0, a.shape[1] - 1)
    return a[np.arange(a.shape[0]), idx]


def _embedding(data, weight, input_dim, output_dim, dtype="float32"):
    idx = np.clip(data.astype(np.int64), 0, input_dim - 1)
    return weight[idx]


def _embedding_inputs(dshape, input_dim, output_dim):
    def make(rng, dtype):
        data = rng.randint(0, input_dim, size=dshape).astype("float32")
        return [data, rng.uniform(-1, 1, size=(input_dim, output_dim)).astype(dtype)]
    return make


def _one_hot(indices, depth, on_value=1.0, off_value=0.0, dtype="float32"):
    idx = indices.astype(np.int64)
    out = np.full(idx.shape + (depth,), off_value, dtype=dtype)
    valid = (idx >= 0) & (idx < depth)
    out[valid, idx[valid]] = on_value
    return out


def _one_hot_inputs(shape, depth):
    def make(rng, dtype):
        return [rng.randint(-1, depth + 1, size=shape).astype(dtype)]
    return make


def _gather_nd(data, indices):
    idx = tuple(indices.astype(np.int64))
    out = data[idx]
    return out.reshape(1) if out.ndim == 0 else out


def _gather_inputs(dshape, m, ishape):
    def make(rng, dtype):
        data = rng.uniform(-2, 2, size=dshape).astype(dtype)
        idx = np.stack([rng.randint(-dshape[i], dshape[i], size=ishape) for i in range(m)])
        return [data, idx.astype("int32")]
    return make


def _scatter_nd(data, indices, shape):
    out = np.zeros(shape, dtype=data.dtype)
    out[tuple(indices.astype(np.int64))] = data
    return out


def _scatter_inputs(shape, m, n):
    def make(rng, dtype):
        # distinct index tuples (duplicates make scatter_nd non-deterministic)
        flat = rng.permutation(int(np.prod(shape[:m])))[:n]
        idx = np.stack(np.unravel_index(flat, shape[:m]))
        data = rng.uniform(-2, 2, size=(n,) + tuple(shape[m:])).astype(dtype)
        return [data, idx.astype("float32")]
    return make


ENTRIES = [
    OpEntry("take", _take,
            [Sample(arrays=_take_inputs((3, 4), (2, 2), 0, 3)),
             Sample(arrays=_take_inputs((3, 4), (5,), -2, 6)),
             Sample(arrays=_take_inputs((3, 4), (2, 3), -5, 9), kwargs=dict(axis=1, mode="wrap")),
             Sample(arrays=_take_inputs((2, 3, 4), (2,), 0, 4), kwargs=dict(axis=-1)),
             Sample(arrays=_take_inputs((2, 3, 4), (3, 2), 0, 3), kwargs=dict(axis=1, mode="raise")),
             Sample(arrays=_take_inputs((1000, 64), (700,), 0, 1000))],
            dtypes=FLOATS + ("float16", "int32"), covers=("_npi_take",)),
    OpEntry("batch_take", _batch_take,
            [Sample(arrays=_take_inputs((3, 2), (3,), -1, 3)),
             Sample(arrays=_take_inputs((4, 5), (4,), 0, 5))],
            dtypes=FLOATS, grad=False),
    OpEntry("Embedding", _embedding,
            [Sample(arrays=_embedding_inputs((2, 3), 4, 5), kwargs=dict(input_dim=4, output_dim=5)),
             Sample(arrays=_embedding_inputs((7,), 10, 3), kwargs=dict(input_dim=10, output_dim=3)),
             Sample(arrays=_embedding_inputs((64, 50), 100, 32),
                    kwargs=dict(input_dim=100, output_dim=32))],
            dtypes=("float32",), covers=("_sparse_Embedding", "_npx_embedding")),
    OpEntry("Embedding", _embedding,
            [Sample(arrays=_embedding_inputs((2, 3), 4, 5),
                    kwargs=dict(input_dim=4, output_dim=5, dtype="float64"))],
            dtypes=("float64",)),
    OpEntry("one_hot", _one_hot,
            [Sample(arrays=_one_hot_inputs((4,), 3), kwargs=dict(depth=3)),
             Sample(arrays=_one_hot_inputs((2, 3), 5), kwargs=dict(depth=5, on_value=8,
                                                                    off_value=1, dtype="int32")),
             Sample(arrays=_one_hot_inputs((3,), 4), kwargs=dict(depth=4, dtype="float64"))],
            dtypes=("float32", "int32"), grad=False, covers=("_npx_one_hot",)),
    OpEntry("gather_nd", _gather_nd,
            [Sample(arrays=_gather_inputs((2, 2), 2, (3,))),
             Sample(arrays=_gather_inputs((2, 2, 2), 2, (2,))),
             Sample(arrays=_gather_inputs((3, 4, 5), 1, (2, 2))),
             Sample(arrays=_gather_inputs((3, 4), 2, (1,)))],
            dtypes=ALL_NUMERIC, covers=("_npi_gather_nd", "_npx_gather_nd")),
    OpEntry("scatter_nd", _scatter_nd,
            [Sample(arrays=_scatter_inputs((2, 2), 2, 3), kwargs=dict(shape=(2, 2))),
             Sample(arrays=_scatter_inputs((2, 2, 2, 2), 2, 2), kwargs=dict(shape=(2, 2, 2, 2))),
             Sample(arrays=_scatter_inputs((5, 3), 1, 3), kwargs=dict(shape=(5, 3)))],
            dtypes=ALL_NUMERIC),
]
