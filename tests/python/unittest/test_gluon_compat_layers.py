"""Gluon and legacy-API pieces added for MXNet 1.9.1 compatibility: convolutional RNN cells,
GroupNorm, ReflectionPad2D, SDMLLoss, samplers, dynamic_unroll, rnn_unroll, make_aux,
kvstore TestStore, mx.misc schedulers and image rotation; checked against NumPy."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet.gluon.contrib import rnn as contrib_rnn


def _sigmoid(x):
    return 1 / (1 + onp.exp(-x))


def _params_by_suffix(cell):
    out = {}
    for name, param in cell.collect_params().items():
        for suffix in ('i2h_weight', 'h2h_weight', 'i2h_bias', 'h2h_bias'):
            if name.endswith(suffix):
                out[suffix] = param.data().asnumpy()
    return out


def _conv2d_same(x, w, b, pad):
    """NumPy cross-correlation of (N, C, H, W) x with (F, C, k, k) w, zero padding `pad`."""
    n, c, h, wd = x.shape
    f, _, k, _ = w.shape
    xp = onp.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - k + 1, wd + 2 * pad - k + 1
    out = onp.zeros((n, f, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i:i + k, j:j + k]
            out[:, :, i, j] = onp.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return out + b[None, :, None, None]


def test_conv2d_lstm_cell_matches_numpy():
    cell = contrib_rnn.Conv2DLSTMCell((3, 5, 5), 2, i2h_kernel=3, h2h_kernel=3, i2h_pad=1)
    cell.initialize(mx.init.Uniform(0.5))
    x = mx.nd.random.uniform(shape=(2, 3, 5, 5))
    h0 = mx.nd.random.uniform(shape=(2, 2, 5, 5))
    c0 = mx.nd.random.uniform(shape=(2, 2, 5, 5))
    out, (h1, c1) = cell(x, [h0, c0])
    p = _params_by_suffix(cell)
    gates = _conv2d_same(x.asnumpy(), p['i2h_weight'], p['i2h_bias'], 1) + \
        _conv2d_same(h0.asnumpy(), p['h2h_weight'], p['h2h_bias'], 1)
    i, f, g, o = onp.split(gates, 4, axis=1)
    c_ref = _sigmoid(f) * c0.asnumpy() + _sigmoid(i) * onp.tanh(g)
    h_ref = _sigmoid(o) * onp.tanh(c_ref)
    onp.testing.assert_allclose(c1.asnumpy(), c_ref, rtol=1e-4, atol=1e-5)
    onp.testing.assert_allclose(out.asnumpy(), h_ref, rtol=1e-4, atol=1e-5)
    cell.hybridize()
    out2, _ = cell(x, [h0, c0])
    onp.testing.assert_allclose(out2.asnumpy(), out.asnumpy(), rtol=1e-5)


@pytest.mark.parametrize('cls,shape,states', [
    (contrib_rnn.Conv1DRNNCell, (2, 9), 1), (contrib_rnn.Conv1DGRUCell, (2, 9), 1),
    (contrib_rnn.Conv2DGRUCell, (2, 6, 7), 1), (contrib_rnn.Conv3DLSTMCell, (1, 4, 5, 6), 2),
    (contrib_rnn.Conv3DRNNCell, (1, 4, 4, 4), 1)])
def test_conv_cells_shapes_and_unroll(cls, shape, states):
    cell = cls(shape, 3, i2h_kernel=3, h2h_kernel=5)
    cell.initialize()
    spatial = tuple(s - 2 for s in shape[1:])
    info = cell.state_info(4)
    assert len(info) == states and info[0]['shape'] == (4, 3) + spatial
    seq = mx.nd.random.uniform(shape=(4, 3) + shape)
    outputs, final = cell.unroll(3, seq, layout='NTC', merge_outputs=True)
    assert outputs.shape == (4, 3, 3) + spatial and final[0].shape == (4, 3) + spatial
    with pytest.raises(ValueError):
        cls(shape, 3, i2h_kernel=3, h2h_kernel=2)


def test_conv_gru_cell_formula():
    cell = contrib_rnn.Conv2DGRUCell((1, 4, 4), 1, i2h_kernel=1, h2h_kernel=1)
    cell.initialize(mx.init.Uniform(1.0))
    x = mx.nd.random.uniform(shape=(1, 1, 4, 4))
    h = mx.nd.random.uniform(shape=(1, 1, 4, 4))
    out, _ = cell(x, [h])
    p = {k: v.reshape(-1) for k, v in _params_by_suffix(cell).items()}
    xi, hi = x.asnumpy(), h.asnumpy()
    i2h = [p['i2h_weight'][g] * xi + p['i2h_bias'][g] for g in range(3)]
    h2h = [p['h2h_weight'][g] * hi + p['h2h_bias'][g] for g in range(3)]
    r, z = _sigmoid(i2h[0] + h2h[0]), _sigmoid(i2h[1] + h2h[1])
    cand = onp.tanh(i2h[2] + r * h2h[2])
    onp.testing.assert_allclose(out.asnumpy(), (1 - z) * cand + z * hi, rtol=1e-5)


def test_legacy_conv_cells():
    for cls, n_states in [(mx.rnn.ConvRNNCell, 1), (mx.rnn.ConvLSTMCell, 2),
                          (mx.rnn.ConvGRUCell, 1)]:
        cell = cls((2, 3, 8, 8), 4)
        assert isinstance(cell, mx.rnn.BaseConvRNNCell)
        assert [s['shape'] for s in cell.state_info] == [(2, 4, 8, 8)] * n_states
        out, states = cell(mx.sym.var('x'), cell.begin_state())
        _, shapes, _ = out.infer_shape(x=(2, 3, 8, 8))
        assert shapes == [(2, 4, 8, 8)] and len(states) == n_states
        exe = out.simple_bind(mx.cpu(), x=(2, 3, 8, 8))
        for name, arr in exe.arg_dict.items():
            arr[:] = onp.random.uniform(-0.1, 0.1, arr.shape)
        assert exe.forward()[0].shape == (2, 4, 8, 8)
    strided = mx.rnn.ConvRNNCell((1, 3, 9, 9), 2, i2h_stride=(2, 2), i2h_pad=(0, 0))
    assert strided.state_info[0]['shape'] == (1, 2, 4, 4)


def test_group_norm_and_reflection_pad():
    x = onp.random.RandomState(0).uniform(size=(2, 4, 3, 3)).astype(onp.float32)
    gn = mx.gluon.nn.GroupNorm(num_groups=2)
    gn.initialize()
    groups = x.reshape(2, 2, -1)
    ref = (groups - groups.mean(-1, keepdims=True)) / onp.sqrt(groups.var(-1, keepdims=True)
                                                               + 1e-5)
    onp.testing.assert_allclose(gn(mx.nd.array(x)).asnumpy(), ref.reshape(x.shape), rtol=1e-4,
                                atol=1e-5)
    assert gn.gamma.shape == (2,)
    pad = mx.gluon.nn.ReflectionPad2D(2)
    onp.testing.assert_allclose(pad(mx.nd.array(x)).asnumpy(),
                                onp.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), mode='reflect'))
    with pytest.raises(ValueError):
        mx.gluon.nn.ReflectionPad2D((1, 2))


def test_sdml_loss():
    rng = onp.random.RandomState(3)
    x1, x2 = rng.uniform(size=(4, 6)), rng.uniform(size=(4, 6))
    loss = mx.gluon.loss.SDMLLoss(smoothing_parameter=0.3)(mx.nd.array(x1), mx.nd.array(x2))
    dist = ((x1[:, None] - x2[None]) ** 2).sum(-1)
    logp = -dist - onp.log(onp.exp(-dist).sum(1, keepdims=True))
    labels = onp.full((4, 4), 0.3 / 3)
    onp.fill_diagonal(labels, 0.7)
    ref = (labels * (onp.log(labels) - logp)).sum(1)
    onp.testing.assert_allclose(loss.asnumpy(), ref, rtol=1e-4)


def test_samplers():
    from mxnet.gluon.data.sampler import FilterSampler
    from mxnet.gluon.contrib.data.sampler import IntervalSampler
    data = mx.gluon.data.SimpleDataset(list(range(10)))
    odd = FilterSampler(lambda v: v % 2 == 1, data)
    assert list(odd) == [1, 3, 5, 7, 9] and len(odd) == 5
    assert list(IntervalSampler(7, 3)) == [0, 3, 6, 1, 4, 2, 5]
    assert list(IntervalSampler(7, 3, rollover=False)) == [0, 3, 6]
    assert list(data.filter(lambda v: v > 7)) == [8, 9]


def test_dynamic_unroll_and_rnn_unroll():
    cell = mx.gluon.rnn.GRUCell(3)
    cell.initialize()
    x = mx.nd.random.uniform(shape=(2, 5, 4))
    begin = cell.begin_state(2)
    outs, states = contrib_rnn.dynamic_unroll(cell, x, begin, layout='NTC')
    ref_outs, ref_states = cell.unroll(5, x, begin, layout='NTC', merge_outputs=True)
    onp.testing.assert_allclose(outs.asnumpy(), ref_outs.asnumpy(), rtol=1e-5)
    onp.testing.assert_allclose(states[0].asnumpy(), ref_states[0].asnumpy(), rtol=1e-5)
    lengths = mx.nd.array([2, 5])
    outs, states = contrib_rnn.dynamic_unroll(cell, x, begin, layout='NTC',
                                              valid_length=lengths)
    short, short_states = cell.unroll(2, x[:1, :2], [s[:1] for s in begin], layout='NTC',
                                      merge_outputs=True)
    onp.testing.assert_allclose(states[0][:1].asnumpy(), short_states[0].asnumpy(), rtol=1e-5)
    assert not outs[0, 2:].asnumpy().any()
    onp.testing.assert_allclose(states[0][1].asnumpy(), ref_states[0][1].asnumpy(), rtol=1e-5)
    with pytest.warns(DeprecationWarning):
        outputs, _ = mx.rnn.rnn.rnn_unroll(mx.rnn.GRUCell(3, prefix='g_'), 2, input_prefix='in_')
    assert 'in_t1_data' in outputs[1].list_arguments()


def test_make_aux_test_store_and_misc_scheduler():
    from mxnet.gluon.model_zoo.vision.inception import make_aux
    head = make_aux(7)
    head.initialize()
    assert head(mx.nd.ones((2, 768, 17, 17))).shape == (2, 7)
    kv = mx.kv.create('teststore')
    assert kv.type == 'teststore' and kv.rank == 0 and kv.num_workers == 1
    assert not kv.is_capable('optimizer')
    values = [mx.nd.ones(3), mx.nd.full(3, 2.0)]
    out = mx.nd.zeros(3)
    kv.pushpull('w', values, out=out)
    onp.testing.assert_array_equal(out.asnumpy(), [3, 3, 3])
    kv.broadcast('w', mx.nd.full(3, 5.0), out=values)
    onp.testing.assert_array_equal(values[1].asnumpy(), [5, 5, 5])
    from mxnet import misc
    sched = misc.FactorScheduler(step=10, factor=0.5)
    sched.base_lr = 1.0
    assert [sched(i) for i in (0, 9, 10, 25)] == [1.0, 1.0, 0.5, 0.25]
    with pytest.raises(ValueError):
        misc.FactorScheduler(step=0)


def test_imrotate():
    img = onp.arange(36, dtype=onp.float32).reshape(1, 6, 6)
    for k in range(4):
        rotated = mx.image.imrotate(mx.nd.array(img), 90 * k)
        onp.testing.assert_allclose(rotated.asnumpy()[0], onp.rot90(img[0], k), atol=1e-4)
    batch = mx.nd.array(onp.stack([img, img]))
    res = mx.image.imrotate(batch, mx.nd.array([0, 180])).asnumpy()
    onp.testing.assert_allclose(res[1, 0], onp.rot90(img[0], 2), atol=1e-4)
    ones = mx.nd.ones((1, 9, 9))
    padded = mx.image.imrotate(ones, 45).asnumpy()
    assert padded[0, 0, 0] == 0                                  # a corner falls outside
    assert mx.image.imrotate(ones, 45, zoom_in=True).asnumpy().min() > 0.99
    out = mx.image.imrotate(ones, 45, zoom_out=True).asnumpy()
    assert out[0, 4, 0] > 0.5 and out[0, 0, 0] == 0             # the whole image is in view
    with pytest.raises(TypeError):
        mx.image.imrotate(mx.nd.ones((1, 3, 3), dtype='uint8'), 10)
    with pytest.raises(ValueError):
        mx.image.imrotate(ones, 10, zoom_in=True, zoom_out=True)
    assert mx.image.random_rotate(batch, (-20, 20)).shape == batch.shape
