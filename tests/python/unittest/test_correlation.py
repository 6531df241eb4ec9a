"""Correlation (FlowNet's correlation layer). Oracles: the loop reference of the op table
(optable/correlation.py) and the real MXNet 1.9.1 (the same script runs under both)."""
import os
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle  # noqa: E402


def test_symbol_infers_the_displacement_grid_and_output_size():
    s = mx.sym.Correlation(mx.sym.var("a"), mx.sym.var("b"), kernel_size=3, max_displacement=2,
                           pad_size=2, name="corr")
    assert s.list_outputs() == ["corr_output"]
    arg_shapes, out_shapes, _ = s.infer_shape(a=(2, 3, 7, 9))
    assert arg_shapes == [(2, 3, 7, 9), (2, 3, 7, 9)] and out_shapes == [(2, 25, 5, 7)]


def test_grad_req_add_accumulates():
    rng = np.random.RandomState(0)
    a, b = mx.nd.array(rng.randn(1, 2, 5, 5)), mx.nd.array(rng.randn(1, 2, 5, 5))
    grads = []
    for req in ("write", "add"):
        a.attach_grad(grad_req=req)
        for _ in range(2):
            with mx.autograd.record():
                y = mx.nd.Correlation(a, b, max_displacement=1)
            y.backward(mx.nd.ones_like(y))
        grads.append(a.grad.asnumpy())
    np.testing.assert_allclose(grads[1], 2 * grads[0], rtol=1e-6)


@pytest.mark.parametrize("kwargs, shapes, message", [
    (dict(kernel_size=2), [(1, 1, 5, 5)] * 2, "kernel_size must be an odd number, got 2"),
    (dict(), [(1, 1, 5, 5), (1, 2, 5, 5)], "same shape, got [1,1,5,5] and [1,2,5,5]"),
    (dict(max_displacement=3), [(1, 1, 5, 5)] * 2, "is too small for max_displacement=3"),
    (dict(stride1=0), [(1, 1, 5, 5)] * 2, "stride1 and stride2 must be at least 1"),
    (dict(), [(1, 5, 5)] * 2, "expected data of shape (batch, channel, height, width)"),
])
def test_errors_name_the_operator_and_the_problem(kwargs, shapes, message):
    with pytest.raises(mx.MXNetError) as info:
        mx.nd.Correlation(*[mx.nd.ones(s) for s in shapes], **kwargs).wait_to_read()
    assert "Correlation" in str(info.value) and message in str(info.value)


_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
rs = np.random.RandomState(3)
out = {}
cases = [dict(kernel_size=1, max_displacement=1, stride1=1, stride2=1, pad_size=0),
         dict(kernel_size=3, max_displacement=2, stride1=1, stride2=1, pad_size=2),
         dict(kernel_size=3, max_displacement=4, stride1=2, stride2=2, pad_size=1,
              is_multiply=False),
         dict(kernel_size=1, max_displacement=3, stride1=3, stride2=1, pad_size=3)]
for i, kw in enumerate(cases):
    a, b = mx.nd.array(rs.randn(2, 3, 9, 11)), mx.nd.array(rs.randn(2, 3, 9, 11))
    a.attach_grad()
    b.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Correlation(a, b, **kw)
    y.backward(mx.nd.array(rs.randn(*y.shape)))
    out["out%d" % i], out["grad1_%d" % i], out["grad2_%d" % i] = \
        y.asnumpy(), a.grad.asnumpy(), b.grad.asnumpy()
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_outputs_and_gradients_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        ref, ours = mx191_oracle.run_script_under_both(_SCRIPT, tmp)
        assert sorted(ref.files) == sorted(ours.files) and len(ref.files) == 12
        for key in ref.files:
            np.testing.assert_allclose(ours[key], ref[key], rtol=1e-5, atol=1e-5, err_msg=key)
