"""Op table: Correlation (src/operator/nn/correlation.cc). The reference is a direct loop over
output positions, displacements and the kernel window, written from the layer's definition."""
import math

import numpy as np

from . import FLOATS, OpEntry, Sample


def correlation_ref(a, b, kernel_size=1, max_displacement=1, stride1=1, stride2=1, pad_size=0,
                    is_multiply=True):
    n, c, h, w = a.shape
    pad = ((0, 0), (0, 0), (pad_size, pad_size), (pad_size, pad_size))
    pa = np.pad(a.astype(np.float64), pad)
    pb = np.pad(b.astype(np.float64), pad)
    border = max_displacement + (kernel_size - 1) // 2
    out_h = math.ceil((h + 2 * pad_size - 2 * border) / stride1)
    out_w = math.ceil((w + 2 * pad_size - 2 * border) / stride1)
    radius = max_displacement // stride2
    grid = 2 * radius + 1
    out = np.zeros((n, grid * grid, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            y1, x1 = i * stride1 + max_displacement, j * stride1 + max_displacement
            p1 = pa[:, :, y1:y1 + kernel_size, x1:x1 + kernel_size]
            for p in range(-radius, radius + 1):
                for q in range(-radius, radius + 1):
                    y2, x2 = y1 + p * stride2, x1 + q * stride2
                    p2 = pb[:, :, y2:y2 + kernel_size, x2:x2 + kernel_size]
                    f = p1 * p2 if is_multiply else np.abs(p1 - p2)
                    out[:, (p + radius) * grid + q + radius, i, j] = \
                        f.sum(axis=(1, 2, 3)) / (kernel_size * kernel_size * c)
    return out.astype(a.dtype)


ENTRIES = [
    OpEntry("Correlation", ref=correlation_ref, dtypes=FLOATS,
            samples=[Sample([(2, 3, 5, 6), (2, 3, 5, 6)]),
                     Sample([(1, 2, 7, 7), (1, 2, 7, 7)],
                            dict(kernel_size=3, max_displacement=2, pad_size=2)),
                     Sample([(1, 2, 8, 9), (1, 2, 8, 9)],
                            dict(kernel_size=1, max_displacement=2, stride1=2, stride2=2,
                                 pad_size=1)),
                     Sample([(1, 2, 6, 6), (1, 2, 6, 6)],
                            dict(kernel_size=3, max_displacement=1, pad_size=1,
                                 is_multiply=False))],
            covers=["_backward_Correlation"]),
]
