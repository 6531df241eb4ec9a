"""Writes the MXNet 1.9.1 Gluon reference files (into gluon/) read by
tests/python/unittest/test_gluon*.py, which also import this module (through
mx191_oracle.load_generator) for its layer cases and network. Run it as refgen.py says.

Parameters are set from NumPy seeds (see `fill_params`), so the tests rebuild the same
networks and compare outputs, gradients, parameter names and files.
"""
import json
import os

import mxnet as mx
import numpy as np
from mxnet import gluon, autograd
from mxnet.gluon import nn

import refgen


def fill_params(block, seed):
    """Sets every parameter (sorted by name) from RandomState(seed): uniform(-0.5, 0.5)
    except running_var (uniform(0.5, 1.5))."""
    rng = np.random.RandomState(seed)
    for name in sorted(block.collect_params().keys()):
        p = block.collect_params()[name]
        lo, hi = (0.5, 1.5) if name.endswith("running_var") else (-0.5, 0.5)
        p.set_data(mx.nd.array(rng.uniform(lo, hi, size=p.shape).astype(p.dtype)))


def layer_cases():
    """(name, constructor, input shape) for single-layer checks; shared with the tests."""
    return [
        ("dense", lambda: nn.Dense(5, in_units=6), (3, 6)),
        ("dense_relu_noflat", lambda: nn.Dense(4, activation="relu", flatten=False,
                                               in_units=6), (2, 3, 6)),
        ("dense_nobias", lambda: nn.Dense(4, use_bias=False, in_units=12), (2, 3, 4)),
        ("conv1d", lambda: nn.Conv1D(3, 3, strides=2, padding=1, in_channels=2), (2, 2, 9)),
        ("conv2d", lambda: nn.Conv2D(4, (3, 3), padding=(1, 1), in_channels=3,
                                     activation="tanh"), (2, 3, 6, 6)),
        ("conv2d_group", lambda: nn.Conv2D(4, 3, groups=2, dilation=2, in_channels=4),
         (1, 4, 8, 8)),
        ("conv3d", lambda: nn.Conv3D(2, 2, in_channels=2), (1, 2, 4, 4, 4)),
        ("conv1dT", lambda: nn.Conv1DTranspose(3, 3, strides=2, in_channels=2), (2, 2, 5)),
        ("conv2dT", lambda: nn.Conv2DTranspose(3, (3, 3), strides=2, padding=1,
                                               output_padding=1, in_channels=2), (1, 2, 4, 4)),
        ("conv3dT", lambda: nn.Conv3DTranspose(2, 2, in_channels=2), (1, 2, 3, 3, 3)),
        ("maxpool1d", lambda: nn.MaxPool1D(3, 2), (2, 3, 9)),
        ("maxpool2d", lambda: nn.MaxPool2D((2, 2), ceil_mode=True), (2, 3, 7, 7)),
        ("maxpool3d", lambda: nn.MaxPool3D(2), (1, 2, 4, 4, 4)),
        ("avgpool1d", lambda: nn.AvgPool1D(2, padding=1), (2, 3, 8)),
        ("avgpool2d", lambda: nn.AvgPool2D(3, 2, padding=1, count_include_pad=False),
         (2, 3, 7, 7)),
        ("avgpool3d", lambda: nn.AvgPool3D(2), (1, 2, 4, 4, 4)),
        ("gmaxpool1d", lambda: nn.GlobalMaxPool1D(), (2, 3, 5)),
        ("gmaxpool2d", lambda: nn.GlobalMaxPool2D(), (2, 3, 5, 5)),
        ("gmaxpool3d", lambda: nn.GlobalMaxPool3D(), (2, 3, 3, 3, 3)),
        ("gavgpool1d", lambda: nn.GlobalAvgPool1D(), (2, 3, 5)),
        ("gavgpool2d", lambda: nn.GlobalAvgPool2D(), (2, 3, 5, 5)),
        ("gavgpool3d", lambda: nn.GlobalAvgPool3D(), (2, 3, 3, 3, 3)),
        ("batchnorm", lambda: nn.BatchNorm(in_channels=3), (4, 3, 2, 2)),
        ("batchnorm_axis", lambda: nn.BatchNorm(axis=-1, scale=False, in_channels=3),
         (4, 2, 3)),
        ("instancenorm", lambda: nn.InstanceNorm(in_channels=3, scale=True), (2, 3, 5)),
        ("layernorm", lambda: nn.LayerNorm(in_channels=5), (3, 4, 5)),
        ("flatten", lambda: nn.Flatten(), (2, 3, 4)),
        ("relu", lambda: nn.Activation("relu"), (3, 4)),
        ("sigmoid", lambda: nn.Activation("sigmoid"), (3, 4)),
        ("tanh", lambda: nn.Activation("tanh"), (3, 4)),
        ("softrelu", lambda: nn.Activation("softrelu"), (3, 4)),
        ("leakyrelu", lambda: nn.LeakyReLU(0.1), (3, 4)),
        ("prelu", lambda: nn.PReLU(), (3, 4)),
        ("elu", lambda: nn.ELU(0.7), (3, 4)),
        ("selu", lambda: nn.SELU(), (3, 4)),
        ("gelu", lambda: nn.GELU(), (3, 4)),
        ("swish", lambda: nn.Swish(1.5), (3, 4)),
    ]


def run_layer(i, make, shape, hybridize=False):
    """Layer case i: predict-mode output, then a training forward and backward with a seeded
    head gradient; returns {"predict", "train", "dx", "d<param>" or "after_<param>": array}.
    Shared with the tests."""
    layer = make()
    layer.initialize()
    if hybridize:
        layer.hybridize()
    x = mx.nd.array(np.random.RandomState(100 + i).uniform(-2, 2, size=shape)
                    .astype("float32"))
    fill_params(layer, 200 + i)
    res = {"predict": layer(x).asnumpy()}
    x.attach_grad()
    with autograd.record():
        y = layer(x)
        head = mx.nd.array(np.random.RandomState(300 + i).uniform(-1, 1, size=y.shape)
                           .astype("float32"))
        loss = (y * head).sum()
    loss.backward()
    res["train"] = y.asnumpy()
    res["dx"] = x.grad.asnumpy()
    for pname, p in sorted(layer.collect_params().items()):
        key = pname[len(layer.prefix):]
        if p.grad_req != "null":
            res["d" + key] = p.grad().asnumpy()
        else:
            res["after_" + key] = p.data().asnumpy()
    return res


def loss_inputs():
    """The seeded inputs of the loss cases; shared with the tests."""
    rng = np.random.RandomState(5)
    pred = rng.uniform(-2, 2, size=(4, 5)).astype("float32")
    prob = rng.uniform(0.05, 0.95, size=(4, 5)).astype("float32")
    lab01 = (rng.uniform(size=(4, 5)) > 0.5).astype("float32")
    sign = lab01 * 2 - 1
    cls = np.array([0, 3, 4, 1], dtype="float32")
    dist = rng.uniform(0.1, 1, size=(4, 5)).astype("float32")
    dist /= dist.sum(axis=1, keepdims=True)
    sw = rng.uniform(0.5, 1.5, size=(4, 1)).astype("float32")
    counts = rng.randint(0, 5, size=(4, 5)).astype("float32")
    return pred, prob, lab01, sign, cls, dist, sw, counts


def loss_cases():
    """{name: (loss block, call arguments)}; shared with the tests."""
    pred, prob, lab01, sign, cls, dist, sw, counts = loss_inputs()
    a = mx.nd.array
    L = gluon.loss
    return {
        "l2": (L.L2Loss(), (a(pred), a(prob))),
        "l2_w_sw": (L.L2Loss(weight=0.7), (a(pred), a(prob), a(sw))),
        "l1": (L.L1Loss(), (a(pred), a(prob))),
        "sbce": (L.SigmoidBCELoss(), (a(pred), a(lab01))),
        "sbce_posw": (L.SigmoidBCELoss(), (a(pred), a(lab01), None,
                                           a(np.full((1, 5), 2.0, "float32")))),
        "sbce_fromsig": (L.SigmoidBCELoss(from_sigmoid=True), (a(prob), a(lab01))),
        "sce": (L.SoftmaxCELoss(), (a(pred), a(cls))),
        "sce_sw": (L.SoftmaxCELoss(), (a(pred), a(cls), a(sw))),
        "sce_dense": (L.SoftmaxCELoss(sparse_label=False), (a(pred), a(dist))),
        "sce_logits": (L.SoftmaxCELoss(from_logits=True), (a(np.log(dist)), a(cls))),
        "kl": (L.KLDivLoss(), (a(np.log(dist)), a(prob))),
        "kl_nologits": (L.KLDivLoss(from_logits=False), (a(pred), a(dist))),
        "huber": (L.HuberLoss(rho=0.5), (a(pred), a(prob))),
        "hinge": (L.HingeLoss(), (a(pred), a(sign))),
        "sqhinge": (L.SquaredHingeLoss(margin=2), (a(pred), a(sign))),
        "logistic": (L.LogisticLoss(), (a(pred), a(sign))),
        "logistic_bin": (L.LogisticLoss(label_format="binary"), (a(pred), a(lab01))),
        "triplet": (L.TripletLoss(margin=0.5), (a(pred), a(prob), a(dist))),
        "poisson": (L.PoissonNLLLoss(), (a(pred), a(counts))),
        "poisson_full": (L.PoissonNLLLoss(from_logits=False, compute_full=True),
                         (a(prob * 3), a(counts))),
        "cosine": (L.CosineEmbeddingLoss(), (a(pred), a(prob),
                                             a(np.array([1, -1, 1, -1], "float32")))),
        "cosine_margin": (L.CosineEmbeddingLoss(margin=0.2),
                          (a(pred), a(dist), a(np.array([-1, -1, 1, 1], "float32")))),
    }


class Net(gluon.HybridBlock):
    """conv -> batchnorm -> relu -> dense(relu) -> dropout -> dense."""
    def __init__(self, **kwargs):
        super(Net, self).__init__(**kwargs)
        with self.name_scope():
            self.conv = nn.Conv2D(4, 3, padding=1)
            self.bn = nn.BatchNorm()
            self.body = nn.HybridSequential()
            self.body.add(nn.Dense(8, activation="relu"), nn.Dropout(0.5), nn.Dense(3))

    def hybrid_forward(self, F, x):
        return self.body(F.relu(self.bn(self.conv(x))))


def generate(out):
    # ---- single layers: outputs (train and predict mode) and gradients
    res = {}
    for i, (name, make, shape) in enumerate(layer_cases()):
        for key, value in run_layer(i, make, shape).items():
            res[name + ":" + key] = value
    np.savez(os.path.join(out, "layers.npz"), **res)

    # ---- embedding
    emb = nn.Embedding(10, 4)
    emb.initialize()
    fill_params(emb, 7)
    idx = mx.nd.array([[1, 3], [9, 0], [3, 3]])
    with autograd.record():
        y = emb(idx)
        total = (y * y).sum()
    total.backward()
    np.savez(os.path.join(out, "embedding.npz"), out=y.asnumpy(),
             dweight=emb.weight.grad().asnumpy())

    # ---- losses
    loss_res = {name: loss(*args) for name, (loss, args) in loss_cases().items()}
    np.savez(os.path.join(out, "losses.npz"),
             **{k: v.asnumpy() for k, v in loss_res.items()})

    # ---- a nested network: names, save_parameters / export files, outputs
    net = Net()
    net.initialize()
    xin = mx.nd.array(np.random.RandomState(11).uniform(-1, 1, size=(2, 3, 5, 5))
                      .astype("float32"))
    net(xin)
    fill_params(net, 12)
    names = {"collect_params": list(net.collect_params().keys()),
             "with_prefix": sorted(net._collect_params_with_prefix().keys()),
             "prefix": net.prefix, "repr": repr(net)}
    with open(os.path.join(out, "names.json"), "w") as f:
        json.dump(names, f, indent=1)
    net.save_parameters(os.path.join(out, "net.params"))
    net.hybridize()
    y = net(xin)
    net.export(os.path.join(out, "net"), epoch=2)
    np.savez(os.path.join(out, "net_forward.npz"), x=xin.asnumpy(), y=y.asnumpy())

    # ---- trainer: 3 SGD-momentum steps and 3 Adam steps on an MLP with lr_mult/wd
    for opt, kw in (("sgd", {"learning_rate": 0.1, "momentum": 0.9, "wd": 0.01}),
                    ("adam", {"learning_rate": 0.01})):
        mlp = nn.HybridSequential(prefix="mlp_")
        with mlp.name_scope():
            mlp.add(nn.Dense(6, activation="tanh", in_units=4), nn.Dense(2, in_units=6))
        mlp.initialize()
        fill_params(mlp, 21)
        mlp[1].weight.lr_mult = 0.5
        trainer = gluon.Trainer(mlp.collect_params(), opt, kw)
        rng = np.random.RandomState(22)
        for _ in range(3):
            xb = mx.nd.array(rng.uniform(-1, 1, size=(5, 4)).astype("float32"))
            yb = mx.nd.array(rng.randint(0, 2, size=(5,)).astype("float32"))
            with autograd.record():
                loss = gluon.loss.SoftmaxCELoss()(mlp(xb), yb)
            loss.backward()
            trainer.step(5)
        np.savez(os.path.join(out, "trainer_%s.npz" % opt),
                 **{k: v.data().asnumpy() for k, v in mlp.collect_params().items()})


if __name__ == "__main__":
    refgen.main(generate, "gluon")
