"""InstanceNorm, GroupNorm, L2Normalization, LRN, moments, UpSampling, SequenceLast/
SequenceReverse, MakeLoss and the regression outputs on the GPU against the CPU in float64
(check_consistency's rule) or NumPy, forward and every gradient, with rows longer than one
block (256 threads), more channels than one block, and the sequence lengths checked before any
kernel reads them."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, TOL, check_fn, inputs

NORM_TOL = dict(TOL)
NORM_TOL[np.float16] = (2e-2, 2e-2)  # rows of hundreds of float16 elements


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 3, 5), (3, 4, 20, 18), (2, 300, 10)])
def test_instance_norm_and_gradients(shape, dtype):
    c = shape[1]
    arrays = inputs([shape, (c,), (c,)], dtype)
    check_fn(lambda x, g, b: mx.nd.InstanceNorm(x, g, b, eps=1e-3), arrays, dtype, True,
             "InstanceNorm %s" % (shape,), tol=NORM_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,groups", [((2, 4, 3), 2), ((3, 6, 12, 10), 3), ((2, 8, 5), 1)])
def test_group_norm_and_gradients(shape, groups, dtype):
    arrays = inputs([shape, (groups,), (groups,)], dtype)
    check_fn(lambda x, g, b: mx.nd.GroupNorm(x, g, b, num_groups=groups), arrays, dtype, True,
             "GroupNorm %s" % (shape,), tol=NORM_TOL[dtype])


def test_instance_and_group_norm_statistics_match_the_cpu():
    x = inputs([(3, 4, 6, 5)], np.float64)[0]
    g, b = np.linspace(0.5, 1.5, 4), np.linspace(-1, 1, 4)
    for op, kw, params in [("InstanceNorm", {}, (g, b)),
                           ("GroupNorm", dict(num_groups=2, output_mean_var=True), (g[:2], b[:2]))]:
        outs = []
        for ctx in (mx.cpu(), DEV):
            arrs = [mx.nd.array(a, ctx=ctx, dtype=np.float64) for a in (x,) + params]
            res = getattr(mx.nd, op)(*arrs, **kw)
            outs.append([r.asnumpy() for r in (res if isinstance(res, list) else [res])])
        for got, want in zip(outs[1], outs[0]):
            np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=op)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode,shape", [("instance", (3, 4, 5)), ("instance", (2, 700)),
                                        ("channel", (2, 6, 4, 3)), ("spatial", (2, 3, 20, 15))])
def test_l2_normalization_and_gradient(mode, shape, dtype):
    check_fn(lambda x: mx.nd.L2Normalization(x, mode=mode), inputs([shape], dtype), dtype, True,
             "L2Normalization %s %s" % (mode, shape), tol=NORM_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", [((2, 7, 4, 3), dict(nsize=5)),
                                          ((1, 3, 5, 5), dict(nsize=3, alpha=0.01, beta=0.5)),
                                          ((2, 4, 6), dict(nsize=4, knorm=1.0))])
def test_lrn_and_gradient(shape, params, dtype):
    check_fn(lambda x: mx.nd.LRN(x, **params), inputs([shape], dtype), dtype, True,
             "LRN %s" % (params,))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scale", [2, 3])
def test_upsampling_bilinear_and_both_gradients(scale, dtype):
    k = 2 * scale - scale % 2
    shapes = [(2, 3, 4, 5), (3, 1, k, k)]
    check_fn(lambda x, w: mx.nd.UpSampling(x, w, scale=scale, sample_type="bilinear",
                                           num_filter=3), inputs(shapes, dtype), dtype, True,
             "UpSampling bilinear", tol=NORM_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["concat", "sum"])
def test_upsampling_nearest_of_several_inputs(mode, dtype):
    shapes = [(2, 3, 4, 4), (2, 3, 2, 2)]
    check_fn(lambda a, b: mx.nd.UpSampling(a, b, scale=2, sample_type="nearest", num_args=2,
                                           multi_input_mode=mode),
             inputs(shapes, dtype), dtype, True, "UpSampling nearest %s" % mode)


@pytest.mark.parametrize("axis", [0, 1])
def test_sequence_last_with_lengths_and_gradient(axis):
    shape = (5, 3, 4) if axis == 0 else (3, 5, 4)
    lens = np.array([5, 1, 3], dtype=np.float32)
    x = inputs([shape], np.float64)[0]
    check_fn(lambda d, l: mx.nd.SequenceLast(d, l, use_sequence_length=True, axis=axis),
             [x, lens.astype(np.float64)], np.float64, True, "SequenceLast")


def test_sequence_reverse_with_lengths_and_gradient():
    x = inputs([(6, 3, 2)], np.float32)[0]
    lens = np.array([6, 2, 4], dtype=np.float32)
    check_fn(lambda d, l: mx.nd.SequenceReverse(d, l, use_sequence_length=True),
             [x, lens], np.float32, True, "SequenceReverse")


@pytest.mark.parametrize("op", ["SequenceLast", "SequenceReverse"])
def test_a_length_beyond_the_data_is_an_error_on_the_device(op):
    x = mx.nd.ones((4, 2, 3), ctx=DEV)
    bad = mx.nd.array([2, 9], ctx=DEV)
    with pytest.raises(ValueError, match=r"%s: sequence_length\[1\] = 9" % op):
        getattr(mx.nd, op)(x, bad, use_sequence_length=True).asnumpy()
    # The device is still usable and the next correct call works.
    good = mx.nd.array([2, 4], ctx=DEV)
    assert getattr(mx.nd, op)(x, good, use_sequence_length=True).shape[0] in (2, 4)


@pytest.mark.parametrize("normalization", ["null", "batch", "valid"])
def test_make_loss_gradient(normalization):
    x = np.array([[0.5, -1.0, 2.0], [0.0, 3.0, -0.5]], dtype=np.float32)
    for ctx in (DEV,):
        a = mx.nd.array(x, ctx=ctx)
        a.attach_grad()
        with mx.autograd.record():
            y = mx.nd.MakeLoss(a, grad_scale=3.0, normalization=normalization, valid_thresh=0.1)
        y.backward()
        denom = {"null": 1.0, "batch": 2.0, "valid": float((x > 0.1).sum())}[normalization]
        np.testing.assert_allclose(y.asnumpy(), x)
        np.testing.assert_allclose(a.grad.asnumpy(), np.full(x.shape, 3.0 / denom), rtol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,axes,keepdims", [((3, 4, 5), (1,), False),
                                                 ((2, 3, 20, 30), (0, 2, 3), True),
                                                 ((4, 600), (0, 1), False)])
def test_moments_and_gradient(shape, axes, keepdims, dtype):
    def both(x):
        mean, var = mx.nd.moments(x, axes=axes, keepdims=keepdims)
        return mean * 0.5 + var  # one head for both outputs' gradients

    check_fn(both, inputs([shape], dtype), dtype, True, "moments %s" % (axes,),
             tol=NORM_TOL[dtype])


@pytest.mark.parametrize("op,fwd,grad", [
    ("LinearRegressionOutput", lambda x: x, lambda y, l: y - l),
    ("MAERegressionOutput", lambda x: x, lambda y, l: np.sign(y - l)),
    ("LogisticRegressionOutput", lambda x: 1 / (1 + np.exp(-x)), lambda y, l: y - l)])
def test_regression_outputs_and_gradients(op, fwd, grad):
    rng = np.random.RandomState(7)
    x = rng.uniform(-2, 2, (6, 5))
    label = rng.uniform(-1, 1, (6, 5))
    d = mx.nd.array(x, ctx=DEV, dtype=np.float64)
    lab = mx.nd.array(label, ctx=DEV, dtype=np.float64)
    d.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.nd, op)(d, lab, grad_scale=2.0)
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), fwd(x), rtol=1e-12)
    np.testing.assert_allclose(d.grad.asnumpy(), grad(fwd(x), label) * 2.0 / 5, rtol=1e-12)


def test_softmax_cross_entropy_and_gradient():
    rng = np.random.RandomState(8)
    x = rng.uniform(-3, 3, (7, 300))  # rows longer than one block
    label = rng.randint(0, 300, 7).astype(np.float64)
    d = mx.nd.array(x, ctx=DEV, dtype=np.float64)
    d.attach_grad()
    with mx.autograd.record():
        loss = mx.nd.softmax_cross_entropy(d, mx.nd.array(label, ctx=DEV, dtype=np.float64))
    loss.backward(mx.nd.array([0.5], ctx=DEV, dtype=np.float64))
    p = np.exp(x - x.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    rows = np.arange(7)
    np.testing.assert_allclose(loss.asnumpy(), [-np.log(p[rows, label.astype(int)]).sum()],
                               rtol=1e-10)
    want = p.copy()
    want[rows, label.astype(int)] -= 1
    np.testing.assert_allclose(d.grad.asnumpy(), want * 0.5, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", [
    ((2, 3, 7, 6), dict(kernel=(3, 2), stride=(2, 1), pad=(1, 0), dilate=(1, 2))),
    ((1, 2, 9), dict(kernel=(4,), stride=(3,), pad=(2,))),
    ((1, 2, 4, 5, 4), dict(kernel=(2, 2, 3), stride=(1, 2, 1)))])
def test_im2col_col2im_and_gradients(shape, params, dtype):
    check_fn(lambda x: mx.nd.im2col(x, **params), inputs([shape], dtype), dtype, True,
             "im2col %s" % (params,))
    cols = mx.nd.im2col(mx.nd.zeros(shape), **params).shape
    check_fn(lambda c: mx.nd.col2im(c, output_size=shape[2:], **params),
             inputs([cols], dtype), dtype, True, "col2im %s" % (params,))
