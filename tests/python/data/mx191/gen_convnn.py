"""Writes convnn_refs.npz: MXNet 1.9.1 reference results for Convolution, Deconvolution, Pooling
and BatchNorm (forward, gradients through autograd, BatchNorm's moving statistics after a
training step), replayed by tests/python/unittest/test_conv_ops.py. Run it as refgen.py says.

Each case stores its op name and kwargs (JSON), its inputs, the head gradient, the outputs and
the input gradients under "<case>/<name>" keys.
"""
import json

import mxnet as mx
import numpy as np

import refgen

rng = np.random.RandomState(191)

CASES = [
    ("conv2d", "Convolution", [(2, 3, 7, 7), (4, 3, 3, 3), (4,)],
     dict(kernel=(3, 3), num_filter=4, stride=(2, 1), pad=(1, 1), dilate=(1, 2))),
    ("conv2d_group", "Convolution", [(2, 4, 6, 6), (6, 2, 3, 3), (6,)],
     dict(kernel=(3, 3), num_filter=6, num_group=2, pad=(1, 1))),
    ("conv1d", "Convolution", [(2, 3, 10), (5, 3, 3), (5,)],
     dict(kernel=(3,), num_filter=5, stride=(2,), pad=(2,))),
    ("conv3d", "Convolution", [(1, 2, 4, 5, 5), (3, 2, 2, 3, 3), (3,)],
     dict(kernel=(2, 3, 3), num_filter=3, pad=(0, 1, 1))),
    ("lenet_conv2", "Convolution", [(2, 8, 12, 12), (10, 8, 5, 5), (10,)],
     dict(kernel=(5, 5), num_filter=10)),
    ("deconv2d", "Deconvolution", [(2, 3, 4, 5), (3, 2, 3, 3), (2,)],
     dict(kernel=(3, 3), num_filter=2, stride=(2, 2), pad=(1, 1), adj=(1, 1), no_bias=False)),
    ("deconv1d", "Deconvolution", [(2, 4, 6), (4, 3, 4)],
     dict(kernel=(4,), num_filter=3, stride=(2,), pad=(1,))),
    ("pool_max", "Pooling", [(2, 3, 8, 8)], dict(kernel=(2, 2), stride=(2, 2), pool_type="max")),
    ("pool_avg_full", "Pooling", [(2, 3, 7, 7)],
     dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg", pooling_convention="full")),
    ("pool_avg_nopad", "Pooling", [(2, 3, 7, 7)],
     dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg", count_include_pad=False)),
    ("pool_sum_1d", "Pooling", [(2, 3, 9)], dict(kernel=(3,), stride=(2,), pool_type="sum")),
    ("pool_global", "Pooling", [(2, 3, 5, 6)], dict(kernel=(1, 1), global_pool=True,
                                                  pool_type="avg")),
    ("pool_max_3d", "Pooling", [(1, 2, 4, 4, 4)], dict(kernel=(2, 2, 2), stride=(2, 2, 2))),
]


def generate(out_dir):
    arrays = {}
    for name, op, shapes, kwargs in CASES:
        inputs = [rng.uniform(-1, 1, size=s).astype("float32") for s in shapes]
        ins, (y,), (og,) = refgen.forward_backward(getattr(mx.nd, op), inputs, kwargs, rng)
        arrays[name + "/meta"] = np.array(json.dumps({"op": op, "kwargs": kwargs}))
        for i, a in enumerate(ins):
            arrays["%s/in%d" % (name, i)] = a.asnumpy()
            arrays["%s/grad%d" % (name, i)] = a.grad.asnumpy()
        arrays[name + "/out"] = y.asnumpy()
        arrays[name + "/og"] = og
    batch_norm(arrays)
    refgen.save_npz(out_dir, "convnn_refs.npz", arrays)


def batch_norm(arrays):
    """A training step (forward + backward) then an inference forward."""
    for name, shape, kwargs in [
            ("bn_train", (4, 3, 5, 5), dict(fix_gamma=False, momentum=0.8, eps=1e-3)),
            ("bn_fixgamma", (6, 4), dict(momentum=0.9)),
            ("bn_axis_last", (3, 4, 2), dict(fix_gamma=False, axis=-1, eps=1e-4))]:
        c = shape[kwargs.get("axis", 1)]
        x = mx.nd.array(rng.uniform(-2, 3, size=shape).astype("float32"))
        gamma = mx.nd.array(rng.uniform(0.5, 1.5, size=(c,)).astype("float32"))
        beta = mx.nd.array(rng.uniform(-1, 1, size=(c,)).astype("float32"))
        mm = mx.nd.array(rng.uniform(-0.5, 0.5, size=(c,)).astype("float32"))
        mv = mx.nd.array(rng.uniform(0.5, 2, size=(c,)).astype("float32"))
        arrays[name + "/meta"] = np.array(json.dumps({"op": "BatchNorm", "kwargs": kwargs}))
        for key, a in [("x", x), ("gamma", gamma), ("beta", beta), ("mm", mm), ("mv", mv)]:
            arrays["%s/%s" % (name, key)] = a.asnumpy()
        for a in (x, gamma, beta):
            a.attach_grad()
        with mx.autograd.record(train_mode=True):
            y, mean, invstd = mx.nd.BatchNorm(x, gamma, beta, mm, mv, output_mean_var=True,
                                              **kwargs)
        og = rng.uniform(-1, 1, size=shape).astype("float32")
        y.backward(mx.nd.array(og))
        arrays[name + "/og"] = og
        arrays[name + "/out"] = y.asnumpy()
        arrays[name + "/mean"] = mean.asnumpy()
        arrays[name + "/invstd"] = invstd.asnumpy()
        arrays[name + "/dx"] = x.grad.asnumpy()
        arrays[name + "/dgamma"] = gamma.grad.asnumpy()
        arrays[name + "/dbeta"] = beta.grad.asnumpy()
        arrays[name + "/gamma_after"] = gamma.asnumpy()
        arrays[name + "/mm_after"] = mm.asnumpy()
        arrays[name + "/mv_after"] = mv.asnumpy()
        infer = mx.nd.BatchNorm(x, gamma, beta, mm, mv, **kwargs)
        arrays[name + "/infer_out"] = infer.asnumpy()


if __name__ == "__main__":
    refgen.main(generate)
