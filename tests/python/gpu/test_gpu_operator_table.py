"""The operator test table (tests/python/unittest/optable) on the GPU: every entry whose operator
has a GPU kernel runs on the device under test and is compared with the CPU (float64 reference
where the entry allows it), forward and, for differentiable entries, the input gradients.
Entries whose operator has no GPU kernel are skipped with that reason; random samplers are
checked by the entry's own statistical check."""
import os
import sys

import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "unittest"))
from optable import all_entries, draw_inputs  # noqa: E402

ENTRIES = all_entries()
TOL = {"float16": (1e-2, 1e-2), "float32": (1e-4, 1e-5), "float64": (1e-7, 1e-9)}


def _resolve(path):
    obj = mx.nd
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _cases():
    for entry in ENTRIES:
        for dtype in entry.dtypes:
            for i, sample in enumerate(entry.samples):
                yield pytest.param(entry, dtype, sample, id="%s-%s-%d" % (entry.name, dtype, i))


def _run(entry, inputs, kwargs, ctx, grad):
    fn = _resolve(entry.name)
    arrays = [mx.nd.array(x, ctx=ctx, dtype=x.dtype) for x in inputs]
    diff = [a for a in arrays if grad and np.dtype(a.dtype).kind == "f"]
    for a in diff:
        a.attach_grad()
    with mx.autograd.record(train_mode=False):  # inference mode: Dropout is the identity
        outs = fn(*arrays, **kwargs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    grads = []
    if diff:
        heads = [mx.nd.ones_like(o) * 0.5 for o in outs]
        mx.autograd.backward(outs, heads)
        grads = [a.grad.asnumpy() for a in diff]
    return [o.asnumpy() for o in outs], grads


@pytest.mark.parametrize("entry,dtype,sample", list(_cases()))
def test_device_matches_cpu(entry, dtype, sample):
    rng = np.random.RandomState(0)
    inputs = draw_inputs(entry, sample, dtype, rng)
    is_float = np.dtype(dtype).kind == "f"
    grad = entry.grad and is_float and entry.check is None
    try:
        outs, grads = _run(entry, inputs, sample.kwargs, DEV, grad)
    except mx.MXNetError as e:
        if "has no GPU implementation" in str(e):
            pytest.skip("no GPU kernel: %s" % str(e).splitlines()[0][:200])
        raise
    if entry.check is not None:  # random samplers: statistics, not equality
        entry.check(outs, inputs, sample.kwargs, dtype)
        return
    # The reference: the CPU in float64 where the operator takes it, else in the same dtypes
    # (mixed-precision operators fix the dtype of some inputs).
    try:
        if not (is_float and "float64" in entry.dtypes):
            raise mx.MXNetError("no float64 reference")
        ref_inputs = [x.astype("float64") if x.dtype.kind == "f" else x for x in inputs]
        ref_outs, ref_grads = _run(entry, ref_inputs, sample.kwargs, mx.cpu(), grad)
    except mx.MXNetError:
        ref_outs, ref_grads = _run(entry, inputs, sample.kwargs, mx.cpu(), grad)
    rtol, atol = TOL.get(dtype, (0, 0))
    rtol, atol = max(rtol, entry.rtol), max(atol, entry.atol)
    msg = "%s dtype=%s kwargs=%s" % (entry.name, dtype, sample.kwargs)
    assert len(outs) == len(ref_outs), msg
    for o, r in zip(outs, ref_outs):
        assert o.shape == r.shape, msg
        np.testing.assert_allclose(o.astype(np.float64), r.astype(np.float64), rtol=rtol,
                                   atol=atol, err_msg=msg)
    for g, r in zip(grads, ref_grads):
        np.testing.assert_allclose(g.astype(np.float64), r.astype(np.float64), rtol=rtol,
                                   atol=atol, err_msg=msg + " (gradient)")
