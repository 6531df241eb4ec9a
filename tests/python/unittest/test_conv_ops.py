"""Convolution, Deconvolution, Pooling and BatchNorm beyond the op table: backward operators
against finite differences of the forward operators, oneDNN against the native kernels
(MXNET_ONEDNN_ENABLED=0), BatchNorm training semantics (batch statistics, moving statistics
updated in place by the backward pass), error messages, and results of MXNet 1.9.1
(tests/python/data/mx191/convnn_refs.npz, made by gen_convnn.py there)."""
import ctypes
import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import _LIB, check_call

from optable.conv import bn_ref, conv_ref, deconv_ref, pool_ref

nd = mx.nd
_int = nd._internal
DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191", "convnn_refs.npz")


def _arr(x, dtype=None):
    return nd.array(x, dtype=dtype or x.dtype)


class _Training:
    """Run ops with is_train=True (what autograd.train_mode sets)."""

    def __enter__(self):
        self.prev = ctypes.c_int()
        check_call(_LIB.MXAutogradSetIsTraining(ctypes.c_int(1), ctypes.byref(self.prev)))

    def __exit__(self, *exc):
        check_call(_LIB.MXAutogradSetIsTraining(self.prev, ctypes.byref(ctypes.c_int())))


class _OneDNN:
    """Switch the oneDNN path on or off for the duration of a block."""

    def __init__(self, enabled):
        self.enabled = enabled

    def __enter__(self):
        nd.waitall()
        self.prev = os.environ.get("MXNET_ONEDNN_ENABLED")
        os.environ["MXNET_ONEDNN_ENABLED"] = "1" if self.enabled else "0"

    def __exit__(self, *exc):
        nd.waitall()
        if self.prev is None:
            del os.environ["MXNET_ONEDNN_ENABLED"]
        else:
            os.environ["MXNET_ONEDNN_ENABLED"] = self.prev


def _numeric_grads(f, inputs, og, eps=1e-5):
    """d sum(og * f(*inputs)) / d inputs[i] by central differences (float64 NumPy arrays)."""
    grads = []
    for k, x in enumerate(inputs):
        x = x.astype("float64").copy()
        args = [a.astype("float64") for a in inputs]
        g = np.zeros_like(x)
        for idx in np.ndindex(*x.shape):
            old = x[idx]
            x[idx] = old + eps
            args[k] = x
            hi = float((og * f(*args)).sum())
            x[idx] = old - eps
            args[k] = x
            lo = float((og * f(*args)).sum())
            x[idx] = old
            g[idx] = (hi - lo) / (2 * eps)
        grads.append(g)
    return grads


# --------------------------------------------------------------------- gradient checks

CONV_GRAD_CASES = [
    ([(2, 3, 5, 5), (4, 3, 3, 3), (4,)], dict(kernel=(3, 3), num_filter=4, pad=(1, 1))),
    ([(1, 4, 6, 5), (4, 2, 2, 3), (4,)], dict(kernel=(2, 3), num_filter=4, num_group=2,
                                              stride=(2, 1), dilate=(1, 2))),
    ([(2, 2, 7), (3, 2, 3)], dict(kernel=(3,), num_filter=3, stride=(2,), pad=(1,),
                                  no_bias=True)),
    ([(1, 2, 3, 4, 4), (2, 2, 2, 2, 2), (2,)], dict(kernel=(2, 2, 2), num_filter=2,
                                                   pad=(1, 0, 1), stride=(1, 2, 1))),
]


@pytest.mark.parametrize("shapes,kw", CONV_GRAD_CASES)
def test_backward_convolution_matches_finite_differences(shapes, kw):
    rng = np.random.RandomState(0)
    ins = [rng.uniform(-1, 1, size=s) for s in shapes]
    y = nd.Convolution(*[_arr(a) for a in ins], **kw).asnumpy()
    og = rng.uniform(-1, 1, size=y.shape)
    got = _int._backward_Convolution(_arr(og), _arr(ins[0]), _arr(ins[1]), **kw)
    expected = _numeric_grads(
        lambda *a: nd.Convolution(*[_arr(v) for v in a], **kw).asnumpy(), ins, og)
    assert len(got) == len(ins)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-6, atol=1e-7)


DECONV_GRAD_CASES = [
    ([(2, 3, 3, 4), (3, 2, 3, 3), (2,)], dict(kernel=(3, 3), num_filter=2, stride=(2, 2),
                                              pad=(1, 1), adj=(1, 0), no_bias=False)),
    ([(1, 4, 4, 3), (4, 1, 2, 2)], dict(kernel=(2, 2), num_filter=2, num_group=2,
                                        dilate=(2, 1))),
    ([(2, 2, 5), (2, 3, 3), (3,)], dict(kernel=(3,), num_filter=3, stride=(2,),
                                        no_bias=False)),
]


@pytest.mark.parametrize("shapes,kw", DECONV_GRAD_CASES)
def test_backward_deconvolution_matches_finite_differences(shapes, kw):
    rng = np.random.RandomState(1)
    ins = [rng.uniform(-1, 1, size=s) for s in shapes]
    y = nd.Deconvolution(*[_arr(a) for a in ins], **kw).asnumpy()
    np.testing.assert_allclose(y, deconv_ref(*ins, **kw), rtol=1e-10, atol=1e-10)
    og = rng.uniform(-1, 1, size=y.shape)
    got = _int._backward_Deconvolution(_arr(og), _arr(ins[0]), _arr(ins[1]), **kw)
    expected = _numeric_grads(
        lambda *a: nd.Deconvolution(*[_arr(v) for v in a], **kw).asnumpy(), ins, og)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-6, atol=1e-7)


POOL_GRAD_CASES = [
    ((2, 2, 6, 6), dict(kernel=(2, 2), stride=(2, 2))),
    ((1, 2, 7, 5), dict(kernel=(2, 2), stride=(2, 2))),  # leftover row and column
    ((1, 2, 5, 5), dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg")),
    ((1, 2, 5, 5), dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
                        count_include_pad=False, pooling_convention="full")),
    ((1, 2, 4, 5), dict(kernel=(2, 2), pool_type="sum")),
    ((1, 2, 4, 5), dict(kernel=(2, 2), pool_type="lp", p_value=2)),
    ((1, 2, 4, 5), dict(kernel=(2, 3), pool_type="lp", p_value=3)),
    ((2, 3, 7), dict(kernel=(3,), stride=(2,), pad=(1,))),
    ((1, 2, 3, 4, 4), dict(kernel=(2, 2, 2), stride=(1, 2, 2), pool_type="avg")),
    ((2, 3, 4, 5), dict(kernel=(1, 1), global_pool=True, pool_type="max")),
]


@pytest.mark.parametrize("shape,kw", POOL_GRAD_CASES)
def test_backward_pooling_matches_finite_differences(shape, kw):
    rng = np.random.RandomState(2)
    # distinct values so max pooling has a unique argmax (finite differences are then exact)
    x = rng.permutation(np.prod(shape)).reshape(shape) / float(np.prod(shape)) + 0.1
    y = nd.Pooling(_arr(x), **kw)
    np.testing.assert_allclose(y.asnumpy(), pool_ref(x, **kw), rtol=1e-10, atol=1e-12)
    og = rng.uniform(-1, 1, size=y.shape)
    got = _int._backward_Pooling(_arr(og), _arr(x), y, **kw)
    (expected,) = _numeric_grads(lambda a: nd.Pooling(_arr(a), **kw).asnumpy(), [x], og,
                                 eps=1e-7)
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("shape,kw", [
    ((4, 3, 2, 3), dict(fix_gamma=False)),
    ((5, 2), dict(fix_gamma=False, eps=1e-5)),
    ((2, 3, 4), dict(fix_gamma=False, axis=-1)),
    ((4, 3, 2, 3), dict(fix_gamma=True)),
])
def test_backward_batchnorm_training_matches_finite_differences(shape, kw):
    rng = np.random.RandomState(3)
    axis = kw.get("axis", 1)
    c = shape[axis]
    x = rng.uniform(-2, 2, size=shape)
    gamma, beta = rng.uniform(0.5, 1.5, size=c), rng.uniform(-1, 1, size=c)
    mm, mv = np.zeros(c), np.ones(c)

    def fwd(x_, g_, b_):
        with _Training():
            return nd.BatchNorm(_arr(x_), _arr(g_), _arr(b_), _arr(mm), _arr(mv),
                                **kw).asnumpy()

    og = rng.uniform(-1, 1, size=shape)
    with _Training():
        y, mean, invstd = nd.BatchNorm(_arr(x), _arr(gamma), _arr(beta), _arr(mm), _arr(mv),
                                       output_mean_var=True, **kw)
        np.testing.assert_allclose(y.asnumpy(), bn_ref(x, gamma, beta, mm, mv, training=True,
                                                       **kw), rtol=1e-10, atol=1e-10)
        got = _int._backward_BatchNorm(_arr(og), mean, invstd, _arr(x), _arr(gamma),
                                       _arr(beta), _arr(mm), _arr(mv), **kw)
    expected = _numeric_grads(fwd, [x, gamma, beta], og, eps=1e-6)
    if kw.get("fix_gamma"):
        expected[1][:] = 0  # MXNet gives gamma no gradient when it is fixed
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-5, atol=1e-6)


def test_backward_batchnorm_inference_is_an_affine_map():
    rng = np.random.RandomState(4)
    x = rng.uniform(-2, 2, size=(3, 2, 4))
    gamma, beta = rng.uniform(0.5, 1.5, 2), rng.uniform(-1, 1, 2)
    mm, mv = rng.uniform(-1, 1, 2), rng.uniform(0.5, 2, 2)
    kw = dict(fix_gamma=False)
    y, mean, invstd = nd.BatchNorm(_arr(x), _arr(gamma), _arr(beta), _arr(mm), _arr(mv),
                                   output_mean_var=True, **kw)
    np.testing.assert_allclose(mean.asnumpy(), mm)
    np.testing.assert_allclose(invstd.asnumpy(), 1 / np.sqrt(mv + 1e-3))
    og = rng.uniform(-1, 1, size=x.shape)
    mm_nd, mv_nd = _arr(mm), _arr(mv)
    dx, dg, db = _int._backward_BatchNorm(_arr(og), mean, invstd, _arr(x), _arr(gamma),
                                          _arr(beta), mm_nd, mv_nd, **kw)
    scale = (gamma / np.sqrt(mv + 1e-3)).reshape(1, 2, 1)
    np.testing.assert_allclose(dx.asnumpy(), og * scale, rtol=1e-10)
    xhat = (x - mm.reshape(1, 2, 1)) / np.sqrt(mv + 1e-3).reshape(1, 2, 1)
    np.testing.assert_allclose(dg.asnumpy(), (og * xhat).sum(axis=(0, 2)), rtol=1e-10)
    np.testing.assert_allclose(db.asnumpy(), og.sum(axis=(0, 2)), rtol=1e-10)
    # not training: the moving statistics stay as they are
    np.testing.assert_array_equal(mm_nd.asnumpy(), mm)
    np.testing.assert_array_equal(mv_nd.asnumpy(), mv)


# ------------------------------------------------------------------- BatchNorm semantics


def test_batchnorm_training_uses_batch_stats_and_backward_updates_moving_stats():
    rng = np.random.RandomState(5)
    x = rng.uniform(-2, 3, size=(4, 3, 5, 5)).astype("float32")
    gamma = rng.uniform(0.5, 1.5, 3).astype("float32")
    beta = rng.uniform(-1, 1, 3).astype("float32")
    mm0 = rng.uniform(-0.5, 0.5, 3).astype("float32")
    mv0 = rng.uniform(0.5, 2, 3).astype("float32")
    mm, mv = _arr(mm0), _arr(mv0)
    kw = dict(fix_gamma=False, momentum=0.8)
    with _Training():
        y, mean, invstd = nd.BatchNorm(_arr(x), _arr(gamma), _arr(beta), mm, mv,
                                       output_mean_var=True, **kw)
        out_ref, mean_ref, invstd_ref = bn_ref(x, gamma, beta, mm0, mv0, training=True,
                                               output_mean_var=True, **kw)
        np.testing.assert_allclose(y.asnumpy(), out_ref, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(mean.asnumpy(), mean_ref, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(invstd.asnumpy(), invstd_ref, rtol=1e-5)
        # forward leaves the moving statistics alone (as MXNet 1.9.1 does) ...
        np.testing.assert_array_equal(mm.asnumpy(), mm0)
        _int._backward_BatchNorm(nd.ones(x.shape), mean, invstd, _arr(x), _arr(gamma),
                                 _arr(beta), mm, mv, **kw)
    # ... and the backward pass of the training step updates them in place
    batch_var = x.astype("float64").var(axis=(0, 2, 3))
    np.testing.assert_allclose(mm.asnumpy(), mm0 * 0.8 + mean_ref * 0.2, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mv.asnumpy(), mv0 * 0.8 + batch_var * 0.2, rtol=1e-5, atol=1e-6)


def test_batchnorm_use_global_stats_ignores_batch_and_keeps_moving_stats():
    rng = np.random.RandomState(6)
    x = rng.uniform(-2, 3, size=(4, 3, 2, 2))
    gamma, beta = rng.uniform(0.5, 1.5, 3), rng.uniform(-1, 1, 3)
    mm0, mv0 = rng.uniform(-0.5, 0.5, 3), rng.uniform(0.5, 2, 3)
    mm, mv = _arr(mm0), _arr(mv0)
    kw = dict(fix_gamma=False, use_global_stats=True)
    with _Training():
        y, mean, invstd = nd.BatchNorm(_arr(x), _arr(gamma), _arr(beta), mm, mv,
                                       output_mean_var=True, **kw)
        _int._backward_BatchNorm(nd.ones(x.shape, dtype="float64"), mean, invstd, _arr(x),
                                 _arr(gamma), _arr(beta), mm, mv, **kw)
    np.testing.assert_allclose(y.asnumpy(), bn_ref(x, gamma, beta, mm0, mv0, **kw), rtol=1e-9)
    np.testing.assert_array_equal(mm.asnumpy(), mm0)
    np.testing.assert_array_equal(mv.asnumpy(), mv0)


def test_batchnorm_fix_gamma_ignores_gamma_and_visible_outputs():
    rng = np.random.RandomState(7)
    x = rng.uniform(-2, 3, size=(4, 3))
    gamma = np.array([5.0, -3.0, 7.0])
    args = [_arr(x), _arr(gamma), _arr(np.zeros(3)), _arr(np.zeros(3)), _arr(np.ones(3))]
    out = nd.BatchNorm(*args)  # fix_gamma=True by default: gamma treated as 1
    assert isinstance(out, nd.NDArray)
    np.testing.assert_allclose(out.asnumpy(), x / np.sqrt(1 + 1e-3), rtol=1e-9)  # eps is float(1e-3)
    outs = nd.BatchNorm(*args, output_mean_var=True)
    assert len(outs) == 3


def test_batchnorm_float16_data_uses_float32_parameters():
    rng = np.random.RandomState(8)
    x = rng.uniform(-2, 2, size=(4, 3, 2)).astype("float16")
    p = [np.ones(3, "float32"), np.zeros(3, "float32"), np.zeros(3, "float32"),
         np.ones(3, "float32")]
    y, mean, invstd = nd.BatchNorm(_arr(x), *[_arr(a) for a in p], output_mean_var=True)
    assert y.dtype == np.float16 and mean.dtype == np.float32 and invstd.dtype == np.float32
    np.testing.assert_allclose(y.asnumpy().astype("float64"),
                               x.astype("float64") / np.sqrt(1 + 1e-3), rtol=2e-3, atol=2e-3)
    with pytest.raises(TypeError):
        nd.BatchNorm(_arr(x), *[_arr(a.astype("float64")) for a in p])


# ---------------------------------------------------------------- oneDNN vs the native path

DNNL_CONV_CASES = [
    ([(8, 1, 28, 28), (20, 1, 5, 5), (20,)], dict(kernel=(5, 5), num_filter=20)),
    ([(8, 20, 12, 12), (50, 20, 5, 5), (50,)], dict(kernel=(5, 5), num_filter=50)),
    ([(2, 8, 9, 9), (12, 4, 3, 3), (12,)], dict(kernel=(3, 3), num_filter=12, num_group=2,
                                                stride=(2, 2), pad=(1, 1))),
    ([(2, 6, 10, 11), (6, 6, 3, 3)], dict(kernel=(3, 3), num_filter=6, dilate=(2, 2),
                                          no_bias=True)),
    ([(3, 4, 17), (5, 4, 5), (5,)], dict(kernel=(5,), num_filter=5, stride=(3,), pad=(2,))),
    ([(2, 3, 5, 6, 7), (4, 3, 3, 3, 3), (4,)], dict(kernel=(3, 3, 3), num_filter=4,
                                                   pad=(1, 1, 1))),
    ([(2, 4, 6, 7), (4, 4, 1, 1), (4,)], dict(kernel=(1, 1), num_filter=4, stride=(2, 2))),
    # 64+ channels per group: oneDNN also computes the weight gradient
    ([(2, 64, 6, 5), (8, 64, 3, 3), (8,)], dict(kernel=(3, 3), num_filter=8, pad=(1, 1))),
    ([(2, 128, 5, 5), (6, 64, 3, 3)], dict(kernel=(3, 3), num_filter=6, num_group=2,
                                            no_bias=True)),
]


def _conv_both(op, shapes, kw, seed):
    rng = np.random.RandomState(seed)
    ins = [rng.uniform(-1, 1, size=s).astype("float32") for s in shapes]
    fwd = getattr(nd, op)
    bwd = getattr(_int, "_backward_" + op)
    results = []
    for enabled in (True, False):
        with _OneDNN(enabled):
            y = fwd(*[_arr(a) for a in ins], **kw)
            og = np.cos(np.arange(y.size)).reshape(y.shape).astype("float32")
            grads = bwd(_arr(og), _arr(ins[0]), _arr(ins[1]), **kw)
            results.append([y.asnumpy()] + [g.asnumpy() for g in grads])
    return ins, results


@pytest.mark.parametrize("shapes,kw", DNNL_CONV_CASES)
def test_convolution_onednn_matches_native(shapes, kw):
    ins, (dnnl, native) = _conv_both("Convolution", shapes, kw, 10)
    np.testing.assert_allclose(native[0], conv_ref(*ins, **kw), rtol=1e-4, atol=1e-4)
    for a, b in zip(dnnl, native):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shapes,kw", DECONV_GRAD_CASES)
def test_deconvolution_onednn_matches_native(shapes, kw):
    ins, (dnnl, native) = _conv_both("Deconvolution", shapes, kw, 11)
    np.testing.assert_allclose(native[0], deconv_ref(*ins, **kw), rtol=1e-4, atol=1e-4)
    for a, b in zip(dnnl, native):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


DNNL_POOL_CASES = [
    ((8, 20, 24, 24), dict(kernel=(2, 2), stride=(2, 2))),
    ((2, 3, 7, 7), dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg")),
    ((2, 3, 7, 7), dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
                        count_include_pad=False)),
    ((2, 3, 8, 8), dict(kernel=(3, 3), stride=(2, 2), pool_type="max",
                        pooling_convention="full")),
    ((2, 3, 9), dict(kernel=(3,), stride=(2,), pad=(1,))),
    ((1, 2, 4, 6, 6), dict(kernel=(2, 2, 2), stride=(2, 2, 2), pool_type="avg")),
    ((2, 3, 5, 6), dict(kernel=(1, 1), global_pool=True, pool_type="avg")),
]


@pytest.mark.parametrize("shape,kw", DNNL_POOL_CASES)
def test_pooling_onednn_matches_native(shape, kw):
    rng = np.random.RandomState(12)
    x = (rng.permutation(np.prod(shape)).reshape(shape) / 100.0).astype("float32")
    results = []
    for enabled in (True, False):
        with _OneDNN(enabled):
            y = nd.Pooling(_arr(x), **kw)
            og = np.sin(np.arange(y.size)).reshape(y.shape).astype("float32")
            dx = _int._backward_Pooling(_arr(og), _arr(x), y, **kw)
            results.append((y.asnumpy(), dx.asnumpy()))
    np.testing.assert_allclose(results[1][0], pool_ref(x, **kw), rtol=1e-5, atol=1e-5)
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_onednn_primitive_cache_gives_same_results_on_repeat():
    rng = np.random.RandomState(13)
    x = _arr(rng.uniform(-1, 1, (4, 3, 9, 9)).astype("float32"))
    w = _arr(rng.uniform(-1, 1, (5, 3, 3, 3)).astype("float32"))
    b = _arr(rng.uniform(-1, 1, 5).astype("float32"))
    first = nd.Convolution(x, w, b, kernel=(3, 3), num_filter=5).asnumpy()
    w2 = _arr(rng.uniform(-1, 1, (5, 3, 3, 3)).astype("float32"))
    second = nd.Convolution(x, w2, b, kernel=(3, 3), num_filter=5).asnumpy()
    third = nd.Convolution(x, w, b, kernel=(3, 3), num_filter=5).asnumpy()
    np.testing.assert_array_equal(first, third)
    np.testing.assert_allclose(second, conv_ref(x.asnumpy(), w2.asnumpy(), b.asnumpy(),
                                                kernel=(3, 3), num_filter=5), rtol=1e-4,
                               atol=1e-4)


def test_max_pool_2x2_backward_with_odd_sizes_float64_and_float16():
    rng = np.random.RandomState(15)
    for dtype in ("float64", "float16"):
        x = rng.permutation(2 * 3 * 7 * 9).reshape(2, 3, 7, 9).astype(dtype)
        kw = dict(kernel=(2, 2), stride=(2, 2))
        y = nd.Pooling(_arr(x), **kw)
        np.testing.assert_allclose(y.asnumpy().astype("float64"), pool_ref(x, **kw))
        og = np.ones(y.shape, dtype=dtype)
        dx = _int._backward_Pooling(_arr(og), _arr(x), y, **kw).asnumpy()
        # each window's maximum gets 1, everything else (incl. leftover row/col) 0
        assert dx.sum() == y.size and dx[:, :, 6, :].sum() == 0 and dx[:, :, :, 8].sum() == 0
        xw = x[:, :, :6, :8].reshape(2, 3, 3, 2, 4, 2).astype("float64")
        expected = (xw == xw.max(axis=(3, 5), keepdims=True)).astype("float64")
        np.testing.assert_array_equal(dx[:, :, :6, :8].reshape(expected.shape), expected)


def test_gradients_accumulate_with_add_req():
    rng = np.random.RandomState(14)
    x = rng.uniform(-1, 1, (2, 3, 6, 6)).astype("float32")
    w = rng.uniform(-1, 1, (4, 3, 3, 3)).astype("float32")
    og = rng.uniform(-1, 1, (2, 4, 4, 4)).astype("float32")
    kw = dict(kernel=(3, 3), num_filter=4, no_bias=True)
    dx, dw = _int._backward_Convolution(_arr(og), _arr(x), _arr(w), **kw)
    # 'out=' onto existing arrays writes (req kWriteTo) regardless of their contents
    ox, ow = nd.ones(x.shape), nd.ones(w.shape)
    _int._backward_Convolution(_arr(og), _arr(x), _arr(w), out=[ox, ow], **kw)
    np.testing.assert_allclose(ox.asnumpy(), dx.asnumpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(ow.asnumpy(), dw.asnumpy(), rtol=1e-6, atol=1e-6)


# --------------------------------------------------------------------------------- errors


def test_convolution_errors_name_op_argument_and_shapes():
    x = nd.ones((2, 3, 8, 8))
    with pytest.raises(ValueError) as e:
        nd.Convolution(x, nd.ones((4, 2, 3, 3)), nd.ones((4,)), kernel=(3, 3), num_filter=4)
    msg = str(e.value)
    assert "Convolution" in msg and "weight" in msg and "[4,3,3,3]" in msg and "[4,2,3,3]" in msg
    with pytest.raises(ValueError) as e:
        nd.Convolution(nd.ones((2, 3, 8)), nd.ones((4, 3, 3, 3)), nd.ones((4,)), kernel=(3, 3),
                       num_filter=4)
    assert "data" in str(e.value) and "[2,3,8]" in str(e.value)
    with pytest.raises(ValueError) as e:
        nd.Convolution(nd.ones((1, 1, 2, 2)), nd.ones((1, 1, 5, 5)), nd.ones((1,)),
                       kernel=(5, 5), num_filter=1)
    assert "larger than the padded input" in str(e.value)
    with pytest.raises(ValueError) as e:
        nd.Convolution(x, nd.ones((4, 1, 3, 3)), nd.ones((4,)), kernel=(3, 3), num_filter=4,
                       num_group=2)
    assert "num_group" in str(e.value)
    with pytest.raises(mx.base.MXNetError) as e:
        nd.Convolution(x, nd.ones((4, 3, 3, 3)), nd.ones((4,)), kernel=(3, 3), num_filter=4,
                       stride=(1, 1, 1))
    assert "stride" in str(e.value)
    with pytest.raises(mx.base.MXNetError):
        nd.Convolution(x, nd.ones((4, 3, 3, 3)), nd.ones((4,)), kernel=(3, 3), num_filter=4,
                       layout="NHWC")
    with pytest.raises(TypeError):
        nd.Convolution(nd.ones((2, 3, 8, 8), dtype="int32"), nd.ones((4, 3, 3, 3), dtype="int32"),
                       nd.ones((4,), dtype="int32"), kernel=(3, 3), num_filter=4)


def test_pooling_and_deconvolution_errors():
    with pytest.raises(ValueError) as e:
        nd.Pooling(nd.ones((2, 3, 8, 8)), kernel=(2,))
    assert "Pooling" in str(e.value) and "kernel" in str(e.value)
    with pytest.raises(mx.base.MXNetError):
        nd.Pooling(nd.ones((2, 3, 8, 8)))  # no kernel and no global_pool
    with pytest.raises(NotImplementedError):
        nd.Pooling(nd.ones((2, 3, 8, 8)), kernel=(2, 2), pooling_convention="same")
    with pytest.raises(ValueError):
        nd.Pooling(nd.ones((2, 3, 8, 8)), kernel=(2, 2), pool_type="lp")
    with pytest.raises(ValueError) as e:
        nd.Deconvolution(nd.ones((2, 3, 4, 4)), nd.ones((2, 2, 3, 3)), kernel=(3, 3),
                         num_filter=2)
    assert "Deconvolution" in str(e.value) and "[3,2,3,3]" in str(e.value)
    with pytest.raises(ValueError):
        nd.Deconvolution(nd.ones((2, 3, 4, 4)), nd.ones((3, 2, 3, 3)), kernel=(3, 3),
                         num_filter=2, stride=(2, 2), adj=(2, 0))
    with pytest.raises(ValueError) as e:
        nd.BatchNorm(nd.ones((2, 3)), nd.ones((4,)), nd.ones((3,)), nd.ones((3,)), nd.ones((3,)))
    assert "gamma" in str(e.value) and "[4]" in str(e.value)


# --------------------------------------------------------------- MXNet 1.9.1 references


def _ref_cases(prefix_filter):
    if not os.path.exists(DATA):
        return []
    with np.load(DATA) as d:
        names = sorted({k.split("/")[0] for k in d.files})
    return [n for n in names if prefix_filter(n)]


@pytest.mark.parametrize("case", _ref_cases(lambda n: not n.startswith("bn_")))
@pytest.mark.parametrize("onednn", [True, False])
def test_matches_mxnet_191_forward_and_gradients(case, onednn):
    d = np.load(DATA)
    meta = json.loads(str(d[case + "/meta"]))
    kw = {k: tuple(v) if isinstance(v, list) else v for k, v in meta["kwargs"].items()}
    ins = []
    i = 0
    while "%s/in%d" % (case, i) in d.files:
        ins.append(d["%s/in%d" % (case, i)])
        i += 1
    with _OneDNN(onednn):
        y = getattr(nd, meta["op"])(*[_arr(a) for a in ins], **kw)
        np.testing.assert_allclose(y.asnumpy(), d[case + "/out"], rtol=1e-4, atol=1e-5)
        og = _arr(d[case + "/og"])
        if meta["op"] == "Pooling":
            grads = [_int._backward_Pooling(og, _arr(ins[0]), y, **kw)]
        else:
            grads = getattr(_int, "_backward_" + meta["op"])(og, _arr(ins[0]), _arr(ins[1]), **kw)
        for k, g in enumerate(grads):
            np.testing.assert_allclose(g.asnumpy(), d["%s/grad%d" % (case, k)], rtol=1e-4,
                                       atol=1e-4, err_msg="%s grad %d" % (case, k))


@pytest.mark.parametrize("case", _ref_cases(lambda n: n.startswith("bn_")))
def test_batchnorm_matches_mxnet_191_training_step(case):
    d = np.load(DATA)
    kw = json.loads(str(d[case + "/meta"]))["kwargs"]
    x, gamma, beta = (_arr(d[case + "/" + k]) for k in ("x", "gamma", "beta"))
    mm, mv = _arr(d[case + "/mm"]), _arr(d[case + "/mv"])
    with _Training():
        y, mean, invstd = nd.BatchNorm(x, gamma, beta, mm, mv, output_mean_var=True, **kw)
        dx, dg, db = _int._backward_BatchNorm(_arr(d[case + "/og"]), mean, invstd, x, gamma,
                                              beta, mm, mv, **kw)
    for got, key in [(y, "out"), (mean, "mean"), (invstd, "invstd"), (dx, "dx"), (dg, "dgamma"),
                     (db, "dbeta"), (mm, "mm_after"), (mv, "mv_after")]:
        np.testing.assert_allclose(got.asnumpy(), d[case + "/" + key], rtol=1e-4, atol=1e-4,
                                   err_msg="%s %s" % (case, key))
    infer = nd.BatchNorm(x, gamma, beta, mm, mv, **kw)
    np.testing.assert_allclose(infer.asnumpy(), d[case + "/infer_out"], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("op", ["Convolution", "Deconvolution"])
@pytest.mark.parametrize("no_bias", [False, True])
def test_float16_backward_matches_float32_for_write_and_add(op, no_bias):
    # float16 gradients are computed in float and converted back under the request: write
    # gives the float32 gradient, add accumulates it over two backward passes.
    rng = np.random.RandomState(7)
    x = rng.uniform(-1, 1, (2, 3, 6, 6)).astype(np.float32)
    w = rng.uniform(-1, 1, (4, 3, 3, 3) if op == "Convolution" else (3, 4, 3, 3))
    b = rng.uniform(-1, 1, (4,))
    inputs = [x, w.astype(np.float32)] + ([] if no_bias else [b.astype(np.float32)])
    out_shape = (2, 4, 4, 4) if op == "Convolution" else (2, 4, 8, 8)
    dy = rng.uniform(-1, 1, out_shape).astype(np.float32)

    def grads(dtype, grad_req, passes):
        args = [mx.nd.array(a, dtype=dtype) for a in inputs]
        for a in args:
            a.attach_grad(grad_req=grad_req)
        for _ in range(passes):
            with mx.autograd.record():
                y = getattr(mx.nd, op)(*args, kernel=(3, 3), num_filter=4, no_bias=no_bias)
            y.backward(mx.nd.array(dy, dtype=dtype))
        return [a.grad.asnumpy().astype(np.float32) for a in args]

    reference = grads("float32", "write", 1)
    for got, want in zip(grads("float16", "write", 1), reference):
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=3e-2)
    for got, want in zip(grads("float16", "add", 2), reference):
        np.testing.assert_allclose(got, 2 * want, rtol=2e-2, atol=6e-2)
