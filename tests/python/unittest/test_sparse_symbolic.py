"""Sparse storage in the symbolic path: storage-type inference (vs MXNet 1.9.1), executors with
csr/row_sparse arguments and gradients (vs NumPy and vs the same dense graph), storage fallback,
and Module training of the sparse linear-classification model (vs a dense run)."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx
import mx191_oracle

RNG = np.random.RandomState(7)


def _csr_values(rows, cols, density=0.35, seed=0):
    rng = np.random.RandomState(seed)
    dense = rng.rand(rows, cols) * (rng.rand(rows, cols) < density)
    dense[:, 1] = 0.0  # a column no row uses: its weight row gets no gradient
    return dense.astype(np.float32)


# ------------------------------------------------------------ storage types vs MXNet 1.9.1

# Each case: symbol source (x: csr var, w: dense var, wr: row_sparse var, d: index var), shapes.
STYPE_CASES = {
    "dot_csr_dns": ("mx.sym.sparse.dot(x, w)", {"x": (4, 5), "w": (5, 2)}),
    "dot_csr_rsp": ("mx.sym.sparse.dot(x, wr)", {"x": (4, 5), "wr": (5, 2)}),
    "dot_csrT_dns": ("mx.sym.sparse.dot(x, w, transpose_a=True)", {"x": (4, 5), "w": (4, 2)}),
    "dot_csrT_dns_fwd_default": (
        "mx.sym.sparse.dot(x, w, transpose_a=True, forward_stype='default')",
        {"x": (4, 5), "w": (4, 2)}),
    "dot_dns_csr": ("mx.sym.sparse.dot(w, x)", {"x": (4, 5), "w": (3, 4)}),
    "embedding_sparse_grad": (
        "mx.sym.Embedding(d, input_dim=10, output_dim=3, sparse_grad=True, name='emb')",
        {"d": (4,)}),
    "two_dots_one_weight": ("mx.sym.sparse.dot(x, wr) + mx.sym.sparse.dot(x * 2, wr)",
                            {"x": (4, 5), "wr": (5, 2)}),
    "dot_csrT_rsp": ("mx.sym.sparse.dot(x, wr, transpose_a=True)", {"x": (4, 5), "wr": (4, 2)}),
    "rsp_add": ("wr + r2", {"wr": (4, 2), "r2": (4, 2)}),
    "rsp_mul_fallback_grad": ("wr * r2", {"wr": (4, 2), "r2": (4, 2)}),
    "rsp_relu": ("mx.sym.relu(wr)", {"wr": (4, 2)}),
    "rsp_square": ("mx.sym.square(wr)", {"wr": (4, 2)}),
    "rsp_plus_dense": ("mx.sym.elemwise_add(wr, w)", {"wr": (4, 2), "w": (4, 2)}),
    "cast_to_rsp": ("mx.sym.cast_storage(w, stype='row_sparse')", {"w": (4, 2)}),
    "csr_add": ("x + c2", {"x": (4, 5), "c2": (4, 5)}),
    "fc_csr_data": ("mx.sym.FullyConnected(x, num_hidden=3, name='fc')", {"x": (4, 5)}),
    "sum_axis0": ("mx.sym.sum(x, axis=0)", {"x": (4, 5)}),
    "sum_axis1": ("mx.sym.sum(x, axis=1)", {"x": (4, 5)}),
    "mean_axis0": ("mx.sym.mean(x, axis=0)", {"x": (4, 5)}),
    "sum_all_fallback": ("mx.sym.sum(x)", {"x": (4, 5)}),
    "relu_mul_scalar": ("mx.sym.relu(x) * 2", {"x": (4, 5)}),
    "exp_fallback": ("mx.sym.exp(x)", {"x": (4, 5)}),
    "linear_rsp_weight": (
        "mx.sym.LogisticRegressionOutput(mx.sym.broadcast_add(mx.sym.sparse.dot(x, wr), b), "
        "mx.sym.var('softmax_label'), name='out')",
        {"x": (4, 5), "wr": (5, 1), "b": (1,), "softmax_label": (4, 1)}),
    "linear_dense_weight": (
        "mx.sym.SoftmaxOutput(mx.sym.broadcast_add(mx.sym.sparse.dot(x, w), b), "
        "mx.sym.var('softmax_label'), name='out')",
        {"x": (4, 5), "w": (5, 3), "b": (1,), "softmax_label": (4,)}),
}

# What MXNet 1.9.1's simple_bind gives (args, grads (None: grad_req null), outputs).
MX191_STYPES = {
    "dot_csr_dns": [["csr", "default"], [None, "row_sparse"], ["default"]],
    "dot_csr_rsp": [["csr", "row_sparse"], [None, "row_sparse"], ["default"]],
    "dot_csrT_dns": [["csr", "default"], [None, "default"], ["row_sparse"]],
    "dot_csrT_dns_fwd_default": [["csr", "default"], [None, "default"], ["default"]],
    "dot_dns_csr": [["default", "csr"], ["default", None], ["csr"]],
    "embedding_sparse_grad": [["default", "default"], [None, "row_sparse"], ["default"]],
    "two_dots_one_weight": [["csr", "row_sparse"], [None, "row_sparse"], ["default"]],
    "dot_csrT_rsp": [["csr", "row_sparse"], [None, "default"], ["row_sparse"]],
    "rsp_add": [["row_sparse", "row_sparse"], ["row_sparse", "row_sparse"], ["row_sparse"]],
    "rsp_mul_fallback_grad": [["row_sparse", "row_sparse"], ["default", "default"],
                              ["row_sparse"]],
    "rsp_relu": [["row_sparse"], ["row_sparse"], ["row_sparse"]],
    "rsp_square": [["row_sparse"], ["row_sparse"], ["row_sparse"]],
    "rsp_plus_dense": [["row_sparse", "default"], ["default", "default"], ["default"]],
    "cast_to_rsp": [["default"], ["row_sparse"], ["row_sparse"]],
    "csr_add": [["csr", "csr"], [None, None], ["csr"]],
    "fc_csr_data": [["csr", "default", "default"], [None, "default", "default"], ["default"]],
    "sum_axis0": [["csr"], [None], ["default"]],
    "sum_axis1": [["csr"], [None], ["default"]],
    "mean_axis0": [["csr"], [None], ["default"]],
    "sum_all_fallback": [["csr"], [None], ["default"]],
    "relu_mul_scalar": [["csr"], [None], ["csr"]],
    "exp_fallback": [["csr"], [None], ["default"]],
    "linear_rsp_weight": [["csr", "row_sparse", "default", "default"],
                          [None, "row_sparse", "default", None], ["default"]],
    "linear_dense_weight": [["csr", "default", "default", "default"],
                            [None, "row_sparse", "default", None], ["default"]],
}

STYPE_SCRIPT = r'''
import json, sys
import mxnet as mx
cases = json.loads(sys.argv[1])
x = mx.sym.var("x", stype="csr"); w = mx.sym.var("w"); wr = mx.sym.var("wr", stype="row_sparse")
d = mx.sym.var("d"); b = mx.sym.var("b")
r2 = mx.sym.var("r2", stype="row_sparse"); c2 = mx.sym.var("c2", stype="csr")
res = {}
for name, (src, shapes) in sorted(cases.items()):
    s = eval(src)
    req = {a: ("null" if a in ("x", "d", "c2", "softmax_label") else "write")
           for a in s.list_arguments()}
    ex = s.simple_bind(mx.cpu(), grad_req=req, **{k: tuple(v) for k, v in shapes.items()})
    res[name] = [[a.stype for a in ex.arg_arrays],
                 [g.stype if g is not None else None for g in ex.grad_arrays],
                 [o.stype for o in ex.outputs]]
print("RESULT" + json.dumps(res))
'''


def _run_stype_script(ours):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(STYPE_SCRIPT)
        path = f.name
    try:
        env = dict(mx191_oracle.env(ours), MXNET_STORAGE_FALLBACK_LOG_VERBOSE="0")
        exe = sys.executable if ours else mx191_oracle.MX191
        out = subprocess.check_output([exe, path, json.dumps(STYPE_CASES)], env=env, cwd="/",
                                      stderr=subprocess.DEVNULL).decode()
    finally:
        os.unlink(path)
    line = [l for l in out.splitlines() if l.startswith("RESULT")][-1]
    return json.loads(line[len("RESULT"):])


def test_simple_bind_storage_types_match_recorded_mx191():
    ours = _run_stype_script(ours=True)
    for name, expected in MX191_STYPES.items():
        assert ours[name] == expected, (name, ours[name], expected)


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_simple_bind_storage_types_match_live_mx191():
    mx191_oracle.check_reference()
    assert _run_stype_script(ours=False) == _run_stype_script(ours=True)


def test_symbol_infer_storage_type():
    x = mx.sym.var("x", stype="csr")
    w = mx.sym.var("w")
    args, outs, aux = mx.sym.sparse.dot(x, w, transpose_a=True).infer_storage_type()
    assert (args, outs, aux) == (["csr", "default"], ["row_sparse"], [])
    # Given types win over the variable attribute; positional form too.
    assert mx.sym.sparse.dot(x, w).infer_storage_type(x="default")[1] == ["default"]
    assert mx.sym.sparse.dot(x, w).infer_storage_type("csr", "default")[1] == ["default"]
    assert (mx.sym.relu(x) * 2).infer_storage_type()[1] == ["csr"]
    assert mx.sym.sparse.dot(x, w)._infer_grad_storage_type({"w": "write"}) == \
        [None, "row_sparse"]
    with pytest.raises(ValueError, match="unknown storage type"):
        mx.sym.sparse.dot(x, w).infer_storage_type(x="sparse")


# ------------------------------------------------------------------ executors vs NumPy

@pytest.mark.parametrize("weight_stype", ["default", "row_sparse"])
def test_dot_csr_weight_forward_backward(weight_stype):
    dense = _csr_values(6, 5)
    wv = RNG.rand(5, 3).astype(np.float32)
    x = mx.sym.var("x", stype="csr")
    w = mx.sym.var("w", stype=weight_stype)
    ex = mx.sym.sparse.dot(x, w).simple_bind(mx.cpu(), x=(6, 5), w=(5, 3),
                                             grad_req={"x": "null", "w": "write"})
    assert ex.arg_dict["x"].stype == "csr" and ex.arg_dict["w"].stype == weight_stype
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    ex.arg_dict["w"][:] = mx.nd.array(wv).tostype(weight_stype)
    out = ex.forward(is_train=True)[0]
    assert out.stype == "default"
    np.testing.assert_allclose(out.asnumpy(), dense @ wv, rtol=1e-5, atol=1e-6)
    og = RNG.rand(6, 3).astype(np.float32)
    ex.backward(mx.nd.array(og))
    g = ex.grad_dict["w"]
    assert g.stype == "row_sparse"
    np.testing.assert_allclose(g.asnumpy(), dense.T @ og, rtol=1e-5, atol=1e-6)
    # Stored rows: the columns the csr batch uses (column 1 is empty).
    assert list(g.indices.asnumpy()) == sorted(set(np.nonzero(dense)[1]))
    assert 1 not in list(g.indices.asnumpy())


def test_row_sparse_gradients_summed_stay_sparse():
    # Two uses of one weight: the gradient pass adds two row_sparse gradients (add_n).
    dense = _csr_values(6, 5, seed=13)
    dense2 = _csr_values(6, 5, seed=14)
    wv = RNG.rand(5, 2).astype(np.float32)
    x = mx.sym.var("x", stype="csr")
    x2 = mx.sym.var("x2", stype="csr")
    w = mx.sym.var("w", stype="row_sparse")
    sym = mx.sym.sparse.dot(x, w) + mx.sym.sparse.dot(x2, w)
    ex = sym.simple_bind(mx.cpu(), x=(6, 5), x2=(6, 5), w=(5, 2),
                         grad_req={"x": "null", "x2": "null", "w": "write"})
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    ex.arg_dict["x2"][:] = mx.nd.array(dense2).tostype("csr")
    ex.arg_dict["w"][:] = mx.nd.array(wv).tostype("row_sparse")
    np.testing.assert_allclose(ex.forward(is_train=True)[0].asnumpy(), (dense + dense2) @ wv,
                               rtol=1e-5, atol=1e-6)
    og = RNG.rand(6, 2).astype(np.float32)
    ex.backward(mx.nd.array(og))
    g = ex.grad_dict["w"]
    assert g.stype == "row_sparse"
    np.testing.assert_allclose(g.asnumpy(), (dense + dense2).T @ og, rtol=1e-5, atol=1e-6)
    # Imperative add_n of row_sparse arrays is row_sparse too.
    a = mx.nd.sparse.row_sparse_array((np.ones((2, 2)), [0, 3]), shape=(5, 2))
    b = mx.nd.sparse.row_sparse_array((2 * np.ones((2, 2)), [1, 3]), shape=(5, 2))
    c = mx.nd.add_n(a, b, a)
    assert c.stype == "row_sparse" and list(c.indices.asnumpy()) == [0, 1, 3]
    np.testing.assert_allclose(c.asnumpy(), 2 * a.asnumpy() + b.asnumpy())


def test_dot_csr_transposed_row_sparse_output_and_gradient():
    dense = _csr_values(6, 5, seed=3)
    wv = RNG.rand(6, 2).astype(np.float32)
    x = mx.sym.var("x", stype="csr")
    w = mx.sym.var("w")
    ex = mx.sym.sparse.dot(x, w, transpose_a=True).simple_bind(
        mx.cpu(), x=(6, 5), w=(6, 2), grad_req={"x": "null", "w": "write"})
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    ex.arg_dict["w"][:] = wv
    out = ex.forward(is_train=True)[0]
    assert out.stype == "row_sparse"
    np.testing.assert_allclose(out.asnumpy(), dense.T @ wv, rtol=1e-5, atol=1e-6)
    og = RNG.rand(5, 2).astype(np.float32)
    ex.backward(mx.nd.array(og))
    assert ex.grad_dict["w"].stype == "default"
    np.testing.assert_allclose(ex.grad_dict["w"].asnumpy(), dense @ og, rtol=1e-5, atol=1e-6)


def test_dot_dense_csr_csr_output():
    dense = _csr_values(4, 5, seed=4)
    a = RNG.rand(3, 4).astype(np.float32)
    ex = mx.sym.sparse.dot(mx.sym.var("a"), mx.sym.var("x", stype="csr")).simple_bind(
        mx.cpu(), a=(3, 4), x=(4, 5), grad_req="null")
    ex.arg_dict["a"][:] = a
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    out = ex.forward()[0]
    assert out.stype == "csr"
    np.testing.assert_allclose(out.asnumpy(), a @ dense, rtol=1e-5, atol=1e-6)


def test_csr_gradient_of_data_is_dense():
    # The csr argument's own gradient (rarely asked for) is dense: ograd . w.T.
    dense = _csr_values(4, 5, seed=5)
    wv = RNG.rand(5, 2).astype(np.float32)
    ex = mx.sym.sparse.dot(mx.sym.var("x", stype="csr"), mx.sym.var("w")).simple_bind(
        mx.cpu(), x=(4, 5), w=(5, 2))
    assert ex.grad_dict["x"].stype == "default"
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    ex.arg_dict["w"][:] = wv
    ex.forward(is_train=True)
    og = RNG.rand(4, 2).astype(np.float32)
    ex.backward(mx.nd.array(og))
    np.testing.assert_allclose(ex.grad_dict["x"].asnumpy(), og @ wv.T, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("op", ["sum", "mean"])
def test_csr_sum_mean_axis(op, axis, keepdims):
    dense = _csr_values(5, 4, seed=6)
    ex = getattr(mx.sym, op)(mx.sym.var("x", stype="csr"), axis=axis, keepdims=keepdims) \
        .simple_bind(mx.cpu(), x=(5, 4), grad_req="null")
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    out = ex.forward()[0]
    ref = getattr(np, op)(dense, axis=axis, keepdims=keepdims)
    assert out.stype == "default" and out.shape == ref.shape
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    # Imperative calls use the same kernel.
    np.testing.assert_allclose(
        getattr(mx.nd, op)(mx.nd.array(dense).tostype("csr"), axis=axis,
                           keepdims=keepdims).asnumpy(), ref, rtol=1e-5, atol=1e-6)


def test_storage_fallback_values_and_log():
    code = r'''
import numpy as np, mxnet as mx
x = mx.sym.var("x", stype="csr")
ex = mx.sym.arccos(x * 0.5).simple_bind(mx.cpu(), x=(3, 4), grad_req="null")
d = np.array([[0, 1, 0, 0.5], [0, 0, 0, 0], [0.25, 0, 1, 0]], dtype=np.float32)
ex.arg_dict["x"][:] = mx.nd.array(d).tostype("csr")
out = ex.forward()[0]
assert out.stype == "default", out.stype
np.testing.assert_allclose(out.asnumpy(), np.arccos(d * 0.5), rtol=1e-5)
print("VALUES-OK")
'''
    env = dict(os.environ, PYTHONPATH=os.path.join(mx191_oracle.REPO, "python"))
    env.pop("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", None)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "VALUES-OK" in p.stdout
    assert "Storage type fallback detected: operator = arccos" in p.stderr
    assert "input storage types = [csr]" in p.stderr
    env["MXNET_STORAGE_FALLBACK_LOG_VERBOSE"] = "0"
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert p.returncode == 0 and "Storage type fallback" not in p.stderr


def test_relu_scale_keeps_csr_layout():
    dense = _csr_values(4, 6, seed=8) - 0.1 * (_csr_values(4, 6, seed=9) > 0)
    ex = (mx.sym.relu(mx.sym.var("x", stype="csr")) * 2).simple_bind(mx.cpu(), x=(4, 6),
                                                                    grad_req="null")
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    out = ex.forward()[0]
    assert out.stype == "csr"
    np.testing.assert_allclose(out.asnumpy(), np.maximum(dense, 0) * 2, rtol=1e-6)


def test_embedding_sparse_grad_matches_dense():
    idx = np.array([3, 1, 3, 7], dtype=np.float32)
    weight = RNG.rand(10, 4).astype(np.float32)
    og = RNG.rand(4, 4).astype(np.float32)
    grads = {}
    for sparse in (True, False):
        sym = mx.sym.Embedding(mx.sym.var("d"), input_dim=10, output_dim=4, sparse_grad=sparse,
                               name="emb")
        ex = sym.simple_bind(mx.cpu(), d=(4,), grad_req={"d": "null", "emb_weight": "write"})
        ex.arg_dict["d"][:] = idx
        ex.arg_dict["emb_weight"][:] = weight
        np.testing.assert_allclose(ex.forward(is_train=True)[0].asnumpy(), weight[idx.astype(int)])
        ex.backward(mx.nd.array(og))
        grads[sparse] = ex.grad_dict["emb_weight"]
    assert grads[True].stype == "row_sparse" and grads[False].stype == "default"
    assert list(grads[True].indices.asnumpy()) == [1, 3, 7]
    ref = np.zeros((10, 4), np.float32)
    np.add.at(ref, idx.astype(int), og)
    np.testing.assert_allclose(grads[True].asnumpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(grads[False].asnumpy(), ref, rtol=1e-6)


@pytest.mark.parametrize("grad_stype", ["row_sparse", "default"])
def test_bind_with_given_gradient_storage(grad_stype):
    # A dense gradient array for the weight of dot(csr, w) makes _backward_dot fall back to the
    # dense kernel (as MXNet); the values are the same either way.
    dense = _csr_values(6, 5, seed=10)
    wv = RNG.rand(5, 2).astype(np.float32)
    og = RNG.rand(6, 2).astype(np.float32)
    sym = mx.sym.sparse.dot(mx.sym.var("x", stype="csr"), mx.sym.var("w"))
    grad = mx.nd.zeros((5, 2), stype=grad_stype)
    ex = sym.bind(mx.cpu(), {"x": mx.nd.array(dense).tostype("csr"), "w": mx.nd.array(wv)},
                  args_grad={"w": grad}, grad_req={"x": "null", "w": "write"})
    np.testing.assert_allclose(ex.forward(is_train=True)[0].asnumpy(), dense @ wv, rtol=1e-5)
    ex.backward(mx.nd.array(og))
    assert grad.stype == grad_stype
    np.testing.assert_allclose(grad.asnumpy(), dense.T @ og, rtol=1e-5, atol=1e-6)


def _linear(weight_stype, data_stype, classes=2, features=8):
    x = mx.sym.var("data", stype=data_stype)
    w = mx.sym.var("weight", shape=(features, classes), stype=weight_stype)
    b = mx.sym.var("bias", shape=(classes,))
    pred = mx.sym.broadcast_add(mx.sym.sparse.dot(x, w), b)
    return mx.sym.SoftmaxOutput(pred, mx.sym.var("softmax_label"), name="out")


def test_sparse_graph_matches_dense_graph():
    dense = _csr_values(16, 8, seed=11)
    wv = RNG.randn(8, 2).astype(np.float32)
    label = (RNG.rand(16) > 0.5).astype(np.float32)
    results = {}
    for stypes in (("row_sparse", "csr"), ("default", "default")):
        ex = _linear(stypes[0], stypes[1]).simple_bind(
            mx.cpu(), data=(16, 8), grad_req={"data": "null", "weight": "write", "bias": "write",
                                              "softmax_label": "null"})
        ex.arg_dict["data"][:] = mx.nd.array(dense).tostype(stypes[1])
        ex.arg_dict["weight"][:] = mx.nd.array(wv).tostype(stypes[0])
        ex.arg_dict["bias"][:] = np.array([0.3, -0.2], np.float32)
        ex.arg_dict["softmax_label"][:] = label
        out = ex.forward(is_train=True)[0].asnumpy()
        ex.backward()
        results[stypes] = (out, ex.grad_dict["weight"], ex.grad_dict["bias"].asnumpy())
    sp, dn = results[("row_sparse", "csr")], results[("default", "default")]
    assert sp[1].stype == "row_sparse" and dn[1].stype == "default"
    np.testing.assert_allclose(sp[0], dn[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sp[1].asnumpy(), dn[1].asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sp[2], dn[2], rtol=1e-5, atol=1e-6)
    # NumPy oracle of the softmax gradient.
    logits = dense @ wv + np.array([0.3, -0.2], np.float32)
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(sp[0], p, rtol=1e-5, atol=1e-6)
    onehot = np.eye(2)[label.astype(int)]
    np.testing.assert_allclose(sp[1].asnumpy(), dense.T @ (p - onehot), rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------- optimizer lazy updates

@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_lazy_update_of_row_sparse_weight(optimizer):
    w0 = RNG.rand(6, 3).astype(np.float32)
    grad_rows = np.array([1, 4])
    gv = RNG.rand(2, 3).astype(np.float32)
    results = {}
    for wstype in ("row_sparse", "default"):
        weight = mx.nd.array(w0).tostype(wstype)
        grad = mx.nd.sparse.row_sparse_array((gv, grad_rows), shape=(6, 3))
        opt = mx.optimizer.create(optimizer, learning_rate=0.1, wd=0.01)
        state = opt.create_state(0, weight)
        opt.update(0, weight, grad, state)
        opt.update(0, weight, grad, state)
        assert weight.stype == wstype
        results[wstype] = weight.asnumpy()
    np.testing.assert_allclose(results["row_sparse"], results["default"], rtol=1e-6)
    # Lazy: rows without gradient keep their values even with weight decay.
    untouched = [0, 2, 3, 5]
    np.testing.assert_array_equal(results["row_sparse"][untouched], w0[untouched])
    assert not np.allclose(results["row_sparse"][grad_rows], w0[grad_rows])
    if optimizer == "sgd":
        ref = w0.copy()
        for _ in range(2):
            ref[grad_rows] -= 0.1 * (gv + 0.01 * ref[grad_rows])
        np.testing.assert_allclose(results["row_sparse"], ref, rtol=1e-5)


# ------------------------------------------------------------------ Module training

def _synthetic_problem(n=512, features=40, seed=1):
    rng = np.random.RandomState(seed)
    x = (rng.rand(n, features) * (rng.rand(n, features) < 0.2)).astype(np.float32)
    w = rng.randn(features)
    score = x @ w
    y = (score > np.median(score)).astype(np.float32)
    return x, y


def _train(weight_stype, data_stype, optimizer, kvstore, epochs=6):
    x, y = _synthetic_problem()
    data = mx.nd.array(x).tostype(data_stype)
    it = mx.io.NDArrayIter(data, mx.nd.array(y), batch_size=32, last_batch_handle="discard",
                           label_name="softmax_label")
    mod = mx.mod.Module(_linear(weight_stype, data_stype, features=x.shape[1]),
                        data_names=["data"], label_names=["softmax_label"])
    losses = []

    class _Loss(mx.metric.EvalMetric):
        def __init__(self):
            super().__init__("ce")

        def update(self, labels, preds):
            p = preds[0].asnumpy()
            lab = labels[0].asnumpy().astype(int)
            self.sum_metric += float(-np.log(p[np.arange(len(lab)), lab] + 1e-12).sum())
            self.num_inst += len(lab)

    def _epoch_end(epoch, sym, arg, aux):
        losses.append(None)

    metric = _Loss()
    params = {"learning_rate": 0.5} if optimizer == "sgd" else {"learning_rate": 0.05}
    history = []
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params(initializer=mx.init.Zero())
    mod.init_optimizer(kvstore=kvstore, optimizer=optimizer, optimizer_params=params)
    for _ in range(epochs):
        it.reset()
        metric.reset()
        for batch in it:
            mod.forward_backward(batch)
            mod.update()
            mod.update_metric(metric, batch.label)
        history.append(metric.get()[1])
    it.reset()
    acc = dict(mod.score(it, "acc"))["accuracy"]
    return mod, history, acc


@pytest.mark.parametrize("optimizer,kvstore", [("sgd", None), ("sgd", "local"),
                                               ("adam", None), ("adam", "local")])
def test_module_sparse_linear_classification(optimizer, kvstore):
    mod_s, hist_s, acc_s = _train("row_sparse", "csr", optimizer, kvstore)
    mod_d, hist_d, acc_d = _train("default", "default", optimizer, kvstore)
    assert mod_s._exec_group.execs[0].arg_dict["data"].stype == "csr"
    assert mod_s._exec_group.execs[0].arg_dict["weight"].stype == "row_sparse"
    assert mod_s._exec_group.execs[0].grad_dict["weight"].stype == "row_sparse"
    assert hist_s[-1] < 0.6 * hist_s[0], hist_s
    assert acc_s > 0.9, acc_s
    np.testing.assert_allclose(hist_s, hist_d, rtol=1e-4)
    assert abs(acc_s - acc_d) < 1e-6
    arg_s, _ = mod_s.get_params()
    arg_d, _ = mod_d.get_params()
    assert arg_s["weight"].stype == "row_sparse"
    np.testing.assert_allclose(arg_s["weight"].asnumpy(), arg_d["weight"].asnumpy(),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(arg_s["bias"].asnumpy(), arg_d["bias"].asnumpy(),
                               rtol=1e-4, atol=1e-5)


def test_module_fit_csr_iter_row_sparse_weight():
    x, y = _synthetic_problem(seed=3)
    it = mx.io.NDArrayIter(mx.nd.array(x).tostype("csr"), mx.nd.array(y), batch_size=32,
                           last_batch_handle="discard", label_name="softmax_label")
    mod = mx.mod.Module(_linear("row_sparse", "csr", features=x.shape[1]), data_names=["data"],
                        label_names=["softmax_label"])
    mod.fit(it, num_epoch=5, optimizer="sgd", optimizer_params={"learning_rate": 0.5},
            kvstore="local", initializer=mx.init.Normal(0.01), eval_metric="acc")
    it.reset()
    assert dict(mod.score(it, "acc"))["accuracy"] > 0.9


# ------------------------------------------------------- Gluon row_sparse parameters

def test_gluon_row_sparse_parameter_access_rules():
    p = mx.gluon.Parameter("weight", shape=(6, 2), stype="row_sparse", grad_stype="row_sparse",
                           init=mx.init.Constant(0.5))
    p.initialize(ctx=mx.cpu())
    with pytest.raises(RuntimeError, match="via data\\(\\) because its storage type is "
                                           "row_sparse"):
        p.data()
    with pytest.raises(RuntimeError, match="via list_data\\(\\)"):
        p.list_data()
    with pytest.raises(RuntimeError, match="when no Trainer is created with it"):
        p.row_sparse_data(mx.nd.array([1, 3]))
    assert p.list_grad()[0].stype == "row_sparse"
    dense = mx.gluon.Parameter("bias", shape=(2,))
    dense.initialize(ctx=mx.cpu())
    with pytest.raises(RuntimeError, match="Please use data\\(\\) instead"):
        dense.row_sparse_data(mx.nd.array([0]))
    trainer = mx.gluon.Trainer([p], "sgd", {"learning_rate": 0.1})
    w = p.row_sparse_data(mx.nd.array([3, 1]))
    assert w.stype == "row_sparse"
    assert list(w.indices.asnumpy()) == [1, 3]
    np.testing.assert_allclose(w.data.asnumpy(), np.full((2, 2), 0.5))
    assert trainer._update_on_kvstore
    with pytest.raises(RuntimeError, match="More than one trainers"):
        mx.gluon.Trainer([p], "sgd", {"learning_rate": 0.1})
    with pytest.raises(ValueError, match="update_on_kvstore=False"):
        q = mx.gluon.Parameter("w2", shape=(3, 2), stype="row_sparse")
        q.initialize(ctx=mx.cpu())
        mx.gluon.Trainer([q], "sgd", update_on_kvstore=False).step(1)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_gluon_row_sparse_parameter_training_matches_dense(optimizer):
    x = mx.nd.array(_csr_values(8, 6, seed=12)).tostype("csr")
    target = mx.nd.array(RNG.rand(8, 2).astype(np.float32))
    final = {}
    for stype in ("row_sparse", "default"):
        p = mx.gluon.Parameter("weight", shape=(6, 2), stype=stype, grad_stype="row_sparse",
                               init=mx.init.Constant(0.3))
        p.initialize(ctx=mx.cpu())
        trainer = mx.gluon.Trainer([p], optimizer, {"learning_rate": 0.1})
        rows = mx.nd.array(np.unique(x.indices.asnumpy()))
        for _ in range(3):
            w = p.row_sparse_data(rows) if stype == "row_sparse" else p.data()
            with mx.autograd.record():
                loss = ((mx.nd.sparse.dot(x, w) - target) ** 2).sum()
            loss.backward()
            assert p.list_grad()[0].stype == "row_sparse"
            trainer.step(1)
        if stype == "row_sparse":
            w = p.row_sparse_data(mx.nd.arange(6))
            assert list(w.indices.asnumpy()) == list(range(6))
        else:
            w = p.data()
        final[stype] = w.asnumpy()
    np.testing.assert_allclose(final["row_sparse"], final["default"], rtol=1e-5, atol=1e-6)
    # Column 1 of x is empty: its weight row never gets a gradient and keeps its value (lazy).
    np.testing.assert_allclose(final["row_sparse"][1], [0.3, 0.3])
    assert not np.allclose(final["row_sparse"][0], [0.3, 0.3])


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_module_embedding_sparse_grad_matches_dense(optimizer):
    rng = np.random.RandomState(15)
    tokens = rng.randint(0, 20, size=(64, 3)).astype(np.float32)
    labels = (tokens[:, 0] < 10).astype(np.float32)
    results = {}
    for sparse in (True, False):
        data = mx.sym.var("data")
        emb = mx.sym.Embedding(data, input_dim=40, output_dim=4, sparse_grad=sparse, name="emb")
        fc = mx.sym.FullyConnected(mx.sym.flatten(emb), num_hidden=2, name="fc")
        net = mx.sym.SoftmaxOutput(fc, mx.sym.var("softmax_label"), name="out")
        it = mx.io.NDArrayIter(tokens, labels, batch_size=16, label_name="softmax_label")
        mod = mx.mod.Module(net, data_names=["data"], label_names=["softmax_label"])
        mod.bind(it.provide_data, it.provide_label)
        mod.init_params(mx.init.Constant(0.05))
        params = {"learning_rate": 0.1, "wd": 0.0 if optimizer == "sgd" else 0.01}
        mod.init_optimizer(optimizer=optimizer, optimizer_params=params)
        assert mod._exec_group.execs[0].grad_dict["emb_weight"].stype == \
            ("row_sparse" if sparse else "default")
        for _ in range(3):
            it.reset()
            for batch in it:
                mod.forward_backward(batch)
                mod.update()
        results[sparse] = mod.get_params()[0]
    if optimizer == "sgd":  # without momentum or wd the lazy update is the dense one
        for name in results[True]:
            np.testing.assert_allclose(results[True][name].asnumpy(),
                                       results[False][name].asnumpy(), rtol=1e-4, atol=1e-5)
    else:
        # Lazy adam with weight decay: rows of tokens that never occur (20..39) keep their
        # value, where the dense update decays them; used rows move.
        unused = sorted(set(range(40)) - set(tokens.astype(int).ravel()))
        used = sorted(set(tokens.astype(int).ravel()))
        emb = results[True]["emb_weight"].asnumpy()
        assert len(unused) >= 20
        np.testing.assert_allclose(emb[unused], 0.05)
        assert not np.allclose(emb[used], 0.05)
        assert not np.allclose(results[False]["emb_weight"].asnumpy()[unused], 0.05)
    assert results[True]["emb_weight"].stype == "default"


def test_executor_reshape_with_sparse_arguments():
    x = mx.sym.var("x", stype="csr")
    w = mx.sym.var("w", stype="row_sparse")
    ex = mx.sym.sparse.dot(x, w).simple_bind(mx.cpu(), x=(4, 5), w=(5, 2),
                                             grad_req={"x": "null", "w": "write"})
    ex2 = ex.reshape(allow_up_sizing=True, x=(7, 5), w=(5, 2))
    assert ex2.arg_dict["x"].stype == "csr" and ex2.arg_dict["x"].shape == (7, 5)
    assert ex2.arg_dict["w"].stype == "row_sparse"
    assert ex2.grad_dict["w"].stype == "row_sparse"
    dense = _csr_values(7, 5, seed=16)
    wv = RNG.rand(5, 2).astype(np.float32)
    ex2.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    ex2.arg_dict["w"][:] = mx.nd.array(wv).tostype("row_sparse")
    np.testing.assert_allclose(ex2.forward(is_train=True)[0].asnumpy(), dense @ wv, rtol=1e-5)
    og = RNG.rand(7, 2).astype(np.float32)
    ex2.backward(mx.nd.array(og))
    np.testing.assert_allclose(ex2.grad_dict["w"].asnumpy(), dense.T @ og, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("expr,grad_fn", [
    ("relu", lambda v, og: og * (v > 0)),
    ("square", lambda v, og: 2 * v * og),
    ("tanh", lambda v, og: og * (1 - np.tanh(v) ** 2)),
])
def test_row_sparse_elementwise_gradients(expr, grad_fn):
    # The head gradient of a row_sparse output is row_sparse; the backward keeps its rows.
    v = np.zeros((6, 3), np.float32)
    v[[1, 4]] = RNG.randn(2, 3)
    wr = mx.sym.var("wr", stype="row_sparse")
    ex = getattr(mx.sym, expr)(wr).simple_bind(mx.cpu(), wr=(6, 3))
    ex.arg_dict["wr"][:] = mx.nd.array(v).tostype("row_sparse")
    out = ex.forward(is_train=True)[0]
    assert out.stype == "row_sparse"
    og = np.zeros((6, 3), np.float32)
    og[[1, 2]] = RNG.rand(2, 3)
    ex.backward(mx.nd.array(og).tostype("row_sparse"))
    g = ex.grad_dict["wr"]
    assert g.stype == "row_sparse"
    np.testing.assert_allclose(g.asnumpy(), grad_fn(v, og), rtol=1e-5, atol=1e-6)
    # A dense head gradient is cast to the output's storage type.
    ex.backward(mx.nd.array(og))
    np.testing.assert_allclose(g.asnumpy(), grad_fn(v, og), rtol=1e-5, atol=1e-6)


def test_row_sparse_add_and_cast_gradients():
    a = np.zeros((5, 2), np.float32)
    a[[0, 3]] = 1.5
    wr = mx.sym.var("wr", stype="row_sparse")
    r2 = mx.sym.var("r2", stype="row_sparse")
    ex = (wr + r2).simple_bind(mx.cpu(), wr=(5, 2), r2=(5, 2))
    ex.arg_dict["wr"][:] = mx.nd.array(a).tostype("row_sparse")
    ex.arg_dict["r2"][:] = mx.nd.array(2 * a).tostype("row_sparse")
    np.testing.assert_allclose(ex.forward(is_train=True)[0].asnumpy(), 3 * a)
    og = RNG.rand(5, 2).astype(np.float32)
    ex.backward(mx.nd.array(og))
    for name in ("wr", "r2"):
        assert ex.grad_dict[name].stype == "row_sparse"
        np.testing.assert_allclose(ex.grad_dict[name].asnumpy(), og, rtol=1e-6)
    ex = mx.sym.cast_storage(mx.sym.var("w"), stype="row_sparse").simple_bind(mx.cpu(), w=(5, 2))
    ex.arg_dict["w"][:] = a
    assert ex.forward(is_train=True)[0].stype == "row_sparse"
    ex.backward(mx.nd.array(og))
    assert ex.grad_dict["w"].stype == "row_sparse"
    np.testing.assert_allclose(ex.grad_dict["w"].asnumpy(), og, rtol=1e-6)


def test_dot_csr_transposed_row_sparse_rhs():
    dense = _csr_values(6, 5, seed=17)
    wv = np.zeros((6, 2), np.float32)
    wv[[0, 2, 5]] = RNG.rand(3, 2)
    ex = mx.sym.sparse.dot(mx.sym.var("x", stype="csr"), mx.sym.var("w", stype="row_sparse"),
                           transpose_a=True).simple_bind(mx.cpu(), x=(6, 5), w=(6, 2),
                                                         grad_req={"x": "null", "w": "write"})
    ex.arg_dict["x"][:] = mx.nd.array(dense).tostype("csr")
    ex.arg_dict["w"][:] = mx.nd.array(wv).tostype("row_sparse")
    out = ex.forward(is_train=True)[0]
    assert out.stype == "row_sparse"
    np.testing.assert_allclose(out.asnumpy(), dense.T @ wv, rtol=1e-5, atol=1e-6)
    og = RNG.rand(5, 2).astype(np.float32)
    ex.backward(mx.nd.array(og))
    assert ex.grad_dict["w"].stype == "default"
    np.testing.assert_allclose(ex.grad_dict["w"].asnumpy(), dense @ og, rtol=1e-5, atol=1e-6)


def test_module_sparse_checkpoint_round_trip(tmp_path):
    mod, _, acc = _train("row_sparse", "csr", "sgd", None, epochs=2)
    prefix = str(tmp_path / "linear")
    mod.save_checkpoint(prefix, 2)
    sym, args, aux = mx.model.load_checkpoint(prefix, 2)
    assert args["weight"].stype == "row_sparse" and args["bias"].stype == "default"
    x, y = _synthetic_problem()
    it = mx.io.NDArrayIter(mx.nd.array(x).tostype("csr"), mx.nd.array(y), batch_size=32,
                           last_batch_handle="discard", label_name="softmax_label")
    loaded = mx.mod.Module(sym, data_names=["data"], label_names=["softmax_label"])
    loaded.bind(it.provide_data, it.provide_label, for_training=False)
    loaded.set_params(args, aux)
    np.testing.assert_allclose(loaded.predict(it).asnumpy(), mod.predict(it).asnumpy(),
                               rtol=1e-6)
    if mx191_oracle.HAVE_MX191:
        # The real MXNet 1.9.1 reads the row_sparse weight and gets the same predictions.
        np.save(str(tmp_path / "x.npy"), x)
        np.save(str(tmp_path / "ours.npy"), mod.predict(it).asnumpy())
        script = tmp_path / "check.py"
        script.write_text(
            "import mxnet as mx, numpy as np, sys\n"
            "d = sys.argv[1]\n"
            "sym, args, aux = mx.model.load_checkpoint(d + '/linear', 2)\n"
            "assert args['weight'].stype == 'row_sparse', args['weight'].stype\n"
            "x = np.load(d + '/x.npy')\n"
            "ex = sym.bind(mx.cpu(), dict(args, data=mx.nd.array(x).tostype('csr'),\n"
            "    softmax_label=mx.nd.zeros((x.shape[0],))))\n"
            "p = ex.forward()[0].asnumpy()\n"
            "np.testing.assert_allclose(p, np.load(d + '/ours.npy'), rtol=1e-5, atol=1e-6)\n"
            "print('MX191-OK')\n")
        out = mx191_oracle.run([script, tmp_path], ours=False, output=True).decode()
        assert "MX191-OK" in out
