"""The interleaved multi-head attention operators (contrib.interleaved_matmul_*).

Oracles: NumPy references from the layout (optable/attention.py), an unfused composition of
standard operators (reshape/transpose/batch_dot) for a whole attention layer, and the real
MXNet 1.9.1 for outputs and gradients (the same script runs under both libraries)."""
import os
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle  # noqa: E402


def unfused_self_attention(F, qkv, heads):
    """Multi-head self attention from standard operators: the oracle for the fused pair."""
    length, batch, width = qkv.shape
    dim = width // (3 * heads)
    x = qkv.reshape((length, batch, heads, 3, dim))
    def part(i):  # -> (batch*heads, length, dim)
        p = F.squeeze(F.slice_axis(x, axis=3, begin=i, end=i + 1), axis=3)
        return F.transpose(p, axes=(1, 2, 0, 3)).reshape((batch * heads, length, dim))
    q, k, v = part(0), part(1), part(2)
    att = F.softmax(F.batch_dot(q / np.sqrt(dim), k, transpose_b=True), axis=-1)
    out = F.batch_dot(att, v).reshape((batch, heads, length, dim))
    return F.transpose(out, axes=(2, 0, 1, 3)).reshape((length, batch, heads * dim))


def fused_self_attention(qkv, heads):
    att = mx.nd.softmax(mx.nd.contrib.interleaved_matmul_selfatt_qk(qkv, heads=heads), axis=-1)
    return mx.nd.contrib.interleaved_matmul_selfatt_valatt(qkv, att, heads=heads)


def test_fused_self_attention_matches_unfused_composition_with_gradients():
    rng = np.random.RandomState(0)
    qkv_np = rng.randn(6, 3, 2 * 3 * 5).astype(np.float32)
    head_grad = mx.nd.array(rng.randn(6, 3, 10))
    results = []
    for f in (lambda x: fused_self_attention(x, 2), lambda x: unfused_self_attention(mx.nd, x, 2)):
        qkv = mx.nd.array(qkv_np)
        qkv.attach_grad()
        with mx.autograd.record():
            out = f(qkv)
        out.backward(head_grad)
        results.append((out.asnumpy(), qkv.grad.asnumpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-4, atol=1e-5)


def test_grad_req_add_accumulates_and_unread_parts_get_zero_gradient():
    rng = np.random.RandomState(1)
    qkv = mx.nd.array(rng.randn(3, 2, 12))
    grads = []
    for req in ("write", "add"):
        qkv.attach_grad(grad_req=req)
        for _ in range(2):
            with mx.autograd.record():
                s = mx.nd.contrib.interleaved_matmul_selfatt_qk(qkv, heads=2)
            s.backward(mx.nd.ones_like(s))
        grads.append(qkv.grad.asnumpy())
    np.testing.assert_allclose(grads[1], 2 * grads[0], rtol=1e-6)
    values = grads[0].reshape(3, 2, 2, 3, 2)[:, :, :, 2]  # (L, B, heads, parts, D): V
    assert not values.any() and grads[0].any()


def test_symbol_infers_shapes_and_exports_the_mxnet_op_names():
    qkv = mx.sym.var("qkv")
    att = mx.sym.contrib.interleaved_matmul_selfatt_qk(qkv, heads=4)
    out = mx.sym.contrib.interleaved_matmul_selfatt_valatt(qkv, att, heads=4)
    _, out_shapes, _ = out.infer_shape(qkv=(7, 2, 4 * 3 * 8))
    assert out_shapes == [(7, 2, 32)]
    assert '"_contrib_interleaved_matmul_selfatt_valatt"' in out.tojson()


@pytest.mark.parametrize("call, message", [
    (lambda: mx.nd.contrib.interleaved_matmul_selfatt_qk(mx.nd.ones((2, 3, 10)), heads=2),
     "multiple of heads * 3"),
    (lambda: mx.nd.contrib.interleaved_matmul_selfatt_qk(mx.nd.ones((2, 12)), heads=2),
     "got shape [2,12]"),
    (lambda: mx.nd.contrib.interleaved_matmul_selfatt_valatt(mx.nd.ones((2, 3, 12)),
                                                             mx.nd.ones((6, 2, 3)), heads=2),
     "expected attention of shape [6,2,2]"),
    (lambda: mx.nd.contrib.interleaved_matmul_encdec_qk(mx.nd.ones((2, 3, 4)),
                                                        mx.nd.ones((5, 2, 8)), heads=2),
     "disagree on batch size"),
])
def test_errors_name_the_operator_and_shapes(call, message):
    with pytest.raises(mx.MXNetError) as info:
        call().wait_to_read()
    assert "interleaved_matmul" in str(info.value) and message in str(info.value)


_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
rng = np.random.RandomState(7)
out = {}
def run(name, arrays, heads):
    nds = [mx.nd.array(a) for a in arrays]
    for a in nds:
        a.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.nd.contrib, "interleaved_matmul_" + name)(*nds, heads=heads)
    y.backward(mx.nd.array(rng.randn(*y.shape)))
    out[name] = y.asnumpy()
    for i, a in enumerate(nds):
        out["%s_grad%d" % (name, i)] = a.grad.asnumpy()
L, Lq, B, H, D = 5, 3, 2, 3, 4
run("selfatt_qk", [rng.randn(L, B, H * 3 * D)], H)
run("selfatt_valatt", [rng.randn(L, B, H * 3 * D), rng.randn(B * H, L, L)], H)
run("encdec_qk", [rng.randn(Lq, B, H * D), rng.randn(L, B, H * 2 * D)], H)
run("encdec_valatt", [rng.randn(L, B, H * 2 * D), rng.randn(B * H, Lq, L)], H)
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_outputs_and_gradients_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        ref, ours = mx191_oracle.run_script_under_both(_SCRIPT, tmp)
        assert sorted(ref.files) == sorted(ours.files) and len(ref.files) == 11
        for key in ref.files:
            np.testing.assert_allclose(ours[key], ref[key], rtol=1e-5, atol=1e-5, err_msg=key)
