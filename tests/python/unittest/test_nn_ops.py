"""Focused tests of dot/batch_dot, FullyConnected, the softmax family and the loss heads:
error messages, backward operators (called directly) against NumPy, and loss semantics."""
import numpy as np
import pytest

import mxnet as mx

nd = mx.nd
_int = nd._internal

def ones(shape, dtype="float32"):
    return nd.array(np.ones(shape), dtype=dtype)


def zeros(shape, dtype="float32"):
    return nd.array(np.zeros(shape), dtype=dtype)


def _np(x):
    return x.asnumpy().astype("float64")


def _numeric_grad(f, x, og, eps=1e-6):
    """d sum(og * f(x)) / dx by central differences (float64)."""
    x = x.astype("float64").copy()
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        old = x[idx]
        x[idx] = old + eps
        hi = (og * f(x)).sum()
        x[idx] = old - eps
        lo = (og * f(x)).sum()
        x[idx] = old
        g[idx] = (hi - lo) / (2 * eps)
    return g


# ------------------------------------------------------------------------------- errors


def test_fully_connected_weight_shape_mismatch_names_both_shapes():
    x = ones((4, 5))
    w = ones((3, 5))
    b = ones((7,))
    with pytest.raises(ValueError) as e:
        nd.FullyConnected(x, ones((3, 5)), ones((3,)), num_hidden=7)
    msg = str(e.value)
    assert "[7,5]" in msg and "[3,5]" in msg and "weight" in msg, msg
    with pytest.raises(ValueError) as e:
        nd.FullyConnected(x, ones((3, 6)), ones((3,)), num_hidden=3)
    assert "[3,6]" in str(e.value) and "[3,5]" in str(e.value)
    with pytest.raises(ValueError):
        nd.FullyConnected(x, w, b, num_hidden=3)  # bias (7,) vs num_hidden 3


def test_fully_connected_bad_kwargs():
    x, w, b = ones((2, 3)), ones((4, 3)), ones((4,))
    with pytest.raises(mx.base.MXNetError):
        nd.FullyConnected(x, w, b, num_hidden=4, nonexistent=1)
    with pytest.raises(mx.base.MXNetError):
        nd.FullyConnected(x, w, b, num_hidden="four")
    with pytest.raises(mx.base.MXNetError):
        nd.FullyConnected(x, w, b)  # num_hidden is required


def test_dot_shape_errors():
    with pytest.raises(ValueError) as e:
        nd.dot(ones((2, 3)), ones((4, 5)))
    assert "[2,3]" in str(e.value) and "[4,5]" in str(e.value)
    with pytest.raises(ValueError):
        nd.dot(ones((3,)), ones((4,)))
    with pytest.raises(ValueError):
        nd.dot(ones((3,)), ones((3,)), transpose_a=True)
    with pytest.raises(ValueError):
        nd.batch_dot(ones((2, 3, 4)), ones((3, 4, 5)))
    with pytest.raises(ValueError):
        nd.batch_dot(ones((3, 4)), ones((4, 5)))


def test_softmax_axis_out_of_range():
    with pytest.raises(ValueError):
        nd.softmax(ones((2, 3)), axis=2)
    with pytest.raises(mx.base.MXNetError):
        nd.softmax(ones((2, 3)), dtype="int32")


# ------------------------------------------------------------------------------ backward


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_backward_dot_matches_numpy(ta, tb):
    rng = np.random.RandomState(1)
    a = rng.randn(*((4, 3) if ta else (3, 4)))
    b = rng.randn(*((5, 4) if tb else (4, 5)))
    og = rng.randn(3, 5)
    A = a.T if ta else a
    B = b.T if tb else b
    da, db = _int._backward_dot(nd.array(og), nd.array(a), nd.array(b),
                                transpose_a=ta, transpose_b=tb)
    want_da = og @ B.T
    want_db = A.T @ og
    np.testing.assert_allclose(_np(da), want_da.T if ta else want_da, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(db), want_db.T if tb else want_db, rtol=1e-4, atol=1e-5)


def test_backward_batch_dot_matches_numpy():
    rng = np.random.RandomState(2)
    a, b, og = rng.randn(2, 3, 4), rng.randn(2, 4, 5), rng.randn(2, 3, 5)
    da, db = _int._backward_batch_dot(nd.array(og), nd.array(a), nd.array(b))
    np.testing.assert_allclose(_np(da), og @ np.swapaxes(b, 1, 2), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(db), np.swapaxes(a, 1, 2) @ og, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("no_bias,flatten", [(False, True), (True, True), (False, False)])
def test_backward_fully_connected_matches_numpy(no_bias, flatten):
    rng = np.random.RandomState(3)
    x = rng.randn(2, 3, 4)
    k = 12 if flatten else 4
    w = rng.randn(5, k)
    og = rng.randn(*((2, 5) if flatten else (2, 3, 5)))
    grads = _int._backward_FullyConnected(nd.array(og), nd.array(x), nd.array(w), num_hidden=5,
                                          no_bias=no_bias, flatten=flatten)
    grads = grads if isinstance(grads, (list, tuple)) else [grads]
    assert len(grads) == (2 if no_bias else 3)
    x2 = x.reshape(-1, k)
    og2 = og.reshape(-1, 5)
    np.testing.assert_allclose(_np(grads[0]), (og2 @ w).reshape(x.shape), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(grads[1]), og2.T @ x2, rtol=1e-4, atol=1e-5)
    if not no_bias:
        np.testing.assert_allclose(_np(grads[2]), og2.sum(axis=0), rtol=1e-4, atol=1e-5)


def _sm(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("op,f", [
    ("softmax", lambda x, t: _sm(x / t, 1)),
    ("log_softmax", lambda x, t: np.log(_sm(x / t, 1))),
    ("softmin", lambda x, t: _sm(-x / t, 1)),
])
@pytest.mark.parametrize("temperature", [None, 2.0])
def test_backward_softmax_family_matches_numeric(op, f, temperature):
    rng = np.random.RandomState(4)
    x = rng.randn(2, 4, 3)
    og = rng.randn(2, 4, 3)
    kw = {"axis": 1}
    if temperature is not None:
        kw["temperature"] = temperature
    t = temperature or 1.0
    y = getattr(nd, op)(nd.array(x, dtype="float64"), **kw)
    dx = getattr(_int, "_backward_" + op)(nd.array(og, dtype="float64"), y, **kw)
    np.testing.assert_allclose(_np(dx), _numeric_grad(lambda v: f(v, t), x, og),
                               rtol=1e-5, atol=1e-7)


def test_softmax_use_length_masks_and_backward():
    x = nd.array(np.arange(12.).reshape(2, 6), dtype="float64")
    length = nd.array([2, 6], dtype="int32")
    y = nd.softmax(x, length, axis=-1, use_length=True).asnumpy()
    assert np.all(y[0, 2:] == 0) and abs(y[0, :2].sum() - 1) < 1e-12
    og = ones((2, 6), dtype="float64")
    dx = _int._backward_softmax(og, nd.array(y, dtype="float64"), length, use_length=True,
                                axis=-1)
    dx = dx[0] if isinstance(dx, (list, tuple)) else dx
    assert np.all(dx.asnumpy()[0, 2:] == 0)


def test_softmax_dtype_param_changes_output_type():
    y = nd.softmax(ones((2, 3), dtype="float16"), dtype="float32")
    assert y.dtype == np.float32
    np.testing.assert_allclose(y.asnumpy(), np.full((2, 3), 1 / 3.), rtol=1e-6)


# ------------------------------------------------------------------------------ loss heads


def _softmax_output_grad(x, label, **kw):
    out = nd.SoftmaxOutput(nd.array(x), nd.array(label), **kw)
    og = ones(out.shape)
    grads = _int._backward_SoftmaxOutput(og, nd.array(label), out, **kw)
    return out.asnumpy(), grads[0].asnumpy().astype("float64"), grads[1].asnumpy()


def test_softmax_output_gradient_ignores_head_and_scales():
    rng = np.random.RandomState(5)
    x = rng.randn(4, 3)
    label = np.array([0, 2, 1, 2], dtype="float32")
    p, dx, dlabel = _softmax_output_grad(x, label, grad_scale=2.0)
    onehot = np.eye(3)[label.astype(int)]
    np.testing.assert_allclose(dx, (_sm(x, 1) - onehot) * 2.0, rtol=1e-5, atol=1e-6)
    assert np.all(dlabel == 0)
    _, dxb, _ = _softmax_output_grad(x, label, normalization="batch")
    np.testing.assert_allclose(dxb, (_sm(x, 1) - onehot) / 4, rtol=1e-5, atol=1e-6)


def test_softmax_output_ignore_label():
    rng = np.random.RandomState(6)
    x = rng.randn(4, 3)
    label = np.array([0, -1, 1, -1], dtype="float32")
    _, dx, _ = _softmax_output_grad(x, label, use_ignore=True, ignore_label=-1,
                                    normalization="valid")
    assert np.all(dx[1] == 0) and np.all(dx[3] == 0)
    onehot = np.eye(3)[[0, 1]]
    np.testing.assert_allclose(dx[[0, 2]], (_sm(x, 1)[[0, 2]] - onehot) / 2, rtol=1e-5,
                               atol=1e-6)
    # Without use_ignore the label -1 is not ignored: rows get gradient.
    _, dx2, _ = _softmax_output_grad(x, np.array([0, 1, 1, 2], dtype="float32"))
    assert np.all(dx2[1] != 0)


def test_softmax_output_multi_output_and_smoothing():
    rng = np.random.RandomState(7)
    x = rng.randn(2, 3, 4)
    label = rng.randint(0, 3, size=(2, 4)).astype("float32")
    p, dx, _ = _softmax_output_grad(x, label, multi_output=True, smooth_alpha=0.3)
    target = np.full((2, 3, 4), 0.3 / 2)
    for n in range(2):
        for j in range(4):
            target[n, int(label[n, j]), j] = 0.7
    np.testing.assert_allclose(dx, _sm(x, 1) - target, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError):
        nd.SoftmaxOutput(ones((4, 3)), ones((5,)))


def test_softmax_cross_entropy_and_backward():
    x = np.array([[1., 2., 3.], [11., 7., 5.]])
    label = np.array([2., 0.])
    loss = nd.softmax_cross_entropy(nd.array(x), nd.array(label)).asnumpy()
    np.testing.assert_allclose(loss, [0.4281871], rtol=1e-5)
    dx, dl = _int._backward_softmax_cross_entropy(nd.array([2.0]), nd.array(x), nd.array(label))
    np.testing.assert_allclose(dx.asnumpy(), (_sm(x, 1) - np.eye(3)[[2, 0]]) * 2, rtol=1e-5,
                               atol=1e-6)
    assert np.all(dl.asnumpy() == 0)


@pytest.mark.parametrize("op,back,f,g", [
    ("LinearRegressionOutput", "_backward_linear_reg_out", lambda x: x, lambda o, l: o - l),
    ("MAERegressionOutput", "_backward_mae_reg_out", lambda x: x, lambda o, l: np.sign(o - l)),
    ("LogisticRegressionOutput", "_backward_logistic_reg_out", lambda x: 1 / (1 + np.exp(-x)),
     lambda o, l: o - l),
])
def test_regression_outputs(op, back, f, g):
    rng = np.random.RandomState(8)
    x, label = rng.randn(4, 3), rng.randn(4, 3)
    out = getattr(nd, op)(nd.array(x), nd.array(label), grad_scale=3.0)
    np.testing.assert_allclose(out.asnumpy(), f(x), rtol=1e-5, atol=1e-6)
    dx, dl = getattr(_int, back)(nd.array(label), out, grad_scale=3.0)
    np.testing.assert_allclose(dx.asnumpy(), g(f(x), label) * 3.0 / 3, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError):
        getattr(nd, op)(ones((4, 3)), ones((5, 3)))
