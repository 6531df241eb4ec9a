#!/usr/bin/env python3
"""Train an MLP or LeNet on MNIST imperatively: mx.nd operators recorded with mx.autograd,
updated by an mx.optimizer Updater, in a plain Python loop (no Module, no Gluon).

    python3 example/image-classification/train_mnist_autograd.py --network lenet

Uses the bundled 5,000-image MNIST subset in data/mnist-5k like train_mnist.py.
"""
import argparse
import logging
import os
import shutil
import sys
import tempfile
import time

import mxnet as mx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_mnist import DEFAULTS, REPO, find_data  # noqa: E402  pylint: disable=wrong-import-position


def mlp_params():
    return [("fc1_weight", (128, 784)), ("fc1_bias", (128,)), ("fc2_weight", (64, 128)),
            ("fc2_bias", (64,)), ("fc3_weight", (10, 64)), ("fc3_bias", (10,))]


def mlp_forward(x, p):
    h = mx.nd.relu(mx.nd.FullyConnected(x, p["fc1_weight"], p["fc1_bias"], num_hidden=128))
    h = mx.nd.relu(mx.nd.FullyConnected(h, p["fc2_weight"], p["fc2_bias"], num_hidden=64))
    return mx.nd.FullyConnected(h, p["fc3_weight"], p["fc3_bias"], num_hidden=10)


def lenet_params():
    return [("conv1_weight", (20, 1, 5, 5)), ("conv1_bias", (20,)),
            ("conv2_weight", (50, 20, 5, 5)), ("conv2_bias", (50,)),
            ("fc1_weight", (500, 800)), ("fc1_bias", (500,)),
            ("fc2_weight", (10, 500)), ("fc2_bias", (10,))]


def lenet_forward(x, p):
    h = mx.nd.Convolution(x, p["conv1_weight"], p["conv1_bias"], kernel=(5, 5), num_filter=20)
    h = mx.nd.Pooling(mx.nd.relu(h), pool_type="max", kernel=(2, 2), stride=(2, 2))
    h = mx.nd.Convolution(h, p["conv2_weight"], p["conv2_bias"], kernel=(5, 5), num_filter=50)
    h = mx.nd.Pooling(mx.nd.relu(h), pool_type="max", kernel=(2, 2), stride=(2, 2))
    h = mx.nd.relu(mx.nd.FullyConnected(mx.nd.Flatten(h), p["fc1_weight"], p["fc1_bias"],
                                        num_hidden=500))
    return mx.nd.FullyConnected(h, p["fc2_weight"], p["fc2_bias"], num_hidden=10)


def evaluate(forward, params, data_iter):
    """Accuracy over the whole iterator (padding excluded)."""
    metric = mx.metric.Accuracy()
    data_iter.reset()
    for batch in data_iter:
        out = forward(batch.data[0], params)
        keep = out.shape[0] - (batch.pad or 0)
        metric.update([batch.label[0][:keep]], [out[:keep]])
    return metric.get()[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description="train on MNIST with mx.autograd",
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--network", choices=("mlp", "lenet"), default="lenet")
    parser.add_argument("--num-epochs", type=int)
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--lr", type=float)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--wd", type=float)
    parser.add_argument("--optimizer", default="sgd")
    parser.add_argument("--data-dir", default=os.path.join(REPO, "data", "mnist-5k"))
    parser.add_argument("--unzip", action="store_true")
    parser.add_argument("--disp-batches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    for key, value in DEFAULTS[args.network].items():
        if getattr(args, key, "absent") is None:
            setattr(args, key, value)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    mx.random.seed(args.seed)

    scratch = tempfile.mkdtemp() if args.unzip else None
    try:
        paths = find_data(args.data_dir, scratch)
        flat = args.network == "mlp"
        train = mx.io.MNISTIter(image=paths["train_image"], label=paths["train_label"],
                                batch_size=args.batch_size, shuffle=True, flat=flat,
                                seed=args.seed, silent=True)
        test = mx.io.MNISTIter(image=paths["test_image"], label=paths["test_label"],
                               batch_size=100, shuffle=False, flat=flat, silent=True)
        shapes, forward = (mlp_params(), mlp_forward) if flat else (lenet_params(),
                                                                    lenet_forward)
        init = mx.init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2)
        params = {}
        for name, shape in shapes:
            arr = mx.nd.zeros(shape)
            init(mx.init.InitDesc(name), arr)
            arr.attach_grad()
            params[name] = arr
        names = [name for name, _ in shapes]
        # The loss is a batch mean, so gradients need no rescaling.
        kwargs = {"learning_rate": args.lr, "wd": args.wd,
                  "param_idx2name": dict(enumerate(names))}
        if args.optimizer in ("sgd", "nag"):
            kwargs["momentum"] = args.momentum
        updater = mx.optimizer.get_updater(mx.optimizer.create(args.optimizer, **kwargs))

        for epoch in range(args.num_epochs):
            tic = time.time()
            train.reset()
            metric = mx.metric.Accuracy()
            for nbatch, batch in enumerate(train):
                x, y = batch.data[0], batch.label[0]
                with mx.autograd.record():
                    out = forward(x, params)
                    loss = -mx.nd.pick(mx.nd.log_softmax(out), y).mean()
                loss.backward()
                updater(list(range(len(names))), [params[n].grad for n in names],
                        [params[n] for n in names])
                metric.update([y], [out])
                if args.disp_batches and nbatch % args.disp_batches == 0 and nbatch:
                    logging.info("Epoch[%d] Batch[%d] loss=%.4f train-acc=%.4f", epoch, nbatch,
                                 loss.asscalar(), metric.get()[1])
            samples = (nbatch + 1) * args.batch_size
            logging.info("Epoch[%d] Train-accuracy=%f Time cost=%.3f (%.0f samples/s)", epoch,
                         metric.get()[1], time.time() - tic, samples / (time.time() - tic))
            logging.info("Epoch[%d] Validation-accuracy=%f", epoch,
                         evaluate(forward, params, test))
        acc = evaluate(forward, params, test)
        print("final test accuracy (%s, autograd, %d epochs): %.4f"
              % (args.network, args.num_epochs, acc))
        return acc
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
