"""CPU timings of the operators that commit 0ead55d rewrote as per-pixel functors shared with the
GPU: _image_resize (uint8, bilinear and area), _image_adjust_lighting, Correlation and
PSROIPooling, on realistic shapes. Uses only the public mx.nd API, so the same script runs under
this package and under a reference MXNet (e.g. 1.9.1) for comparison:

    PYTHONPATH=python python3 benchmark/python/cpu_regressions_0ead55d.py [--reps 30] [--only NAME]
    /path/to/mx191/bin/python benchmark/python/cpu_regressions_0ead55d.py

Prints the median (and min) wall time per call in ms, each call followed by a wait_to_read.
"""
import argparse
import os
import time

import numpy as np
import mxnet as mx


def bench(fn, reps):
    out = fn()
    out.wait_to_read()
    for _ in range(3):
        fn().wait_to_read()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn().wait_to_read()
        times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times)), float(np.min(times))


def cases():
    rng = np.random.RandomState(0)
    img = mx.nd.array(rng.randint(0, 256, (480, 640, 3)), dtype='uint8')
    batch = mx.nd.array(rng.randint(0, 256, (8, 480, 640, 3)), dtype='uint8')
    imgf = mx.nd.array(rng.uniform(0, 255, (224, 224, 3)), dtype='float32')
    yield ('resize u8 480x640x3 -> 224 bilinear',
           lambda: mx.nd.image.resize(img, size=(224, 224)))
    yield ('resize u8 480x640x3 -> 224 area',
           lambda: mx.nd.image.resize(img, size=(224, 224), interp=3))
    yield ('resize u8 8x480x640x3 -> 224 bilinear',
           lambda: mx.nd.image.resize(batch, size=(224, 224)))
    yield ('resize u8 8x480x640x3 -> 224 area',
           lambda: mx.nd.image.resize(batch, size=(224, 224), interp=3))
    yield ('adjust_lighting f32 224x224x3',
           lambda: mx.nd.image.adjust_lighting(imgf, alpha=(0.1, 0.2, 0.3)))
    d1 = mx.nd.array(rng.uniform(-1, 1, (8, 64, 48, 64)), dtype='float32')
    d2 = mx.nd.array(rng.uniform(-1, 1, (8, 64, 48, 64)), dtype='float32')
    yield ('Correlation (8,64,48,64) k1 d4',
           lambda: mx.nd.Correlation(d1, d2, kernel_size=1, max_displacement=4, stride1=1,
                                     stride2=1, pad_size=4))
    feat = mx.nd.array(rng.uniform(0, 1, (1, 21 * 7 * 7, 38, 50)), dtype='float32')
    x1 = rng.uniform(0, 500, 300)
    y1 = rng.uniform(0, 350, 300)
    rois = np.stack([np.zeros(300), x1, y1, np.minimum(x1 + rng.uniform(16, 300, 300), 799),
                     np.minimum(y1 + rng.uniform(16, 250, 300), 599)], axis=1)
    rois = mx.nd.array(rois, dtype='float32')
    yield ('PSROIPooling (1,1029,38,50) 300 rois',
           lambda: mx.nd.contrib.PSROIPooling(feat, rois, spatial_scale=1.0 / 16, output_dim=21,
                                              pooled_size=7, group_size=7))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--reps', type=int, default=30)
    ap.add_argument('--only', default='', help='run the cases whose name contains this')
    args = ap.parse_args()
    print('mxnet %s from %s, load %s' % (mx.__version__, os.path.dirname(mx.__file__),
                                         os.getloadavg()[0]))
    for name, fn in cases():
        if args.only and args.only not in name:
            continue
        med, best = bench(fn, args.reps)
        print('%-42s median %8.3f ms  min %8.3f ms' % (name, med, best))


if __name__ == '__main__':
    main()
