"""KVStores 'device' and 'nccl' on the GPU: a dense key lives on the device of its first value,
pushes are summed there and the updater (update_on_kvstore) runs there; results equal the
'local' store's. (test_gpu_kvstore_nccl.py checks nccl's sums over several GPUs.)"""
import numpy as np
import pytest

import mxnet as mx

from gpu_util import DEV, train_dense_with_kvstore

STORES = ["device",
          pytest.param("nccl", marks=pytest.mark.skipif(
              not mx.runtime.Features().is_enabled("NCCL"),
              reason="this libmxnet was built without NCCL"))]


@pytest.mark.parametrize("store", STORES)
def test_store_sums_and_updates_on_the_gpu(store):
    seen = []

    def updater(key, grad, weight):
        seen.append((grad.context, weight.context))
        weight[:] -= 0.5 * grad

    kv = mx.kv.create(store)
    kv.init(3, mx.nd.ones((1000,), ctx=DEV))
    kv._set_updater(updater)
    kv.push(3, [mx.nd.full((1000,), 2, ctx=DEV), mx.nd.full((1000,), 3, ctx=mx.cpu())])
    outs = [mx.nd.zeros((1000,), ctx=DEV), mx.nd.zeros((1000,))]
    kv.pull(3, out=outs)
    for o in outs:
        np.testing.assert_allclose(o.asnumpy(), np.full(1000, 1 - 0.5 * 5), rtol=1e-6)
    assert seen == [(DEV, DEV)]


@pytest.mark.parametrize("store", STORES)
def test_trainer_with_the_store_matches_local(store):
    for got, want in zip(train_dense_with_kvstore(store), train_dense_with_kvstore("local")):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
