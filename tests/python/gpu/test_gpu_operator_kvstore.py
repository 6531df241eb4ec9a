"""KVStore 'device' on the GPU: a dense key lives on the device of its first value, pushes are
summed there and the updater (update_on_kvstore) runs there; results equal the 'local' store's."""
import numpy as np

import mxnet as mx
from mxnet import autograd, gluon

from gpu_util import DEV


def test_device_store_sums_and_updates_on_the_gpu():
    seen = []

    def updater(key, grad, weight):
        seen.append((grad.context, weight.context))
        weight[:] -= 0.5 * grad

    kv = mx.kv.create("device")
    kv.init(3, mx.nd.ones((1000,), ctx=DEV))
    kv._set_updater(updater)
    kv.push(3, [mx.nd.full((1000,), 2, ctx=DEV), mx.nd.full((1000,), 3, ctx=mx.cpu())])
    outs = [mx.nd.zeros((1000,), ctx=DEV), mx.nd.zeros((1000,))]
    kv.pull(3, out=outs)
    for o in outs:
        np.testing.assert_allclose(o.asnumpy(), np.full(1000, 1 - 0.5 * 5), rtol=1e-6)
    assert seen == [(DEV, DEV)]


def _train(kvstore, steps=4):
    rs = np.random.RandomState(0)
    net = gluon.nn.Dense(3, in_units=5)
    net.initialize(mx.init.Constant(0.1), ctx=DEV)
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.2, "momentum": 0.9},
                            kvstore=kvstore, update_on_kvstore=True)
    for _ in range(steps):
        x = mx.nd.array(rs.uniform(-1, 1, (4, 5)), ctx=DEV)
        with autograd.record():
            loss = (net(x) ** 2).sum()
        loss.backward()
        trainer.step(4)
    return [p.data(DEV).asnumpy() for p in net.collect_params().values()]


def test_trainer_with_the_device_store_matches_local():
    for got, want in zip(_train("device"), _train("local")):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
