#!/usr/bin/env python3
"""Train an MLP or LeNet on MNIST with the symbolic Module API.

By default it uses the 5,000-image MNIST subset bundled in data/mnist-5k (4,000 training and
1,000 test images), so it needs no download:

    python3 example/image-classification/train_mnist.py --network lenet

It logs progress with mx.callback.Speedometer, saves a checkpoint (prefix-symbol.json and
prefix-NNNN.params) at the end, and prints the final test accuracy. The script only uses
MXNet 1.x's public API, so it also runs on MXNet 1.9.1 (with unpacked idx files).
"""
import argparse
import gzip
import logging
import os
import shutil
import sys
import tempfile
import time

import mxnet as mx

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FILES = {"train_image": "train-images-idx3-ubyte", "train_label": "train-labels-idx1-ubyte",
         "test_image": "t10k-images-idx3-ubyte", "test_label": "t10k-labels-idx1-ubyte"}

# Defaults per network. With these LeNet reaches 97.5-98% test accuracy on the bundled data
# (MXNet 1.9.1, seeds 42 and 7): on 4,000 training images the dropout and the learning-rate
# drop after epoch 8 matter more than extra epochs.
DEFAULTS = {"mlp": dict(num_epochs=10, lr=0.1, batch_size=64, wd=1e-4, dropout=0.0,
                        lr_step_epochs="7"),
            "lenet": dict(num_epochs=12, lr=0.05, batch_size=64, wd=5e-4, dropout=0.5,
                          lr_step_epochs="8")}


def mlp_symbol(num_classes=10):
    """784-128-64-10 multilayer perceptron with ReLU."""
    data = mx.sym.Variable("data")
    data = mx.sym.Flatten(data=data)
    fc1 = mx.sym.FullyConnected(data=data, name="fc1", num_hidden=128)
    act1 = mx.sym.Activation(data=fc1, name="relu1", act_type="relu")
    fc2 = mx.sym.FullyConnected(data=act1, name="fc2", num_hidden=64)
    act2 = mx.sym.Activation(data=fc2, name="relu2", act_type="relu")
    fc3 = mx.sym.FullyConnected(data=act2, name="fc3", num_hidden=num_classes)
    return mx.sym.SoftmaxOutput(data=fc3, name="softmax")


def lenet_symbol(num_classes=10, act_type="relu", dropout=0.0):
    """LeNet (LeCun et al. 1998): conv(20, 5x5)-act-maxpool-conv(50, 5x5)-act-maxpool-fc500-act-
    fc10, with ReLU activations by default (the original used tanh) and optional dropout
    before the last layer."""
    data = mx.sym.Variable("data")
    conv1 = mx.sym.Convolution(data=data, kernel=(5, 5), num_filter=20, name="conv1")
    act1 = mx.sym.Activation(data=conv1, act_type=act_type, name="act1")
    pool1 = mx.sym.Pooling(data=act1, pool_type="max", kernel=(2, 2), stride=(2, 2),
                           name="pool1")
    conv2 = mx.sym.Convolution(data=pool1, kernel=(5, 5), num_filter=50, name="conv2")
    act2 = mx.sym.Activation(data=conv2, act_type=act_type, name="act2")
    pool2 = mx.sym.Pooling(data=act2, pool_type="max", kernel=(2, 2), stride=(2, 2),
                           name="pool2")
    flatten = mx.sym.Flatten(data=pool2)
    fc1 = mx.sym.FullyConnected(data=flatten, num_hidden=500, name="fc1")
    act3 = mx.sym.Activation(data=fc1, act_type=act_type, name="act3")
    if dropout > 0:
        act3 = mx.sym.Dropout(data=act3, p=dropout, name="drop1")
    fc2 = mx.sym.FullyConnected(data=act3, num_hidden=num_classes, name="fc2")
    return mx.sym.SoftmaxOutput(data=fc2, name="softmax")


def find_data(data_dir, scratch):
    """Paths of the four idx files: plain files if present, else the .gz ones. With
    --unzip (or for a library whose MNISTIter reads only plain files) they are unpacked."""
    paths = {}
    for key, base in FILES.items():
        plain = os.path.join(data_dir, base)
        packed = plain + ".gz"
        if os.path.exists(plain):
            paths[key] = plain
        elif os.path.exists(packed):
            if scratch is None:
                paths[key] = packed
            else:
                paths[key] = os.path.join(scratch, base)
                with gzip.open(packed, "rb") as fin, open(paths[key], "wb") as fout:
                    shutil.copyfileobj(fin, fout)
        else:
            sys.exit("MNIST file %s(.gz) not found in %s" % (base, data_dir))
    return paths


def count_images(label_path):
    """Number of labels in an idx label file (big-endian count after the magic)."""
    opener = gzip.open if label_path.endswith(".gz") else open
    with opener(label_path, "rb") as f:
        header = f.read(8)
    return int.from_bytes(header[4:8], "big")


def get_iters(args, paths):
    flat = args.network == "mlp"
    train = mx.io.MNISTIter(image=paths["train_image"], label=paths["train_label"],
                            batch_size=args.batch_size, shuffle=True, flat=flat, seed=args.seed,
                            silent=True)
    # 100 divides the 1,000 test images, so every image is scored.
    test = mx.io.MNISTIter(image=paths["test_image"], label=paths["test_label"],
                           batch_size=args.test_batch_size, shuffle=False, flat=flat,
                           silent=True)
    return train, test


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="train an MLP or LeNet on MNIST (Module API)",
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--network", choices=("mlp", "lenet"), default="lenet")
    parser.add_argument("--num-epochs", type=int, help="default: 10 (mlp) / 12 (lenet)")
    parser.add_argument("--batch-size", type=int, help="default: 64")
    parser.add_argument("--lr", type=float, help="default: 0.1 (mlp) / 0.05 (lenet)")
    parser.add_argument("--act", default="relu", help="LeNet activation (relu, tanh, ...)")
    parser.add_argument("--dropout", type=float, help="LeNet dropout before fc2 (default 0.5)")
    parser.add_argument("--test-batch-size", type=int, default=100)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--wd", type=float, help="default: 1e-4 (mlp) / 5e-4 (lenet)")
    parser.add_argument("--optimizer", default="sgd")
    parser.add_argument("--lr-factor", type=float, default=0.1,
                        help="multiply the learning rate by this at each --lr-step-epochs")
    parser.add_argument("--lr-step-epochs",
                        help="comma-separated epochs after which the learning rate drops "
                             "(default: 7 (mlp) / 8 (lenet); '' for none)")
    parser.add_argument("--data-dir", default=os.path.join(REPO, "data", "mnist-5k"))
    parser.add_argument("--unzip", action="store_true",
                        help="unpack .gz files to a temporary directory first")
    parser.add_argument("--model-prefix", default=None,
                        help="checkpoint prefix (default: <tmp>/mnist-<network>)")
    parser.add_argument("--disp-batches", type=int, default=20,
                        help="log speed and training accuracy every this many batches")
    parser.add_argument("--gpus", default="",
                        help="GPUs to train on, e.g. 0 or 0,1 (empty: the CPU)")
    parser.add_argument("--kv-store", default="local")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    for key, value in DEFAULTS[args.network].items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.model_prefix is None:
        args.model_prefix = os.path.join(tempfile.gettempdir(), "mnist-%s" % args.network)
    return args


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.info("arguments: %s", vars(args))
    mx.random.seed(args.seed)
    scratch = tempfile.mkdtemp() if args.unzip else None
    try:
        paths = find_data(args.data_dir, scratch)
        train, test = get_iters(args, paths)
        net = mlp_symbol() if args.network == "mlp" else lenet_symbol(act_type=args.act, dropout=args.dropout)

        steps_per_epoch = count_images(paths["train_label"]) // args.batch_size
        lr_scheduler = None
        if args.lr_step_epochs:
            steps = [int(e) * steps_per_epoch for e in args.lr_step_epochs.split(",")]
            lr_scheduler = mx.lr_scheduler.MultiFactorScheduler(step=steps,
                                                                factor=args.lr_factor,
                                                                base_lr=args.lr)
        optimizer_params = {"learning_rate": args.lr, "wd": args.wd}
        if args.optimizer in ("sgd", "nag"):
            optimizer_params["momentum"] = args.momentum
        if lr_scheduler is not None:
            optimizer_params["lr_scheduler"] = lr_scheduler

        context = [mx.gpu(int(i)) for i in args.gpus.split(",")] if args.gpus else mx.cpu()
        mod = mx.mod.Module(net, context=context)
        tic = time.time()
        mod.fit(train, eval_data=test, eval_metric="acc",
                optimizer=args.optimizer, optimizer_params=optimizer_params,
                initializer=mx.init.Xavier(rnd_type="gaussian", factor_type="in",
                                           magnitude=2),
                kvstore=args.kv_store, num_epoch=args.num_epochs,
                batch_end_callback=mx.callback.Speedometer(args.batch_size,
                                                           args.disp_batches),
                epoch_end_callback=None)
        logging.info("training took %.1f s", time.time() - tic)

        mod.save_checkpoint(args.model_prefix, args.num_epochs)
        # Reload the checkpoint and score it, so the printed number is what was saved.
        sym, arg_params, aux_params = mx.model.load_checkpoint(args.model_prefix,
                                                               args.num_epochs)
        check = mx.mod.Module(sym, context=mx.cpu())
        check.bind(data_shapes=test.provide_data, label_shapes=test.provide_label,
                   for_training=False)
        check.set_params(arg_params, aux_params)
        acc = dict(check.score(test, mx.metric.Accuracy()))["accuracy"]
        print("checkpoint: %s-symbol.json, %s-%04d.params"
              % (args.model_prefix, args.model_prefix, args.num_epochs))
        print("final test accuracy (%s, %d epochs): %.4f" % (args.network, args.num_epochs, acc))
        return acc
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
