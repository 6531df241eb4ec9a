"""Operators written with the legacy OperatorProperty interface (IdentityAttachKLSparseReg,
SequenceMask) and as a SimpleOp (smooth_l1): forward, the backward ops called directly (their
inputs are exactly the declared dependencies), aux-state updates and errors. References are
NumPy re-implementations and values printed once by MXNet 1.9.1."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError


def _backward(name):
    return lambda *inputs, **kwargs: _invoke(name, *inputs, **kwargs)


def _invoke(op_name, *inputs, **kwargs):
    """Call a registered operator directly (backward ops have no generated signature)."""
    from mxnet.ndarray._invoke import imperative_invoke
    from mxnet.base import op_handle
    keys = [k.encode() for k in kwargs]
    vals = [str(v).encode() for v in kwargs.values()]
    return imperative_invoke(op_handle(op_name), list(inputs), keys, vals, None)


# ------------------------------------------------------------------------------ SequenceMask


def _mask_np(x, lengths, value, axis):
    out = x.copy()
    for b, n in enumerate(lengths.astype(int)):
        if axis == 0:
            out[n:, b] = value
        else:
            out[b, n:] = value
    return out


def test_sequence_mask_matches_mxnet191():
    # Printed by MXNet 1.9.1 for these calls (first feature of each step).
    d = mx.nd.array(np.arange(24).reshape(3, 2, 4))
    out = mx.nd.SequenceMask(d, mx.nd.array([1, 3]), use_sequence_length=True, value=-1)
    np.testing.assert_array_equal(out.asnumpy()[:, :, 0], [[0, 4], [-1, 12], [-1, 20]])
    d = mx.nd.array(np.arange(24).reshape(2, 3, 4))
    out = mx.nd.SequenceMask(d, mx.nd.array([1, 2]), use_sequence_length=True, value=-1, axis=1)
    np.testing.assert_array_equal(out.asnumpy()[:, :, 0], [[0, -1, -1], [12, 16, -1]])


@pytest.mark.parametrize("axis", [0, 1])
def test_sequence_mask_backward_reads_only_out_grad_and_lengths(axis):
    rng = np.random.RandomState(1)
    shape = (4, 3, 2) if axis == 0 else (3, 4, 2)
    og = rng.uniform(-1, 1, size=shape).astype("float32")
    lengths = np.array([1, 4, 2], dtype="float32")
    # The backward op takes (out_grad, sequence_length): the data is not kept for it.
    grad = _backward("_backward_SequenceMask")(mx.nd.array(og), mx.nd.array(lengths),
                                               use_sequence_length=True, value=5.0, axis=axis)
    grads = grad if isinstance(grad, list) else [grad]
    np.testing.assert_allclose(grads[0].asnumpy(), _mask_np(og, lengths, 0.0, axis))
    if len(grads) > 1:
        np.testing.assert_array_equal(grads[1].asnumpy(), np.zeros(3))


def test_sequence_mask_without_lengths_is_identity_both_ways():
    x = np.random.RandomState(2).randn(3, 2, 2).astype("float32")
    np.testing.assert_array_equal(mx.nd.SequenceMask(mx.nd.array(x)).asnumpy(), x)
    g = _backward("_backward_SequenceMask")(mx.nd.array(x))
    np.testing.assert_array_equal(g.asnumpy(), x)


def test_sequence_mask_integer_lengths_keep_their_dtype():
    x = mx.nd.ones((3, 2))
    out = mx.nd.SequenceMask(x, mx.nd.array([2, 1], dtype="int32"), use_sequence_length=True)
    np.testing.assert_array_equal(out.asnumpy(), [[1, 1], [1, 0], [0, 0]])


def test_sequence_mask_errors():
    x = mx.nd.ones((3, 2, 2))
    with pytest.raises(MXNetError, match="axis must be 0 or 1"):
        mx.nd.SequenceMask(x, axis=2)
    with pytest.raises(MXNetError, match="at least 2 dimensions"):
        mx.nd.SequenceMask(mx.nd.ones((3,)))
    with pytest.raises(MXNetError, match="SequenceMask"):
        mx.nd.SequenceMask(x, mx.nd.ones((5,)), use_sequence_length=True)
    with pytest.raises(MXNetError, match="use_sequence_length"):
        mx.nd.SequenceMask(x, use_sequence_length="maybe")


# ------------------------------------------------------------------ IdentityAttachKLSparseReg

# MXNet 1.9.1, autograd through IdentityAttachKLSparseReg(sparseness_target=0.2, penalty=0.01,
# momentum=0.8) with moving_avg = [0.5, 0.2, 0.7] (computed there as
# og + 0.01 * (-0.2 / m + 0.8 / (1 - m)), m = 0.8 * moving_avg + 0.2 * mean(x, 0)).
def _kl_np(x, og, moving_avg, rho, penalty, momentum):
    m = momentum * moving_avg + (1 - momentum) * x.mean(axis=0)
    return og + penalty * (-rho / m + (1 - rho) / (1 - m)), m


def test_kl_sparse_reg_forward_is_identity_and_keeps_moving_avg():
    x = np.random.RandomState(3).uniform(0.1, 0.9, size=(4, 3)).astype("float32")
    ma = mx.nd.array([0.5, 0.2, 0.7])
    y = mx.nd.IdentityAttachKLSparseReg(mx.nd.array(x), ma)
    np.testing.assert_array_equal(y.asnumpy(), x)
    np.testing.assert_allclose(ma.asnumpy(), [0.5, 0.2, 0.7])


def test_kl_sparse_reg_backward_penalty_and_aux_update_in_place():
    rng = np.random.RandomState(4)
    x = rng.uniform(0.1, 0.9, size=(4, 3)).astype("float32")
    og = rng.uniform(-1, 1, size=(4, 3)).astype("float32")
    ma0 = np.array([0.5, 0.2, 0.7], dtype="float32")
    ma = mx.nd.array(ma0)
    kw = dict(sparseness_target=0.2, penalty=0.01, momentum=0.8)
    grad = _backward("_backward_IdentityAttachKLSparseReg")(mx.nd.array(og), mx.nd.array(x),
                                                            ma, **kw)
    expected, m = _kl_np(x.astype("float64"), og, ma0.astype("float64"), 0.2, 0.01, 0.8)
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ma.asnumpy(), m, rtol=1e-6)   # the aux state moved


def test_kl_sparse_reg_rejects_non_2d_and_bad_params():
    with pytest.raises(MXNetError, match="2-D"):
        mx.nd.IdentityAttachKLSparseReg(mx.nd.ones((2, 3, 4)), mx.nd.ones((3,)))
    with pytest.raises(MXNetError, match="sparseness_target"):
        mx.nd.IdentityAttachKLSparseReg(mx.nd.ones((2, 3)), mx.nd.ones((3,)),
                                        sparseness_target=2.0)
    with pytest.raises(MXNetError, match="float32"):
        mx.nd.IdentityAttachKLSparseReg(mx.nd.ones((2, 3), dtype="float64"),
                                        mx.nd.ones((3,), dtype="float64"))


# ----------------------------------------------------------------------------- smooth_l1


def _smooth_l1_np(x, sigma):
    s2 = sigma * sigma
    return np.where(np.abs(x) < 1 / s2, 0.5 * s2 * x * x, np.abs(x) - 0.5 / s2)


def test_smooth_l1_matches_mxnet191():
    x = mx.nd.array([1, 2, 3, 4, 0.1])
    np.testing.assert_allclose(mx.nd.smooth_l1(x).asnumpy(), [0.5, 1.5, 2.5, 3.5, 0.005],
                               rtol=1e-6)
    x = mx.nd.array([1, 2, 3, 4, 0.1, -0.3])
    np.testing.assert_allclose(mx.nd.smooth_l1(x, scalar=2).asnumpy(),
                               [0.875, 1.875, 2.875, 3.875, 0.02, 0.175], rtol=1e-6)


@pytest.mark.parametrize("sigma", [1.0, 2.0, 0.7])
def test_smooth_l1_backward_matches_finite_differences(sigma):
    rng = np.random.RandomState(5)
    x = rng.uniform(-3, 3, size=(3, 4))
    # Stay away from the kinks at +-1/sigma^2 where the derivative jumps.
    x[np.abs(np.abs(x) - 1 / sigma ** 2) < 1e-2] += 0.05
    og = rng.uniform(-1, 1, size=x.shape)
    eps = 1e-6
    numeric = (_smooth_l1_np(x + eps, sigma) - _smooth_l1_np(x - eps, sigma)) / (2 * eps) * og
    grad = _backward("_backward_smooth_l1")(mx.nd.array(og, dtype="float64"),
                                            mx.nd.array(x, dtype="float64"), scalar=sigma)
    np.testing.assert_allclose(grad.asnumpy(), numeric, rtol=1e-5, atol=1e-7)


def test_smooth_l1_errors_and_signature():
    with pytest.raises(MXNetError, match="scalar"):
        mx.nd.smooth_l1(mx.nd.ones((2,)), scalar="abc")
    with pytest.raises(MXNetError, match="smooth_l1"):
        mx.nd.smooth_l1(mx.nd.ones((2,)), sigma=1.0)
    import inspect
    assert list(inspect.signature(mx.nd.smooth_l1).parameters)[:2] == ["data", "scalar"]


@pytest.mark.skipif(not hasattr(mx, "autograd"), reason="mx.autograd not merged yet (issue 4)")
def test_smooth_l1_and_sequence_mask_through_autograd():
    x = mx.nd.array([[-2.0, 0.1], [0.3, 4.0]])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.smooth_l1(x, scalar=2.0)
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), np.clip(4 * x.asnumpy(), -1, 1), rtol=1e-6)
    d = mx.nd.ones((3, 2))
    d.attach_grad()
    with mx.autograd.record():
        z = mx.nd.SequenceMask(d, mx.nd.array([1, 2]), use_sequence_length=True)
    z.backward()
    np.testing.assert_array_equal(d.grad.asnumpy(), [[1, 1], [0, 1], [0, 0]])


# ------------------------------------------------------------------------ the _v1 layers


def _conv2d_np(x, w, b, stride, pad):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, _, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, f, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3])) + b
    return out


def test_convolution_v1_computes_a_convolution():
    rng = np.random.RandomState(0)
    x, w, b = rng.randn(2, 3, 7, 6), rng.randn(4, 3, 3, 3), rng.randn(4)
    out = mx.nd.Convolution_v1(mx.nd.array(x), mx.nd.array(w), mx.nd.array(b), kernel=(3, 3),
                               stride=(2, 2), pad=(1, 1), num_filter=4)
    np.testing.assert_allclose(out.asnumpy(), _conv2d_np(x, w, b, 2, 1), rtol=1e-4, atol=1e-4)


def test_pooling_v1_max_and_avg():
    x = np.random.RandomState(1).randn(2, 3, 6, 4).astype(np.float32)
    blocks = x.reshape(2, 3, 3, 2, 2, 2)
    out = mx.nd.Pooling_v1(mx.nd.array(x), kernel=(2, 2), stride=(2, 2), pool_type='max')
    np.testing.assert_allclose(out.asnumpy(), blocks.max(axis=(3, 5)), rtol=1e-6)
    out = mx.nd.Pooling_v1(mx.nd.array(x), kernel=(2, 2), stride=(2, 2), pool_type='avg')
    np.testing.assert_allclose(out.asnumpy(), blocks.mean(axis=(3, 5)), rtol=1e-5, atol=1e-6)


def test_batchnorm_v1_with_global_stats():
    rng = np.random.RandomState(2)
    x = rng.randn(4, 3, 2, 2).astype(np.float32)
    gamma, beta = rng.rand(3).astype(np.float32) + 0.5, rng.randn(3).astype(np.float32)
    mean, var = rng.randn(3).astype(np.float32), rng.rand(3).astype(np.float32) + 0.5
    out = mx.nd.BatchNorm_v1(*[mx.nd.array(a) for a in (x, gamma, beta, mean, var)], eps=1e-3,
                             fix_gamma=False, use_global_stats=True)
    c = (slice(None), None, None)
    expect = (x - mean[c]) / np.sqrt(var[c] + 1e-3) * gamma[c] + beta[c]
    np.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-5, atol=1e-5)


def test_symbol_file_naming_v1_layers_loads_and_runs():
    data = mx.sym.var('data')
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=2, name='conv')
    net = mx.sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type='max', name='pool')
    text = net.tojson().replace('"Convolution"', '"Convolution_v1"') \
                       .replace('"Pooling"', '"Pooling_v1"')
    assert '"Convolution_v1"' in text and '"Pooling_v1"' in text
    old = mx.sym.load_json(text)
    rng = np.random.RandomState(3)
    args = {'data': rng.randn(1, 1, 6, 6), 'conv_weight': rng.randn(2, 1, 3, 3),
            'conv_bias': rng.randn(2)}
    outs = [s.bind(mx.cpu(), {k: mx.nd.array(v) for k, v in args.items()}).forward()[0]
            for s in (old, net)]
    expect = _conv2d_np(args['data'], args['conv_weight'], args['conv_bias'], 1, 0)
    expect = expect.reshape(1, 2, 2, 2, 2, 2).max(axis=(3, 5))
    np.testing.assert_allclose(outs[0].asnumpy(), expect, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(outs[0].asnumpy(), outs[1].asnumpy())
