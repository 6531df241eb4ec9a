"""Symbol.tojson/save(remove_amp_cast=True) (MXSymbolRemoveAmpCast): consumers of amp_cast /
amp_multicast read the casts' inputs, casts that are outputs stay, the original symbol is
unchanged. Oracles: MXNet 1.9.1's JSON for the same symbol, and evaluation in float32."""
import json
import os
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx

sys.path.insert(0, os.path.dirname(__file__))
import mx191_oracle  # noqa: E402

_SCRIPT = r'''
import json, sys
import numpy as np
import mxnet as mx
x, w = mx.sym.var("x"), mx.sym.var("w")
c = mx.sym.amp_cast(x, dtype="float16", name="c0")
m = mx.sym.amp_multicast(c, w, num_outputs=2, name="m0")
y = mx.sym.FullyConnected(m[0], m[1], num_hidden=3, no_bias=True, name="fc")
z = mx.sym.Group([y, mx.sym.amp_cast(y, dtype="float32", name="c1")])
out = {}
for flag in (True, False):
    js = json.loads(z.tojson(remove_amp_cast=flag))
    out["ops_%d" % flag] = np.array([n["op"] for n in js["nodes"]])
    out["heads_%d" % flag] = np.array(js["heads"])
    out["inputs_%d" % flag] = np.array([str(n["inputs"]) for n in js["nodes"]])
np.savez(sys.argv[1], **out)
'''


def _amp_symbol():
    x, w = mx.sym.var("x"), mx.sym.var("w")
    m = mx.sym.amp_multicast(mx.sym.amp_cast(x, dtype="float16"), w, num_outputs=2)
    return mx.sym.FullyConnected(m[0], m[1], num_hidden=3, no_bias=True, name="fc")


def test_saved_symbol_has_no_casts_and_computes_in_float32():
    sym = _amp_symbol()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "net.json")
        sym.save(path)
        loaded = mx.sym.load(path)
        kept = json.loads(sym.tojson(remove_amp_cast=False))
    assert "amp_cast" not in loaded.tojson(remove_amp_cast=False)
    assert [n["op"] for n in kept["nodes"]].count("amp_cast") == 1  # the original is unchanged
    rng = np.random.RandomState(0)
    x, w = rng.randn(2, 4), rng.randn(3, 4)
    out = loaded.eval(x=mx.nd.array(x), w=mx.nd.array(w))[0]
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.asnumpy(), x.dot(w.T), rtol=1e-5)


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_json_matches_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        ref, ours = mx191_oracle.run_script_under_both(_SCRIPT, tmp)
    assert sorted(ref.files) == sorted(ours.files)
    for key in ref.files:
        np.testing.assert_array_equal(ours[key], ref[key], err_msg=key)
