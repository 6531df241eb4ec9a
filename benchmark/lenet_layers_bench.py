"""LeNet layer benchmark (batch 64, 1x28x28): Convolution/Pooling forward and backward per op,
and a whole imperative training step built from forward ops and their `_backward_*` ops
(what autograd runs), with oneDNN on and off (MXNET_ONEDNN_ENABLED).

    OMP_NUM_THREADS=2 PYTHONPATH=python python3 benchmark/lenet_layers_bench.py [--steps 200]

The same script runs on MXNet 1.9.1 ("$MXNET_REFERENCE_PYTHON") for the per-op part
(--ops-only), which gives like-for-like op timings.
"""
import argparse
import os
import time

import numpy as np

import mxnet as mx

nd = mx.nd
BATCH = 64


def _median_ms(fn, repeat):
    """(wall ms, process CPU ms) medians; CPU time is what to trust on a loaded machine."""
    fn()
    nd.waitall()
    times, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        nd.waitall()
        times.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return float(np.median(times)), float(np.median(cpu))


def op_timings(repeat):
    rng = np.random.RandomState(0)
    x = nd.array(rng.uniform(-1, 1, (BATCH, 1, 28, 28)).astype("float32"))
    w1 = nd.array(rng.uniform(-0.2, 0.2, (20, 1, 5, 5)).astype("float32"))
    b1 = nd.zeros((20,))
    h1 = nd.array(rng.uniform(-1, 1, (BATCH, 20, 12, 12)).astype("float32"))
    w2 = nd.array(rng.uniform(-0.1, 0.1, (50, 20, 5, 5)).astype("float32"))
    b2 = nd.zeros((50,))
    c1 = nd.Convolution(x, w1, b1, kernel=(5, 5), num_filter=20)
    c2 = nd.Convolution(h1, w2, b2, kernel=(5, 5), num_filter=50)
    p1 = nd.Pooling(c1, kernel=(2, 2), stride=(2, 2))
    k1 = dict(kernel=(5, 5), num_filter=20)
    k2 = dict(kernel=(5, 5), num_filter=50)
    kp = dict(kernel=(2, 2), stride=(2, 2), pool_type="max")
    # Backward through autograd (works on MXNet 1.9.1 and here once autograd exists) or the
    # _backward_ ops directly.
    internal = nd._internal
    has_bwd = hasattr(internal, "_backward_Convolution") and \
        "mx191" not in os.path.realpath(mx.__file__)
    cases = [
        ("conv1 fwd", lambda: nd.Convolution(x, w1, b1, **k1)),
        ("conv2 fwd", lambda: nd.Convolution(h1, w2, b2, **k2)),
        ("pool1 fwd", lambda: nd.Pooling(c1, **kp)),
    ]
    if has_bwd:
        cases += [
            ("conv1 bwd (w,b)", lambda: internal._backward_Convolution(c1, x, w1, **k1)),
            ("conv2 bwd (x,w,b)", lambda: internal._backward_Convolution(c2, h1, w2, **k2)),
            ("pool1 bwd", lambda: internal._backward_Pooling(p1, c1, p1, **kp)),
        ]
    out = {}
    for name, fn in cases:
        out[name] = _median_ms(fn, repeat)
    return out


def train_step_fn():
    """One LeNet SGD-momentum step from forward ops and _backward_ ops (no autograd)."""
    rng = np.random.RandomState(1)
    internal = nd._internal
    x = nd.array(rng.uniform(0, 1, (BATCH, 1, 28, 28)).astype("float32"))
    label = nd.array(rng.randint(0, 10, BATCH).astype("float32"))
    shapes = [(20, 1, 5, 5), (20,), (50, 20, 5, 5), (50,), (500, 800), (500,), (10, 500), (10,)]
    params = [nd.array(rng.uniform(-0.1, 0.1, s).astype("float32")) for s in shapes]
    moms = [nd.zeros(s) for s in shapes]
    k1 = dict(kernel=(5, 5), num_filter=20)
    k2 = dict(kernel=(5, 5), num_filter=50)
    kp = dict(kernel=(2, 2), stride=(2, 2), pool_type="max")
    relu = dict(act_type="relu")

    def step():
        w1, b1, w2, b2, w3, b3, w4, b4 = params
        c1 = nd.Convolution(x, w1, b1, **k1)
        a1 = nd.Activation(c1, **relu)
        p1 = nd.Pooling(a1, **kp)
        c2 = nd.Convolution(p1, w2, b2, **k2)
        a2 = nd.Activation(c2, **relu)
        p2 = nd.Pooling(a2, **kp)
        f = nd.Flatten(p2)
        h = nd.FullyConnected(f, w3, b3, num_hidden=500)
        a3 = nd.Activation(h, **relu)
        z = nd.FullyConnected(a3, w4, b4, num_hidden=10)
        s = nd.SoftmaxOutput(z, label)
        gz, _ = internal._backward_SoftmaxOutput(s, label, s)
        ga3, gw4, gb4 = internal._backward_FullyConnected(gz, a3, w4, num_hidden=10)
        gh = internal._backward_Activation(ga3, a3, **relu)
        gf, gw3, gb3 = internal._backward_FullyConnected(gh, f, w3, num_hidden=500)
        gp2 = gf.reshape(p2.shape)
        ga2 = internal._backward_Pooling(gp2, a2, p2, **kp)
        gc2 = internal._backward_Activation(ga2, a2, **relu)
        gp1, gw2, gb2 = internal._backward_Convolution(gc2, p1, w2, **k2)
        ga1 = internal._backward_Pooling(gp1, a1, p1, **kp)
        gc1 = internal._backward_Activation(ga1, a1, **relu)
        _, gw1, gb1 = internal._backward_Convolution(gc1, x, w1, **k1)
        grads = [gw1, gb1, gw2, gb2, gw3, gb3, gw4, gb4]
        for p, g, m in zip(params, grads, moms):
            nd.sgd_mom_update(p, g, m, lr=0.01, momentum=0.9, rescale_grad=1.0 / BATCH, out=p)
    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--ops-only", action="store_true")
    args = ap.parse_args()
    print("mxnet at", os.path.dirname(mx.__file__), "OMP_NUM_THREADS=%s" %
          os.environ.get("OMP_NUM_THREADS"))
    modes = [("onednn", "1"), ("native", "0")]
    if args.ops_only:
        modes = modes[:1]
    for label, flag in modes:
        os.environ["MXNET_ONEDNN_ENABLED"] = flag
        timings = op_timings(args.repeat)
        print("[%s] per-op median ms (batch %d), wall/cpu: %s" % (
            label, BATCH, ", ".join("%s %.2f/%.2f" % (k, w, c) for k, (w, c) in timings.items())))
        if args.ops_only:
            continue
        step = train_step_fn()
        for _ in range(5):
            step()
        nd.waitall()
        rates, cpu_rates = [], []
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(args.steps):
                step()
            nd.waitall()
            rates.append(args.steps * BATCH / (time.perf_counter() - t0))
            cpu_rates.append(args.steps * BATCH / (time.process_time() - c0))
        print("[%s] LeNet training step from forward + _backward_ ops: %.0f samples/s wall, "
              "%.0f samples per CPU-second (median of 3 x %d steps)" % (
                  label, float(np.median(rates)), float(np.median(cpu_rates)), args.steps))


if __name__ == "__main__":
    main()
