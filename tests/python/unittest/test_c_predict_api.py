"""The predict API (include/mxnet/c_predict_api.h), called through ctypes as a C program
would. Oracles: the bound executor's inference forward on the same checkpoint, and the real
MXNet 1.9.1's predict API (the same script runs under both libraries)."""
import ctypes
import os
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle  # noqa: E402

_SCRIPT = r'''
import ctypes, sys
from ctypes import POINTER, byref, c_char_p, c_float, c_int, c_uint, c_void_p
import numpy as np
import mxnet as mx
lib = mx.base._LIB

def check(rc):
    if rc != 0:
        raise RuntimeError(lib.MXGetLastError().decode() if hasattr(lib.MXGetLastError(), "decode")
                           else "error")
lib.MXGetLastError.restype = c_char_p

def strings(values):
    return (c_char_p * len(values))(*[v.encode() for v in values])

def create(json, params, shapes, outputs=None, dtypes=None):
    keys = strings([k for k, _ in shapes])
    indptr, data = [0], []
    for _, s in shapes:
        data += list(s)
        indptr.append(len(data))
    h = c_void_p()
    args = [json.encode(), params, len(params), 1, 0, len(shapes), keys,
            (c_uint * len(indptr))(*indptr), (c_uint * len(data))(*data)]
    if outputs:
        check(lib.MXPredCreatePartialOut(*args, len(outputs), strings(outputs), byref(h)))
    elif dtypes:
        check(lib.MXPredCreateEx(*args, len(dtypes), strings(list(dtypes)),
                                 (c_int * len(dtypes))(*dtypes.values()), byref(h)))
    else:
        check(lib.MXPredCreate(*args, byref(h)))
    return h

def run(h, inputs, n_out=1):
    for k, v in inputs.items():
        v = np.ascontiguousarray(v, dtype=np.float32)
        check(lib.MXPredSetInput(h, k.encode(), v.ctypes.data_as(POINTER(c_float)), v.size))
    check(lib.MXPredForward(h))
    return run_outputs(h, n_out)

def run_outputs(h, n_out):
    outs = []
    for i in range(n_out):
        shape_p, ndim = POINTER(c_uint)(), c_uint()
        check(lib.MXPredGetOutputShape(h, i, byref(shape_p), byref(ndim)))
        out = np.empty(tuple(shape_p[j] for j in range(ndim.value)), dtype=np.float32)
        check(lib.MXPredGetOutput(h, i, out.ctypes.data_as(POINTER(c_float)), out.size))
        outs.append(out)
    return outs

rs = np.random.RandomState(0)
data = mx.sym.var("data")
x = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="conv")
x = mx.sym.BatchNorm(x, fix_gamma=False, name="bn")
x = mx.sym.Activation(x, act_type="relu", name="relu")
x = mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool")
x = mx.sym.FullyConnected(mx.sym.flatten(x), num_hidden=5, name="fc")
net = mx.sym.softmax(x, name="softmax")
arg_shapes, _, aux_shapes = net.infer_shape(data=(2, 3, 8, 8))
args = {n: mx.nd.array(rs.randn(*s) * 0.3) for n, s in zip(net.list_arguments(), arg_shapes)
        if n != "data"}
aux = {n: mx.nd.array(rs.rand(*s) + 0.5) for n, s in zip(net.list_auxiliary_states(), aux_shapes)}
prefix = sys.argv[2] + "/model"
mx.model.save_checkpoint(prefix, 1, net, args, aux)
json = open(prefix + "-symbol.json").read()
params = open(prefix + "-0001.params", "rb").read()
batch = rs.randn(2, 3, 8, 8)
out = {}
h = create(json, params, [("data", (2, 3, 8, 8))])
out["prob"] = run(h, {"data": batch})[0]
dtype = c_int()
check(lib.MXPredGetOutputType(h, 0, byref(dtype)))
out["dtype"] = np.array(dtype.value)
step_left = c_int(-1)
step = 0
check(lib.MXPredPartialForward(h, step, byref(step_left)))
while step_left.value > 0:
    step += 1
    check(lib.MXPredPartialForward(h, step, byref(step_left)))
out["prob_partial"] = run_outputs(h, 1)[0]
r = c_void_p()
check(lib.MXPredReshape(1, strings(["data"]), (c_uint * 2)(0, 4), (c_uint * 4)(3, 3, 8, 8), h,
                        byref(r)))
batch3 = rs.randn(3, 3, 8, 8)
out["prob_reshaped"] = run(r, {"data": batch3})[0]
out["prob_after_reshape"] = run(h, {"data": batch})[0]
p = create(json, params, [("data", (2, 3, 8, 8))], outputs=["relu", "fc"])
out["relu"], out["fc"] = run(p, {"data": batch}, n_out=2)
e = create(json, params, [("data", (2, 3, 8, 8))], dtypes={"data": 0})
out["prob_ex"] = run(e, {"data": batch})[0]
handles = [h, r, p, e]
if sys.argv[3] == "ours":  # 1.9.1 aborts the process here unless MXNET_ENGINE_TYPE=NaiveEngine
    hs = (c_void_p * 2)()
    check(lib.MXPredCreateMultiThread(json.encode(), params, len(params), 1, 0, 1,
                                      strings(["data"]), (c_uint * 2)(0, 4),
                                      (c_uint * 4)(2, 3, 8, 8), 2, hs))
    out["prob_thread1"] = run(c_void_p(hs[1]), {"data": batch})[0]
    handles += [c_void_p(hs[0]), c_void_p(hs[1])]
for handle in handles:
    check(lib.MXPredFree(handle))
mx.nd.save(prefix + "-mean.nd", {"mean_img": mx.nd.array(rs.rand(3, 2, 2))})
blob = open(prefix + "-mean.nd", "rb").read()
lst, n = c_void_p(), c_uint()
check(lib.MXNDListCreate(blob, len(blob), byref(lst), byref(n)))
key, vals, shp, ndim = c_char_p(), POINTER(c_float)(), POINTER(c_uint)(), c_uint()
check(lib.MXNDListGet(lst, 0, byref(key), byref(vals), byref(shp), byref(ndim)))
shape = tuple(shp[j] for j in range(ndim.value))
out["ndlist"] = np.array([vals[j] for j in range(int(np.prod(shape)))]).reshape(shape)
out["ndlist_key"] = np.array(key.value.decode())
check(lib.MXNDListFree(lst))
np.savez(sys.argv[1], **out)
'''


def _run_script(ours, tmp):
    script = os.path.join(tmp, "script.py")
    with open(script, "w") as f:
        f.write(_SCRIPT)
    result = os.path.join(tmp, "ours.npz" if ours else "ref.npz")
    mx191_oracle.run([script, result, tmp, "ours" if ours else "ref"], ours=ours)
    return np.load(result)


def test_predictions_match_the_executor_on_the_same_checkpoint():
    with tempfile.TemporaryDirectory() as tmp:
        got = _run_script(True, tmp)
        sym, args, aux = mx.model.load_checkpoint(os.path.join(tmp, "model"), 1)
        rs = np.random.RandomState(0)
        # Replay the script's random draws to get the same inputs.
        for s in [(4, 3, 3, 3), (4,), (4,), (4,), (5, 36), (5,)]:
            rs.randn(*s)
        for s in [(4,), (4,)]:
            rs.rand(*s)
        batch, batch3 = rs.randn(2, 3, 8, 8), rs.randn(3, 3, 8, 8)
        for data, key in [(batch, "prob"), (batch3, "prob_reshaped"), (batch, "prob_ex"),
                          (batch, "prob_partial"),
                          (batch, "prob_thread1"), (batch, "prob_after_reshape")]:
            ex = sym.bind(mx.cpu(), dict(args, data=mx.nd.array(data)), aux_states=aux,
                          grad_req="null")
            want = ex.forward(is_train=False)[0].asnumpy()
            np.testing.assert_allclose(got[key], want, rtol=1e-5, atol=1e-6, err_msg=key)
        internals = sym.get_internals()
        ex = mx.sym.Group([internals["relu_output"], internals["fc_output"]]).bind(
            mx.cpu(), dict(args, data=mx.nd.array(batch)), aux_states=aux)
        relu, fc = [o.asnumpy() for o in ex.forward(is_train=False)]
        np.testing.assert_allclose(got["relu"], relu, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got["fc"], fc, rtol=1e-5, atol=1e-6)
        assert int(got["dtype"]) == 0 and str(got["ndlist_key"]) == "mean_img"
        assert got["ndlist"].shape == (3, 2, 2)


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_predict_api_matches_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp_ref, tempfile.TemporaryDirectory() as tmp_ours:
        ref, ours = _run_script(False, tmp_ref), _run_script(True, tmp_ours)
        assert sorted(ref.files) == sorted(set(ours.files) - {"prob_thread1"})
        for key in ref.files:
            if ref[key].dtype.kind in "fc":
                np.testing.assert_allclose(ours[key], ref[key], rtol=1e-5, atol=1e-6,
                                           err_msg=key)
            else:
                np.testing.assert_array_equal(ours[key], ref[key], err_msg=key)


def _lib():
    lib = mx.base._LIB
    lib.MXGetLastError.restype = ctypes.c_char_p
    return lib


def _create(json, params, shape, key=b"data"):
    h = ctypes.c_void_p()
    rc = _lib().MXPredCreate(json.encode(), params, len(params), 1, 0, 1,
                             (ctypes.c_char_p * 1)(key), (ctypes.c_uint * 2)(0, len(shape)),
                             (ctypes.c_uint * len(shape))(*shape), ctypes.byref(h))
    return rc, h


def test_errors_are_reported_through_mxgetlasterror():
    net = mx.sym.BatchNorm(mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc"),
                           name="bn")
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "m")
        args = {"fc_weight": mx.nd.ones((3, 4)), "fc_bias": mx.nd.zeros(3),
                "bn_gamma": mx.nd.ones(3), "bn_beta": mx.nd.zeros(3)}
        aux = {"bn_moving_mean": mx.nd.zeros(3), "bn_moving_var": mx.nd.ones(3)}
        mx.model.save_checkpoint(prefix, 0, net, args, aux)
        json = open(prefix + "-symbol.json").read()
        params = open(prefix + "-0000.params", "rb").read()
        lib = _lib()

        rc, h = _create(json, params, (2, 4))
        assert rc == 0
        x = (ctypes.c_float * 5)()
        assert lib.MXPredSetInput(h, b"data", x, 5) == -1
        assert b"input \"data\" of shape [2,4] holds 8 values, got 5" in lib.MXGetLastError()
        assert lib.MXPredSetInput(h, b"label", x, 5) == -1
        assert b"\"label\" is not an input" in lib.MXGetLastError()
        assert lib.MXPredGetOutput(h, 3, x, 5) == -1
        assert b"output index 3 out of range" in lib.MXGetLastError()
        assert lib.MXPredFree(h) == 0

        rc, _ = _create(json, params, (2, 5))
        assert rc == -1 and b"fc" in lib.MXGetLastError()
        rc, _ = _create(json, params, (2, 4), key=b"image")
        assert rc == -1 and b"input \"image\" is not an argument" in lib.MXGetLastError()
        no_aux = mx.nd.save(os.path.join(tmp, "p"), {"arg:" + k: v for k, v in args.items()})
        del no_aux
        params_no_aux = open(os.path.join(tmp, "p"), "rb").read()
        rc, _ = _create(json, params_no_aux, (2, 4))
        assert rc == -1 and b"auxiliary state \"bn_moving_mean\"" in lib.MXGetLastError()
        rc, _ = _create(json, b"garbage bytes", (2, 4))
        assert rc == -1 and lib.MXGetLastError()
        rc, _ = _create("{not json", params, (2, 4))
        assert rc == -1 and lib.MXGetLastError()
