"""Operators on sparse arrays: the sparse kernels (cast_storage, retain, dot(csr, dense),
row_sparse elementwise arithmetic, lazy optimizer updates, adagrad, Embedding's row_sparse
gradient) and the storage fallback of every other operator. References: dense NumPy."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

import mx191_oracle


def _sparse_dense(rng, shape, density=0.4, dtype="float32", zero_rows=()):
    x = rng.uniform(-3, 3, size=shape).astype(dtype)
    x[rng.uniform(size=shape) > density] = 0
    for r in zero_rows:
        x[r] = 0
    return x


def test_cast_storage_all_pairs():
    rng = np.random.RandomState(0)
    dense = _sparse_dense(rng, (5, 4), zero_rows=(1,))
    x = mx.nd.array(dense)
    for src in ("default", "csr", "row_sparse"):
        a = mx.nd.cast_storage(x, stype=src)
        assert a.stype == src
        for dst in ("default", "csr", "row_sparse"):
            b = mx.nd.sparse.cast_storage(a, stype=dst)
            assert b.stype == dst
            np.testing.assert_array_equal(b.asnumpy(), dense)


def test_storage_fallback_gives_dense_results():
    rng = np.random.RandomState(1)
    dense = _sparse_dense(rng, (4, 3))
    for stype in ("csr", "row_sparse"):
        a = mx.nd.array(dense).tostype(stype)
        e = mx.nd.exp(a)
        assert e.stype == "default"
        np.testing.assert_allclose(e.asnumpy(), np.exp(dense), rtol=1e-6)
        s = mx.nd.sum(a, axis=0)
        np.testing.assert_allclose(s.asnumpy(), dense.sum(axis=0), rtol=1e-5)
        n = mx.nd.norm(a)
        np.testing.assert_allclose(n.asnumpy(), [np.linalg.norm(dense)], rtol=1e-5)
        m = a + mx.nd.ones((4, 3))  # sparse + dense -> dense
        assert m.stype == "default"
        np.testing.assert_allclose(m.asnumpy(), dense + 1, rtol=1e-6)
        np.testing.assert_allclose((a * 2).asnumpy(), dense * 2, rtol=1e-6)
        np.testing.assert_allclose(mx.nd.broadcast_mul(a, mx.nd.array([1, 2, 3])).asnumpy(),
                                   dense * np.array([1, 2, 3]), rtol=1e-6)
        # a sparse `out` of a dense-only op is written back in its storage type
        out = mx.nd.sparse.zeros(stype, (4, 3))
        mx.nd.relu(mx.nd.array(dense), out=out)
        assert out.stype == stype
        np.testing.assert_allclose(out.asnumpy(), np.maximum(dense, 0))


def test_retain():
    rng = np.random.RandomState(2)
    dense = _sparse_dense(rng, (6, 2), zero_rows=(0, 4))
    rsp = mx.nd.array(dense).tostype("row_sparse")
    idx = mx.nd.array([5, 0, 2], dtype="int64")
    out = mx.nd.sparse.retain(rsp, idx)
    assert out.stype == "row_sparse"
    want = np.zeros_like(dense)
    want[[0, 2, 5]] = dense[[0, 2, 5]]
    np.testing.assert_array_equal(out.asnumpy(), want)
    # 1.9.1 keeps every requested row in the output layout
    np.testing.assert_array_equal(out.indices.asnumpy(), [0, 2, 5])
    np.testing.assert_array_equal(rsp.retain(idx).asnumpy(), want)
    with pytest.raises(MXNetError, match="out of range"):
        mx.nd.sparse.retain(rsp, mx.nd.array([9], dtype="int64")).wait_to_read()


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dot_csr_dense(transpose_a, dtype):
    rng = np.random.RandomState(3)
    lhs = _sparse_dense(rng, (7, 5), dtype=dtype, zero_rows=(2,))
    lhs[:, 3] = 0  # a column nobody uses
    rhs = rng.uniform(-1, 1, size=(7 if transpose_a else 5, 4)).astype(dtype)
    csr = mx.nd.array(lhs, dtype=dtype).tostype("csr")
    out = mx.nd.dot(csr, mx.nd.array(rhs, dtype=dtype), transpose_a=transpose_a)
    want = (lhs.T if transpose_a else lhs) @ rhs
    assert out.stype == ("row_sparse" if transpose_a else "default")
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-5)
    if transpose_a:
        dense_out = mx.nd.sparse.dot(csr, mx.nd.array(rhs, dtype=dtype), transpose_a=True,
                                     forward_stype="default")
        assert dense_out.stype == "default"
        np.testing.assert_allclose(dense_out.asnumpy(), want, rtol=1e-5, atol=1e-5)
    # 1-D rhs
    v = rng.uniform(-1, 1, size=(lhs.shape[0] if transpose_a else lhs.shape[1],)).astype(dtype)
    out1 = mx.nd.dot(csr, mx.nd.array(v, dtype=dtype), transpose_a=transpose_a)
    np.testing.assert_allclose(out1.asnumpy(), (lhs.T if transpose_a else lhs) @ v, rtol=1e-5,
                               atol=1e-5)


def test_dot_csr_transpose_b_falls_back():
    rng = np.random.RandomState(4)
    lhs = _sparse_dense(rng, (3, 4))
    rhs = rng.uniform(size=(5, 4)).astype("float32")
    out = mx.nd.dot(mx.nd.array(lhs).tostype("csr"), mx.nd.array(rhs), transpose_b=True)
    assert out.stype == "default"
    np.testing.assert_allclose(out.asnumpy(), lhs @ rhs.T, rtol=1e-5)


@pytest.mark.parametrize("name,fn", [("elemwise_add", np.add), ("elemwise_sub", np.subtract),
                                     ("elemwise_mul", np.multiply)])
def test_rsp_elemwise(name, fn):
    rng = np.random.RandomState(5)
    a = _sparse_dense(rng, (6, 3), zero_rows=(0, 2, 3))
    b = _sparse_dense(rng, (6, 3), zero_rows=(2, 4, 5))
    ra, rb = mx.nd.array(a).tostype("row_sparse"), mx.nd.array(b).tostype("row_sparse")
    out = getattr(mx.nd, name)(ra, rb)
    assert out.stype == "row_sparse"
    np.testing.assert_allclose(out.asnumpy(), fn(a, b), rtol=1e-6)
    out.check_format()
    ia, ib = set(ra.indices.asnumpy()), set(rb.indices.asnumpy())
    rows = sorted(ia & ib) if name == "elemwise_mul" else sorted(ia | ib)
    np.testing.assert_array_equal(out.indices.asnumpy(), rows)


def test_rsp_operators_keep_storage():
    a = np.array([[1, 2], [0, 0], [3, 0]], dtype="float32")
    ra = mx.nd.array(a).tostype("row_sparse")
    assert (ra + ra).stype == "row_sparse"
    assert (ra - ra).stype == "row_sparse"
    assert (ra * ra).stype == "row_sparse"
    np.testing.assert_array_equal((ra * ra).asnumpy(), a * a)
    np.testing.assert_array_equal((ra + 1).asnumpy(), a + 1)
    np.testing.assert_array_equal((ra / 2).asnumpy(), a / 2)


def _rsp_grad(rng, shape, rows):
    g = np.zeros(shape, dtype="float32")
    g[rows] = rng.uniform(-2, 2, size=(len(rows),) + shape[1:])
    return g


def test_sgd_update_lazy():
    rng = np.random.RandomState(6)
    w = rng.uniform(-1, 1, size=(5, 3)).astype("float32")
    g = _rsp_grad(rng, (5, 3), [1, 3])
    weight = mx.nd.array(w)
    grad = mx.nd.array(g).tostype("row_sparse")
    lr, wd, rescale, clip = 0.1, 0.05, 0.5, 0.6
    mx.nd.sgd_update(weight, grad, out=weight, lr=lr, wd=wd, rescale_grad=rescale,
                     clip_gradient=clip)
    want = w.copy()
    rows = [1, 3]
    gg = np.clip(rescale * g[rows], -clip, clip)
    want[rows] = (1 - lr * wd) * w[rows] - lr * gg
    np.testing.assert_allclose(weight.asnumpy(), want, rtol=1e-6, atol=1e-7)
    # lazy_update=False: the standard update of every row (wd reaches rows without gradient)
    weight2 = mx.nd.array(w)
    mx.nd.sgd_update(weight2, grad, out=weight2, lr=lr, wd=wd, lazy_update=False)
    np.testing.assert_allclose(weight2.asnumpy(), (1 - lr * wd) * w - lr * g, rtol=1e-6,
                               atol=1e-7)
    # a new output array leaves the weight alone
    weight3 = mx.nd.array(w)
    res = mx.nd.sgd_update(weight3, grad, lr=lr)
    np.testing.assert_array_equal(weight3.asnumpy(), w)
    want3 = w.copy()
    want3[rows] = w[rows] - lr * g[rows]
    np.testing.assert_allclose(res.asnumpy(), want3, rtol=1e-6)


def test_sgd_mom_update_lazy():
    rng = np.random.RandomState(7)
    w = rng.uniform(-1, 1, size=(4, 2)).astype("float32")
    m = rng.uniform(-1, 1, size=(4, 2)).astype("float32")
    g = _rsp_grad(rng, (4, 2), [0, 2])
    weight, mom = mx.nd.array(w), mx.nd.array(m)
    lr, momentum, wd = 0.1, 0.9, 0.01
    mx.nd.sgd_mom_update(weight, mx.nd.array(g).tostype("row_sparse"), mom, out=weight, lr=lr,
                         momentum=momentum, wd=wd)
    wm, mm = w.copy(), m.copy()
    for r in (0, 2):
        mm[r] = momentum * m[r] - lr * wd * w[r] - lr * g[r]
        wm[r] = w[r] + mm[r]
    np.testing.assert_allclose(weight.asnumpy(), wm, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(mom.asnumpy(), mm, rtol=1e-6, atol=1e-7)


def test_adam_update_lazy():
    rng = np.random.RandomState(8)
    w = rng.uniform(-1, 1, size=(5, 2)).astype("float32")
    mean = rng.uniform(-0.1, 0.1, size=(5, 2)).astype("float32")
    var = rng.uniform(0, 0.1, size=(5, 2)).astype("float32")
    g = _rsp_grad(rng, (5, 2), [4, 1])
    weight, m, v = mx.nd.array(w), mx.nd.array(mean), mx.nd.array(var)
    lr, b1, b2, eps, wd = 0.01, 0.9, 0.999, 1e-8, 0.1
    mx.nd.adam_update(weight, mx.nd.array(g).tostype("row_sparse"), m, v, out=weight, lr=lr,
                      beta1=b1, beta2=b2, epsilon=eps, wd=wd)
    ww, mm, vv = w.copy(), mean.copy(), var.copy()
    for r in (1, 4):
        gr = g[r] + wd * w[r]
        mm[r] = b1 * mean[r] + (1 - b1) * gr
        vv[r] = b2 * var[r] + (1 - b2) * gr * gr
        ww[r] = w[r] - lr * mm[r] / (np.sqrt(vv[r]) + eps)
    np.testing.assert_allclose(weight.asnumpy(), ww, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m.asnumpy(), mm, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(v.asnumpy(), vv, rtol=1e-5, atol=1e-7)


def test_sparse_adagrad_update_matches_mx191_numbers():
    # Values computed with MXNet 1.9.1 (mx.nd.sparse.adagrad_update, out=weight).
    g = mx.nd.array([[1, -2], [0, 0], [4, 4]]).tostype("row_sparse")
    w, h = mx.nd.ones((3, 2)), mx.nd.ones((3, 2))
    mx.nd.sparse.adagrad_update(w, g, h, lr=0.1, epsilon=1e-7, rescale_grad=0.5,
                                clip_gradient=1.5, out=w)
    np.testing.assert_allclose(w.asnumpy(), [[0.95527864, 1.0707107], [1, 1],
                                             [0.91679496, 0.91679496]], rtol=1e-6)
    np.testing.assert_allclose(h.asnumpy(), [[1.25, 2.0], [1, 1], [3.25, 3.25]], rtol=1e-6)
    w, h = mx.nd.ones((3, 2)), mx.nd.ones((3, 2))
    mx.nd.sparse.adagrad_update(w, g, h, lr=0.1, epsilon=0.5, out=w)
    np.testing.assert_allclose(w.asnumpy(), [[0.93675447, 1.0852803], [1, 1],
                                             [0.9043817, 0.9043817]], rtol=1e-6)
    np.testing.assert_allclose(h.asnumpy(), [[2, 5], [1, 1], [17, 17]], rtol=1e-6)


def test_sparse_adagrad_update_errors():
    g = mx.nd.array([[1, 0]]).tostype("row_sparse")
    w, h = mx.nd.ones((1, 2)), mx.nd.ones((1, 2))
    with pytest.raises(MXNetError, match="weight decay"):
        mx.nd.sparse.adagrad_update(w, g, h, lr=0.1, wd=0.1, out=w)
    with pytest.raises(MXNetError, match="row_sparse"):
        mx.nd.sparse.adagrad_update(w, mx.nd.ones((1, 2)), h, lr=0.1, out=w).wait_to_read()


def test_adagrad_optimizer_with_row_sparse_grad():
    opt = mx.optimizer.AdaGrad(learning_rate=0.1, eps=1e-7, wd=0.0)
    w = mx.nd.ones((3, 2))
    state = opt.create_state(0, w)
    g = mx.nd.array([[1, 1], [0, 0], [2, 2]]).tostype("row_sparse")
    opt.update(0, w, g, state)
    want = np.ones((3, 2), dtype="float32")
    want[[0, 2]] -= 0.1 * np.array([[1, 1], [2, 2]]) / np.sqrt(np.array([[1, 1], [4, 4]]) + 1e-7)
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-5)


def test_embedding_sparse_grad_autograd():
    rng = np.random.RandomState(9)
    vocab, dim = 10, 3
    wt = rng.uniform(-1, 1, size=(vocab, dim)).astype("float32")
    idx = np.array([[1, 7], [7, 3]], dtype="float32")
    head = rng.uniform(-1, 1, size=(2, 2, dim)).astype("float32")
    weight = mx.nd.array(wt)
    weight.attach_grad(stype="row_sparse")
    with mx.autograd.record():
        out = mx.nd.Embedding(mx.nd.array(idx), weight, input_dim=vocab, output_dim=dim,
                              sparse_grad=True)
    out.backward(mx.nd.array(head))
    grad = weight.grad
    assert grad.stype == "row_sparse"
    want = np.zeros_like(wt)
    for pos, i in np.ndenumerate(idx):
        want[int(i)] += head[pos]
    np.testing.assert_allclose(grad.asnumpy(), want, rtol=1e-6)
    np.testing.assert_array_equal(grad.indices.asnumpy(), [1, 3, 7])
    # the optimizer then updates just those rows
    mx.nd.sgd_update(weight, grad, out=weight, lr=0.5, wd=0.1)
    expect = wt.copy()
    expect[[1, 3, 7]] = (1 - 0.5 * 0.1) * wt[[1, 3, 7]] - 0.5 * want[[1, 3, 7]]
    np.testing.assert_allclose(weight.asnumpy(), expect, rtol=1e-6)


def test_embedding_sparse_grad_into_dense_buffer():
    weight = mx.nd.ones((4, 2))
    weight.attach_grad()
    with mx.autograd.record():
        out = mx.nd.Embedding(mx.nd.array([0, 2, 2]), weight, input_dim=4, output_dim=2,
                              sparse_grad=True)
    out.backward()
    assert weight.grad.stype == "default"
    np.testing.assert_array_equal(weight.grad.asnumpy(), [[1, 1], [0, 0], [2, 2], [0, 0]])


def test_autograd_through_sparse_input():
    rng = np.random.RandomState(10)
    lhs = _sparse_dense(rng, (3, 4))
    rhs = rng.uniform(size=(4, 2)).astype("float32")
    csr = mx.nd.array(lhs).tostype("csr")
    b = mx.nd.array(rhs)
    b.attach_grad()
    with mx.autograd.record():
        y = mx.nd.dot(csr, b)
    y.backward()
    np.testing.assert_allclose(b.grad.asnumpy(), lhs.T @ np.ones((3, 2)), rtol=1e-5)


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_output_stypes_match_mx191(tmp_path):
    script = tmp_path / "stypes.py"
    script.write_text(
        "import mxnet as mx\n"
        "c = mx.nd.array([[1,0,2],[0,0,3]]).tostype('csr'); d = mx.nd.ones((3,2))\n"
        "r = mx.nd.array([[1,0],[0,0],[2,2]]).tostype('row_sparse')\n"
        "res = [mx.nd.dot(c, d), mx.nd.dot(c, mx.nd.ones((2,2)), transpose_a=True), r + r,\n"
        "       r * r, r - r, mx.nd.elemwise_add(r, mx.nd.ones((3,2))), mx.nd.exp(r),\n"
        "       mx.nd.sum(r), mx.nd.sparse.retain(r, mx.nd.array([0,1])),\n"
        "       mx.nd.cast_storage(c, stype='default'), c[0:1]]\n"
        "print(' '.join(x.stype for x in res))\n")
    code = script.read_text().replace("import mxnet as mx\n", "")
    ref = mx191_oracle.run([script], ours=False, output=True).decode().split()[-11:]
    ns = {"mx": mx}
    import io
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(code, ns)  # pylint: disable=exec-used
    assert buf.getvalue().split() == ref


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_embedding_sparse_grad_trainer(hybridize):
    from mxnet import gluon
    net = gluon.nn.Embedding(10, 3, sparse_grad=True)
    net.initialize(mx.init.Constant(1.0))
    if hybridize:
        net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5, "wd": 0.1})
    x = mx.nd.array([[1, 7], [7, 3]])
    with mx.autograd.record():
        loss = net(x).sum()
    loss.backward()
    grad = net.weight.grad()
    assert grad.stype == "row_sparse"
    np.testing.assert_array_equal(grad.indices.asnumpy(), [1, 3, 7])
    trainer.step(1)
    # lazy update: rows without gradient keep their value (no weight decay either)
    want = np.ones((10, 3), dtype="float32")
    counts = {1: 1, 3: 1, 7: 2}
    for r, c in counts.items():
        want[r] = (1 - 0.5 * 0.1) * 1.0 - 0.5 * c
    np.testing.assert_allclose(net.weight.data().asnumpy(), want, rtol=1e-6)


@pytest.mark.parametrize("name,fn", [("elemwise_add", np.add), ("elemwise_sub", np.subtract),
                                     ("elemwise_mul", np.multiply)])
def test_csr_elemwise(name, fn):
    rng = np.random.RandomState(11)
    a = _sparse_dense(rng, (5, 6), zero_rows=(1,))
    b = _sparse_dense(rng, (5, 6), zero_rows=(1, 3))
    ca, cb = mx.nd.array(a).tostype("csr"), mx.nd.array(b).tostype("csr")
    out = getattr(mx.nd, name)(ca, cb)
    assert out.stype == "csr"
    out.check_format()
    np.testing.assert_allclose(out.asnumpy(), fn(a, b), rtol=1e-6)
    # stored entries: union (add, sub) or intersection (mul) of the operands' positions
    mask = (a != 0) & (b != 0) if name == "elemwise_mul" else (a != 0) | (b != 0)
    assert out.data.shape[0] == int(mask.sum())


def test_zeros_like_keeps_storage():
    for stype in ("csr", "row_sparse"):
        x = mx.nd.array([[1, 0], [0, 2]]).tostype(stype)
        z = mx.nd.zeros_like(x)
        assert z.stype == stype
        np.testing.assert_array_equal(z.asnumpy(), np.zeros((2, 2)))
        z.check_format()


ZERO_PRESERVING = {"abs": np.abs, "sign": np.sign, "round": np.round, "ceil": np.ceil,
                   "floor": np.floor, "trunc": np.trunc, "fix": np.fix, "square": np.square,
                   "sqrt": lambda x: np.sqrt(np.abs(x)), "relu": lambda x: np.maximum(x, 0),
                   "tanh": np.tanh, "sin": np.sin, "sinh": np.sinh, "arctan": np.arctan,
                   "degrees": np.degrees, "expm1": np.expm1, "negative": np.negative,
                   "log1p": lambda x: np.log1p(np.abs(x))}


@pytest.mark.parametrize("name", sorted(ZERO_PRESERVING))
@pytest.mark.parametrize("stype", ["csr", "row_sparse"])
def test_zero_preserving_unary_keeps_storage(name, stype):
    rng = np.random.RandomState(12)
    dense = _sparse_dense(rng, (4, 5), zero_rows=(2,))
    if name in ("sqrt", "log1p"):
        dense = np.abs(dense)
    x = mx.nd.array(dense).tostype(stype)
    out = getattr(mx.nd, name)(x)
    assert out.stype == stype  # as in MXNet 1.9.1
    np.testing.assert_array_equal(out.indices.asnumpy(), x.indices.asnumpy())
    np.testing.assert_allclose(out.asnumpy(), ZERO_PRESERVING[name](dense), rtol=1e-5, atol=1e-6)


def test_scalar_mul_div_keep_storage():
    dense = np.array([[1, 0], [0, 0], [2, -4]], dtype="float32")
    for stype in ("csr", "row_sparse"):
        x = mx.nd.array(dense).tostype(stype)
        for out, want in ((x * 3, dense * 3), (x / 2, dense / 2), (2 * x, dense * 2)):
            assert out.stype == stype
            np.testing.assert_allclose(out.asnumpy(), want)
        assert (x + 1).stype == "default"  # f(0) != 0: dense, as in 1.9.1
        assert mx.nd.exp(x).stype == "default"


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_dense_layer_on_csr_input(hybridize):
    from mxnet import gluon
    rng = np.random.RandomState(13)
    x = _sparse_dense(rng, (4, 5))
    results = []
    for stype in ("default", "csr"):
        net = gluon.nn.Dense(3, in_units=5)
        net.initialize(mx.init.Constant(0.5))
        if hybridize:
            net.hybridize()
        data = mx.nd.array(x).tostype(stype)
        with mx.autograd.record():
            y = net(data)
        y.backward()
        results.append((y.asnumpy(), net.weight.grad().asnumpy()))
        # a second call reuses the bound graph
        np.testing.assert_allclose(net(data).asnumpy(), y.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-6)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-6)
    np.testing.assert_allclose(results[0][0], x @ np.full((5, 3), 0.5) + net.bias.data().asnumpy(),
                               rtol=1e-5)
