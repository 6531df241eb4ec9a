"""The linalg operator family beyond the op table (optable/linalg.py): MXNet 1.9.1 outputs and
gradients (data/mx191/linalg.npz, written by data/mx191/gen_linalg.py), gradients of potrf
and syevd with respect to a symmetric input (symmetric finite differences), large and batched
inputs against NumPy, gradient accumulation (grad_req='add'), the aliases and namespaces, and
error messages."""
import json
import os

import numpy as np
import pytest

import mxnet as mx

L = mx.nd.linalg
_REF = os.path.join(os.path.dirname(__file__), "..", "data", "mx191", "linalg.npz")


def _load_ref():
    data = np.load(_REF)
    return data, json.loads(str(data["cases"]))


_DATA, _CASES = _load_ref()


@pytest.mark.parametrize("i", range(len(_CASES)),
                         ids=["%s-%s-%d" % (c[0], c[2], i) for i, c in enumerate(_CASES)])
def test_matches_mxnet_191(i):
    op, kwargs, dtype = _CASES[i]
    xs, j = [], 0
    while "%d:in:%d" % (i, j) in _DATA:
        xs.append(mx.nd.array(_DATA["%d:in:%d" % (i, j)], dtype=dtype))
        j += 1
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        res = getattr(L, op)(*xs, **kwargs)
    outs = list(res) if isinstance(res, (list, tuple)) else [res]
    heads = [mx.nd.array(_DATA["%d:head:%d" % (i, k)], dtype=dtype) for k in range(len(outs))]
    mx.autograd.backward(outs, heads)
    rtol, atol = (1e-9, 1e-10) if dtype == "float64" else (1e-4, 1e-5)
    for k, o in enumerate(outs):
        expected = _DATA["%d:out:%d" % (i, k)]
        assert o.dtype == np.dtype(dtype) and o.shape == expected.shape
        np.testing.assert_allclose(o.asnumpy(), expected, rtol=rtol, atol=atol,
                                   err_msg="%s %s output %d" % (op, kwargs, k))
    for j, x in enumerate(xs):
        np.testing.assert_allclose(x.grad.asnumpy(), _DATA["%d:grad:%d" % (i, j)], rtol=rtol * 10,
                                   atol=atol * 10, err_msg="%s %s gradient %d" % (op, kwargs, j))


# ---- gradients with respect to a symmetric input --------------------------------------------

def _symmetric_fd_check(fn, a, rng, eps=1e-6):
    """autograd gradient G of sum(heads * fn(A)) against central differences along symmetric
    perturbations E = e_ij + e_ji: the directional derivative is sum(G * E)."""
    x = mx.nd.array(a, dtype="float64")
    x.attach_grad()
    with mx.autograd.record():
        res = fn(x)
    outs = list(res) if isinstance(res, (list, tuple)) else [res]
    heads = [rng.uniform(-1, 1, size=o.shape) for o in outs]
    mx.autograd.backward(outs, [mx.nd.array(h, dtype="float64") for h in heads])
    grad = x.grad.asnumpy()
    assert np.allclose(grad, np.swapaxes(grad, -1, -2)), "gradient is not symmetric"

    def objective(m):
        r = fn(mx.nd.array(m, dtype="float64"))
        r = list(r) if isinstance(r, (list, tuple)) else [r]
        return sum(float(np.sum(o.asnumpy() * h)) for o, h in zip(r, heads))

    n = a.shape[-1]
    for b in np.ndindex(a.shape[:-2]):
        for i in range(n):
            for j in range(i + 1):
                e = np.zeros_like(a)
                e[b + (i, j)] = 1.0
                e[b + (j, i)] = 1.0
                num = (objective(a + eps * e) - objective(a - eps * e)) / (2 * eps)
                got = float(np.sum(grad * e))
                assert abs(got - num) <= 1e-6 + 1e-5 * abs(num), (b, i, j, got, num)


def test_potrf_gradient_symmetric_finite_differences():
    rng = np.random.RandomState(0)
    m = rng.uniform(-1, 1, size=(2, 4, 4))
    a = m @ np.swapaxes(m, -1, -2) + 4 * np.eye(4)
    _symmetric_fd_check(L.potrf, a, rng)


def test_syevd_gradient_symmetric_finite_differences():
    rng = np.random.RandomState(1)
    m = rng.uniform(-1, 1, size=(2, 4, 4))
    a = m + np.swapaxes(m, -1, -2) + np.diag([0.0, 1.0, 2.5, 4.0])  # well separated eigenvalues
    _symmetric_fd_check(L.syevd, a, rng)


# ---- large and batched inputs against NumPy -----------------------------------------------------

def test_gemm_large_and_many_small_against_numpy():
    rng = np.random.RandomState(2)
    a, b, c = rng.randn(120, 300), rng.randn(200, 300), rng.randn(120, 200)
    out = L.gemm(mx.nd.array(a, dtype="float64"), mx.nd.array(b, dtype="float64"),
                 mx.nd.array(c, dtype="float64"), transpose_b=True, alpha=0.5, beta=-2.0)
    np.testing.assert_allclose(out.asnumpy(), 0.5 * a @ b.T - 2.0 * c, rtol=1e-10, atol=1e-10)
    a, b = rng.randn(64, 5, 7).astype("float32"), rng.randn(64, 7, 3).astype("float32")
    out = L.gemm2(mx.nd.array(a), mx.nd.array(b))
    np.testing.assert_allclose(out.asnumpy(), np.matmul(a, b), rtol=1e-4, atol=1e-5)


def test_batched_factorizations_against_numpy():
    rng = np.random.RandomState(3)
    m = rng.uniform(-1, 1, size=(3, 16, 6, 6))
    spd = m @ np.swapaxes(m, -1, -2) + 6 * np.eye(6)
    for dtype, tol in (("float64", 1e-10), ("float32", 1e-4)):
        x = mx.nd.array(spd, dtype=dtype)
        low = L.potrf(x).asnumpy()
        np.testing.assert_allclose(low, np.linalg.cholesky(spd), rtol=tol, atol=tol)
        np.testing.assert_allclose(L.potri(mx.nd.array(low, dtype=dtype)).asnumpy(),
                                   np.linalg.inv(spd), rtol=tol * 10, atol=tol)
        np.testing.assert_allclose(L.inverse(x).asnumpy(), np.linalg.inv(spd), rtol=tol * 10,
                                   atol=tol)
        np.testing.assert_allclose(L.det(x).asnumpy(), np.linalg.det(spd), rtol=tol * 10)
        sign, logdet = L.slogdet(x)
        np.testing.assert_array_equal(sign.asnumpy(), np.ones((3, 16)))
        np.testing.assert_allclose(logdet.asnumpy(), np.linalg.slogdet(spd)[1], rtol=tol)
        np.testing.assert_allclose(L.sumlogdiag(mx.nd.array(low, dtype=dtype)).asnumpy() * 2,
                                   np.linalg.slogdet(spd)[1], rtol=tol)
        u, w = L.syevd(x)
        u, w = u.asnumpy(), w.asnumpy()
        np.testing.assert_allclose(w, np.linalg.eigvalsh(spd), rtol=tol, atol=tol)
        np.testing.assert_allclose(u @ spd, w[..., None] * u, rtol=tol * 10, atol=tol * 100)


def test_gelqf_reconstructs_and_is_orthonormal():
    rng = np.random.RandomState(4)
    a = rng.randn(5, 4, 9)
    q, l = [r.asnumpy() for r in L.gelqf(mx.nd.array(a, dtype="float64"))]
    np.testing.assert_allclose(l @ q, a, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(4), (5, 4, 4)),
                               atol=1e-12)
    assert np.all(np.triu(l, 1) == 0)


def test_trsm_inverts_trmm():
    rng = np.random.RandomState(5)
    a = np.tril(rng.uniform(-1, 1, size=(4, 5, 5))) + 3 * np.eye(5)
    b = rng.randn(4, 5, 3)
    for kw in (dict(), dict(transpose=True), dict(lower=False, transpose=True)):
        aa = a if kw.get("lower", True) else np.swapaxes(a, -1, -2)
        x = mx.nd.array(aa, dtype="float64")
        prod = L.trmm(x, mx.nd.array(b, dtype="float64"), alpha=2.0, **kw)
        back = L.trsm(x, prod, alpha=0.5, **kw)
        np.testing.assert_allclose(back.asnumpy(), b, rtol=1e-10, atol=1e-10)


def test_diag_and_trian_round_trips():
    rng = np.random.RandomState(6)
    v = rng.randn(3, 10)
    for offset, lower in ((0, True), (0, False), (2, True), (-1, True)):
        m = L.maketrian(mx.nd.array(v), offset=offset, lower=lower)
        np.testing.assert_array_equal(
            L.extracttrian(m, offset=offset, lower=lower).asnumpy(), v.astype("float32"))
    d = rng.randn(2, 4)
    for offset in (0, 3, -2):
        m = L.makediag(mx.nd.array(d), offset=offset)
        np.testing.assert_array_equal(L.extractdiag(m, offset=offset).asnumpy(),
                                      d.astype("float32"))


# ---- gradient accumulation and the symbolic path -------------------------------------------------

@pytest.mark.parametrize("op,shapes,kwargs", [
    ("gemm2", [(2, 3, 4), (2, 4, 5)], dict(transpose_a=False, alpha=2.0)),
    ("gemm", [(3, 4), (4, 2), (3, 2)], dict(beta=3.0)),
    ("trsm", [(3, 3), (3, 2)], dict(rightside=False)),
    ("potri", [(3, 3)], {}),
    ("potrf", [(2, 3, 3)], {}),
    ("extracttrian", [(2, 3, 3)], dict(offset=-1)),
])
def test_executor_grad_req_add_accumulates(op, shapes, kwargs):
    rng = np.random.RandomState(7)
    arrays = [rng.uniform(-1, 1, size=s) for s in shapes]
    arrays[0] = arrays[0] + (3 * np.eye(shapes[0][-1]) if op in ("trsm", "potri", "potrf") else 0)
    names = ["x%d" % i for i in range(len(shapes))]
    net = getattr(mx.sym.linalg, op)(*[mx.sym.var(n) for n in names], **kwargs)
    args = {n: mx.nd.array(a, dtype="float64") for n, a in zip(names, arrays)}
    grads = {n: mx.nd.ones(a.shape, dtype="float64") for n, a in zip(names, arrays)}
    ex = net.bind(mx.cpu(), args, args_grad=grads, grad_req="add")
    out = ex.forward(is_train=True)[0]
    head = mx.nd.array(rng.uniform(-1, 1, size=out.shape), dtype="float64")
    ex.backward(head)
    once = {n: g.asnumpy() - 1.0 for n, g in grads.items()}
    ex.forward(is_train=True)
    ex.backward(head)
    # The autograd gradient of the same op (write mode) is the oracle for one step.
    xs = [mx.nd.array(a, dtype="float64") for a in arrays]
    for x in xs:
        x.attach_grad()
    with mx.autograd.record():
        y = getattr(L, op)(*xs, **kwargs)
    y.backward(head)
    for n, x in zip(names, xs):
        np.testing.assert_allclose(once[n], x.grad.asnumpy(), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(grads[n].asnumpy(), 1.0 + 2 * x.grad.asnumpy(), rtol=1e-12,
                                   atol=1e-12)


def test_aliases_and_namespaces():
    a = mx.nd.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(mx.nd.linalg_gemm2(a, a).asnumpy(), L.gemm2(a, a).asnumpy())
    np.testing.assert_array_equal(mx.nd.linalg_det(a).asnumpy(), [-2.0])
    for name in ("gemm", "gemm2", "potrf", "potri", "trmm", "trsm", "sumlogdiag", "syrk",
                 "gelqf", "syevd", "inverse", "det", "slogdet", "extractdiag", "makediag",
                 "extracttrian", "maketrian"):
        assert callable(getattr(mx.nd.linalg, name)) and callable(getattr(mx.sym.linalg, name))
        assert callable(getattr(mx.nd, "linalg_" + name)), name
        assert callable(getattr(mx.nd._internal, "_backward_linalg_" + name)), name
    g = mx.sym.linalg.gelqf(mx.sym.var("a"), name="g")
    assert g.list_outputs() == ["g_output0", "g_output1"]       # as MXNet 1.9.1
    assert mx.sym.linalg.gemm(name="m").list_arguments() == ["m_A", "m_B", "m_C"]
    _, out_shapes, _ = mx.sym.linalg.syevd(mx.sym.var("a")).infer_shape(a=(5, 3, 3))
    assert out_shapes == [(5, 3, 3), (5, 3)]


# ---- errors ------------------------------------------------------------------------------------

_ERRORS = [
    (lambda: L.gemm2(mx.nd.ones((2, 3)), mx.nd.ones((2, 3))), ValueError,
     r"linalg_gemm2: shape mismatch: A \[2,3\] and B \[2,3\]"),
    (lambda: L.gemm(mx.nd.ones((2, 3)), mx.nd.ones((3, 2)), mx.nd.ones((2, 3))), ValueError,
     r"linalg_gemm: input C has shape \[2,3\]"),
    (lambda: L.gemm2(mx.nd.ones((3,)), mx.nd.ones((3,))), ValueError,
     r"linalg_gemm2: input A must be a tensor of matrices"),
    (lambda: L.gemm2(mx.nd.ones((2, 3, 4)), mx.nd.ones((3, 4, 5))), ValueError,
     r"linalg_gemm2: inputs A \[2,3,4\] and B \[3,4,5\]"),
    (lambda: L.gemm2(mx.nd.ones((2, 3)), mx.nd.ones((3, 2)), axis=-1), ValueError,
     r"linalg_gemm2: axis -1 is invalid"),
    (lambda: L.potrf(mx.nd.array([[1.0, 2.0], [3.0, 4.0]])).asnumpy(), ValueError,
     r"linalg_potrf: input A of shape \[2,2\] is not \(symmetric\) positive definite"),
    (lambda: L.potrf(mx.nd.ones((3, 4, 5))), ValueError,
     r"linalg_potrf: input A must be a tensor of square matrices, got shape \[3,4,5\]"),
    (lambda: L.inverse(mx.nd.array([[1.0, 2.0], [2.0, 4.0]])).asnumpy(), ValueError,
     r"linalg_inverse: input A of shape \[2,2\] is singular"),
    (lambda: L.gelqf(mx.nd.ones((3, 2))), ValueError,
     r"linalg_gelqf: input A \[3,2\] must have no more rows than columns"),
    (lambda: L.gemm2(mx.nd.ones((2, 3), dtype="int32"), mx.nd.ones((3, 2), dtype="int32")),
     TypeError, r"linalg_gemm2: only float32 and float64 are supported, got int32"),
    (lambda: L.maketrian(mx.nd.ones((4,))), ValueError,
     r"linalg_maketrian: the last dimension of input A \[4\] must be a triangular number"),
    (lambda: L.extractdiag(mx.nd.ones((3, 3)), offset=3), ValueError,
     r"linalg_extractdiag: offset 3 is outside"),
    (lambda: L.trsm(mx.nd.ones((3, 3)), mx.nd.ones((2, 3))), ValueError,
     r"linalg_trsm: shape mismatch: triangular A \[3,3\] cannot multiply B \[2,3\]"),
    (lambda: L.trmm(mx.nd.ones((2, 3, 3)), mx.nd.ones((4, 3, 3))), ValueError,
     r"linalg_trmm: inputs A \[2,3,3\] and B \[4,3,3\] must have the same batch"),
]


@pytest.mark.parametrize("fn,exc,pattern", _ERRORS)
def test_errors_name_operator_argument_and_shapes(fn, exc, pattern):
    with pytest.raises(exc, match=pattern):
        fn()
    # The library is still usable after the error.
    np.testing.assert_array_equal(L.det(mx.nd.array([[2.0]])).asnumpy(), [2.0])


def test_batched_error_names_the_batch_entry():
    a = np.stack([np.eye(2), [[1.0, 2.0], [3.0, 1.0]]])
    with pytest.raises(ValueError, match=r"linalg_potrf: .*not \(symmetric\) positive definite"
                                         r".*\(batch index 1\)"):
        L.potrf(mx.nd.array(a)).asnumpy()


@pytest.mark.parametrize("op", ["det", "slogdet"])
def test_singular_input_gets_zero_gradient(op):
    # MXNet 1.9.1 backpropagates nothing from a singular matrix; the regular entry still does.
    a = mx.nd.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]], dtype="float64")
    a.attach_grad()
    with mx.autograd.record():
        y = L.det(a) if op == "det" else L.slogdet(a)[1]
    y.backward()
    g = a.grad.asnumpy()
    np.testing.assert_array_equal(g[0], np.zeros((2, 2)))
    inv_t = np.linalg.inv(a.asnumpy()[1]).T
    np.testing.assert_allclose(g[1], inv_t * (5.0 if op == "det" else 1.0), rtol=1e-12)


def test_empty_batches():
    assert L.det(mx.nd.ones((0, 3, 3))).shape == (0,)
    assert L.inverse(mx.nd.ones((2, 0, 0))).shape == (2, 0, 0)
    assert L.gemm2(mx.nd.ones((0, 3)), mx.nd.ones((3, 2))).shape == (0, 2)
