"""Python-level contrib functions of MXNet 1.9.1 (adamw_update, mp_adamw_update,
rand_zipfian, getnnz, edge_id, dgl_adjacency, SparseEmbedding), gluon.contrib.nn
SparseEmbedding and contrib.tensorboard.LogMetricsCallback."""
import math
import sys
import types

import numpy as onp
import pytest

import mxnet as mx


def _adamw_reference(w, g, m, v, lr, eta, wd, rescale, b1=0.9, b2=0.999, eps=1e-8):
    g = g * rescale
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    return w - eta * (lr * m / (onp.sqrt(v) + eps) + wd * w), m, v


def test_adamw_update_nd_and_sym():
    rng = onp.random.RandomState(0)
    w, g = rng.uniform(size=(3, 4)), rng.uniform(-1, 1, size=(3, 4))
    m, v = rng.uniform(size=(3, 4)) * 0.1, rng.uniform(size=(3, 4)) * 0.1
    ref_w, ref_m, ref_v = _adamw_reference(w, g, m, v, lr=0.01, eta=0.5, wd=0.1, rescale=0.5)
    weight, mean, var = mx.nd.array(w), mx.nd.array(m), mx.nd.array(v)
    mx.nd.contrib.adamw_update(weight, mx.nd.array(g), mean, var, 0.5, lr=0.01, eta=0.5,
                               wd=0.1, out=weight)
    onp.testing.assert_allclose(weight.asnumpy(), ref_w, rtol=1e-4, atol=1e-7)
    onp.testing.assert_allclose(mean.asnumpy(), ref_m, rtol=1e-4, atol=1e-7)
    onp.testing.assert_allclose(var.asnumpy(), ref_v, rtol=1e-4, atol=1e-7)
    # a NaN rescale_grad skips the step
    before = weight.asnumpy()
    mx.nd.contrib.adamw_update(weight, mx.nd.array(g), mean, var, mx.nd.array([onp.nan]),
                               lr=0.01, eta=0.5, out=weight)
    onp.testing.assert_array_equal(weight.asnumpy(), before)
    w16 = mx.nd.array(w, dtype='float16')
    w32 = mx.nd.array(w)
    mx.nd.contrib.mp_adamw_update(w16, mx.nd.array(g, dtype='float16'), mx.nd.array(m),
                                  mx.nd.array(v), w32, 0.5, lr=0.01, eta=0.5, wd=0.1, out=w16)
    onp.testing.assert_allclose(w32.asnumpy(), ref_w, rtol=1e-3)
    onp.testing.assert_allclose(w16.asnumpy(), ref_w, rtol=2e-3)
    names = ['w', 'g', 'm', 'v']
    sym = mx.sym.contrib.adamw_update(*[mx.sym.var(n) for n in names], rescale_grad=0.5,
                                      lr=0.01, eta=0.5, wd=0.1)
    # the moments are states the operator updates: auxiliary states of the graph
    assert sym.list_auxiliary_states() == ['m', 'v']
    exe = sym.bind(mx.cpu(), args={'w': mx.nd.array(w), 'g': mx.nd.array(g)},
                   aux_states={'m': mx.nd.array(m), 'v': mx.nd.array(v)})
    out = exe.forward()
    onp.testing.assert_allclose(out[0].asnumpy(), ref_w, rtol=1e-4, atol=1e-7)


def test_rand_zipfian():
    mx.random.seed(1)
    true = mx.nd.array([0, 3, 9])
    sampled, exp_true, exp_sampled = mx.nd.contrib.rand_zipfian(true, 20000, 10)
    s = sampled.asnumpy()
    assert s.dtype == onp.int64 and s.min() >= 0 and s.max() < 10

    def prob(c):
        return math.log((c + 2.0) / (c + 1.0)) / math.log(11)
    onp.testing.assert_allclose(exp_true.asnumpy(), [20000 * prob(c) for c in (0, 3, 9)])
    onp.testing.assert_allclose(exp_sampled.asnumpy()[:5], [20000 * prob(c) for c in s[:5]])
    freq = onp.bincount(s, minlength=10) / 20000.0
    onp.testing.assert_allclose(freq, [prob(c) for c in range(10)], atol=0.015)
    outs = mx.sym.Group(list(mx.sym.contrib.rand_zipfian(mx.sym.var('t'), 5, 10)))
    res = outs.eval(t=true)
    assert res[0].shape == (5,) and res[1].shape == (3,)


def test_csr_graph_functions():
    dense = onp.array([[0, 5, 0, 7], [0, 0, 0, 0], [2, 0, 3, 0]], dtype=onp.float32)
    csr = mx.nd.array(dense).tostype('csr')
    assert mx.nd.contrib.getnnz(csr).asnumpy().tolist() == [4]
    onp.testing.assert_array_equal(mx.nd.contrib.getnnz(csr, axis=0).asnumpy(),
                                   (dense != 0).sum(0))
    onp.testing.assert_array_equal(mx.contrib.nd.getnnz(csr, axis=1).asnumpy(),
                                   (dense != 0).sum(1))
    u, v = mx.nd.array([0, 0, 2, 1]), mx.nd.array([3, 0, 2, 1])
    onp.testing.assert_array_equal(mx.nd.contrib.edge_id(csr, u, v).asnumpy(), [7, -1, 3, -1])
    adj = mx.nd.contrib.dgl_adjacency(csr)
    assert adj.stype == 'csr'
    onp.testing.assert_array_equal(adj.asnumpy(), (dense != 0).astype(onp.float32))
    with pytest.raises(ValueError):
        mx.nd.contrib.getnnz(mx.nd.array(dense))


def test_sparse_embedding_op_and_block():
    weight = mx.nd.random.uniform(shape=(6, 2))
    weight.attach_grad(stype='row_sparse')
    idx = mx.nd.array([1, 3, 3])
    with mx.autograd.record():
        out = mx.nd.contrib.SparseEmbedding(idx, weight, input_dim=6, output_dim=2)
    out.backward()
    onp.testing.assert_allclose(out.asnumpy(), weight.asnumpy()[[1, 3, 3]])
    assert weight.grad.stype == 'row_sparse'
    onp.testing.assert_allclose(weight.grad.asnumpy()[3], [2, 2])
    sym = mx.sym.contrib.SparseEmbedding(mx.sym.var('d'), mx.sym.var('w'), input_dim=6,
                                         output_dim=2)
    onp.testing.assert_allclose(sym.eval(d=idx, w=weight)[0].asnumpy(), out.asnumpy())
    block = mx.gluon.contrib.nn.SparseEmbedding(8, 3)
    block.initialize()
    trainer = mx.gluon.Trainer(block.collect_params(), 'sgd', {'learning_rate': 1.0})
    before = block.weight.row_sparse_data(mx.nd.arange(8)).asnumpy()
    with mx.autograd.record():
        res = block(mx.nd.array([2, 5, 5]))
    res.backward()
    assert block.weight.grad().stype == 'row_sparse'
    trainer.step(1)
    after = block.weight.row_sparse_data(mx.nd.arange(8)).asnumpy()
    expected = onp.zeros((8, 3))
    expected[2], expected[5] = 1, 2
    onp.testing.assert_allclose(before - after, expected, rtol=1e-5, atol=1e-6)


def test_log_metrics_callback(monkeypatch, tmp_path):
    logged = []

    class FakeWriter(object):
        def __init__(self, logdir):
            self.logdir = logdir

        def add_scalar(self, name, value, global_step):
            logged.append((name, value, global_step))

    monkeypatch.setitem(sys.modules, 'mxboard', types.SimpleNamespace(SummaryWriter=FakeWriter))
    from mxnet.contrib.tensorboard import LogMetricsCallback
    callback = LogMetricsCallback(str(tmp_path), prefix='train')
    assert callback.summary_writer.logdir == str(tmp_path)
    metric = mx.metric.Accuracy()
    metric.update([mx.nd.array([0, 1])], [mx.nd.array([[0.9, 0.1], [0.2, 0.8]])])
    callback(mx.model.BatchEndParam(epoch=3, nbatch=1, eval_metric=metric, locals=None))
    assert logged == [('train-accuracy', 1.0, 3)]
    callback(mx.model.BatchEndParam(epoch=4, nbatch=1, eval_metric=None, locals=None))
    assert len(logged) == 1
    for name in ('mxboard', 'tensorboardX', 'torch.utils.tensorboard', 'torch'):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError):
        LogMetricsCallback(str(tmp_path))
