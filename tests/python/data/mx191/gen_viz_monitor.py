"""Writes viz_summary.json: MXNet 1.9.1 references for mx.viz.print_summary and mx.mon.Monitor
names, read by test_visualization.py. Run it as refgen.py says.

viz_summary.json: {case: {"symbol": json, "shape": {...} or null, "kwargs": {...},
"text": printed table}} and "monitor_names": {case: [names]} for a forward+backward pass.
"""
import contextlib
import io
import json
import os

import mxnet as mx
import numpy as np

import refgen


def mlp():
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=128, name='fc1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(net, num_hidden=64, name='fc2')
    net = mx.sym.Activation(net, act_type='relu', name='relu2')
    net = mx.sym.FullyConnected(net, num_hidden=10, name='fc3')
    return mx.sym.SoftmaxOutput(net, name='softmax')


def lenet():
    data = mx.sym.var('data')
    net = mx.sym.Convolution(data, kernel=(5, 5), num_filter=20, name='conv1')
    net = mx.sym.Activation(net, act_type='tanh', name='tanh1')
    net = mx.sym.Pooling(net, pool_type='max', kernel=(2, 2), stride=(2, 2), name='pool1')
    net = mx.sym.Convolution(net, kernel=(5, 5), num_filter=50, name='conv2')
    net = mx.sym.BatchNorm(net, name='bn2')
    net = mx.sym.Activation(net, act_type='tanh', name='tanh2')
    net = mx.sym.Pooling(net, pool_type='max', kernel=(2, 2), stride=(2, 2), name='pool2')
    net = mx.sym.Flatten(net, name='flatten')
    net = mx.sym.FullyConnected(net, num_hidden=500, name='fc1')
    net = mx.sym.Activation(net, act_type='tanh', name='tanh3')
    net = mx.sym.Dropout(net, p=0.5, name='drop')
    net = mx.sym.FullyConnected(net, num_hidden=10, name='fc2', no_bias=True)
    net = mx.sym.elemwise_add(net, net, name='plus')
    return mx.sym.SoftmaxOutput(net, name='softmax')


def two_inputs():
    a = mx.sym.var('a')
    b = mx.sym.var('b')
    net = mx.sym.Convolution(a, kernel=(3, 3), num_filter=4, num_group=2, no_bias=True,
                             name='gconv')
    net = mx.sym.Flatten(net, name='flat')
    net = mx.sym.Concat(net, b, dim=1, name='cat')
    net = mx.sym.Embedding(net, input_dim=7, output_dim=3, name='emb')
    return mx.sym.sum(net, name='total')


def bn_mlp():
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=5, name='fc1')
    net = mx.sym.Activation(net, act_type='relu', name='relu1')
    net = mx.sym.FullyConnected(net, num_hidden=3, name='fc2')
    net = mx.sym.BatchNorm(net, name='bn')
    return mx.sym.SoftmaxOutput(net, name='softmax')


CASES = {
    'mlp': (mlp, {'data': (32, 784)}, {}),
    'mlp_noshape': (mlp, None, {}),
    'lenet': (lenet, {'data': (8, 1, 28, 28)}, {}),
    'lenet_narrow': (lenet, {'data': (8, 1, 28, 28)},
                     {'line_length': 100, 'positions': [.3, .6, .8, 1.]}),
    'lenet_absolute': (lenet, {'data': (8, 1, 28, 28)},
                       {'line_length': 80, 'positions': [20, 45, 60, 80]}),
    'two_inputs': (two_inputs, {'a': (2, 4, 6, 6), 'b': (2, 5)}, {}),
}


def generate(out_dir):
    refs = {}
    for name, (build, shape, kwargs) in CASES.items():
        sym = build()
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            mx.viz.print_summary(sym, shape=shape, **kwargs)
        refs[name] = {'symbol': sym.tojson(), 'shape': shape, 'kwargs': kwargs,
                      'text': buf.getvalue()}
    sym = bn_mlp()
    exe = sym.simple_bind(mx.cpu(), data=(4, 6))
    for i, arr in enumerate(exe.arg_arrays):
        arr[:] = np.linspace(-1, 1, arr.size).reshape(arr.shape) * (i + 1)
    mon = mx.mon.Monitor(1)
    mon.install(exe)
    mon.tic()
    exe.forward(is_train=True)
    exe.backward()
    monitor = {'bn_mlp': {'symbol': sym.tojson(), 'names': [r[1] for r in mon.toc()]}}
    with open(os.path.join(out_dir, 'viz_summary.json'), 'w') as f:
        json.dump({'print_summary': refs, 'monitor_names': monitor}, f, indent=1)


if __name__ == '__main__':
    refgen.main(generate)
