"""mx.kv with row_sparse values against NumPy: init / push (sum restricted to the pushed rows) /
pull (dense and row_sparse outputs, ignore_sparse), the optimizer applied lazily to a row_sparse
gradient, row_sparse_pull row selection, gluon.Trainer with Embedding(sparse_grad=True), errors,
and one scenario compared with the real MXNet 1.9.1."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.base import MXNetError

import mx191_oracle

SHAPE = (6, 3)


def _rsp(rows, seed):
    """A RowSparseNDArray storing `rows` with random values, and its dense NumPy twin."""
    values = np.random.RandomState(seed).uniform(-1, 1, (len(rows),) + SHAPE[1:]).astype(np.float32)
    dense = np.zeros(SHAPE, np.float32)
    dense[rows] = values
    return mx.nd.sparse.row_sparse_array((values, rows), shape=SHAPE), dense


def _rows(arr):
    return arr.indices.asnumpy().tolist()


@pytest.fixture(params=["local", "device"])
def kv(request):
    return mx.kv.create(request.param)


def test_push_sums_rows_and_pull_dense(kv):
    kv.init(3, mx.nd.zeros(SHAPE))
    g0, d0 = _rsp([0, 2], 1)
    g1, d1 = _rsp([2, 5], 2)
    kv.push(3, [g0, g1])
    out = mx.nd.zeros(SHAPE)
    kv.pull(3, out=out)
    np.testing.assert_allclose(out.asnumpy(), d0 + d1, rtol=1e-6)
    # The stored sum keeps only the pushed rows (pulled with ignore_sparse=False).
    rsp_out = mx.nd.sparse.zeros("row_sparse", SHAPE)
    kv.pull(3, out=rsp_out, ignore_sparse=False)
    assert _rows(rsp_out) == [0, 2, 5]
    np.testing.assert_allclose(rsp_out.asnumpy(), d0 + d1, rtol=1e-6)


def test_pull_into_sparse_output_is_ignored_by_default(kv):
    g0, d0 = _rsp([1], 3)
    kv.init("w", g0)
    out = mx.nd.sparse.zeros("row_sparse", SHAPE)
    kv.pull("w", out=out)                        # ignore_sparse=True: left untouched
    assert _rows(out) == []
    kv.pull("w", out=[out], ignore_sparse=False)
    np.testing.assert_allclose(out.asnumpy(), d0)


def test_mixed_dense_and_row_sparse_push(kv):
    kv.init(1, mx.nd.zeros(SHAPE))
    g0, d0 = _rsp([4], 4)
    kv.push(1, [g0, mx.nd.ones(SHAPE)])
    out = mx.nd.zeros(SHAPE)
    kv.pull(1, out=out)
    np.testing.assert_allclose(out.asnumpy(), d0 + 1, rtol=1e-6)


def test_lazy_sgd_updater_touches_only_pushed_rows(kv):
    lr, wd = 0.1, 0.05
    kv.set_optimizer(mx.optimizer.SGD(learning_rate=lr, wd=wd))
    w0 = np.random.RandomState(5).uniform(-1, 1, SHAPE).astype(np.float32)
    kv.init(7, mx.nd.array(w0))
    g0, d0 = _rsp([0, 3], 6)
    g1, d1 = _rsp([3, 4], 7)
    kv.push(7, [g0, g1])
    out = mx.nd.zeros(SHAPE)
    kv.pull(7, out=out)
    expected = w0.copy()
    for r in (0, 3, 4):                          # lazy update: only rows some gradient stores
        expected[r] = w0[r] - lr * ((d0 + d1)[r] + wd * w0[r])
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_row_sparse_pull_selects_requested_rows(kv):
    g0, d0 = _rsp([0, 2, 4], 8)
    kv.init(9, g0)
    out = mx.nd.sparse.zeros("row_sparse", SHAPE)
    # Unsorted, duplicated ids; row 1 is not stored: it comes back as zeros.
    kv.row_sparse_pull(9, out=out, row_ids=mx.nd.array([4, 1, 2, 2], dtype="int64"))
    assert _rows(out) == [1, 2, 4]
    np.testing.assert_allclose(out.data.asnumpy(), d0[[1, 2, 4]])
    # One row_ids per output, and one row_ids shared by several outputs.
    outs = [mx.nd.sparse.zeros("row_sparse", SHAPE) for _ in range(2)]
    kv.row_sparse_pull(9, out=outs, row_ids=[mx.nd.array([0]), mx.nd.array([5, 0])])
    assert _rows(outs[0]) == [0] and _rows(outs[1]) == [0, 5]
    np.testing.assert_allclose(outs[1].asnumpy(), np.where(np.isin(np.arange(6), [0])[:, None],
                                                            d0, 0))
    kv.row_sparse_pull(9, out=outs, row_ids=mx.nd.array([2]))
    for o in outs:
        assert _rows(o) == [2]
        np.testing.assert_allclose(o.data.asnumpy(), d0[[2]])


def test_row_sparse_pull_after_push_with_str_keys(kv):
    kv.init("emb", mx.nd.sparse.zeros("row_sparse", SHAPE))
    g0, d0 = _rsp([1, 3], 9)
    g1, d1 = _rsp([3], 10)
    kv.push("emb", [g0, g1])
    out = mx.nd.sparse.zeros("row_sparse", SHAPE)
    kv.row_sparse_pull("emb", out=out, row_ids=mx.nd.array([3, 0]))
    assert _rows(out) == [0, 3]
    np.testing.assert_allclose(out.data.asnumpy(), (d0 + d1)[[0, 3]], rtol=1e-6)


def test_row_sparse_pull_errors(kv):
    kv.init(1, mx.nd.ones(SHAPE))
    rsp_out = mx.nd.sparse.zeros("row_sparse", SHAPE)
    with pytest.raises(MXNetError, match="row_sparse_pull: key 1 holds a default value"):
        kv.row_sparse_pull(1, out=rsp_out, row_ids=mx.nd.array([0]))
    kv.init(2, mx.nd.sparse.zeros("row_sparse", SHAPE))
    with pytest.raises(MXNetError, match="output for key 2 has default storage; expected a "
                                         "RowSparseNDArray"):
        kv.row_sparse_pull(2, out=mx.nd.zeros(SHAPE), row_ids=mx.nd.array([0]))
    with pytest.raises(MXNetError, match="has 6 rows but row_ids contains 6"):
        kv.row_sparse_pull(2, out=rsp_out, row_ids=mx.nd.array([6]))
    with pytest.raises(ValueError, match="needs `row_ids`"):
        kv.row_sparse_pull(2, out=rsp_out)
    with pytest.raises(ValueError, match="number of row_ids"):
        kv.row_sparse_pull(2, out=[rsp_out, rsp_out], row_ids=[mx.nd.array([0])] * 3)
    with pytest.raises(MXNetError, match="got a csr value"):
        kv.push(1, mx.nd.sparse.zeros("csr", SHAPE))


BATCHES = (([1, 3], [3, 3]), ([0, 1], [1, 5]))   # (context 0 ids, context 1 ids) per step
LR = 0.1


def _train_embedding(sparse_grad, update_on_kvstore, wd):
    ctxs = [mx.cpu(0), mx.cpu(1)]
    net = gluon.nn.Embedding(SHAPE[0], SHAPE[1], sparse_grad=sparse_grad)
    net.initialize(mx.init.Constant(0.5), ctx=ctxs)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": LR, "wd": wd},
                            update_on_kvstore=update_on_kvstore)
    for ids in BATCHES:
        with autograd.record():
            losses = [(net(mx.nd.array(b, ctx=c)) * mx.nd.arange(1, 4, ctx=c)).sum()
                      for b, c in zip(ids, ctxs)]
        for loss in losses:
            loss.backward()
        trainer.step(4)
    return trainer, [net.weight.data(c).asnumpy() for c in ctxs]


def _numpy_lazy_sgd(wd):
    """The loss sums emb[id] * [1, 2, 3]: each occurrence of an id adds [1, 2, 3] to its row."""
    w = np.full(SHAPE, 0.5, np.float32)
    for ids in BATCHES:
        grad = np.zeros(SHAPE, np.float32)
        for i in ids[0] + ids[1]:
            grad[i] += np.arange(1, 4)
        for r in sorted(set(ids[0] + ids[1])):       # lazy: rows of this step only
            w[r] = w[r] - LR * (grad[r] / 4 + wd * w[r])
    return w


@pytest.mark.parametrize("update_on_kvstore", [None, False, True])
def test_trainer_sparse_embedding(update_on_kvstore):
    trainer, sparse = _train_embedding(True, update_on_kvstore, wd=0.05)
    assert trainer._kvstore is not None
    assert trainer._update_on_kvstore is bool(update_on_kvstore)  # 1.9.1: False by default
    np.testing.assert_allclose(sparse[0], sparse[1])
    np.testing.assert_allclose(sparse[0], _numpy_lazy_sgd(0.05), rtol=1e-6)
    np.testing.assert_allclose(sparse[0][[2, 4]], 0.5)   # never touched: unchanged


def test_trainer_sparse_embedding_equals_dense_without_weight_decay():
    # Without weight decay a lazy update equals the dense one (untouched rows have zero grad).
    _, sparse = _train_embedding(True, None, wd=0.0)
    _, dense = _train_embedding(False, None, wd=0.0)
    np.testing.assert_allclose(sparse[0], dense[0], rtol=1e-6)
    np.testing.assert_allclose(sparse[0], _numpy_lazy_sgd(0.0), rtol=1e-6)


def test_trainer_update_on_kvstore_forbids_manual_update():
    trainer, _ = _train_embedding(True, True, wd=0.0)
    with pytest.raises(ValueError, match="update_on_kvstore"):
        trainer.update(4)


def test_trainer_update_on_kvstore_saves_and_loads_states(tmp_path):
    ctxs = [mx.cpu(0), mx.cpu(1)]

    def make():
        net = gluon.nn.Embedding(SHAPE[0], SHAPE[1], sparse_grad=True)
        net.initialize(mx.init.Constant(0.5), ctx=ctxs)
        trainer = gluon.Trainer(net.collect_params(), "sgd",
                                {"learning_rate": LR, "momentum": 0.9},
                                update_on_kvstore=True)
        return net, trainer

    def step(net, trainer, ids):
        with autograd.record():
            losses = [(net(mx.nd.array(b, ctx=c)) * mx.nd.arange(1, 4, ctx=c)).sum()
                      for b, c in zip(ids, ctxs)]
        for loss in losses:
            loss.backward()
        trainer.step(4)

    net_a, trainer_a = make()
    step(net_a, trainer_a, BATCHES[0])
    trainer_a.save_states(str(tmp_path / "states"))
    after_first = net_a.weight.data(ctxs[0]).copy()
    step(net_a, trainer_a, BATCHES[1])
    # A fresh trainer given the weights and momentum after step 1 repeats step 2 exactly;
    # without the momentum it would not (rows 1 and 3 carry momentum from step 1).
    net_b, trainer_b = make()
    net_b.weight.set_data(after_first)
    trainer_b._init_kvstore()
    trainer_b.load_states(str(tmp_path / "states"))
    step(net_b, trainer_b, BATCHES[1])
    net_c, trainer_c = make()
    net_c.weight.set_data(after_first)
    step(net_c, trainer_c, BATCHES[1])
    expected = net_a.weight.data(ctxs[0]).asnumpy()
    np.testing.assert_allclose(net_b.weight.data(ctxs[0]).asnumpy(), expected, rtol=1e-6)
    assert not np.allclose(net_c.weight.data(ctxs[0]).asnumpy(), expected)


_SCENARIO = """
import sys, numpy as np, mxnet as mx
kv = mx.kv.create('local')
shape = (5, 2)
kv.set_optimizer(mx.optimizer.SGD(learning_rate=0.1, wd=0.1, momentum=0.5))
kv.init(5, mx.nd.arange(10).reshape(shape) / 10)
g0 = mx.nd.sparse.row_sparse_array((np.ones((2, 2), 'float32'), [0, 2]), shape=shape)
g1 = mx.nd.sparse.row_sparse_array((2 * np.ones((2, 2), 'float32'), [2, 4]), shape=shape)
kv.push(5, [g0, g1]); kv.push(5, g1)
d = mx.nd.zeros(shape); kv.pull(5, out=d)
kv2 = mx.kv.create('local'); kv2.init('e', mx.nd.sparse.zeros('row_sparse', shape))
kv2.push('e', [g0, g1])
r = mx.nd.sparse.zeros('row_sparse', shape)
kv2.row_sparse_pull('e', out=r, row_ids=mx.nd.array([4, 1, 4, 0]))
np.savez(sys.argv[1], dense=d.asnumpy(), rows=r.indices.asnumpy(), data=r.data.asnumpy())
"""


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_matches_mxnet_191(tmp_path):
    script = tmp_path / "scenario.py"
    script.write_text(_SCENARIO)
    mx191_oracle.check_reference()
    mx191_oracle.run([script, tmp_path / "ref.npz"], ours=False)
    mx191_oracle.run([script, tmp_path / "ours.npz"], ours=True)
    ref, ours = np.load(tmp_path / "ref.npz"), np.load(tmp_path / "ours.npz")
    for name in ("dense", "rows", "data"):
        np.testing.assert_allclose(ours[name], ref[name], rtol=1e-6, err_msg=name)
