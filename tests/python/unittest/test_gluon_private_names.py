"""The private Gluon / image / operator names GluonCV 0.10 and GluonNLP 0.10 import, with
MXNet 1.9.1's behaviour."""
import multiprocessing
import os

import numpy as onp
import pytest

import mxnet as mx
from mxnet.gluon.data import dataloader as dl
from mxnet.gluon.data import ArrayDataset
from mxnet.gluon.data.sampler import BatchSampler, SequentialSampler


def _dataset(n=10):
    return ArrayDataset(onp.arange(2 * n, dtype='float32').reshape(n, 2), onp.arange(n))


def _collect(iterator):
    return [(b[0].asnumpy(), b[1].asnumpy()) for b in iterator]


def test_multi_worker_iter_with_threads_keeps_order():
    from multiprocessing.pool import ThreadPool
    pool = ThreadPool(3)
    try:
        sampler = BatchSampler(SequentialSampler(10), 4, 'keep')
        it = dl._MultiWorkerIter(pool, dl.default_batchify_fn, sampler, prefetch=3,
                                 worker_fn=dl._thread_worker_fn, dataset=_dataset())
        assert len(it) == 3
        batches = _collect(it)
    finally:
        pool.terminate()
    onp.testing.assert_array_equal(onp.concatenate([b[1] for b in batches]), onp.arange(10))
    assert [len(b[1]) for b in batches] == [4, 4, 2]


def test_multi_worker_iter_with_processes():
    ctx = multiprocessing.get_context('spawn')
    pool = ctx.Pool(2, initializer=dl._worker_initializer, initargs=(_dataset(),))
    try:
        sampler = BatchSampler(SequentialSampler(10), 3, 'discard')
        batches = _collect(dl._MultiWorkerIter(pool, dl.default_batchify_fn, sampler,
                                               prefetch=2))
    finally:
        pool.terminate()
    assert len(batches) == 3
    onp.testing.assert_array_equal(batches[1][0], onp.arange(6, 12).reshape(3, 2))


def test_data_loader_workers_and_helpers():
    loader = mx.gluon.data.DataLoader(_dataset(), batch_size=3, num_workers=2)
    assert isinstance(iter(loader), dl._MultiWorkerIter)
    labels = [b[1].asnumpy().tolist() for b in loader]
    assert labels == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert labels == [b[1].asnumpy().tolist() for b in loader]   # the pool is reused
    nested = dl._as_in_context([mx.nd.ones(2), (mx.nd.zeros(1), 3)], mx.cpu(0))
    assert nested[0].context == mx.cpu(0) and nested[1][1] == 3
    from multiprocessing.reduction import ForkingPickler
    assert dl.ForkingPickler is ForkingPickler


def test_repo_urls(monkeypatch):
    from mxnet.gluon import utils
    monkeypatch.delenv('MXNET_GLUON_REPO', raising=False)
    assert utils._get_repo_url().startswith('https://') and utils._get_repo_url().endswith('/')
    monkeypatch.setenv('MXNET_GLUON_REPO', 'http://mirror.example/repo')
    assert utils._get_repo_url() == 'http://mirror.example/repo/'
    assert utils._get_repo_file_url('gluon/dataset/mnist', 'train.gz') == \
        'http://mirror.example/repo/gluon/dataset/mnist/train.gz'
    from mxnet.gluon.model_zoo import model_store
    assert model_store.apache_repo_url.endswith('/')


def test_model_store_registry_is_shared(tmp_path):
    # GluonNLP registers its pretrained models by updating model_store._model_sha1 (1.9.1's
    # name); short_hash and get_model_file must then know them.
    from mxnet.gluon.model_zoo import model_store
    sha1 = 'f' * 40
    model_store._model_sha1['client_net_x'] = sha1
    try:
        assert model_store.short_hash('client_net_x') == 'ffffffff'
        with pytest.raises(FileNotFoundError, match='client_net_x-ffffffff.params'):
            model_store.get_model_file('client_net_x', root=str(tmp_path))
    finally:
        del model_store._model_sha1['client_net_x']
    assert model_store._url_format.format(repo_url='R/', file_name='n') == 'R/gluon/models/n.zip'


def test_replace_file_and_hook_handle(tmp_path):
    from mxnet.gluon import utils
    src, dst = tmp_path / 'a', tmp_path / 'b'
    src.write_text('new')
    dst.write_text('old')
    utils.replace_file(str(src), str(dst))
    assert dst.read_text() == 'new' and not src.exists()
    seen = []
    net = mx.gluon.nn.Dense(2)
    net.initialize()
    handle = net.register_forward_hook(lambda blk, inp, out: seen.append(out.shape))
    assert isinstance(handle, utils.HookHandle)
    with handle:
        net(mx.nd.ones((3, 4)))
    net(mx.nd.ones((3, 4)))
    assert seen == [(3, 2)]


def test_loss_helpers():
    from mxnet.gluon.loss import _apply_weighting, _reshape_like
    loss = mx.nd.array([[1.0, 2.0], [3.0, 4.0]])
    weighted = _apply_weighting(mx.nd, loss, 0.5, mx.nd.array([[1.0], [2.0]]))
    onp.testing.assert_allclose(weighted.asnumpy(), [[0.5, 1.0], [3.0, 4.0]])
    onp.testing.assert_allclose(_apply_weighting(mx.nd, loss).asnumpy(), loss.asnumpy())
    label = mx.nd.arange(4)
    assert _reshape_like(mx.nd, label, loss).shape == (2, 2)


def test_interp_method():
    from mxnet.image.image import _get_interp_method
    assert _get_interp_method(1) == 1
    assert _get_interp_method(9, (10, 10, 20, 20)) == 2      # enlarging: bicubic
    assert _get_interp_method(9, (20, 20, 10, 10)) == 3      # shrinking: area
    assert _get_interp_method(9, (20, 10, 10, 20)) == 1      # otherwise bilinear
    assert _get_interp_method(10) in range(5)
    with pytest.raises(ValueError):
        _get_interp_method(7)


def test_operator_registry_queries():
    names = mx.operator.get_all_registered_operators()
    assert {'FullyConnected', 'softmax', '_npi_add', 'custom_op'} <= set(names)
    args = mx.operator.get_operator_arguments('FullyConnected')
    assert isinstance(args, mx.operator.OperatorArguments)
    assert args.narg == len(args.names) == len(args.types)
    assert args.names[:3] == ['data', 'weight', 'bias'] and 'num_hidden' in args.names
    assert args.types[args.names.index('num_hidden')].startswith('int')
    with pytest.raises(mx.base.MXNetError):
        mx.operator.get_operator_arguments('no_such_operator_anywhere')
    assert os.path.basename(mx.test_utils.get_im2rec_path()) == 'im2rec.py'
