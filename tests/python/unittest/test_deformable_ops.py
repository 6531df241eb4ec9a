"""Deformable and rotated-ROI operators: _contrib_DeformableConvolution,
_contrib_ModulatedDeformableConvolution, _contrib_DeformablePSROIPooling, _contrib_RROIAlign, and
the Gluon layers mxnet.gluon.contrib.cnn.{DeformableConvolution, ModulatedDeformableConvolution}.

Oracles: the NumPy references in optable/deformable.py (written from the definitions), central
finite differences, Convolution (zero offsets), and real MXNet 1.9.1 run on the same inputs
(skipped when the reference venv is missing). MXNet 1.9.1 has no CPU backward for
ModulatedDeformableConvolution and no gradient at all for RROIAlign, so those gradients are
checked against finite differences only."""
import os

import numpy as np
import pytest

import mxnet as mx
import mx191_oracle
from optable import conv as conv_ref
from optable import deformable as ref


def _nd(a):
    return mx.nd.array(a, dtype=a.dtype)


# ---- forward vs NumPy ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("modulated", [False, True])
def test_deformable_conv_matches_numpy_with_offsets_past_the_border(dtype, modulated):
    rng = np.random.RandomState(3)
    kw = dict(kernel=(3, 3), pad=(1, 2), stride=(1, 2), dilate=(2, 1), num_filter=4,
              num_group=2, num_deformable_group=2)
    data = rng.uniform(-1, 1, (2, 4, 6, 7)).astype(dtype)
    oh, ow = 4, 5
    # Offsets up to +-4 cells: many samples land outside the map or in the last-row band.
    offset = rng.uniform(-4, 4, (2, 2 * 2 * 9, oh, ow)).astype(dtype)
    offset[:, ::4] = np.round(offset[:, ::4])   # some exactly on grid lines
    mask = rng.uniform(0, 2, (2, 2 * 9, oh, ow)).astype(dtype)
    weight = rng.uniform(-1, 1, (4, 2, 3, 3)).astype(dtype)
    bias = rng.uniform(-1, 1, (4,)).astype(dtype)
    if modulated:
        got = mx.nd.contrib.ModulatedDeformableConvolution(
            _nd(data), _nd(offset), _nd(mask), _nd(weight), _nd(bias), **kw)
        want = ref.modulated_deformable_conv_ref(data, offset, mask, weight, bias, **kw)
    else:
        got = mx.nd.contrib.DeformableConvolution(_nd(data), _nd(offset), _nd(weight),
                                                  _nd(bias), **kw)
        want = ref.deformable_conv_ref(data, offset, weight, bias, **kw)
    assert got.shape == (2, 4, oh, ow) and got.dtype == np.dtype(dtype)
    tol = 1e-12 if dtype == "float64" else 1e-5
    np.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("kw", [
    dict(kernel=(3, 3), num_filter=5),
    dict(kernel=(3, 2), num_filter=4, stride=(2, 1), pad=(1, 1), dilate=(1, 2), num_group=2),
    dict(kernel=(1, 1), num_filter=3, no_bias=True),
])
def test_zero_offsets_equal_convolution(kw):
    rng = np.random.RandomState(0)
    n, c, h, w = 2, 4, 7, 8
    g = kw.get("num_group", 1)
    data = rng.uniform(-1, 1, (n, c, h, w))
    weight = rng.uniform(-1, 1, (kw["num_filter"], c // g) + kw["kernel"])
    bias = rng.uniform(-1, 1, (kw["num_filter"],))
    args = [_nd(data), _nd(weight)] + ([] if kw.get("no_bias") else [_nd(bias)])
    conv = mx.nd.Convolution(*args, **kw)
    _, _, oh, ow = conv.shape
    k = kw["kernel"][0] * kw["kernel"][1]
    offset = mx.nd.zeros((n, 2 * k, oh, ow), dtype="float64")
    dcn = mx.nd.contrib.DeformableConvolution(args[0], offset, *args[1:], **kw)
    np.testing.assert_allclose(dcn.asnumpy(), conv.asnumpy(), rtol=1e-12, atol=1e-12)
    mask = mx.nd.ones((n, k, oh, ow), dtype="float64")
    mdcn = mx.nd.contrib.ModulatedDeformableConvolution(args[0], offset, mask, *args[1:], **kw)
    np.testing.assert_allclose(mdcn.asnumpy(), conv.asnumpy(), rtol=1e-12, atol=1e-12)
    # and the Convolution reference agrees (the three are not all wrong the same way)
    np.testing.assert_allclose(conv.asnumpy(), conv_ref.conv_ref(data, weight, bias, **kw),
                               rtol=1e-10, atol=1e-10)


def test_zero_offset_gradients_equal_convolution_gradients():
    rng = np.random.RandomState(1)
    kw = dict(kernel=(3, 3), num_filter=3, pad=(1, 1))
    data, weight, bias = (_nd(rng.uniform(-1, 1, s)) for s in [(2, 2, 5, 5), (3, 2, 3, 3), (3,)])
    head = _nd(rng.uniform(-1, 1, (2, 3, 5, 5)))
    offset = mx.nd.zeros((2, 18, 5, 5), dtype="float64")
    grads = []
    for op in ("conv", "dcn"):
        for x in (data, weight, bias):
            x.attach_grad()
        with mx.autograd.record():
            if op == "conv":
                out = mx.nd.Convolution(data, weight, bias, **kw)
            else:
                out = mx.nd.contrib.DeformableConvolution(data, offset, weight, bias, **kw)
        out.backward(head)
        grads.append([x.grad.asnumpy() for x in (data, weight, bias)])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_deformable_psroi_pooling_matches_numpy_and_counts_samples():
    rng = np.random.RandomState(2)
    data = rng.uniform(-1, 1, (2, 8, 6, 7))
    rois = np.array([[0, -3, -2, 4, 5], [1, 2, 1, 12, 9], [0, 0, 0, 0, 0], [5, 1, 1, 3, 3]],
                    dtype=np.float64)
    trans = rng.uniform(-1, 1, (4, 4, 3, 3))
    kw = dict(spatial_scale=0.9, output_dim=2, group_size=2, pooled_size=3, sample_per_part=3,
              trans_std=0.7)
    got = mx.nd.contrib.DeformablePSROIPooling(_nd(data), _nd(rois), _nd(trans), **kw)
    want, count = ref.deformable_psroi_pooling_ref(data, rois, trans, **kw)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12, atol=1e-12)
    assert np.any(count < 9) and np.any(count == 9)   # some samples fall off the map
    assert np.all(got.asnumpy()[3] == 0)                # batch index 5 does not exist
    sym = mx.sym.contrib.DeformablePSROIPooling(name="p", **kw)
    assert sym.list_arguments() == ["p_data", "p_rois", "p_trans"]
    assert sym.list_outputs() == ["p_output"]
    _, out_shapes, _ = sym.infer_shape(p_data=data.shape, p_rois=rois.shape,
                                       p_trans=trans.shape)
    assert out_shapes == [(4, 2, 3, 3)]


def test_rroi_align_matches_numpy_and_has_no_gradient():
    rng = np.random.RandomState(4)
    data = rng.uniform(-1, 1, (2, 3, 8, 9)).astype(np.float32)
    rois = np.array([[0, 1, 1, 8, 3, 45], [1, 5, 3, 20, 10, -170], [1, 6, 5, 0.2, 0.2, 10],
                     [-1, 4, 4, 3, 3, 0], [2, 4, 4, 3, 3, 0]], dtype=np.float32)
    for kw in (dict(pooled_size=(3, 2), spatial_scale=0.7),
               dict(pooled_size=(2, 2), spatial_scale=1.0, sampling_ratio=3)):
        got = mx.nd.contrib.RROIAlign(_nd(data), _nd(rois), **kw)
        np.testing.assert_allclose(got.asnumpy(), ref.rroi_align_ref(data, rois, **kw),
                                   rtol=1e-5, atol=1e-5)
        assert np.all(got.asnumpy()[3:] == 0)   # batch indices -1 and 2 of a batch of 2
    x = _nd(data)
    x.attach_grad()
    with pytest.raises(mx.base.MXNetError) as info:
        with mx.autograd.record():
            y = mx.nd.contrib.RROIAlign(x, _nd(rois), pooled_size=(2, 2), spatial_scale=1.0)
        y.backward()
    assert "_contrib_RROIAlign" in str(info.value)


def test_float16_runs_in_float32_accuracy():
    rng = np.random.RandomState(5)
    data = rng.uniform(-1, 1, (1, 2, 5, 5))
    offset = rng.uniform(-1, 1, (1, 8, 4, 4))
    mask = rng.uniform(0, 1, (1, 4, 4, 4))
    weight = rng.uniform(-1, 1, (3, 2, 2, 2))
    h = [mx.nd.array(a, dtype="float16") for a in (data, offset, mask, weight)]
    kw = dict(kernel=(2, 2), num_filter=3, no_bias=True)
    got = mx.nd.contrib.ModulatedDeformableConvolution(*h, **kw)
    assert got.dtype == np.float16
    want = ref.modulated_deformable_conv_ref(*[x.asnumpy().astype(np.float64) for x in h], **kw)
    np.testing.assert_allclose(got.asnumpy().astype(np.float64), want, rtol=5e-3, atol=5e-3)


# ---- gradients vs finite differences ---------------------------------------------------------

def _check_fd(fn, inputs, skip=(), eps=1e-6, tol=1e-6):
    """Every coordinate of every input not in `skip` against central differences."""
    rng = np.random.RandomState(9)
    nd = [_nd(a) for a in inputs]
    for x in nd:
        x.attach_grad()
    with mx.autograd.record():
        out = fn(*nd)
    head = rng.uniform(-1, 1, out.shape)
    out.backward(_nd(head))

    def objective(arrays):
        return float(np.sum(fn(*[_nd(a) for a in arrays]).asnumpy() * head))

    for i, x in enumerate(inputs):
        got = nd[i].grad.asnumpy()
        if i in skip:
            assert np.all(got == 0), "input %d should get no gradient" % i
            continue
        num = np.zeros_like(x)
        for idx in np.ndindex(*x.shape):
            plus, minus = [a.copy() for a in inputs], [a.copy() for a in inputs]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            num[idx] = (objective(plus) - objective(minus)) / (2 * eps)
        np.testing.assert_allclose(got, num, rtol=tol, atol=tol, err_msg="input %d" % i)


@pytest.mark.parametrize("modulated", [False, True])
def test_deformable_conv_gradients_match_finite_differences(modulated):
    rng = np.random.RandomState(6)
    kw = dict(kernel=(2, 2), pad=(1, 0), stride=(1, 2), num_filter=2, num_group=1,
              num_deformable_group=2)
    data = rng.uniform(-1, 1, (2, 2, 4, 5))
    oh, ow = 5, 2
    # Fractional parts in [0.2, 0.8] keep every sample off the kinks of the interpolation.
    offset = ref._fractional(rng, (2, 2 * 2 * 4, oh, ow), -2, 2)
    mask = rng.uniform(0.2, 1.8, (2, 2 * 4, oh, ow))
    weight = rng.uniform(-1, 1, (2, 2, 2, 2))
    bias = rng.uniform(-1, 1, (2,))
    if modulated:
        fn = lambda *a: mx.nd.contrib.ModulatedDeformableConvolution(*a, **kw)
        inputs = [data, offset, mask, weight, bias]
    else:
        # (v1 clamps samples in [H-1, H) to the last row: flat along y there, which the
        # backward reproduces, so finite differences agree in that band too)
        fn = lambda *a: mx.nd.contrib.DeformableConvolution(*a, **kw)
        inputs = [data, offset, weight, bias]
    _check_fd(fn, inputs)


def test_deformable_psroi_pooling_gradients_match_finite_differences():
    rng = np.random.RandomState(7)
    data = rng.uniform(-1, 1, (1, 8, 7, 8))
    rois = np.array([[0, 1, 2, 6, 5], [0, 2, 1, 5, 6]], dtype=np.float64)
    trans = rng.uniform(-0.5, 0.5, (2, 4, 2, 2))
    kw = dict(spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2, sample_per_part=2,
              trans_std=0.1)
    fn = lambda *a: mx.nd.contrib.DeformablePSROIPooling(*a, **kw)
    _check_fd(fn, [data, rois, trans], skip=(1,))


def test_grad_req_add_accumulates():
    rng = np.random.RandomState(8)
    kw = dict(kernel=(3, 3), num_filter=2, pad=(1, 1))
    arrays = [rng.uniform(-1, 1, s) for s in [(1, 2, 4, 4), (1, 18, 4, 4), (1, 9, 4, 4),
                                              (2, 2, 3, 3), (2,)]]
    nd = [_nd(a) for a in arrays]
    for x in nd:
        x.attach_grad(grad_req="add")
    for _ in range(2):
        with mx.autograd.record():
            y = mx.nd.contrib.ModulatedDeformableConvolution(*nd, **kw)
        y.backward()
    twice = [x.grad.asnumpy() for x in nd]
    for x in nd:
        x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.contrib.ModulatedDeformableConvolution(*nd, **kw)
    y.backward()
    for t, x in zip(twice, nd):
        np.testing.assert_allclose(t, 2 * x.grad.asnumpy(), rtol=1e-12, atol=1e-12)


# ---- symbols, shapes and errors --------------------------------------------------------------

def test_symbol_arguments_and_shape_inference():
    s = mx.sym.contrib.DeformableConvolution(kernel=(3, 3), num_filter=4, name="c")
    assert s.list_arguments() == ["c_data", "c_offset", "c_weight", "c_bias"]
    args, outs, _ = s.infer_shape(c_data=(2, 4, 7, 7))
    assert args == [(2, 4, 7, 7), (2, 18, 5, 5), (4, 4, 3, 3), (4,)] and outs == [(2, 4, 5, 5)]
    s = mx.sym.contrib.ModulatedDeformableConvolution(
        kernel=(3, 3), num_filter=4, num_group=2, num_deformable_group=2, stride=(2, 2),
        pad=(1, 1), dilate=(2, 1), no_bias=True, name="m")
    assert s.list_arguments() == ["m_data", "m_offset", "m_mask", "m_weight"]
    args, outs, _ = s.infer_shape(m_data=(2, 4, 7, 7))
    assert args == [(2, 4, 7, 7), (2, 36, 3, 4), (2, 18, 3, 4), (4, 2, 3, 3)]
    assert outs == [(2, 4, 3, 4)]
    s = mx.sym.contrib.DeformablePSROIPooling(spatial_scale=1.0, output_dim=2, group_size=2,
                                              pooled_size=2, no_trans=True, name="p")
    assert s.list_arguments() == ["p_data", "p_rois"]
    s = mx.sym.contrib.RROIAlign(pooled_size=(2, 3), spatial_scale=1.0, name="r")
    assert s.infer_shape(r_data=(2, 4, 7, 7), r_rois=(3, 6))[1] == [(3, 4, 2, 3)]


_D, _W = mx.nd.ones((1, 4, 6, 6)), mx.nd.ones((4, 4, 3, 3))


@pytest.mark.parametrize("call,words", [
    (lambda: mx.nd.contrib.DeformableConvolution(_D, mx.nd.ones((1, 17, 4, 4)), _W,
                                                 kernel=(3, 3), num_filter=4, no_bias=True),
     ["_contrib_DeformableConvolution", "offset", "[1,18,4,4]", "[1,17,4,4]"]),
    (lambda: mx.nd.contrib.DeformableConvolution(_D, mx.nd.ones((1, 18, 3, 4)), _W,
                                                 kernel=(3, 3), num_filter=4, no_bias=True),
     ["_contrib_DeformableConvolution", "offset", "[1,18,3,4]"]),
    (lambda: mx.nd.contrib.DeformableConvolution(_D, mx.nd.ones((2, 18, 4, 4)), _W,
                                                 kernel=(3, 3), num_filter=4, no_bias=True),
     ["_contrib_DeformableConvolution", "[2,18,4,4]", "[1,4,6,6]"]),
    (lambda: mx.nd.contrib.DeformableConvolution(_D, mx.nd.ones((1, 18, 4, 4)),
                                                 mx.nd.ones((4, 3, 3, 3)), kernel=(3, 3),
                                                 num_filter=4, no_bias=True),
     ["_contrib_DeformableConvolution", "weight", "[4,3,3,3]", "[4,4,3,3]"]),
    (lambda: mx.nd.contrib.DeformableConvolution(_D, mx.nd.ones((1, 18, 4, 4)), _W,
                                                 mx.nd.ones((3,)), kernel=(3, 3), num_filter=4),
     ["_contrib_DeformableConvolution", "bias", "[3]"]),
    (lambda: mx.nd.contrib.DeformableConvolution(_D, mx.nd.ones((1, 54, 4, 4)), _W,
                                                 kernel=(3, 3), num_filter=4, no_bias=True,
                                                 num_deformable_group=3),
     ["_contrib_DeformableConvolution", "num_deformable_group=3", "[1,4,6,6]"]),
    (lambda: mx.nd.contrib.DeformableConvolution(mx.nd.ones((1, 4, 6)), mx.nd.ones((1, 6, 4)),
                                                 mx.nd.ones((4, 4, 3)), kernel=(3,),
                                                 num_filter=4, no_bias=True),
     ["_contrib_DeformableConvolution", "2-D", "kernel[3]"]),
    (lambda: mx.nd.contrib.ModulatedDeformableConvolution(
        _D, mx.nd.ones((1, 18, 4, 4)), mx.nd.ones((1, 8, 4, 4)), _W, kernel=(3, 3),
        num_filter=4, no_bias=True),
     ["_contrib_ModulatedDeformableConvolution", "mask", "[1,9,4,4]", "[1,8,4,4]"]),
    (lambda: mx.nd.contrib.ModulatedDeformableConvolution(
        _D, mx.nd.ones((1, 18, 4, 4)), mx.nd.ones((1, 9, 4, 4)), _W, kernel=(9, 9),
        num_filter=4, no_bias=True),
     ["_contrib_ModulatedDeformableConvolution", "larger", "[1,4,6,6]"]),
    (lambda: mx.nd.contrib.ModulatedDeformableConvolution(
        _D, mx.nd.ones((1, 36, 4, 4)), mx.nd.ones((1, 18, 4, 4)), mx.nd.ones((5, 4, 3, 3)),
        kernel=(3, 3), num_filter=5, num_deformable_group=2, no_bias=True),
     ["_contrib_ModulatedDeformableConvolution", "num_filter=5", "num_deformable_group=2"]),
    (lambda: mx.nd.contrib.DeformablePSROIPooling(
        mx.nd.ones((1, 8, 6, 6)), mx.nd.ones((2, 5)), mx.nd.ones((2, 6, 2, 2)),
        spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2),
     ["_contrib_DeformablePSROIPooling", "trans", "[2,6,2,2]"]),
    (lambda: mx.nd.contrib.DeformablePSROIPooling(
        mx.nd.ones((1, 8, 6, 6)), mx.nd.ones((2, 5)), mx.nd.ones((3, 4, 2, 2)),
        spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2),
     ["_contrib_DeformablePSROIPooling", "trans", "[3,4,2,2]", "[2,5]"]),
    (lambda: mx.nd.contrib.DeformablePSROIPooling(
        mx.nd.ones((1, 12, 6, 6)), mx.nd.ones((2, 5)), mx.nd.ones((2, 4, 2, 2)),
        spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2),
     ["_contrib_DeformablePSROIPooling", "[1,12,6,6]"]),
    (lambda: mx.nd.contrib.DeformablePSROIPooling(
        mx.nd.ones((1, 8, 6, 6)), mx.nd.ones((2, 4)), mx.nd.ones((2, 4, 2, 2)),
        spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2),
     ["_contrib_DeformablePSROIPooling", "rois", "[2,4]"]),
    (lambda: mx.nd.contrib.DeformablePSROIPooling(
        mx.nd.ones((1, 8, 6, 6)), mx.nd.ones((2, 5)), mx.nd.ones((2, 4, 2, 2)),
        spatial_scale=1.0, output_dim=2, group_size=0, pooled_size=2),
     ["_contrib_DeformablePSROIPooling", "group_size"]),
    (lambda: mx.nd.contrib.RROIAlign(mx.nd.ones((1, 2, 5, 5)), mx.nd.ones((3, 5)),
                                     pooled_size=(2, 2), spatial_scale=1.0),
     ["_contrib_RROIAlign", "rois", "[3,5]"]),
    (lambda: mx.nd.contrib.RROIAlign(mx.nd.ones((1, 2, 5, 5)), mx.nd.ones((3, 6)),
                                     pooled_size=(2,), spatial_scale=1.0),
     ["_contrib_RROIAlign", "pooled_size"]),
    (lambda: mx.nd.contrib.RROIAlign(mx.nd.ones((1, 2, 5, 5)),
                                     mx.nd.ones((3, 6), dtype="float64"),
                                     pooled_size=(2, 2), spatial_scale=1.0),
     ["_contrib_RROIAlign", "float64"]),
])
def test_bad_inputs_raise_clear_errors(call, words):
    with pytest.raises(mx.base.MXNetError) as info:
        call().wait_to_read()
    msg = str(info.value).replace(" ", "")
    for w in words:
        assert w.replace(" ", "") in msg, (w, str(info.value))


# ---- Gluon layers ----------------------------------------------------------------------------

def test_gluon_layers_parameters_and_forward():
    from mxnet.gluon.contrib.cnn import DeformableConvolution, ModulatedDeformableConvolution
    from mxnet.gluon.contrib.cnn import conv_layers
    assert conv_layers.numeric_types is mx.base.numeric_types
    layer = DeformableConvolution(4, kernel_size=3, padding=1, in_channels=3)
    assert list(layer.collect_params().keys()) == [
        "deformable_conv0_offset_weight", "deformable_conv0_offset_bias",
        "deformable_conv0_deformable_conv_weight", "deformable_conv0_deformable_conv_bias"]
    layer.initialize()
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (2, 3, 6, 6)))
    y = layer(x)
    params = {k[len("deformable_conv0_"):]: v.data() for k, v in layer.collect_params().items()}
    assert params["offset_weight"].shape == (18, 3, 3, 3)
    assert params["deformable_conv_weight"].shape == (4, 3, 3, 3)
    # zero-initialised offsets: the layer is a plain convolution
    conv = mx.nd.Convolution(x, params["deformable_conv_weight"],
                             params["deformable_conv_bias"], kernel=(3, 3), pad=(1, 1),
                             num_filter=4)
    np.testing.assert_allclose(y.asnumpy(), conv.asnumpy(), rtol=1e-5, atol=1e-5)
    layer.hybridize()
    np.testing.assert_allclose(layer(x).asnumpy(), y.asnumpy(), rtol=1e-6, atol=1e-6)
    assert repr(layer) == ("DeformableConvolution(3 -> 4, kernel_size=(3, 3), stride=(1, 1), "
                           "padding=(1, 1))")

    mlayer = ModulatedDeformableConvolution(4, kernel_size=(3, 2), strides=2, use_bias=False,
                                            num_deformable_group=1, activation="relu")
    assert list(mlayer.collect_params().keys()) == [
        "modulated_deformable_conv0_deformable_conv_weight",
        "modulated_deformable_conv0_offset_weight", "modulated_deformable_conv0_offset_bias"]
    mlayer.initialize()
    out = mlayer(x)
    assert out.shape == (2, 4, 2, 3)
    assert mlayer.collect_params()["modulated_deformable_conv0_offset_weight"].shape == \
        (18, 3, 3, 2)
    # zero offsets and mask 2*sigmoid(0) = 1: relu(Convolution)
    w = mlayer.collect_params()["modulated_deformable_conv0_deformable_conv_weight"].data()
    conv = mx.nd.relu(mx.nd.Convolution(x, w, kernel=(3, 2), stride=(2, 2), num_filter=4,
                                        no_bias=True))
    np.testing.assert_allclose(out.asnumpy(), conv.asnumpy(), rtol=1e-5, atol=1e-5)


# ---- real MXNet 1.9.1 ------------------------------------------------------------------------

_ORACLE_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
rng = np.random.RandomState(0)
res = {}

def run(tag, fn, arrays, grad=True, dtype="float64"):
    ins = [mx.nd.array(a, dtype=dtype) for a in arrays]
    for x in ins:
        x.attach_grad()
    with mx.autograd.record():
        out = fn(*ins)
    res[tag] = out.asnumpy()
    if grad:
        head = np.random.RandomState(1).uniform(-1, 1, out.shape)
        out.backward(mx.nd.array(head, dtype=dtype))
        for i, x in enumerate(ins):
            res["%s_grad%d" % (tag, i)] = x.grad.asnumpy()

for dtype in ("float64", "float32"):
    for k, kw in enumerate([
            dict(kernel=(3, 3), num_filter=4, pad=(1, 1)),
            dict(kernel=(3, 2), num_filter=4, stride=(2, 1), dilate=(1, 2), pad=(2, 1),
                 num_group=2, num_deformable_group=2),
            dict(kernel=(1, 1), num_filter=3, no_bias=True)]):
        n, c, h, w = 2, 4, 6, 7
        kh, kw_ = kw["kernel"]
        s, d, p = kw.get("stride", (1, 1)), kw.get("dilate", (1, 1)), kw["pad"] if "pad" in kw else (0, 0)
        oh = (h + 2 * p[0] - d[0] * (kh - 1) - 1) // s[0] + 1
        ow = (w + 2 * p[1] - d[1] * (kw_ - 1) - 1) // s[1] + 1
        dg, g = kw.get("num_deformable_group", 1), kw.get("num_group", 1)
        data = rng.uniform(-1, 1, (n, c, h, w))
        offset = rng.uniform(-4, 4, (n, dg * 2 * kh * kw_, oh, ow))
        mask = rng.uniform(0, 2, (n, dg * kh * kw_, oh, ow))
        weight = rng.uniform(-1, 1, (kw["num_filter"], c // g, kh, kw_))
        bias = rng.uniform(-1, 1, (kw["num_filter"],))
        extra = [] if kw.get("no_bias") else [bias]
        tag = "%s_%d" % (dtype, k)
        run("dcn_" + tag, lambda *a: mx.nd.contrib.DeformableConvolution(*a, **kw),
            [data, offset, weight] + extra, dtype=dtype)
        run("mdcn_" + tag, lambda *a: mx.nd.contrib.ModulatedDeformableConvolution(*a, **kw),
            [data, offset, mask, weight] + extra, grad=False, dtype=dtype)

    data = rng.uniform(-1, 1, (2, 18, 7, 8))
    rois = np.array([[0, -3, -2, 4, 5], [1, 2, 1, 12, 9], [0, 0, 0, 0, 0], [1, 5, 5, 30, 30]])
    for k, kw in enumerate([
            dict(spatial_scale=0.9, output_dim=2, group_size=3, pooled_size=3,
                 sample_per_part=3, trans_std=0.7),
            dict(spatial_scale=0.5, output_dim=2, group_size=3, pooled_size=2, part_size=3,
                 sample_per_part=2, trans_std=0.3),
            dict(spatial_scale=0.7, output_dim=2, group_size=3, pooled_size=4,
                 sample_per_part=2, no_trans=True)]):
        part = kw.get("part_size") or kw["pooled_size"]
        trans = rng.uniform(-1, 1, (4, 2 * (1 + (k == 1)), part, part))
        arrays = [data, rois] + ([] if kw.get("no_trans") else [trans])
        run("dpsroi_%s_%d" % (dtype, k),
            lambda *a: mx.nd.contrib.DeformablePSROIPooling(*a, **kw), arrays, dtype=dtype)

    rrois = np.array([[0, 1, 1, 8, 3, 45], [1, 5, 3, 20, 10, -170], [1, 6, 5, 0.2, 0.2, 10],
                      [0, 4.5, 3.3, 6, 4, 90]])
    for k, kw in enumerate([dict(pooled_size=(3, 2), spatial_scale=0.7),
                            dict(pooled_size=(2, 4), spatial_scale=0.45, sampling_ratio=2)]):
        run("rroi_%s_%d" % (dtype, k), lambda *a: mx.nd.contrib.RROIAlign(*a, **kw),
            [data[:, :3], rrois], grad=False, dtype=dtype)

# Gluon layers with the same (explicitly set) parameters, imperative and hybridized.
from mxnet.gluon.contrib.cnn import DeformableConvolution, ModulatedDeformableConvolution
x = mx.nd.array(rng.uniform(-1, 1, (2, 4, 7, 6)))
for k, (cls, kw) in enumerate([
        (DeformableConvolution, dict(channels=6, kernel_size=3, padding=1, groups=2,
                                     num_deformable_group=2)),
        (DeformableConvolution, dict(channels=3, kernel_size=(2, 3), strides=2,
                                     use_bias=False, activation="tanh")),
        (ModulatedDeformableConvolution, dict(channels=6, kernel_size=3, padding=1,
                                              num_deformable_group=2)),
        (ModulatedDeformableConvolution, dict(channels=4, kernel_size=(3, 2), dilation=2,
                                              offset_use_bias=False))]):
    for hybrid in (False, True):
        net = cls(prefix="layer%d_" % k, **kw)
        net.initialize()
        net(x)
        prng = np.random.RandomState(k)
        for name in sorted(net.collect_params().keys()):
            p = net.collect_params()[name]
            scale = 0.5 if "offset" in name else 1.0
            p.set_data(mx.nd.array(prng.uniform(-scale, scale, p.shape)))
            res["gluon%d_shape_%s" % (k, name)] = np.array(p.shape)
        if hybrid:
            net.hybridize()
        xx = x.copy()
        xx.attach_grad()
        with mx.autograd.record():
            y = net(xx)
        res["gluon%d_%d" % (k, hybrid)] = y.asnumpy()
        if cls is DeformableConvolution:
            y.backward(mx.nd.array(np.random.RandomState(2).uniform(-1, 1, y.shape)))
            res["gluon%d_%d_xgrad" % (k, hybrid)] = xx.grad.asnumpy()
            for name, p in net.collect_params().items():
                res["gluon%d_%d_grad_%s" % (k, hybrid, name)] = p.grad().asnumpy()
np.savez(sys.argv[1], **res)
'''


@pytest.fixture(scope="module")
def oracle_results(tmp_path_factory):
    if not mx191_oracle.HAVE_MX191:
        pytest.skip(mx191_oracle.SKIP_REASON)
    mx191_oracle.check_reference()
    return mx191_oracle.run_script_under_both(_ORACLE_SCRIPT,
                                              str(tmp_path_factory.mktemp("deformable")))


def test_oracle_covers_every_case(oracle_results):
    theirs, ours = oracle_results
    assert sorted(theirs.keys()) == sorted(ours.keys())
    # 2 dtypes x (3 dcn with grads + 3 mdcn + 3 dpsroi with grads + 2 rroi), 4 layers x 2
    assert sum(1 for k in theirs.keys() if "grad" not in k and "shape" not in k) == 2 * 11 + 8


@pytest.mark.parametrize("family", ["dcn_", "mdcn_", "dpsroi_", "rroi_", "gluon"])
def test_matches_mxnet_191(oracle_results, family):
    theirs, ours = oracle_results
    keys = [k for k in theirs.keys() if k.startswith(family)]
    assert keys
    for key in keys:
        e, g = theirs[key], ours[key]
        assert g.shape == e.shape, (key, g.shape, e.shape)
        tol = 1e-4 if ("float32" in key or family == "gluon") else 1e-10
        np.testing.assert_allclose(g, e, rtol=tol, atol=tol, err_msg=key)


_SAVE_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
from mxnet.gluon.contrib.cnn import DeformableConvolution, ModulatedDeformableConvolution
x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (1, 3, 6, 5)))
outs = {}
for k, cls in enumerate((DeformableConvolution, ModulatedDeformableConvolution)):
    net = cls(4, kernel_size=3, padding=1, offset_weight_initializer=mx.init.Uniform(0.3),
              offset_bias_initializer=mx.init.Uniform(0.3), bias_initializer=mx.init.Uniform(1))
    net.initialize()
    outs["out%d" % k] = net(x).asnumpy()
    net.save_parameters(sys.argv[1] + "_%d.params" % k)
np.savez(sys.argv[1] + ".npz", **outs)
'''


def test_layers_load_mxnet_191_parameter_files(tmp_path):
    if not mx191_oracle.HAVE_MX191:
        pytest.skip(mx191_oracle.SKIP_REASON)
    from mxnet.gluon.contrib.cnn import DeformableConvolution, ModulatedDeformableConvolution
    script = tmp_path / "save.py"
    script.write_text(_SAVE_SCRIPT)
    base = str(tmp_path / "mx191")
    mx191_oracle.run([script, base], ours=False)
    expected = np.load(base + ".npz")
    x = mx.nd.array(np.random.RandomState(0).uniform(-1, 1, (1, 3, 6, 5)))
    for k, cls in enumerate((DeformableConvolution, ModulatedDeformableConvolution)):
        net = cls(4, kernel_size=3, padding=1)
        net.load_parameters(base + "_%d.params" % k)
        got = net(x).asnumpy()
        assert np.abs(expected["out%d" % k]).max() > 0
        np.testing.assert_allclose(got, expected["out%d" % k], rtol=1e-5, atol=1e-5)
        assert os.path.getsize(base + "_%d.params" % k) > 0


def test_non_finite_coordinates_read_nothing():
    data = mx.nd.ones((1, 8, 5, 5))
    nan, inf = float("nan"), float("inf")
    rroi = mx.nd.contrib.RROIAlign(
        data, mx.nd.array([[nan, 2, 2, 2, 2, 0], [0, nan, 2, 2, 2, 0], [0, 2, 2, inf, 2, 0],
                           [0, 2, 2, 2, 2, nan], [0, 2, 2, 2, 2, 0]]),
        pooled_size=(2, 2), spatial_scale=1.0).asnumpy()
    assert np.all(rroi[:4] == 0) and np.allclose(rroi[4], 1)
    dps = mx.nd.contrib.DeformablePSROIPooling(
        data, mx.nd.array([[nan, 0, 0, 3, 3], [0, nan, 0, 3, 3], [0, 0, 0, 3, 3]]),
        mx.nd.array(np.stack([np.zeros((2, 2, 2)), np.full((2, 2, 2), nan),
                              np.zeros((2, 2, 2))])),
        spatial_scale=1.0, output_dim=2, group_size=2, pooled_size=2, trans_std=0.1).asnumpy()
    assert np.all(dps[:2] == 0) and np.allclose(dps[2], 1)
    offset = np.zeros((1, 2, 5, 5))
    offset[0, 0, 1, 1], offset[0, 1, 2, 2], offset[0, 0, 3, 3] = nan, inf, -1e30
    for op, extra in ((mx.nd.contrib.DeformableConvolution, []),
                      (mx.nd.contrib.ModulatedDeformableConvolution, [mx.nd.ones((1, 1, 5, 5))])):
        out = op(data, mx.nd.array(offset), *extra, mx.nd.ones((1, 8, 1, 1)), kernel=(1, 1),
                 num_filter=1, no_bias=True).asnumpy()
        assert out[0, 0, 1, 1] == 0 and out[0, 0, 2, 2] == 0 and out[0, 0, 3, 3] == 0
        assert out[0, 0, 0, 0] == 8
