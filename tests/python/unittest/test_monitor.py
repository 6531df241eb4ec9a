"""mx.mon.Monitor: fires once per node output (and input with monitor_all) with MXNet 1.9.1's
names; the default statistic equals NumPy's norm(x)/sqrt(size) of the tensors."""
import logging
import math

import numpy as np
import pytest

import mxnet as mx


def _mlp(with_bn=False):
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=5, name='fc1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
    if with_bn:
        net = mx.sym.BatchNorm(net, name='bn')
    return mx.sym.SoftmaxOutput(net, name='softmax')


def _bind(sym, seed=0):
    exe = sym.simple_bind(mx.cpu(), data=(4, 6))
    rng = np.random.RandomState(seed)
    for name, arr in zip(sym.list_arguments(), exe.arg_arrays):
        if name == 'softmax_label':
            arr[:] = rng.randint(0, 3, size=arr.shape)
        else:
            arr[:] = rng.uniform(-1, 1, size=arr.shape)
    return exe


def _rms(x):
    x = np.asarray(x, dtype=np.float64)
    return np.linalg.norm(x.ravel()) / math.sqrt(x.size)


def _stats(res):
    return {name: float(text.strip()) for _, name, text in res}


def test_forward_stats_equal_numpy_norms():
    sym = _mlp()
    exe = _bind(sym)
    mon = mx.mon.Monitor(1)
    mon.install(exe)
    mon.tic()
    exe.forward(is_train=False)
    res = mon.toc()
    args = {n: a.asnumpy() for n, a in zip(sym.list_arguments(), exe.arg_arrays)}
    fc1 = args['data'] @ args['fc1_weight'].T + args['fc1_bias']
    relu = np.maximum(fc1, 0)
    fc2 = relu @ args['fc2_weight'].T + args['fc2_bias']
    e = np.exp(fc2 - fc2.max(axis=1, keepdims=True))
    soft = e / e.sum(axis=1, keepdims=True)
    expected = {'fc1_output': fc1, 'relu1_output': relu, 'fc2_output': fc2,
                'softmax_output': soft}
    expected.update(args)
    got = _stats(res)
    # outputs in execution order, then arguments in list_arguments order (as 1.9.1)
    assert [r[1] for r in res] == ['fc1_output', 'relu1_output', 'fc2_output',
                                   'softmax_output'] + sym.list_arguments()
    assert all(r[0] == 1 for r in res)
    for name, value in expected.items():
        assert got[name] == pytest.approx(_rms(value), rel=1e-5), name


def test_names_match_mxnet_191_with_hidden_and_backward_outputs():
    sym = _mlp(with_bn=True)
    exe = _bind(sym)
    mon = mx.mon.Monitor(1, pattern='.*output.*')
    mon.install(exe)
    mon.tic()
    exe.forward(is_train=True)
    exe.backward()
    names = [r[1] for r in mon.toc()]
    # recorded with MXNet 1.9.1 for this network (pattern keeps op outputs only)
    assert names == ['fc1_output', 'relu1_output', 'fc2_output', 'bn_output', 'softmax_output',
                     'softmax_backward_output0', 'softmax_backward_output1',
                     'bn_backward_output0', 'bn_backward_output1', 'bn_backward_output2',
                     'fc2_backward_output0', 'fc2_backward_output1', 'fc2_backward_output2',
                     'relu1_backward_output', 'fc1_backward_output0', 'fc1_backward_output1',
                     'fc1_backward_output2']
    mon = mx.mon.Monitor(1, pattern='bn_(mean|var)')
    mon.install(exe)
    mon.tic()
    exe.forward(is_train=True)
    assert [r[1] for r in mon.toc()] == ['bn_mean', 'bn_var']


def test_monitor_all_reports_inputs():
    sym = _mlp()
    exe = _bind(sym)
    mon = mx.mon.Monitor(1, monitor_all=True, pattern='fc1_.*|data')
    mon.install(exe)
    mon.tic()
    exe.forward(is_train=False)
    res = mon.toc()
    # 1.9.1: a variable input is reported under its own name, then as <node>_<input>
    assert [r[1] for r in res][:7] == ['data', 'fc1_data', 'fc1_weight', 'fc1_weight',
                                       'fc1_bias', 'fc1_bias', 'fc1_output']
    args = {n: a.asnumpy() for n, a in zip(sym.list_arguments(), exe.arg_arrays)}
    got = _stats(res)
    assert got['fc1_weight'] == pytest.approx(_rms(args['fc1_weight']), rel=1e-5)


def test_interval_sort_custom_stat_and_print(caplog):
    sym = _mlp()
    exe = _bind(sym)
    mon = mx.mon.Monitor(2, stat_func=lambda x: mx.nd.max(x).reshape((1,)), pattern='.*output',
                         sort=True)
    mon.install(exe)
    collected = []
    for _ in range(4):
        mon.tic()
        exe.forward(is_train=False)
        collected.append(mon.toc())
    assert [len(c) > 0 for c in collected] == [True, False, True, False]
    assert [r[1] for r in collected[0]] == sorted(r[1] for r in collected[0])
    out = exe.outputs[0].asnumpy()
    assert _stats(collected[2])['softmax_output'] == pytest.approx(out.max(), rel=1e-6)
    with caplog.at_level(logging.INFO):
        mon.tic()
        exe.forward(is_train=False)
        mon.toc_print()
    assert any('Batch:       5 softmax_output' in r.getMessage() for r in caplog.records)


def test_bad_stat_func():
    exe = _bind(_mlp())
    mon = mx.mon.Monitor(1, stat_func=lambda x: 3.0)
    mon.install(exe)
    mon.tic()
    exe.forward(is_train=False)
    with pytest.raises(TypeError, match='stat_func'):
        mon.toc()
