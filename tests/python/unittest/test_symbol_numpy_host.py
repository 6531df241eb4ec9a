"""mx.sym.np functions built as host operators (symbol/numpy/_host.py, host_routines.py and
the linalg additions) and sym.npx.constraint_check: forward against NumPy, gradients against
finite differences or closed forms."""
import numpy as onp
import pytest

import mxnet as mx

S = mx.sym.np
x, y = mx.sym.var('x'), mx.sym.var('y')
RNG = onp.random.RandomState(0)
A = RNG.uniform(-1, 1, (2, 3)).astype(onp.float32)
B = RNG.uniform(-1, 1, (3,)).astype(onp.float32)


def ev(sym, **arrays):
    with mx.util.np_shape(True):
        feed = {k: mx.nd.array(v, dtype=v.dtype) for k, v in arrays.items()}
        return [o.asnumpy() for o in sym.eval(**feed)]


def grads(sym, head, **arrays):
    """Gradients of sum(head * sym) with respect to the inputs."""
    with mx.util.np_shape(True):
        args = {k: mx.nd.array(v, dtype=v.dtype) for k, v in arrays.items()}
        grad_arrays = {k: mx.nd.zeros(v.shape, dtype=v.dtype) for k, v in arrays.items()}
        exe = sym.bind(mx.cpu(), args, args_grad=grad_arrays)
        exe.forward(is_train=True)
        exe.backward([mx.nd.array(head)])
        return {k: g.asnumpy() for k, g in grad_arrays.items()}


def numeric_grad(func, value, head, eps=1e-3):
    value = value.astype(onp.float64)
    out = onp.zeros_like(value)
    for idx in onp.ndindex(*value.shape):
        up, down = value.copy(), value.copy()
        up[idx] += eps
        down[idx] -= eps
        out[idx] = ((func(up) - func(down)) * head).sum() / (2 * eps)
    return out


@pytest.mark.parametrize('name,inputs', [
    ('atleast_1d', [onp.array(3.0, dtype=onp.float32)]), ('atleast_2d', [B]),
    ('atleast_3d', [A]), ('atleast_3d', [B])])
def test_atleast(name, inputs):
    got = ev(getattr(S, name)(x), x=inputs[0])[0]
    onp.testing.assert_array_equal(got, getattr(onp, name)(inputs[0]))


@pytest.mark.parametrize('name', ['hstack', 'vstack', 'row_stack', 'dstack', 'column_stack'])
def test_stacking_forward_and_gradient(name):
    first, second = (B, B) if name != 'vstack' else (A, B)
    if name in ('hstack', 'dstack'):
        first, second = A, A
    ref_name = 'vstack' if name == 'row_stack' else name
    sym = getattr(S, name)([x, y])
    ref = getattr(onp, ref_name)([first, second])
    onp.testing.assert_array_equal(ev(sym, x=first, y=second)[0], ref)
    head = RNG.uniform(size=ref.shape).astype(onp.float32)
    g = grads(sym, head, x=first, y=second)
    gx = numeric_grad(lambda v: getattr(onp, ref_name)([v, second]), first, head)
    onp.testing.assert_allclose(g['x'], gx, rtol=1e-3, atol=1e-3)


def test_hsplit():
    data = onp.arange(12, dtype=onp.float32).reshape(2, 6)
    for sections in (3, [1, 4]):
        parts = S.hsplit(x, sections)
        got = ev(mx.sym.Group(parts), x=data)
        for g, r in zip(got, onp.hsplit(data, sections)):
            onp.testing.assert_array_equal(g, r)
    head = onp.ones((2, 2), dtype=onp.float32)
    g = grads(S.hsplit(x, 3)[1], head, x=data)
    expected = onp.zeros_like(data)
    expected[:, 2:4] = 1
    onp.testing.assert_array_equal(g['x'], expected)


@pytest.mark.parametrize('mode', ['constant', 'edge', 'reflect', 'symmetric', 'wrap'])
def test_pad(mode):
    width = ((1, 2), (2, 1))
    ref = onp.pad(A, width, mode=mode)
    sym = S.pad(x, width, mode=mode)
    onp.testing.assert_allclose(ev(sym, x=A)[0], ref)
    head = RNG.uniform(size=ref.shape).astype(onp.float32)
    gx = numeric_grad(lambda v: onp.pad(v, width, mode=mode), A, head)
    onp.testing.assert_allclose(grads(sym, head, x=A)['x'], gx, rtol=1e-3, atol=1e-3)


def test_insert_delete_resize():
    cases = [(S.insert(x, 1, 5.0, axis=1), lambda v: onp.insert(v, 1, 5.0, axis=1)),
             (S.insert(x, [0, 2], 7.0), lambda v: onp.insert(v, [0, 2], 7.0)),
             (S.delete(x, [0, 2], axis=1), lambda v: onp.delete(v, [0, 2], axis=1)),
             (S.delete(x, slice(0, 1), axis=0), lambda v: onp.delete(v, slice(0, 1), axis=0)),
             (S.resize(x, (4, 4)), lambda v: onp.resize(v, (4, 4)))]
    for sym, ref in cases:
        expected = ref(A)
        onp.testing.assert_allclose(ev(sym, x=A)[0], expected, rtol=1e-6)
        head = RNG.uniform(size=expected.shape).astype(onp.float32)
        onp.testing.assert_allclose(grads(sym, head, x=A)['x'], numeric_grad(ref, A, head),
                                    rtol=1e-3, atol=1e-3)
    vals = onp.array([9.0, 8.0], dtype=onp.float32)
    onp.testing.assert_allclose(ev(S.insert(x, 1, y, axis=1), x=A, y=vals)[0],
                                onp.insert(A, 1, vals, axis=1))


def test_nan_to_num_and_polyval():
    data = onp.array([1.0, onp.nan, onp.inf, -onp.inf, -2.0], dtype=onp.float32)
    onp.testing.assert_array_equal(ev(S.nan_to_num(x, nan=-1.0, posinf=9.0), x=data)[0],
                                   onp.nan_to_num(data, nan=-1.0, posinf=9.0))
    head = onp.ones(5, dtype=onp.float32)
    onp.testing.assert_array_equal(grads(S.nan_to_num(x), head, x=data)['x'],
                                   [1, 0, 0, 0, 1])
    p = onp.array([2.0, -1.0, 0.5], dtype=onp.float32)
    onp.testing.assert_allclose(ev(S.polyval(x, y), x=p, y=B)[0], onp.polyval(p, B), rtol=1e-5)
    head = RNG.uniform(size=B.shape).astype(onp.float32)
    g = grads(S.polyval(x, y), head, x=p, y=B)
    onp.testing.assert_allclose(g['y'], head * onp.polyval(onp.polyder(p), B), rtol=1e-4)
    onp.testing.assert_allclose(g['x'], numeric_grad(lambda v: onp.polyval(v, B), p, head),
                                rtol=1e-3, atol=1e-3)


def test_quantiles_and_integers():
    data = RNG.uniform(size=(3, 5)).astype(onp.float32)
    onp.testing.assert_allclose(ev(S.percentile(x, [25, 75], axis=1), x=data)[0],
                                onp.percentile(data, [25, 75], axis=1), rtol=1e-5)
    onp.testing.assert_allclose(ev(S.quantile(x, 0.4, axis=0, keepdims=True,
                                              interpolation='nearest'), x=data)[0],
                                onp.quantile(data, 0.4, axis=0, keepdims=True,
                                             method='nearest'))
    assert not grads(S.quantile(x, 0.5), onp.ones(()), x=data)['x'].any()
    i, j = onp.array([3, 5, 12], dtype=onp.int32), onp.array([6, 4, 10], dtype=onp.int32)
    for name in ('bitwise_and', 'bitwise_or', 'bitwise_xor', 'lcm'):
        got = ev(getattr(S, name)(x, y), x=i, y=j)[0]
        assert got.dtype == onp.int32
        onp.testing.assert_array_equal(got, getattr(onp, name)(i, j))
    onp.testing.assert_array_equal(ev(S.bitwise_and(x, 6), x=i)[0], i & 6)
    onp.testing.assert_array_equal(ev(S.bitwise_or(6, x), x=i)[0], 6 | i)
    onp.testing.assert_array_equal(ev(S.invert(x), x=i)[0], ~i)
    onp.testing.assert_array_equal(ev(S.bitwise_not(x), x=onp.array([True, False]))[0],
                                   [False, True])


def test_linalg_host_functions():
    L = S.linalg
    a = RNG.uniform(size=(3, 5)).astype(onp.float32)
    ut, s, v = ev(mx.sym.Group(list(L.svd(x))), x=a)
    onp.testing.assert_allclose((ut * s) @ v, a, atol=1e-5)
    onp.testing.assert_allclose(s, onp.linalg.svd(a, compute_uv=False), rtol=1e-5)
    with pytest.raises(mx.base.MXNetError):
        grads(L.svd(x)[1], onp.ones(3, dtype=onp.float32), x=a)
    sym = onp.array([[2.0, 1.0], [1.0, 3.0]], dtype=onp.float32)
    w, vec = ev(mx.sym.Group(list(L.eig(x))), x=sym)
    onp.testing.assert_allclose(sym @ vec, vec * w, atol=1e-5)
    onp.testing.assert_allclose(onp.sort(ev(L.eigvals(x), x=sym)[0]), onp.linalg.eigvalsh(sym),
                                rtol=1e-5)
    onp.testing.assert_allclose(ev(L.pinv(x), x=a)[0], onp.linalg.pinv(a), rtol=1e-3,
                                atol=1e-4)
    t = (RNG.uniform(size=(4, 2, 2)) + onp.eye(4).reshape(4, 2, 2)).astype(onp.float32)
    onp.testing.assert_allclose(ev(L.tensorinv(x, ind=1), x=t)[0],
                                onp.linalg.tensorinv(t, ind=1), rtol=1e-4, atol=1e-5)
    head = RNG.uniform(size=(2, 2, 4)).astype(onp.float32)
    onp.testing.assert_allclose(grads(L.tensorinv(x, ind=1), head, x=t)['x'],
                                numeric_grad(lambda v: onp.linalg.tensorinv(v, ind=1), t, head),
                                rtol=1e-2, atol=1e-3)
    rhs = onp.arange(4, dtype=onp.float32)
    onp.testing.assert_allclose(ev(L.tensorsolve(x, y), x=t, y=rhs)[0],
                                onp.linalg.tensorsolve(t, rhs), rtol=1e-4, atol=1e-4)
    head = RNG.uniform(size=(2, 2)).astype(onp.float32)
    g = grads(L.tensorsolve(x, y), head, x=t, y=rhs)
    onp.testing.assert_allclose(g['y'], numeric_grad(lambda v: onp.linalg.tensorsolve(t, v),
                                                     rhs, head), rtol=1e-2, atol=1e-3)
    onp.testing.assert_allclose(g['x'], numeric_grad(lambda v: onp.linalg.tensorsolve(v, rhs),
                                                     t, head), rtol=1e-2, atol=1e-3)


def test_constraint_check():
    ok = ev(mx.sym.npx.constraint_check(x), x=onp.array([True, True]))[0]
    assert ok.shape == () and bool(ok)
    with pytest.raises(mx.base.MXNetError, match='must hold'):
        ev(mx.sym.npx.constraint_check(x, 'must hold'), x=onp.array([True, False]))
