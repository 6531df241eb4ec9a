"""Peak memory of the imperative deep-MLP training step against its live-data floor.

    PYTHONPATH=python python3 benchmark/python/memory_floor.py [--python other/python ...] [--repeats 3]

The workload is the bench suite's `memdelta_deep_imp` (../shared/bench/bench_mx.py): 20 hidden
FullyConnected(1024)+relu layers and a 10-way output, batch 256, autograd.record + backward +
sgd_mom_update for every parameter, 20 steps; the figure is peak RSS minus the RSS before the
model is built.

No implementation can go below the live-data floor of that step: weights, their gradients and
momenta (all persistent, all written every step), the input batch, and the 20 relu outputs that
backward reads (each is both the relu's output and the next layer's input). The script prints the
floor, the measured delta (median and range over the repeats) and the overhead over the floor,
for each interpreter given (for example the real MXNet 1.9.1's venv), each run in a fresh process.
The delta of an asynchronous engine depends on how far Python runs ahead of the workers, so it
varies from run to run.

It also measures the delta with `numpy.random` imported before the baseline. NumPy 2.x loads
numpy.random lazily (about 6 MiB), so the bench's `np.random.RandomState` call lands inside the
measured window with NumPy 2.x and outside it with NumPy 1.x, whose `import numpy` loads it.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

WORKER = r'''
import json, os, resource, sys
preload = sys.argv[1] == '1'
import numpy as np
import mxnet as mx
random_loaded_at_import = 'numpy.random' in sys.modules
a = mx.nd.ones((2, 2))
(a + a).wait_to_read()
if preload:
    import numpy.random

def rss_mib():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE') / 2.0 ** 20

IN_DIM, HIDDEN, LAYERS, CLASSES, BATCH, STEPS = 1024, 1024, 20, 10, 256, 20
shapes = []
fan_in = IN_DIM
for n in [HIDDEN] * LAYERS + [CLASSES]:
    shapes += [(n, fan_in), (n,)]
    fan_in = n

rss0 = rss_mib()
rs = np.random.RandomState(0)
x = mx.nd.array(rs.rand(BATCH, IN_DIM).astype(np.float32))
y = mx.nd.array(rs.randint(0, CLASSES, BATCH).astype(np.float32))
params = []
for s in shapes:
    if len(s) == 1:
        params.append(mx.nd.zeros(s))
    else:
        r = (6.0 / (s[0] + s[1])) ** 0.5
        params.append(mx.nd.random.uniform(-r, r, shape=s))
for p in params:
    p.attach_grad()
moms = [mx.nd.zeros(s) for s in shapes]
for _ in range(STEPS):
    with mx.autograd.record():
        h = x
        for i in range(LAYERS + 1):
            h = mx.nd.FullyConnected(h, params[2 * i], params[2 * i + 1], num_hidden=shapes[2 * i][0])
            if i < LAYERS:
                h = mx.nd.relu(h)
        loss = -mx.nd.pick(mx.nd.log_softmax(h), y).mean()
    loss.backward()
    for p, m in zip(params, moms):
        mx.nd.sgd_mom_update(p, p.grad, m, out=p, lr=0.01, momentum=0.9, wd=0.0,
                             rescale_grad=1.0 / BATCH)
mx.nd.waitall()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0

param_bytes = sum(4 * int(np.prod(s)) for s in shapes)
floor = (3 * param_bytes + 4 * BATCH * IN_DIM + 4 * BATCH + LAYERS * 4 * BATCH * HIDDEN) / 2.0 ** 20
print(json.dumps({'numpy': np.__version__, 'mxnet': os.path.dirname(mx.__file__),
                  'numpy_random_at_import': random_loaded_at_import,
                  'delta_mib': peak - rss0, 'floor_mib': floor}))
'''


def run(python, preload, env):
    out = subprocess.run([python, '-c', WORKER, '1' if preload else '0'], check=True,
                         capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--python', action='append', default=[],
                        help='another interpreter to measure, with its own mxnet: it runs without '
                             'PYTHONPATH (repeatable)')
    parser.add_argument('--repeats', type=int, default=3, help='fresh processes per variant')
    args = parser.parse_args()
    others = dict(os.environ)
    others.pop('PYTHONPATH', None)
    runs = [(sys.executable, dict(os.environ))] + [(py, others) for py in args.python]
    print('| python | mxnet package | numpy | numpy.random at import | delta (MiB) | delta, numpy.random '
          'preloaded (MiB) | live-data floor (MiB) | overhead over floor (MiB) |')
    print('|---|---|---|---|---:|---:|---:|---:|')

    def summary(values):
        return '%.1f (%.1f-%.1f)' % (statistics.median(values), min(values), max(values))

    for py, env in runs:
        plain = [run(py, False, env) for _ in range(args.repeats)]
        preloaded = [run(py, True, env)['delta_mib'] for _ in range(args.repeats)]
        first, floor = plain[0], plain[0]['floor_mib']
        print('| %s | %s | %s | %s | %s | %s | %.1f | %.1f |' % (
            py, first['mxnet'], first['numpy'], first['numpy_random_at_import'],
            summary([r['delta_mib'] for r in plain]), summary(preloaded), floor,
            statistics.median(preloaded) - floor))


if __name__ == '__main__':
    main()
