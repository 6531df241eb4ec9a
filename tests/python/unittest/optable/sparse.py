"""Op table: storage-type operators, on dense inputs (their sparse forms are tested in
test_sparse_ops.py against densified NumPy references)."""
import numpy as np

from . import ALL_NUMERIC, FLOATS, OpEntry, Sample


def _retain(data, indices):
    keep = np.zeros(data.shape[0], dtype=bool)
    keep[indices.astype(np.int64)] = True
    out = data.copy()
    out[~keep] = 0
    return out


def _retain_inputs(shape, idx):
    def make(rng, dtype):
        return [rng.uniform(-2, 2, size=shape).astype(dtype), np.array(idx, dtype="int64")]
    return make


ENTRIES = [
    OpEntry("cast_storage", lambda x, stype: x,
            [Sample([(3, 4)], kwargs=dict(stype="default")),
             Sample([(2, 3, 2)], kwargs=dict(stype="default"))],
            dtypes=ALL_NUMERIC, covers=("_sparse_cast_storage",)),
    OpEntry("sparse.retain", _retain,
            [Sample(arrays=_retain_inputs((5, 3), [0, 3])),
             Sample(arrays=_retain_inputs((4, 2, 2), [3, 1, 1]))],
            dtypes=FLOATS, grad=False, covers=("_sparse_retain",)),
]

EXEMPT = {
    "_sparse_adagrad_update": "needs a row_sparse gradient (a dense one is an error, as in "
                              "MXNet 1.9.1); tested in test_sparse_ops.py against NumPy and "
                              "MXNet 1.9.1's numbers",
}
