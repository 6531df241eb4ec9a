"""Symbolic control flow: _foreach, _while_loop and _cond (src/imperative/control_flow.cc) and
mx.sym.contrib.foreach/while_loop/cond (python/mxnet/symbol/contrib.py).

Checked against NumPy references written from the definitions, the imperative
mx.nd.contrib versions under autograd, finite differences, and MXNet 1.9.1 (outputs,
gradients and the symbol JSON with "subgraphs")."""
import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon

import mx191_oracle

RS = np.random.RandomState


def _bind(sym, arrays, grad_req="write"):
    args = {k: mx.nd.array(v) for k, v in arrays.items()}
    grads = {k: mx.nd.zeros(v.shape) for k, v in arrays.items()}
    return sym.bind(mx.cpu(), args, args_grad=grads, grad_req=grad_req), grads


# ---------------------------------------------------------------------------------------------
# foreach

def _rnn_symbol():
    def step(x, states):
        h = mx.sym.tanh(mx.sym.dot(x, mx.sym.var("w")) + states[0])
        return h, [h]
    out, states = mx.sym.contrib.foreach(step, mx.sym.var("data"), [mx.sym.var("h0")])
    return mx.sym.Group([out] + states)


def _rnn_numpy(x, h, w):
    ys = []
    for t in range(x.shape[0]):
        h = np.tanh(x[t] @ w + h)
        ys.append(h)
    return np.stack(ys), h


def _rnn_inputs(T=4, N=2, H=3):
    return {"data": RS(0).randn(T, N, H).astype("f"), "h0": RS(1).randn(N, H).astype("f"),
            "w": (RS(2).randn(H, H) * 0.5).astype("f")}


def test_foreach_symbol_lists_inputs_and_outputs():
    sym = _rnn_symbol()
    assert sym.list_arguments() == ["data", "h0", "w"]
    assert sym.list_outputs() == ["_foreach0_output0", "_foreach0_output1"] or \
        all(n.endswith(("_output0", "_output1")) for n in sym.list_outputs())
    arg_shapes, out_shapes, _ = sym.infer_shape(data=(5, 2, 3), h0=(2, 3), w=(3, 3))
    assert arg_shapes == [(5, 2, 3), (2, 3), (3, 3)]
    assert out_shapes == [(5, 2, 3), (2, 3)]
    assert sym.infer_type(data="float64")[1] == [np.float64, np.float64]
    # A weight's shape comes from the body (FullyConnected infers it from the step's data).
    out, _ = mx.sym.contrib.foreach(
        lambda x, s: (mx.sym.FullyConnected(x, num_hidden=4, name="fc") + s[0], [s[0]]),
        mx.sym.var("data"), [mx.sym.var("s")])
    assert out.infer_shape(data=(5, 2, 3), s=(2, 4))[0] == [(5, 2, 3), (2, 4), (4, 3), (4,)]


def test_foreach_executor_forward_backward_vs_numpy_and_autograd():
    arrays = _rnn_inputs()
    ex, grads = _bind(_rnn_symbol(), arrays)
    outs = ex.forward(is_train=True)
    ys, hT = _rnn_numpy(arrays["data"], arrays["h0"], arrays["w"])
    np.testing.assert_allclose(outs[0].asnumpy(), ys, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[1].asnumpy(), hT, rtol=1e-5, atol=1e-6)
    head = [mx.nd.array(RS(3).randn(*ys.shape)), mx.nd.array(RS(4).randn(*hT.shape))]
    ex.backward(head)
    # The imperative foreach under autograd.
    x, h, w = (mx.nd.array(arrays[k]) for k in ("data", "h0", "w"))
    for a in (x, h, w):
        a.attach_grad()
    with autograd.record():
        out, st = mx.nd.contrib.foreach(
            lambda d, s: (lambda n: (n, [n]))(mx.nd.tanh(mx.nd.dot(d, w) + s[0])), x, [h])
        loss = (out * head[0]).sum() + (st[0] * head[1]).sum()
    loss.backward()
    for name, arr in (("data", x), ("h0", h), ("w", w)):
        np.testing.assert_allclose(grads[name].asnumpy(), arr.grad.asnumpy(), rtol=1e-5,
                                   atol=1e-5, err_msg=name)


def test_foreach_gradient_vs_finite_differences():
    arrays = {k: v.astype("float64") for k, v in _rnn_inputs(T=3, N=2, H=2).items()}
    sym = _rnn_symbol()
    args = {k: mx.nd.array(v, dtype="float64") for k, v in arrays.items()}
    grads = {k: mx.nd.zeros(v.shape, dtype="float64") for k, v in arrays.items()}
    ex = sym.bind(mx.cpu(), args, args_grad=grads)
    wy, wh = RS(5).randn(3, 2, 2), RS(6).randn(2, 2)
    ex.forward(is_train=True)
    ex.backward([mx.nd.array(wy, dtype="float64"), mx.nd.array(wh, dtype="float64")])

    def loss(vals):
        ys, hT = _rnn_numpy(vals["data"], vals["h0"], vals["w"])
        return (ys * wy).sum() + (hT * wh).sum()

    eps = 1e-6
    for name in ("data", "h0", "w"):
        num = np.zeros_like(arrays[name])
        for idx in np.ndindex(*arrays[name].shape):
            plus = {k: v.copy() for k, v in arrays.items()}
            minus = {k: v.copy() for k, v in arrays.items()}
            plus[name][idx] += eps
            minus[name][idx] -= eps
            num[idx] = (loss(plus) - loss(minus)) / (2 * eps)
        np.testing.assert_allclose(grads[name].asnumpy(), num, rtol=1e-5, atol=1e-7,
                                   err_msg=name)


def test_foreach_nested_lists_several_data_and_states():
    def step(data, states):
        a, b = data
        s1, s2 = states
        out1 = a * 2 + s1
        out2 = b - s2
        return [out1, out2], [s1 + a, s2 * 0.5 + b]
    outs, states = mx.sym.contrib.foreach(step, [mx.sym.var("a"), mx.sym.var("b")],
                                          [mx.sym.var("s1"), mx.sym.var("s2")])
    sym = mx.sym.Group(outs + states)
    a, b = RS(0).randn(5, 3).astype("f"), RS(1).randn(5, 3).astype("f")
    s1, s2 = RS(2).randn(3).astype("f"), RS(3).randn(3).astype("f")
    ex, grads = _bind(sym, {"a": a, "b": b, "s1": s1, "s2": s2})
    got = [o.asnumpy() for o in ex.forward(is_train=True)]
    r1, r2, c1, c2 = [], [], s1.copy(), s2.copy()
    for t in range(5):
        r1.append(a[t] * 2 + c1)
        r2.append(b[t] - c2)
        c1, c2 = c1 + a[t], c2 * 0.5 + b[t]
    for g, want in zip(got, [np.stack(r1), np.stack(r2), c1, c2]):
        np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-5)
    ex.backward([mx.nd.ones(o.shape) for o in ex.outputs])
    # d(sum of everything)/ds1 = 5 (out1 each step) + 1 (final s1); s2: sum_t -(0.5^t) + 0.5^5.
    np.testing.assert_allclose(grads["s1"].asnumpy(), np.full(3, 6.0), rtol=1e-6)
    want_s2 = -sum(0.5 ** t for t in range(5)) + 0.5 ** 5
    np.testing.assert_allclose(grads["s2"].asnumpy(), np.full(3, want_s2), rtol=1e-6)


def test_foreach_grad_req_add_accumulates():
    arrays = _rnn_inputs()
    ex, grads = _bind(_rnn_symbol(), arrays, grad_req="add")
    head = [mx.nd.ones((4, 2, 3)), mx.nd.ones((2, 3))]
    ex.forward(is_train=True)
    ex.backward(head)
    once = {k: v.asnumpy().copy() for k, v in grads.items()}
    ex.forward(is_train=True)
    ex.backward(head)
    for k in once:
        np.testing.assert_allclose(grads[k].asnumpy(), 2 * once[k], rtol=1e-5, err_msg=k)


def test_foreach_body_reading_an_outer_node():
    x = mx.sym.var("x")
    fc = mx.sym.FullyConnected(x, num_hidden=3, no_bias=True, name="fc")
    outs, states = mx.sym.contrib.foreach(lambda d, s: (d + s[0] + fc, [s[0] * 2]),
                                          mx.sym.var("data"), [mx.sym.var("s")])
    sym = mx.sym.Group([outs] + states)
    assert sym.list_arguments() == ["data", "s", "x", "fc_weight"]
    vals = {"data": RS(0).randn(4, 2, 3), "s": RS(1).randn(2, 3), "x": RS(2).randn(2, 5),
            "fc_weight": RS(3).randn(3, 5)}
    ex, grads = _bind(sym, vals)
    out, sT = ex.forward(is_train=True)
    f = vals["x"] @ vals["fc_weight"].T
    s = vals["s"].copy()
    want = []
    for t in range(4):
        want.append(vals["data"][t] + s + f)
        s = s * 2
    np.testing.assert_allclose(out.asnumpy(), np.stack(want), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(sT.asnumpy(), s, rtol=1e-5, atol=1e-5)
    ex.backward([mx.nd.ones(out.shape), mx.nd.zeros(sT.shape)])
    # fc is read by every step: its gradient is summed over the 4 steps.
    np.testing.assert_allclose(grads["fc_weight"].asnumpy(),
                               4 * np.ones((3, 2)) @ vals["x"], rtol=1e-5, atol=1e-5)


def test_foreach_inside_foreach():
    def outer(row, states):
        inner_out, inner_states = mx.sym.contrib.foreach(
            lambda x, s: (x * s[0], [s[0] + x]), row, [states[0]])
        return inner_out, [inner_states[0]]
    out, st = mx.sym.contrib.foreach(outer, mx.sym.var("data"), [mx.sym.var("s")])
    sym = mx.sym.Group([out] + st)
    data, s0 = RS(0).randn(3, 4, 2), RS(1).randn(2)
    ex, grads = _bind(sym, {"data": data, "s": s0})
    got, sT = ex.forward(is_train=True)
    s = s0.copy()
    want = np.zeros_like(data)
    for i in range(3):
        for j in range(4):
            want[i, j] = data[i, j] * s
            s = s + data[i, j]
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(sT.asnumpy(), s, rtol=1e-5, atol=1e-5)
    ex.backward([mx.nd.ones(got.shape), mx.nd.ones(sT.shape)])
    assert np.isfinite(grads["data"].asnumpy()).all()


def test_foreach_state_shape_mismatch_is_an_error():
    out, st = mx.sym.contrib.foreach(lambda d, s: (d, [mx.sym.concat(s[0], s[0], dim=0)]),
                                     mx.sym.var("data"), [mx.sym.var("s")])
    with pytest.raises(mx.MXNetError, match="_foreach"):
        mx.sym.Group([out] + st).infer_shape(data=(3, 2), s=(2,))


# ---------------------------------------------------------------------------------------------
# Gluon: F.contrib.foreach / while_loop / cond in hybridized blocks.

class _ForeachNet(gluon.HybridBlock):
    def __init__(self, extra_ops, **kwargs):
        super().__init__(**kwargs)
        self.extra_ops = extra_ops
        with self.name_scope():
            self.w = self.params.get("w", shape=(3, 3))

    def hybrid_forward(self, F, x, h0, w):
        def step(d, states):
            h = F.tanh(F.dot(d, w) + states[0])
            return h, [h]
        out, states = F.contrib.foreach(step, x, [h0])
        if self.extra_ops:
            out = out * 2 + 1  # more nodes: the CachedOp binds an executor
        return out, states[0]


@pytest.mark.parametrize("extra_ops", [False, True])
def test_gluon_foreach_hybridized_matches_imperative(extra_ops):
    results = []
    for hybridize in (False, True):
        net = _ForeachNet(extra_ops)
        net.initialize()
        net.w.set_data(mx.nd.array(np.arange(9).reshape(3, 3) / 10.0))
        if hybridize:
            net.hybridize()
        x, h0 = mx.nd.array(RS(0).randn(4, 2, 3)), mx.nd.array(RS(1).randn(2, 3))
        x.attach_grad()
        h0.attach_grad()
        with autograd.record():
            out, hT = net(x, h0)
            loss = (out * out).sum() + hT.sum()
        loss.backward()
        infer = net(x, h0)[0].asnumpy()
        results.append([out.asnumpy(), hT.asnumpy(), x.grad.asnumpy(), h0.grad.asnumpy(),
                        net.w.grad().asnumpy(), infer])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


class _LoopNet(gluon.HybridBlock):
    def hybrid_forward(self, F, x, y):
        outs, final = F.contrib.while_loop(lambda i, s: i < 4,
                                           lambda i, s: ([s * y], [i + 1, s * 0.5 + y]),
                                           [F.zeros_like(x.sum(keepdims=True)), x],
                                           max_iterations=6)
        branch = F.contrib.cond(final[1].sum() > 0, lambda: final[1] * 3, lambda: final[1] - y)
        return outs[0] * 1, branch


def test_gluon_while_loop_and_cond_hybridized_matches_imperative():
    results = []
    for hybridize in (False, True):
        net = _LoopNet()
        if hybridize:
            net.hybridize()
        for sign in (1, -1):
            x = mx.nd.array(sign * np.abs(RS(0).randn(3)) + 0.1 * sign)
            y = mx.nd.array(RS(1).randn(3) * 0.1)
            x.attach_grad()
            y.attach_grad()
            with autograd.record():
                outs, branch = net(x, y)
                loss = outs[:4].sum() + (branch * branch).sum()
            loss.backward()
            results.append([outs.asnumpy()[:4], branch.asnumpy(), x.grad.asnumpy(),
                            y.grad.asnumpy()])
    half = len(results) // 2
    for imperative, hybrid in zip(results[:half], results[half:]):
        for a, b in zip(imperative, hybrid):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# while_loop

def _while_symbol(max_iterations=6):
    def func(i, s):
        return [s * 2, i + 1], [i + 1, s * i + s]
    outs, final = mx.sym.contrib.while_loop(lambda i, s: i < 3, func,
                                            [mx.sym.var("i"), mx.sym.var("s")],
                                            max_iterations=max_iterations)
    return mx.sym.Group(outs + final)


def test_while_loop_executor_vs_numpy_and_autograd():
    sym = _while_symbol()
    assert sym.list_arguments() == ["i", "s"]
    _, out_shapes, _ = sym.infer_shape(i=(1,), s=(1,))
    assert out_shapes == [(6, 1), (6, 1), (1,), (1,)]
    ex, grads = _bind(sym, {"i": np.array([1.0]), "s": np.array([1.5])})
    outs = [o.asnumpy().ravel() for o in ex.forward(is_train=True)]
    # steps: (i, s) = (1, 1.5) -> (2, 3.0) -> (3, 9.0): two steps run.
    np.testing.assert_allclose(outs[0], [3.0, 6.0, 0, 0, 0, 0])  # rows past the end are zeros
    np.testing.assert_allclose(outs[1], [2.0, 3.0, 0, 0, 0, 0])
    np.testing.assert_allclose(outs[2], [3.0])
    np.testing.assert_allclose(outs[3], [9.0])
    ex.backward([mx.nd.ones(o.shape) for o in ex.outputs])
    i, s = mx.nd.array([1.0]), mx.nd.array([1.5])
    i.attach_grad()
    s.attach_grad()
    with autograd.record():
        o, v = mx.nd.contrib.while_loop(lambda i, s: i < 3,
                                        lambda i, s: ([s * 2, i + 1], [i + 1, s * i + s]),
                                        [i, s], max_iterations=6)
        loss = o[0][:2].sum() + o[1][:2].sum() + v[0].sum() + v[1].sum()
    loss.backward()
    np.testing.assert_allclose(grads["i"].asnumpy(), i.grad.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(grads["s"].asnumpy(), s.grad.asnumpy(), rtol=1e-6)
    # By hand: s2 = s*(i+1)*(i+2); loss = 2s + 2s(i+1) + (i+1) + (i+2) + (i+2) + s2.
    np.testing.assert_allclose(grads["s"].asnumpy(), [2 + 2 * 2 + 2 * 3], rtol=1e-6)
    np.testing.assert_allclose(grads["i"].asnumpy(), [2 * 1.5 + 2 + 1 + 1.5 * (2 + 3)], rtol=1e-6)


def test_while_loop_stops_at_max_iterations():
    outs, final = mx.sym.contrib.while_loop(lambda x: x.sum() < 1e9, lambda x: ([x], [x * 2]),
                                            [mx.sym.var("x")], max_iterations=3)
    ex = mx.sym.Group([outs[0]] + final).bind(mx.cpu(), {"x": mx.nd.array([1.0, 2.0])})
    got = ex.forward()
    np.testing.assert_allclose(got[0].asnumpy(), [[1, 2], [2, 4], [4, 8]])
    np.testing.assert_allclose(got[1].asnumpy(), [8, 16])


# ---------------------------------------------------------------------------------------------
# cond

def _cond_symbol():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    return mx.sym.Group(mx.sym.contrib.cond(a.sum() > b.sum(), lambda: [a * 2, b * b],
                                            lambda: [b - a, a * a]))


@pytest.mark.parametrize("a,b,then", [([3.0, 4.0], [1.0, 2.0], True),
                                      ([1.0, 2.0], [3.0, 4.0], False)])
def test_cond_executor_both_branches(a, b, then):
    sym = _cond_symbol()
    assert sym.list_arguments() == ["a", "b"]
    a, b = np.array(a), np.array(b)
    ex, grads = _bind(sym, {"a": a, "b": b})
    outs = [o.asnumpy() for o in ex.forward(is_train=True)]
    want = [a * 2, b * b] if then else [b - a, a * a]
    for g, w in zip(outs, want):
        np.testing.assert_allclose(g, w)
    ex.backward([mx.nd.ones(2), mx.nd.ones(2)])
    want_a, want_b = ([2, 2], 2 * b) if then else (-1 + 2 * a, [1, 1])
    np.testing.assert_allclose(grads["a"].asnumpy(), want_a)
    np.testing.assert_allclose(grads["b"].asnumpy(), want_b)


# ---------------------------------------------------------------------------------------------
# JSON

def test_json_round_trip_keeps_subgraphs():
    for sym in (_rnn_symbol(), _while_symbol(), _cond_symbol()):
        text = sym.tojson()
        nodes = json.loads(text)["nodes"]
        flow = [n for n in nodes if n["op"] in ("_foreach", "_while_loop", "_cond")]
        assert len(flow) == 1 and flow[0]["subgraphs"], text
        assert len(flow[0]["subgraphs"]) == {"_foreach": 1, "_while_loop": 2, "_cond": 3}[
            flow[0]["op"]]
        loaded = mx.sym.load_json(text)
        assert loaded.tojson() == text
    arrays = _rnn_inputs()
    ex = mx.sym.load_json(_rnn_symbol().tojson()).bind(
        mx.cpu(), {k: mx.nd.array(v) for k, v in arrays.items()})
    ys, _ = _rnn_numpy(arrays["data"], arrays["h0"], arrays["w"])
    np.testing.assert_allclose(ex.forward()[0].asnumpy(), ys, rtol=1e-5, atol=1e-6)


_MAKE_SYMBOLS = r'''
import mxnet as mx
def rnn():
    def step(x, states):
        h = mx.sym.tanh(mx.sym.dot(x, mx.sym.var("w")) + states[0])
        return h, [h]
    out, states = mx.sym.contrib.foreach(step, mx.sym.var("data"), [mx.sym.var("h0")])
    return mx.sym.Group([out] + states)
def loop():
    outs, final = mx.sym.contrib.while_loop(
        lambda i, s: i < 3, lambda i, s: ([s * 2, i + 1], [i + 1, s * i + s]),
        [mx.sym.var("i"), mx.sym.var("s")], max_iterations=6)
    return mx.sym.Group(outs + final)
def branch():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    return mx.sym.Group(mx.sym.contrib.cond(a.sum() > b.sum(), lambda: [a * 2, b * b],
                                            lambda: [b - a, a * a]))
'''

_INPUTS = {
    "rnn": {"data": (RS(0).randn(4, 2, 3) * 0.5).tolist(), "h0": RS(1).randn(2, 3).tolist(),
            "w": (RS(2).randn(3, 3) * 0.5).tolist()},
    "loop": {"i": [1.0], "s": [1.5]},
    "branch": {"a": [3.0, 4.0], "b": [1.0, 2.0]},
}

_RUN_SYMBOLS = r'''
import sys, json
import numpy as np
import mxnet as mx
SYMS = json.load(open(sys.argv[2]))
INPUTS = %r
res = {}
for key in ("rnn", "loop", "branch"):
    sym = mx.sym.load_json(SYMS[key])
    args = {k: mx.nd.array(v) for k, v in INPUTS[key].items()}
    grads = {k: mx.nd.zeros(a.shape) for k, a in args.items()}
    ex = sym.bind(mx.cpu(), args, args_grad=grads)
    outs = ex.forward(is_train=True)
    heads = [mx.nd.array(np.linspace(-1, 1, o.size).reshape(o.shape)) for o in outs]
    ex.backward(heads)
    for i, o in enumerate(outs):
        o = o.asnumpy()
        if key == "loop" and i < 2:
            o = o[:2]  # rows past the last step: uninitialized in MXNet 1.9.1
        res["%%s_out%%d" %% (key, i)] = o
    for k, g in grads.items():
        res["%%s_grad_%%s" %% (key, k)] = g.asnumpy()
np.savez(sys.argv[1], **res)
''' % (_INPUTS,)


@pytest.fixture(scope="module")
def mx191_json(tmp_path_factory):
    if not mx191_oracle.HAVE_MX191:
        pytest.skip(mx191_oracle.SKIP_REASON)
    mx191_oracle.check_reference()
    tmp = tmp_path_factory.mktemp("control_flow")
    script = os.path.join(str(tmp), "make.py")
    with open(script, "w") as f:
        f.write(_MAKE_SYMBOLS + "import json, sys\njson.dump({'rnn': rnn().tojson(), "
                "'loop': loop().tojson(), 'branch': branch().tojson()}, open(sys.argv[1], 'w'))\n")
    paths = {}
    for ours in (False, True):
        path = os.path.join(str(tmp), "syms_%s.json" % ("ours" if ours else "ref"))
        mx191_oracle.run([script, path], ours=ours)
        paths[ours] = path
    return tmp, paths


def _run_json(tmp, sym_path, ours):
    script = os.path.join(str(tmp), "run.py")
    with open(script, "w") as f:
        f.write(_RUN_SYMBOLS)
    out = os.path.join(str(tmp), "res_%s_%s.npz" % (os.path.basename(sym_path), ours))
    mx191_oracle.run([script, out, sym_path], ours=ours)
    return np.load(out)


def test_symbols_and_json_match_mxnet_191(mx191_json):
    _, paths = mx191_json
    with open(paths[False]) as f:
        ref = json.load(f)
    with open(paths[True]) as f:
        ours = json.load(f)

    def structure(text):
        graph = json.loads(text)

        def strip(g):
            nodes = []
            for n in g["nodes"]:
                attrs = {k: v for k, v in n.get("attrs", {}).items() if k != "scalar"}
                nodes.append((n["op"], n["name"], sorted(attrs.items()), n["inputs"],
                              [strip(s) for s in n.get("subgraphs", [])]))
            return nodes, g["arg_nodes"], g["heads"]
        return strip(graph)

    for key in ("rnn", "loop", "branch"):
        assert structure(ours[key]) == structure(ref[key]), key
        # 1.9.1's file loads and saves back byte for byte (subgraphs inline, same layout).
        assert mx.sym.load_json(ref[key]).tojson() == ref[key], key


@pytest.mark.parametrize("producer", ["mx191", "ours"])
def test_json_runs_the_same_in_both(mx191_json, producer):
    """JSON written by MXNet 1.9.1 runs here, ours runs in MXNet 1.9.1: same outputs and
    gradients."""
    tmp, paths = mx191_json
    sym_path = paths[producer == "ours"]
    ref = _run_json(tmp, sym_path, ours=False)
    got = _run_json(tmp, sym_path, ours=True)
    assert sorted(ref.files) == sorted(got.files)
    for k in ref.files:
        np.testing.assert_allclose(got[k], ref[k], rtol=1e-5, atol=1e-5, err_msg=k)


_GLUON_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
from mxnet import autograd, gluon

class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.w = self.params.get("w", shape=(3, 3))

    def hybrid_forward(self, F, x, h0, i0, w):
        def step(d, states):
            h = F.tanh(F.dot(d, w) + states[0])
            return h, [h]
        seq, states = F.contrib.foreach(step, x, [h0])
        outs, final = F.contrib.while_loop(
            lambda i, s: i < 3, lambda i, s: ([s * 0.5], [i + 1, s * 0.5 + 1]),
            [i0, h0], max_iterations=5)
        pick = F.contrib.cond(final[1].sum() > 0, lambda: final[1] * 2, lambda: final[1] - 1)
        return seq * 3, outs[0].slice_axis(axis=0, begin=0, end=3), pick

res = {}
for hybridize in (False, True):
    net = Net(prefix="net_")
    net.initialize()
    net.w.set_data(mx.nd.array(np.linspace(-0.5, 0.5, 9).reshape(3, 3)))
    if hybridize:
        net.hybridize()
    for trial, sign in enumerate((1.0, -1.0)):
        x = mx.nd.array(np.linspace(-1, 1, 24).reshape(4, 2, 3))
        h0 = mx.nd.array(sign * (np.linspace(0.1, 0.6, 6).reshape(2, 3)))
        x.attach_grad()
        h0.attach_grad()
        with autograd.record():
            seq, outs, pick = net(x, h0, mx.nd.zeros((1,)))
            loss = (seq * seq).sum() + (outs * 1.5).sum() + (pick * pick).sum()
        loss.backward()
        tag = "%d_%d_" % (hybridize, trial)
        res[tag + "seq"] = seq.asnumpy()
        res[tag + "outs"] = outs.asnumpy()
        res[tag + "pick"] = pick.asnumpy()
        res[tag + "gx"] = x.grad.asnumpy()
        res[tag + "gh0"] = h0.grad.asnumpy()
        res[tag + "gw"] = net.w.grad().asnumpy()
np.savez(sys.argv[1], **res)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_gluon_control_flow_matches_mxnet_191(tmp_path):
    ref, ours = mx191_oracle.run_script_under_both(_GLUON_SCRIPT, str(tmp_path))
    assert sorted(ref.files) == sorted(ours.files)
    for k in ref.files:
        want = ref[k]
        if k.startswith("1_") and k.endswith("_gh0"):
            # 1.9.1's hybridized runs return a partly uninitialized gradient for h0 (NaN or
            # 4.8e+31 in some elements, varying from run to run); its imperative runs are
            # right: compare with those.
            want = ref["0_" + k[2:]]
        np.testing.assert_allclose(ours[k], want, rtol=1e-5, atol=1e-5, err_msg=k)


def test_foreach_backward_reuses_the_forward_random_masks():
    """Dropout inside the body: the gradient must use the masks the forward drew (the steps'
    values are kept, not recomputed)."""
    w = mx.sym.var("w")
    out, _ = mx.sym.contrib.foreach(
        lambda x, s: (mx.sym.Dropout(x * w, p=0.5) + s[0] * 0, [s[0]]),
        mx.sym.var("data"), [mx.sym.var("s")])
    data = RS(0).rand(6, 3) + 0.5
    wv = RS(1).rand(3) + 0.5
    ex, grads = _bind(out, {"data": data, "s": np.zeros(3), "w": wv})
    head = RS(2).randn(6, 3)
    got = ex.forward(is_train=True)[0].asnumpy()
    assert (got == 0).any() and (got != 0).any()  # dropout did drop, and kept
    ex.backward([mx.nd.array(head)])
    # out_t = mask_t * 2 * x_t * w, so d(sum head*out)/dw = sum_t head_t * out_t / w.
    np.testing.assert_allclose(grads["w"].asnumpy(), (head * got / wv).sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(grads["data"].asnumpy(), head * got / data, rtol=1e-5)


def test_control_flow_node_without_subgraph_is_a_clean_error():
    with pytest.raises(mx.MXNetError, match="subgraph"):
        mx.nd._internal._foreach(mx.nd.ones((2, 3)), mx.nd.ones((3,)), num_args=3,
                                 num_outputs=1, num_out_data=0, in_data_locs=(0,),
                                 in_state_locs=(1,), remain_locs=())
    text = _rnn_symbol().tojson()
    graph = json.loads(text)
    for node in graph["nodes"]:
        node.pop("subgraphs", None)
    broken = mx.sym.load_json(json.dumps(graph))
    with pytest.raises(mx.MXNetError, match="subgraph"):
        broken.infer_shape(data=(4, 2, 3), h0=(2, 3), w=(3, 3))


def test_cut_subgraph_names_and_value_index():
    x = mx.sym.var("x")
    parts = mx.sym.split(x, num_outputs=2, axis=0, name="sp")
    assert parts[1].attr("_value_index") == "1" and x.attr("_value_index") == "0"
    # A body that reads the second output of an outer node: cut into a variable named after it.
    out, _ = mx.sym.contrib.foreach(lambda d, s: (d + parts[1], [s[0]]), mx.sym.var("data"),
                                    [mx.sym.var("s")])
    nodes = json.loads(out.tojson())["nodes"]
    body = [n for n in nodes if n["op"] == "_foreach"][0]["subgraphs"][0]["nodes"]
    assert "sp_output1" in [n["name"] for n in body if n["op"] == "null"]
    ex = out.bind(mx.cpu(), {"data": mx.nd.ones((3, 1, 2)), "s": mx.nd.zeros((1, 2)),
                             "x": mx.nd.array([[1, 2], [3, 4]])})
    np.testing.assert_allclose(ex.forward()[0].asnumpy(), np.tile([[[4, 5]]], (3, 1, 1)))
