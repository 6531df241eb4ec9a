"""Operators whose output shape depends on the input values (_npi_unique, _npx_nonzero,
_npi_bincount, _contrib_boolean_mask) and _npi_share_memory: imperatively, in hybridized
blocks (CachedOp runs such graphs op by op, with autograd), against NumPy and MXNet 1.9.1."""
import numpy as np
import pytest

import mxnet as mx
import mx191_oracle
from mxnet.base import MXNetError


def test_unique_matches_numpy_flat_and_along_an_axis():
    rng = np.random.RandomState(0)
    x = rng.randint(0, 4, size=(6, 3)).astype('float32')
    x[4] = x[1]
    for axis in (None, 0, 1, -1):
        want = np.unique(x, return_index=True, return_inverse=True, return_counts=True, axis=axis)
        got = mx.nd.np._internal._npi_unique(mx.nd.array(x), return_index=True,
                                             return_inverse=True, return_counts=True, axis=axis)
        for w, g in zip(want, got):
            np.testing.assert_array_equal(g.asnumpy(), np.asarray(w).reshape(g.shape))
    vals = mx.nd.np._internal._npi_unique(mx.nd.array([3, 1, 3], dtype='int64'))
    assert vals.dtype == np.int64 and vals.asnumpy().tolist() == [1, 3]


def test_nonzero_and_bincount_match_numpy():
    x = np.array([[0, 1.5, 0], [2, 0, -1]], dtype='float32')
    np.testing.assert_array_equal(mx.npx.nonzero(mx.np.array(x)).asnumpy(), np.argwhere(x))
    assert mx.npx.nonzero(mx.np.zeros((2, 3))).shape == (0, 2)
    d = np.array([0, 4, 4, 1, 9], dtype='int32')
    w = np.array([0.5, 1, 2, 3, 4], dtype='float64')
    got = mx.nd.np._internal._npi_bincount(mx.nd.array(d, dtype='int32'), minlength=12)
    np.testing.assert_array_equal(got.asnumpy(), np.bincount(d, minlength=12))
    assert got.dtype == np.int32
    got = mx.nd.np._internal._npi_bincount(mx.nd.array(d, dtype='int32'),
                                           mx.nd.array(w, dtype='float64'), has_weights=True)
    np.testing.assert_allclose(got.asnumpy(), np.bincount(d, weights=w))
    assert got.dtype == np.float64


def test_bad_inputs_raise_naming_the_operator():
    with pytest.raises(MXNetError, match='_npi_bincount.*non-negative'):
        mx.nd.np._internal._npi_bincount(mx.nd.array([1, -2], dtype='int32')).asnumpy()
    with pytest.raises(MXNetError, match='_npi_bincount.*integer'):
        mx.nd.np._internal._npi_bincount(mx.nd.array([1.0, 2.0])).asnumpy()
    with pytest.raises(MXNetError, match='_npi_unique: axis 2'):
        mx.nd.np._internal._npi_unique(mx.nd.ones((2, 2)), axis=2).asnumpy()


def test_share_memory_sees_views_and_bound_arrays():
    a = mx.np.ones((4,))
    assert bool(mx.np.shares_memory(a, a[1:]))
    assert not bool(mx.np.shares_memory(a, mx.np.ones((4,))))
    x, y = mx.sym.var('x').as_np_ndarray(), mx.sym.var('y').as_np_ndarray()
    ex = mx.sym.np.shares_memory(x, y).bind(mx.cpu(), {'x': mx.nd.ones(3), 'y': mx.nd.ones(3)})
    out = ex.forward()[0]
    assert out.shape == () and out.dtype == np.bool_ and not bool(out.asscalar())


class _DataDependent(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, x, mask):
        kept = F.contrib.boolean_mask(x, mask) * 2
        flat = F.reshape(x, shape=(-1,))
        return kept, F.np.unique(flat.as_np_ndarray()).as_nd_ndarray(), \
            F.npx.nonzero(mask.as_np_ndarray()).as_nd_ndarray(), \
            F.np.bincount(F.Cast(flat, dtype='int32').as_np_ndarray()).as_nd_ndarray()


def test_hybridized_block_runs_data_dependent_ops_with_gradients():
    x = np.array([[1, 2], [3, 1], [2, 2]], dtype='float32')
    mask = np.array([1, 0, 1], dtype='float32')
    block = _DataDependent()
    eager = [o.asnumpy() for o in block(mx.nd.array(x), mx.nd.array(mask))]
    block.hybridize()
    xs = mx.nd.array(x)
    xs.attach_grad()
    with mx.autograd.record():
        outs = block(xs, mx.nd.array(mask))
    outs[0].backward(mx.nd.ones_like(outs[0]))
    for e, o in zip(eager, outs):
        np.testing.assert_array_equal(o.asnumpy(), e)
    np.testing.assert_array_equal(outs[0].asnumpy(), 2 * x[mask != 0])
    np.testing.assert_array_equal(outs[1].asnumpy(), np.unique(x))
    np.testing.assert_array_equal(outs[2].asnumpy(), np.argwhere(mask))
    np.testing.assert_array_equal(outs[3].asnumpy(), np.bincount(x.ravel().astype(int)))
    np.testing.assert_array_equal(xs.grad.asnumpy(), 2 * (mask != 0)[:, None] * np.ones_like(x))
    # The shapes change with the values on the next call.
    outs = block(xs, mx.nd.array([0, 0, 1]))
    assert outs[0].shape == (1, 2) and outs[2].shape == (1, 1)


_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
mx.npx.set_np()
res = {}
x = mx.np.array([[3, 1, 3], [0, 1, 0], [3, 1, 3]], dtype='float32')
for axis in (None, 0, 1):
    outs = mx.np.unique(x, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    for i, o in enumerate(outs):
        res['unique_%s_%d' % (axis, i)] = o.asnumpy()
res['nonzero'] = mx.npx.nonzero(x).asnumpy()
res['nonzero_0d'] = mx.npx.nonzero(mx.np.array(5)).asnumpy()
d = mx.np.array([1, 1, 3, 0, 7], dtype='int32')
res['bincount'] = mx.np.bincount(d, minlength=9).asnumpy()
res['bincount_w'] = mx.np.bincount(d, weights=mx.np.array([.5, 1, 2, 3, 4])).asnumpy()
a = mx.np.ones((5,))
res['shares'] = np.array([bool(mx.np.shares_memory(a, a[2:])), bool(mx.np.may_share_memory(a, mx.np.ones(5)))])

class Block(mx.gluon.HybridBlock):
    def hybrid_forward(self, F, v):
        u = F.np.unique(v, return_counts=True)
        return u[0] * 2, u[1], F.npx.nonzero(v), F.np.bincount(v.astype('int32'))

block = Block()
block.hybridize()
for i, o in enumerate(block(mx.np.array([3, 0, 3, 1, 0, 0]))):
    res['hybrid_%d' % i] = o.asnumpy()
np.savez(sys.argv[1], **res)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_matches_mxnet_191(tmp_path):
    ref, ours = mx191_oracle.run_script_under_both(_SCRIPT, str(tmp_path))
    assert sorted(ref.files) == sorted(ours.files)
    for key in ref.files:
        assert ours[key].dtype == ref[key].dtype, (key, ours[key].dtype, ref[key].dtype)
        np.testing.assert_array_equal(ours[key], ref[key], err_msg=key)
