"""Writes linalg.npz: inputs, outputs and input gradients of the mx.nd.linalg operators as
computed by the real MXNet 1.9.1 (read by test_linalg.py). Run it as refgen.py says.

Keys: "cases" (JSON list of [op, kwargs, dtype]); per case i: "i:in:j" inputs, "i:head:k" head
gradients, "i:out:k" outputs, "i:grad:j" input gradients (float64 cases carry gradients).
"""
import json

import mxnet as mx
import numpy as np

import refgen

rng = np.random.RandomState(191)


def uni(*shape):
    return rng.uniform(-1, 1, size=shape)


def spd(*shape):
    a = uni(*shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def sym(*shape):
    a = uni(*shape)
    return a + np.swapaxes(a, -1, -2)


def shifted(shift, *shape):
    return uni(*shape) + shift * np.eye(shape[-1])


CASES = [
    ("gemm", [uni(2, 3), uni(3, 4), uni(2, 4)], dict(alpha=2.0, beta=0.5)),
    ("gemm", [uni(3, 4, 2, 5), uni(3, 4, 2, 6), uni(3, 5, 2, 6)],
     dict(axis=-3, transpose_a=True)),
    ("gemm2", [uni(2, 4, 3), uni(2, 5, 4)], dict(transpose_a=True, transpose_b=True, alpha=-1.5)),
    ("gemm2", [uni(4, 3, 2), uni(4, 3, 5)], dict(axis=0, transpose_a=True)),
    ("syrk", [uni(2, 3, 4)], dict(transpose=True, alpha=0.5)),
    ("trmm", [uni(2, 3, 3), uni(2, 4, 3)], dict(rightside=True, lower=False, alpha=2.0)),
    ("trmm", [uni(3, 3), uni(3, 2)], dict(transpose=True)),
    ("trsm", [shifted(3, 2, 3, 3), uni(2, 3, 4)], dict(transpose=True, alpha=-2.0)),
    ("trsm", [shifted(3, 3, 3), uni(2, 3)], dict(rightside=True, lower=False)),
    ("potrf", [spd(2, 4, 4)], {}),
    ("potri", [np.tril(shifted(2, 2, 3, 3)) + np.triu(uni(2, 3, 3), 1)], {}),
    ("sumlogdiag", [shifted(3, 2, 3, 3)], {}),
    ("gelqf", [uni(2, 3, 5)], {}),
    ("syevd", [sym(2, 4, 4)], {}),
    ("inverse", [shifted(2, 2, 3, 3)], {}),
    ("det", [uni(2, 3, 3)], {}),
    ("slogdet", [uni(3, 3)], {}),
    ("extractdiag", [uni(2, 4, 4)], dict(offset=-1)),
    ("makediag", [uni(2, 3)], dict(offset=2)),
    ("extracttrian", [uni(2, 4, 4)], dict(offset=1)),
    ("extracttrian", [uni(4, 4)], dict(lower=False)),
    ("maketrian", [uni(2, 6)], dict(offset=-1)),
    ("maketrian", [uni(10)], dict(lower=False)),
]


def generate(out_dir):
    data, meta = {}, []
    i = 0
    for dtype in ("float64", "float32"):
        for op, inputs, kwargs in CASES:
            xs, outs, heads = refgen.forward_backward(getattr(mx.nd.linalg, op), inputs, kwargs,
                                                      rng, dtype=dtype)
            meta.append([op, kwargs, dtype])
            for j, x in enumerate(inputs):
                data["%d:in:%d" % (i, j)] = x.astype(dtype)
                data["%d:grad:%d" % (i, j)] = xs[j].grad.asnumpy()
            for k, (o, h) in enumerate(zip(outs, heads)):
                data["%d:out:%d" % (i, k)] = o.asnumpy()
                data["%d:head:%d" % (i, k)] = h
            i += 1
    data["cases"] = np.array(json.dumps(meta))
    refgen.save_npz(out_dir, "linalg.npz", data)


if __name__ == "__main__":
    refgen.main(generate)
