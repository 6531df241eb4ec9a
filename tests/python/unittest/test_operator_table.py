"""Generic forward tests driven by the operator table (optable/)."""
import numpy as np
import pytest

import mxnet as mx

from optable import all_entries, draw_inputs

ENTRIES = all_entries()


def _resolve(path):
    obj = mx.nd
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _tolerance(entry, dtype):
    if dtype == "float16":
        return max(entry.rtol, 1e-2), max(entry.atol, 1e-2)
    if dtype == "float32":
        return max(entry.rtol, 1e-5), max(entry.atol, 1e-6)
    return entry.rtol, entry.atol


def _cases():
    for entry in ENTRIES:
        for dtype in entry.dtypes:
            for i, sample in enumerate(entry.samples):
                yield pytest.param(entry, dtype, sample, id="%s-%s-%d" % (entry.name, dtype, i))


@pytest.mark.parametrize("entry,dtype,sample", list(_cases()))
def test_forward_matches_numpy(entry, dtype, sample):
    rng = np.random.RandomState(0)
    inputs = draw_inputs(entry, sample, dtype, rng)
    fn = _resolve(entry.name)
    outs = fn(*[mx.nd.array(x, dtype=x.dtype) for x in inputs], **sample.kwargs)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    got = [o.asnumpy() for o in outs]
    if entry.check is not None:
        entry.check(got, inputs, sample.kwargs, dtype)
        return
    expected = entry.ref(*inputs, **sample.kwargs)
    expected = list(expected) if isinstance(expected, (list, tuple)) else [expected]
    assert len(got) == len(expected), "%s: %d outputs, reference has %d" % (
        entry.name, len(got), len(expected))
    rtol, atol = _tolerance(entry, dtype)
    for g, e in zip(got, expected):
        e = np.asarray(e)
        assert g.shape == e.shape, "%s: shape %s, reference %s" % (entry.name, g.shape, e.shape)
        np.testing.assert_allclose(g.astype("float64"), e.astype("float64"), rtol=rtol, atol=atol,
                                   err_msg="%s dtype=%s kwargs=%s" % (entry.name, dtype, sample.kwargs))
