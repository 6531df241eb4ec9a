"""Gluon on the GPU against the CPU (MXNet's check_consistency rule: the CPU in float64 is the
reference): layers, losses, recurrent layers and the model-zoo vision models give the same
outputs and parameter gradients on DEV; Trainer (hybridized, static_alloc/static_shape) and
Module.fit train to the same parameters. With MXNET_TEST_GPU_AS_CPU=1 DEV is cpu(0)."""
import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn, rnn
from mxnet.gluon.model_zoo import vision

from gpu_util import DEV, TOL


def _run_block(make, x_np, dtype, ctx, params=None, train=True, label=None, loss=None):
    """make() on ctx in dtype, parameters from `params` (numpy), forward + backward of sum(out
    * head); returns the output, the input gradient and the parameter gradients by name."""
    mx.random.seed(1)
    blk = make()
    blk.initialize(mx.init.Xavier(magnitude=2.0), ctx=ctx)
    x = mx.nd.array(x_np, ctx=ctx, dtype=dtype)
    blk.cast(dtype)
    blk(x) if label is None else blk(x, mx.nd.array(label, ctx=ctx, dtype=dtype))
    pnames = sorted(blk.collect_params().keys())
    prefix = blk.prefix
    if params is not None:
        for name in pnames:
            blk.collect_params()[name].set_data(
                mx.nd.array(params[name[len(prefix):]], ctx=ctx, dtype=dtype))
    x.attach_grad()
    with autograd.record(train_mode=train):
        out = blk(x) if label is None else blk(x, mx.nd.array(label, ctx=ctx, dtype=dtype))
    head = np.linspace(-1, 1, out.size).reshape(out.shape)
    out.backward(mx.nd.array(head, ctx=ctx, dtype=dtype))
    grads = {name[len(prefix):]: blk.collect_params()[name].grad(ctx).asnumpy()
             for name in pnames if blk.collect_params()[name].grad_req != "null"}
    values = {name[len(prefix):]: blk.collect_params()[name].data(ctx).asnumpy()
              for name in pnames}
    return out.asnumpy(), x.grad.asnumpy(), grads, values


def _close(got, want, dtype, what, scale_tol=1.0):
    rtol, atol = TOL[dtype]
    rtol, atol = rtol * scale_tol, atol * scale_tol
    # Absolute tolerance relative to the size of the reference (sums over many terms).
    atol = max(atol, rtol * float(np.abs(want).max()) if want.size else 0.0)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=atol, err_msg=what)


def _consistent(make, x_shape, dtype, train=True, scale_tol=1.0, label=None, seed=0):
    x_np = np.random.RandomState(seed).uniform(-1, 1, x_shape)
    _, _, _, values = _run_block(make, x_np, np.float64, mx.cpu(), train=train, label=label)
    ref = _run_block(make, x_np, np.float64, mx.cpu(), values, train=train, label=label)
    got = _run_block(make, x_np, dtype, DEV, values, train=train, label=label)
    _close(got[0], ref[0], dtype, "output", scale_tol)
    _close(got[1], ref[1], dtype, "input gradient", scale_tol)
    assert sorted(got[2]) == sorted(ref[2])
    for name in ref[2]:
        _close(got[2][name], ref[2][name], dtype, "gradient of " + name, scale_tol)


LAYERS = [
    ("dense", lambda: nn.Dense(7, activation="tanh"), (4, 10)),
    ("conv1d", lambda: nn.Conv1D(4, 3, padding=1), (2, 3, 9)),
    ("conv2d", lambda: nn.Conv2D(5, 3, strides=2, padding=1), (2, 3, 9, 9)),
    ("conv2d_groups", lambda: nn.Conv2D(6, 3, groups=3, in_channels=3), (2, 3, 7, 7)),
    ("conv3d", lambda: nn.Conv3D(2, 2), (1, 2, 4, 5, 5)),
    ("conv2d_transpose", lambda: nn.Conv2DTranspose(3, 3, strides=2), (2, 2, 5, 5)),
    ("maxpool", lambda: nn.MaxPool2D(2), (2, 3, 8, 8)),
    ("avgpool", lambda: nn.AvgPool2D(3, strides=2, padding=1), (2, 3, 8, 8)),
    ("global_avg", lambda: nn.GlobalAvgPool2D(), (2, 3, 5, 5)),
    ("batchnorm", lambda: nn.BatchNorm(), (4, 3, 5, 5)),
    ("instancenorm", lambda: nn.InstanceNorm(), (2, 3, 6)),
    ("layernorm", lambda: nn.LayerNorm(), (3, 8)),
    ("groupnorm", lambda: nn.GroupNorm(num_groups=2), (2, 4, 6)),
    ("embedding", None, None),
    ("leaky_relu", lambda: nn.LeakyReLU(0.1), (3, 8)),
    ("prelu", lambda: nn.PReLU(), (3, 8)),
    ("elu", lambda: nn.ELU(), (3, 8)),
    ("selu", lambda: nn.SELU(), (3, 8)),
    ("gelu", lambda: nn.GELU(), (3, 8)),
    ("swish", lambda: nn.Swish(), (3, 8)),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
@pytest.mark.parametrize("name,make,shape", [l for l in LAYERS if l[1] is not None],
                         ids=[l[0] for l in LAYERS if l[1] is not None])
def test_gluon_layers_match_the_cpu(name, make, shape, dtype):
    if dtype == np.float16 and name in ("conv3d", "selu", "gelu", "groupnorm", "instancenorm"):
        pytest.skip("float16 compared for the layers cuDNN runs in float16")
    _consistent(make, shape, dtype, scale_tol=5.0 if dtype == np.float16 else 1.0)


def test_embedding_gradient_matches_the_cpu():
    idx = np.array([[0, 3, 3], [5, 1, 0]], np.float64)

    def run(ctx, dtype, weight=None):
        emb = nn.Embedding(6, 4)
        emb.initialize(mx.init.Uniform(), ctx=ctx)
        emb.cast(dtype)
        if weight is not None:
            emb.weight.set_data(mx.nd.array(weight, ctx=ctx, dtype=dtype))
        with autograd.record():
            out = emb(mx.nd.array(idx, ctx=ctx, dtype=dtype))
        out.backward(mx.nd.ones_like(out))
        return out.asnumpy(), emb.weight.grad(ctx).asnumpy(), emb.weight.data(ctx).asnumpy()

    _, _, w = run(mx.cpu(), np.float64)
    ref = run(mx.cpu(), np.float64, w)
    got = run(DEV, np.float32, w)
    _close(got[0], ref[0], np.float32, "embedding output")
    _close(got[1], ref[1], np.float32, "embedding gradient")


RNNS = [
    ("lstm", lambda: rnn.LSTM(6, num_layers=2, layout="NTC")),
    ("gru_bidirectional", lambda: rnn.GRU(5, bidirectional=True, layout="NTC")),
    ("rnn_relu", lambda: rnn.RNN(4, activation="relu", layout="NTC")),
    ("lstm_projection", lambda: rnn.LSTM(6, projection_size=3, layout="NTC")),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name,make", RNNS, ids=[r[0] for r in RNNS])
def test_recurrent_layers_match_the_cpu(name, make, dtype):
    _consistent(make, (3, 5, 4), dtype)


class _Unrolled(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.cell = rnn.LSTMCell(5)

    def hybrid_forward(self, F, x):
        # Zero begin states in the input's dtype (the default ones are float32).
        zero = F.broadcast_axis(F.expand_dims(F.zeros_like(F.sum(x, axis=(1, 2))), axis=1),
                                axis=1, size=5)
        out, _ = self.cell.unroll(4, x, begin_state=[zero, zero], layout="NTC",
                                  merge_outputs=True)
        return out


def test_unrolled_lstm_cell_matches_the_cpu():
    _consistent(_Unrolled, (2, 4, 3), np.float32)


def _loss_block(loss, with_label):
    class LossOf(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.proj = nn.Dense(6)

        def hybrid_forward(self, F, x, label=None):
            return loss(self.proj(x), label)
    return LossOf


LOSSES = [
    ("l1", gluon.loss.L1Loss(), lambda rs: rs.uniform(-1, 1, (4, 6))),
    ("l2", gluon.loss.L2Loss(), lambda rs: rs.uniform(-1, 1, (4, 6))),
    ("huber", gluon.loss.HuberLoss(rho=0.5), lambda rs: rs.uniform(-1, 1, (4, 6))),
    ("softmax_ce_sparse", gluon.loss.SoftmaxCrossEntropyLoss(),
     lambda rs: rs.randint(0, 6, (4,)).astype(np.float64)),
    ("softmax_ce_dense", gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=False),
     lambda rs: np.eye(6)[rs.randint(0, 6, 4)]),
    ("sigmoid_bce", gluon.loss.SigmoidBinaryCrossEntropyLoss(),
     lambda rs: rs.randint(0, 2, (4, 6)).astype(np.float64)),
    ("kl_div", gluon.loss.KLDivLoss(from_logits=False),
     lambda rs: np.full((4, 6), 1.0 / 6)),
    ("hinge", gluon.loss.HingeLoss(), lambda rs: rs.choice([-1.0, 1.0], (4, 6))),
    ("squared_hinge", gluon.loss.SquaredHingeLoss(), lambda rs: rs.choice([-1.0, 1.0], (4, 6))),
    ("logistic", gluon.loss.LogisticLoss(), lambda rs: rs.choice([-1.0, 1.0], (4, 6))),
    ("poisson_nll", gluon.loss.PoissonNLLLoss(), lambda rs: rs.randint(0, 4, (4, 6)) * 1.0),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name,loss,label", LOSSES, ids=[l[0] for l in LOSSES])
def test_losses_and_their_gradients_match_the_cpu(name, loss, label, dtype):
    lab = label(np.random.RandomState(3))
    _consistent(_loss_block(loss, True), (4, 5), dtype, label=lab)


def test_ctc_loss_matches_the_cpu():
    class CTC(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.proj = nn.Dense(5, flatten=False)
            self.loss = gluon.loss.CTCLoss()

        def hybrid_forward(self, F, x, label):
            return self.loss(self.proj(x), label)

    _consistent(CTC, (2, 7, 3), np.float32, label=np.array([[1, 2, 2], [3, 1, 0]], np.float64))


MODELS = [("resnet18_v1", (8, 3, 32, 32), True), ("resnet18_v2", (2, 3, 32, 32), False),
          ("mobilenet0.25", (8, 3, 32, 32), True), ("mobilenetv2_0.25", (2, 3, 32, 32), False),
          ("squeezenet1.1", (1, 3, 224, 224), False)]


@pytest.mark.parametrize("name,shape,train", MODELS, ids=[m[0] for m in MODELS])
def test_model_zoo_forward_and_gradients_match_the_cpu(name, shape, train):
    # Training mode (batch statistics) where the batch keeps BatchNorm well conditioned; predict
    # mode (moving statistics, no Dropout) otherwise. Gradients are recorded either way.
    _consistent(lambda: vision.get_model(name, classes=10), shape, np.float32, train=train,
                scale_tol=10.0)


def _mlp():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(16, activation="relu"), nn.BatchNorm(), nn.Dense(4))
    return net


def _train_gluon(ctx, dtype, steps=5):
    rs = np.random.RandomState(7)
    x_all, y_all = rs.uniform(-1, 1, (steps, 8, 5)), rs.randint(0, 4, (steps, 8))
    mx.random.seed(3)
    net = _mlp()
    net.initialize(mx.init.Xavier(), ctx=mx.cpu())
    net(mx.nd.ones((8, 5)))
    init = {k: v.data().asnumpy() for k, v in net.collect_params().items()}
    net = _mlp()
    net.initialize(ctx=ctx)
    net.cast(dtype)
    net(mx.nd.ones((8, 5), ctx=ctx, dtype=dtype))
    for (k, v), (k0, v0) in zip(sorted(net.collect_params().items()), sorted(init.items())):
        v.set_data(mx.nd.array(v0, ctx=ctx, dtype=dtype))
    net.hybridize(static_alloc=True, static_shape=True)
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    for s in range(steps):
        x = mx.nd.array(x_all[s], ctx=ctx, dtype=dtype)
        y = mx.nd.array(y_all[s], ctx=ctx, dtype=dtype)
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(8)
    return [v.data(ctx).asnumpy() for _, v in sorted(net.collect_params().items())]


def test_hybridized_static_trainer_trains_to_the_cpu_parameters():
    ref = _train_gluon(mx.cpu(), np.float64)
    got = _train_gluon(DEV, np.float32)
    for g, r in zip(got, ref):
        _close(g, r, np.float32, "trained parameter", scale_tol=10.0)


def _fit_module(ctx):
    rs = np.random.RandomState(11)
    x, y = rs.uniform(-1, 1, (64, 6)).astype(np.float32), rs.randint(0, 3, 64)
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=12, name="fc1")
    act = mx.sym.Activation(fc1, act_type="relu")
    fc2 = mx.sym.FullyConnected(act, num_hidden=3, name="fc2")
    out = mx.sym.SoftmaxOutput(fc2, name="softmax")
    it = mx.io.NDArrayIter(x, y, batch_size=16, shuffle=False)
    mod = mx.mod.Module(out, context=ctx)
    mx.random.seed(5)
    mod.fit(it, num_epoch=2, optimizer="sgd",
            optimizer_params={"learning_rate": 0.1, "momentum": 0.9},
            initializer=mx.init.Xavier())
    args, _ = mod.get_params()
    return {k: v.asnumpy() for k, v in args.items()}


def test_module_fit_on_the_device_trains_like_the_cpu():
    ref, got = _fit_module(mx.cpu()), _fit_module(DEV)
    assert sorted(ref) == sorted(got)
    for k in ref:
        _close(got[k], ref[k].astype(np.float64), np.float32, k, scale_tol=10.0)
