"""MXNET_ENABLE_CUDA_GRAPHS=1: the bulk segments of hybridized static blocks replay as CUDA
graphs. A training run with graphs must give the same losses and weights as one without them
(each run in its own process: the switch is read once), the segments must really have been
captured (MXNET_CUDA_GRAPHS_VERBOSE=1 logs it), and a segment with Dropout, whose random seeds
are host values, must not be (its masks would repeat)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))

_SCRIPT = r"""
import json, sys
import numpy as np
import mxnet as mx
from mxnet import autograd, gluon

mx.random.seed(7)
np.random.seed(7)
ctx = mx.gpu(0)
net = gluon.nn.HybridSequential()
net.add(gluon.nn.Conv2D(8, 3, padding=1, in_channels=3), gluon.nn.BatchNorm(in_channels=8),
        gluon.nn.Activation('relu'), gluon.nn.MaxPool2D(2), gluon.nn.Flatten(),
        gluon.nn.Dense(16, in_units=8 * 4 * 4))
if sys.argv[1] == 'dropout':
    net.add(gluon.nn.Dropout(0.3))
net.add(gluon.nn.Dense(4, in_units=16))
net.initialize(mx.init.Xavier(), ctx=ctx)
net.hybridize(static_alloc=True, static_shape=True)
trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.05, 'momentum': 0.9})
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
rs = np.random.RandomState(0)
losses = []
for step in range(8):
    x = mx.nd.array(rs.uniform(-1, 1, (6, 3, 8, 8)), ctx=ctx)
    y = mx.nd.array(rs.randint(0, 4, (6,)), ctx=ctx)
    with autograd.record():
        loss = loss_fn(net(x), y)
    loss.backward()
    trainer.step(6)
    losses.append(float(loss.mean().asscalar()))
inference = net(mx.nd.array(rs.uniform(-1, 1, (6, 3, 8, 8)), ctx=ctx)).asnumpy()
weights = [p.data(ctx).asnumpy().ravel().tolist() for p in net.collect_params().values()]
print('RESULT ' + json.dumps({'losses': losses, 'inference': inference.ravel().tolist(),
                               'weights': weights}))
"""


def _run(graphs, case):
    env = dict(os.environ)
    env['PYTHONPATH'] = os.path.join(ROOT, 'python') + os.pathsep + env.get('PYTHONPATH', '')
    env['MXNET_ENABLE_CUDA_GRAPHS'] = '1' if graphs else '0'
    env['MXNET_CUDA_GRAPHS_VERBOSE'] = '1'
    env['MXNET_CUDNN_AUTOTUNE_DEFAULT'] = '0'  # the same convolution algorithms in both runs
    proc = subprocess.run([sys.executable, '-c', _SCRIPT, case], env=env, cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    out = proc.stdout.decode('utf-8', 'replace')
    assert proc.returncode == 0, out[-6000:]
    line = [l for l in out.splitlines() if l.startswith('RESULT ')][-1]
    return json.loads(line[len('RESULT '):]), out


@pytest.mark.parametrize('case', ['plain', 'dropout'])
def test_cuda_graphs_train_like_direct_runs(case):
    want, _ = _run(False, case)
    got, log = _run(True, case)
    # (atomic-add reductions may sum in another order: a few ulps per step)
    np.testing.assert_allclose(got['losses'], want['losses'], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got['inference'], want['inference'], rtol=1e-4, atol=1e-5)
    for g, w in zip(got['weights'], want['weights']):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
    if case == 'plain':
        assert 'CUDA graphs: captured segment' in log, log[-6000:]
    else:
        assert "no graph for the segment holding node" in log and "Dropout" in log, log[-6000:]
