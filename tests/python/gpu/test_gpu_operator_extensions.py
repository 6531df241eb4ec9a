"""Extension libraries with GPU operators: the project's copy of MXNet 1.9's
example/extensions/lib_custom_op/relu_lib.cu is built with nvcc against include/mxnet/lib_api.h
unchanged, loaded (in a child process: relu_lib.cc's operators have the same names), and its
operators run on the device under test against NumPy, gradients (grad_req 'write' and 'add')
included, and my_noisy_relu's random states follow mx.random.seed. A CUDA build registers their GPU kernels (checked without a GPU too)."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mxnet as mx

from gpu_util import DEV

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
NVCC = shutil.which('nvcc') or ('/usr/local/cuda/bin/nvcc'
                                if os.path.exists('/usr/local/cuda/bin/nvcc') else None)

pytestmark = pytest.mark.skipif(NVCC is None, reason='nvcc is not installed')

_CHILD = r"""
import json, sys
import numpy as np
import mxnet as mx
from mxnet import autograd

mx.library.load(sys.argv[1], verbose=False)
dev = mx.gpu(int(sys.argv[3])) if sys.argv[2] == 'gpu' else mx.cpu(int(sys.argv[3]))
x_np = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
result = {'gpu_ops': sorted(o for o in mx.runtime.operators_with_kernel('gpu') if 'my_' in o)}
for name in ('my_relu', 'my_state_relu'):
    op = getattr(mx.nd, name)
    result[name] = op(mx.nd.array(x_np, ctx=dev)).asnumpy().tolist()
    for req in ('write', 'add'):
        x = mx.nd.array(x_np, ctx=dev)
        x.attach_grad(grad_req=req)
        if req == 'add':
            x.grad[:] = 1
        with autograd.record():
            y = op(x)
        y.backward(mx.nd.full(y.shape, 2.0, ctx=dev))
        result['%s_grad_%s' % (name, req)] = x.grad.asnumpy().tolist()
        result['grad_context'] = str(x.grad.context)
# my_noisy_relu draws from the call's random states (curand's on a GPU): reproducible with
# mx.random.seed, different for another seed, about half of zero inputs kept.
noisy = []
for seed in (128, 128, 129):
    mx.random.seed(seed)
    noisy.append(mx.nd.my_noisy_relu(mx.nd.zeros((4000,), ctx=dev)).asnumpy())
result['noisy_same_seed'] = bool(np.array_equal(noisy[0], noisy[1]))
result['noisy_other_seed'] = bool(np.array_equal(noisy[0], noisy[2]))
result['noisy_positive'] = float((noisy[0] > 0).mean())
print('RESULT ' + json.dumps(result))
"""


@pytest.fixture(scope='module')
def relu_gpu_lib(tmp_path_factory):
    out = str(tmp_path_factory.mktemp('relu_gpu') / 'librelu_lib_gpu.so')
    src = os.path.join(ROOT, 'example', 'extensions', 'lib_custom_op')
    cmd = [NVCC, '-shared', '-std=c++17', '-Xcompiler', '-fPIC', 'relu_lib.cu',
           os.path.join(ROOT, 'src', 'lib_api.cc'), '-o', out, '-I', os.path.join(ROOT, 'include')]
    proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True)
    assert proc.returncode == 0, 'nvcc failed: %s\n%s' % (' '.join(cmd), proc.stderr)
    return out


def test_relu_lib_cu_runs_on_the_device(relu_gpu_lib):
    env = dict(os.environ)
    env['PYTHONPATH'] = os.path.join(ROOT, 'python') + os.pathsep + env.get('PYTHONPATH', '')
    proc = subprocess.run([sys.executable, '-c', _CHILD, relu_gpu_lib, DEV.device_type,
                           str(DEV.device_id)], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    line = [l for l in proc.stdout.splitlines() if l.startswith('RESULT ')][-1]
    got = json.loads(line[len('RESULT '):])
    if mx.runtime.Features().is_enabled('CUDA'):
        for name in ('my_relu', 'my_state_relu', '_backward_my_relu', '_backward_my_state_relu'):
            assert name in got['gpu_ops'], got['gpu_ops']
    else:
        assert got['gpu_ops'] == []
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
    for name in ('my_relu', 'my_state_relu'):
        np.testing.assert_array_equal(got[name], np.maximum(x, 0))
        np.testing.assert_array_equal(got[name + '_grad_write'], 2.0 * (x > 0))
        np.testing.assert_array_equal(got[name + '_grad_add'], 1.0 + 2.0 * (x > 0))
    assert got['grad_context'] == str(DEV)
    assert got['noisy_same_seed'] and not got['noisy_other_seed'], got
    assert 0.45 < got['noisy_positive'] < 0.55, got
