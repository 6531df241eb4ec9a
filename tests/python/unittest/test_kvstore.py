"""mx.kv 'local' / 'device' against NumPy: init, push (sums), pull (broadcast to lists),
pushpull, broadcast, updaters (int and str keys), optimizer states, errors."""
import pickle

import numpy as np
import pytest

import mxnet as mx

SHAPE = (4, 4)
KEYS = [5, 7, 11]
STR_KEYS = ["b", "c", "d"]


def _rand(seed, shape=SHAPE):
    return np.random.RandomState(seed).uniform(-1, 1, size=shape).astype(np.float32)


@pytest.fixture(params=["local", "device"])
def kv(request):
    return mx.kv.create(request.param)


def test_create_and_properties(kv):
    assert kv.type in ("local", "device")
    assert kv.rank == 0 and kv.num_workers == 1
    assert mx.kv.create("LOCAL").type == "local"


def test_create_errors():
    with pytest.raises(TypeError):
        mx.kv.create(3)
    with pytest.raises(ValueError, match="Unknown KVStore type"):
        mx.kv.create("bogus")
    with pytest.raises(ValueError, match="distributed types"):
        mx.kv.create("dist_bogus")


@pytest.mark.parametrize("keys", [KEYS, STR_KEYS])
def test_init_pull(kv, keys):
    vals = [_rand(i) for i in range(3)]
    kv.init(keys, [mx.nd.array(v) for v in vals])
    for k, v in zip(keys, vals):
        out = mx.nd.zeros(SHAPE)
        kv.pull(k, out=out)
        np.testing.assert_array_equal(out.asnumpy(), v)
    # One key, several outputs.
    outs = [mx.nd.zeros(SHAPE) for _ in range(3)]
    kv.pull(keys[0], out=outs)
    for o in outs:
        np.testing.assert_array_equal(o.asnumpy(), vals[0])


def test_init_copies_value(kv):
    a = mx.nd.ones(SHAPE)
    kv.init(3, a)
    a[:] = 5
    out = mx.nd.zeros(SHAPE)
    kv.pull(3, out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.ones(SHAPE))


@pytest.mark.parametrize("keys", [KEYS, STR_KEYS])
def test_push_sums_lists(kv, keys):
    kv.init(keys, [mx.nd.zeros(SHAPE)] * 3)
    grads = [[_rand(10 * i + j) for j in range(4)] for i in range(3)]
    kv.push(keys, [[mx.nd.array(g) for g in gs] for gs in grads])
    for k, gs in zip(keys, grads):
        out = mx.nd.zeros(SHAPE)
        kv.pull(k, out=out)
        np.testing.assert_allclose(out.asnumpy(), np.sum(gs, axis=0), rtol=1e-6, atol=1e-6)
    # A single pushed value replaces the stored one (no updater).
    kv.push(keys[0], mx.nd.ones(SHAPE) * 3)
    out = mx.nd.zeros(SHAPE)
    kv.pull(keys[0], out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full(SHAPE, 3, np.float32))


def test_push_same_key_repeated_in_one_call(kv):
    kv.init(9, mx.nd.zeros(SHAPE))
    a, b = _rand(1), _rand(2)
    kv.push([9, 9], [mx.nd.array(a), mx.nd.array(b)])
    out = mx.nd.zeros(SHAPE)
    kv.pull(9, out=out)
    np.testing.assert_allclose(out.asnumpy(), a + b, rtol=1e-6)


def test_updater_int_and_str_keys(kv):
    seen = []

    def updater(key, recv, local):
        seen.append(key)
        local += recv * 2   # weight += 2 * grad

    kv._set_updater(updater)
    kv.init(3, mx.nd.ones(SHAPE))
    kv.init("w", mx.nd.ones(SHAPE))
    g1, g2 = _rand(1), _rand(2)
    for _ in range(3):
        kv.push(3, [mx.nd.array(g1), mx.nd.array(g2)])
        kv.push("w", mx.nd.array(g1))
    out = mx.nd.zeros(SHAPE)
    kv.pull(3, out=out)
    np.testing.assert_allclose(out.asnumpy(), 1 + 3 * 2 * (g1 + g2), rtol=1e-5, atol=1e-5)
    kv.pull("w", out=out)
    np.testing.assert_allclose(out.asnumpy(), 1 + 3 * 2 * g1, rtol=1e-5, atol=1e-5)
    assert seen == [3, "w"] * 3


def test_pushpull_and_broadcast(kv):
    kv.init(1, mx.nd.zeros(SHAPE))
    a, b = _rand(3), _rand(4)
    outs = [mx.nd.zeros(SHAPE), mx.nd.zeros(SHAPE)]
    kv.pushpull(1, [mx.nd.array(a), mx.nd.array(b)], out=outs)
    for o in outs:
        np.testing.assert_allclose(o.asnumpy(), a + b, rtol=1e-6)
    # out=None: the values receive the result.
    vals = [mx.nd.array(a), mx.nd.array(b)]
    kv.pushpull(1, vals)
    for v in vals:
        np.testing.assert_allclose(v.asnumpy(), a + b, rtol=1e-6)
    outs = [mx.nd.zeros(SHAPE) for _ in range(2)]
    kv.broadcast("bc", mx.nd.array(a), out=outs)
    for o in outs:
        np.testing.assert_array_equal(o.asnumpy(), a)
    kv.pull("bc", out=outs[0])
    np.testing.assert_array_equal(outs[0].asnumpy(), a)


def test_dtypes(kv):
    kv.init("f64", mx.nd.array(np.arange(4), dtype="float64"))
    kv.push("f64", [mx.nd.array(np.ones(4), dtype="float64")] * 3)
    out = mx.nd.zeros((4,), dtype="float64")
    kv.pull("f64", out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full(4, 3.0))
    kv.init(2, mx.nd.array(np.arange(4), dtype="int32"))
    kv.push(2, [mx.nd.array([1, 2, 3, 4], dtype="int32"), mx.nd.array([1, 1, 1, 1], dtype="int32")])
    out = mx.nd.zeros((4,), dtype="int32")
    kv.pull(2, out=out)
    assert out.asnumpy().tolist() == [2, 3, 4, 5]


def test_errors(kv):
    kv.init(1, mx.nd.zeros(SHAPE))
    with pytest.raises(ValueError, match="duplicate init"):
        kv.init(1, mx.nd.zeros(SHAPE))
    with pytest.raises(ValueError, match="not been initialized"):
        kv.push(2, mx.nd.zeros(SHAPE))
    with pytest.raises(ValueError, match="not been initialized"):
        kv.pull("nope", out=mx.nd.zeros(SHAPE))
    with pytest.raises(ValueError, match=r"shape \[2,2\]"):
        kv.push(1, mx.nd.zeros((2, 2)))
    with pytest.raises(ValueError, match="output has shape"):
        kv.pull(1, out=mx.nd.zeros((3,)))
    with pytest.raises(TypeError, match="inconsistent"):
        kv.init([10, "x"], [mx.nd.zeros(SHAPE)] * 2)
    with pytest.raises(ValueError):
        kv.pull(1)
    with pytest.raises(ValueError, match="set_optimizer"):
        kv.save_optimizer_states("/tmp/never")


class _SGDState(object):
    """A minimal updater with get_states/set_states (the interface Module's updater has)."""

    def __init__(self, lr):
        self.lr = lr
        self.states = {}

    def __call__(self, key, grad, weight):
        mom = self.states.setdefault(key, np.zeros(weight.shape, np.float32))
        mom[:] = 0.9 * mom - self.lr * grad.asnumpy()
        self.states[key] = mom
        weight[:] = weight.asnumpy() + mom

    def get_states(self, dump_optimizer=False):
        return pickle.dumps(self.states)

    def set_states(self, states):
        self.states = pickle.loads(states)


def test_optimizer_states_roundtrip(kv, tmp_path):
    upd = _SGDState(0.1)
    kv._set_updater(upd)
    w0 = _rand(0)
    kv.init(0, mx.nd.array(w0))
    grads = [_rand(i + 1) for i in range(3)]
    w, mom = w0.copy(), np.zeros(SHAPE, np.float32)
    for g in grads:
        kv.push(0, mx.nd.array(g))
        mom = 0.9 * mom - 0.1 * g
        w = w + mom
    out = mx.nd.zeros(SHAPE)
    kv.pull(0, out=out)
    np.testing.assert_allclose(out.asnumpy(), w, rtol=1e-5, atol=1e-6)
    fname = str(tmp_path / "states")
    kv.save_optimizer_states(fname)
    upd.states = {}
    kv.load_optimizer_states(fname)
    np.testing.assert_allclose(upd.states[0], mom, rtol=1e-6)


def test_set_optimizer_uses_get_updater(kv):
    opt = pytest.importorskip("mxnet.optimizer")
    sgd = opt.create("sgd", learning_rate=0.5, rescale_grad=1.0)
    kv.set_optimizer(sgd)
    w0, g = _rand(5), _rand(6)
    kv.init(4, mx.nd.array(w0))
    kv.push(4, mx.nd.array(g))
    out = mx.nd.zeros(SHAPE)
    kv.pull(4, out=out)
    np.testing.assert_allclose(out.asnumpy(), w0 - 0.5 * g, rtol=1e-5, atol=1e-6)


def test_set_optimizer_momentum_states_save_load(tmp_path):
    """SGD with momentum through set_optimizer; the states saved by one store continue the
    trajectory in another (NumPy re-implementation of the momentum rule as the oracle)."""
    opt = pytest.importorskip("mxnet.optimizer")
    lr, momentum = 0.1, 0.9
    w0 = _rand(7)
    grads = [_rand(20 + i) for i in range(4)]
    w, mom = w0.copy(), np.zeros(SHAPE, np.float32)
    expected = []
    for g in grads:
        mom = momentum * mom - lr * g
        w = w + mom
        expected.append(w.copy())

    kv1 = mx.kv.create("local")
    kv1.set_optimizer(opt.create("sgd", learning_rate=lr, momentum=momentum, rescale_grad=1.0))
    kv1.init("w", mx.nd.array(w0))
    out = mx.nd.zeros(SHAPE)
    for g, e in zip(grads[:2], expected[:2]):
        kv1.push("w", mx.nd.array(g))
        kv1.pull("w", out=out)
        np.testing.assert_allclose(out.asnumpy(), e, rtol=1e-5, atol=1e-6)
    fname = str(tmp_path / "kv.states")
    kv1.save_optimizer_states(fname)

    kv2 = mx.kv.create("local")
    kv2.set_optimizer(opt.create("sgd", learning_rate=lr, momentum=momentum, rescale_grad=1.0))
    kv2.init("w", out)
    kv2.load_optimizer_states(fname)
    for g, e in zip(grads[2:], expected[2:]):
        kv2.push("w", mx.nd.array(g))
        kv2.pull("w", out=out)
        np.testing.assert_allclose(out.asnumpy(), e, rtol=1e-5, atol=1e-6)


def _device_store_run(ctxs, dtype=np.float32, optimizer=None):
    kv = mx.kv.create("device")
    shape = (5, 7)
    kv.init("w", mx.nd.ones(shape, ctx=ctxs[0], dtype=dtype))
    if optimizer is not None:
        kv.set_optimizer(optimizer)
    grads = [mx.nd.full(shape, i + 1, ctx=c, dtype=dtype) for i, c in enumerate(ctxs)]
    kv.push("w", grads)
    outs = [mx.nd.zeros(shape, ctx=c, dtype=dtype) for c in ctxs]
    kv.pull("w", out=outs)
    return [o.asnumpy() for o in outs]


@pytest.mark.parametrize("ctxs", [[mx.cpu(1)], [mx.cpu(1), mx.cpu(2), mx.cpu(3)],
                                  [mx.cpu(2), mx.cpu(0), mx.cpu(1)]])
def test_device_store_reduces_on_the_first_values_device(ctxs):
    # 'device' keeps the key on ctxs[0] and sums there (the other values copied over).
    total = sum(range(1, len(ctxs) + 1))
    for out in _device_store_run(ctxs):
        np.testing.assert_array_equal(out, np.full((5, 7), total, np.float32))


def test_device_store_updates_on_the_device_like_local():
    ctxs = [mx.cpu(1), mx.cpu(2)]
    dev = _device_store_run(ctxs, optimizer=mx.optimizer.SGD(learning_rate=0.1, wd=0.01))
    kv = mx.kv.create("local")
    kv.init("w", mx.nd.ones((5, 7)))
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, wd=0.01))
    kv.push("w", [mx.nd.full((5, 7), 1), mx.nd.full((5, 7), 2)])
    ref = mx.nd.zeros((5, 7))
    kv.pull("w", out=ref)
    for out in dev:
        np.testing.assert_allclose(out, ref.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(ref.asnumpy(), 1 - 0.1 * (3 + 0.01), rtol=1e-6)


def test_device_store_mixed_dtypes_and_sparse_take_the_host_path():
    kv = mx.kv.create("device")
    kv.init(0, mx.nd.zeros((4,), ctx=mx.cpu(1)))
    kv.push(0, [mx.nd.ones((4,), ctx=mx.cpu(1)), mx.nd.ones((4,), ctx=mx.cpu(2), dtype="float64")])
    out = mx.nd.zeros((4,))
    kv.pull(0, out=out)
    np.testing.assert_array_equal(out.asnumpy(), np.full(4, 2, np.float32))
    kv.init(1, mx.nd.zeros((6, 2), ctx=mx.cpu(1)).tostype("row_sparse"))
    g = mx.nd.array([[0, 0], [1, 2], [0, 0], [0, 0], [0, 0], [3, 4]], ctx=mx.cpu(1))
    kv.push(1, [g.tostype("row_sparse"), g.tostype("row_sparse")])
    rs = mx.nd.zeros((6, 2)).tostype("row_sparse")
    kv.row_sparse_pull(1, out=rs, row_ids=mx.nd.array([1, 5]))
    np.testing.assert_array_equal(rs.asnumpy(), 2 * g.asnumpy())


def test_device_store_runs_the_updater_on_the_keys_device():
    seen = []

    def updater(key, grad, weight):
        seen.append((grad.context, weight.context))
        weight[:] += grad

    kv = mx.kv.create("device")
    kv.init(7, mx.nd.zeros((3,), ctx=mx.cpu(2)))
    kv._set_updater(updater)
    kv.push(7, [mx.nd.ones((3,), ctx=mx.cpu(1)), mx.nd.ones((3,), ctx=mx.cpu(2))])
    out = mx.nd.zeros((3,))
    kv.pull(7, out=out)
    np.testing.assert_array_equal(out.asnumpy(), [2, 2, 2])
    assert seen == [(mx.cpu(2), mx.cpu(2))]
    local = mx.kv.create("local")
    local.init(7, mx.nd.zeros((3,), ctx=mx.cpu(2)))
    local._set_updater(updater)
    local.push(7, [mx.nd.ones((3,), ctx=mx.cpu(1))])
    assert seen[-1][1] == mx.cpu(0)  # 'local' keeps keys on cpu(0)
