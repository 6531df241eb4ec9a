"""Hybridized (CachedOp) vs imperative 3-layer MLP forward+backward: ms per step.

    PYTHONPATH=python python3 benchmark/python/cached_op_mlp.py [--batch 64] [--steps 200]
"""
import argparse
import time

import numpy as np

import mxnet as mx
from mxnet import autograd, nd


def build(sizes):
    x = mx.sym.var("data")
    h = x
    for i, n in enumerate(sizes[1:]):
        h = mx.sym.FullyConnected(h, num_hidden=n, name="fc%d" % i)
        if i < len(sizes) - 2:
            h = mx.sym.Activation(h, act_type="relu", name="relu%d" % i)
    return h


def imperative(data, params):
    h = data
    n = len(params) // 2
    for i in range(n):
        h = nd.FullyConnected(h, params[2 * i], params[2 * i + 1],
                              num_hidden=params[2 * i].shape[0])
        if i < n - 1:
            h = nd.relu(h)
    return h


def run(step, steps):
    for _ in range(10):
        step()
    nd.waitall()
    t = time.perf_counter()
    for _ in range(steps):
        step()
    nd.waitall()
    return (time.perf_counter() - t) / steps * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--sizes", default="784,256,256,10")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = np.random.RandomState(0)
    params = []
    for i in range(len(sizes) - 1):
        params.append(nd.array(rng.normal(0, 0.05, (sizes[i + 1], sizes[i]))))
        params.append(nd.zeros((sizes[i + 1],)))
    for p in params:
        p.attach_grad()
    batches = [nd.array(rng.uniform(-1, 1, (args.batch, sizes[0]))) for _ in range(8)]
    counter = [0]

    def step_with(fwd):
        def step():
            data = batches[counter[0] % len(batches)]
            counter[0] += 1
            with autograd.record():
                loss = (fwd(data) ** 2).mean()
            loss.backward()
        return step

    sym = build(sizes)
    variants = {"imperative": step_with(lambda d: imperative(d, params))}
    for name, flags in [("cachedop", []),
                        ("cachedop static", [("static_alloc", True), ("static_shape", True)])]:
        op = nd.CachedOp(sym, flags)
        variants[name] = step_with(lambda d, op=op: op(d, *params))
    # The machine is shared: interleave the variants over several rounds, report the best.
    results = {k: float("inf") for k in variants}
    for _ in range(args.rounds):
        for k, step in variants.items():
            results[k] = min(results[k], run(step, args.steps))
    print("MLP %s batch %d, %d steps forward+backward:" % (args.sizes, args.batch, args.steps))
    for k, v in results.items():
        print("  %-16s %.3f ms/step (best of %d rounds)" % (k, v, args.rounds))


if __name__ == "__main__":
    main()
