"""contrib operators on the GPU against the CPU in float64: the interleaved multi-head attention
products (one batched GEMM over the (batch, head) pairs) with their gradients, div_sqrt_dim,
AdaptiveAvgPooling2D and BilinearResize2D (upsampling and downsampling, both corner modes)."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DTYPES, TOL, check_fn, inputs

L, LK, B, H, D = 5, 7, 3, 4, 8
GEMM_TOL = dict(TOL)
GEMM_TOL[np.float32] = (1e-4, 1e-4)


def _attention_shapes(op):
    return {"selfatt_qk": [(L, B, H * 3 * D)],
            "selfatt_valatt": [(L, B, H * 3 * D), (B * H, L, L)],
            "encdec_qk": [(L, B, H * D), (LK, B, H * 2 * D)],
            "encdec_valatt": [(LK, B, H * 2 * D), (B * H, L, LK)]}[op]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["selfatt_qk", "selfatt_valatt", "encdec_qk", "encdec_valatt"])
def test_interleaved_matmul_and_gradients(op, dtype):
    fn = getattr(mx.nd.contrib, "interleaved_matmul_" + op)
    arrays = [a * 0.5 for a in inputs(_attention_shapes(op), dtype)]
    check_fn(lambda *x: fn(*x, heads=H), [a.astype(dtype) for a in arrays], dtype, True,
             op, tol=GEMM_TOL[dtype])


@pytest.mark.parametrize("dtype", DTYPES)
def test_div_sqrt_dim_and_gradient(dtype):
    check_fn(lambda x: mx.nd.contrib.div_sqrt_dim(x), inputs([(3, 4, 16)], dtype), dtype, True,
             "div_sqrt_dim")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,size", [((2, 3, 7, 9), (3, 4)), ((1, 2, 5, 5), 1),
                                        ((2, 2, 3, 4), (7, 9))])  # cells overlap, or repeat
def test_adaptive_avg_pooling_and_gradient(shape, size, dtype):
    check_fn(lambda x: mx.nd.contrib.AdaptiveAvgPooling2D(x, output_size=size),
             inputs([shape], dtype), dtype, True, "AdaptiveAvgPooling2D %s" % (size,))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,size,align", [((2, 3, 5, 6), (9, 13), True),
                                              ((2, 3, 5, 6), (9, 13), False),
                                              ((1, 2, 12, 10), (4, 3), False),
                                              ((1, 2, 12, 10), (5, 4), True),
                                              ((1, 1, 1, 4), (3, 1), True)])
def test_bilinear_resize_and_gradient(shape, size, align, dtype):
    check_fn(lambda x: mx.nd.contrib.BilinearResize2D(x, height=size[0], width=size[1],
                                                      align_corners=align),
             inputs([shape], dtype), dtype, True, "BilinearResize2D %s %s" % (size, align))
