"""Op table: int8/uint8 quantization operators (src/operator/quantization/). The NumPy
references are written from the operators' definitions (symmetric ranges m = MaxAbs(min, max),
oneDNN's 127.5 / 255.5 or the integer limits 127 / 255, round half to even, saturation);
test_quantization_ops.py reuses them and also compares with real MXNet 1.9.1."""
import numpy as np

from . import OpEntry, Sample

F32 = np.float32
INT32_RANGE = F32(2.0 ** 31)


def maxabs(lo, hi):
    return F32(max(abs(F32(np.asarray(lo).ravel()[0])), abs(F32(np.asarray(hi).ravel()[0]))))


def sat(v, dtype):
    """Round half to even and saturate to an integer dtype (NaN: int8 max, uint8 0)."""
    v = np.asarray(v, dtype=np.float64)
    info = np.iinfo(dtype)
    nan = np.isnan(v)
    out = np.clip(np.rint(np.where(nan, 0, v)), info.min, info.max).astype(dtype)
    out[nan] = info.max if dtype == np.int8 else 0
    return out


def scalar(v):
    return np.array([v], dtype=F32)


def quantize_ref(x, lo, hi, out_type="uint8"):
    m = maxabs(lo, hi)
    if out_type == "int8":
        return sat(x.astype(F32) * (F32(127) / m), np.int8), scalar(-m), scalar(m)
    return (sat(x.astype(F32) * (F32(255) / m), np.uint8), scalar(np.ravel(lo)[0]),
            scalar(np.ravel(hi)[0]))


def quantize_v2_ref(x, out_type="int8", min_calib_range=None, max_calib_range=None):
    if x.dtype in (np.int8, np.uint8):
        r = (-127.5, 127.5) if x.dtype == np.int8 else (0.0, 255.5)
        return x.copy(), scalar(r[0]), scalar(r[1])
    if min_calib_range is not None:
        lo, hi = F32(min_calib_range), F32(max_calib_range)
    else:
        lo, hi = F32(x.min()), F32(x.max())
    if out_type == "auto":
        out_type = "uint8" if (min_calib_range is not None and min_calib_range >= 0) else "int8"
    m = maxabs(lo, hi)
    if out_type == "int8":
        return sat(x.astype(F32) * (F32(127.5) / m), np.int8), scalar(-m), scalar(m)
    return sat(x.astype(F32) * (F32(255.5) / m), np.uint8), scalar(lo), scalar(hi)


def dequantize_ref(q, lo, hi, out_type="float32"):
    m = maxabs(lo, hi)
    r = {np.dtype(np.int8): F32(127.5), np.dtype(np.uint8): F32(255.5),
         np.dtype(np.int32): INT32_RANGE}[q.dtype]
    return q.astype(F32) * (m / r)


def requantize_ref(q, lo, hi, out_type="int8", min_calib_range=None, max_calib_range=None):
    per_unit = maxabs(lo, hi) / INT32_RANGE
    if min_calib_range is not None:
        m = maxabs(min_calib_range, max_calib_range)
    else:
        m = maxabs(F32(q.min()) * per_unit, F32(q.max()) * per_unit)
    if out_type == "auto":
        out_type = "uint8" if (min_calib_range is not None and min_calib_range >= 0) else "int8"
    if out_type == "int8":
        s = per_unit * (F32(127) / m)
        return sat(q.astype(F32) * s, np.int8), scalar(-m), scalar(m)
    s = per_unit * (F32(255) / m)
    return sat(q.astype(F32) * s, np.uint8), scalar(0), scalar(m)


def quantize_asym_ref(x, min_calib_range=None, max_calib_range=None):
    if min_calib_range is not None:
        lo, hi = F32(min_calib_range), F32(max_calib_range)
    else:
        lo, hi = F32(x.min()), F32(x.max())
    scale = F32(255) / (hi - lo)
    shift = F32(255) - hi * scale
    v = x.astype(F32) * scale + shift + F32(0.5)
    return np.clip(np.floor(v), 0, 255).astype(np.uint8), scalar(scale), scalar(shift)


def flatten_ref(x, lo, hi):
    return x.reshape(x.shape[0], -1), scalar(lo[0]), scalar(hi[0])


def act_ref(x, lo, hi, act_type="relu"):
    return np.maximum(x, 0).astype(x.dtype), scalar(lo[0]), scalar(hi[0])


def pooling_ref(x, lo, hi, kernel=(), pool_type="max", stride=None, pad=None, global_pool=False,
                count_include_pad=True, pooling_convention="valid"):
    """2-D/3-D max or avg pooling on int8/uint8 with the avg rounded half to even; with
    count_include_pad the divisor is the whole kernel."""
    nsp = x.ndim - 2
    if global_pool:
        kernel, stride, pad = x.shape[2:], (1,) * nsp, (0,) * nsp
    stride = stride or (1,) * nsp
    pad = pad or (0,) * nsp
    outs = []
    for i in range(nsp):
        span = x.shape[2 + i] + 2 * pad[i] - kernel[i]
        if global_pool:
            outs.append(1)
        elif pooling_convention == "full":
            outs.append(1 + -(-span // stride[i]))
        else:
            outs.append(1 + span // stride[i])
    y = np.zeros(x.shape[:2] + tuple(outs), dtype=x.dtype)
    xi = x.astype(np.int64)
    for idx in np.ndindex(*outs):
        sl = []
        for i, o in enumerate(idx):
            start = o * stride[i] - pad[i]
            sl.append(slice(max(start, 0), min(start + kernel[i], x.shape[2 + i])))
        win = xi[(slice(None), slice(None)) + tuple(sl)]
        win = win.reshape(win.shape[0], win.shape[1], -1)
        if pool_type == "max":
            v = win.max(axis=2)
        else:
            count = int(np.prod(kernel)) if count_include_pad else win.shape[2]
            v = sat(win.sum(axis=2) / count, x.dtype)
        y[(slice(None), slice(None)) + idx] = v
    return y, scalar(lo[0]), scalar(hi[0])


def _q(rng, shape, dtype):
    lo, hi = (-128, 128) if dtype == np.int8 else (0, 256)
    return rng.randint(lo, hi, size=shape).astype(dtype)


def _float_and_range(shape, lo, hi):
    return lambda rng, dtype: [rng.uniform(-2, 2, size=shape).astype(F32), scalar(lo), scalar(hi)]


def _quant_and_range(shape, qdtype, lo=-1.0, hi=2.0):
    return lambda rng, dtype: [_q(rng, shape, qdtype), scalar(lo), scalar(hi)]


_ONLY_F32 = ("float32",)

ENTRIES = [
    OpEntry("contrib.quantize", ref=quantize_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=_float_and_range((3, 4), -1.0, 1.5), kwargs={"out_type": "int8"}),
        Sample(arrays=_float_and_range((2, 3, 4), -0.5, 2.0), kwargs={"out_type": "uint8"})]),
    OpEntry("contrib.quantize_v2", ref=quantize_v2_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=lambda rng, d: [rng.uniform(-2, 2, size=(3, 5)).astype(F32)]),
        Sample(arrays=lambda rng, d: [rng.uniform(-2, 2, size=(3, 5)).astype(F32)],
               kwargs={"out_type": "uint8"}),
        Sample(arrays=lambda rng, d: [rng.uniform(-2, 2, size=(4, 5)).astype(F32)],
               kwargs={"out_type": "auto", "min_calib_range": 0.0, "max_calib_range": 1.5}),
        Sample(arrays=lambda rng, d: [rng.uniform(-2, 2, size=(4, 5)).astype(F32)],
               kwargs={"min_calib_range": -1.0, "max_calib_range": 0.5})]),
    OpEntry("contrib.dequantize", ref=dequantize_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=_quant_and_range((3, 4), np.int8, -0.3, 2.0)),
        Sample(arrays=_quant_and_range((2, 7), np.uint8, 0.0, 1.5))]),
    OpEntry("contrib.requantize", ref=requantize_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=lambda rng, d: [rng.randint(-2 ** 24, 2 ** 24, size=(4, 6)).astype(np.int32),
                                      scalar(-10.0), scalar(7.0)]),
        Sample(arrays=lambda rng, d: [rng.randint(-2 ** 24, 2 ** 24, size=(4, 6)).astype(np.int32),
                                      scalar(-10.0), scalar(7.0)],
               kwargs={"out_type": "auto", "min_calib_range": 0.0, "max_calib_range": 0.05})]),
    OpEntry("contrib.quantize_asym", ref=quantize_asym_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=lambda rng, d: [rng.uniform(-2, 3, size=(3, 5)).astype(F32)]),
        Sample(arrays=lambda rng, d: [rng.uniform(-2, 3, size=(3, 5)).astype(F32)],
               kwargs={"min_calib_range": -1.0, "max_calib_range": 2.0})]),
    OpEntry("contrib.quantized_flatten", ref=flatten_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=_quant_and_range((2, 3, 4), np.int8))]),
    OpEntry("contrib.quantized_act", ref=act_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=_quant_and_range((2, 3, 4), np.int8), kwargs={"act_type": "relu"}),
        Sample(arrays=_quant_and_range((2, 5), np.uint8), kwargs={"act_type": "relu"})]),
    OpEntry("contrib.quantized_pooling", ref=pooling_ref, dtypes=_ONLY_F32, grad=False, samples=[
        Sample(arrays=_quant_and_range((2, 3, 5, 6), np.int8),
               kwargs={"kernel": (2, 2), "pool_type": "max"}),
        Sample(arrays=_quant_and_range((2, 3, 5, 6), np.uint8),
               kwargs={"kernel": (3, 3), "pool_type": "avg", "pad": (1, 1), "stride": (2, 2)})]),
]

_WHY = "mixed int8/int32/float32 inputs and several range outputs; tested against NumPy and " \
       "MXNet 1.9.1 in test_quantization_ops.py"

EXEMPT = {
    "_contrib_calibrate_entropy": "takes a histogram and its edges, which random inputs are not; "
                                  "tested against its definition and MXNet 1.9.1 in "
                                  "test_quantization_ops.py",
    "_contrib_quantized_concat": _WHY,
    "_contrib_quantized_elemwise_add": _WHY,
    "_contrib_quantized_elemwise_mul": _WHY,
    "_contrib_quantized_fully_connected": _WHY,
    "_contrib_quantized_conv": _WHY,
    "_contrib_quantized_embedding": _WHY,
    "_contrib_quantized_batch_norm": _WHY,
    "_contrib_quantized_rnn": "uint8 LSTM with float32 scale/shift scalars and a packed parameter "
                              "vector; tested against a NumPy model and MXNet 1.9.1 in "
                              "test_quantization_ops.py",
}
