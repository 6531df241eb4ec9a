"""CPU cases where this project was slower than MXNet 1.9.1 until session 21 (batch-1 GEMM,
softmax rows, tanh/sigmoid, the first loop of independent calls). Uses only the public MXNet 1.x
API, so the same script runs under this package and under a reference MXNet 1.9.1:

    PYTHONPATH=python python3 benchmark/python/cpu_gaps_vs_191.py
    /path/to/mx191/bin/python benchmark/python/cpu_gaps_vs_191.py

Prints microseconds per call: a loop of calls pushed without waiting, then one waitall.
"""
import time

import mxnet as mx
from mxnet import autograd, gluon


def per_call_us(fn, n, warm=10):
    for _ in range(warm):
        fn()
    mx.nd.waitall()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    mx.nd.waitall()
    return (time.perf_counter() - t0) / n * 1e6


def first_loop_us(fn, n=100):
    """The first n calls of a fresh shape, no warm-up: what a fresh output costs."""
    return per_call_us(fn, n, warm=0)


def main():
    rows = []
    # Batch-1 FullyConnected (a one-row GEMM).
    x, w, b = mx.nd.ones((1, 784)), mx.nd.ones((512, 784)), mx.nd.ones((512,))
    rows.append(("FullyConnected 784->512 batch 1",
                 per_call_us(lambda: mx.nd.FullyConnected(x, w, b, num_hidden=512), 500)))
    # Batch-1 MLP forward + backward, hybridized Gluon.
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(512, activation="relu"), gluon.nn.Dense(512, activation="relu"),
            gluon.nn.Dense(10))
    net.initialize(mx.init.Xavier())
    net.hybridize(static_alloc=True, static_shape=True)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    xb, yb = mx.nd.ones((1, 784)), mx.nd.ones((1,))

    def mlp_step():
        with autograd.record():
            loss = loss_fn(net(xb), yb)
        loss.backward()
    rows.append(("MLP 784-512-512-10 batch 1 fwd+bwd", per_call_us(mlp_step, 300)))
    # Softmax rows, into a given output and into a fresh one.
    for n in (32, 256):
        s, o = mx.nd.ones((n, 1000)), mx.nd.zeros((n, 1000))
        rows.append(("softmax (%d, 1000) out=" % n,
                     per_call_us(lambda: mx.nd.softmax(s, out=o), 300)))
        rows.append(("softmax (%d, 1000) new output" % n,
                     per_call_us(lambda: mx.nd.softmax(s), 300)))
    # The first 100 independent calls with a fresh 8 MB output each.
    big = mx.nd.ones((2048, 1000))
    rows.append(("relu (2048, 1000) first 100 calls", first_loop_us(lambda: mx.nd.relu(big))))
    # Activations on a LeNet-sized tensor.
    a, out = mx.nd.ones((64, 20, 24, 24)) * 0.5, mx.nd.zeros((64, 20, 24, 24))
    for act in ("tanh", "sigmoid"):
        rows.append(("Activation(%s) (64, 20, 24, 24)" % act,
                     per_call_us(lambda: mx.nd.Activation(a, act_type=act, out=out), 50)))
    for name, us in rows:
        print("%-40s %10.1f us" % (name, us))


if __name__ == "__main__":
    main()
