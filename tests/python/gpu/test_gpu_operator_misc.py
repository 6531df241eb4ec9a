"""Small operators on the device under test against NumPy and the CPU: cumsum (axes, dtypes,
gradient), the NumPy reductions and comparisons through mx.np, SequenceMask with lengths and
its gradient, IdentityAttachKLSparseReg's moving average and penalty gradient, and
_onehot_encode's index check (an out-of-range index is a ValueError, not a write outside)."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, TOL, check_fn, inputs


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_cumsum_and_gradient(axis, dtype):
    tol = (5e-2, 5e-2) if dtype == np.float16 else None  # float16 running sums round each step
    check_fn(lambda x: mx.nd.cumsum(x, axis=axis), inputs([(3, 5, 4)], dtype), dtype, True,
             "cumsum axis=%s" % axis, tol=tol)


def test_cumsum_integer_output_dtype():
    x = np.arange(24, dtype=np.int32).reshape(4, 6)
    out = mx.nd.cumsum(mx.nd.array(x, ctx=DEV, dtype=np.int32), axis=1, dtype="int64")
    assert out.dtype == np.int64
    np.testing.assert_array_equal(out.asnumpy(), np.cumsum(x, axis=1))


@pytest.mark.parametrize("fn", ["sum", "mean", "prod", "max", "min"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
def test_numpy_reductions_and_gradients(fn, axis):
    x_np = inputs([(2, 3, 4)], np.float64)[0]
    x = mx.np.array(x_np, ctx=DEV, dtype=np.float64)
    x.attach_grad()
    with mx.autograd.record():
        y = getattr(mx.np, fn)(x, axis=axis)
    y.backward()
    ref = getattr(np, fn)(x_np, axis=axis)
    np.testing.assert_allclose(y.asnumpy(), ref, rtol=1e-12)
    assert y.shape == np.shape(ref)
    if fn == "sum":
        np.testing.assert_allclose(x.grad.asnumpy(), np.ones_like(x_np))
    elif fn == "mean":
        n = x_np.size // np.size(ref)
        np.testing.assert_allclose(x.grad.asnumpy(), np.full_like(x_np, 1.0 / n))
    elif fn == "prod":
        keep = getattr(np, fn)(x_np, axis=axis, keepdims=True)
        np.testing.assert_allclose(x.grad.asnumpy(), keep / x_np, rtol=1e-10)
    else:
        keep = getattr(np, fn)(x_np, axis=axis, keepdims=True)
        np.testing.assert_array_equal(x.grad.asnumpy(), (x_np == keep).astype(np.float64))


@pytest.mark.parametrize("op", ["equal", "not_equal", "greater", "greater_equal", "less",
                                "less_equal"])
def test_numpy_comparisons_broadcast_and_scalar(op):
    rng = np.random.RandomState(3)
    a = rng.randint(0, 3, (4, 1, 5)).astype(np.float32)
    b = rng.randint(0, 3, (3, 1)).astype(np.float32)
    fn = getattr(mx.np, op)
    out = fn(mx.np.array(a, ctx=DEV), mx.np.array(b, ctx=DEV))
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out.asnumpy(), getattr(np, op)(a, b))
    np.testing.assert_array_equal(fn(mx.np.array(a, ctx=DEV), 1.0).asnumpy(),
                                  getattr(np, op)(a, 1.0))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", DTYPES)
def test_sequence_mask_with_lengths_and_gradient(axis, dtype):
    shape = (5, 3, 2) if axis == 0 else (3, 5, 2)
    lengths = np.array([2, 5, 0], dtype=np.float32)

    def fn(x):
        return mx.nd.SequenceMask(x, mx.nd.array(lengths, ctx=x.context), use_sequence_length=True,
                                  value=-7, axis=axis)
    check_fn(fn, inputs([shape], dtype), dtype, True, "SequenceMask axis=%d" % axis)
    x = inputs([shape], np.float64)[0]
    out = fn(mx.nd.array(x, ctx=DEV, dtype=np.float64)).asnumpy()
    steps = np.arange(5).reshape((5, 1) if axis == 0 else (1, 5))
    masked = steps >= lengths.reshape((1, 3) if axis == 0 else (3, 1))
    np.testing.assert_array_equal(out, np.where(masked[..., None], -7.0, x))


def test_kl_sparse_reg_moving_average_and_gradient():
    rng = np.random.RandomState(5)
    data = rng.uniform(0.05, 0.95, (6, 4)).astype(np.float32)
    head = rng.uniform(-1, 1, (6, 4)).astype(np.float32)
    rho, penalty, momentum = 0.2, 0.01, 0.8
    x = mx.sym.Variable("data")
    sym = mx.sym.IdentityAttachKLSparseReg(x, sparseness_target=rho, penalty=penalty,
                                           momentum=momentum, name="kl")
    exe = sym.simple_bind(ctx=DEV, data=data.shape)
    exe.arg_dict["data"][:] = data
    avg0 = np.full((4,), 0.5, dtype=np.float32)
    exe.aux_dict["kl_moving_avg"][:] = avg0
    out = exe.forward(is_train=True)[0].asnumpy()
    exe.backward(mx.nd.array(head, ctx=DEV))
    np.testing.assert_array_equal(out, data)
    avg = momentum * avg0 + (1 - momentum) * data.mean(axis=0)
    np.testing.assert_allclose(exe.aux_dict["kl_moving_avg"].asnumpy(), avg, rtol=1e-5)
    grad = head + penalty * (-rho / avg + (1 - rho) / (1 - avg))
    np.testing.assert_allclose(exe.grad_dict["data"].asnumpy(), grad, rtol=1e-5, atol=1e-6)


def test_onehot_encode_checks_indices_on_the_device():
    idx = mx.nd.array([2, 0, 3], ctx=DEV)
    out = mx.nd.zeros((3, 4), ctx=DEV)
    mx.nd._internal._onehot_encode(idx, out, out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.eye(4)[[2, 0, 3]])
    bad = mx.nd.array([1, 4, 0], ctx=DEV)
    with pytest.raises(mx.MXNetError, match=r"lhs\[1\] = 4"):
        mx.nd._internal._onehot_encode(bad, out, out=out).asnumpy()


def test_smooth_l1_and_gradient():
    for dtype in DTYPES:
        check_fn(lambda x: mx.nd.smooth_l1(x, scalar=1.5), inputs([(4, 7)], dtype), dtype, True,
                 "smooth_l1")


def _bn_inputs(dtype, channels=3):
    rng = np.random.RandomState(11)
    data = rng.uniform(-2, 2, (4, channels, 5, 3)).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, channels).astype(dtype)
    beta = rng.uniform(-0.5, 0.5, channels).astype(dtype)
    return [data, gamma, beta]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", ["BatchNormWithReLU", "SyncBatchNorm"])
def test_batch_norm_variants_and_gradients(op, dtype):
    """Training-mode forward and gradients (data, gamma, beta) against the CPU in float64,
    and the moving statistics updated by the backward pass."""
    fn = getattr(mx.nd.contrib, op)

    def run(ctx, arrays):
        nds = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in arrays]
        mm = mx.nd.zeros((3,), ctx=ctx, dtype=arrays[0].dtype)
        mv = mx.nd.ones((3,), ctx=ctx, dtype=arrays[0].dtype)
        for x in nds:
            x.attach_grad()
        with mx.autograd.record():
            kwargs = {"key": "gpu_test_sync_bn"} if op == "SyncBatchNorm" else {}
            out = fn(nds[0], nds[1], nds[2], mm, mv, fix_gamma=False, **kwargs)
        head = mx.nd.array(np.linspace(-1, 1, out.size).reshape(out.shape), ctx=ctx,
                           dtype=out.dtype)
        out.backward(head)
        return [out.asnumpy()] + [x.grad.asnumpy() for x in nds] + [mm.asnumpy(), mv.asnumpy()]

    arrays = _bn_inputs(dtype)
    ref = run(mx.cpu(), [a.astype(np.float64) for a in arrays])
    got = run(DEV, arrays)
    rtol, atol = TOL[dtype]
    for i, (g, r) in enumerate(zip(got, ref)):
        np.testing.assert_allclose(g, r, rtol=max(rtol, 1e-5), atol=max(atol, 1e-5),
                                   err_msg="%s result %d" % (op, i))
    if op == "BatchNormWithReLU":
        assert (got[0] >= 0).all() and (got[0] == 0).any()


@pytest.mark.parametrize("grad_req", ["write", "add"])
def test_index_copy_repeated_indices_and_gradients(grad_req):
    """The last of repeated indices wins (as the CPU's sequential copy); old_tensor's gradient
    is out_grad on kept rows only, new_tensor's is out_grad of its target row."""
    rng = np.random.RandomState(2)
    old = rng.uniform(-1, 1, (6, 3))
    new = rng.uniform(-1, 1, (4, 3))
    index = np.array([4, 1, 4, 0], dtype=np.int64)
    head = rng.uniform(-1, 1, (6, 3))
    x_old = mx.nd.array(old, ctx=DEV, dtype=np.float64)
    x_new = mx.nd.array(new, ctx=DEV, dtype=np.float64)
    x_old.attach_grad(grad_req=grad_req)
    x_new.attach_grad(grad_req=grad_req)
    if grad_req == "add":
        x_old.grad[:] = 1
        x_new.grad[:] = 1
    with mx.autograd.record():
        out = mx.nd.contrib.index_copy(x_old, mx.nd.array(index, ctx=DEV, dtype=np.int64), x_new)
    out.backward(mx.nd.array(head, ctx=DEV, dtype=np.float64))
    ref = old.copy()
    for i, r in enumerate(index):
        ref[r] = new[i]
    np.testing.assert_array_equal(out.asnumpy(), ref)
    base = 1.0 if grad_req == "add" else 0.0
    expect_old = np.where(np.isin(np.arange(6), index)[:, None], base, head + base)
    np.testing.assert_array_equal(x_old.grad.asnumpy(), expect_old)
    np.testing.assert_array_equal(x_new.grad.asnumpy(), head[index] + base)
    with pytest.raises(mx.MXNetError, match=r"index_vector\[1\]=6"):
        mx.nd.contrib.index_copy(x_old, mx.nd.array([0, 6, 1, 2], ctx=DEV), x_new).asnumpy()


def test_shuffle_matches_the_cpu_permutation_for_a_seed():
    """kRandom is a host generator seeded per device id on every device: gpu(0) after
    mx.random.seed(s) draws cpu(0)'s permutation; in place as well."""
    x = np.arange(40, dtype=np.float32).reshape(10, 4)
    mx.random.seed(123)
    ref = mx.nd.shuffle(mx.nd.array(x, ctx=mx.cpu())).asnumpy()
    mx.random.seed(123)
    got = mx.nd.shuffle(mx.nd.array(x, ctx=DEV)).asnumpy()
    np.testing.assert_array_equal(got, ref)
    assert sorted(map(tuple, got)) == sorted(map(tuple, x)) and not (got == x).all()
    y = mx.nd.array(x, ctx=DEV)
    mx.random.seed(123)
    mx.nd.shuffle(y, out=y)
    np.testing.assert_array_equal(y.asnumpy(), ref)


def test_sample_multinomial_statistics_gradient_and_errors():
    probs = np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.0, 0.0, 0.3]], dtype=np.float64)
    p = mx.nd.array(probs, ctx=DEV, dtype=np.float64)
    p.attach_grad()
    with mx.autograd.record():
        s, logp = mx.nd.sample_multinomial(p, shape=(20000,), get_prob=True)
    head = np.random.RandomState(0).uniform(-1, 1, logp.shape)
    logp.backward(mx.nd.array(head, ctx=DEV, dtype=np.float64))
    s_np = s.asnumpy().astype(np.int64)
    for r in range(2):
        freq = np.bincount(s_np[r], minlength=4) / 20000.0
        np.testing.assert_allclose(freq, probs[r], atol=0.015)
    assert (s_np[1] != 1).all() and (s_np[1] != 2).all()
    np.testing.assert_allclose(logp.asnumpy(), np.log(probs[np.arange(2)[:, None], s_np]))
    expect = np.zeros_like(probs)
    for r in range(2):
        for t in range(20000):
            expect[r, s_np[r, t]] += head[r, t] / probs[r, s_np[r, t]]
    np.testing.assert_allclose(p.grad.asnumpy(), expect, rtol=1e-9, atol=1e-9)
    bad = mx.nd.array([[0.5, -0.1, 0.6]], ctx=DEV)
    with pytest.raises(mx.MXNetError, match="non-negative probabilities"):
        mx.nd.sample_multinomial(bad).asnumpy()


def test_data_dependent_shapes_on_the_device():
    """Operators whose output shape depends on the values: the shape is read from host copies
    of device inputs, the work runs on host copies (host_fallback.h); results against NumPy."""
    x_np = np.array([[3, 1, 0], [1, 0, 2]], dtype=np.float32)
    x = mx.np.array(x_np, ctx=DEV)
    u, idx, inv, cnt = mx.np.unique(x, return_index=True, return_inverse=True,
                                    return_counts=True)
    ru, ridx, rinv, rcnt = np.unique(x_np, return_index=True, return_inverse=True,
                                     return_counts=True)
    for got, ref in [(u, ru), (idx, ridx), (inv, rinv.reshape(-1)), (cnt, rcnt)]:
        np.testing.assert_array_equal(got.asnumpy().reshape(ref.shape), ref)
    np.testing.assert_array_equal(mx.npx.nonzero(x).asnumpy(), np.transpose(np.nonzero(x_np)))
    b = mx.np.array([0, 1, 1, 3, 1], dtype=np.int64, ctx=DEV)
    np.testing.assert_array_equal(mx.np.bincount(b, minlength=6).asnumpy(),
                                  np.bincount([0, 1, 1, 3, 1], minlength=6))
    data = mx.nd.array(np.arange(12).reshape(4, 3), ctx=DEV)
    data.attach_grad()
    mask = mx.nd.array([1, 0, 1, 1], ctx=DEV)
    with mx.autograd.record():
        out = mx.nd.contrib.boolean_mask(data, mask)
    out.backward(mx.nd.ones_like(out) * 2)
    np.testing.assert_array_equal(out.asnumpy(), np.arange(12).reshape(4, 3)[[0, 2, 3]])
    np.testing.assert_array_equal(data.grad.asnumpy(),
                                  np.array([2, 0, 2, 2])[:, None] * np.ones((4, 3)))
    h, edges = mx.nd._internal._histogram(mx.nd.array([0, 1, 2, 2, 3, 4], ctx=DEV), bin_cnt=5,
                                          range=(0, 5))
    np.testing.assert_array_equal(h.asnumpy(), [1, 1, 2, 1, 1])
    np.testing.assert_allclose(edges.asnumpy(), [0, 1, 2, 3, 4, 5])
    a = mx.np.ones((4,), ctx=DEV)
    assert bool(mx.np.shares_memory(a, a[1:3])) and not bool(mx.np.shares_memory(a, a.copy()))


def test_calibrate_entropy_on_the_device_matches_the_cpu():
    rng = np.random.RandomState(4)
    hist = rng.randint(0, 50, 511).astype(np.float32)
    edges = np.linspace(-3, 3, 512).astype(np.float32)
    ref = [o.asnumpy() for o in mx.nd.contrib.calibrate_entropy(
        mx.nd.array(hist), mx.nd.array(edges), num_quantized_bins=255)]
    got = [o.asnumpy() for o in mx.nd.contrib.calibrate_entropy(
        mx.nd.array(hist, ctx=DEV), mx.nd.array(edges, ctx=DEV), num_quantized_bins=255)]
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(g, r)
    assert 0 < float(ref[0][0]) <= 3
