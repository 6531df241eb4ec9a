"""Convolution, Deconvolution, Pooling (cuDNN) and BatchNorm on the GPU against the CPU in
float64: 1-D, 2-D and 3-D, stride, pad, dilation, groups, with and without bias, every float
dtype, forward and all gradients; gradient accumulation (grad_req='add'), the tuning modes, an
empty batch; max, avg (with and without the padding counted), sum and global pooling;
BatchNorm's training step (outputs, gradients, moving statistics, fix_gamma, global statistics,
float16 data); and a small network trained on both devices. Tolerances are 1.9.1's
check_consistency defaults for these layers (float32 1e-3; float16 1e-1 there, 1e-2 here)."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, check_fn, inputs

CONV_TOL = {np.float16: (1e-2, 1e-2), np.float32: (1e-3, 1e-3), np.float64: (1e-8, 1e-10)}

CONV_CASES = [
    # (data shape, params)
    ((2, 3, 9), dict(kernel=(3,), num_filter=4)),
    ((2, 3, 10), dict(kernel=(3,), num_filter=4, stride=(2,), pad=(1,), dilate=(2,))),
    ((2, 3, 7, 8), dict(kernel=(3, 3), num_filter=5)),
    ((2, 4, 9, 9), dict(kernel=(3, 2), num_filter=6, stride=(2, 1), pad=(1, 0), num_group=2)),
    ((1, 4, 8, 8), dict(kernel=(3, 3), num_filter=4, dilate=(2, 2), num_group=4, no_bias=True)),
    ((2, 2, 5, 6, 5), dict(kernel=(2, 3, 2), num_filter=3, stride=(1, 2, 1), pad=(1, 1, 0))),
]


def _weights(data_shape, params, deconv):
    c = data_shape[1]
    f, g = params["num_filter"], params.get("num_group", 1)
    k = tuple(params["kernel"])
    w = (c, f // g) + k if deconv else (f, c // g) + k
    shapes = [data_shape, w]
    if not params.get("no_bias", deconv):  # Deconvolution has no bias unless asked (1.9.1)
        shapes.append((f,))
    return shapes


def _scaled(shapes, dtype):
    # Smaller inputs than gpu_util's so that sums over a receptive field stay well in range
    # for float16.
    return [(a * 0.25).astype(dtype) for a in inputs(shapes, dtype)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", CONV_CASES)
def test_convolution_and_gradients(shape, params, dtype):
    arrays = _scaled(_weights(shape, params, deconv=False), dtype)
    check_fn(lambda *x: mx.nd.Convolution(*x, **params), arrays, dtype, True, "Convolution",
             tol=CONV_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", CONV_CASES)
def test_convolution_without_cudnn_and_gradients(shape, params, dtype):
    """cudnn_off=True: im2col + cuBLAS on the GPU (one image at a time, groups batched)."""
    arrays = _scaled(_weights(shape, params, deconv=False), dtype)
    check_fn(lambda *x: mx.nd.Convolution(*x, cudnn_off=True, **params), arrays, dtype, True,
             "Convolution cudnn_off", tol=CONV_TOL[dtype])


def test_convolution_without_cudnn_accumulates_gradients():
    x, w, b = _scaled(_weights((2, 4, 6, 5), dict(kernel=(3, 3), num_filter=4, num_group=2),
                               False),
                      np.float64)
    grads = []
    for cudnn_off in (False, True):
        arrs = [mx.nd.array(a, ctx=DEV, dtype=np.float64) for a in (x, w, b)]
        for a in arrs:
            a.attach_grad(grad_req="add")
        for _ in range(2):
            with mx.autograd.record():
                y = mx.nd.Convolution(*arrs, kernel=(3, 3), num_filter=4, num_group=2,
                                      cudnn_off=cudnn_off)
            y.backward(mx.nd.ones_like(y))
        grads.append([a.grad.asnumpy() for a in arrs])
    for g, r in zip(grads[1], grads[0]):
        np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-12)


DECONV_CASES = [
    ((2, 3, 6), dict(kernel=(3,), num_filter=4, stride=(2,), adj=(1,), no_bias=False)),
    ((2, 4, 5, 5), dict(kernel=(3, 3), num_filter=3, stride=(2, 2), pad=(1, 1), no_bias=False)),
    ((2, 4, 4, 5), dict(kernel=(4, 4), num_filter=6, stride=(2, 2), num_group=2, no_bias=True)),
    ((1, 2, 4, 4), dict(kernel=(3, 3), num_filter=2, stride=(2, 2), target_shape=(8, 8))),
    ((1, 2, 3, 4, 3), dict(kernel=(2, 2, 2), num_filter=2, stride=(2, 1, 2), no_bias=False)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", DECONV_CASES)
def test_deconvolution_and_gradients(shape, params, dtype):
    arrays = _scaled(_weights(shape, params, deconv=True), dtype)
    check_fn(lambda *x: mx.nd.Deconvolution(*x, **params), arrays, dtype, True,
             "Deconvolution", tol=CONV_TOL[dtype])


DECONV_GEMM_CASES = DECONV_CASES + [
    ((3, 2, 5), dict(kernel=(3,), num_filter=4, dilate=(2,), pad=(2,), num_group=2,
                     no_bias=False)),
    ((2, 3, 4, 5), dict(kernel=(3, 2), num_filter=2, stride=(3, 2), pad=(1, 1), adj=(2, 1),
                        dilate=(1, 2), no_bias=False)),
    ((1, 6, 3, 3), dict(kernel=(3, 3), num_filter=6, num_group=6, pad=(1, 1), no_bias=False)),
    ((2, 4, 2, 3, 3), dict(kernel=(2, 3, 2), num_filter=6, stride=(2, 1, 2), pad=(0, 1, 1),
                           num_group=2, no_bias=False)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", DECONV_GEMM_CASES)
def test_deconvolution_without_cudnn_and_gradients(shape, params, dtype):
    """cudnn_off=True: GEMM + col2im forward, im2col + GEMM gradients on the GPU."""
    arrays = _scaled(_weights(shape, params, deconv=True), dtype)
    check_fn(lambda *x: mx.nd.Deconvolution(*x, cudnn_off=True, **params), arrays, dtype, True,
             "Deconvolution cudnn_off", tol=CONV_TOL[dtype])


def test_deconvolution_without_cudnn_accumulates_gradients():
    params = dict(kernel=(3, 3), num_filter=4, num_group=2, stride=(2, 2), pad=(1, 1),
                  no_bias=False)
    x, w, b = _scaled(_weights((2, 4, 4, 5), params, True), np.float64)
    results = []
    for cudnn_off in (False, True):
        arrs = [mx.nd.array(a, ctx=DEV, dtype=np.float64) for a in (x, w, b)]
        for a in arrs:
            a.attach_grad(grad_req="add")
        for _ in range(2):
            with mx.autograd.record():
                y = mx.nd.Deconvolution(*arrs, cudnn_off=cudnn_off, **params)
            y.backward(mx.nd.ones_like(y))
        results.append([a.grad.asnumpy() for a in arrs] + [y.asnumpy()])
    for g, r in zip(results[1], results[0]):
        np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-12)


def test_deconvolution_without_cudnn_of_an_empty_batch():
    x = mx.nd.zeros((0, 3, 4, 4), ctx=DEV)
    w = mx.nd.array(_scaled([(3, 2, 3, 3)], np.float32)[0], ctx=DEV)
    b = mx.nd.ones((2,), ctx=DEV)
    for a in (x, w, b):
        a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Deconvolution(x, w, b, kernel=(3, 3), num_filter=2, no_bias=False,
                                cudnn_off=True)
    assert y.shape == (0, 2, 6, 6)
    y.backward(mx.nd.zeros_like(y))
    np.testing.assert_array_equal(w.grad.asnumpy(), np.zeros((3, 2, 3, 3), np.float32))
    np.testing.assert_array_equal(b.grad.asnumpy(), np.zeros(2, np.float32))


@pytest.mark.parametrize("tune", ["off", "limited_workspace", "fastest"])
def test_convolution_tuning_modes_agree(tune):
    params = dict(kernel=(3, 3), num_filter=8, pad=(1, 1), cudnn_tune=tune)
    arrays = _scaled([(4, 8, 12, 12), (8, 8, 3, 3), (8,)], np.float32)
    check_fn(lambda *x: mx.nd.Convolution(*x, **params), arrays, np.float32, True,
             "Convolution cudnn_tune=%s" % tune, tol=CONV_TOL[np.float32])


@pytest.mark.parametrize("op", ["Convolution", "Deconvolution"])
def test_gradients_accumulate_with_grad_req_add(op):
    params = dict(kernel=(3, 3), num_filter=4, stride=(2, 2), no_bias=False)
    shapes = _weights((2, 3, 7, 7), params, deconv=op == "Deconvolution")
    arrays = [mx.nd.array(a, ctx=DEV) for a in _scaled(shapes, np.float32)]
    for a in arrays:
        a.attach_grad(grad_req="add")
    grads = []
    for _ in range(2):
        with mx.autograd.record():
            out = getattr(mx.nd, op)(*arrays, **params)
        out.backward(mx.nd.ones_like(out))
        grads.append([a.grad.asnumpy().copy() for a in arrays])
    for once, twice in zip(grads[0], grads[1]):
        np.testing.assert_allclose(twice, 2 * once, rtol=1e-5, atol=1e-6)


def test_convolution_of_an_empty_batch():
    x = mx.nd.zeros((0, 3, 6, 6), ctx=DEV)
    w = mx.nd.array(_scaled([(4, 3, 3, 3)], np.float32)[0], ctx=DEV)
    b = mx.nd.ones((4,), ctx=DEV)
    for a in (x, w, b):
        a.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=4)
    assert y.shape == (0, 4, 4, 4)
    y.backward(mx.nd.zeros_like(y))
    np.testing.assert_array_equal(w.grad.asnumpy(), np.zeros((4, 3, 3, 3), np.float32))
    np.testing.assert_array_equal(b.grad.asnumpy(), np.zeros(4, np.float32))


def test_bound_lenet_like_network_trains_the_same_on_both_devices():
    """Two SGD steps of conv -> relu -> pool -> fc through a bound executor: the GPU's
    parameters after training equal the CPU's."""
    data = mx.sym.var("data")
    net = mx.sym.Convolution(data, kernel=(5, 5), num_filter=6, name="c1")
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.Convolution(net, kernel=(3, 3), num_filter=4, stride=(2, 2), name="c2")
    net = mx.sym.FullyConnected(mx.sym.flatten(net), num_hidden=3, name="fc")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    rng = np.random.RandomState(3)
    x = rng.uniform(-1, 1, (4, 1, 16, 16)).astype(np.float32)
    label = np.array([0, 1, 2, 1], np.float32)
    results = []
    for ctx in (mx.cpu(), DEV):
        exe = net.simple_bind(ctx, data=x.shape, softmax_label=label.shape)
        prng = np.random.RandomState(7)
        for name, arr in exe.arg_dict.items():
            if name not in ("data", "softmax_label"):
                arr[:] = prng.uniform(-0.3, 0.3, arr.shape)
        exe.arg_dict["data"][:] = x
        exe.arg_dict["softmax_label"][:] = label
        for _ in range(2):
            exe.forward(is_train=True)
            exe.backward()
            for name, grad in exe.grad_dict.items():
                if name not in ("data", "softmax_label"):
                    exe.arg_dict[name][:] -= 0.1 * grad
        results.append({k: v.asnumpy() for k, v in exe.arg_dict.items()})
    for name in results[0]:
        np.testing.assert_allclose(results[1][name], results[0][name], rtol=1e-4, atol=1e-5,
                                   err_msg=name)


POOL_CASES = [
    ((2, 3, 8, 8), dict(kernel=(2, 2), stride=(2, 2), pool_type="max")),
    ((2, 3, 7, 9), dict(kernel=(3, 3), pad=(1, 1), pool_type="max")),
    ((2, 3, 7, 7), dict(kernel=(3, 3), pad=(1, 1), pool_type="avg")),
    ((2, 3, 7, 7), dict(kernel=(3, 3), pad=(1, 1), pool_type="avg", count_include_pad=False)),
    ((2, 3, 6, 6), dict(kernel=(2, 3), stride=(2, 1), pool_type="sum")),
    ((2, 3, 5, 6), dict(kernel=(1, 1), global_pool=True, pool_type="max")),
    ((2, 3, 5, 6), dict(kernel=(1, 1), global_pool=True, pool_type="avg")),
    ((2, 3, 11), dict(kernel=(3,), stride=(2,), pool_type="max")),
    ((1, 2, 4, 6, 6), dict(kernel=(2, 2, 2), stride=(2, 2, 2), pool_type="avg")),
    ((2, 3, 8, 8), dict(kernel=(2, 2), stride=(2, 2), pool_type="max",
                        pooling_convention="full")),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", POOL_CASES)
def test_pooling_and_gradient(shape, params, dtype):
    arrays = _scaled([shape], dtype)
    check_fn(lambda x: mx.nd.Pooling(x, **params), arrays, dtype, True, "Pooling",
             tol=CONV_TOL[dtype])


def test_pooling_full_convention_with_uneven_padding_fails_clearly_on_the_gpu():
    if DEV.device_type == "cpu":
        pytest.skip("a GPU-only limit (cuDNN pads both ends alike)")
    x = mx.nd.ones((1, 1, 7, 7), ctx=DEV)
    with pytest.raises(mx.base.MXNetError, match="pooling_convention='full'"):
        mx.nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pooling_convention="full").wait_to_read()


BN_CASES = [
    ((4, 3, 5, 5), dict(fix_gamma=False)),
    ((4, 3, 5, 5), dict(fix_gamma=True)),
    ((6, 5), dict(fix_gamma=False, eps=1e-5)),
    ((2, 4, 3), dict(fix_gamma=False, axis=-1)),
    ((4, 3, 5, 5), dict(fix_gamma=False, use_global_stats=True)),
]


def _bn_run(ctx, shape, params, dtype, pdtype):
    """BatchNorm under autograd on ctx: output, input gradients, the moving statistics after
    the backward pass, and gamma as the forward pass left it."""
    axis = params.get("axis", 1)
    c = shape[axis]
    rng = np.random.RandomState(5)
    x = mx.nd.array(rng.uniform(-2, 2, shape), ctx=ctx, dtype=dtype)
    gamma = mx.nd.array(rng.uniform(0.5, 1.5, c), ctx=ctx, dtype=pdtype)
    beta = mx.nd.array(rng.uniform(-1, 1, c), ctx=ctx, dtype=pdtype)
    mmean = mx.nd.array(rng.uniform(-0.5, 0.5, c), ctx=ctx, dtype=pdtype)
    mvar = mx.nd.array(rng.uniform(0.5, 2, c), ctx=ctx, dtype=pdtype)
    for a in (x, gamma, beta):
        a.attach_grad()
    with mx.autograd.record():
        out = mx.nd.BatchNorm(x, gamma, beta, mmean, mvar, **params)
    head = mx.nd.array(np.linspace(-1, 1, out.size).reshape(out.shape), ctx=ctx, dtype=dtype)
    out.backward(head)
    return [a.asnumpy().astype(np.float64)
            for a in (out, x.grad, gamma.grad, beta.grad, mmean, mvar, gamma)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,params", BN_CASES)
def test_batchnorm_training_step(shape, params, dtype):
    ref = _bn_run(mx.cpu(), shape, params, np.float64, np.float64)
    got = _bn_run(DEV, shape, params, dtype, dtype)
    rtol, atol = CONV_TOL[dtype]
    names = ["out", "data grad", "gamma grad", "beta grad", "moving_mean", "moving_var", "gamma"]
    for name, g, r in zip(names, got, ref):
        np.testing.assert_allclose(g, r, rtol=rtol, atol=atol, err_msg="BatchNorm " + name)


def test_batchnorm_float16_data_with_float32_parameters():
    params = dict(fix_gamma=False)
    ref = _bn_run(mx.cpu(), (4, 3, 6, 6), params, np.float64, np.float64)
    got = _bn_run(DEV, (4, 3, 6, 6), params, np.float16, np.float32)
    for g, r in zip(got, ref):
        np.testing.assert_allclose(g, r, rtol=1e-2, atol=1e-2)


def test_batchnorm_inference_uses_the_moving_statistics():
    rng = np.random.RandomState(2)
    x = rng.uniform(-1, 1, (3, 4, 2, 2))
    gamma, beta = rng.uniform(0.5, 1.5, 4), rng.uniform(-1, 1, 4)
    mean, var = rng.uniform(-0.5, 0.5, 4), rng.uniform(0.5, 2, 4)
    args = [mx.nd.array(a, ctx=DEV, dtype=np.float64) for a in (x, gamma, beta, mean, var)]
    out = mx.nd.BatchNorm(*args, fix_gamma=False, eps=1e-3).asnumpy()
    bc = lambda v: v.reshape(1, 4, 1, 1)  # noqa: E731
    want = (x - bc(mean)) / np.sqrt(bc(var) + 1e-3) * bc(gamma) + bc(beta)
    np.testing.assert_allclose(out, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
def test_dropout_masks_scales_and_routes_the_gradient(dtype):
    p = 0.3
    x = mx.nd.array(np.random.RandomState(0).uniform(1, 2, (200, 300)), ctx=DEV, dtype=dtype)
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=p)
    y.backward(mx.nd.ones_like(y))
    xn, yn, gn = (a.asnumpy().astype(np.float64) for a in (x, y, x.grad))
    kept = yn != 0
    assert abs(kept.mean() - (1 - p)) < 0.01  # 60,000 draws: 0.01 is over 5 sigma
    np.testing.assert_allclose(yn[kept], xn[kept] / (1 - p), rtol=2e-3)
    np.testing.assert_allclose(gn, kept / (1 - p), rtol=2e-3)


def test_dropout_is_the_identity_outside_training_and_repeats_with_the_seed():
    x = mx.nd.array(np.arange(1, 1001, dtype=np.float32).reshape(10, 100), ctx=DEV)
    np.testing.assert_array_equal(mx.nd.Dropout(x, p=0.5).asnumpy(), x.asnumpy())
    draws = []
    for _ in range(2):
        mx.random.seed(42)
        with mx.autograd.record():
            draws.append(mx.nd.Dropout(x, p=0.5).asnumpy())
    np.testing.assert_array_equal(draws[0], draws[1])
    with mx.autograd.record():
        other = mx.nd.Dropout(x, p=0.5).asnumpy()
    assert (other != draws[1]).any()


def test_dropout_with_axes_shares_the_mask():
    x = mx.nd.ones((6, 50, 4), ctx=DEV)
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=0.5, axes=(1,)).asnumpy()
    # One draw per (row, channel), shared along axis 1.
    assert (y == y[:, :1, :]).all()
    assert set(np.unique(y)) <= {0.0, 2.0}


SOFTMAX_OUTPUT_CASES = [
    ((6, 5), "index", dict()),
    ((6, 5), "index", dict(grad_scale=2.0, normalization="batch")),
    ((6, 5), "index", dict(use_ignore=True, ignore_label=2, normalization="valid")),
    ((6, 5), "index", dict(smooth_alpha=0.1)),
    ((6, 5), "soft", dict()),
    ((3, 4, 2, 2), "multi", dict(multi_output=True, normalization="valid")),
    ((3, 2, 5), "preserve", dict(preserve_shape=True, out_grad=True)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,kind,params", SOFTMAX_OUTPUT_CASES)
def test_softmax_output_and_gradient(shape, kind, params, dtype):
    rng = np.random.RandomState(4)
    x = rng.uniform(-2, 2, shape)
    if kind == "soft":
        label = rng.dirichlet(np.ones(shape[1]), shape[0])
    elif kind == "multi":
        label = rng.randint(0, shape[1], (shape[0],) + shape[2:]).astype(np.float64)
    elif kind == "preserve":
        label = rng.randint(0, shape[-1], shape[:-1]).astype(np.float64)
    else:
        label = rng.randint(0, shape[1], shape[0]).astype(np.float64)
    head = np.linspace(0.5, 1.5, x.size).reshape(shape)

    def run(ctx, dt):
        xa = mx.nd.array(x, ctx=ctx, dtype=dt)
        xa.attach_grad()
        with mx.autograd.record():
            out = mx.nd.SoftmaxOutput(xa, mx.nd.array(label, ctx=ctx, dtype=dt), **params)
        out.backward(mx.nd.array(head, ctx=ctx, dtype=dt))
        return out.asnumpy().astype(np.float64), xa.grad.asnumpy().astype(np.float64)

    rtol, atol = CONV_TOL[dtype]
    for got, want in zip(run(DEV, dtype), run(mx.cpu(), np.float64)):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


LEAKY_CASES = [
    ((4, 5, 3), dict(act_type="leaky", slope=0.1)),
    ((4, 5, 3), dict(act_type="elu", slope=0.7)),
    ((4, 5, 3), dict(act_type="selu")),
    ((4, 5, 3), dict(act_type="gelu")),
    ((0, 5), dict(act_type="gelu")),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", LEAKY_CASES)
def test_leaky_relu_forms_and_gradient(shape, params, dtype):
    check_fn(lambda x: mx.nd.LeakyReLU(x, **params), inputs([shape], dtype), dtype, True,
             "LeakyReLU %s" % params["act_type"])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,gamma", [((4, 6, 3, 2), (6,)), ((4, 6, 5), (1,)),
                                         ((3, 5), (3, 5)), ((2, 3000), (3000,))])
def test_prelu_and_both_gradients(shape, gamma, dtype):
    # gamma's gradient sums over every axis it is broadcast along (in shared memory for small
    # gammas, in global memory for the (3000,) one).
    arrays = inputs([shape, gamma], dtype)
    check_fn(lambda x, g: mx.nd.LeakyReLU(x, g, act_type="prelu"), arrays, dtype, True,
             "LeakyReLU prelu gamma %s" % (gamma,))


def test_rrelu_draws_slopes_in_its_bounds_when_training_and_uses_their_mean_otherwise():
    lo, hi = 0.1, 0.4
    x = mx.nd.array(np.random.RandomState(1).uniform(-2, 2, (100, 80)), ctx=DEV)
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.LeakyReLU(x, act_type="rrelu", lower_bound=lo, upper_bound=hi)
        y = y[0] if isinstance(y, list) else y  # (rrelu also returns its mask)
    y.backward(mx.nd.ones_like(y))
    xn, yn, gn = (a.asnumpy().astype(np.float64) for a in (x, y, x.grad))
    neg = xn <= 0
    slopes = yn[neg] / xn[neg]
    assert slopes.min() >= lo - 1e-6 and slopes.max() <= hi + 1e-6
    assert slopes.std() > 0.05  # drawn per element, not one slope
    np.testing.assert_allclose(yn[~neg], xn[~neg], rtol=1e-6)
    np.testing.assert_allclose(gn[neg], slopes, rtol=1e-5)
    np.testing.assert_allclose(gn[~neg], 1.0)
    # outside training: the mean slope, as on the CPU
    xi = inputs([(5, 7)], np.float64)[0]
    got = mx.nd.LeakyReLU(mx.nd.array(xi, ctx=DEV, dtype=np.float64), act_type="rrelu",
                          lower_bound=lo, upper_bound=hi)[0].asnumpy()
    np.testing.assert_allclose(got, np.where(xi > 0, xi, (lo + hi) / 2 * xi), rtol=1e-12)


LAYER_NORM_CASES = [
    ((4, 6), dict()),
    ((3, 5, 7), dict(axis=1, eps=1e-3)),
    ((6, 3, 4), dict(axis=0)),  # (two elements per row would make the data gradient 0)
    ((2, 700), dict()),  # a row longer than the block (256 threads)
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,params", LAYER_NORM_CASES)
def test_layer_norm_and_gradients(shape, params, dtype):
    axis = params.get("axis", -1)
    c = shape[axis]
    arrays = inputs([shape, (c,), (c,)], dtype)
    check_fn(lambda x, g, b: mx.nd.LayerNorm(x, g, b, **params), arrays, dtype, True,
             "LayerNorm %s %s" % (shape, params))


def test_layer_norm_mean_and_std_outputs_match_the_cpu():
    x, g, b = inputs([(3, 4, 5), (4,), (4,)], np.float64)
    outs = []
    for ctx in (mx.cpu(), DEV):
        res = mx.nd.LayerNorm(*[mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in (x, g, b)],
                              axis=1, output_mean_var=True)
        outs.append([r.asnumpy() for r in res])
    for got, want in zip(outs[1], outs[0]):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    mean = x.mean(axis=1, keepdims=True)
    np.testing.assert_allclose(outs[1][1], mean, rtol=1e-10)
    np.testing.assert_allclose(outs[1][2], np.sqrt(x.var(axis=1, keepdims=True) + 1e-5),
                               rtol=1e-10)
