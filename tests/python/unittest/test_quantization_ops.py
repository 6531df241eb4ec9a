"""Quantization operators (src/operator/quantization/): NumPy references written from the
definitions (optable/quantization.py), exact int32 accumulation of conv/FC, symbol shape/type
inference, clear errors for bad inputs, and the outputs of real MXNet 1.9.1."""
import numpy as np
import pytest

import mxnet as mx
import mx191_oracle
from optable import quantization as ref

C = mx.nd.contrib
F32 = np.float32


def nd(x):
    return mx.nd.array(x, dtype=x.dtype)


def R(v):
    return mx.nd.array([v])


def outs(r):
    return [o.asnumpy() for o in (r if isinstance(r, (list, tuple)) else [r])]


def assert_same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_array_equal(g, w)


# ---- conversions ------------------------------------------------------------------------------

@pytest.mark.parametrize("out_type", ["int8", "uint8"])
@pytest.mark.parametrize("rng_", [(-1.0, 1.0), (-0.5, 2.0), (0.2, 2.9)])
def test_quantize_rounds_half_to_even_and_saturates(out_type, rng_):
    x = np.random.RandomState(0).uniform(-3, 3, size=(200,)).astype(F32)
    x[:6] = [0.5 / 127, 2.5 / 127, -3.0, 3.0, 0.0, -0.25]
    got = outs(C.quantize(nd(x), R(rng_[0]), R(rng_[1]), out_type=out_type))
    assert_same(got, ref.quantize_ref(x, np.array([rng_[0]]), np.array([rng_[1]]), out_type))


def test_quantize_exact_halves():
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 126.5, -127.5, -200], dtype=F32)
    q, lo, hi = outs(C.quantize(nd(x), R(-127.0), R(127.0), out_type="int8"))
    np.testing.assert_array_equal(q, [0, 2, 2, 0, -2, 126, -128, -128])
    assert lo[0] == -127 and hi[0] == 127


@pytest.mark.parametrize("kw", [{}, {"out_type": "uint8"}, {"out_type": "auto"},
                                {"min_calib_range": -1.3, "max_calib_range": 0.8},
                                {"out_type": "auto", "min_calib_range": 0.1,
                                 "max_calib_range": 2.2},
                                {"out_type": "uint8", "min_calib_range": -2.7,
                                 "max_calib_range": 1.1}])
def test_quantize_v2(kw):
    x = np.random.RandomState(1).uniform(-3, 2, size=(5, 40)).astype(F32)
    assert_same(outs(C.quantize_v2(nd(x), **kw)), ref.quantize_v2_ref(x, **kw))


def test_quantize_v2_auto_type_and_passthrough():
    x = np.array([0.1, 0.5, 1.0], dtype=F32)
    assert C.quantize_v2(nd(x), out_type="auto")[0].dtype == np.int8
    assert C.quantize_v2(nd(x), out_type="auto", min_calib_range=0.0,
                         max_calib_range=1.0)[0].dtype == np.uint8
    q = np.array([1, -2, 3], dtype=np.int8)
    assert_same(outs(C.quantize_v2(nd(q))), [q, ref.scalar(-127.5), ref.scalar(127.5)])


@pytest.mark.parametrize("dtype,lo,hi", [("int8", -0.3, 2.0), ("uint8", -1.0, 2.0),
                                         ("int32", -5.0, 3.0)])
def test_dequantize(dtype, lo, hi):
    rng = np.random.RandomState(2)
    info = np.iinfo(dtype)
    q = rng.randint(max(info.min, -2 ** 30), min(info.max, 2 ** 30), size=(7, 9)).astype(dtype)
    got = C.dequantize(nd(q), R(lo), R(hi)).asnumpy()
    assert got.dtype == F32
    np.testing.assert_array_equal(got, ref.dequantize_ref(q, np.array([lo]), np.array([hi])))
    # dequantize(quantize_v2(x)) is within half a step of x
    x = rng.uniform(-1, 1, size=(50,)).astype(F32)
    q2, l2, h2 = C.quantize_v2(nd(x))
    np.testing.assert_allclose(C.dequantize(q2, l2, h2).asnumpy(), x, atol=0.5 / 127.5 * 1.01)


@pytest.mark.parametrize("kw", [{}, {"out_type": "uint8"},
                                {"min_calib_range": -0.5, "max_calib_range": 0.8},
                                {"out_type": "auto", "min_calib_range": 0.0,
                                 "max_calib_range": 0.03}])
def test_requantize(kw):
    q = np.random.RandomState(3).randint(-2 ** 24, 2 ** 24, size=(300,)).astype(np.int32)
    got = outs(C.requantize(nd(q), R(-10.0), R(7.0), **kw))
    assert_same(got, ref.requantize_ref(q, np.array([-10.0]), np.array([7.0]), **kw))


def test_quantize_asym():
    x = np.random.RandomState(4).uniform(-1, 3, size=(4, 6)).astype(F32)
    q, scale, shift = outs(C.quantize_asym(nd(x)))
    assert_same([q, scale, shift], ref.quantize_asym_ref(x))
    assert q.min() == 0 and q.max() == 255


# ---- layers ------------------------------------------------------------------------------------

def fc_ref(d, w, b, rd, rw, rb):
    acc = d.reshape(d.shape[0], -1).astype(np.int64) @ w.astype(np.int64).T
    m_d, m_w = ref.maxabs(*rd), ref.maxabs(*rw)
    rdata = F32(127.5) if d.dtype == np.int8 else F32(255.5)
    lim = F32(127) if d.dtype == np.int8 else F32(255)
    if b is not None:
        rescale = (rdata / m_d) * (F32(127.5) / m_w) * ref.maxabs(*rb) / F32(127.5)
        acc = acc + np.trunc((b.astype(F32) * rescale).astype(F32)).astype(np.int64)
    m = (m_d / lim) * (m_w / F32(127)) * ref.INT32_RANGE
    return acc.astype(np.int32), ref.scalar(-m), ref.scalar(m)


def conv2d_ref(x, w, b, stride, pad, dilate, group):
    """Direct int64 loop from the definition of a grouped 2-D convolution."""
    N, Cin, H, W = x.shape
    F, Cg, KH, KW = w.shape
    xp = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (pad[0], pad[0]), (pad[1], pad[1])))
    OH = (H + 2 * pad[0] - dilate[0] * (KH - 1) - 1) // stride[0] + 1
    OW = (W + 2 * pad[1] - dilate[1] * (KW - 1) - 1) // stride[1] + 1
    y = np.zeros((N, F, OH, OW), dtype=np.int64)
    Fg = F // group
    for f in range(F):
        g = f // Fg
        for i in range(OH):
            for j in range(OW):
                patch = xp[:, g * Cg:(g + 1) * Cg,
                           i * stride[0]:i * stride[0] + dilate[0] * (KH - 1) + 1:dilate[0],
                           j * stride[1]:j * stride[1] + dilate[1] * (KW - 1) + 1:dilate[1]]
                y[:, f, i, j] = (patch * w[f].astype(np.int64)).sum(axis=(1, 2, 3))
    if b is not None:
        y += b.astype(np.int64)[None, :, None, None]
    return y.astype(np.int32)


@pytest.mark.parametrize("ddtype", ["int8", "uint8"])
@pytest.mark.parametrize("no_bias", [True, False])
def test_quantized_fully_connected(ddtype, no_bias):
    rng = np.random.RandomState(5)
    d = ref._q(rng, (4, 3, 2, 5), np.dtype(ddtype).type)
    w = ref._q(rng, (6, 30), np.int8)
    b = None if no_bias else ref._q(rng, (6,), np.int8)
    rd, rw, rb = (-1.0, 1.3), (-0.7, 2.1), (-0.2, 0.9)
    args = [nd(d), nd(w)] + ([] if no_bias else [nd(b)]) + [R(rd[0]), R(rd[1]), R(rw[0]),
                                                              R(rw[1])]
    if not no_bias:
        args += [R(rb[0]), R(rb[1])]
    got = outs(C.quantized_fully_connected(*args, num_hidden=6, no_bias=no_bias))
    assert_same(got, fc_ref(d, w, b, rd, rw, rb))


def test_quantized_fully_connected_no_flatten_and_exact_int32():
    rng = np.random.RandomState(6)
    d = np.full((2, 3, 600), 127, dtype=np.int8)
    w = np.full((4, 600), 127, dtype=np.int8)
    q = C.quantized_fully_connected(nd(d), nd(w), R(-1.0), R(1.0), R(-1.0), R(1.0), num_hidden=4,
                                    no_bias=True, flatten=False)[0].asnumpy()
    assert q.shape == (2, 3, 4) and q.dtype == np.int32
    assert (q == 600 * 127 * 127).all()  # exact, beyond int16/float24 precision
    del rng


@pytest.mark.parametrize("ddtype", ["uint8", "int8"])
@pytest.mark.parametrize("kw", [{}, {"stride": (2, 1), "pad": (1, 2), "dilate": (1, 2)},
                                {"num_group": 2}])
def test_quantized_conv(ddtype, kw):
    rng = np.random.RandomState(7)
    x = ref._q(rng, (2, 4, 7, 8), np.dtype(ddtype).type)
    group = kw.get("num_group", 1)
    w = ref._q(rng, (6, 4 // group, 3, 3), np.int8)
    b = ref._q(rng, (6,), np.int8)
    r = C.quantized_conv(nd(x), nd(w), nd(b), R(0.0), R(1.3), R(-0.7), R(2.1), R(-1.0), R(1.0),
                         kernel=(3, 3), num_filter=6, **kw)
    got = outs(r)
    want = conv2d_ref(x, w, b, kw.get("stride", (1, 1)), kw.get("pad", (0, 0)),
                      kw.get("dilate", (1, 1)), group)
    m = (F32(1.3) / F32(127)) * (F32(2.1) / F32(127)) * ref.INT32_RANGE
    assert_same(got, [want, ref.scalar(-m), ref.scalar(m)])


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("kw", [{"kernel": (2, 2), "pool_type": "max"},
                                {"kernel": (2, 2), "pool_type": "avg"},
                                {"kernel": (3, 3), "pool_type": "avg", "pad": (1, 1),
                                 "count_include_pad": False},
                                {"kernel": (2, 3), "pool_type": "avg", "stride": (2, 2),
                                 "pooling_convention": "full"},
                                {"kernel": (1, 1), "pool_type": "avg", "global_pool": True}])
def test_quantized_pooling(dtype, kw):
    x = ref._q(np.random.RandomState(8), (2, 3, 5, 6), dtype)
    got = outs(C.quantized_pooling(nd(x), R(-1.0), R(2.0), **kw))
    assert_same(got, ref.pooling_ref(x, [-1.0], [2.0], **kw))


def test_quantized_concat_rescales_to_the_widest_range():
    rng = np.random.RandomState(9)
    a = ref._q(rng, (2, 3, 4), np.int8)
    b = ref._q(rng, (2, 2, 4), np.int8)
    c = ref._q(rng, (2, 1, 4), np.uint8)
    q, lo, hi = outs(C.quantized_concat(nd(a), nd(b), nd(c), R(-1.0), R(1.3), R(-0.7), R(2.0),
                                        R(0.0), R(3.1), num_args=3, dim=1))
    assert q.dtype == np.int8 and lo[0] == F32(-1.0) and hi[0] == F32(3.1)
    m_out = F32(3.1)
    parts = [ref.sat(a.astype(F32) * ((F32(1.3) / F32(127)) * (F32(127) / m_out)), np.int8),
             ref.sat(b.astype(F32) * ((F32(2.0) / F32(127)) * (F32(127) / m_out)), np.int8),
             ref.sat(c.astype(F32) * ((F32(3.1) / F32(255)) * (F32(127) / m_out)), np.int8)]
    np.testing.assert_array_equal(q, np.concatenate(parts, axis=1))
    # same range everywhere: a plain concatenation (uint8 stays uint8)
    q2 = C.quantized_concat(nd(c), nd(c), R(0.0), R(1.0), R(0.0), R(1.0), num_args=2,
                            dim=-1)[0].asnumpy()
    assert q2.dtype == np.uint8
    np.testing.assert_array_equal(q2, np.concatenate([c, c], axis=-1))


def test_quantized_elemwise_add_and_mul():
    rng = np.random.RandomState(10)
    l, r = ref._q(rng, (3, 7), np.int8), ref._q(rng, (3, 7), np.int8)
    rngs = [R(-1.0), R(1.0), R(-2.0), R(3.0)]
    real = l.astype(F32) * (F32(1) / F32(127.5)) + r.astype(F32) * (F32(3) / F32(127.5))
    q, lo, hi = outs(C.quantized_elemwise_add(nd(l), nd(r), *rngs))
    assert q.dtype == np.int32 and lo[0] == -4 and hi[0] == 4
    np.testing.assert_array_equal(q, ref.sat(real.astype(np.float64) * float(2 ** 31 / 4.0),
                                             np.int32))
    q8 = C.quantized_elemwise_add(nd(l), nd(r), *rngs, min_calib_range=-2.0,
                                  max_calib_range=3.0)[0].asnumpy()
    np.testing.assert_array_equal(q8, ref.sat(real * (F32(127.5) / F32(3)), np.int8))
    p, plo, phi = outs(C.quantized_elemwise_mul(nd(l), nd(r), *rngs))
    np.testing.assert_array_equal(p, l.astype(np.int32) * r.astype(np.int32))
    m = (F32(1) / F32(127)) * (F32(3) / F32(127)) * ref.INT32_RANGE
    assert plo[0] == -m and phi[0] == m
    pf = C.quantized_elemwise_mul(nd(l), nd(r), *rngs, enable_float_output=True).asnumpy()
    np.testing.assert_allclose(pf, (l.astype(np.float64) * r) * (1 / 127.5) * (3 / 127.5),
                               rtol=1e-6)


def test_quantized_flatten_act_embedding():
    rng = np.random.RandomState(11)
    x = ref._q(rng, (2, 3, 4), np.int8)
    assert_same(outs(C.quantized_flatten(nd(x), R(-1.0), R(2.0))),
                ref.flatten_ref(x, [-1.0], [2.0]))
    u = ref._q(rng, (2, 3), np.uint8)
    assert_same(outs(C.quantized_act(nd(u), R(0.0), R(2.0), act_type="relu")),
                ref.act_ref(u, [0.0], [2.0]))
    w = ref._q(rng, (7, 5), np.int8)
    idx = np.array([[0, 4, 6.7], [2, 9, -3]], dtype=F32)
    q, lo, hi = outs(C.quantized_embedding(nd(idx), nd(w), R(-1.0), R(2.0), input_dim=7,
                                           output_dim=5))
    np.testing.assert_array_equal(q, w[np.clip(idx.astype(np.int64), 0, 6)])
    assert lo[0] == -1 and hi[0] == 2


def test_quantized_batch_norm_is_bn_on_the_real_values():
    rng = np.random.RandomState(12)
    x = ref._q(rng, (2, 3, 4, 5), np.int8)
    g, b = np.array([1.5, 2, 0.5], F32), np.array([0.1, -0.2, 0.3], F32)
    mean, var = np.array([0.1, 0, -0.2], F32), np.array([1, 0.5, 2], F32)
    q, lo, hi = outs(C.quantized_batch_norm(nd(x), nd(g), nd(b), nd(mean), nd(var), R(-1.5),
                                            R(0.7), min_calib_range=-2.0, max_calib_range=3.0,
                                            fix_gamma=False))
    real = x * (1.5 / 127.5)
    y = g[None, :, None, None] * (real - mean[None, :, None, None]) / np.sqrt(
        var[None, :, None, None] + 1e-3) + b[None, :, None, None]
    want = ref.sat(y * (127.5 / 3.0), np.int8)
    assert q.dtype == np.int8 and lo[0] == -2 and hi[0] == 3
    assert np.abs(q.astype(int) - want).max() <= 1


# ---- symbols: inference ------------------------------------------------------------------------

def test_symbol_shape_and_type_inference():
    S = mx.sym.contrib
    data = mx.sym.var("data")
    conv = S.quantized_conv(data, kernel=(3, 3), num_filter=8, no_bias=True, name="qc")
    assert conv.list_arguments() == ["data", "qc_weight", "qc_min_data", "qc_max_data",
                                     "qc_min_weight", "qc_max_weight"]
    assert conv.list_outputs() == ["qc_output", "qc_min_output", "qc_max_output"]
    arg, out, _ = conv.infer_shape(data=(2, 3, 10, 10))
    assert arg == [(2, 3, 10, 10), (8, 3, 3, 3), (1,), (1,), (1,), (1,)]
    assert out == [(2, 8, 8, 8), (1,), (1,)]
    arg_t, out_t, _ = conv.infer_type(data="uint8")
    assert arg_t[1] == np.int8 and all(t == np.float32 for t in arg_t[2:])
    assert out_t == [np.int32, np.float32, np.float32]
    q = S.quantize_v2(data, out_type="auto", min_calib_range=0.0, max_calib_range=1.0)
    assert q.infer_type(data="float32")[1][0] == np.uint8
    fc = S.quantized_fully_connected(data, num_hidden=5, name="fc")
    arg, out, _ = fc.infer_shape(data=(4, 2, 3))
    assert arg[1] == (5, 6) and arg[2] == (5,) and out[0] == (4, 5)
    bn = S.quantized_batch_norm(data, name="bn", min_calib_range=-1.0, max_calib_range=1.0)
    assert bn.list_auxiliary_states() == ["bn_moving_mean", "bn_moving_var"]
    cat = S.quantized_concat(mx.sym.var("a"), mx.sym.var("b"), num_args=2, dim=1, name="c")
    assert cat.list_arguments() == ["a", "b", "c_arg0_min", "c_arg0_max", "c_arg1_min",
                                    "c_arg1_max"]
    assert cat.infer_shape(a=(2, 3), b=(2, 4))[1][0] == (2, 7)
    mul = S.quantized_elemwise_mul(mx.sym.var("l"), mx.sym.var("r"), enable_float_output=True)
    assert len(mul.list_outputs()) == 1


def test_symbolic_quantized_network_runs():
    data = mx.sym.var("data")
    q = mx.sym.contrib.quantize_v2(data, min_calib_range=-1.0, max_calib_range=1.0)
    fc = mx.sym.contrib.quantized_fully_connected(
        data=q[0], weight=mx.sym.var("w"), min_data=q[1], max_data=q[2],
        min_weight=mx.sym.var("wmin"), max_weight=mx.sym.var("wmax"), num_hidden=3, no_bias=True)
    rq = mx.sym.contrib.requantize(fc[0], fc[1], fc[2], min_calib_range=-2.0,
                                   max_calib_range=2.0)
    out = mx.sym.contrib.dequantize(rq[0], rq[1], rq[2])
    rng = np.random.RandomState(13)
    x = rng.uniform(-1, 1, size=(4, 5)).astype(F32)
    w = ref._q(rng, (3, 5), np.int8)
    ex = out.bind(mx.cpu(), {"data": nd(x), "w": nd(w), "wmin": R(-1.0), "wmax": R(1.0)})
    y = ex.forward()[0].asnumpy()
    expect = x @ (w.astype(F32) / 127.0).T
    np.testing.assert_allclose(y, expect, atol=0.08)


# ---- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("call,op", [
    (lambda: C.quantize(mx.nd.ones((2,), dtype="float64"), R(0.0), R(1.0)), "_contrib_quantize"),
    (lambda: C.dequantize(mx.nd.ones((2,)), R(0.0), R(1.0)), "_contrib_dequantize"),
    (lambda: C.requantize(mx.nd.ones((2,), dtype="int8"), R(0.0), R(1.0)),
     "_contrib_requantize"),
    (lambda: C.quantize(mx.nd.ones((2,)), mx.nd.array([0.0, 1.0]), R(1.0)), "_contrib_quantize"),
    (lambda: C.quantize_v2(mx.nd.ones((2,)), min_calib_range=0.0), "_contrib_quantize_v2"),
    (lambda: C.quantized_act(mx.nd.ones((2,)), R(0.0), R(1.0), act_type="relu"),
     "_contrib_quantized_act"),
    (lambda: C.quantized_act(mx.nd.ones((2,), dtype="int8"), R(0.0), R(1.0), act_type="tanh"),
     "_contrib_quantized_act"),
    (lambda: C.quantized_pooling(mx.nd.ones((1, 1, 4, 4), dtype="int8"), R(0.0), R(1.0),
                                 kernel=(2, 2), pool_type="sum"), "_contrib_quantized_pooling"),
    (lambda: C.quantized_pooling(mx.nd.ones((1, 1, 4, 4)), R(0.0), R(1.0), kernel=(2, 2)),
     "_contrib_quantized_pooling"),
    (lambda: C.quantized_fully_connected(mx.nd.ones((2, 5), dtype="int8"),
                                         mx.nd.ones((3, 4), dtype="int8"), R(-1.0), R(1.0),
                                         R(-1.0), R(1.0), num_hidden=3, no_bias=True),
     "_contrib_quantized_fully_connected"),
    (lambda: C.quantized_fully_connected(mx.nd.ones((2, 5)), mx.nd.ones((3, 5), dtype="int8"),
                                         R(-1.0), R(1.0), R(-1.0), R(1.0), num_hidden=3,
                                         no_bias=True), "_contrib_quantized_fully_connected"),
    (lambda: C.quantized_conv(mx.nd.ones((1, 2, 4, 4), dtype="uint8"),
                              mx.nd.ones((3, 2, 3, 3), dtype="uint8"), R(0.0), R(1.0), R(-1.0),
                              R(1.0), kernel=(3, 3), num_filter=3, no_bias=True),
     "_contrib_quantized_conv"),
    (lambda: C.quantized_elemwise_add(mx.nd.ones((2, 3), dtype="int8"),
                                      mx.nd.ones((3, 2), dtype="int8"), R(0.0), R(1.0), R(0.0),
                                      R(1.0)), "_contrib_quantized_elemwise_add"),
    (lambda: C.quantized_elemwise_mul(mx.nd.ones((2,), dtype="uint8"),
                                      mx.nd.ones((2,), dtype="uint8"), R(0.0), R(1.0), R(0.0),
                                      R(1.0)), "_contrib_quantized_elemwise_mul"),
    (lambda: C.quantized_concat(mx.nd.ones((2, 3), dtype="int8"), mx.nd.ones((3, 3), dtype="int8"),
                                R(0.0), R(1.0), R(0.0), R(1.0), num_args=2, dim=1),
     "_contrib_quantized_concat"),
    (lambda: C.quantized_batch_norm(mx.nd.ones((1, 2, 2, 2), dtype="int8"), mx.nd.ones((2,)),
                                    mx.nd.ones((2,)), mx.nd.zeros((2,)), mx.nd.ones((2,)),
                                    R(-1.0), R(1.0)), "_contrib_quantized_batch_norm"),
    (lambda: C.quantized_embedding(mx.nd.ones((2,)), mx.nd.ones((4, 3)), R(-1.0), R(1.0),
                                   input_dim=4, output_dim=3), "_contrib_quantized_embedding"),
])
def test_bad_inputs_raise_naming_the_op(call, op):
    with pytest.raises(mx.base.MXNetError) as info:
        outs(call())
    assert op in str(info.value) or op.replace("_contrib_", "") in str(info.value)


# ---- MXNet 1.9.1 -------------------------------------------------------------------------------

ORACLE_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
A = mx.nd.array
C = mx.nd.contrib
rng = np.random.RandomState(0)
res = {}
def put(k, r):
    r = r if isinstance(r, (list, tuple)) else [r]
    for j, o in enumerate(r):
        res['%s_%d' % (k, j)] = o.asnumpy()
def R(v):
    return A([v])
def q(shape, dt, lo=-128, hi=128):
    if dt == 'uint8':
        lo, hi = max(lo, 0), min(hi, 256)
    return A(rng.randint(lo, hi, size=shape).astype(dt), dtype=dt)
x = A(rng.uniform(-3, 3, size=(300,)).astype('float32'))
for ot in ['int8', 'uint8']:
    put('q1' + ot, C.quantize(x, R(-0.5), R(2.0), out_type=ot))
for i, kw in enumerate([{}, dict(out_type='uint8'), dict(out_type='auto', min_calib_range=0.1, max_calib_range=2.2),
                        dict(min_calib_range=-1.3, max_calib_range=0.8)]):
    put('q2_%d' % i, C.quantize_v2(x, **kw))
for dt in ['int8', 'uint8']:
    put('dq' + dt, C.dequantize(q((40,), dt), R(-0.3), R(2.0)))
d32 = A(rng.randint(-2 ** 24, 2 ** 24, size=(300,)).astype('int32'), dtype='int32')
for i, kw in enumerate([{}, dict(out_type='uint8'), dict(min_calib_range=-0.5, max_calib_range=0.8),
                        dict(out_type='auto', min_calib_range=0.0, max_calib_range=0.03)]):
    put('rq_%d' % i, C.requantize(d32, R(-10.0), R(7.0), **kw))
# conv: uint8 data (1.9.1's CPU build); FC weights within +-63 so that oneDNN's int16
# intermediate sums of its AVX2 int8 kernels cannot saturate
for i, kw in enumerate([{}, dict(stride=(2, 1), pad=(1, 2), dilate=(1, 2))]):
    xd, w, b = q((2, 3, 7, 8), 'uint8'), q((4, 3, 3, 3), 'int8', -127), q((4,), 'int8')
    put('conv%d' % i, C.quantized_conv(xd, w, b, R(0.0), R(1.3), R(-0.7), R(2.1), R(-1.0), R(1.0),
                                       kernel=(3, 3), num_filter=4, **kw))
for dt in ['int8', 'uint8']:
    d, w, b = q((4, 3, 2, 5), dt), q((6, 30), 'int8', -63, 64), q((6,), 'int8')
    put('fc' + dt, C.quantized_fully_connected(d, w, b, R(-1.0), R(1.3), R(-0.7), R(2.1),
                                                R(-0.2), R(0.9), num_hidden=6))
    put('fcnb' + dt, C.quantized_fully_connected(d, w, R(-1.0), R(1.3), R(-0.7), R(2.1),
                                                  num_hidden=6, no_bias=True))
    xp = q((2, 3, 5, 6), dt)
    for i, kw in enumerate([dict(kernel=(2, 2), pool_type='max'), dict(kernel=(2, 2), pool_type='avg'),
                            dict(kernel=(3, 3), pool_type='avg', pad=(1, 1), stride=(2, 2)),
                            dict(kernel=(3, 3), pool_type='avg', pad=(1, 1), count_include_pad=False),
                            dict(kernel=(2, 3), pool_type='avg', stride=(2, 2), pooling_convention='full'),
                            dict(kernel=(1, 1), global_pool=True, pool_type='avg')]):
        put('pool%s_%d' % (dt, i), C.quantized_pooling(xp, R(-1.0), R(2.0), **kw))
    put('act' + dt, C.quantized_flatten(xp, R(-1.0), R(2.0)))
a, b8, c = q((2, 3, 4), 'int8'), q((2, 2, 4), 'int8'), q((2, 1, 4), 'uint8')
put('cat', C.quantized_concat(a, b8, c, R(-1.0), R(1.3), R(-0.7), R(2.0), R(0.0), R(3.1), num_args=3, dim=1))
l, r = q((3, 30), 'int8'), q((3, 30), 'int8')
put('add', C.quantized_elemwise_add(l, r, R(-1.0), R(1.0), R(-2.0), R(3.0)))
put('addc', C.quantized_elemwise_add(l, r, R(-1.0), R(1.0), R(-2.0), R(3.0), min_calib_range=-2.0, max_calib_range=3.0))
names = ['l', 'r', 'a', 'b', 'c', 'd']
feed = dict(zip(names, [l, r, R(-1.0), R(1.0), R(-2.0), R(3.0)]))
for i, kw in enumerate([{}, dict(enable_float_output=True)]):
    s = mx.sym.contrib.quantized_elemwise_mul(*[mx.sym.var(n) for n in names], **kw)
    put('mul%d' % i, s.bind(mx.cpu(), feed).forward())
put('emb', C.quantized_embedding(A([[0, 4, 6.7], [2, 9, -3]]), q((7, 5), 'int8'), R(-1.0), R(2.0),
                                 input_dim=7, output_dim=5))
# batch_norm: eps folds in twice in 1.9.1's float32 order; zero and tiny variances (eps=0 with a
# zero variance gives NaN, which 1.9.1 turns into 0); uint8 data; the default eps and fix_gamma
gb, bb, mb = [A(rng.uniform(-2, 2, 6).astype('float32')) for _ in range(3)]
vb = A(np.array([0, 1e-7, 1e-4, 0.3, 1.0, 2.5], 'float32'))
for i, eps in enumerate([None, 1e-5, 2e-4, 1e-2, 0.1, 1.0, 0.0]):
    kw = dict(fix_gamma=False) if eps is None else dict(eps=eps, fix_gamma=False)
    for dt in ['int8', 'uint8']:
        for j, (lo, hi, clo, chi) in enumerate([(-1.5, 0.7, -2.0, 3.0), (0.0, 2.0, -6.0, 0.5)]):
            put('bn%d%s%d' % (i, dt, j), C.quantized_batch_norm(
                q((2, 6, 5, 7), dt), gb, bb, mb, vb, R(lo), R(hi), min_calib_range=clo,
                max_calib_range=chi, **kw))
put('bnfix', C.quantized_batch_norm(q((2, 6, 3, 3), 'int8'), gb, bb, mb, vb, R(-1.0), R(1.0),
                                    min_calib_range=-1.0, max_calib_range=2.0, eps=0.1))
np.savez(sys.argv[1], **res)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_matches_mxnet_191(tmp_path):
    mx191_oracle.check_reference()
    want, got = mx191_oracle.run_script_under_both(ORACLE_SCRIPT, str(tmp_path))
    assert sorted(want.files) == sorted(got.files)
    for key in want.files:
        w, g = want[key], got[key]
        assert w.dtype == g.dtype and w.shape == g.shape, (key, w.dtype, g.dtype, w.shape, g.shape)
        if key.startswith("mul1"):   # float32 product: the same up to the last bit
            np.testing.assert_allclose(g, w, rtol=1e-6, err_msg=key)
        else:
            np.testing.assert_array_equal(g, w, err_msg=key)


# ---- calibrate_entropy --------------------------------------------------------------------------

def _entropy_calibration_ref(hist, edges, bins):
    """MXNet 1.x's entropy calibration written from its definition (calibrate.cc's comment)."""
    def smooth(d):
        zeros = d == 0
        if zeros.all():
            return None
        return np.where(zeros, 1e-4, d - 1e-4 * zeros.sum() / (~zeros).sum())
    n = hist.size
    zero, half = n // 2, bins // 2
    best, best_stop = np.inf, zero + half + 1
    for i in range(half, zero + 1):
        a, b = zero - i, zero + i + 1
        window = hist[a:b].astype(np.float64)
        p = window.copy()
        p[0] += hist[:a].sum()
        p[-1] += hist[b:].sum()
        merged = window.size // bins
        q = np.zeros(window.size)
        for j in range(bins):
            s, e = j * merged, (window.size if j == bins - 1 else (j + 1) * merged)
            nz = (window[s:e] != 0).sum()
            if nz:
                q[s:e] = window[s:e].sum() / nz
        q[p == 0] = 0
        ps, qs = smooth(p), smooth(q)
        if ps is None or qs is None:
            continue
        ps, qs = ps / ps.sum(), qs / qs.sum()
        d = float(np.sum(ps * np.log(ps / qs)))
        if d < best:
            best, best_stop = d, b
    return edges[best_stop], best


@pytest.mark.parametrize("bins,nq", [(1001, 255), (301, 31), (65, 5)])
def test_calibrate_entropy_matches_the_definition(bins, nq):
    rng = np.random.RandomState(bins)
    x = np.concatenate([rng.randn(5000), rng.standard_t(2, size=500)])
    hist, edges = np.histogram(x, bins=bins, range=(-4, 4))
    th, div = mx.nd.contrib.calibrate_entropy(mx.nd.array(hist), mx.nd.array(edges),
                                              num_quantized_bins=nq)
    want_th, want_div = _entropy_calibration_ref(hist, edges.astype(np.float32), nq)
    assert th.shape == (1,) and div.shape == (1,)
    assert th.asscalar() == np.float32(want_th)
    np.testing.assert_allclose(div.asscalar(), want_div, rtol=1e-5)


def test_calibrate_entropy_rejects_bad_shapes_and_bins():
    with pytest.raises(mx.base.MXNetError, match='calibrate_entropy: hist_edges must have one more'):
        mx.nd.contrib.calibrate_entropy(mx.nd.ones(11), mx.nd.ones(11))
    with pytest.raises(mx.base.MXNetError, match='num_quantized_bins must be in'):
        mx.nd.contrib.calibrate_entropy(mx.nd.ones(11), mx.nd.ones(12),
                                        num_quantized_bins=13)[0].asnumpy()


_CALIBRATE_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
res = {}
for k, (bins, nq, seed) in enumerate([(1001, 255, 0), (2001, 255, 1), (301, 31, 2)]):
    rng = np.random.RandomState(seed)
    x = np.concatenate([rng.randn(8000), 3 * rng.rand(300)])
    hist, edges = np.histogram(x, bins=bins, range=(-5, 5))
    th, div = mx.nd.contrib.calibrate_entropy(mx.nd.array(hist), mx.nd.array(edges),
                                              num_quantized_bins=nq)
    res['th%d' % k], res['div%d' % k] = th.asnumpy(), div.asnumpy()
np.savez(sys.argv[1], **res)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_calibrate_entropy_matches_mxnet_191(tmp_path):
    ref, ours = mx191_oracle.run_script_under_both(_CALIBRATE_SCRIPT, str(tmp_path))
    for k in range(3):
        np.testing.assert_array_equal(ours['th%d' % k], ref['th%d' % k])
        # 1.9.1 sums in float32: the divergence agrees to about 1e-5.
        np.testing.assert_allclose(ours['div%d' % k], ref['div%d' % k], rtol=1e-4)


# ---- quantized_rnn ------------------------------------------------------------------------------
# MXNet 1.9.1 runs oneDNN's int8 LSTM. Its arithmetic, found by probing 1.9.1 on an AVX2 machine:
# int8 weights with one scale 127 / max|w| per gate row shared by all layers and directions,
# u8 x s8 products summed in int32 (its AVX2 kernels saturate each pair of products to int16
# first, its VNNI ones do not; ours sums exactly, so the comparison keeps pairs below 2^15),
# the data shift folded into the float bias, h re-quantized to uint8 at every step.  The per-row
# scales come from the blocks of the parameter vector that 1.9.1 reads for them (located by
# probing it one weight at a time; see _qrnn_ref); with them every network matches 1.9.1 bit
# for bit, except where 1.9.1 reads past the end of the vector (unidirectional, I_0 well above
# H: undefined memory), which the comparison avoids.

def _qrnn_nparams(L, D, I, H):
    return sum(D * 4 * H * ((I if l == 0 else D * H) + H + 2) for l in range(L))


def _qrnn_ref(xu, w, h0, c0, scale, shift, H, L, D):
    """The LSTM above in NumPy float32 (exact integer parts), from the description."""
    T, N, I = xu.shape
    G = 4 * H
    scale, shift = F32(scale), F32(shift)
    sizes = [I if l == 0 else D * H for l in range(L)]
    woff, off = {}, 0
    for l in range(L):
        for d in range(D):
            woff[l, d] = off
            off += G * (sizes[l] + H)
    nw = off
    # per-row scale from the (G, n) blocks 1.9.1 reads (elements past the vector skipped):
    # layer 0 whole; layer 1 direction 0 at its start and G*I_0 on; bidirectional layers 2..
    # direction 0 at their start and G*H on; no layer above 0 when unidirectional with I_0 == H
    blocks = [(woff[0, d] + k, n) for d in range(D) for k, n in ((0, I), (G * I, H))]
    if L > 1 and not (D == 1 and I == H):
        blocks += [(woff[1, 0], H), (woff[1, 0] + G * I, H)]
        if D == 2:
            blocks += [(woff[l, 0] + k, H) for l in range(2, L) for k in (0, G * H)]
    m = np.zeros(G, F32)
    for o, n in blocks:
        seg = w[o:o + G * n]
        seg = np.concatenate([seg, np.zeros(G * n - seg.size, F32)]).reshape(G, n)
        m = np.maximum(m, np.abs(seg).max(1))
    ws = (F32(127) / m).astype(F32)
    wd = (ws * scale).astype(F32)

    def q8(v):
        return np.clip(np.rint(v), 0, 255).astype(np.int64)

    def satdot(u, q):  # exact
        return u @ q.T

    def sig(z):
        return (F32(1) / (F32(1) + np.exp(-z))).astype(F32)

    xin = xu.astype(np.int64)
    hy, cy = [], []
    for l in range(L):
        outs = []
        for d in range(D):
            o = woff[l, d]
            wx = w[o:o + G * sizes[l]].reshape(G, -1)
            wh = w[o + G * sizes[l]:o + G * (sizes[l] + H)].reshape(G, H)
            bo = nw + (l * D + d) * 2 * G
            b = (w[bo:bo + G] + w[bo + G:bo + 2 * G]).astype(F32)
            # (saturated: with several layers a row can exceed the max 1.9.1 read)
            qx = np.clip(np.rint(wx * ws[:, None]), -128, 127).astype(np.int64)
            qh = np.clip(np.rint(wh * ws[:, None]), -128, 127).astype(np.int64)
            comp = (qx.sum(1) + qh.sum(1)).astype(F32)
            bias = (b - (comp * shift / wd).astype(F32)).astype(F32)
            deq = (F32(1) / wd).astype(F32)
            hq = q8(h0[l * D + d] * scale + shift)
            c = c0[l * D + d].astype(F32)
            ys = [None] * T
            for t in (range(T) if d == 0 else range(T - 1, -1, -1)):
                acc = satdot(xin[t], qx) + satdot(hq, qh)
                g = (acc.astype(F32) * deq + bias).astype(F32)
                i, f, gg, og = g[:, :H], g[:, H:2 * H], g[:, 2 * H:3 * H], g[:, 3 * H:]
                c = (sig(f) * c + sig(i) * np.tanh(gg)).astype(F32)
                hq = q8((sig(og) * np.tanh(c)).astype(F32) * scale + shift)
                ys[t] = hq
            outs.append(np.stack(ys))
            hy.append(hq)
            cy.append(c)
        xin = np.concatenate(outs, -1)
    deqf = lambda u: ((u.astype(F32) - shift) / scale).astype(F32)  # noqa: E731
    return deqf(xin), deqf(np.stack(hy)), np.stack(cy)


def _qrnn_inputs(rng, T, N, I, H, L, D, wr=0.6, states=True):
    xu = rng.randint(0, 256, (T, N, I)).astype(np.uint8)
    w = rng.uniform(-wr, wr, _qrnn_nparams(L, D, I, H)).astype(F32)
    h0 = rng.uniform(-1, 1, (L * D, N, H)).astype(F32) * states
    c0 = rng.uniform(-2, 2, (L * D, N, H)).astype(F32) * states
    return xu, w, h0.astype(F32), c0.astype(F32)


def _qrnn_run(xu, w, h0, c0, scale, shift, H, L, D, **kw):
    return outs(C.quantized_rnn(nd(xu), nd(w), nd(h0), nd(c0), R(scale), R(shift), state_size=H,
                                num_layers=L, bidirectional=D == 2, mode="lstm",
                                state_outputs=True, **kw))


@pytest.mark.parametrize("T,N,I,H,L,D,scale,shift", [
    (3, 2, 4, 5, 1, 1, 127.0, 128.0), (6, 3, 7, 8, 1, 1, 60.0, 100.0),
    (5, 4, 6, 16, 1, 2, 200.0, 30.0), (4, 2, 5, 6, 2, 1, 90.0, 128.0),
    (5, 3, 4, 7, 2, 2, 110.0, 120.0), (2, 2, 3, 4, 3, 1, 64.0, 128.0),
    (4, 2, 5, 5, 2, 1, 64.0, 64.0), (3, 2, 6, 3, 3, 2, 50.0, 100.0)])
def test_quantized_rnn_matches_numpy(T, N, I, H, L, D, scale, shift):
    rng = np.random.RandomState(T * 100 + H)
    args = _qrnn_inputs(rng, T, N, I, H, L, D)
    y, hy, cy = _qrnn_run(*args, scale, shift, H, L, D)
    wy, why, wcy = _qrnn_ref(*args, scale, shift, H, L, D)
    assert y.shape == (T, N, D * H) and hy.shape == cy.shape == (L * D, N, H)
    assert y.dtype == hy.dtype == cy.dtype == np.float32
    # NumPy's float32 exp/tanh are not libm's: a rare last-bit difference can move h across a
    # rounding boundary, so allow a few elements one quantum off.
    for g, want in ((y, wy), (hy, why)):
        k = np.rint((g - want) * scale)
        assert np.abs(k).max() <= 1
        assert (k != 0).mean() <= 0.03
    if (y == wy).all() and (hy == why).all():
        np.testing.assert_allclose(cy, wcy, rtol=1e-5, atol=1e-6)
    # outputs are dequantized uint8 values
    u = y * F32(scale) + F32(shift)
    np.testing.assert_allclose(u, np.rint(u), atol=1e-3)
    assert u.min() > -0.5 and u.max() < 255.5


def test_quantized_rnn_sums_products_exactly():
    # x = 255 everywhere and w = +max: the i2h sum is exactly 4 * 255 * 127 (oneDNN's AVX2
    # kernels would saturate each pair to 32767 and get half of it).
    H, I = 2, 4
    w = np.zeros(_qrnn_nparams(1, 1, I, H), F32)
    G = 4 * H
    w[:G * I] = 0.01
    xu = np.full((1, 1, I), 255, np.uint8)
    z = np.zeros((1, 1, H), F32)
    _, _, cy = _qrnn_run(xu, w, z, z, 1.0, 0.0, H, 1, 1)
    pre = 4 * 255 * 127 / (127 / 0.01) / 1.0         # exact i2h sum, dequantized
    want = 1 / (1 + np.exp(-pre)) * np.tanh(pre)     # c = sigmoid(i) * tanh(g), c0 = 0
    np.testing.assert_allclose(cy.ravel(), want, rtol=1e-5)
    np.testing.assert_allclose(cy, _qrnn_ref(xu, w, z, z, 1.0, 0.0, H, 1, 1)[2], rtol=1e-6)


def test_quantized_rnn_ignores_p_and_clipping_and_single_output():
    rng = np.random.RandomState(3)
    args = _qrnn_inputs(rng, 4, 2, 3, 5, 1, 1, wr=2.0)
    base = _qrnn_run(*args, 127.0, 128.0, 5, 1, 1)
    for kw in ({"p": 0.7}, {"lstm_state_clip_min": -0.1, "lstm_state_clip_max": 0.1}):
        assert_same(_qrnn_run(*args, 127.0, 128.0, 5, 1, 1, **kw), base)
    xu, w, h0, c0 = args
    one = C.quantized_rnn(nd(xu), nd(w), nd(h0), nd(c0), R(127.0), R(128.0), state_size=5,
                          num_layers=1, mode="lstm")
    assert not isinstance(one, (list, tuple))
    np.testing.assert_array_equal(one.asnumpy(), base[0])


def test_quantized_rnn_symbol_inference():
    v = mx.sym.var
    s = mx.sym.contrib.quantized_rnn(v("data"), v("parameters"), v("state"), v("state_cell"),
                                     min_data=v("sc"), max_data=v("sh"), state_size=5,
                                     num_layers=2, bidirectional=True, mode="lstm",
                                     state_outputs=True, name="q")
    assert s.list_arguments() == ["data", "parameters", "state", "state_cell", "sc", "sh"]
    assert s.list_outputs() == ["q_output", "q_state_output", "q_statecell_ouput"]
    args, outs_, _ = s.infer_shape(data=(3, 2, 4))
    assert args == [(3, 2, 4), (_qrnn_nparams(2, 2, 4, 5),), (4, 2, 5), (4, 2, 5), (1,), (1,)]
    assert outs_ == [(3, 2, 10), (4, 2, 5), (4, 2, 5)]
    at, ot, _ = s.infer_type(data="uint8")
    assert at == [np.uint8] + [np.float32] * 5 and ot == [np.float32] * 3
    s1 = mx.sym.contrib.quantized_rnn(data=v("data"), state_size=3, num_layers=1, mode="lstm",
                                      name="r")
    assert s1.list_arguments() == ["data", "r_parameters", "r_state", "r_state_cell",
                                   "r_min_data", "r_max_data"]
    assert s1.list_outputs() == ["r_output"]
    for t in ("float32", "int8"):
        with pytest.raises(mx.MXNetError, match="quantized_rnn"):
            s.infer_type(data=t)


@pytest.mark.parametrize("kw,msg", [
    ({"mode": "gru"}, "lstm"), ({"mode": "rnn_tanh"}, "lstm"),
    ({"projection_size": 3}, "projection_size"), ({"use_sequence_length": True},
                                                  "use_sequence_length")])
def test_quantized_rnn_rejects_unsupported_modes(kw, msg):
    xu, w, h0, c0 = _qrnn_inputs(np.random.RandomState(0), 2, 2, 3, 4, 1, 1)
    args = dict(state_size=4, num_layers=1, mode="lstm")
    args.update(kw)
    with pytest.raises(mx.MXNetError, match="quantized_rnn.*" + msg):
        C.quantized_rnn(nd(xu), nd(w), nd(h0), nd(c0), R(1.0), R(0.0), **args).wait_to_read()


def test_quantized_rnn_bad_inputs_raise():
    xu, w, h0, c0 = _qrnn_inputs(np.random.RandomState(0), 2, 2, 3, 4, 1, 1)
    kw = dict(state_size=4, num_layers=1, mode="lstm")
    bad = [
        (nd(xu.astype(np.int8)), nd(w), nd(h0), nd(c0), R(1.0), R(0.0)),        # data dtype
        (nd(xu.astype(F32)), nd(w), nd(h0), nd(c0), R(1.0), R(0.0)),
        (nd(xu), nd(w[:-1]), nd(h0), nd(c0), R(1.0), R(0.0)),                   # parameters
        (nd(xu), nd(w), nd(h0[:, :1]), nd(c0), R(1.0), R(0.0)),                 # state
        (nd(xu), nd(w), nd(h0), nd(c0[:, :, :2]), R(1.0), R(0.0)),              # state_cell
        (nd(xu), nd(w), nd(h0), nd(c0), mx.nd.array([1.0, 2.0]), R(0.0)),       # scale shape
        (nd(xu[0]), nd(w), nd(h0), nd(c0), R(1.0), R(0.0)),                     # 2-D data
    ]
    for a in bad:
        with pytest.raises(mx.MXNetError, match="quantized_rnn"):
            C.quantized_rnn(*a, **kw).wait_to_read()


_QRNN_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
rng = np.random.RandomState(11)
res = {}
def P(L, D, I, H):
    return sum(D * 4 * H * ((I if l == 0 else D * H) + H + 2) for l in range(L))
# Quantized values stay within [0, 128] (data, and h in [-1, 1] through scale + shift), so no pair
# of products passes 2^15: 1.9.1's AVX2 kernels then sum exactly too.
# Several layers: input sizes below, equal to, at twice and above the state size (1.9.1 reads
# different blocks for the per-row scales in each), uni- and bidirectional, up to 4 layers.
cases = [(3, 2, 4, 5, 1, 1, 64., 64., 0.5), (6, 3, 7, 8, 1, 1, 60., 64., 1.),
         (5, 4, 6, 16, 1, 1, 30., 40., 0.3), (4, 2, 5, 6, 1, 2, 50., 70., 0.7),
         (8, 5, 33, 40, 1, 1, 64., 64., 0.2), (3, 2, 4, 5, 1, 1, 3., 100., 0.5),
         (4, 2, 5, 6, 2, 1, 50., 64., 0.7), (5, 3, 4, 7, 2, 2, 60., 64., 0.6),
         (7, 3, 10, 12, 3, 2, 64., 64., 0.4), (4, 3, 5, 5, 2, 1, 64., 64., 0.5),
         (4, 2, 5, 5, 3, 1, 50., 64., 0.8), (5, 2, 4, 2, 2, 1, 64., 64., 0.6),
         (4, 3, 13, 5, 3, 1, 64., 64., 0.5), (3, 2, 3, 5, 4, 1, 30., 64., 0.9),
         (4, 3, 5, 5, 2, 2, 64., 64., 0.5), (4, 2, 10, 5, 3, 2, 50., 64., 0.7),
         (5, 3, 20, 3, 2, 2, 64., 64., 0.4), (3, 2, 4, 2, 4, 2, 64., 64., 1.),
         (4, 2, 2, 6, 3, 2, 64., 64., 0.5)]
for k, (T, N, I, H, L, D, sc, sh, wr) in enumerate(cases):
    xu = rng.randint(0, 129, (T, N, I)).astype('uint8')
    w = rng.uniform(-wr, wr, P(L, D, I, H)).astype('float32')
    h0 = rng.uniform(-1, 1, (L * D, N, H)).astype('float32')
    c0 = rng.uniform(-2, 2, (L * D, N, H)).astype('float32')
    o = mx.nd.contrib.quantized_rnn(mx.nd.array(xu, dtype='uint8'), mx.nd.array(w),
        mx.nd.array(h0), mx.nd.array(c0), mx.nd.array([sc]), mx.nd.array([sh]), state_size=H,
        num_layers=L, bidirectional=D == 2, mode='lstm', state_outputs=True)
    for j, a in enumerate(o):
        res['c%d_L%d_D%d_sc%g_%d' % (k, L, D, sc, j)] = a.asnumpy()
np.savez(sys.argv[1], **res)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_quantized_rnn_matches_mxnet_191(tmp_path):
    mx191_oracle.check_reference()
    want, got = mx191_oracle.run_script_under_both(_QRNN_SCRIPT, str(tmp_path))
    assert sorted(want.files) == sorted(got.files)
    for key in want.files:
        w, g = want[key], got[key]
        assert w.dtype == g.dtype and w.shape == g.shape, key
        if key.endswith("_2"):     # the float32 cell state: libm's expf/tanhf round alike
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=key)
        else:                      # output and hidden state: bit for bit
            np.testing.assert_array_equal(g, w, err_msg=key)
