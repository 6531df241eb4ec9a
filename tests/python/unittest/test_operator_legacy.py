"""The deprecated PythonOp interface (NumpyOp, NDArrayOp), run through CustomOp: a NumPy
softmax loss layer and an NDArray scaling op, checked against NumPy in forward and
backward."""
import numpy as onp
import pytest

import mxnet as mx


class NumpySoftmax(mx.operator.NumpyOp):
    def __init__(self):
        super(NumpySoftmax, self).__init__(False)

    def list_arguments(self):
        return ['data', 'label']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shape):
        data_shape = in_shape[0]
        return [data_shape, (data_shape[0],)], [data_shape]

    def forward(self, in_data, out_data):
        x, y = in_data[0], out_data[0]
        y[:] = onp.exp(x - x.max(axis=1, keepdims=True))
        y /= y.sum(axis=1, keepdims=True)

    def backward(self, out_grad, in_data, out_data, in_grad):
        label = in_data[1].astype(int)
        dx = in_grad[0]
        dx[:] = out_data[0]
        dx[onp.arange(label.shape[0]), label] -= 1.0


class NDArrayScale(mx.operator.NDArrayOp):
    def __init__(self, factor):
        super(NDArrayScale, self).__init__(True)
        self.factor = factor

    def forward(self, in_data, out_data):
        out_data[0][:] = in_data[0] * self.factor

    def backward(self, out_grad, in_data, out_data, in_grad):
        in_grad[0][:] = out_grad[0] * self.factor


def test_numpy_op_softmax_loss():
    with pytest.warns(UserWarning):
        softmax = NumpySoftmax()
    data, label = mx.sym.var('data'), mx.sym.var('label')
    net = softmax(data=data, label=label, name='softmax')
    assert net.list_arguments() == ['data', 'label']
    x = onp.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(onp.float32)
    y = onp.array([0, 3, 1], dtype=onp.float32)
    exe = net.simple_bind(mx.cpu(), data=x.shape, label=y.shape)
    exe.arg_dict['data'][:] = x
    exe.arg_dict['label'][:] = y
    out = exe.forward(is_train=True)[0].asnumpy()
    ref = onp.exp(x) / onp.exp(x).sum(1, keepdims=True)
    onp.testing.assert_allclose(out, ref, rtol=1e-5)
    exe.backward()
    grad = ref.copy()
    grad[onp.arange(3), y.astype(int)] -= 1
    onp.testing.assert_allclose(exe.grad_dict['data'].asnumpy(), grad, rtol=1e-5, atol=1e-6)


def test_ndarray_op_scale():
    with pytest.warns(UserWarning):
        scale = NDArrayScale(3.0)
    x_var = mx.sym.var('x')
    net = mx.sym.sum(scale(x_var) * x_var)
    x = onp.arange(6, dtype=onp.float32).reshape(2, 3)
    exe = net.simple_bind(mx.cpu(), x=x.shape)
    exe.arg_dict['x'][:] = x
    assert exe.forward(is_train=True)[0].asnumpy() == pytest.approx(3 * (x * x).sum())
    exe.backward(mx.nd.ones((1,)))
    onp.testing.assert_allclose(exe.grad_dict['x'].asnumpy(), 6 * x, rtol=1e-6)
    assert scale.declare_backward_dependency([1], [2], [3]) == [1, 2, 3]
