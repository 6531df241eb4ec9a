#!/usr/bin/env python3
"""Train an ImageNet-style ResNet with Gluon, on synthetic data (the default, MXNet 1.x's
`--benchmark 1`) or on an ImageNet RecordIO file (`--benchmark 0 --data-train x.rec`):

    python3 example/image-classification/train_imagenet.py --gpus 0 --num-layers 50 \\
        --batch-size 128 --dtype float16 --num-epochs 1 --num-examples 12800

The network is the model zoo's ResNet v1 (`--num-layers` 18, 34, 50, 101 or 152), hybridized
with static memory; float16 keeps float32 master weights (multi-precision SGD). It logs the
speed every `--disp-batches` batches (`Epoch[e] Batch [b] Speed: N samples/sec loss=...`) and
prints the mean speed of the run at the end.
"""
import argparse
import logging
import time

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon.model_zoo import vision


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="train a ResNet on ImageNet-shaped data",
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--num-layers", type=int, default=50, choices=(18, 34, 50, 101, 152))
    parser.add_argument("--num-classes", type=int, default=1000)
    parser.add_argument("--image-shape", default="3,224,224", help="channels,height,width")
    parser.add_argument("--batch-size", type=int, default=128, help="per device")
    parser.add_argument("--num-examples", type=int, default=1281167,
                        help="images per epoch")
    parser.add_argument("--num-epochs", type=int, default=1)
    parser.add_argument("--max-batches", type=int, default=0,
                        help="stop each epoch after this many batches (0: the whole epoch)")
    parser.add_argument("--gpus", default="", help="GPUs, e.g. 0 or 0,1 (empty: the CPU)")
    parser.add_argument("--kv-store", default="device")
    parser.add_argument("--dtype", default="float32", choices=("float32", "float16"))
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--mom", type=float, default=0.9)
    parser.add_argument("--wd", type=float, default=1e-4)
    parser.add_argument("--benchmark", type=int, default=1,
                        help="1: synthetic data; 0: read --data-train")
    parser.add_argument("--data-train", default=None, help="ImageNet .rec file (benchmark 0)")
    parser.add_argument("--data-nthreads", type=int, default=4)
    parser.add_argument("--disp-batches", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not args.benchmark and not args.data_train:
        parser.error("--benchmark 0 needs --data-train")
    return args


class SyntheticBatches(object):
    """The same random batch every step (on the host, as a data iterator gives it), so the
    measured speed is the network's."""

    def __init__(self, batch_size, shape, num_classes, num_batches, seed):
        rs = np.random.RandomState(seed)
        self.data = mx.nd.array(rs.uniform(-1, 1, (batch_size,) + shape))
        self.label = mx.nd.array(rs.randint(0, num_classes, (batch_size,)))
        self.num_batches = num_batches

    def __iter__(self):
        for _ in range(self.num_batches):
            yield self.data, self.label


def record_batches(args, batch_size, shape, num_batches):
    it = mx.io.ImageRecordIter(path_imgrec=args.data_train, data_shape=shape,
                               batch_size=batch_size, shuffle=True, rand_crop=True,
                               rand_mirror=True, preprocess_threads=args.data_nthreads)
    for i, batch in enumerate(it):
        if i >= num_batches:
            break
        yield batch.data[0], batch.label[0]


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.info("arguments: %s", vars(args))
    mx.random.seed(args.seed)
    contexts = [mx.gpu(int(i)) for i in args.gpus.split(",")] if args.gpus else [mx.cpu()]
    shape = tuple(int(d) for d in args.image_shape.split(","))
    batch_size = args.batch_size * len(contexts)

    net = vision.get_resnet(1, args.num_layers, classes=args.num_classes)
    net.initialize(mx.init.Xavier(rnd_type="gaussian", factor_type="in", magnitude=2),
                   ctx=contexts)
    if args.dtype == "float16":
        net.cast("float16")
    net.hybridize(static_alloc=True, static_shape=True)
    steps = max(1, args.num_examples // batch_size)
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": args.lr, "momentum": args.mom, "wd": args.wd,
                             "multi_precision": args.dtype == "float16",
                             "lr_scheduler": mx.lr_scheduler.CosineScheduler(
                                 max_update=steps * args.num_epochs, base_lr=args.lr)},
                            kvstore=args.kv_store)
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    num_batches = min(steps, args.max_batches) if args.max_batches else steps

    speeds = []
    for epoch in range(args.num_epochs):
        data = (SyntheticBatches(batch_size, shape, args.num_classes, num_batches,
                                 args.seed + epoch) if args.benchmark
                else record_batches(args, batch_size, shape, num_batches))
        tic = time.time()
        epoch_tic = tic
        for nbatch, (x, y) in enumerate(data):
            xs = gluon.utils.split_and_load(x.astype(args.dtype), contexts, even_split=False)
            ys = gluon.utils.split_and_load(y, contexts, even_split=False)
            with autograd.record():
                losses = [loss_fn(net(xi), yi) for xi, yi in zip(xs, ys)]
            autograd.backward(losses)
            trainer.step(batch_size)
            if (nbatch + 1) % args.disp_batches == 0:
                loss = float(np.mean([l.mean().asscalar() for l in losses]))
                speed = args.disp_batches * batch_size / (time.time() - tic)
                speeds.append(speed)
                logging.info("Epoch[%d] Batch [%d] Speed: %.2f samples/sec loss=%.4f",
                             epoch, nbatch + 1, speed, loss)
                tic = time.time()
        mx.nd.waitall()
        logging.info("Epoch[%d] Time cost=%.1f", epoch, time.time() - epoch_tic)
    final_loss = float(np.mean([l.mean().asscalar() for l in losses]))
    mean_speed = float(np.mean(speeds[1:] if len(speeds) > 1 else speeds)) if speeds else 0.0
    print("resnet%d %s on %s: final loss %.4f, %.1f samples/sec"
          % (args.num_layers, args.dtype, ",".join(str(c) for c in contexts), final_loss,
             mean_speed))
    return final_loss, mean_speed


if __name__ == "__main__":
    main()
