"""mx.contrib.amp: the operator lists, LossScaler, convert_symbol / convert_model /
convert_hybrid_block / convert_bucketing_module, and (in a subprocess, since it patches the
operator functions for the whole process) init, init_trainer, scale_loss and unscale."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as onp
import pytest

import mxnet as mx
from mxnet.contrib import amp


def _mlp():
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=8, name='fc1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.elemwise_add(net, mx.sym.var('skip'), name='add1')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
    return mx.sym.softmax(net, name='out')


def _ops(sym):
    return [n['op'] for n in json.loads(sym.tojson(remove_amp_cast=False))['nodes']]


def test_lists_partition_the_operators():
    for dtype in ('float16', 'bfloat16'):
        lp16, fp32 = set(amp.list_lp16_ops(dtype)), set(amp.list_fp32_ops(dtype))
        either, widest = set(amp.list_lp16_fp32_ops(dtype)), set(amp.list_widest_type_cast(dtype))
        assert 'FullyConnected' in lp16 and 'softmax' in fp32 and 'relu' in either
        assert 'broadcast_add' in widest
        assert not (lp16 & fp32) and not (lp16 & either) and not (fp32 & either)
        assert set(amp.list_loss_output_functions(dtype)) >= {'SoftmaxOutput'}
        assert ('Activation', 'act_type', ['softrelu']) in amp.list_conditional_fp32_ops(dtype)
    assert amp.list_lp16_use_fp32_params('float16') is None
    assert 'gamma' in amp.list_lp16_use_fp32_params('bfloat16')['BatchNorm']
    with pytest.raises(ValueError):
        amp.list_lp16_ops('float64')


def test_loss_scaler():
    scaler = amp.loss_scaler.LossScaler()
    assert scaler.loss_scale == 2 ** 16
    param = mx.gluon.Parameter('w', shape=(3,))
    param.initialize()
    param.grad()[:] = 1
    assert not scaler.has_overflow([param])
    scaler.launch_check_overflow([param])
    assert not scaler.wait_and_update()
    param.grad()[:] = onp.inf
    scaler.launch_check_overflow([param])
    assert scaler.wait_and_update()
    scaler.launch_check_overflow([param])
    scaler.wait_and_update()
    assert scaler.loss_scale == 2 ** 15          # halved after the overflow
    param.grad()[:] = 1
    scaler._scale_seq_len = 3
    for _ in range(4):
        scaler.launch_check_overflow([param])
        scaler.wait_and_update()
    assert scaler.loss_scale == 2 ** 14 * 2      # doubled after 3 clean steps


def test_convert_symbol_and_model():
    net = _mlp()
    converted = amp.convert_symbol(net)
    ops = _ops(converted)
    assert ops.count('amp_cast') >= 4 and 'amp_multicast' in ops
    converted = amp.convert_symbol(net, excluded_sym_names=['fc2'])
    graph = json.loads(converted.tojson(remove_amp_cast=False))
    fc2_inputs = [graph['nodes'][e[0]] for e in graph['nodes'][[n['name'] for n in
                  graph['nodes']].index('fc2')]['inputs']]
    # as in MXNet 1.9.1: the data input is cast to float32, the parameters stay as they are
    assert fc2_inputs[0]['op'] == 'amp_cast' and fc2_inputs[0]['attrs']['dtype'] == 'float32'
    assert [n['op'] for n in fc2_inputs[1:]] == ['null', 'null']
    # run it: float32 data and parameters, float16 fully connected layers
    rng = onp.random.RandomState(0)
    shapes = {'data': (4, 5), 'skip': (4, 8)}
    arg_shapes, _, _ = net.infer_shape(**shapes)
    args = {n: mx.nd.array(rng.uniform(-1, 1, s)) for n, s in zip(net.list_arguments(),
                                                                  arg_shapes)}
    params = {k: v for k, v in args.items() if k not in shapes}
    sym, arg_params, _ = amp.convert_model(net, params, {}, cast_optional_params=True)
    assert all(arg_params[k].dtype == onp.float16 for k in ('fc1_weight', 'fc2_bias'))
    inputs = dict(arg_params, data=args['data'], skip=args['skip'])
    out = sym.bind(mx.cpu(), inputs).forward()[0]
    ref = net.bind(mx.cpu(), args).forward()[0]
    assert out.dtype == onp.float32
    onp.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), atol=2e-2)
    assert not any(op == 'amp_cast' for op in _ops(mx.sym.load_json(sym.tojson())))


def test_convert_hybrid_block_and_bucketing_module():
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.Dense(6, activation='relu'), mx.gluon.nn.Dense(2))
    net.initialize()
    net.hybridize()
    x = mx.nd.random.uniform(shape=(3, 4))
    ref = net(x)
    converted = amp.convert_hybrid_block(net, ctx=mx.cpu())
    out = converted(x)
    onp.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), atol=2e-2)
    with pytest.raises(RuntimeError):
        amp.convert_hybrid_block(mx.gluon.nn.Dense(2), ctx=mx.cpu())

    def sym_gen(key):
        data = mx.sym.var('data')
        fc = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
        return mx.sym.LinearRegressionOutput(fc, mx.sym.var('lbl'), name='out'), ('data',), \
            ('lbl',)
    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=5)
    mod.bind([('data', (2, 3))], [('lbl', (2, 2))])
    mod.init_params()
    converted = amp.convert_bucketing_module(mod)
    batch = mx.io.DataBatch([mx.nd.ones((2, 3))], [mx.nd.zeros((2, 2))], bucket_key=5,
                            provide_data=[('data', (2, 3))], provide_label=[('lbl', (2, 2))])
    mod.forward(batch, is_train=False)
    converted.forward(batch, is_train=False)
    onp.testing.assert_allclose(converted.get_outputs()[0].asnumpy(),
                                mod.get_outputs()[0].asnumpy(), atol=2e-2)


_INIT_SCRIPT = textwrap.dedent('''
    import numpy as onp
    import mxnet as mx
    from mxnet.contrib import amp
    amp.init()
    x = mx.nd.random.uniform(shape=(4, 5))
    w = mx.nd.random.uniform(shape=(3, 5))
    b = mx.nd.zeros(3)
    assert mx.nd.FullyConnected(x, w, b, num_hidden=3).dtype == onp.float16
    assert mx.nd.softmax(x.astype('float16')).dtype == onp.float32
    assert mx.nd.elemwise_add(x, x.astype('float16')).dtype == onp.float32
    assert mx.nd.Activation(x.astype('float16'), act_type='softrelu').dtype == onp.float32
    assert mx.nd.Activation(x.astype('float16'), act_type='relu').dtype == onp.float16
    sym = mx.sym.FullyConnected(mx.sym.var('d'), num_hidden=3, name='fc')
    assert 'amp_cast' in sym.tojson(remove_amp_cast=False)

    net = mx.gluon.nn.Dense(2, in_units=5)
    net.initialize()
    trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
    amp.init_trainer(trainer)
    # start from a scale at which these float16 gradients do not overflow
    trainer._amp_loss_scaler._loss_scale = trainer._amp_loss_scaler._next_loss_scale = 256.0
    scale = trainer._amp_loss_scaler.loss_scale
    before = net.weight.data().asnumpy()
    with mx.autograd.record():
        loss = net(x).astype('float32').sum()
        with amp.scale_loss(loss, trainer) as scaled:
            assert abs(scaled.asscalar() - loss.asscalar() * scale) <= 1e-3 * abs(scaled.asscalar())
    scaled.backward()
    trainer.step(1)
    grad = net.weight.grad().asnumpy() / scale
    onp.testing.assert_allclose(net.weight.data().asnumpy(), before - 0.1 * grad, rtol=1e-2,
                                atol=1e-3)
    # an overflowing step is skipped and halves the scale
    with mx.autograd.record():
        loss = net(x * onp.float32(1e30)).astype('float32').sum()
        with amp.scale_loss(loss, trainer) as scaled:
            pass
    scaled.backward()
    kept = net.weight.data().asnumpy()
    trainer.step(1)
    onp.testing.assert_array_equal(net.weight.data().asnumpy(), kept)
    trainer._amp_loss_scaler.launch_check_overflow(trainer._params)
    trainer._amp_loss_scaler.wait_and_update()
    assert trainer._amp_loss_scaler.loss_scale == scale / 2
    with mx.autograd.record():
        loss = net(x).astype('float32').sum()
        with amp.scale_loss(loss, trainer) as scaled:
            pass
    scaled.backward()
    raw = net.weight.grad().asnumpy()
    amp.unscale(trainer)
    onp.testing.assert_allclose(net.weight.grad().asnumpy(), raw * trainer._amp_original_scale
                                / trainer._amp_loss_scaler.loss_scale, rtol=1e-5)
    assert trainer._scale == 1.0
    print('AMP-OK')
''')


def test_init_and_trainer_in_subprocess():
    env = dict(os.environ)
    result = subprocess.run([sys.executable, '-c', _INIT_SCRIPT], env=env,
                            capture_output=True, text=True, timeout=300)
    assert 'AMP-OK' in result.stdout, result.stdout + result.stderr
