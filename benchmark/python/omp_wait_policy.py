"""OpenMP wait policy: libgomp's own default (spin 300000 times, then sleep: "spin" below) against
the PASSIVE policy that `import mxnet` sets when the user chose none (python/mxnet/base.py), on an
idle machine and with busy-loop processes competing for the cores.

    PYTHONPATH=python python3 benchmark/python/omp_wait_policy.py [--load 0,2] [--seconds 3]

Each (policy, load) pair runs in a fresh process, because libgomp reads the policy once, when it
is loaded. Workloads: a 3-layer MLP training step on a bound executor (batch 64, 784-512-512-10),
a LeNet-style conv net training step, and hybridized DenseNet-121 inference (batch 1, 224x224).
Prints the median time per step (ms) of each.
"""
import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import time

WORKER = r'''
import json, sys, time
import numpy as np
import mxnet as mx
seconds = float(sys.argv[1])

def median_ms(step):
    step(); mx.nd.waitall()
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(times) < 5:
        t = time.perf_counter(); step(); mx.nd.waitall()
        times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times))

def train_step(sym, shapes):
    ex = sym.simple_bind(mx.cpu(), **shapes)
    for k, a in ex.arg_dict.items():
        a[:] = np.random.uniform(-0.1, 0.1, a.shape) if k != 'softmax_label' else 1
    def step():
        ex.forward(is_train=True); ex.backward()
    return step

x = mx.sym.Variable('data')
h = x
for i in range(2):
    h = mx.sym.Activation(mx.sym.FullyConnected(h, num_hidden=512), act_type='relu')
mlp = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(h, num_hidden=10), name='softmax')
c = mx.sym.Pooling(mx.sym.relu(mx.sym.Convolution(x, kernel=(5, 5), num_filter=20)),
                   kernel=(2, 2), stride=(2, 2), pool_type='max')
c = mx.sym.Pooling(mx.sym.relu(mx.sym.Convolution(c, kernel=(5, 5), num_filter=50)),
                   kernel=(2, 2), stride=(2, 2), pool_type='max')
c = mx.sym.FullyConnected(mx.sym.relu(mx.sym.FullyConnected(c, num_hidden=500)), num_hidden=10)
lenet = mx.sym.SoftmaxOutput(c, name='softmax')
from mxnet.gluon.model_zoo import vision
net = vision.densenet121()
net.initialize()
net.hybridize()
img = mx.nd.ones((1, 3, 224, 224))
print(json.dumps({
    'mlp_train_ms': median_ms(train_step(mlp, {'data': (64, 784), 'softmax_label': (64,)})),
    'lenet_train_ms': median_ms(train_step(lenet, {'data': (64, 1, 28, 28),
                                                   'softmax_label': (64,)})),
    'densenet121_infer_ms': median_ms(lambda: net(img)),
}))
'''


def busy_loop():
    while True:
        pass


def run(policy, seconds):
    env = dict(os.environ)
    env.pop('GOMP_SPINCOUNT', None)
    env.pop('OMP_WAIT_POLICY', None)
    if policy == 'spin':
        # libgomp's own default. An empty value is ignored by libgomp (it warns once on stderr)
        # and keeps `import mxnet` from choosing PASSIVE.
        env['OMP_WAIT_POLICY'] = ''
    else:
        env['OMP_WAIT_POLICY'] = policy
    out = subprocess.run([sys.executable, '-c', WORKER, str(seconds)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--load', default='0,2', help='busy-loop processes to run beside, per row')
    ap.add_argument('--seconds', type=float, default=3.0, help='time per workload')
    args = ap.parse_args()
    print('%-8s %-8s %14s %15s %22s' % ('load', 'policy', 'mlp_train_ms', 'lenet_train_ms',
                                         'densenet121_infer_ms'))
    for load in [int(v) for v in args.load.split(',')]:
        hogs = [multiprocessing.Process(target=busy_loop, daemon=True) for _ in range(load)]
        for h in hogs:
            h.start()
        try:
            for policy in ('spin', 'PASSIVE'):
                r = run(policy, args.seconds)
                print('%-8d %-8s %14.2f %15.2f %22.2f' % (load, policy, r['mlp_train_ms'],
                                                         r['lenet_train_ms'],
                                                         r['densenet121_infer_ms']))
                sys.stdout.flush()
        finally:
            for h in hogs:
                h.terminate()
            time.sleep(0.5)


if __name__ == '__main__':
    main()
