"""_contrib_DeformableConvolution and _contrib_ModulatedDeformableConvolution on the GPU against
the CPU in float64, with the gradients of every input (data, offset, mask, weight, bias).

The offsets are odd multiples of 1/16, so no sample lands exactly on a cell border (where the
bilinear sampling and its gradient jump) and float16 holds them exactly; they reach past the
map's borders to cover v1's clamping and v2's zero padding."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, TOL, check_fn

GEMM_TOL = dict(TOL)
GEMM_TOL[np.float32] = (1e-4, 1e-4)
GEMM_TOL[np.float16] = (2e-2, 2e-2)

CASES = [
    # data shape, params
    ((2, 4, 7, 8), dict(kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=2,
                        num_deformable_group=2)),
    ((1, 3, 9, 6), dict(kernel=(3, 2), stride=(2, 1), dilate=(2, 1), num_filter=4,
                        no_bias=True)),
    ((3, 2, 5, 5), dict(kernel=(1, 1), num_filter=4, num_deformable_group=2)),
]


def _out_hw(shape, p):
    kh, kw = p["kernel"]
    sh, sw = p.get("stride", (1, 1))
    dh, dw = p.get("dilate", (1, 1))
    ph, pw = p.get("pad", (0, 0))
    return ((shape[2] + 2 * ph - dh * (kh - 1) - 1) // sh + 1,
            (shape[3] + 2 * pw - dw * (kw - 1) - 1) // sw + 1)


def _arrays(shape, p, modulated, dtype, seed=0):
    rng = np.random.RandomState(seed)
    n, c = shape[:2]
    kh, kw = p["kernel"]
    dg = p.get("num_deformable_group", 1)
    oh, ow = _out_hw(shape, p)
    data = rng.uniform(-1, 1, shape)
    offset = (rng.randint(-40, 40, (n, dg * 2 * kh * kw, oh, ow)) + 0.5) / 16
    weight = rng.uniform(-1, 1, (p["num_filter"], c // p.get("num_group", 1), kh, kw))
    arrays = [data, offset]
    if modulated:
        arrays.append(rng.uniform(0, 1, (n, dg * kh * kw, oh, ow)))
    arrays.append(weight)
    if not p.get("no_bias", False):
        arrays.append(rng.uniform(-1, 1, (p["num_filter"],)))
    return [a.astype(dtype) for a in arrays]


def _op(modulated):
    return (mx.nd.contrib.ModulatedDeformableConvolution if modulated
            else mx.nd.contrib.DeformableConvolution)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("modulated", [False, True])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_deformable_convolution_and_gradients(case, modulated, dtype):
    shape, p = CASES[case]
    op = _op(modulated)
    check_fn(lambda *a: op(*a, **p), _arrays(shape, p, modulated, dtype), dtype, True,
             "%s case %d" % (op.__name__, case), tol=GEMM_TOL[dtype])


@pytest.mark.parametrize("modulated", [False, True])
def test_deformable_convolution_float16(modulated):
    shape, p = CASES[0]
    op = _op(modulated)
    check_fn(lambda *a: op(*a, **p), _arrays(shape, p, modulated, np.float16), np.float16, True,
             "%s float16" % op.__name__, tol=GEMM_TOL[np.float16])


@pytest.mark.parametrize("modulated", [False, True])
def test_deformable_convolution_im2col_step_and_batch(modulated):
    # A batch larger than im2col_step (v2) and than one image per column block.
    shape = (5, 2, 6, 6)
    p = dict(kernel=(3, 3), pad=(1, 1), num_filter=2)
    kw = dict(p, im2col_step=5) if modulated else p
    op = _op(modulated)
    check_fn(lambda *a: op(*a, **kw), _arrays(shape, p, modulated, np.float32, seed=1),
             np.float32, True, "%s batch 5" % op.__name__, tol=GEMM_TOL[np.float32])


def test_deformable_convolution_grad_req_add_accumulates():
    shape, p = CASES[0]
    arrays = _arrays(shape, p, True, np.float32, seed=2)
    nds = [mx.nd.array(a, ctx=DEV) for a in arrays]
    for x in nds:
        x.attach_grad(grad_req="add")
    grads = []
    for _ in range(2):
        with mx.autograd.record():
            y = mx.nd.contrib.ModulatedDeformableConvolution(*nds, **p)
        y.backward()
        grads.append([x.grad.asnumpy().copy() for x in nds])
    for once, twice in zip(*grads):
        np.testing.assert_allclose(twice, 2 * once, rtol=1e-5, atol=1e-5)


def test_zero_offsets_match_convolution():
    rng = np.random.RandomState(5)
    data = mx.nd.array(rng.uniform(-1, 1, (2, 4, 6, 7)), ctx=DEV)
    weight = mx.nd.array(rng.uniform(-1, 1, (6, 2, 3, 3)), ctx=DEV)
    bias = mx.nd.array(rng.uniform(-1, 1, (6,)), ctx=DEV)
    p = dict(kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=2)
    offset = mx.nd.zeros((2, 18, 6, 7), ctx=DEV)
    got = mx.nd.contrib.DeformableConvolution(data, offset, weight, bias, **p)
    ref = mx.nd.Convolution(data.as_in_context(mx.cpu()), weight.as_in_context(mx.cpu()),
                            bias.as_in_context(mx.cpu()), **p)
    np.testing.assert_allclose(got.asnumpy(), ref.asnumpy(), rtol=1e-4, atol=1e-5)
