"""Python CustomOp (python/mxnet/operator.py, src/operator/custom): forward/backward with every
req, aux states, custom ops calling other custom ops and waiting inside forward, many ops in
flight from several threads, exceptions surfacing as MXNetError with the Python traceback, the
seed's softmax example against the built-in softmax, and the same under NaiveEngine."""
import ctypes
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError, _LIB, check_call


# ---------------------------------------------------------------------------- operators


class Sqr(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 2 * in_data[0] * out_grad[0])


@mx.operator.register("test_sqr")
class SqrProp(mx.operator.CustomOpProp):
    def __init__(self):
        super(SqrProp, self).__init__(need_top_grad=True)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        return [out_grad[0], in_data[0]]     # the output is not needed

    def create_operator(self, ctx, shapes, dtypes):
        return Sqr()


class Scaled(mx.operator.CustomOp):
    """out = scale * lhs + rhs (two inputs, a string kwarg)."""

    def __init__(self, scale):
        super(Scaled, self).__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * self.scale + in_data[1])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * self.scale)
        self.assign(in_grad[1], req[1], out_grad[0])


@mx.operator.register("test_scaled")
class ScaledProp(mx.operator.CustomOpProp):
    def __init__(self, scale="1"):
        super(ScaledProp, self).__init__(need_top_grad=True)
        self.scale = float(scale)   # kwargs arrive as strings

    def list_arguments(self):
        return ["lhs", "rhs"]

    def infer_shape(self, in_shape):
        return [in_shape[0], in_shape[0]], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        assert isinstance(ctx, mx.Context) and ctx.device_type == "cpu"
        assert [list(s) for s in shapes] == [list(shapes[0])] * 2
        return Scaled(self.scale)


class Counter(mx.operator.CustomOp):
    """Identity that counts forward calls in its aux state and records the thread flags."""
    seen = []

    def forward(self, is_train, req, in_data, out_data, aux):
        rec = ctypes.c_bool()
        check_call(_LIB.MXAutogradIsRecording(ctypes.byref(rec)))
        Counter.seen.append((rec.value, is_train, threading.current_thread() is
                             threading.main_thread()))
        self.assign(out_data[0], req[0], in_data[0])
        aux[0][:] = aux[0] + 1


@mx.operator.register("test_counter")
class CounterProp(mx.operator.CustomOpProp):
    def list_auxiliary_states(self):
        return ["count"]

    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], [(1,)]

    def create_operator(self, ctx, shapes, dtypes):
        return Counter()


class Nested(mx.operator.CustomOp):
    """Calls another custom op, waits on it and copies it to NumPy, all inside forward."""

    def forward(self, is_train, req, in_data, out_data, aux):
        inner = mx.nd.Custom(in_data[0], op_type="test_sqr")
        host = inner.asnumpy()                 # blocks on the inner custom op
        inner2 = mx.nd.Custom(inner, mx.nd.array(host), op_type="test_scaled", scale=3)
        inner2.wait_to_read()
        self.assign(out_data[0], req[0], inner2)


@mx.operator.register("test_nested")
class NestedProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return Nested()


class Failing(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        raise ValueError("custom forward exploded on purpose")

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        raise KeyError("custom backward exploded on purpose")


@mx.operator.register("test_failing")
class FailingProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return Failing()


@mx.operator.register("test_bad_shape")
class BadShapeProp(mx.operator.CustomOpProp):
    def infer_shape(self, in_shape):
        raise RuntimeError("infer_shape refuses %s" % (in_shape,))


# The softmax example of seed 002, as written there.
class Softmax(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1).reshape((x.shape[0], 1)))
        y /= y.sum(axis=1).reshape((x.shape[0], 1))
        self.assign(out_data[0], req[0], mx.nd.array(y))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        l = in_data[1].asnumpy().ravel().astype(np.int64)
        y = out_data[0].asnumpy()
        y[np.arange(l.shape[0]), l] -= 1.0
        self.assign(in_grad[0], req[0], mx.nd.array(y))


@mx.operator.register("softmax")
class SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self):
        super(SoftmaxProp, self).__init__(need_top_grad=False)

    def list_arguments(self):
        return ['data', 'label']

    def list_outputs(self):
        return ['output']

    def infer_shape(self, in_shape):
        data_shape = in_shape[0]
        label_shape = (in_shape[0][0],)
        output_shape = in_shape[0]
        return [data_shape, label_shape], [output_shape], []

    def infer_type(self, in_type):
        dtype = in_type[0]
        return [dtype, dtype], [dtype], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()


def _backward_custom(*inputs, **kwargs):
    return _invoke("_backward_Custom", *inputs, **kwargs)


def _invoke(op_name, *inputs, **kwargs):
    """Call a registered operator directly (backward ops have no generated signature)."""
    from mxnet.ndarray._invoke import imperative_invoke
    from mxnet.base import op_handle
    keys = [k.encode() for k in kwargs]
    vals = [str(v).encode() for v in kwargs.values()]
    return imperative_invoke(op_handle(op_name), list(inputs), keys, vals, None)


# -------------------------------------------------------------------------------- tests


def test_registry_helpers():
    names = mx.operator.get_all_registered_operators()
    assert "test_sqr" in names and "softmax" in names and "custom_op" in names


def test_assign_honours_every_req():
    op = mx.operator.CustomOp()
    dst = mx.nd.ones((2, 2))
    op.assign(dst, "null", mx.nd.full((2, 2), 5))
    np.testing.assert_array_equal(dst.asnumpy(), np.ones((2, 2)))
    op.assign(dst, "write", mx.nd.full((2, 2), 5))
    np.testing.assert_array_equal(dst.asnumpy(), np.full((2, 2), 5))
    op.assign(dst, "inplace", mx.nd.full((2, 2), 3))
    np.testing.assert_array_equal(dst.asnumpy(), np.full((2, 2), 3))
    op.assign(dst, "add", mx.nd.full((2, 2), 2))
    np.testing.assert_array_equal(dst.asnumpy(), np.full((2, 2), 5))
    with pytest.raises(ValueError):
        op.assign(dst, "bogus", dst)


def test_forward_and_backward_imperative():
    x = np.random.RandomState(0).uniform(-2, 2, size=(3, 4)).astype("float32")
    y = mx.nd.Custom(mx.nd.array(x), op_type="test_sqr")
    np.testing.assert_allclose(y.asnumpy(), x * x, rtol=1e-6)
    og = np.random.RandomState(1).uniform(-1, 1, size=(3, 4)).astype("float32")
    # _backward_Custom takes exactly the declared dependencies: (out_grad, in_data).
    g = _backward_custom(mx.nd.array(og), mx.nd.array(x), op_type="test_sqr")
    np.testing.assert_allclose(g.asnumpy(), 2 * x * og, rtol=1e-6)


def test_two_inputs_kwargs_and_backward_with_default_dependencies():
    a = np.arange(6, dtype="float32").reshape(2, 3)
    b = np.ones((2, 3), dtype="float32")
    out = mx.nd.Custom(mx.nd.array(a), mx.nd.array(b), op_type="test_scaled", scale=2.5)
    np.testing.assert_allclose(out.asnumpy(), 2.5 * a + b)
    # Default dependencies: out_grad, lhs, rhs, output.
    og = np.full((2, 3), 2.0, dtype="float32")
    ga, gb = _backward_custom(mx.nd.array(og), mx.nd.array(a), mx.nd.array(b), out,
                              op_type="test_scaled", scale=2.5)
    np.testing.assert_allclose(ga.asnumpy(), og * 2.5)
    np.testing.assert_allclose(gb.asnumpy(), og)


def test_out_argument_and_dtype():
    x = mx.nd.array([[1.0, -2.0]], dtype="float64")
    out = mx.nd.zeros((1, 2), dtype="float64")
    mx.nd.Custom(x, op_type="test_sqr", out=out)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out.asnumpy(), [[1.0, 4.0]])


def test_aux_state_updated_in_place_and_flags_inside_forward():
    Counter.seen[:] = []
    count = mx.nd.zeros((1,))
    x = mx.nd.array([1.0, 2.0])
    prev = ctypes.c_int()
    check_call(_LIB.MXAutogradSetIsRecording(1, ctypes.byref(prev)))
    check_call(_LIB.MXAutogradSetIsTraining(1, ctypes.byref(prev)))
    try:
        for _ in range(3):
            y = mx.nd.Custom(x, count, op_type="test_counter")
        y.wait_to_read()
    finally:
        check_call(_LIB.MXAutogradSetIsRecording(0, ctypes.byref(prev)))
        check_call(_LIB.MXAutogradSetIsTraining(0, ctypes.byref(prev)))
    np.testing.assert_array_equal(count.asnumpy(), [3.0])
    np.testing.assert_array_equal(y.asnumpy(), [1.0, 2.0])
    assert len(Counter.seen) == 3
    for recording, is_train, on_main in Counter.seen:
        assert recording is False          # autograd recording is off inside custom ops
        assert is_train is True            # the caller's training flag is passed on
        assert on_main is False            # runs on a custom-op worker thread


def test_custom_op_calling_custom_ops_and_waiting_inside():
    x = np.array([[1.0, -2.0, 3.0]], dtype="float32")
    y = mx.nd.Custom(mx.nd.array(x), op_type="test_nested")
    np.testing.assert_allclose(y.asnumpy(), 3 * x * x + x * x)
    # Nested twice: an outer op whose inner ops are themselves custom ops in flight.
    z = mx.nd.Custom(y, op_type="test_nested")
    np.testing.assert_allclose(z.asnumpy(), 4 * (4 * x * x) ** 2, rtol=1e-6)


def test_many_custom_ops_in_flight_from_several_threads():
    errors = []
    results = {}

    def worker(tid):
        try:
            rng = np.random.RandomState(tid)
            outs = []
            for i in range(25):
                x = rng.uniform(-1, 1, size=(8, 5)).astype("float32")
                y = mx.nd.Custom(mx.nd.array(x), op_type="test_sqr")
                z = mx.nd.Custom(y, mx.nd.array(x), op_type="test_scaled", scale=tid + 1)
                outs.append((x, z))
            results[tid] = [(x, z.asnumpy()) for x, z in outs]
        except Exception as e:  # pylint: disable=broad-except
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "custom ops deadlocked"
    assert not errors, errors
    for tid, pairs in results.items():
        for x, z in pairs:
            np.testing.assert_allclose(z, (tid + 1) * x * x + x, rtol=1e-5, atol=1e-6)


def test_exception_in_forward_surfaces_at_wait_and_process_survives():
    y = mx.nd.Custom(mx.nd.ones((2, 2)), op_type="test_failing")
    with pytest.raises(MXNetError) as info:
        y.asnumpy()
    msg = str(info.value)
    assert "custom forward exploded on purpose" in msg
    assert "Traceback" in msg and "ValueError" in msg
    # Still usable afterwards, including custom ops.
    ok = mx.nd.Custom(mx.nd.array([3.0]), op_type="test_sqr")
    np.testing.assert_array_equal(ok.asnumpy(), [9.0])


def test_exception_in_backward_surfaces_at_wait():
    g = _backward_custom(mx.nd.ones((2,)), mx.nd.ones((2,)), mx.nd.ones((2,)),
                         op_type="test_failing")
    with pytest.raises(MXNetError, match="custom backward exploded on purpose"):
        g.wait_to_read()


def test_errors_in_property_callbacks_and_lookup():
    with pytest.raises(MXNetError, match="infer_shape refuses"):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="test_bad_shape")
    with pytest.raises(MXNetError, match="Cannot find custom operator no_such_op"):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="no_such_op")
    with pytest.raises(MXNetError, match="op_type"):
        mx.nd.Custom(mx.nd.ones((2,)))
    with pytest.raises(MXNetError, match="test_scaled"):
        mx.nd.Custom(mx.nd.ones((2,)), mx.nd.ones((2,)), op_type="test_scaled", bogus=1)


def test_seed_softmax_matches_builtin_softmax_and_its_gradient():
    rng = np.random.RandomState(7)
    x = rng.randn(5, 4).astype("float32")
    label = np.array([0, 3, 1, 1, 2], dtype="float32")
    out = mx.nd.Custom(mx.nd.array(x), mx.nd.array(label), op_type="softmax")
    builtin = mx.nd.softmax(mx.nd.array(x))
    np.testing.assert_allclose(out.asnumpy(), builtin.asnumpy(), rtol=1e-5, atol=1e-6)
    # need_top_grad=False: backward depends on (data, label, output) only.
    grad = _backward_custom(mx.nd.array(x), mx.nd.array(label), out, op_type="softmax")
    ref = _invoke("_backward_SoftmaxOutput", mx.nd.ones((5, 4)), mx.nd.array(label), builtin)
    ref = ref[0] if isinstance(ref, list) else ref
    np.testing.assert_allclose(grad[0].asnumpy() if isinstance(grad, list) else grad.asnumpy(),
                               ref.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(not hasattr(mx, "autograd"), reason="mx.autograd not merged yet (issue 4)")
def test_autograd_through_custom_ops():
    x = mx.nd.array([[1.0, -2.0], [0.5, 3.0]])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="test_sqr")
        z = mx.nd.Custom(y, x, op_type="test_scaled", scale=2)
    z.backward()
    xn = x.asnumpy()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * 2 * xn + 1, rtol=1e-6)


def _mlp_data():
    rng = np.random.RandomState(0)
    n, d, k = 200, 10, 3
    labels = rng.randint(0, k, size=n)
    data = (rng.randn(k, d)[labels] * 3 + rng.randn(n, d)).astype("float32")
    return data, labels, k


def _mlp(custom, k):
    x = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(x, num_hidden=16, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu")
    fc2 = mx.sym.FullyConnected(act, num_hidden=k, name="fc2")
    if custom:   # the seed's usage
        return mx.sym.Custom(data=fc2, label=mx.sym.Variable("softmax_label"), name="softmax",
                             op_type="softmax")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


@pytest.mark.skipif(not hasattr(mx, "sym"),
                    reason="mx.sym and the executor are not merged yet (issue 4)")
def test_seed_softmax_trains_an_mlp_through_the_executor():
    data, labels, k = _mlp_data()
    first_grads, accuracy = {}, {}
    for custom in (True, False):
        exe = _mlp(custom, k).simple_bind(mx.cpu(), data=data.shape, softmax_label=labels.shape)
        init = np.random.RandomState(1)
        for name, arr in exe.arg_dict.items():
            if name == "data":
                arr[:] = data
            elif name == "softmax_label":
                arr[:] = labels
            else:
                arr[:] = init.uniform(-0.1, 0.1, size=arr.shape)
        for step in range(40):
            exe.forward(is_train=True)
            exe.backward()
            if step == 0:
                first_grads[custom] = {n: g.asnumpy().copy() for n, g in exe.grad_dict.items()
                                       if n.startswith("fc")}
            for name in exe.arg_dict:
                if name.startswith("fc"):
                    exe.arg_dict[name][:] -= 0.005 * exe.grad_dict[name]
        exe.forward(is_train=False)
        accuracy[custom] = (exe.outputs[0].asnumpy().argmax(axis=1) == labels).mean()
    # Same gradients as the built-in SoftmaxOutput, and the network learns.
    for name in first_grads[True]:
        np.testing.assert_allclose(first_grads[True][name], first_grads[False][name],
                                   rtol=1e-4, atol=1e-5)
    assert accuracy[True] > 0.9 and abs(accuracy[True] - accuracy[False]) < 0.05


@pytest.mark.skipif(not (hasattr(mx, "sym") and hasattr(mx, "mod") and hasattr(mx, "io")),
                    reason="Module and NDArrayIter are not merged yet (issue 7)")
def test_seed_softmax_trains_with_module_fit():
    data, labels, k = _mlp_data()
    it = mx.io.NDArrayIter(data, labels, batch_size=20, shuffle=True, label_name="softmax_label")
    mod = mx.mod.Module(_mlp(True, k), context=mx.cpu())
    mod.fit(it, num_epoch=10, optimizer="sgd", optimizer_params={"learning_rate": 0.1})
    acc = mod.score(mx.io.NDArrayIter(data, labels, batch_size=20,
                                      label_name="softmax_label"), "acc")[0][1]
    assert acc > 0.9


_NAIVE_SCRIPT = r"""
import numpy as np, mxnet as mx
class Sqr(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        inner = mx.nd.array(in_data[0].asnumpy() ** 2)
        self.assign(out_data[0], req[0], inner)
class Boom(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        raise ValueError("naive boom")
@mx.operator.register("nsqr")
class SqrProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return Sqr()
@mx.operator.register("nboom")
class BoomProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return Boom()
y = mx.nd.Custom(mx.nd.array([2.0, 3.0]), op_type="nsqr")
assert y.asnumpy().tolist() == [4.0, 9.0]
try:
    mx.nd.Custom(mx.nd.ones((1,)), op_type="nboom").asnumpy()
    raise SystemExit("no error")
except mx.base.MXNetError as e:
    assert "naive boom" in str(e), str(e)
print("NAIVE_OK")
"""


def test_naive_engine_runs_custom_ops_synchronously():
    env = dict(os.environ, MXNET_ENGINE_TYPE="NaiveEngine")
    res = subprocess.run([sys.executable, "-c", _NAIVE_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=120)
    assert "NAIVE_OK" in res.stdout, res.stdout + res.stderr
