"""Math on integer arrays whose float result does not fit the integer type (log(0), 0/0,
gamma(0), sqrt(-1), 300 into int8). C++ leaves that conversion undefined; the project defines it
as x86's truncating conversion, which is what MXNet 1.9.1 returns on x86 (checked against it
below), and the sanitizer build (tools/sanitize.sh) runs these cases without a report.

The rule (a NumPy model here): truncate toward zero into int32 (int64 for uint32 and int64);
NaN, an infinity or a value out of that range becomes the type's minimum (x86's "integer
indefinite"); then keep the low bits of the target type.
"""
import numpy as np
import pytest

import mxnet as mx

import mx191_oracle

DTYPES = ['int8', 'uint8', 'int32', 'int64']


def x86_convert(values, dtype):
    """NumPy model of the conversion rule, element by element in Python integers."""
    wide_bits = 64 if dtype in ('int64', 'uint32') else 32
    lo, hi = -2 ** (wide_bits - 1), 2 ** (wide_bits - 1)
    bits = np.dtype(dtype).itemsize * 8
    out = []
    for v in np.asarray(values, dtype=np.float64).ravel():
        w = int(np.trunc(v)) if np.isfinite(v) and lo <= v < hi else lo
        w &= (1 << bits) - 1  # low bits, then reinterpret as signed where the type is
        if np.issubdtype(np.dtype(dtype), np.signedinteger) and w >= 1 << (bits - 1):
            w -= 1 << bits
        out.append(w)
    return np.array(out, dtype=dtype)


CASES = [
    # (name, mxnet call, float64 reference of the math)
    ('log0', lambda z, o: mx.nd.log(z), lambda z, o: np.log(z)),
    ('log10_0', lambda z, o: mx.nd.log10(z), lambda z, o: np.log10(z)),
    ('gamma0', lambda z, o: mx.nd.gamma(z), lambda z, o: np.full(z.shape, np.inf)),
    ('rsqrt0', lambda z, o: mx.nd.rsqrt(z), lambda z, o: 1 / np.sqrt(z)),
    ('reciprocal0', lambda z, o: mx.nd.reciprocal(z), lambda z, o: 1 / z),
    ('div00', lambda z, o: mx.nd.elemwise_div(z, z), lambda z, o: z / z),
    ('bdiv10', lambda z, o: mx.nd.broadcast_div(o, z), lambda z, o: o / z),
    ('rdiv_scalar', lambda z, o: 7 / z, lambda z, o: 7 / z),
]


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('name,call,math', CASES, ids=[c[0] for c in CASES])
def test_non_finite_results_follow_the_x86_rule(dtype, name, call, math):
    z = np.zeros(4, dtype=np.float64)
    o = np.ones(4, dtype=np.float64)
    got = call(mx.nd.array(z, dtype=dtype), mx.nd.array(o, dtype=dtype)).asnumpy()
    assert got.dtype == np.dtype(dtype)
    with np.errstate(all='ignore'):
        expected = x86_convert(math(z, o), dtype)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize('dtype', DTYPES)
def test_out_of_range_values_narrow_by_low_bits(dtype):
    # sqrt of a perfect square stays exact; multiplying by 1.0 in double keeps 300 (which does
    # not fit int8) and 2**40 (which does not fit int32) so the narrowing shows.
    x = np.array([300, 9, 2 ** 40, -5], dtype=np.float64)
    src = mx.nd.array(x, dtype='float64')
    got = mx.nd.broadcast_mul(src, mx.nd.ones((1,), dtype='float64')).astype(dtype).asnumpy()
    assert got.dtype == np.dtype(dtype)
    expected = x86_convert(x, dtype)
    np.testing.assert_array_equal(got, expected)


_SCRIPT_191 = r'''
import sys
import numpy as np
import mxnet as mx
out = {}
for dt in ['int8', 'uint8', 'int32', 'int64']:
    z = mx.nd.zeros((3,), dtype=dt)
    o = mx.nd.ones((3,), dtype=dt)
    out['log_' + dt] = mx.nd.log(z).asnumpy()
    out['gamma_' + dt] = mx.nd.gamma(z).asnumpy()
    out['gammaln_' + dt] = mx.nd.gammaln(z).asnumpy()
    out['rsqrt_' + dt] = mx.nd.rsqrt(z).asnumpy()
    out['reciprocal_' + dt] = mx.nd.reciprocal(z).asnumpy()
    out['cast_' + dt] = mx.nd.array([300, -1e10, 1e12, -7.9], dtype='float64').astype(dt).asnumpy()
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_integer_results_equal_mxnet_191(tmp_path):
    ref, ours = mx191_oracle.run_script_under_both(_SCRIPT_191, str(tmp_path))
    assert sorted(ref.files) == sorted(ours.files)
    for key in ref.files:
        assert ours[key].dtype == ref[key].dtype, key
        np.testing.assert_array_equal(ours[key], ref[key], err_msg=key)


def _norm_backward(op, shapes, **kwargs):
    arrays = [mx.nd.ones(s) for s in shapes]
    return getattr(mx.nd._internal, op)(*arrays, **kwargs)


@pytest.mark.parametrize('op,good,bad_index,bad_shape', [
    ('_backward_LayerNorm', [(2, 3), (2, 3), (3,), (2, 1), (2, 1)], 3, (5, 1)),
    ('_backward_LayerNorm', [(2, 3), (2, 3), (3,), (2, 1), (2, 1)], 0, (2, 4)),
    ('_backward_InstanceNorm', [(2, 3, 4), (2, 3, 4), (3,), (2, 3), (2, 3)], 4, (2,)),
    ('_backward_InstanceNorm', [(2, 3, 4), (2, 3, 4), (3,), (2, 3), (2, 3)], 2, (7,)),
])
def test_norm_backward_refuses_inconsistent_inputs(op, good, bad_index, bad_shape):
    # The consistent call runs and gives the data-shaped gradient.
    outs = _norm_backward(op, good)
    assert outs[0].shape == good[1] and outs[1].shape == good[2]
    shapes = list(good)
    shapes[bad_index] = bad_shape
    with pytest.raises(mx.MXNetError, match=op + r'.*got \[' + str(bad_shape[0])):
        _norm_backward(op, shapes)[0].asnumpy()


@pytest.mark.parametrize('op', ['_backward_linear_reg_out', '_backward_logistic_reg_out',
                                '_backward_mae_reg_out'])
def test_regression_backward_refuses_a_short_label(op):
    label, output = mx.nd.ones((2, 3)), mx.nd.ones((4, 5, 6))
    with pytest.raises(mx.MXNetError, match=op + '.*label'):
        getattr(mx.nd._internal, op)(label, output)[0].asnumpy()
    grads = getattr(mx.nd._internal, op)(mx.nd.ones((4, 5)), mx.nd.zeros((4, 5)))
    assert grads[0].shape == (4, 5)


def test_zero_size_inputs_of_loss_and_norm_gradients():
    assert mx.nd.make_loss(mx.nd.ones((0, 3))).shape == (0, 3)
    outs = _norm_backward('_backward_LayerNorm', [(0, 3), (0, 3), (3,), (0, 1), (0, 1)])
    np.testing.assert_array_equal(outs[1].asnumpy(), np.zeros(3))
