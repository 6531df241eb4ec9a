"""Op table: _contrib_allclose (used by test_utils.assert_almost_equal)."""
import numpy as np

from . import FLOATS, FLOATS_AND_HALF, OpEntry, Sample


def _allclose_ref(a, b, rtol=1e-5, atol=1e-8, equal_nan=True):
    return np.array([1.0 if np.allclose(a.astype("float64"), b.astype("float64"), rtol=rtol,
                                        atol=atol, equal_nan=equal_nan) else 0.0],
                    dtype="float32")


def _pair(delta, nan=False):
    def make(rng, dtype):
        a = rng.uniform(-2, 2, size=(4, 5)).astype(dtype)
        b = (a.astype("float64") + delta).astype(dtype)
        if nan:
            a[1, 2] = np.nan
            b[1, 2] = np.nan
        return [a, b]
    return make


ENTRIES = [
    OpEntry("contrib.allclose", ref=_allclose_ref, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample(arrays=_pair(0.0)),
                     Sample(arrays=_pair(0.5)),
                     Sample(arrays=_pair(1e-3), kwargs={"rtol": 0.0, "atol": 1e-2}),
                     Sample(arrays=_pair(1e-3), kwargs={"rtol": 0.0, "atol": 1e-4}),
                     Sample(arrays=_pair(0.0, nan=True)),
                     Sample(arrays=_pair(0.0, nan=True), kwargs={"equal_nan": False})]),
    OpEntry("contrib.allclose", ref=_allclose_ref, dtypes=("int32", "int64", "uint8"),
            grad=False, samples=[Sample(arrays=_pair(0)), Sample(arrays=_pair(1)),
                                 Sample(arrays=_pair(1), kwargs={"atol": 1.0})]),
]

EXEMPT = {}
