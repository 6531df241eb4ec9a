"""The GPU KVStores with NCCL: 'nccl' in one process (one ncclReduce over the GPUs holding a
key's values) and dist_device_sync across worker processes (the workers' GPU sums all-reduced
with NCCL; two workers on one GPU, or MXNET_KVSTORE_USE_NCCL=0, go through host memory and
MPI). Results are checked against NumPy sums (the updater and Trainer checks of 'nccl' are in
test_gpu_operator_kvstore.py)."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mxnet as mx


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))

needs_nccl = pytest.mark.skipif(not mx.runtime.Features().is_enabled('NCCL'),
                                reason='this libmxnet was built without NCCL')
needs_mpi = pytest.mark.skipif(
    shutil.which('mpirun') is None or not mx.runtime.Features().is_enabled('DIST_KVSTORE'),
    reason='needs mpirun and a libmxnet built with MPI (the distributed KVStores)')


def _gpus():
    return [mx.gpu(i) for i in range(mx.context.num_gpus())]


@needs_nccl
@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64', 'int32', 'int64'])
def test_nccl_store_sums_over_the_gpus(dtype):
    gpus = _gpus()
    shape = (3, 1000)
    rs = np.random.RandomState(1)
    vals = [rs.randint(-8, 8, shape).astype(dtype) for _ in gpus]
    kv = mx.kv.create('nccl')
    assert kv.type == 'nccl'
    kv.init('k', mx.nd.zeros(shape, dtype=dtype, ctx=gpus[0]))
    kv.push('k', [mx.nd.array(v, dtype=dtype, ctx=g) for v, g in zip(vals, gpus)])
    outs = [mx.nd.zeros(shape, dtype=dtype, ctx=g) for g in gpus] + [mx.nd.zeros(shape, dtype=dtype)]
    kv.pull('k', out=outs)
    want = np.sum(vals, axis=0).astype(dtype)
    for o in outs:
        np.testing.assert_array_equal(o.asnumpy(), want)
    # pushed again: the stored value is replaced by the new sum (no updater)
    kv.pushpull('k', [mx.nd.array(2 * v, dtype=dtype, ctx=g) for v, g in zip(vals, gpus)],
                out=outs[0])
    np.testing.assert_array_equal(outs[0].asnumpy(), (2 * want).astype(dtype))


# ---- dist_device_sync: worker processes through tools/launch.py ------------------------------

def _launch(workers, extra_env):
    env = dict(os.environ)
    env['PYTHONPATH'] = os.path.join(ROOT, 'python') + os.pathsep + env.get('PYTHONPATH', '')
    env.update(extra_env)
    cmd = [sys.executable, os.path.join(ROOT, 'tools', 'launch.py'), '-n', str(workers),
           '--launcher', 'local', '--timeout', '60', sys.executable,
           os.path.join(ROOT, 'tests', 'python', 'distributed', 'dist_worker.py'), 'gpu_sync']
    proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=240)
    return proc.returncode, proc.stdout.decode('utf-8', 'replace')


GPU_CHECKS = ['init', 'push', 'dtypes', 'big', 'updater', '2bit']


def _assert_checks(rc, out, workers):
    assert rc == 0, out[-6000:]
    for check in GPU_CHECKS:
        passed = out.count('CHECK dist_device_sync.gpu.%s ok' % check)
        assert passed == workers, (check, out[-6000:])


@needs_nccl
@needs_mpi
def test_dist_device_sync_with_nccl_one_worker():
    rc, out = _launch(1, {'NCCL_DEBUG': 'INFO'})
    _assert_checks(rc, out, 1)
    assert 'NCCL INFO' in out, 'NCCL was not used:\n' + out[-6000:]


@needs_mpi
@pytest.mark.parametrize('use_nccl', ['1', '0'])
def test_dist_device_sync_two_workers_on_one_gpu(use_nccl):
    # NCCL takes one GPU per worker: two workers on gpu(0) sum through host memory and MPI.
    rc, out = _launch(2, {'MXNET_KVSTORE_USE_NCCL': use_nccl})
    _assert_checks(rc, out, 2)
    if use_nccl == '1' and mx.runtime.Features().is_enabled('NCCL'):
        assert 'share a GPU' in out, out[-6000:]
