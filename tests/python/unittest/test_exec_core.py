"""The one execution core: imperative calls and bound executors choose an operator's kernel in
the same place, keyed by the device, and log the choice when MXNET_EXEC_DISPATCH_LOG=1."""
import os
import subprocess
import sys

import numpy as np
import pytest

import mxnet as mx

PYTHON_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "..", "python")


def run_logged(code):
    env = dict(os.environ, MXNET_EXEC_DISPATCH_LOG="1", PYTHONPATH=os.path.abspath(PYTHON_DIR))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout + out.stderr


def test_dispatch_log_names_front_end_device_mode_and_kernel():
    log = run_logged(
        "import mxnet as mx\n"
        "a = mx.nd.ones((2, 3)); b = mx.nd.ones((2, 3))\n"
        "mx.nd.elemwise_add(a, b).asnumpy()\n"
        "x = mx.sym.var('x'); y = mx.sym.relu(x)\n"
        "ex = y.simple_bind(mx.cpu(), x=(2, 3)); ex.forward(x=mx.nd.ones((2, 3)))\n"
        "ex.outputs[0].asnumpy()\n"
        "s = mx.nd.sparse.csr_matrix((2, 3)); mx.nd.sparse.dot(s, mx.nd.ones((3, 2))).asnumpy()\n")
    assert "dispatch: operator _ones on cpu(0) (imperative): fcompute, FCompute" in log
    assert "dispatch: operator elemwise_add on cpu(0) (imperative): fcompute, FCompute" in log
    assert "dispatch: operator relu on cpu(0) (executor): fcompute, FCompute" in log
    assert "dispatch: operator dot on cpu(0) (imperative): fcompute_ex, FComputeEx" in log


def test_dispatch_log_is_off_by_default():
    env = dict(os.environ, PYTHONPATH=os.path.abspath(PYTHON_DIR))
    env.pop("MXNET_EXEC_DISPATCH_LOG", None)
    out = subprocess.run([sys.executable, "-c", "import mxnet as mx; (mx.nd.ones((2,)) * 2).asnumpy()"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "dispatch:" not in out.stdout + out.stderr


def test_imperative_and_executor_agree_on_stateful_and_fallback_ops():
    # A stateful op (BatchNorm's legacy path runs through FStatefulCompute in both front ends)
    # and a storage fallback (a csr input to a dense-only op) give the same results both ways.
    rng = np.random.RandomState(0)
    data = rng.randn(4, 3, 2, 2).astype(np.float32)
    gamma, beta = np.ones(3, np.float32), np.zeros(3, np.float32)
    mean, var = np.zeros(3, np.float32), np.ones(3, np.float32)
    imp = mx.nd.BatchNorm(mx.nd.array(data), mx.nd.array(gamma), mx.nd.array(beta),
                          mx.nd.array(mean), mx.nd.array(var), fix_gamma=False).asnumpy()
    sym = mx.sym.BatchNorm(mx.sym.var("data"), fix_gamma=False, name="bn")
    ex = sym.bind(mx.cpu(), {"data": mx.nd.array(data), "bn_gamma": mx.nd.array(gamma),
                             "bn_beta": mx.nd.array(beta)},
                  aux_states={"bn_moving_mean": mx.nd.array(mean),
                              "bn_moving_var": mx.nd.array(var)})
    np.testing.assert_allclose(ex.forward(is_train=False)[0].asnumpy(), imp, rtol=1e-5, atol=1e-6)

    dense = rng.rand(3, 4).astype(np.float32)
    dense[dense < 0.5] = 0
    csr = mx.nd.array(dense).tostype("csr")
    np.testing.assert_allclose(mx.nd.exp(csr).asnumpy(), np.exp(dense), rtol=1e-6)


def test_gpu_context_errors_name_operator_and_device():
    if mx.context.num_gpus() > 0:
        pytest.skip("this machine has a GPU: the no-GPU errors cannot be seen")
    with pytest.raises(mx.MXNetError, match=r"_zeros.*gpu\(0\)"):
        mx.nd.zeros((2, 2), ctx=mx.gpu(0)).asnumpy()
    x = mx.sym.var("x")
    with pytest.raises(mx.MXNetError, match=r"gpu\(0\)"):
        mx.sym.relu(x).simple_bind(mx.gpu(0), x=(2, 2))


def test_no_gpu_means_zero_gpus_and_a_clear_memory_info_error():
    if mx.context.num_gpus() > 0:
        pytest.skip("this machine has a GPU")
    assert mx.context.num_gpus() == 0
    with pytest.raises(mx.MXNetError, match=r"gpu\(0\)"):
        mx.context.gpu_memory_info(0)


def test_operators_with_kernel_lists_the_registry_by_device():
    cpu_ops = mx.runtime.operators_with_kernel("cpu")
    assert "elemwise_add" in cpu_ops and "FullyConnected" in cpu_ops
    # Every listed name is a registered operator (MXListAllOpNames is the oracle), and an op
    # registered without any kernel (a graph-only node such as _NoGradient) is not listed.
    import ctypes
    size, names = ctypes.c_uint32(), ctypes.POINTER(ctypes.c_char_p)()
    mx.base.check_call(mx.base._LIB.MXListAllOpNames(ctypes.byref(size), ctypes.byref(names)))
    registered = {names[i].decode() for i in range(size.value)}
    assert set(cpu_ops) <= registered
    assert len(cpu_ops) < len(registered)
    gpu_ops = mx.runtime.operators_with_kernel("gpu")
    if mx.runtime.Features().is_enabled("CUDA"):
        assert "_zeros" in gpu_ops and "_arange" in gpu_ops
    else:
        assert gpu_ops == []
    with pytest.raises(ValueError):
        mx.runtime.operators_with_kernel("tpu")
