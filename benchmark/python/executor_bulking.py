"""Executor op bulking: a bound executor of many tiny nodes, forward+backward, with bulking on
(MXNet 1.x's default) and off (MXNET_EXEC_BULK_EXEC_TRAIN=0).

    PYTHONPATH=python python3 benchmark/python/executor_bulking.py [--nodes 100] [--steps 300]

The chain is `nodes` times tanh(x) * 1.01 on a 4x4 array, so the time is engine overhead: one
dependency check and one worker hand-off per engine operator. Each setting runs in a fresh
process (the setting is read at bind). Prints the median microseconds per step.
"""
import argparse
import os
import subprocess
import sys

WORKER = r'''
import sys, time
import numpy as np
import mxnet as mx
nodes, steps = int(sys.argv[1]), int(sys.argv[2])
x = mx.sym.Variable('x')
y = x
for _ in range(nodes):
    y = mx.sym.tanh(y) * 1.01
ex = y.simple_bind(mx.cpu(), x=(4, 4), grad_req='write')
ex.arg_dict['x'][:] = 0.5
head = mx.nd.ones((4, 4))
times = []
for i in range(steps + 20):
    t = time.perf_counter()
    ex.forward(is_train=True)
    ex.backward(head)
    mx.nd.waitall()
    if i >= 20:
        times.append(time.perf_counter() - t)
print(np.median(times) * 1e6)
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--nodes', type=int, default=100)
    ap.add_argument('--steps', type=int, default=300)
    args = ap.parse_args()
    for label, bulk in (('unbulked', '0'), ('bulked', '1')):
        env = dict(os.environ, MXNET_EXEC_BULK_EXEC_TRAIN=bulk)
        out = subprocess.run([sys.executable, '-c', WORKER, str(args.nodes), str(args.steps)],
                             env=env, capture_output=True, text=True, check=True)
        print('%-9s %8.1f us/step (%d forward nodes)' % (label, float(out.stdout.split()[-1]),
                                                        2 * args.nodes))


if __name__ == '__main__':
    main()
