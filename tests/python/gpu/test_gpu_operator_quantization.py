"""The quantization operators (src/operator/quantization/) on the GPU against the CPU: integer
outputs, the output ranges and the dequantized floats must be identical (both run the same
float32 arithmetic; the kernels are shared). The data's minimum and maximum of quantize_v2,
quantize_asym and requantize without calibration are a device reduction: large inputs cover
many blocks."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV


def _run(fn, arrays, ctx):
    nds = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in arrays]
    out = fn(*nds)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [o.asnumpy() for o in outs]


def _same(fn, arrays, name):
    ref = _run(fn, arrays, mx.cpu())
    got = _run(fn, arrays, DEV)
    assert len(ref) == len(got), name
    for i, (g, r) in enumerate(zip(got, ref)):
        assert g.dtype == r.dtype, "%s output %d: %s vs %s" % (name, i, g.dtype, r.dtype)
        np.testing.assert_array_equal(g, r, err_msg="%s output %d" % (name, i))


def _floats(shape, seed=0, scale=3.0):
    rng = np.random.RandomState(seed)
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _range(lo, hi):
    return [np.array([lo], np.float32), np.array([hi], np.float32)]


SHAPES = [(7,), (3, 5, 11), (257, 389)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("out_type", ["int8", "uint8"])
@pytest.mark.parametrize("rng", [(-2.5, 4.0), (0.0, 1.5), (-7.0, 0.0)])
def test_quantize(shape, out_type, rng):
    _same(lambda x, lo, hi: mx.nd.contrib.quantize(x, lo, hi, out_type=out_type),
          [_floats(shape)] + _range(*rng), "quantize")


@pytest.mark.parametrize("shape", SHAPES + [(1,), (1000003,)])
@pytest.mark.parametrize("out_type", ["int8", "uint8", "auto"])
@pytest.mark.parametrize("calib", [None, (-3.0, 5.0), (0.0, 2.0)])
def test_quantize_v2(shape, out_type, calib):
    kw = {} if calib is None else dict(min_calib_range=calib[0], max_calib_range=calib[1])
    x = _floats(shape, seed=len(shape))
    _same(lambda d: mx.nd.contrib.quantize_v2(d, out_type=out_type, **kw), [x], "quantize_v2")


def test_quantize_v2_data_range_edges():
    x = _floats((70001,), seed=3)
    x[12345] = 40.0     # the maximum far from the first element
    x[65000] = -41.0
    x[100] = np.nan     # NaNs after x[0] are skipped by the range
    _same(lambda d: mx.nd.contrib.quantize_v2(d), [x], "quantize_v2 nan")
    pos = np.abs(_floats((5000,), seed=4))
    _same(lambda d: mx.nd.contrib.quantize_v2(d, out_type="uint8"), [pos], "quantize_v2 uint8")
    _same(lambda d: mx.nd.contrib.quantize_v2(d), [np.zeros((33,), np.float32)],
          "quantize_v2 zeros")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_quantize_v2_passthrough(dtype):
    rng = np.random.RandomState(5)
    x = rng.randint(np.iinfo(dtype).min, np.iinfo(dtype).max + 1, (4, 9)).astype(dtype)
    _same(lambda d: mx.nd.contrib.quantize_v2(d), [x], "quantize_v2 passthrough")


@pytest.mark.parametrize("shape", SHAPES + [(300007,)])
@pytest.mark.parametrize("calib", [None, (-2.0, 6.0)])
def test_quantize_asym(shape, calib):
    kw = {} if calib is None else dict(min_calib_range=calib[0], max_calib_range=calib[1])
    _same(lambda d: mx.nd.contrib.quantize_asym(d, **kw), [_floats(shape, seed=7)],
          "quantize_asym")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32])
@pytest.mark.parametrize("shape", SHAPES)
def test_dequantize(dtype, shape):
    rng = np.random.RandomState(8)
    info = np.iinfo(dtype)
    lo, hi = (max(info.min, -2 ** 20), min(info.max, 2 ** 20)) if dtype == np.int32 \
        else (info.min, info.max)
    q = rng.randint(lo, hi + 1, shape).astype(dtype)
    _same(lambda d, a, b: mx.nd.contrib.dequantize(d, a, b), [q] + _range(-3.5, 2.25),
          "dequantize")


@pytest.mark.parametrize("shape", SHAPES + [(200003,)])
@pytest.mark.parametrize("out_type", ["int8", "uint8", "auto"])
@pytest.mark.parametrize("calib", [None, (-1.5, 2.5), (0.0, 3.0)])
def test_requantize(shape, out_type, calib):
    kw = {} if calib is None else dict(min_calib_range=calib[0], max_calib_range=calib[1])
    rng = np.random.RandomState(9)
    q = rng.randint(-2 ** 28, 2 ** 28, shape).astype(np.int32)
    _same(lambda d, a, b: mx.nd.contrib.requantize(d, a, b, out_type=out_type, **kw),
          [q] + _range(-8.0, 6.0), "requantize")


def test_quantize_dequantize_round_trip():
    x = _floats((64, 33), seed=10)
    _same(lambda d: mx.nd.contrib.dequantize(*mx.nd.contrib.quantize_v2(d)), [x],
          "quantize_v2 -> dequantize")


def _ints(dtype, shape, seed=0):
    rng = np.random.RandomState(seed)
    info = np.iinfo(dtype)
    return rng.randint(info.min, info.max + 1, shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32])
def test_quantized_flatten(dtype):
    x = _ints(dtype, (3, 4, 5, 2), seed=11)
    _same(lambda d, a, b: mx.nd.contrib.quantized_flatten(d, a, b), [x] + _range(-1.0, 2.0),
          "quantized_flatten")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_quantized_act(dtype):
    x = _ints(dtype, (4, 7, 9), seed=12)
    _same(lambda d, a, b: mx.nd.contrib.quantized_act(d, a, b, act_type="relu"),
          [x] + _range(-3.0, 3.0), "quantized_act")


POOLS = [dict(kernel=(2, 2), stride=(2, 2), pool_type="max"),
         dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg"),
         dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg", count_include_pad=False),
         dict(kernel=(3, 3), stride=(2, 2), pool_type="max", pooling_convention="full"),
         dict(kernel=(2, 3), stride=(1, 2), pool_type="avg", pooling_convention="full"),
         dict(global_pool=True, kernel=(1, 1), pool_type="avg"),
         dict(kernel=(3,), stride=(2,), pad=(1,), pool_type="max")]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("kw", POOLS)
def test_quantized_pooling(dtype, kw):
    shape = (2, 3, 11) if len(kw["kernel"]) == 1 else (2, 3, 9, 10)
    x = _ints(dtype, shape, seed=13)
    _same(lambda d, a, b: mx.nd.contrib.quantized_pooling(d, a, b, **kw),
          [x] + _range(-1.0, 2.0), "quantized_pooling")


@pytest.mark.parametrize("lt,rt", [(np.int8, np.int8), (np.uint8, np.uint8), (np.uint8, np.int8),
                                   (np.int8, np.uint8)])
@pytest.mark.parametrize("calib", [None, (-4.0, 5.0), (0.0, 6.0)])
def test_quantized_elemwise_add(lt, rt, calib):
    kw = {} if calib is None else dict(min_calib_range=calib[0], max_calib_range=calib[1])
    shape = (5, 37, 41)
    arrays = [_ints(lt, shape, 14), _ints(rt, shape, 15)] + _range(-1.5, 2.5) + _range(-3.0, 0.5)
    _same(lambda l, r, a, b, c, d: mx.nd.contrib.quantized_elemwise_add(l, r, a, b, c, d, **kw),
          arrays, "quantized_elemwise_add")


@pytest.mark.parametrize("mode", ["int32", "float", "calib"])
def test_quantized_elemwise_mul(mode):
    kw = {"int32": {}, "float": dict(enable_float_output=True),
          "calib": dict(min_calib_range=-0.8, max_calib_range=0.6)}[mode]
    shape = (6, 33, 17)
    arrays = [_ints(np.int8, shape, 16), _ints(np.int8, shape, 17)] + _range(-1.5, 2.5) + \
        _range(-3.0, 0.5)
    _same(lambda l, r, a, b, c, d: mx.nd.contrib.quantized_elemwise_mul(l, r, a, b, c, d, **kw),
          arrays, "quantized_elemwise_mul")


@pytest.mark.parametrize("itype", [np.float32, np.int32, np.float64])
def test_quantized_embedding(itype):
    V, D = 11, 13
    idx = np.array([[0, 3, 10], [12, -2, 5.7 if itype != np.int32 else 5]], dtype=itype)
    w = _ints(np.int8, (V, D), seed=18)
    _same(lambda i, ww, a, b: mx.nd.contrib.quantized_embedding(i, ww, a, b, input_dim=V,
                                                                output_dim=D),
          [idx, w] + _range(-1.0, 2.0), "quantized_embedding")


@pytest.mark.parametrize("dim", [1, 0, -1])
def test_quantized_concat(dim):
    a = _ints(np.int8, (2, 3, 4), 19)
    b = _ints(np.uint8, (2, 3, 4), 20)
    c = _ints(np.int8, (2, 3, 4), 21)
    ranges = _range(-1.0, 1.3) + _range(-0.7, 2.0) + _range(-1.0, 1.3)
    _same(lambda *x: mx.nd.contrib.quantized_concat(*x, num_args=3, dim=dim), [a, b, c] + ranges,
          "quantized_concat")
    _same(lambda *x: mx.nd.contrib.quantized_concat(*x, num_args=2, dim=dim),
          [b, b] + _range(0.0, 1.0) + _range(0.0, 1.0), "quantized_concat uint8 same range")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("no_bias", [False, True])
@pytest.mark.parametrize("shape,hidden", [((5, 40), 7), ((3, 2, 4, 5), 33), ((70, 19), 18)])
def test_quantized_fully_connected(dtype, no_bias, shape, hidden):
    K = int(np.prod(shape[1:]))
    x = _ints(dtype, shape, 22)
    w = _ints(np.int8, (hidden, K), 23)
    arrays = [x, w] + ([] if no_bias else [_ints(np.int8, (hidden,), 24)])
    arrays += _range(-1.0, 2.0) + _range(-0.5, 0.8)
    if not no_bias:
        arrays += _range(-3.0, 1.0)
    _same(lambda *a: mx.nd.contrib.quantized_fully_connected(*a, num_hidden=hidden,
                                                             no_bias=no_bias),
          arrays, "quantized_fully_connected")


CONVS = [dict(kernel=(3, 3), num_filter=4, pad=(1, 1)),
         dict(kernel=(3, 2), num_filter=6, stride=(2, 1), dilate=(1, 2), num_group=2),
         dict(kernel=(3,), num_filter=5, pad=(2,)),
         dict(kernel=(2, 2, 2), num_filter=3, stride=(1, 2, 1))]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("no_bias", [False, True])
@pytest.mark.parametrize("kw", CONVS)
def test_quantized_conv(dtype, no_bias, kw):
    C = 4
    spatial = {1: (11,), 2: (7, 9), 3: (4, 5, 6)}[len(kw["kernel"])]
    x = _ints(dtype, (2, C) + spatial, 25)
    w = _ints(np.int8, (kw["num_filter"], C // kw.get("num_group", 1)) + kw["kernel"], 26)
    arrays = [x, w] + ([] if no_bias else [_ints(np.int8, (kw["num_filter"],), 27)])
    arrays += _range(-1.0, 2.0) + _range(-0.5, 0.8)
    if not no_bias:
        arrays += _range(-3.0, 1.0)
    _same(lambda *a: mx.nd.contrib.quantized_conv(*a, no_bias=no_bias, **kw), arrays,
          "quantized_conv")
