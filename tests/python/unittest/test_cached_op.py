"""mx.nd.CachedOp: forward against the executor and NumPy, autograd against the same ops run
imperatively op by op, aux-state updates, shape changes, flags and error paths."""
import ctypes

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, nd
from mxnet.base import MXNetError, _LIB


def mlp_symbol(num_hidden=(16, 12), num_out=5):
    x = mx.sym.var("data")
    h = x
    for i, n in enumerate(num_hidden):
        h = mx.sym.FullyConnected(h, num_hidden=n, name="fc%d" % i)
        h = mx.sym.Activation(h, act_type="relu", name="relu%d" % i)
    return mx.sym.FullyConnected(h, num_hidden=num_out, name="out")


def random_inputs(sym, data_shape, seed=0):
    rng = np.random.RandomState(seed)
    arg_shapes, _, aux_shapes = sym.infer_shape(data=data_shape)
    shapes = dict(zip(sym.list_arguments(), arg_shapes))
    shapes.update(zip(sym.list_auxiliary_states(), aux_shapes))
    out = []
    for name in sym.list_inputs():
        v = rng.uniform(-1, 1, size=shapes[name]).astype(np.float32)
        if name.endswith("moving_var"):
            v = np.abs(v) + 0.5
        out.append(nd.array(v))
    return out


def mlp_imperative(data, params, num_layers=3):
    h = data
    for i in range(num_layers):
        w, b = params[2 * i], params[2 * i + 1]
        h = nd.FullyConnected(h, w, b, num_hidden=w.shape[0])
        if i < num_layers - 1:
            h = nd.Activation(h, act_type="relu")
    return h


def np_mlp(data, params, num_layers=3):
    h = data
    for i in range(num_layers):
        w, b = params[2 * i], params[2 * i + 1]
        h = h.dot(w.T) + b
        if i < num_layers - 1:
            h = np.maximum(h, 0)
    return h


@pytest.mark.parametrize("flags", [(), [("static_alloc", True)],
                                   {"static_alloc": True, "static_shape": True}])
def test_forward_matches_executor_and_numpy(flags):
    sym = mlp_symbol()
    inputs = random_inputs(sym, (4, 7))
    op = nd.CachedOp(sym, flags)
    out = op(*inputs)
    assert isinstance(out, nd.NDArray) and out.shape == (4, 5)
    ex = sym.bind(mx.cpu(), dict(zip(sym.list_arguments(), inputs)))
    ex.forward(is_train=False)
    np.testing.assert_allclose(out.asnumpy(), ex.outputs[0].asnumpy(), rtol=1e-5, atol=1e-6)
    ref = np_mlp(inputs[0].asnumpy(), [a.asnumpy() for a in inputs[1:]])
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)


def test_new_data_every_call_and_shape_changes():
    sym = mlp_symbol()
    op = nd.CachedOp(sym, [("static_alloc", True)])
    params = random_inputs(sym, (3, 7))[1:]
    np_params = [p.asnumpy() for p in params]
    outs = []
    for step, batch in enumerate([3, 3, 6, 3, 1, 6]):
        data = nd.array(np.random.RandomState(step).uniform(-1, 1, (batch, 7)))
        out = op(data, *params)
        outs.append((data, out))
    # Every earlier result must still hold its own value (outputs are not reused buffers).
    for data, out in outs:
        np.testing.assert_allclose(out.asnumpy(), np_mlp(data.asnumpy(), np_params),
                                   rtol=1e-4, atol=1e-5)


def test_parameter_update_in_place_is_seen():
    sym = mlp_symbol()
    inputs = random_inputs(sym, (2, 7))
    op = nd.CachedOp(sym)
    op(*inputs).wait_to_read()
    inputs[1][:] = inputs[1] * 2          # same array, new values (an optimizer step)
    ref = np_mlp(inputs[0].asnumpy(), [a.asnumpy() for a in inputs[1:]])
    np.testing.assert_allclose(op(*inputs).asnumpy(), ref, rtol=1e-4, atol=1e-5)


def test_multi_output_and_out_argument():
    a = mx.sym.var("a")
    b = mx.sym.var("b")
    sym = mx.sym.Group([a + b, a * b, mx.sym.exp(a)])
    op = nd.CachedOp(sym)
    x, y = nd.array([[1.0, 2.0]]), nd.array([[3.0, -1.0]])
    outs = op(x, y)
    assert isinstance(outs, list) and len(outs) == 3
    np.testing.assert_allclose(outs[0].asnumpy(), [[4, 1]])
    np.testing.assert_allclose(outs[1].asnumpy(), [[3, -2]])
    np.testing.assert_allclose(outs[2].asnumpy(), np.exp([[1.0, 2.0]]), rtol=1e-6)
    dst = [nd.zeros((1, 2)) for _ in range(3)]
    ret = op(x, y, out=dst)
    assert ret is dst
    np.testing.assert_allclose(dst[1].asnumpy(), [[3, -2]])


def _grads_imperative(inputs, grad_data, forward):
    for a in inputs:
        a.attach_grad()
    with autograd.record():
        loss = (forward(inputs) ** 2).sum()
    loss.backward()
    return loss.asscalar(), [a.grad.asnumpy() for a in inputs]


@pytest.mark.parametrize("flags", [(), [("static_alloc", True), ("static_shape", True)]])
def test_backward_matches_imperative(flags):
    sym = mlp_symbol()
    op = nd.CachedOp(sym, flags)
    base = random_inputs(sym, (5, 7), seed=3)
    ins_c = [a.copy() for a in base]
    ins_i = [a.copy() for a in base]
    loss_c, grads_c = _grads_imperative(ins_c, True, lambda xs: op(*xs))
    loss_i, grads_i = _grads_imperative(ins_i, True, lambda xs: mlp_imperative(xs[0], xs[1:]))
    assert abs(loss_c - loss_i) <= 1e-4 * abs(loss_i)
    for gc, gi in zip(grads_c, grads_i):
        np.testing.assert_allclose(gc, gi, rtol=1e-4, atol=1e-5)
    # A second step with new data reuses the bound graph and still matches.
    data = nd.array(np.random.RandomState(9).uniform(-1, 1, (5, 7)))
    loss_c, grads_c = _grads_imperative([data.copy()] + ins_c[1:], True, lambda xs: op(*xs))
    loss_i, grads_i = _grads_imperative([data.copy()] + ins_i[1:], True,
                                        lambda xs: mlp_imperative(xs[0], xs[1:]))
    for gc, gi in zip(grads_c, grads_i):
        np.testing.assert_allclose(gc, gi, rtol=1e-4, atol=1e-5)


def test_constant_inputs_and_grad_add():
    sym = mlp_symbol()
    op = nd.CachedOp(sym)
    base = random_inputs(sym, (4, 7), seed=5)
    data = base[0]                       # no attach_grad: a constant
    params = [a.copy() for a in base[1:]]
    for p in params:
        p.attach_grad(grad_req="add")
    ref_params = [a.copy() for a in base[1:]]
    for p in ref_params:
        p.attach_grad()
    with autograd.record():
        ref = (mlp_imperative(data, ref_params) * 3).sum()
    ref.backward()
    for _ in range(2):
        with autograd.record():
            loss = (op(data, *params) * 3).sum()
        loss.backward()
    for p, r in zip(params, ref_params):
        np.testing.assert_allclose(p.grad.asnumpy(), 2 * r.grad.asnumpy(), rtol=1e-4, atol=1e-5)


def test_two_calls_recorded_before_one_backward():
    # The second call must not overwrite the values the first call's backward needs.
    sym = mlp_symbol()
    op = nd.CachedOp(sym, [("static_alloc", True)])
    base = random_inputs(sym, (3, 7), seed=7)
    x2 = nd.array(np.random.RandomState(8).uniform(-1, 1, (3, 7)))
    params_c = [a.copy() for a in base[1:]]
    params_i = [a.copy() for a in base[1:]]
    for p in params_c + params_i:
        p.attach_grad()
    with autograd.record():
        loss_c = (op(base[0], *params_c) * op(x2, *params_c)).sum()
    loss_c.backward()
    with autograd.record():
        loss_i = (mlp_imperative(base[0], params_i) * mlp_imperative(x2, params_i)).sum()
    loss_i.backward()
    for pc, pi in zip(params_c, params_i):
        np.testing.assert_allclose(pc.grad.asnumpy(), pi.grad.asnumpy(), rtol=1e-4, atol=1e-5)


def test_cached_op_between_imperative_ops_and_autograd_grad():
    a = mx.sym.var("a")
    sym = mx.sym.tanh(a) * a + mx.sym.sin(a)
    op = nd.CachedOp(sym, [("inline_limit", 0)])
    x = nd.array(np.linspace(-1, 1, 6).reshape(2, 3))
    x.attach_grad()
    with autograd.record():
        y = op(x * 2)
        z = (y * y).sum()
    (g,) = autograd.grad(z, [x])
    xn = 2 * x.asnumpy()
    yn = np.tanh(xn) * xn + np.sin(xn)
    dy = (1 - np.tanh(xn) ** 2) * xn + np.tanh(xn) + np.cos(xn)
    np.testing.assert_allclose(g.asnumpy(), 2 * yn * dy * 2, rtol=1e-4, atol=1e-5)


def test_inline_small_graph_records_op_by_op():
    a = mx.sym.var("a")
    op = nd.CachedOp(mx.sym.sigmoid(a))          # 1 op <= inline_limit 2
    x = nd.array([[0.5, -1.0, 2.0]])
    x.attach_grad()
    with autograd.record():
        y = op(x)
    y.backward()
    s = 1 / (1 + np.exp(-x.asnumpy()))
    np.testing.assert_allclose(y.asnumpy(), s, rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), s * (1 - s), rtol=1e-5)


def bn_symbol():
    x = mx.sym.var("data")
    h = mx.sym.FullyConnected(x, num_hidden=6, name="fc")
    h = mx.sym.BatchNorm(h, name="bn", fix_gamma=False, momentum=0.8)
    return mx.sym.Activation(h, act_type="relu", name="act")


@pytest.mark.parametrize("flags", [(), [("static_alloc", True)]])
def test_batchnorm_aux_states_update_like_imperative(flags):
    sym = bn_symbol()
    names = sym.list_inputs()
    assert names == ["data", "fc_weight", "fc_bias", "bn_gamma", "bn_beta", "bn_moving_mean",
                     "bn_moving_var"]
    base = random_inputs(sym, (8, 4), seed=11)
    ins_c = [a.copy() for a in base]
    ins_i = [a.copy() for a in base]
    op = nd.CachedOp(sym, flags)
    for p in ins_c[1:5] + ins_i[1:5]:
        p.attach_grad()

    def imperative(xs):
        h = nd.FullyConnected(xs[0], xs[1], xs[2], num_hidden=6)
        h = nd.BatchNorm(h, xs[3], xs[4], xs[5], xs[6], fix_gamma=False, momentum=0.8)
        return nd.Activation(h, act_type="relu")

    for step in range(2):
        data = nd.array(np.random.RandomState(step).uniform(-1, 1, (8, 4)))
        ins_c[0] = data.copy()
        ins_i[0] = data.copy()
        with autograd.record():
            lc = (op(*ins_c) ** 2).sum()
        lc.backward()
        with autograd.record():
            li = (imperative(ins_i) ** 2).sum()
        li.backward()
        np.testing.assert_allclose(lc.asscalar(), li.asscalar(), rtol=1e-4)
        for k in (5, 6):               # moving mean / var updated exactly as imperatively
            np.testing.assert_allclose(ins_c[k].asnumpy(), ins_i[k].asnumpy(), rtol=1e-5,
                                       atol=1e-6)
        assert not np.allclose(ins_c[5].asnumpy(), base[5].asnumpy())
        for k in range(1, 5):
            np.testing.assert_allclose(ins_c[k].grad.asnumpy(), ins_i[k].grad.asnumpy(),
                                       rtol=1e-4, atol=1e-5)
    # Inference leaves the moving statistics alone and uses them.
    before = [ins_c[5].asnumpy(), ins_c[6].asnumpy()]
    out = op(*ins_c)
    ref = imperative(ins_c)
    np.testing.assert_allclose(out.asnumpy(), ref.asnumpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ins_c[5].asnumpy(), before[0])
    np.testing.assert_allclose(ins_c[6].asnumpy(), before[1])


def test_aux_state_passed_as_new_array_each_call_is_updated():
    sym = bn_symbol()
    base = random_inputs(sym, (8, 4), seed=2)
    op = nd.CachedOp(sym)
    ref = [a.copy() for a in base]
    with autograd.train_mode():
        for _ in range(2):
            mean = base[5].copy()       # a different array on every call
            ins = base[:5] + [mean, base[6]]
            op(*ins)
            nd.BatchNorm(nd.FullyConnected(ref[0], ref[1], ref[2], num_hidden=6), ref[3],
                         ref[4], ref[5], ref[6], fix_gamma=False, momentum=0.8)
            np.testing.assert_allclose(mean.asnumpy(), ref[5].asnumpy(), rtol=1e-5, atol=1e-6)
            ref[5][:] = base[5]          # undo for the next round (the cached call's
            ref[6][:] = base[6].asnumpy()  # base[6] array was updated in place too)
            base[6][:] = ref[6]


def test_dropout_train_and_predict_mode():
    x = mx.sym.var("x")
    op = nd.CachedOp(mx.sym.Dropout(x * 1, p=0.5) * 1)
    data = nd.ones((50, 40))
    data.attach_grad()
    np.testing.assert_allclose(op(data).asnumpy(), data.asnumpy())        # predict mode
    with autograd.record(train_mode=False):
        np.testing.assert_allclose(op(data).asnumpy(), data.asnumpy())
    with autograd.record():
        y = op(data)
    y.backward()
    yn = y.asnumpy()
    assert set(np.unique(yn)).issubset({0.0, 2.0})
    assert 0.3 < (yn == 0).mean() < 0.7
    np.testing.assert_allclose(data.grad.asnumpy(), yn)   # d(mask*2*x)/dx = mask*2 = y


def test_random_op_is_seeded():
    x = mx.sym.var("x")
    op = nd.CachedOp(mx.sym.Dropout(x, p=0.5, mode="always") + 0)
    data = nd.ones((10, 10))
    mx.random.seed(42)
    a = op(data).asnumpy()
    b = op(data).asnumpy()
    mx.random.seed(42)
    c = op(data).asnumpy()
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(a, c)


def test_errors():
    sym = mlp_symbol()
    inputs = random_inputs(sym, (2, 7))
    op = nd.CachedOp(sym)
    with pytest.raises(MXNetError, match=r"expects 7 input\(s\) \[data, fc0_weight"):
        op(*inputs[:3])
    bad = list(inputs)
    bad[1] = nd.zeros((16, 3))
    with pytest.raises(MXNetError, match=r"CachedOp\(out_output\).*fc0_weight\[16,3\] float32.*expected weight of shape \[16,7\]"):
        op(*bad)
    bad = list(inputs)
    bad[2] = nd.zeros((16,), dtype="float64")
    with pytest.raises(MXNetError, match=r"fc0_bias\[16\] float64"):
        op(*bad)
    with pytest.raises(TypeError):
        op(inputs[0].asnumpy(), *inputs[1:])
    with pytest.raises(TypeError):
        op(*inputs, foo=1)
    with pytest.raises(MXNetError, match="unknown flag 'static_aloc'"):
        nd.CachedOp(sym, [("static_aloc", True)])
    with pytest.raises(MXNetError, match="expected a boolean"):
        nd.CachedOp(sym, [("static_alloc", "maybe")])
    with pytest.raises(MXNetError, match="data_indices: index 9 out of range"):
        nd.CachedOp(sym, {"data_indices": [9]})
    # The op still works after the errors.
    np.testing.assert_allclose(op(*inputs).asnumpy(),
                               np_mlp(inputs[0].asnumpy(), [a.asnumpy() for a in inputs[1:]]),
                               rtol=1e-4, atol=1e-5)


def test_freed_handle_is_an_error():
    sym = mlp_symbol()
    inputs = random_inputs(sym, (2, 7))
    op = nd.CachedOp(sym)
    handle = op.handle
    assert _LIB.MXFreeCachedOp(handle) == 0
    op.handle = None
    with pytest.raises(MXNetError, match="freed"):
        op(*inputs)
    ins = (ctypes.c_void_p * len(inputs))(*[a.handle for a in inputs])
    nout = ctypes.c_int(0)
    outp = ctypes.POINTER(ctypes.c_void_p)()
    assert _LIB.MXInvokeCachedOpEx(handle, len(inputs), ins, ctypes.byref(nout),
                                   ctypes.byref(outp), None) == -1
    assert b"invalid" in _LIB.MXGetLastError()
    assert _LIB.MXFreeCachedOp(handle) == -1


def test_recorded_call_outlives_freed_op():
    a = mx.sym.var("a")
    op = nd.CachedOp(mx.sym.exp(a) * mx.sym.sin(a), [("inline_limit", 0)])
    x = nd.array([0.3, -0.7])
    x.attach_grad()
    with autograd.record():
        y = op(x)
    del op
    y.backward()
    xn = x.asnumpy()
    np.testing.assert_allclose(x.grad.asnumpy(), np.exp(xn) * (np.sin(xn) + np.cos(xn)),
                               rtol=1e-5)


def test_op_hook_reports_every_operator():
    sym = mlp_symbol()
    inputs = random_inputs(sym, (2, 7))
    op = nd.CachedOp(sym)
    seen = []
    op._register_op_hook(lambda name, op_name, arr: seen.append((name, op_name, arr.shape)))
    op(*inputs).wait_to_read()
    ops = [o for _, o, _ in seen]
    assert ops.count("FullyConnected") == 3 and ops.count("Activation") == 2
    assert ("out_output", "FullyConnected", (2, 5)) in seen
    # Registering again (Gluon does it before every call) replaces the hook; None removes it.
    second = []
    op._register_op_hook(lambda name, op_name, arr: second.append(name), monitor_all=True)
    n_before = len(seen)
    op(*inputs).wait_to_read()
    assert len(seen) == n_before
    assert "fc0_data" in second and "fc0_weight" in second and "out_output" in second
    op._register_op_hook(None)
    n_second = len(second)
    op(*inputs).wait_to_read()
    assert len(second) == n_second


def test_gluon_style_flags():
    # What gluon.HybridBlock passes: index lists, bools and inline_limit.
    sym = mlp_symbol()
    flags = [("data_indices", [0]), ("param_indices", list(range(1, 7))),
             ("static_alloc", False), ("static_shape", False), ("inline_limit", 2),
             ("forward_bulk_size", 15), ("backward_bulk_size", 15)]
    op = nd.CachedOp(sym, flags)
    params = random_inputs(sym, (4, 7))[1:]
    for step in range(3):
        data = nd.array(np.random.RandomState(step).uniform(-1, 1, (4, 7)))
        np.testing.assert_allclose(op(data, *params).asnumpy(),
                                   np_mlp(data.asnumpy(), [p.asnumpy() for p in params]),
                                   rtol=1e-4, atol=1e-5)
    with pytest.raises(MXNetError, match="static_shape=True requires static_alloc=True"):
        nd.CachedOp(sym, [("static_shape", True)])


def test_recorded_node_infers_shape_and_type():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    sym = mx.sym.Group([mx.sym.FullyConnected(a, b, no_bias=True, num_hidden=3), a * 2])
    op = nd.CachedOp(sym, [("inline_limit", 0)])
    x, w = nd.ones((2, 4)), nd.ones((3, 4))
    x.attach_grad()
    w.attach_grad()
    with autograd.record():
        y = op(x, w)
    tape = autograd.get_symbol(y[0])
    names = tape.list_inputs()
    _, out_shapes, _ = tape.infer_shape(**dict(zip(names, [(5, 4), (3, 4)])))
    assert out_shapes == [(5, 3)]
    _, out_types, _ = tape.infer_type(**dict(zip(names, ["float64", "float64"])))
    assert out_types == [np.float64]


def test_all_inputs_recorded_including_aux_match_imperative():
    # Aux states with attach_grad are recorded inputs: their gradient is zero, as imperatively.
    sym = mx.sym.BatchNorm(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc"),
                           name="bn") * 2
    base = random_inputs(sym, (4, 5), seed=4)
    ins_c = [a.copy() for a in base]
    ins_i = [a.copy() for a in base]
    for a in ins_c + ins_i:
        a.attach_grad()
        a.grad[:] = 7                       # stale values must be overwritten
    op = nd.CachedOp(sym)
    with autograd.record():
        yc = op(*ins_c)
    yc.backward(nd.array(np.random.RandomState(1).uniform(size=(4, 3))))
    with autograd.record():
        yi = nd.BatchNorm(nd.FullyConnected(ins_i[0], ins_i[1], ins_i[2], num_hidden=3),
                          *ins_i[3:]) * 2
    yi.backward(nd.array(np.random.RandomState(1).uniform(size=(4, 3))))
    for c, i in zip(ins_c, ins_i):
        np.testing.assert_allclose(c.grad.asnumpy(), i.grad.asnumpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(ins_c[5].grad.asnumpy(), np.zeros(3))


def test_multi_output_partial_use_and_chained_calls():
    a = mx.sym.var("a")
    op = nd.CachedOp(mx.sym.Group([mx.sym.sin(a) * 2, mx.sym.cos(a) * 3]),
                     [("inline_limit", 0)])
    x = nd.array([0.1, 0.5, -0.3])
    x.attach_grad()
    with autograd.record():
        y0, _ = op(x)
        loss = (y0 * y0).sum()
    loss.backward()
    xn = x.asnumpy()
    np.testing.assert_allclose(x.grad.asnumpy(), 8 * np.sin(xn) * np.cos(xn), rtol=1e-5)
    op2 = nd.CachedOp(mx.sym.exp(a) * a, [("inline_limit", 0)])
    with autograd.record():
        z = op2(op2(x))
    z.backward()

    def f(v):
        return np.exp(v) * v

    def df(v):
        return np.exp(v) * (1 + v)
    np.testing.assert_allclose(x.grad.asnumpy(), df(f(xn)) * df(xn), rtol=1e-5)
