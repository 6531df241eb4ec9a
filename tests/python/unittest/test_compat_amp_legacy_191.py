"""mx.contrib.amp (convert_symbol / convert_model / convert_hybrid_block graphs, amp.init,
amp_cast, the bfloat16 and float16 operator lists), the legacy Python operator interfaces
(NumpyOp, NDArrayOp, CustomOp), mx.model.FeedForward and BatchNorm's fix_gamma write, each run
by the same script under MXNet 1.9.1 and under this checkout (mx191_oracle). Parameters and
data come from NumPy seeds, never mx.random, so both sides compute the same thing.

bfloat16 is compared through amp_cast only (test_bfloat16_amp_cast_ours): 1.9.1's oneDNN
bfloat16 operator kernels need a CPU with bfloat16 instructions. float16 products are not
compared either: 1.9.1 has no float16 GEMM on CPUs."""
import os
import sys
import tempfile

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle  # noqa: E402

pytestmark = pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)


def _both(script):
    with tempfile.TemporaryDirectory() as tmp:
        ref, ours = mx191_oracle.run_script_under_both(script, tmp)
        return {k: ref[k] for k in ref.files}, {k: ours[k] for k in ours.files}


_NET = r'''
import json, sys, logging
import numpy as np
import mxnet as mx
from mxnet.contrib import amp
logging.disable(logging.CRITICAL)

def net():
    data = mx.sym.var("data")
    x = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="conv")
    x = mx.sym.BatchNorm(x, fix_gamma=False, name="bn")
    x = mx.sym.Activation(x, act_type="relu", name="relu")
    x = mx.sym.FullyConnected(x, num_hidden=5, name="fc")
    return mx.sym.softmax(x, name="sm")

def structure(sym):
    """(op, name, dtype attribute, inputs) of each node, as strings."""
    nodes = json.loads(sym.tojson(remove_amp_cast=False))["nodes"]
    return np.array(["%s|%s|%s|%s" % (n["op"], n["name"],
                     (n.get("attrs") or {}).get("dtype", (n.get("attrs") or {}).get("__dtype__")),
                     [e[:2] for e in n["inputs"]]) for n in nodes])

def params(sym, shapes, seed):
    rng = np.random.RandomState(seed)
    arg_shapes, _, aux_shapes = sym.infer_shape(**shapes)
    args = {n: rng.uniform(-1, 1, s).astype("float32")
            for n, s in zip(sym.list_arguments(), arg_shapes)}
    aux = {n: rng.uniform(0.5, 1.5, s).astype("float32")
           for n, s in zip(sym.list_auxiliary_states(), aux_shapes)}
    return args, aux
'''

_STRUCTURE_SCRIPT = _NET + r'''
out = {}
d, d2 = mx.sym.var("data"), mx.sym.var("d2")
FC = lambda x, n: mx.sym.FullyConnected(x, num_hidden=3, name=n)
R = lambda x, n: mx.sym.Activation(x, act_type="relu", name=n)
cases = {
    "net": (net(), dict(data_names=["data"])),
    "net_optional": (net(), dict(data_names=["data"], cast_optional_params=True)),
    "net_default_names": (net(), {}),
    "fp32_on_var": (mx.sym.softmax(d, name="sm"), dict(data_names=["data"])),
    "widest_lp_var": (mx.sym.elemwise_add(FC(d, "fc"), d2, name="add"),
                      dict(data_names=["data", "d2"])),
    "widest_vars": (mx.sym.exp(mx.sym.elemwise_add(d, d2, name="add"), name="e"),
                    dict(data_names=["data", "d2"])),
    "widest_fp32": (FC(mx.sym.elemwise_add(mx.sym.exp(d, name="e1"), mx.sym.exp(d2, name="e2"),
                                           name="add"), "f"), dict(data_names=["data", "d2"])),
    "widest_lp": (FC(mx.sym.elemwise_add(FC(d, "f1"), FC(d, "f2"), name="add"), "f3"),
                  dict(data_names=["data"])),
    "split": (FC(mx.sym.split(FC(d, "f1"), num_outputs=3, axis=1, name="sp")[2], "f2"),
              dict(data_names=["data"])),
    "excluded": (mx.sym.softmax(FC(FC(d, "f1"), "f2"), name="sm"),
                 dict(data_names=["data"], excluded_sym_names=["f2"])),
    "softrelu": (mx.sym.Activation(R(d, "r"), act_type="softrelu", name="sr"),
                 dict(data_names=["data"])),
    "relu_var_head": (R(d, "r"), dict(data_names=["data"])),
    "var_head": (mx.sym.Group([d, FC(d, "fc")]), dict(data_names=["data"])),
    "flatten": (FC(mx.sym.Flatten(mx.sym.Pooling(FC(d, "f1"), kernel=(1,), pool_type="max",
                                                 name="p"), name="fl"), "f2"),
                dict(data_names=["data"])),
    "bn_mean": (FC(mx.sym.BatchNorm(FC(d, "f1"), output_mean_var=True, name="bn")[1], "f2"),
                dict(data_names=["data"])),
    "loss": (mx.sym.SoftmaxOutput(FC(d, "fc"), name="so"), dict(data_names=["data", "so_label"])),
}
for key, (sym, kwargs) in cases.items():
    for dtype in ("bfloat16", "float16"):
        converted = amp.convert_symbol(sym, target_dtype=dtype, **kwargs)
        out["%s_%s" % (key, dtype)] = structure(converted)
np.savez(sys.argv[1], **out)
'''


def test_convert_symbol_graph_matches_191():
    """Which nodes get amp_cast / amp_multicast, with which dtype, names and inputs, and the
    __dtype__ marks on the parameters (1.9.1's ReducePrecision pass)."""
    ref, ours = _both(_STRUCTURE_SCRIPT)
    assert sorted(ref) == sorted(ours)
    for key in ref:
        assert list(ours[key]) == list(ref[key]), key


_MODEL_SCRIPT = _NET + r"""
out = {}
sym = net()
args, aux = params(sym, {"data": (2, 2, 6, 6)}, 3)
x = args.pop("data")
nd = lambda d: {k: mx.nd.array(v) for k, v in d.items()}
dtname = lambda t: np.dtype(t).names or np.dtype(t).name  # 1.9.1's bfloat16 is a record type
out["fp32_out"] = sym.bind(mx.cpu(), dict(nd(args), data=mx.nd.array(x)),
                           aux_states=nd(aux)).forward(is_train=False)[0].asnumpy()
for optional in (False, True):
    tag = "model%d" % optional
    try:  # casting parameters to bfloat16 (cast_optional_params) needs bfloat16 kernels
        conv, cargs, caux = amp.convert_model(sym, nd(args), nd(aux), target_dtype="bfloat16",
                                              cast_optional_params=optional)
    except Exception:
        continue
    out[tag + "_structure"] = structure(conv)
    out[tag + "_dtypes"] = np.array(sorted("%s:%s" % (k, dtname(v.dtype))
                                    for k, v in list(cargs.items()) + list(caux.items())))
from mxnet.gluon import nn
block = nn.HybridSequential(prefix="net_")
with block.name_scope():
    block.add(nn.Dense(6, activation="relu", in_units=4), nn.Dense(3, in_units=6))
block.initialize()
rng = np.random.RandomState(5)
for name, p in sorted(block.collect_params().items()):
    p.set_data(mx.nd.array(rng.uniform(-1, 1, p.shape)))
block.hybridize()
xb = mx.nd.array(rng.uniform(-1, 1, (4, 4)))
out["block_fp32_out"] = block(xb).asnumpy()
converted = amp.convert_hybrid_block(block, target_dtype="bfloat16", ctx=mx.cpu())
out["block_structure"] = structure(converted._cached_graph[1] if converted._cached_graph
                                   else converted(mx.sym.var("data")))
out["block_dtypes"] = np.array(sorted("%s:%s" % (k, dtname(p.dtype))
                               for k, p in converted.collect_params().items()))
np.savez(sys.argv[1], **out)
"""


def test_bfloat16_convert_model_and_hybrid_block_match_191():
    """convert_model / convert_hybrid_block with bfloat16: graph and parameter dtypes equal to
    1.9.1's, and the float32 models agree. The converted models are not run: this build has
    no bfloat16 kernels, and 1.9.1's oneDNN kernels need a CPU with bfloat16 instructions
    ("could not create a primitive descriptor" on this machine)."""
    ref, ours = _both(_MODEL_SCRIPT)
    # without bfloat16 kernels we cannot cast parameters to bfloat16 (cast_optional_params)
    assert set(ref) - set(ours) <= {'model1_structure', 'model1_dtypes'}
    for key in ref:
        if key not in ours:
            continue
        elif key.endswith('fp32_out'):
            np.testing.assert_allclose(ours[key], ref[key], rtol=1e-5, atol=1e-6, err_msg=key)
        else:
            assert list(ours[key]) == list(ref[key]), key
    assert set(ours) <= set(ref)


_CAST_SCRIPT = r"""
import sys
import numpy as np
import mxnet as mx
rng = np.random.RandomState(0)
x = np.concatenate([rng.randn(64) * 10.0 ** rng.randint(-6, 6, 64),
                    [0.0, -0.0, 1.0, 65504.0, 70000.0, 1e-8, 3.0e38]]).astype("float32")
out = {}
out["fp16"] = mx.nd.amp_cast(mx.nd.array(x), dtype="float16").asnumpy().view(np.uint16)
out["fp16_back"] = mx.nd.amp_cast(mx.nd.array(x, dtype="float16"), dtype="float32").asnumpy()
# (amp_multicast with a float16 input fails on 1.9.1's CPU build, "unknown type for MKLDNN")
np.savez(sys.argv[1], **out)
"""


def test_amp_cast_matches_191():
    """float16 rounding (raw bits) and widening."""
    ref, ours = _both(_CAST_SCRIPT)
    assert sorted(ref) == sorted(ours)
    for key in ref:
        np.testing.assert_array_equal(ours[key], ref[key], err_msg=key)


_BF16_CAST_SCRIPT = r'''
import sys, json
import numpy as np
import mxnet as mx
rng = np.random.RandomState(0)
x = (rng.randn(256) * 10.0 ** rng.randint(-4, 4, 256)).astype("float32")
# float32 -> bfloat16 -> float32 in one graph (1.9.1's mx.nd.amp_cast wrapper rejects the name)
g = {"nodes": [{"op": "null", "name": "d", "inputs": []},
               {"op": "amp_cast", "name": "c1", "attrs": {"dtype": "bfloat16"},
                "inputs": [[0, 0, 0]]},
               {"op": "amp_cast", "name": "c2", "attrs": {"dtype": "float32"},
                "inputs": [[1, 0, 0]]}],
     "arg_nodes": [0], "heads": [[2, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}
exe = mx.sym.load_json(json.dumps(g)).bind(mx.cpu(), {"d": mx.nd.array(x)})
np.savez(sys.argv[1], x=x, back=exe.forward()[0].asnumpy())
'''


def _bf16_round(x):
    """Round-to-nearest-even float32 -> bfloat16 -> float32, in NumPy."""
    bits = x.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def test_bfloat16_amp_cast_191_rounds_to_nearest_even():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'script.py')
        with open(path, 'w') as f:
            f.write(_BF16_CAST_SCRIPT)
        mx191_oracle.run([path, os.path.join(tmp, 'ref.npz')], ours=False)
        ref = np.load(os.path.join(tmp, 'ref.npz'))
        np.testing.assert_array_equal(ref['back'], _bf16_round(ref['x']))


def test_bfloat16_amp_cast_ours():
    """Our float32 -> bfloat16 -> float32 amp_cast graph gives 1.9.1's values bit for bit (and
    the NumPy model of round-to-nearest-even)."""
    ref, ours = _both(_BF16_CAST_SCRIPT)
    np.testing.assert_array_equal(ours['x'], ref['x'])
    np.testing.assert_array_equal(ours['back'].view(np.uint32), ref['back'].view(np.uint32))
    np.testing.assert_array_equal(ours['back'], _bf16_round(ours['x']))


_LISTS_SCRIPT = r"""
import sys, ctypes
import numpy as np
import mxnet as mx
from mxnet.contrib import amp
from mxnet.base import _LIB, check_call, py_str
plist, size = ctypes.POINTER(ctypes.c_char_p)(), ctypes.c_uint()
check_call(_LIB.MXListAllOpNames(ctypes.byref(size), ctypes.byref(plist)))
out = {"ops": np.array(sorted(py_str(plist[i]) for i in range(size.value)))}
for dtype, lists in (("bf16", amp.lists.symbol_bf16), ("fp16", amp.lists.symbol_fp16)):
    for k in [n for n in dir(lists) if n.isupper() and not n.startswith("_")]:
        value = getattr(lists, k)
        if isinstance(value, dict):
            value = ["%s:%s" % (op, v) for op, v in value.items()]
        out["%s_%s" % (dtype, k)] = np.array(sorted(str(v) for v in value))
for dtype, arg in (("bf16", amp.amp.bfloat16), ("fp16", "float16")):
    for name in ("lp16_ops", "fp32_ops", "lp16_fp32_ops", "widest_type_cast"):
        out["api_%s_%s" % (dtype, name)] = np.array(sorted(getattr(amp, "list_" + name)(arg)))
np.savez(sys.argv[1], **out)
"""


def test_op_lists_match_191():
    """The bfloat16 and float16 lists (and the list_* functions), restricted to operators both
    registries have, are equal to 1.9.1's."""
    ref, ours = _both(_LISTS_SCRIPT)
    assert sorted(ref) == sorted(ours)
    both = set(ref['ops']) & set(ours['ops'])
    for key in ref:
        if key == 'ops':
            continue
        if key.endswith(('CONDITIONAL_FP32_FUNCS', 'USE_FP32_PARAMS', 'LOSS_OUTPUT_FUNCTIONS')):
            assert list(ours[key]) == list(ref[key]), key
            continue
        r, o = set(ref[key]) & both, set(ours[key]) & both
        assert r == o, (key, sorted(r - o), sorted(o - r))


_INIT_SCRIPT = r"""
import sys, json, logging
import numpy as np
import mxnet as mx
from mxnet.contrib import amp
logging.disable(logging.CRITICAL)
amp.init(target_dtype="bfloat16")
d, w = mx.sym.var("d"), mx.sym.var("w")
y = mx.sym.FullyConnected(d, w, num_hidden=4, no_bias=True, name="fc")
y = mx.sym.Activation(y, act_type="relu", name="relu")
y = mx.sym.softmax(mx.sym.elemwise_add(y, d, name="add"), name="sm")
y = mx.sym.Activation(y, act_type="softrelu", name="sr")
y = mx.sym.Convolution(mx.sym.exp(y, name="e"), kernel=(1,), num_filter=2, name="conv")
y = mx.sym.BatchNorm(mx.sym.Activation(y, act_type="tanh", name="t"), name="bn")
nodes = json.loads(y.tojson(remove_amp_cast=False))["nodes"]
x = mx.nd.ones((2, 3))
np.savez(sys.argv[1], nodes=np.array(["%s|%s|%s|%s" % (n["op"], n["name"],
                                      (n.get("attrs") or {}).get("dtype"), n["inputs"])
                                      for n in nodes]),
         fp32=np.array([np.dtype(mx.nd.softmax(x).dtype).name,
                        np.dtype(mx.nd.exp(x).dtype).name]))
"""


def test_amp_init_bfloat16_casts_like_191():
    """amp.init patches the operator functions (so it runs in the scripts: it cannot be
    undone); symbols built afterwards get the same casts, the inputs an operator creates
    itself (weight, bias) included. (Imperative bfloat16 calls need bfloat16 kernels.)"""
    ref, ours = _both(_INIT_SCRIPT)
    assert list(ours['nodes']) == list(ref['nodes'])
    assert list(ours['fp32']) == list(ref['fp32'])


# ---------------------------------------------------------------------------------------------
# The legacy Python operator interfaces

_LEGACY_SCRIPT = r"""import sys, warnings
import numpy as np
import mxnet as mx
warnings.simplefilter("ignore")
out = {}
rng = np.random.RandomState(7)

class NumpySquare(mx.operator.NumpyOp):
    def __init__(self):
        super(NumpySquare, self).__init__(need_top_grad=True)
    def list_arguments(self):
        return ["data"]
    def list_outputs(self):
        return ["output"]
    def infer_shape(self, in_shape):
        return [in_shape[0]], [in_shape[0]]
    def forward(self, in_data, out_data):
        out_data[0][:] = in_data[0] ** 2
    def backward(self, out_grad, in_data, out_data, in_grad):
        in_grad[0][:] = 2 * in_data[0] * out_grad[0]

class NumpySoftmax(mx.operator.NumpyOp):
    def __init__(self):
        super(NumpySoftmax, self).__init__(False)
    def list_arguments(self):
        return ["data", "label"]
    def list_outputs(self):
        return ["output"]
    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]]
    def forward(self, in_data, out_data):
        x, y = in_data[0], out_data[0]
        y[:] = np.exp(x - x.max(axis=1, keepdims=True))
        y /= y.sum(axis=1, keepdims=True)
    def backward(self, out_grad, in_data, out_data, in_grad):
        l = in_data[1].astype(int)
        in_grad[0][:] = out_data[0]
        in_grad[0][np.arange(l.shape[0]), l] -= 1.0

class NDScale(mx.operator.NDArrayOp):
    def __init__(self):
        super(NDScale, self).__init__(True)
    def list_arguments(self):
        return ["data", "scale"]
    def list_outputs(self):
        return ["output"]
    def infer_shape(self, in_shape):
        return [in_shape[0], in_shape[0]], [in_shape[0]]
    def forward(self, in_data, out_data):
        out_data[0][:] = in_data[0] * in_data[1] + 1
    def backward(self, out_grad, in_data, out_data, in_grad):
        in_grad[0][:] = out_grad[0] * in_data[1]
        in_grad[1][:] = out_grad[0] * in_data[0]

x = rng.uniform(-1, 1, (3, 4)).astype("float32")
s = rng.uniform(-1, 1, (3, 4)).astype("float32")
lbl = np.array([0, 3, 1], dtype="float32")
head = rng.uniform(-1, 1, (3, 4)).astype("float32")
def run(net, tag, args, heads=None):
    exe = net.simple_bind(mx.cpu(), **{k: v.shape for k, v in args.items()})
    for k, v in args.items():
        exe.arg_dict[k][:] = v
    o = exe.forward(is_train=True)
    out[tag + "_args"] = np.array(net.list_arguments())
    out[tag + "_outs"] = np.array(net.list_outputs())
    out[tag + "_fwd"] = o[0].asnumpy()
    exe.backward([mx.nd.array(h) for h in heads] if heads else None)
    for k in args:
        if exe.grad_dict.get(k) is not None:
            out[tag + "_grad_" + k] = exe.grad_dict[k].asnumpy()
d = mx.sym.var("data")
run(NumpySquare()(data=d, name="sq") * 3, "npsq", {"data": x}, [head])
run(NumpySoftmax()(data=d, label=mx.sym.var("label"), name="sm"), "npsm", {"data": x, "label": lbl})
run(NDScale()(data=d, scale=mx.sym.var("scale"), name="sc"), "ndsc", {"data": x, "scale": s},
    [head])

class Affine(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        y = in_data[0] * in_data[1] + aux[0]
        self.assign(out_data[0], req[0], y)
        self.assign(out_data[1], req[1], y.sum(axis=1, keepdims=True))
        aux[0][:] = aux[0] + 1   # a running counter in the auxiliary state
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        g = out_grad[0] + out_grad[1]
        self.assign(in_grad[0], req[0], g * in_data[1])
        self.assign(in_grad[1], req[1], g * in_data[0])

@mx.operator.register("compat_affine")
class AffineProp(mx.operator.CustomOpProp):
    def __init__(self, shift="0"):
        super(AffineProp, self).__init__(need_top_grad=True)
        self.shift = float(shift)
    def list_arguments(self):
        return ["data", "w"]
    def list_outputs(self):
        return ["out", "rowsum"]
    def list_auxiliary_states(self):
        return ["count"]
    def infer_shape(self, in_shape):
        n = in_shape[0]
        return [n, n], [n, (n[0], 1)], [n]
    def infer_type(self, in_type):
        return in_type, [in_type[0]] * 2, [in_type[0]]
    def create_operator(self, ctx, shapes, dtypes):
        return Affine()

class Loss(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] ** 2 / 2)
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], in_data[0] * 3.0)   # ignores the head gradient

@mx.operator.register("compat_loss")
class LossProp(mx.operator.CustomOpProp):
    def __init__(self):
        super(LossProp, self).__init__(need_top_grad=False)
    def list_arguments(self):
        return ["data"]
    def infer_shape(self, in_shape):
        return in_shape, [in_shape[0]], []
    def create_operator(self, ctx, shapes, dtypes):
        return Loss()

count = rng.uniform(-1, 1, (3, 4)).astype("float32")
# imperative
xa, wa, ca = mx.nd.array(x), mx.nd.array(s), mx.nd.array(count)
xa.attach_grad(); wa.attach_grad()
with mx.autograd.record():
    o, r = mx.nd.Custom(xa, wa, ca, op_type="compat_affine", shift="2")
    loss = (o * mx.nd.array(head)).sum() + r.sum()
loss.backward()
out["imp_out"], out["imp_rowsum"] = o.asnumpy(), r.asnumpy()
out["imp_gx"], out["imp_gw"], out["imp_aux"] = xa.grad.asnumpy(), wa.grad.asnumpy(), ca.asnumpy()
with mx.autograd.record():
    l = mx.nd.Custom(xa, op_type="compat_loss")
l.backward(mx.nd.array(head))
out["imp_loss"], out["imp_loss_g"] = l.asnumpy(), xa.grad.asnumpy()
# symbolic
net = mx.sym.Custom(d, mx.sym.var("w"), op_type="compat_affine", name="aff")
out["sym_args"] = np.array(net.list_arguments())
out["sym_aux"] = np.array(net.list_auxiliary_states())
out["sym_outs"] = np.array(net.list_outputs())
exe = net.simple_bind(mx.cpu(), data=x.shape, w=s.shape)
exe.arg_dict["data"][:] = x; exe.arg_dict["w"][:] = s; exe.aux_dict["aff_count"][:] = count
o = exe.forward(is_train=True)
out["sym_out"], out["sym_rowsum"] = o[0].asnumpy(), o[1].asnumpy()
exe.backward([mx.nd.array(head), mx.nd.ones((3, 1))])
out["sym_gx"], out["sym_gw"] = exe.grad_dict["data"].asnumpy(), exe.grad_dict["w"].asnumpy()
out["sym_aux_after"] = exe.aux_dict["aff_count"].asnumpy()
net = mx.sym.Custom(d, op_type="compat_loss", name="l")
exe = net.simple_bind(mx.cpu(), data=x.shape)
exe.arg_dict["data"][:] = x
out["symloss_out"] = exe.forward(is_train=True)[0].asnumpy()
exe.backward()
out["symloss_g"] = exe.grad_dict["data"].asnumpy()
np.savez(sys.argv[1], **out)
"""


def _assert_same(ref, ours, rtol=1e-6, atol=1e-6):
    assert sorted(ref) == sorted(ours)
    for key in ref:
        if ref[key].dtype.kind in 'US':
            assert list(np.atleast_1d(ours[key])) == list(np.atleast_1d(ref[key])), key
        else:
            assert ours[key].shape == ref[key].shape, key
            np.testing.assert_allclose(ours[key], ref[key], rtol=rtol, atol=atol, err_msg=key)


def test_legacy_python_ops_match_191():
    """NumpyOp (with and without need_top_grad) and NDArrayOp bound in symbols; a CustomOp
    with two outputs and an auxiliary state it updates, imperatively (mx.nd.Custom under
    autograd) and bound; a need_top_grad=False loss CustomOp: outputs, gradients, aux."""
    ref, ours = _both(_LEGACY_SCRIPT)
    _assert_same(ref, ours)


# ---------------------------------------------------------------------------------------------
# mx.model.FeedForward

# argv: output .npz, the other side's checkpoint prefix (loaded when present), this side's
# checkpoint name (saved next to the .npz)
_FEEDFORWARD_SCRIPT = r"""import sys, os, logging
import numpy as np
import mxnet as mx
logging.disable(logging.CRITICAL)
rng = np.random.RandomState(11)
X = rng.randn(60, 5).astype("float32")
y = (X[:, 0] + 0.5 * X[:, 3] > 0).astype("float32") + (X[:, 1] > 1).astype("float32")
data = mx.sym.var("data")
net = mx.sym.FullyConnected(data, num_hidden=8, name="fc1")
net = mx.sym.BatchNorm(net, fix_gamma=False, name="bn")
net = mx.sym.Activation(net, act_type="tanh", name="act")
net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
net = mx.sym.SoftmaxOutput(net, name="softmax")
arg_shapes, _, aux_shapes = net.infer_shape(data=(10, 5))
arg = {n: mx.nd.array(rng.uniform(-0.5, 0.5, s)) for n, s in zip(net.list_arguments(), arg_shapes)
       if n not in ("data", "softmax_label")}
aux = {n: mx.nd.array(rng.uniform(0.5, 1.5, s))
       for n, s in zip(net.list_auxiliary_states(), aux_shapes)}
model = mx.model.FeedForward(net, ctx=mx.cpu(), num_epoch=3, optimizer="sgd", learning_rate=0.2,
                             momentum=0.9, wd=1e-3, arg_params=arg, aux_params=aux,
                             numpy_batch_size=10, initializer=mx.init.Uniform(0.01),
                             allow_extra_params=False, begin_epoch=0)
train = mx.io.NDArrayIter(X, y, batch_size=10, shuffle=False)
out = {}
model.fit(train, eval_metric="acc")
for k, v in model.arg_params.items():
    out["arg_" + k] = v.asnumpy()
for k, v in model.aux_params.items():
    out["aux_" + k] = v.asnumpy()
out["pred"] = model.predict(mx.io.NDArrayIter(X, y, batch_size=10, shuffle=False))
out["pred_numpy"] = model.predict(X[:25])
out["score"] = np.array(model.score(mx.io.NDArrayIter(X, y, batch_size=10, shuffle=False)))
out["score_ce"] = np.array(model.score(mx.io.NDArrayIter(X, y, batch_size=10, shuffle=False),
                                       eval_metric="ce"))
# a checkpoint written here, and one written by the other side (sys.argv[2])
model.save(os.path.join(os.path.dirname(sys.argv[1]), sys.argv[3]), 3)
other = sys.argv[2]
if os.path.exists(other + "-symbol.json"):
    loaded = mx.model.FeedForward.load(other, 3, ctx=mx.cpu(), numpy_batch_size=10)
    out["loaded_pred"] = loaded.predict(X)
np.savez(sys.argv[1], **out)
"""


def test_feedforward_fit_predict_score_and_checkpoints_match_191():
    """FeedForward with given arg/aux params (SGD with momentum and weight decay, 3 epochs over
    an unshuffled NDArrayIter): trained parameters, predictions (iterator and NumPy input),
    scores; checkpoints saved by 1.9.1 load here and the reverse, predicting the same."""
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, 'script.py')
        with open(script, 'w') as f:
            f.write(_FEEDFORWARD_SCRIPT)
        ref_ck, our_ck = os.path.join(tmp, 'ref_ck'), os.path.join(tmp, 'our_ck')
        files = [os.path.join(tmp, n) for n in ('ref.npz', 'ours.npz', 'ref2.npz')]
        mx191_oracle.run([script, files[0], our_ck, 'ref_ck'], ours=False)
        mx191_oracle.run([script, files[1], ref_ck, 'our_ck'], ours=True)   # loads 1.9.1's
        mx191_oracle.run([script, files[2], our_ck, 'ref_ck'], ours=False)  # loads ours
        ref, ours, ref2 = [dict(np.load(f)) for f in files]
    assert 'loaded_pred' not in ref
    np.testing.assert_allclose(ours.pop('loaded_pred'), ref['pred'], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ref2['loaded_pred'], ref['pred'], rtol=1e-5, atol=1e-6)
    _assert_same(ref, ours, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# BatchNorm(fix_gamma=True) writes ones into gamma

_BN_FIX_GAMMA_SCRIPT = r"""
import sys
import numpy as np
import mxnet as mx
rng = np.random.RandomState(0)
x = rng.randn(2, 3, 4).astype("float32")
g0 = np.array([0.5, 2.0, -1.0], "float32")
res = {}
def imperative(tag, fix, dtype="float32", record=False, **kw):
    g = mx.nd.array(g0, dtype=dtype)
    z, o = mx.nd.zeros(3, dtype=dtype), mx.nd.ones(3, dtype=dtype)
    if record:
        with mx.autograd.record():
            y = mx.nd.BatchNorm(mx.nd.array(x, dtype=dtype), g, z, z.copy(), o, fix_gamma=fix, **kw)
    else:
        y = mx.nd.BatchNorm(mx.nd.array(x, dtype=dtype), g, z, z.copy(), o, fix_gamma=fix, **kw)
    res[tag + "_out"] = y.asnumpy().astype("float32")
    res[tag] = g.asnumpy().astype("float32")
imperative("imp_infer", True)
imperative("imp_train", True, record=True)
imperative("imp_nofix", False)
imperative("imp_global", True, use_global_stats=True)
imperative("imp_f64", True, dtype="float64")
s = mx.sym.BatchNorm(mx.sym.var("data"), fix_gamma=True, name="bn")
exe = s.simple_bind(mx.cpu(), data=x.shape)
exe.arg_dict["data"][:] = x
exe.arg_dict["bn_gamma"][:] = g0
res["sym_infer_out"] = exe.forward(is_train=False)[0].asnumpy()
res["sym_infer"] = exe.arg_dict["bn_gamma"].asnumpy()
exe.arg_dict["bn_gamma"][:] = g0
res["sym_train_out"] = exe.forward(is_train=True)[0].asnumpy()
exe.backward(mx.nd.array(rng.randn(*x.shape)))
res["sym_train"] = exe.arg_dict["bn_gamma"].asnumpy()
res["sym_train_grad"] = exe.grad_dict["bn_gamma"].asnumpy()
res["sym_train_data_grad"] = exe.grad_dict["data"].asnumpy()
net = mx.gluon.nn.BatchNorm(scale=False, in_channels=3)
net.initialize()
net.gamma.set_data(mx.nd.array(g0))
res["gluon_infer_out"] = net(mx.nd.array(x)).asnumpy()
res["gluon_infer"] = net.gamma.data().asnumpy()
net.gamma.set_data(mx.nd.array(g0))
with mx.autograd.record():
    out = net(mx.nd.array(x))
res["gluon_train_out"] = out.asnumpy()
res["gluon_train"] = net.gamma.data().asnumpy()
net.hybridize()
net.gamma.set_data(mx.nd.array(g0))
with mx.autograd.record():
    out = net(mx.nd.array(x))
# gamma is an input the engine does not know is written: wait for the op before reading it
out.wait_to_read()
res["hybrid_train"] = net.gamma.data().asnumpy()
np.savez(sys.argv[1], **res)
"""


def test_batchnorm_fix_gamma_writes_ones_like_191():
    """With fix_gamma=True the forward pass leaves gamma = 1 (imperative with and without
    autograd, use_global_stats, float64, a bound executor's arg_dict, Gluon BatchNorm with
    scale=False); fix_gamma=False leaves gamma alone. (Not compared: a hybridized Gluon
    block's inference pass, where 1.9.1's oneDNN subgraph leaves gamma as it was.)"""
    ref, ours = _both(_BN_FIX_GAMMA_SCRIPT)
    np.testing.assert_array_equal(ref['imp_infer'], np.ones(3))   # what is being matched
    np.testing.assert_array_equal(ref['imp_nofix'], [0.5, 2.0, -1.0])
    _assert_same(ref, ours, rtol=1e-5, atol=1e-5)


_INIT_FP16_SCRIPT = r"""
import sys, json, logging
import numpy as np
import mxnet as mx
from mxnet.contrib import amp
logging.disable(logging.CRITICAL)
amp.init()
class Twice(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * 2)
@mx.operator.register("compat_twice")
class TwiceProp(mx.operator.CustomOpProp):
    def list_arguments(self):
        return ["data"]
    def infer_shape(self, s):
        return s, [s[0]], []
    def create_operator(self, ctx, shapes, dtypes):
        return Twice()
d = mx.sym.var("d")
y = mx.sym.Custom(mx.sym.FullyConnected(d, num_hidden=3, name="fc"), op_type="compat_twice",
                  name="c")
y = mx.sym.LayerNorm(mx.sym.SoftmaxOutput(y, name="so"), name="ln")
y = mx.sym.broadcast_mul(mx.sym.BatchNorm(y, name="bn"), d, name="mul")
nodes = json.loads(y.tojson(remove_amp_cast=False))["nodes"]
np.savez(sys.argv[1], nodes=np.array(["%s|%s|%s|%s" % (n["op"], n["name"],
                                      (n.get("attrs") or {}).get("dtype"), n["inputs"])
                                      for n in nodes]), args=np.array(y.list_arguments()))
"""


def test_amp_init_float16_casts_like_191():
    """As above for float16: the Custom op, loss outputs and normalisations are float32
    operators there, broadcast_mul a widest-type one."""
    ref, ours = _both(_INIT_FP16_SCRIPT)
    assert list(ours['nodes']) == list(ref['nodes'])
    assert list(ours['args']) == list(ref['args'])
