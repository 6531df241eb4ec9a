#!/usr/bin/env python3
"""Soak test of gluon.data loading: many epochs of a tiny dataset through loaders with two
workers, watching resident memory, open file descriptors and threads for growth.

    PYTHONPATH=python python3 benchmark/soak/soak_dataloader.py [--epochs 1000] [--max-slope 100]

Loaders (--loaders, comma-separated; all by default):
  dataloader        one gluon.data.DataLoader(num_workers=2) iterated every epoch (its worker
                    threads are made once and reused)
  dataloader-fresh  a new DataLoader(num_workers=2) every epoch (its pool must be let go)
  v1                a DataLoaderV1(num_workers=2) iterated every epoch (two forked worker
                    processes and a fetcher thread per epoch)

The dataset: --samples samples of (image 1x8x8 float32, int label), batch --batch-size, with a
little per-sample work (a transform). After --warmup epochs the process's RSS, open fds and
threads are sampled after every --sample-every epochs; the RSS slope is a least-squares fit
against the epoch. Exits 1 if a slope exceeds --max-slope KiB per 1,000 epochs or fds/threads
grew.
"""
import argparse
import gc
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak_common import Samples, report  # noqa: E402

import mxnet as mx  # noqa: E402
from mxnet.gluon.data import ArrayDataset, DataLoader  # noqa: E402
from mxnet.gluon.data.dataloader import DataLoaderV1  # noqa: E402

LOADERS = ('dataloader', 'dataloader-fresh', 'v1')


def make_dataset(n):
    rng = np.random.RandomState(0)
    images = rng.uniform(0, 1, (n, 1, 8, 8)).astype(np.float32)
    labels = rng.randint(0, 10, n).astype(np.int32)
    return ArrayDataset(images, labels).transform_first(lambda x: x * 2 - 1, lazy=True)


def _settle():
    """Before a sample: collect finished loaders and drain the engine."""
    gc.collect()
    mx.nd.waitall()


def run_loader(kind, dataset, args):
    expected = None
    samples = Samples(kind, args.warmup, args.sample_every)
    persistent = DataLoader(dataset, batch_size=args.batch_size, num_workers=2) \
        if kind == 'dataloader' else None
    start = time.perf_counter()
    for epoch in range(args.epochs):
        if kind == 'dataloader':
            loader = persistent
        elif kind == 'dataloader-fresh':
            loader = DataLoader(dataset, batch_size=args.batch_size, num_workers=2)
        else:
            loader = DataLoaderV1(dataset, batch_size=args.batch_size, num_workers=2)
        total = 0.0
        for data, label in loader:
            total += float(data.sum().asscalar()) + float(label.sum().asscalar())
        if expected is None:
            expected = total
        elif abs(total - expected) > 1e-3 * max(1.0, abs(expected)):
            raise SystemExit('%s: epoch %d sums to %r, the first to %r' % (kind, epoch, total,
                                                                         expected))
        del loader
        samples.maybe_sample(epoch, _settle)
    took = time.perf_counter() - start
    print('%-17s %6d epochs in %6.1f s (%.1f ms/epoch)' % (kind, args.epochs, took,
                                                         took / args.epochs * 1e3), flush=True)
    return samples


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--epochs', type=int, default=1000, help='epochs per loader')
    parser.add_argument('--warmup', type=int, help='epochs before the first sample '
                        '(default: a fifth of --epochs, at most 100)')
    parser.add_argument('--sample-every', type=int,
                        help='epochs between samples (default: 50 samples after the warm-up)')
    parser.add_argument('--max-slope', type=float, default=100.0,
                        help='largest RSS growth allowed, KiB per 1,000 epochs')
    parser.add_argument('--loaders', default=','.join(LOADERS),
                        help='comma-separated loaders: ' + ', '.join(LOADERS))
    parser.add_argument('--samples', type=int, default=64, help='dataset size')
    parser.add_argument('--batch-size', type=int, default=8)
    args = parser.parse_args(argv)
    if args.warmup is None:
        args.warmup = min(100, args.epochs // 5)
    if args.sample_every is None:
        args.sample_every = max(1, (args.epochs - args.warmup) // 50)
    args.loaders = [k for k in args.loaders.split(',') if k]
    unknown = set(args.loaders) - set(LOADERS)
    if unknown:
        parser.error('unknown loaders: %s' % ', '.join(sorted(unknown)))
    return args


def main(argv=None):
    args = parse_args(argv)
    dataset = make_dataset(args.samples)
    print('%d epochs per loader of %d samples (batch %d), warm-up %d, a sample every %d epochs'
          % (args.epochs, args.samples, args.batch_size, args.warmup, args.sample_every),
          flush=True)
    all_samples = [run_loader(kind, dataset, args) for kind in args.loaders]
    print()
    failures = report(all_samples, args.max_slope, unit='epochs')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
