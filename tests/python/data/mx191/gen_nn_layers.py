"""Writes nn_layers.npz: forward outputs and input gradients of the NN layers (LayerNorm,
InstanceNorm, LRN, L2Normalization, LeakyReLU, UpSampling) computed by the real MXNet 1.9.1
executor, for test_nn_layers.py. Run it as refgen.py says.

Keys: "<case>:in:<arg>", "<case>:og" (head gradient), "<case>:out", "<case>:grad:<arg>".
"""
import mxnet as mx
import numpy as np

import refgen


def run(res, key, sym, args, og_seed=1):
    """simple_bind, a training forward, backward with a seeded head gradient; into res."""
    ex = sym.simple_bind(mx.cpu(), **{k: v.shape for k, v in args.items()})
    for k, v in args.items():
        ex.arg_dict[k][:] = v
    ex.forward(is_train=True)
    og = np.random.RandomState(og_seed).randn(*ex.outputs[0].shape)
    ex.backward([mx.nd.array(og)])
    res[key + ":og"] = og
    res[key + ":out"] = ex.outputs[0].asnumpy()
    for k in args:
        res[key + ":in:" + k] = args[k]
        res[key + ":grad:" + k] = ex.grad_dict[k].asnumpy()


def generate(out_dir):
    rng = np.random.RandomState(0)
    res = {}
    d, g, b, w = (mx.sym.var(n) for n in "dgbw")
    x = rng.randn(2, 3, 4)
    run(res, "ln", mx.sym.LayerNorm(d, g, b, axis=1),
        dict(d=x, g=rng.rand(3) + 0.5, b=rng.rand(3)))
    run(res, "in", mx.sym.InstanceNorm(d, g, b), dict(d=x, g=rng.rand(3) + 0.5, b=rng.rand(3)))
    x4 = rng.randn(2, 5, 2, 3)
    run(res, "lrn", mx.sym.LRN(d, nsize=3, alpha=0.5, beta=0.75, knorm=1.5), dict(d=x4))
    run(res, "lrn4", mx.sym.LRN(d, nsize=4, alpha=0.5, beta=0.75, knorm=1.5), dict(d=x4))
    for mode in ["instance", "channel", "spatial"]:
        run(res, "l2" + mode, mx.sym.L2Normalization(d, mode=mode), dict(d=x4))
    run(res, "prelu", mx.sym.LeakyReLU(d, g, act_type="prelu"), dict(d=x4, g=rng.rand(5)))
    for a in ["elu", "selu", "gelu", "leaky"]:
        run(res, "act" + a, mx.sym.LeakyReLU(d, act_type=a, slope=0.3), dict(d=x4))
    run(res, "upn", mx.sym.UpSampling(d, b, scale=2, sample_type="nearest", num_args=2),
        dict(d=rng.randn(1, 2, 2, 2), b=rng.randn(1, 3, 4, 4)))
    run(res, "upb", mx.sym.UpSampling(d, w, scale=2, sample_type="bilinear", num_filter=2,
                                      num_args=2),
        dict(d=rng.randn(2, 2, 2, 3), w=rng.randn(2, 1, 4, 4)))
    refgen.save_npz(out_dir, "nn_layers.npz", {k: v.astype("float32") for k, v in res.items()})


if __name__ == "__main__":
    refgen.main(generate)
