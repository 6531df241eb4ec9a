"""bfloat16 on the CPU: conversions (amp_cast, Cast/astype, _copyto, creation ops, mx.nd.array)
bit-exact against a NumPy model of round-to-nearest-even; operators without bfloat16 kernels
run through the execution core's float32 fallback, checked against NumPy (or the float32
operator) on bfloat16-rounded inputs; AMP-converted Gluon blocks and symbols run; autograd
through bfloat16 FullyConnected."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.contrib import amp

BF16 = np.dtype([('bfloat16', np.uint16)])  # MXNet 1.9.1's NumPy name for bfloat16


def np_bf16_bits(x):
    """float32 -> bfloat16 bits: round to nearest even; a NaN becomes a quiet NaN, sign kept."""
    b = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    nan = (b & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, (b >> 16) | 0x40, (b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def np_bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def np_round(x):
    """x rounded to the nearest bfloat16, as float32."""
    return np_bf16_value(np_bf16_bits(x)).reshape(np.shape(x))


def bits_of(a):
    assert a.dtype == BF16
    return a.asnumpy().view(np.uint16).reshape(a.shape)


def to_f32(a):
    return a.astype('float32').asnumpy()


SPECIAL_BITS = np.array([
    0x00000000, 0x80000000,              # +-0
    0x7F800000, 0xFF800000,              # +-inf
    0x7FC00000, 0xFFC00000, 0x7F800001,  # NaNs (the last one would round into inf)
    0x7FC12345, 0xFF812345,
    0x00000001, 0x00008000, 0x00018000,  # subnormals, incl. ties to even
    0x007FFFFF, 0x00800000,              # largest subnormal, smallest normal
    0x3F808000, 0x3F818000,              # ties: to even down, to even up
    0x3F808001, 0x3F807FFF,              # just above / below a tie
    0x7F7FFFFF, 0x7F7F7FFF,              # max float rounds to inf; just below stays finite
    0xC0490FDB,                          # -pi
], dtype=np.uint32)


def special_values():
    rng = np.random.RandomState(0)
    rand = (rng.randn(200) * 10.0 ** rng.randint(-30, 30, 200)).astype(np.float32)
    return np.concatenate([SPECIAL_BITS.view(np.float32), rand])


@pytest.mark.parametrize('how', ['amp_cast', 'astype', 'Cast', 'array', 'copyto'])
def test_float32_to_bfloat16_bit_exact(how):
    x = special_values()
    xs = mx.nd.array(x)
    if how == 'amp_cast':
        y = mx.nd.amp_cast(xs, dtype='bfloat16')
    elif how == 'astype':
        y = xs.astype('bfloat16')
    elif how == 'Cast':
        y = mx.nd.Cast(xs, dtype='bfloat16')
    elif how == 'array':
        y = mx.nd.array(x, dtype='bfloat16')
    else:
        y = mx.nd.zeros(x.shape, dtype='bfloat16')
        xs.copyto(y)
    assert y.dtype == BF16
    np.testing.assert_array_equal(bits_of(y), np_bf16_bits(x))


def test_bfloat16_widening_exact():
    bits = np_bf16_bits(special_values())
    y = mx.nd.array(bits.view(BF16), dtype=BF16)
    assert y.dtype == BF16
    ref = np_bf16_value(bits)
    for dtype in ('float32', 'float64'):
        out = y.astype(dtype).asnumpy()
        assert out.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(out, ref.astype(dtype))
    np.testing.assert_array_equal(mx.nd.amp_cast(y, dtype='float32').asnumpy(), ref)
    finite = np.isfinite(ref) & (np.abs(ref) < 1e4)
    ints = mx.nd.array(bits[finite].view(BF16), dtype=BF16).astype('int32').asnumpy()
    np.testing.assert_array_equal(ints, ref[finite].astype(np.int32))
    with np.errstate(over='ignore'):
        ref16 = ref.astype(np.float16)
    np.testing.assert_array_equal(mx.nd.array(bits.view(BF16), dtype=BF16).astype('float16')
                                  .asnumpy(), ref16)


def test_amp_multicast_bfloat16():
    a = np.array([1.0, 2.00390625, -3.3], dtype=np.float32)
    b = mx.nd.amp_cast(mx.nd.array(a), dtype='bfloat16')
    out = mx.nd.amp_multicast(b, mx.nd.array(a), num_outputs=2)
    assert out[0].dtype == np.float32 and out[1].dtype == np.float32
    np.testing.assert_array_equal(out[0].asnumpy(), np_round(a))
    narrow = mx.nd.amp_multicast(b, mx.nd.array(a), num_outputs=2, cast_narrow=True)
    assert narrow[1].dtype == BF16
    np.testing.assert_array_equal(bits_of(narrow[1]), np_bf16_bits(a))


def test_creation_ops():
    np.testing.assert_array_equal(bits_of(mx.nd.ones((2, 3), dtype='bfloat16')),
                                  np.full((2, 3), 0x3F80, np.uint16))
    np.testing.assert_array_equal(bits_of(mx.nd.zeros((4,), dtype='bfloat16')),
                                  np.zeros(4, np.uint16))
    np.testing.assert_array_equal(bits_of(mx.nd.full((3,), 1.00390625, dtype='bfloat16')),
                                  np.full(3, np_bf16_bits(np.float32(1.00390625)), np.uint16))
    np.testing.assert_array_equal(bits_of(mx.nd.full((3,), 3.3, dtype='bfloat16')),
                                  np.full(3, np_bf16_bits(np.float32(3.3)), np.uint16))
    a = mx.nd.zeros((2, 2), dtype='bfloat16')
    a[:] = 2.5
    np.testing.assert_array_equal(to_f32(a), np.full((2, 2), 2.5, np.float32))


def test_asnumpy_and_dtype_like_191():
    # 1.9.1: dtype and asnumpy() dtype are the record type [('bfloat16', '<u2')] of the bits
    a = mx.nd.amp_cast(mx.nd.array([1.5, 2.3]), dtype='bfloat16')
    assert a.dtype == BF16
    host = a.asnumpy()
    assert host.dtype == BF16
    np.testing.assert_array_equal(host.view(np.uint16), np_bf16_bits(np.float32([1.5, 2.3])))
    assert a.astype(BF16, copy=False) is a


def _rand(shape, seed, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


def _bf(x):
    return mx.nd.array(x, dtype='bfloat16')


def _fc_np(x, w, b):
    return x.reshape(x.shape[0], -1) @ w.T + b


def _softmax_np(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


NUMPY_CASES = {
    'FullyConnected': (
        [(4, 6), (5, 6), (5,)],
        lambda x, w, b: mx.nd.FullyConnected(x, w, b, num_hidden=5), _fc_np),
    'Activation_relu': ([(3, 7)], lambda x: mx.nd.Activation(x, act_type='relu'),
                        lambda x: np.maximum(x, 0)),
    'Activation_tanh': ([(3, 7)], lambda x: mx.nd.Activation(x, act_type='tanh'), np.tanh),
    'elemwise_add': ([(3, 5), (3, 5)], mx.nd.elemwise_add, np.add),
    'elemwise_mul': ([(3, 5), (3, 5)], mx.nd.elemwise_mul, np.multiply),
    'broadcast_add': ([(3, 1, 4), (1, 5, 4)], mx.nd.broadcast_add, np.add),
    'broadcast_mul': ([(3, 5), (1, 5)], mx.nd.broadcast_mul, np.multiply),
    'Concat': ([(2, 3), (2, 4)], lambda a, b: mx.nd.Concat(a, b, dim=1),
               lambda a, b: np.concatenate([a, b], axis=1)),
    'Flatten': ([(2, 3, 4)], mx.nd.Flatten, lambda x: x.reshape(2, -1)),
    'softmax': ([(3, 6)], lambda x: mx.nd.softmax(x, axis=-1), _softmax_np),
    'sum': ([(3, 6)], lambda x: mx.nd.sum(x, axis=1), lambda x: x.sum(axis=1)),
}


@pytest.mark.parametrize('name', sorted(NUMPY_CASES))
def test_op_bfloat16_matches_numpy(name):
    shapes, op, ref = NUMPY_CASES[name]
    xs = [np_round(_rand(s, i + 1, 3.0)) for i, s in enumerate(shapes)]
    out = op(*[_bf(x) for x in xs])
    assert out.dtype == BF16, name
    expected = ref(*[x.astype(np.float64) for x in xs]).astype(np.float32)
    got = to_f32(out)
    # NumPy computes in float64: the bfloat16 results agree to one bfloat16 ulp
    np.testing.assert_allclose(got, np_round(expected), rtol=2 ** -7, atol=1e-6, err_msg=name)
    # and exactly with the float32 operator on the same inputs, rounded the same way
    f32 = op(*[mx.nd.array(x) for x in xs]).asnumpy()
    np.testing.assert_array_equal(bits_of(out), np_bf16_bits(f32), err_msg=name)


F32_CASES = {
    'Convolution': (
        [(2, 3, 6, 6), (4, 3, 3, 3), (4,)],
        lambda x, w, b: mx.nd.Convolution(x, w, b, kernel=(3, 3), num_filter=4, pad=(1, 1))),
    'Pooling_max': ([(2, 3, 6, 6)], lambda x: mx.nd.Pooling(x, kernel=(2, 2), stride=(2, 2),
                                                            pool_type='max')),
    'Pooling_avg': ([(2, 3, 6, 6)], lambda x: mx.nd.Pooling(x, kernel=(3, 3), pool_type='avg')),
}


@pytest.mark.parametrize('name', sorted(F32_CASES))
def test_op_bfloat16_matches_float32_op(name):
    shapes, op = F32_CASES[name]
    xs = [np_round(_rand(s, i + 7)) for i, s in enumerate(shapes)]
    out = op(*[_bf(x) for x in xs])
    assert out.dtype == BF16
    f32 = op(*[mx.nd.array(x) for x in xs]).asnumpy()
    np.testing.assert_array_equal(bits_of(out), np_bf16_bits(f32))
    if name == 'Convolution':  # and a direct NumPy convolution
        x, w, b = xs
        xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))).astype(np.float64)
        ref = np.zeros((2, 4, 6, 6))
        for i in range(6):
            for j in range(6):
                ref[:, :, i, j] = np.einsum('ncij,fcij->nf', xp[:, :, i:i + 3, j:j + 3], w) + b
        np.testing.assert_allclose(to_f32(out), ref, rtol=2 ** -7, atol=1e-5)


def test_batchnorm_bfloat16_data_float32_params():
    x = np_round(_rand((4, 3, 5), 11, 2.0))
    gamma, beta = _rand((3,), 12) + 1.5, _rand((3,), 13)
    mean, var = _rand((3,), 14) * 0.1, np.abs(_rand((3,), 15)) + 0.5
    args = [mx.nd.array(a) for a in (gamma, beta, mean, var)]
    out = mx.nd.BatchNorm(_bf(x), *args, fix_gamma=False, use_global_stats=True)
    assert out.dtype == BF16
    ref = (x - mean[None, :, None]) / np.sqrt(var[None, :, None] + 1e-3) * \
        gamma[None, :, None] + beta[None, :, None]
    np.testing.assert_allclose(to_f32(out), np_round(ref), rtol=2 ** -7, atol=1e-5)
    # training mode: batch statistics, moving stats (float32) updated
    with autograd.record(train_mode=True):
        out = mx.nd.BatchNorm(_bf(x), *args, fix_gamma=False)
    m = x.mean(axis=(0, 2))
    v = x.var(axis=(0, 2))
    ref = (x - m[None, :, None]) / np.sqrt(v[None, :, None] + 1e-3) * \
        gamma[None, :, None] + beta[None, :, None]
    np.testing.assert_allclose(to_f32(out), ref, rtol=1e-2, atol=1e-2)


def test_nan_inf_through_ops():
    x = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
    y = mx.nd.elemwise_add(_bf(x), _bf(np.zeros(4, np.float32)))
    got = to_f32(y)
    assert np.isnan(got[0]) and got[1] == np.inf and got[2] == -np.inf and got[3] == 1.0


def test_add_to_and_inplace():
    a = np_round(_rand((5,), 21, 4.0))
    b = np_round(_rand((5,), 22, 4.0))
    x = _bf(a)
    x += _bf(b)  # in place on a bfloat16 array
    np.testing.assert_array_equal(bits_of(x), np_bf16_bits(a + b))
    # kAddTo: gradient accumulation with grad_req='add'
    w = _bf(a)
    w.attach_grad(grad_req='add')
    for _ in range(2):
        with autograd.record():
            y = w * _bf(b)
        y.backward()
    np.testing.assert_array_equal(bits_of(w.grad), np_bf16_bits(np_round(b) * 2))


def test_autograd_fullyconnected_bfloat16():
    x, w, b = (np_round(_rand(s, i + 31)) for i, s in enumerate([(4, 6), (3, 6), (3,)]))
    head = np_round(_rand((4, 3), 40))
    xs, ws, bs = _bf(x), _bf(w), _bf(b)
    for a in (xs, ws, bs):
        a.attach_grad()
    with autograd.record():
        y = mx.nd.FullyConnected(xs, ws, bs, num_hidden=3)
        z = mx.nd.Activation(y, act_type='tanh')
    z.backward(_bf(head))
    for a in (xs, ws, bs):
        assert a.grad.dtype == BF16
    # float64 reference: dz/dy = head * (1 - tanh(y)^2), on the rounded forward values
    yv = np_round(_fc_np(x, w, b))
    dy = head * (1 - np.tanh(yv.astype(np.float64)) ** 2)
    np.testing.assert_allclose(to_f32(xs.grad), dy @ w, rtol=3e-2, atol=2e-2)
    np.testing.assert_allclose(to_f32(ws.grad), dy.T @ x, rtol=3e-2, atol=2e-2)
    np.testing.assert_allclose(to_f32(bs.grad), dy.sum(axis=0), rtol=3e-2, atol=2e-2)

    # finite differences of sum(tanh(fc)) in float64 w.r.t. x
    def f(xv):
        return (head * np.tanh(_fc_np(xv, w.astype(np.float64), b))).sum()
    eps, num = 1e-4, np.zeros_like(x, dtype=np.float64)
    for idx in np.ndindex(x.shape):
        xp, xm = x.astype(np.float64), x.astype(np.float64)
        xp[idx] += eps
        xm[idx] -= eps
        num[idx] = (f(xp) - f(xm)) / (2 * eps)
    np.testing.assert_allclose(to_f32(xs.grad), num, rtol=3e-2, atol=2e-2)


def test_gradients_through_conv_pool_concat_softmax():
    x = np_round(_rand((2, 2, 4, 4), 51))
    w = np_round(_rand((3, 2, 3, 3), 52))

    def run(dtype):
        xs = mx.nd.array(x, dtype=dtype)
        ws = mx.nd.array(w, dtype=dtype)
        xs.attach_grad()
        ws.attach_grad()
        with autograd.record():
            c = mx.nd.Convolution(xs, ws, kernel=(3, 3), num_filter=3, pad=(1, 1), no_bias=True)
            p = mx.nd.Pooling(mx.nd.Activation(c, act_type='relu'), kernel=(2, 2),
                              stride=(2, 2), pool_type='max')
            cat = mx.nd.Concat(mx.nd.Flatten(p), mx.nd.Flatten(xs), dim=1)
            s = mx.nd.softmax(mx.nd.broadcast_mul(cat, cat), axis=-1)
            loss = mx.nd.sum(s * mx.nd.array(np.arange(s.shape[1]), dtype=dtype))
        loss.backward()
        return to_f32(xs.grad) if dtype != 'float32' else xs.grad.asnumpy(), \
            to_f32(ws.grad) if dtype != 'float32' else ws.grad.asnumpy()

    gx, gw = run('bfloat16')
    rx, rw = run('float32')
    scale = max(np.abs(rx).max(), np.abs(rw).max())
    np.testing.assert_allclose(gx, rx, rtol=5e-2, atol=2e-2 * scale)
    np.testing.assert_allclose(gw, rw, rtol=5e-2, atol=2e-2 * scale)


def _gluon_net():
    net = mx.gluon.nn.HybridSequential(prefix='bfnet_')
    with net.name_scope():
        net.add(mx.gluon.nn.Conv2D(4, 3, padding=1, in_channels=2),
                mx.gluon.nn.BatchNorm(in_channels=4),
                mx.gluon.nn.Activation('relu'),
                mx.gluon.nn.MaxPool2D(2),
                mx.gluon.nn.Flatten(),
                mx.gluon.nn.Dense(8, activation='relu', in_units=16),
                mx.gluon.nn.Dense(3, in_units=8))
    net.initialize()
    rng = np.random.RandomState(3)
    for _, p in sorted(net.collect_params().items()):
        if p.name.endswith('running_var'):
            p.set_data(mx.nd.array(rng.uniform(0.5, 1.5, p.shape)))
        else:
            p.set_data(mx.nd.array(rng.uniform(-1, 1, p.shape)))
    return net


@pytest.mark.parametrize('cast_optional_params', [False, True])
def test_convert_hybrid_block_bfloat16_runs(cast_optional_params):
    net = _gluon_net()
    net.hybridize()
    x = mx.nd.array(_rand((2, 2, 4, 4), 4))
    ref = net(x).asnumpy()
    conv = amp.convert_hybrid_block(net, target_dtype='bfloat16', ctx=mx.cpu(),
                                    cast_optional_params=cast_optional_params)
    out = conv(x)
    assert out.dtype == np.float32  # amp casts the result back to float32
    scale = np.abs(ref).max()
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-2, atol=2e-2 * scale)
    conv.hybridize()
    out2 = conv(x).asnumpy()
    np.testing.assert_allclose(out2, ref, rtol=1e-2, atol=2e-2 * scale)


def test_amp_init_bfloat16_imperative():
    # amp.init patches mx.nd / mx.sym in place; run in a subprocess to keep this one clean
    import subprocess
    import sys
    import os
    script = r'''
import numpy as np, mxnet as mx
from mxnet.contrib import amp
amp.init(target_dtype='bfloat16')
rng = np.random.RandomState(0)
x, w, b = (rng.uniform(-1, 1, s).astype(np.float32) for s in [(4, 6), (5, 6), (5,)])
y = mx.nd.FullyConnected(mx.nd.array(x), mx.nd.array(w), mx.nd.array(b), num_hidden=5)
assert y.dtype == np.dtype([('bfloat16', np.uint16)]), y.dtype
np.testing.assert_allclose(y.astype('float32').asnumpy(), x @ w.T + b, rtol=2e-2, atol=2e-2)
print('ok')
'''
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    env['PYTHONPATH'] = os.path.join(root, 'python')
    res = subprocess.run([sys.executable, '-c', script], env=env, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0 and 'ok' in res.stdout, res.stderr[-2000:]


def test_convert_model_symbol_binds_and_runs():
    data = mx.sym.var('data')
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name='conv')
    net = mx.sym.BatchNorm(net, fix_gamma=False, name='bn')
    net = mx.sym.Activation(net, act_type='relu')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc')
    net = mx.sym.softmax(net, axis=-1)
    arg_shapes, _, aux_shapes = net.infer_shape(data=(2, 2, 4, 4))
    rng = np.random.RandomState(8)
    args = {n: mx.nd.array(rng.uniform(-1, 1, s))
            for n, s in zip(net.list_arguments(), arg_shapes) if n != 'data'}
    aux = {n: mx.nd.array(rng.uniform(0.5, 1.5, s))
           for n, s in zip(net.list_auxiliary_states(), aux_shapes)}
    x = mx.nd.array(_rand((2, 2, 4, 4), 9))
    ref = net.bind(mx.cpu(), dict(args, data=x), aux_states=aux).forward()[0].asnumpy()
    for optional in (False, True):
        sym, cargs, caux = amp.convert_model(net, args, aux, target_dtype='bfloat16',
                                             cast_optional_params=optional)
        if optional:
            assert cargs['conv_weight'].dtype == BF16 and cargs['fc_weight'].dtype == BF16
            assert cargs['bn_gamma'].dtype == np.float32  # BatchNorm keeps float32 params
        exe = sym.bind(mx.cpu(), dict(cargs, data=x), aux_states=caux)
        out = exe.forward()[0]
        assert out.dtype == np.float32
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-2, atol=1e-2)


def test_bound_symbol_backward_bfloat16():
    x = np_round(_rand((3, 4), 61))
    w = np_round(_rand((2, 4), 62))
    sym = mx.sym.MakeLoss(mx.sym.FullyConnected(mx.sym.var('x'), mx.sym.var('w'), no_bias=True,
                                                num_hidden=2))
    exe = sym.bind(mx.cpu(), {'x': _bf(x), 'w': _bf(w)},
                   args_grad={'x': mx.nd.zeros((3, 4), dtype='bfloat16'),
                              'w': mx.nd.zeros((2, 4), dtype='bfloat16')})
    out = exe.forward(is_train=True)[0]
    assert out.dtype == BF16
    np.testing.assert_array_equal(bits_of(out), np_bf16_bits(x @ w.T))
    exe.backward()  # a loss: gradient of ones
    np.testing.assert_allclose(to_f32(exe.grad_dict['x']), np_round(np.ones((3, 2)) @ w),
                               rtol=2 ** -7)
    np.testing.assert_allclose(to_f32(exe.grad_dict['w']), np_round(np.ones((2, 3)) @ x),
                               rtol=2 ** -7)
