"""CTCLoss (and its aliases) on the GPU against the CPU in float64, with the data gradient:
both blank_label conventions, padded labels, data_lengths / label_lengths, repeated labels and
sequences no alignment fits (loss 0, gradient 0); label errors are still checked first."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, TOL, check_fn

CTC_TOL = dict(TOL)
CTC_TOL[np.float16] = (2e-2, 2e-2)


def _data(shape, dtype, seed=0):
    return np.random.RandomState(seed).uniform(-2, 2, shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("blank_label", ["first", "last"])
def test_ctc_loss_padded_labels(blank_label, dtype):
    if blank_label == "first":
        label = [[1, 2, 0, 0], [3, 3, 0, 0], [2, 1, 2, 4], [4, 0, 0, 0]]
    else:
        label = [[0, 1, -1, -1], [2, 2, -1, -1], [1, 0, 1, 3], [3, -1, -1, -1]]
    arrays = [_data((7, 4, 5), dtype), np.array(label, dtype=dtype)]
    check_fn(lambda x, l: mx.nd.CTCLoss(x, l, blank_label=blank_label), arrays, dtype, True,
             "CTCLoss blank_label=%s" % blank_label, tol=CTC_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_ctc_loss_lengths_and_infeasible(dtype):
    # Sequence 2 needs 5 steps (1,1,1) but has 4: loss 0 and gradient 0.
    label = np.array([[1, 2, 2], [2, 1, 1], [1, 1, 1], [3, 0, 0]], dtype=dtype)
    data_len = np.array([6, 3, 4, 0], dtype=dtype)
    label_len = np.array([3, 1, 3, 0], dtype=dtype)
    arrays = [_data((6, 4, 4), dtype, seed=1), label, data_len, label_len]
    check_fn(lambda x, l, dl, ll: mx.nd.ctc_loss(x, l, dl, ll, use_data_lengths=True,
                                                 use_label_lengths=True),
             arrays, dtype, True, "ctc_loss with lengths", tol=CTC_TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_contrib_ctc_loss_data_lengths_only(dtype):
    label = np.array([[1, 2, 1], [3, 0, 0], [2, 2, 3]], dtype=np.int32)
    arrays = [_data((8, 3, 4), dtype, seed=2), label, np.array([8, 2, 5], dtype=np.int32)]
    fn = lambda x, l, dl: mx.nd.contrib.ctc_loss(x, l, dl, use_data_lengths=True)
    check_fn(fn, arrays, dtype, True, "_contrib_ctc_loss data_lengths", tol=CTC_TOL[dtype])


def test_ctc_loss_gradient_add_and_head():
    arrays = [_data((5, 2, 4), np.float32, seed=3), np.array([[1, 2], [3, 3]], np.float32)]
    x = mx.nd.array(arrays[0], ctx=DEV)
    x.attach_grad(grad_req="add")
    label = mx.nd.array(arrays[1], ctx=DEV)
    for _ in range(2):
        with mx.autograd.record():
            loss = mx.nd.CTCLoss(x, label)
        loss.backward(mx.nd.array([0.5, -2.0], ctx=DEV))
    xc = mx.nd.array(arrays[0], dtype="float64")
    xc.attach_grad()
    with mx.autograd.record():
        loss = mx.nd.CTCLoss(xc, mx.nd.array(arrays[1], dtype="float64"))
    loss.backward(mx.nd.array([1.0, -4.0], dtype="float64"))
    np.testing.assert_allclose(x.grad.asnumpy(), xc.grad.asnumpy(), rtol=1e-4, atol=1e-5)


def test_ctc_loss_checks_labels_and_lengths_on_the_device():
    x = mx.nd.zeros((4, 2, 5), ctx=DEV)
    with pytest.raises(ValueError, match=r"CTCLoss: label\[0, 2\] = 9"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 2, 9], [1, 0, 0]], ctx=DEV)).asnumpy()
    with pytest.raises(ValueError, match="blank"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 4], [1, 2]], ctx=DEV), blank_label="last").asnumpy()
    with pytest.raises(ValueError, match=r"data_lengths\[0\] = 5"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [1, 0]], ctx=DEV), mx.nd.array([5, 1], ctx=DEV),
                      use_data_lengths=True).asnumpy()
    with pytest.raises(ValueError, match=r"label_lengths\[1\] = 3"):
        mx.nd.CTCLoss(x, mx.nd.array([[1, 2], [1, 0]], ctx=DEV), mx.nd.array([2, 3], ctx=DEV),
                      use_label_lengths=True).asnumpy()
