"""Speed of the fused RNN operator through gluon.rnn.LSTM / GRU layers (float32, CPU).

    PYTHONPATH=python python3 benchmark/python/rnn_speed.py [--cells lstm,gru] [--seconds 3]
    PYTHONPATH=python python3 benchmark/python/rnn_speed.py \
        --python python3,"$MXNET_REFERENCE_PYTHON"

Each case (cell, forward-only or forward+backward) runs in the interpreter named by --python
(default: this one; several may be given, comma-separated, and are then run alternately, --rounds
times, because the machine is shared and noisy). Prints the median ms per step of every run.
An interpreter may carry its own environment: `python3@MXNET_RNN_FAST=0` runs this build's plain
fallback (the implementation before the fast kernels), e.g.

    python3 benchmark/python/rnn_speed.py \
        --python python3,python3@MXNET_RNN_FAST=0,"$MXNET_REFERENCE_PYTHON"
Default shape: hidden 256, 2 layers, T=35, N=32, input 256 (the word language model's).
--env NAME=VALUE (repeatable) sets variables for the child runs, e.g. MXNET_USE_DNNL_RNN=0 for
this build's plain fallback path.
"""
import argparse
import json
import os
import subprocess
import sys

WORKER = r'''
import json, sys, time
import numpy as np
import mxnet as mx
from mxnet import autograd, gluon
cell, mode, T, N, I, H, L, bidir, seconds, hybridize = sys.argv[1:11]
T, N, I, H, L, seconds = int(T), int(N), int(I), int(H), int(L), float(seconds)
bidir, hybridize = bidir == '1', hybridize == '1'
layer_cls = {'lstm': gluon.rnn.LSTM, 'gru': gluon.rnn.GRU}[cell]
net = layer_cls(H, num_layers=L, bidirectional=bidir, input_size=I)
net.initialize(mx.init.Uniform(0.1))
if hybridize:
    net.hybridize(static_alloc=True, static_shape=True)
x = mx.nd.array(np.random.uniform(-1, 1, (T, N, I)).astype('float32'))
x.attach_grad()

def step():
    if mode == 'fwd':
        out = net(x)
        out.wait_to_read()
    else:
        with autograd.record():
            out = net(x)
            loss = out.sum()
        loss.backward()
        x.grad.wait_to_read()

for _ in range(3):
    step()
mx.nd.waitall()
times = []
end = time.perf_counter() + seconds
while time.perf_counter() < end or len(times) < 5:
    t = time.perf_counter(); step(); mx.nd.waitall()
    times.append((time.perf_counter() - t) * 1e3)
print(json.dumps({'ms': float(np.median(times)), 'steps': len(times)}))
'''


def run(spec, env_extra, pythonpath, args, cell, mode):
    python, *own_env = spec.split('@')
    env = dict(os.environ)
    env.update(env_extra)
    env.update(kv.split('=', 1) for kv in own_env)
    if pythonpath:
        env['PYTHONPATH'] = pythonpath
    else:
        env.pop('PYTHONPATH', None)  # the mx191 venv must import its own mxnet
    cmd = [python, '-c', WORKER, cell, mode, str(args.T), str(args.N), str(args.input),
           str(args.hidden), str(args.layers), '1' if args.bidirectional else '0',
           str(args.seconds), '1' if args.hybridize else '0']
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        return 'error: ' + out.stderr.strip().splitlines()[-1]
    return json.loads(out.stdout.strip().splitlines()[-1])['ms']


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--python', default=sys.executable,
                    help='interpreter(s), comma-separated; an interpreter outside this tree runs '
                         'without PYTHONPATH (e.g. the mx191 venv)')
    ap.add_argument('--cells', default='lstm,gru')
    ap.add_argument('--modes', default='fwd,fwdbwd')
    ap.add_argument('--T', type=int, default=35)
    ap.add_argument('--N', type=int, default=32)
    ap.add_argument('--input', type=int, default=256)
    ap.add_argument('--hidden', type=int, default=256)
    ap.add_argument('--layers', type=int, default=2)
    ap.add_argument('--bidirectional', action='store_true')
    ap.add_argument('--hybridize', action='store_true')
    ap.add_argument('--seconds', type=float, default=3.0)
    ap.add_argument('--rounds', type=int, default=2)
    ap.add_argument('--env', action='append', default=[], help='NAME=VALUE for the child runs')
    args = ap.parse_args()
    env_extra = dict(kv.split('=', 1) for kv in args.env)
    here = os.path.dirname(os.path.abspath(__file__))
    tree_python = os.path.normpath(os.path.join(here, '..', '..', 'python'))
    pythons = args.python.split(',')
    print('shape: T=%d N=%d input=%d hidden=%d layers=%d bidirectional=%s hybridize=%s'
          % (args.T, args.N, args.input, args.hidden, args.layers, args.bidirectional,
             args.hybridize))
    for cell in args.cells.split(','):
        for mode in args.modes.split(','):
            results = {p: [] for p in pythons}
            for _ in range(args.rounds):
                for p in pythons:  # alternate between interpreters
                    own = 'mx191' not in p
                    results[p].append(run(p, env_extra, tree_python if own else None, args,
                                          cell, mode))
            for p in pythons:
                label = 'mx191' if 'mx191' in p else 'this build'
                if '@' in p:
                    label += ' ' + ' '.join(p.split('@')[1:])
                vals = ', '.join(v if isinstance(v, str) else '%.1f' % v for v in results[p])
                print('%-5s %-7s %-28s ms/step: %s' % (cell, mode, label, vals))


if __name__ == '__main__':
    main()
