"""Behaviour scripts written for MXNet 1.9.1 rely on, compared with the real 1.9.1 (issue 17):
each script runs under 1.9.1 and under this checkout and must give the same results."""
import warnings

import numpy as np
import pytest

import mxnet as mx
import mx191_oracle

_BIND_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
x = mx.sym.var('x')
y = mx.sym.var('y')
feed = {'x': mx.nd.array([1., 2.]), 'y': mx.nd.array([3., 4.]), 'unused': mx.nd.ones(5)}
res = {}
# One dict of arrays serves several graphs: names a graph lacks are ignored.
res['double'] = (x * 2).bind(mx.cpu(), feed).forward()[0].asnumpy()
grads = {'x': mx.nd.zeros(2), 'unused': mx.nd.zeros(5)}
ex = (x * y).bind(mx.cpu(), feed, args_grad=grads)
ex.forward(is_train=True)
ex.backward(mx.nd.ones(2))
res['product'] = ex.outputs[0].asnumpy()
res['grad_x'] = grads['x'].asnumpy()
np.savez(sys.argv[1], **res)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_bind_ignores_names_the_graph_lacks_like_191(tmp_path):
    ref, ours = mx191_oracle.run_script_under_both(_BIND_SCRIPT, str(tmp_path))
    assert sorted(ref.files) == sorted(ours.files)
    for key in ref.files:
        np.testing.assert_array_equal(ours[key], ref[key], err_msg=key)


def test_bind_warns_about_the_ignored_names():
    x = mx.sym.var('x')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        out = (x + 1).bind(mx.cpu(), {'x': mx.nd.ones(2), 'z': mx.nd.ones(1)}).forward()[0]
    np.testing.assert_array_equal(out.asnumpy(), [2, 2])
    assert any("['z']" in str(w.message) and 'ignored' in str(w.message) for w in caught)
