"""Imperative memory reuse: an op whose output may overwrite an input takes over that input's
memory when nothing else refers to it any more by the time the op runs, and never otherwise."""
import ctypes
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import _LIB, check_call


def data_ptr(arr):
    ptr = ctypes.c_void_p()
    check_call(_LIB.MXNDArrayGetData(arr.handle, ctypes.byref(ptr)))
    return ptr.value


def busy_engine():
    """A GEMM long enough that what is pushed next is still queued when Python moves on."""
    a = mx.nd.ones((1024, 1024))
    b = mx.nd.dot(a, a)
    for _ in range(5):
        b = mx.nd.dot(b, a) / 1024.0
    return b


@pytest.fixture(autouse=True)
def threaded_engine():
    if os.environ.get('MXNET_ENGINE_TYPE') == 'NaiveEngine':
        pytest.skip('the naive engine runs every op at once')
    yield
    mx.nd.waitall()


def test_dropped_intermediate_memory_moves_to_the_output():
    x_np = np.random.RandomState(0).randn(64, 64).astype(np.float32)
    busy = busy_engine()
    y = mx.nd.broadcast_add(mx.nd.array(x_np), busy[:64, :64] * 0)  # queued behind the GEMMs
    y_ptr = data_ptr(y)
    z = mx.nd.relu(y)
    del y  # gone before relu runs: relu may write over it
    z.wait_to_read()
    assert data_ptr(z) == y_ptr
    np.testing.assert_array_equal(z.asnumpy(), np.maximum(x_np, 0))


def test_an_input_still_referenced_keeps_its_memory_and_values():
    x_np = np.random.RandomState(1).randn(64, 64).astype(np.float32)
    busy = busy_engine()
    y = mx.nd.broadcast_add(mx.nd.array(x_np), busy[:64, :64] * 0)
    z = mx.nd.relu(y)
    z.wait_to_read()
    assert data_ptr(z) != data_ptr(y)
    np.testing.assert_array_equal(y.asnumpy(), x_np)
    np.testing.assert_array_equal(z.asnumpy(), np.maximum(x_np, 0))


def test_recorded_value_backward_reads_is_not_overwritten():
    # sin's gradient reads its input: autograd keeps it, so the output must not take it over,
    # even though the frontend drops it; relu's gradient reads only its output, so its input
    # may be reused. Both gradients must stay exact.
    x_np = np.random.RandomState(2).randn(32, 32).astype(np.float32)
    x = mx.nd.array(x_np)
    x.attach_grad()
    busy = busy_engine()
    with mx.autograd.record():
        h = x * 2 + busy[:32, :32] * 0
        s = mx.nd.sin(h)
        del h
        g = s * 3
        r = mx.nd.relu(g)
        del g
        loss = (r * r).sum()
    loss.backward()
    h_np = 2 * x_np
    g_np = 3 * np.sin(h_np)
    expected = 2 * np.maximum(g_np, 0) * (g_np > 0) * 3 * np.cos(h_np) * 2
    np.testing.assert_allclose(x.grad.asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_deep_chain_gradients_match_numpy_with_reuse_in_both_passes():
    # Forward: each relu takes over the dropped FullyConnected output; backward: relu's
    # gradient writes over the incoming gradient. The gradients must be exact anyway.
    rs = np.random.RandomState(3)
    x_np = rs.randn(16, 8).astype(np.float32)
    ws = [rs.randn(8, 8).astype(np.float32) * 0.5 for _ in range(4)]
    x = mx.nd.array(x_np)
    params = [mx.nd.array(w) for w in ws]
    for p in params:
        p.attach_grad()
    busy = busy_engine()
    with mx.autograd.record():
        h = x + busy[:16, :8] * 0
        for p in params:
            h = mx.nd.relu(mx.nd.FullyConnected(h, p, no_bias=True, num_hidden=8))
        loss = h.sum()
    loss.backward()
    # NumPy reference
    acts = [x_np]
    for w in ws:
        acts.append(np.maximum(acts[-1] @ w.T, 0))
    grad = np.ones_like(acts[-1])
    expected = [None] * len(ws)
    for i in reversed(range(len(ws))):
        grad = grad * (acts[i + 1] > 0)
        expected[i] = grad.T @ acts[i]
        grad = grad @ ws[i]
    for p, e in zip(params, expected):
        np.testing.assert_allclose(p.grad.asnumpy(), e, rtol=1e-4, atol=1e-4)
