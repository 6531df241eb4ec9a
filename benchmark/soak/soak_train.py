#!/usr/bin/env python3
"""Soak test of training: many steps of a 784-128-10 MLP through each training front end,
watching resident memory, open file descriptors and threads for growth.

    PYTHONPATH=python python3 benchmark/soak/soak_train.py [--steps 10000] [--max-slope 100]

Front ends (--modes, comma-separated; all by default):
  module        mx.mod.Module: forward_backward + update
  gluon         gluon.nn.HybridSequential + Trainer, not hybridized
  gluon-hybrid  the same, hybridized (a cached graph)
  autograd      plain NDArrays with attach_grad, autograd.record, backward, sgd_update

Data: the bundled MNIST subset (data/mnist-5k, 4,000 training images, batch 64), or
--random-data. After --warmup steps the process's RSS, open fds and threads are sampled every
--sample-every steps (after mx.nd.waitall()); the RSS slope is a least-squares fit against the
step. Exits 1 if a slope exceeds --max-slope KiB per 1,000 steps or fds/threads grew.
"""
import argparse
import gzip
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak_common import Samples, report  # noqa: E402

import mxnet as mx  # noqa: E402
from mxnet import autograd, gluon  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
MODES = ('module', 'gluon', 'gluon-hybrid', 'autograd')
HIDDEN, CLASSES, LR = 128, 10, 0.1


def load_mnist(data_dir):
    """The training images (N x 784 float32 in [0, 1]) and labels of an idx data set."""
    def read(name, offset):
        with gzip.open(os.path.join(data_dir, name), 'rb') as f:
            return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)
    labels = read('train-labels-idx1-ubyte.gz', 8).astype(np.float32)
    images = read('train-images-idx3-ubyte.gz', 16).reshape(len(labels), 784)
    return images.astype(np.float32) / 255, labels


def make_batches(args):
    """A list of (data, label) NDArray batches, cycled through by every front end."""
    if args.random_data:
        rng = np.random.RandomState(0)
        x = rng.uniform(0, 1, (4000, 784)).astype(np.float32)
        y = rng.randint(0, CLASSES, 4000).astype(np.float32)
    else:
        x, y = load_mnist(args.data_dir)
    n = len(y) // args.batch_size
    return [(mx.nd.array(x[i * args.batch_size:(i + 1) * args.batch_size]),
             mx.nd.array(y[i * args.batch_size:(i + 1) * args.batch_size])) for i in range(n)]


def module_step_fn(batches):
    data = mx.sym.Variable('data')
    net = mx.sym.FullyConnected(data, num_hidden=HIDDEN, name='fc1')
    net = mx.sym.Activation(net, act_type='relu')
    net = mx.sym.FullyConnected(net, num_hidden=CLASSES, name='fc2')
    net = mx.sym.SoftmaxOutput(net, name='softmax')
    mod = mx.mod.Module(net, data_names=['data'], label_names=['softmax_label'])
    x, y = batches[0]
    mod.bind(data_shapes=[('data', x.shape)], label_shapes=[('softmax_label', y.shape)])
    mod.init_params(mx.init.Xavier())
    mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': LR})
    dbatches = [mx.io.DataBatch(data=[x], label=[y]) for x, y in batches]

    def step(i):
        mod.forward_backward(dbatches[i % len(dbatches)])
        mod.update()

    def loss():
        x, y = batches[0]
        mod.forward(mx.io.DataBatch(data=[x], label=[y]), is_train=False)
        p = mod.get_outputs()[0].asnumpy()
        return float(-np.log(p[np.arange(len(y)), y.asnumpy().astype(int)] + 1e-12).mean())
    return step, loss


def gluon_step_fn(batches, hybridize):
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(HIDDEN, activation='relu'), gluon.nn.Dense(CLASSES))
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': LR})

    def step(i):
        x, y = batches[i % len(batches)]
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(x.shape[0])

    def loss():
        x, y = batches[0]
        return float(loss_fn(net(x), y).mean().asscalar())
    return step, loss


def autograd_step_fn(batches):
    rng = np.random.RandomState(1)
    params = [mx.nd.array(rng.normal(0, 0.05, shape)) for shape in
              ((HIDDEN, 784), (HIDDEN,), (CLASSES, HIDDEN), (CLASSES,))]
    for p in params:
        p.attach_grad()
    w1, b1, w2, b2 = params

    def forward(x):
        h = mx.nd.relu(mx.nd.FullyConnected(x, w1, b1, num_hidden=HIDDEN))
        return mx.nd.FullyConnected(h, w2, b2, num_hidden=CLASSES)

    def xent(x, y):
        return -mx.nd.pick(mx.nd.log_softmax(forward(x)), y).mean()

    def step(i):
        x, y = batches[i % len(batches)]
        with autograd.record():
            loss = xent(x, y)
        loss.backward()
        for p in params:
            mx.nd.sgd_update(p, p.grad, lr=LR, out=p)

    def loss():
        x, y = batches[0]
        return float(xent(x, y).asscalar())
    return step, loss


def run_mode(mode, batches, args):
    if mode == 'module':
        step, loss = module_step_fn(batches)
    elif mode == 'autograd':
        step, loss = autograd_step_fn(batches)
    else:
        step, loss = gluon_step_fn(batches, hybridize=mode == 'gluon-hybrid')
    samples = Samples(mode, args.warmup, args.sample_every)
    first = loss()
    start = time.perf_counter()
    for i in range(args.steps):
        step(i)
        samples.maybe_sample(i, mx.nd.waitall)
    mx.nd.waitall()
    took = time.perf_counter() - start
    print('%-13s %6d steps in %6.1f s (%.2f ms/step), loss %.3f -> %.3f'
          % (mode, args.steps, took, took / args.steps * 1e3, first, loss()), flush=True)
    return samples


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--steps', type=int, default=10000, help='training steps per front end')
    parser.add_argument('--warmup', type=int, help='steps before the first sample '
                        '(default: a fifth of --steps, at most 1,000)')
    parser.add_argument('--sample-every', type=int,
                        help='steps between samples (default: 50 samples after the warm-up)')
    parser.add_argument('--max-slope', type=float, default=100.0,
                        help='largest RSS growth allowed, KiB per 1,000 steps')
    parser.add_argument('--modes', default=','.join(MODES),
                        help='comma-separated front ends: ' + ', '.join(MODES))
    parser.add_argument('--batch-size', type=int, default=64)
    parser.add_argument('--data-dir', default=os.path.join(REPO, 'data', 'mnist-5k'))
    parser.add_argument('--random-data', action='store_true',
                        help='random images and labels instead of MNIST')
    args = parser.parse_args(argv)
    if args.warmup is None:
        args.warmup = min(1000, args.steps // 5)
    if args.sample_every is None:
        args.sample_every = max(1, (args.steps - args.warmup) // 50)
    args.modes = [m for m in args.modes.split(',') if m]
    unknown = set(args.modes) - set(MODES)
    if unknown:
        parser.error('unknown modes: %s' % ', '.join(sorted(unknown)))
    return args


def main(argv=None):
    args = parse_args(argv)
    batches = make_batches(args)
    print('%d steps per front end, warm-up %d, a sample every %d steps, batch %d (%s)'
          % (args.steps, args.warmup, args.sample_every, args.batch_size,
             'random data' if args.random_data else args.data_dir), flush=True)
    all_samples = [run_mode(mode, batches, args) for mode in args.modes]
    print()
    failures = report(all_samples, args.max_slope, unit='steps')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
