"""Runs GluonCV / GluonNLP model-zoo networks and writes what they computed to an .npz.

Usage: python client_libs_nets.py OUT.npz NET [NET ...]   (run by test_client_libs.py, once
under MXNet 1.9.1 and once under this checkout, with the same arguments).

Every network is built with pretrained=False (no download), its parameters set from a fixed
NumPy seed in the order the network lists them (so both interpreters start from the same
values whatever their initializers draw), and then:
  fwd    the forward pass, imperative, in inference mode, in float32;
  hyb    the same after hybridize();
  loss   one training step on the hybridized network, in float64 where 1.9.1 allows it (see
         NETS): autograd.record, backward, SGD with momentum and weight decay through
         gluon.Trainer; its loss, and
  n<i>   the norm of how that step changed each parameter (BatchNorm running statistics
         included), and
  u<i>   the change itself at 2048 elements spread over the parameter (the arrays of a
         ResNet-18 are large).
A failure is written as NET/error (the traceback) so that the other networks still run.
"""
import sys
import traceback

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon

import gluoncv
import gluonnlp

DTYPE = "float32"  # of the network being run (see run)


def arr(value):
    return mx.nd.array(value, dtype=DTYPE)


def set_params(net, seed, fixed_gammas=()):
    """Every parameter from RandomState(seed), in listing order; scaled to keep deep random
    networks' activations moderate. The BatchNorm gammas whose names contain a string of
    `fixed_gammas` are set to 1. Returns the parameter names."""
    rng = np.random.RandomState(seed)
    names = []
    for name, param in net.collect_params().items():
        shape = param.shape
        if name.endswith("gamma") and any(part in name for part in fixed_gammas):
            value = np.ones(shape)
        elif name.endswith(("running_var", "moving_var", "gamma")):
            value = rng.uniform(0.5, 1.5, shape)
        elif name.endswith(("running_mean", "moving_mean", "beta", "bias")) or len(shape) == 1:
            value = rng.uniform(-0.1, 0.1, shape)
        else:
            value = rng.normal(0, 1.0 / np.sqrt(np.prod(shape[1:])), shape)
        param.set_data(mx.nd.array(value, dtype=param.dtype))
        names.append(name)
    return names


def sample(size, count=2048):
    """Indices of at most `count` elements spread evenly over a flat array of `size`."""
    return np.unique(np.linspace(0, size - 1, min(size, count)).astype(np.int64))


def flat(out):
    """The NDArrays of a (nested) network output, in order."""
    if isinstance(out, (list, tuple)):
        return [a for o in out for a in flat(o)]
    return [out]


def train_step(net, params, loss_fn):
    trainer = gluon.Trainer(params, "sgd", {"learning_rate": 0.05, "momentum": 0.9, "wd": 1e-4})
    with autograd.record():
        loss = loss_fn()
    loss.backward()
    trainer.step(1)
    return loss


# ---- the networks: each returns (net, forward(net) -> output, loss(net) -> scalar loss); ----
# ---- inputs are made when called, in the type the network has then (DTYPE) -----------------

def gcv_classifier(name, size=64):
    def build():
        net = gluoncv.model_zoo.get_model(name, pretrained=False)
        x = np.random.RandomState(1).uniform(-1, 1, (2, 3, size, size))
        ce = gluon.loss.SoftmaxCrossEntropyLoss()
        return net, (lambda n: n(arr(x))), (lambda n: ce(n(arr(x)), arr([3, 7])).mean())
    return build


def gcv_ssd():
    net = gluoncv.model_zoo.get_model("ssd_512_mobilenet1.0_voc", pretrained=False,
                                      pretrained_base=False)
    x = np.random.RandomState(2).uniform(-1, 1, (1, 3, 128, 128))

    def loss(n):  # in training mode SSD returns class scores, box offsets and anchors
        cls_preds, box_preds, _ = n(arr(x))
        return mx.nd.log_softmax(cls_preds, axis=-1)[:, :, 0].mean() * -1 + \
            (box_preds * box_preds).mean()
    return net, (lambda n: n(arr(x))), loss


def gcv_center_net():
    net = gluoncv.model_zoo.get_model("center_net_resnet18_v1b_voc", pretrained=False,
                                      pretrained_base=False)
    x = np.random.RandomState(4).uniform(-1, 1, (1, 3, 128, 128))

    def loss(n):  # in training mode: heatmap, box size and offset maps
        heatmap, wh, offset = n(arr(x))
        return heatmap.sigmoid().mean() + (wh * wh).mean() * 1e-3 + (offset * offset).mean()
    return net, (lambda n: n(arr(x))), loss


def nlp_vocab():
    text = "the quick brown fox jumps over the lazy dog and the cat sat on the mat".split()
    return gluonnlp.Vocab(gluonnlp.data.count_tokens(text))


def nlp_lstm_lm():
    vocab = nlp_vocab()
    net, _ = gluonnlp.model.get_model("standard_lstm_lm_200", dataset_name=None, vocab=vocab,
                                      pretrained=False, dropout=0)
    rng = np.random.RandomState(5)
    data = rng.randint(0, len(vocab), (6, 2))  # (time, batch)
    target = rng.randint(0, len(vocab), (6, 2))
    ce = gluon.loss.SoftmaxCrossEntropyLoss()

    def forward(n):
        return n(arr(data), n.begin_state(batch_size=2, func=mx.nd.zeros))

    def loss(n):
        out, _ = forward(n)
        return ce(out, arr(target)).mean()
    return net, forward, loss


def nlp_bert_small():
    vocab = nlp_vocab()
    encoder = gluonnlp.model.BERTEncoder(num_layers=2, units=32, hidden_size=64, num_heads=4,
                                         max_length=16, dropout=0.0)
    net = gluonnlp.model.BERTModel(encoder, vocab_size=len(vocab), token_type_vocab_size=2,
                                   units=32, embed_size=32, use_pooler=True, use_decoder=True,
                                   use_classifier=True)
    rng = np.random.RandomState(6)
    tokens = rng.randint(0, len(vocab), (2, 8))
    types = rng.randint(0, 2, (2, 8))
    ce = gluon.loss.SoftmaxCrossEntropyLoss()

    def forward(n):  # valid lengths 8 and 5; two masked positions per sequence
        return n(arr(tokens), arr(types), arr([8, 5]), arr([[1, 3], [0, 2]]))

    def loss(n):
        _, _, nsp, mlm = forward(n)
        return ce(nsp, arr([0, 1])).mean() + ce(mlm, arr([[2, 4], [1, 5]])).mean()
    return net, forward, loss


# name: (builder, type of the training step (None: no step), gammas set to 1).
# The forward passes run in float32. The training step runs in float64 where 1.9.1 allows it:
# in float32 a last-bit difference in the forward pass flips ReLUs near zero and, through
# BatchNorm over small batches, changes some gradients by percents, while in float64 both
# agree to ~1e-13 (1.9.1's CPU transformer attention is float32 only, hence BERT's).
# MobileNetV3 has Dropout before its classifier (random masks differ): forward only.
# SSD's FeatureExpander makes BatchNorm symbols with fix_gamma=True: their gamma is read as 1,
# and 1.9.1 also writes 1 into the gamma array when such a layer runs (in every mode but the
# imperative float32 inference one); this checkout leaves the array alone. They start at 1.
NETS = {
    "resnet18_v1b": (gcv_classifier("resnet18_v1b"), "float64", ()),
    "mobilenet1.0": (gcv_classifier("mobilenet1.0"), "float64", ()),
    "mobilenetv3_small": (gcv_classifier("mobilenetv3_small"), None, ()),
    "ssd_512_mobilenet1.0_voc": (gcv_ssd, "float64", ("_expand_bn", "_expand_trans_bn")),
    "center_net_resnet18_v1b_voc": (gcv_center_net, "float64", ()),
    "standard_lstm_lm_200": (nlp_lstm_lm, "float64", ()),
    "bert_small": (nlp_bert_small, "float32", ()),
}


def run(name, out):
    global DTYPE  # pylint: disable=global-statement
    builder, train_dtype, fixed_gammas = NETS[name]
    DTYPE = "float32"
    mx.random.seed(0)
    net, forward, loss_fn = builder()
    net.initialize()
    forward(net)  # finishes deferred initialization
    out[name + "/names"] = np.array(set_params(net, seed=10, fixed_gammas=fixed_gammas))
    for i, a in enumerate(flat(forward(net))):
        out["%s/fwd%d" % (name, i)] = a.asnumpy()
    net.hybridize()
    for i, a in enumerate(flat(forward(net))):
        out["%s/hyb%d" % (name, i)] = a.asnumpy()
    if train_dtype:
        DTYPE = train_dtype
        net.cast(train_dtype)
        # Detection networks trace another graph in training mode: hybridize() again drops
        # the cached inference graph, as one does in 1.9.1.
        net.hybridize()
        params = net.collect_params()
        before = [param.data().copy() for param in params.values()]
        out[name + "/loss"] = train_step(net, params, lambda: loss_fn(net)).asnumpy()
        for i, (param, start) in enumerate(zip(params.values(), before)):
            change = (param.data() - start).asnumpy().ravel()
            out["%s/n%d" % (name, i)] = np.linalg.norm(change)
            out["%s/u%d" % (name, i)] = change[sample(change.size)]


def main():
    out = {"mxnet_file": np.array(mx.__file__), "gluoncv_file": np.array(gluoncv.__file__)}
    for name in sys.argv[2:]:
        result = {}
        try:
            run(name, result)
            out.update(result)
        except Exception:  # pylint: disable=broad-except
            out[name + "/error"] = np.array(traceback.format_exc())
    np.savez(sys.argv[1], **out)


if __name__ == "__main__":
    main()
