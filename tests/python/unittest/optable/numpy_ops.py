"""NumPy-semantics operators (_np_sum, _np_prod, _np_max, _np_min, _npi_mean, _np_reshape):
reductions over every axis give 0-d arrays. The `_npi_*`/`_npx_*` aliases of classic operators
are covered by those operators' entries."""
import numpy as np

from . import OpEntry, Sample, ALL_NUMERIC

_P = "numpy._internal."


def _reduce_samples():
    return [Sample([(2, 3, 4)]), Sample([(2, 3, 4)], {"axis": (1,)}),
            Sample([(2, 3, 4)], {"axis": (0, 2), "keepdims": True}),
            Sample([(3, 4)], {"axis": (-1,)}), Sample([(5,)])]


def _ref(fn):
    def ref(x, axis=None, keepdims=False):
        return np.asarray(fn(x, axis=axis, keepdims=keepdims))
    return ref


ENTRIES = [
    OpEntry(_P + "_np_sum", ref=_ref(np.sum), samples=_reduce_samples()),
    OpEntry(_P + "_npi_mean", ref=_ref(np.mean), samples=_reduce_samples()),
    OpEntry(_P + "_np_prod", ref=_ref(np.prod), samples=_reduce_samples(), low=0.5, high=1.5,
            covers=["_np_product"]),
    OpEntry(_P + "_np_max", ref=_ref(np.max), samples=_reduce_samples(), covers=["_np_amax"]),
    OpEntry(_P + "_np_min", ref=_ref(np.min), samples=_reduce_samples(), covers=["_np_amin"]),
    OpEntry(_P + "_np_reshape", ref=lambda x, newshape: x.reshape(newshape),
            samples=[Sample([(2, 3, 4)], {"newshape": (4, -1)}),
                     Sample([(1,)], {"newshape": ()}),
                     Sample([(6,)], {"newshape": (3, 2)})]),
]


def _comparison_entries():
    entries = []
    pairs = [("equal", np.equal, np.equal), ("not_equal", np.not_equal, np.not_equal),
             ("greater", np.greater, np.less), ("greater_equal", np.greater_equal,
                                                 np.less_equal),
             ("less", np.less, np.greater), ("less_equal", np.less_equal, np.greater_equal)]
    for name, fn, _ in pairs:
        entries.append(OpEntry(
            _P + "_npi_" + name, ref=fn, grad=False, dtypes=ALL_NUMERIC, low=-2, high=2,
            samples=[Sample([(2, 3), (2, 3)]), Sample([(2, 1, 3), (4, 1)]),
                     Sample([(), (3,)]), Sample([(0, 3), (3,)])]))
        entries.append(OpEntry(
            _P + "_npi_" + name + "_scalar", grad=False, dtypes=ALL_NUMERIC, low=-2, high=2,
            ref=lambda x, scalar, is_int=False, fn=fn: fn(x, scalar),
            samples=[Sample([(2, 3)], {"scalar": 1.0}), Sample([(4,)], {"scalar": -0.5}),
                     Sample([(0, 2)], {"scalar": 0.0})]))
    return entries


ENTRIES += _comparison_entries()

EXEMPT = {}
