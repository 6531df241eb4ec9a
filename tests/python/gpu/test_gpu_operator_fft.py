"""_contrib_fft and _contrib_ifft on the GPU (a direct DFT in double, no cuFFT) against the CPU
in float64 (radix-2 FFT for power-of-two rows, else a direct DFT) and against numpy.fft, with
their gradients (each transform's gradient is the other one), including req='add'."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, TOL, check_fn, inputs

# Power-of-two rows, other even and odd lengths, and a length-1 row; 2-D and 4-D inputs.
FFT_SHAPES = [(3, 8), (2, 3, 2, 6), (2, 5), (4, 1), (2, 64), (1, 45)]
IFFT_SHAPES = [(3, 16), (2, 3, 2, 12), (2, 10), (4, 2), (2, 128), (1, 90)]
# float16 sums of up to 64 terms of magnitude <= 2 round at about 1e-3 of the largest output.
FFT_TOL = dict(TOL)
FFT_TOL[np.float16] = (2e-2, 1e-1)
FFT_TOL[np.float32] = (1e-4, 1e-4)


def _fft(x):
    return mx.nd.contrib.fft(x)


def _ifft(x):
    return mx.nd.contrib.ifft(x)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", FFT_SHAPES)
def test_fft_and_gradient(shape, dtype):
    check_fn(_fft, inputs([shape], dtype), dtype, True, "fft %s" % (shape,), tol=FFT_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", IFFT_SHAPES)
def test_ifft_and_gradient(shape, dtype):
    check_fn(_ifft, inputs([shape], dtype), dtype, True, "ifft %s" % (shape,), tol=FFT_TOL[dtype])


@pytest.mark.parametrize("shape", FFT_SHAPES)
def test_fft_matches_numpy_and_round_trips(shape):
    x = inputs([shape], np.float64)[0]
    out = mx.nd.contrib.fft(mx.nd.array(x, ctx=DEV, dtype=np.float64))
    ref = np.fft.fft(x, axis=-1)
    got = out.asnumpy().reshape(shape[:-1] + (shape[-1], 2))
    np.testing.assert_allclose(got[..., 0], ref.real, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got[..., 1], ref.imag, rtol=1e-10, atol=1e-10)
    back = mx.nd.contrib.ifft(out).asnumpy()
    np.testing.assert_allclose(back, shape[-1] * x, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("op", ["fft", "ifft"])
def test_gradient_accumulates(op):
    shape = (3, 12)
    x = mx.nd.array(inputs([shape], np.float64)[0], ctx=DEV, dtype=np.float64)
    x.attach_grad(grad_req="add")
    fn = getattr(mx.nd.contrib, op)
    grads = []
    for _ in range(2):
        with mx.autograd.record():
            y = fn(x)
        y.backward(mx.nd.array(np.linspace(-1, 1, y.size).reshape(y.shape), ctx=DEV,
                               dtype=np.float64))
        grads.append(x.grad.asnumpy().copy())
    np.testing.assert_allclose(grads[1], 2 * grads[0], rtol=1e-10, atol=1e-10)
