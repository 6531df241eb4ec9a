"""mx.nd.NDArray: creation, properties, copies, reshape, indexing, operators, pickling, errors."""
import copy
import pickle
import threading

import numpy as np
import pytest

import mxnet as mx
from mxnet.ndarray._shape import infer_reshape
from mxnet.ndarray.indexing import parse_basic_key, flat_positions

DTYPES = ["float32", "float64", "float16", "uint8", "int8", "int32", "int64"]


def np_arange(shape, dtype="float32"):
    return np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)


# ---------------------------------------------------------------------------------------------
# Creation and properties


def test_array_from_list_and_numpy_defaults_to_float32():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    assert a.shape == (2, 3)
    assert a.dtype == np.float32
    assert a.size == 6 and a.ndim == 2 and len(a) == 2
    # MXNet 1.x: a NumPy source is converted to float32 unless dtype is given.
    b = mx.nd.array(np.array([1, 2], dtype=np.int64))
    assert b.dtype == np.float32
    c = mx.nd.array(np.array([1, 2], dtype=np.int64), dtype=np.int64)
    assert c.dtype == np.int64
    np.testing.assert_array_equal(c.asnumpy(), [1, 2])


def test_array_from_ndarray_keeps_dtype():
    a = mx.nd.array([1, 2, 3], dtype="int32")
    b = mx.nd.array(a)
    assert b.dtype == np.int32
    b[0] = 7
    assert a.asnumpy()[0] == 1          # a copy


@pytest.mark.parametrize("dtype", DTYPES)
def test_asnumpy_roundtrip_every_dtype(dtype):
    src = (np.arange(24).reshape(2, 3, 4) % 100).astype(dtype)
    a = mx.nd.array(src, dtype=dtype)
    assert a.dtype == np.dtype(dtype).type
    out = a.asnumpy()
    assert out.dtype == np.dtype(dtype)
    assert out.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(out, src)


def test_bool_dtype_roundtrip():
    src = np.array([True, False, True])
    a = mx.nd.array(src, dtype=np.bool_)
    assert a.dtype == np.bool_
    np.testing.assert_array_equal(a.asnumpy(), src)


def test_empty_zeros_ones_full_arange():
    assert mx.nd.empty((2, 3)).shape == (2, 3)
    assert mx.nd.empty(4).shape == (4,)
    z = mx.nd.zeros((2, 3), dtype="int32")
    assert z.dtype == np.int32
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((2, 3)))
    np.testing.assert_array_equal(mx.nd.zeros(5).asnumpy(), np.zeros(5))
    np.testing.assert_array_equal(mx.nd.ones((3,), dtype=np.float64).asnumpy(), np.ones(3))
    assert mx.nd.ones((3,), dtype=np.float64).dtype == np.float64
    f = mx.nd.full((2, 2), 7.5)
    np.testing.assert_array_equal(f.asnumpy(), np.full((2, 2), 7.5, dtype=np.float32))
    np.testing.assert_array_equal(mx.nd.arange(5).asnumpy(), np.arange(5, dtype=np.float32))
    np.testing.assert_allclose(mx.nd.arange(1, 3, 0.5).asnumpy(), np.arange(1, 3, 0.5))
    np.testing.assert_array_equal(mx.nd.arange(3, repeat=2).asnumpy(), [0, 0, 1, 1, 2, 2])


def test_zero_size_array():
    a = mx.nd.array(np.zeros((0, 5), dtype=np.float32))
    assert a.shape == (0, 5)
    assert a.size == 0
    assert a.asnumpy().shape == (0, 5)
    assert not bool(mx.nd.zeros((0,)))


def test_context_of_arrays():
    a = mx.nd.zeros((2,))
    assert a.context == mx.cpu(0)
    assert a.ctx == mx.cpu()
    assert str(a.context) == "cpu(0)"
    with mx.Context("cpu", 0):
        assert mx.nd.ones((1,)).context == mx.cpu(0)
    b = mx.nd.array([1, 2], ctx=mx.cpu(0))
    assert b.context.device_type == "cpu"
    assert a.stype == "default"


def test_T_and_len_iter_bool():
    a = mx.nd.array(np_arange((2, 3)))
    np.testing.assert_array_equal(a.T.asnumpy(), np_arange((2, 3)).T)
    v = mx.nd.array([1, 2, 3])
    assert v.T is v
    rows = [r.asnumpy() for r in a]
    assert len(rows) == 2
    np.testing.assert_array_equal(rows[1], [3, 4, 5])
    assert bool(mx.nd.array([3])) is True
    assert bool(mx.nd.array([0])) is False
    with pytest.raises(ValueError):
        bool(a)


def test_asscalar():
    assert mx.nd.array([4.5]).asscalar() == 4.5
    assert isinstance(mx.nd.array([4.5]).asscalar(), np.float32)
    with pytest.raises(ValueError):
        mx.nd.array([1, 2]).asscalar()


def test_repr_matches_mxnet():
    a = mx.nd.array([[1, 2]])
    assert repr(a) == "\n[[1. 2.]]\n<NDArray 1x2 @cpu(0)>"
    assert repr(mx.nd.array([1, 2, 3], dtype="int32")) == "\n[1 2 3]\n<NDArray 3 @cpu(0)>"


# ---------------------------------------------------------------------------------------------
# Copies and conversions


def test_astype_copy_and_copyto():
    a = mx.nd.array([1.7, -2.2, 3.0])
    b = a.astype("int32")
    assert b.dtype == np.int32
    np.testing.assert_array_equal(b.asnumpy(), np.array([1.7, -2.2, 3.0]).astype(np.int32))
    assert a.astype("float32", copy=False) is a
    c = a.astype("float32")
    assert c is not a
    c[:] = 0
    assert a.asnumpy()[0] != 0

    d = a.copy()
    d[0] = 100
    assert a.asnumpy()[0] != 100

    target = mx.nd.zeros((3,))
    res = a.copyto(target)
    assert res is target
    np.testing.assert_allclose(target.asnumpy(), a.asnumpy())
    e = a.copyto(mx.cpu(0))
    np.testing.assert_allclose(e.asnumpy(), a.asnumpy())
    assert a.as_in_context(mx.cpu(0)) is a
    with pytest.raises(TypeError):
        a.copyto("cpu")


def test_copyto_self_warns():
    a = mx.nd.ones((2,))
    with pytest.warns(RuntimeWarning):
        assert a.copyto(a) is False


# ---------------------------------------------------------------------------------------------
# Reshape


RESHAPE_CASES = [
    ((2, 3, 4), (4, 0, 2), (4, 3, 2)),
    ((2, 3, 4), (6, 1, -1), (6, 1, 4)),
    ((2, 3, 4), (3, -1, 8), (3, 1, 8)),
    ((2, 3, 4), (-1,), (24,)),
    ((2, 3, 4), (-2,), (2, 3, 4)),
    ((2, 3, 4), (2, -2), (2, 3, 4)),
    ((2, 3, 4), (-2, 1, 1), (2, 3, 4, 1, 1)),
    ((2, 3, 4), (-3, 4), (6, 4)),
    ((2, 3, 4), (0, -3), (2, 12)),
    ((2, 3, 4), (-3, -2), (6, 4)),
    ((2, 3, 4), (-4, 1, 2, -2), (1, 2, 3, 4)),
    ((2, 3, 4), (2, -4, -1, 3, -2), (2, 1, 3, 4)),
    ((2, 3, 4, 5), (-3, -3), (6, 20)),
]


@pytest.mark.parametrize("src,codes,expected", RESHAPE_CASES)
def test_infer_reshape_codes(src, codes, expected):
    assert infer_reshape(src, codes) == expected


def test_infer_reshape_reverse_and_errors():
    assert infer_reshape((10, 5, 4), (-1, 0)) == (40, 5)
    assert infer_reshape((10, 5, 4), (-1, 0), reverse=True) == (50, 4)
    with pytest.raises(ValueError, match="Cannot reshape array of size 6"):
        infer_reshape((2, 3), (7,))
    with pytest.raises(ValueError):
        infer_reshape((2, 3), (-1, -1))
    with pytest.raises(ValueError):
        infer_reshape((2, 3), (-4, -1, -1))


@pytest.mark.parametrize("src,codes,expected", RESHAPE_CASES)
def test_ndarray_reshape_codes(src, codes, expected):
    data = np_arange(src)
    a = mx.nd.array(data)
    r = a.reshape(codes)
    assert r.shape == expected
    np.testing.assert_array_equal(r.asnumpy(), data.reshape(expected))
    assert a.reshape(*codes).shape == expected


def test_reshape_is_a_view_and_validates():
    a = mx.nd.zeros((2, 3))
    v = a.reshape((3, 2))
    v[:] = 5
    np.testing.assert_array_equal(a.asnumpy(), np.full((2, 3), 5))
    assert a.reshape(shape=(6,)).shape == (6,)
    assert mx.nd.zeros((10, 5, 4)).reshape((-1, 0), reverse=True).shape == (50, 4)
    with pytest.raises(ValueError, match="Cannot reshape array of size 6"):
        a.reshape((7,))
    with pytest.raises(TypeError):
        a.reshape((6,), order="F")


def test_expand_squeeze_flatten_broadcast_to():
    a = mx.nd.array(np_arange((2, 3)))
    assert a.expand_dims(1).shape == (2, 1, 3)
    assert a.expand_dims(-1, inplace=True).shape == (2, 3, 1)
    b = mx.nd.zeros((1, 3, 1))
    assert b.squeeze().shape == (3,)
    assert b.squeeze(axis=0, inplace=True).shape == (3, 1)
    assert mx.nd.zeros((2, 3, 4)).flatten().shape == (2, 12)
    assert mx.nd.zeros((2, 3, 4)).flatten(inplace=True).shape == (2, 12)
    r = mx.nd.array([1, 2, 3]).broadcast_to((2, 3))
    np.testing.assert_array_equal(r.asnumpy(), [[1, 2, 3], [1, 2, 3]])
    with pytest.raises(ValueError):
        mx.nd.array([1, 2, 3]).broadcast_to((2, 4))
    assert mx.nd.zeros((3, 1)).broadcast_like(mx.nd.zeros((3, 4))).shape == (3, 4)


# ---------------------------------------------------------------------------------------------
# Indexing: reading


def test_parse_basic_key_pure():
    idx = parse_basic_key((1, slice(None, None, 2), None, Ellipsis), (4, 5, 6))
    assert idx.begin == [1, 0, 0]
    assert idx.step == [1, 2, 1]
    assert idx.sliced_shape == [1, 3, 6]
    assert idx.out_shape == [3, 1, 6]
    assert idx.int_axes == [0]
    neg = parse_basic_key(slice(None, None, -1), (4,))
    assert neg.begin == [3] and neg.end == [None] and neg.step == [-1]
    with pytest.raises(IndexError):
        parse_basic_key((0, 0, 0), (2, 2))
    with pytest.raises(IndexError):
        parse_basic_key(5, (4,))
    with pytest.raises(IndexError):
        parse_basic_key((Ellipsis, Ellipsis), (4,))


def test_contiguous_range_pure():
    shape = (4, 5, 6)
    assert parse_basic_key(1, shape).contiguous_range(shape) == (30, 60)
    assert parse_basic_key((1, slice(2, 4)), shape).contiguous_range(shape) == (42, 54)
    assert parse_basic_key((slice(None), 1), shape).contiguous_range(shape) is None
    assert parse_basic_key(slice(None, None, 2), shape).contiguous_range(shape) is None


def test_flat_positions_pure():
    shape = (3, 4)
    base = np.arange(12).reshape(shape)
    for key in ([0, 2], (slice(None), [1, 3]), ([0, 2], [1, 3]), base > 5,
                (np.array([[0], [2]]), np.array([1, 3])), (1, [0, -1])):
        np.testing.assert_array_equal(flat_positions(key, shape), base[key])
    with pytest.raises(IndexError):
        flat_positions([5], shape)


BASIC_KEYS = [
    0, -1, 3, slice(None), slice(1, 3), slice(None, None, 2), slice(None, None, -1),
    slice(3, 0, -2), slice(-3, None), slice(2, 2), slice(5, 1),
    (1, 2), (1, 2, 3), (-1, -2, -3), (slice(None), 1), (slice(None), slice(None), 2),
    (1, slice(1, 4)), (slice(1, 3), slice(None, None, 2), slice(None, None, -1)),
    (Ellipsis, 1), (1, Ellipsis), (Ellipsis,), (None,), (1, None, 2), (None, Ellipsis, None),
    (slice(None), None, slice(1, 2)), (0, 0), (slice(0, 1), 0, slice(None)),
]


@pytest.mark.parametrize("key", BASIC_KEYS, ids=[repr(k) for k in BASIC_KEYS])
def test_basic_getitem_matches_numpy(key):
    data = np_arange((4, 5, 6))
    a = mx.nd.array(data)
    expected = data[key]
    got = a[key]
    if expected.ndim == 0:          # legacy mode: no 0-d arrays
        assert got.shape == (1,)
        assert got.asnumpy()[0] == expected
    else:
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got.asnumpy(), expected)


def test_getitem_1d_and_legacy_scalar_shape():
    a = mx.nd.array([10, 20, 30])
    assert a[1].shape == (1,)
    assert a[1].asscalar() == 20
    assert a[-1].asscalar() == 30
    np.testing.assert_array_equal(a[::-1].asnumpy(), [30, 20, 10])


def test_getitem_views_share_memory():
    a = mx.nd.zeros((4, 3))
    a[1][:] = 1                       # At view
    a[2:4][:] = 2                     # Slice view
    row = a[3]
    row += 1                           # in-place on a view writes through
    expected = np.zeros((4, 3))
    expected[1] = 1
    expected[2:4] = 2
    expected[3] = 3
    np.testing.assert_array_equal(a.asnumpy(), expected)
    b = mx.nd.zeros((2, 3, 4))
    b[1, 2][:] = 9                    # contiguous multi-axis view
    exp = np.zeros((2, 3, 4))
    exp[1, 2] = 9
    np.testing.assert_array_equal(b.asnumpy(), exp)


def test_getitem_errors():
    a = mx.nd.zeros((3, 4))
    with pytest.raises(IndexError):
        a[3]
    with pytest.raises(IndexError):
        a[-4]
    with pytest.raises(IndexError):
        a[0, 4]
    with pytest.raises(IndexError):
        a[0, 0, 0]
    with pytest.raises(IndexError):
        a[[0, 5]]
    with pytest.raises(TypeError):
        a["x"]


ADVANCED_KEYS = [
    [0, 2],
    [[0, 1], [2, 3]],
    [-1, 0],
    (slice(None), [1, 3]),
    (slice(None), slice(None), [0, 5, -1]),
    ([0, 2], [1, 3]),
    ([0, 2], slice(1, 3)),
    ([0, 2], slice(None), [1, 0]),          # non-adjacent advanced axes
    (1, [0, 4], slice(None)),
    (slice(1, 3), [1, 2], [0, 3]),
    (np.array([[0], [3]]), np.array([1, 2])),
    (Ellipsis, [2, 3]),
]


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=[repr(k) for k in ADVANCED_KEYS])
def test_advanced_getitem_matches_numpy(key):
    data = np_arange((4, 5, 6))
    a = mx.nd.array(data)
    expected = data[key]
    got = a[key]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.asnumpy(), expected)


def test_advanced_getitem_with_ndarray_and_numpy_indices():
    data = np_arange((4, 5))
    a = mx.nd.array(data)
    idx = mx.nd.array([3, 0, -1], dtype="int32")
    np.testing.assert_array_equal(a[idx].asnumpy(), data[[3, 0, -1]])
    np.testing.assert_array_equal(a[:, idx].asnumpy(), data[:, [3, 0, -1]])
    fidx = mx.nd.array([1, 2])                 # float indices, as MXNet allows
    np.testing.assert_array_equal(a[fidx].asnumpy(), data[[1, 2]])
    np.testing.assert_array_equal(a[np.array([2, 1])].asnumpy(), data[[2, 1]])
    two = (mx.nd.array([0, 3], dtype="int64"), mx.nd.array([4, 1], dtype="int64"))
    np.testing.assert_array_equal(a[two].asnumpy(), data[[0, 3], [4, 1]])


def test_boolean_mask_getitem():
    data = np_arange((3, 4))
    a = mx.nd.array(data)
    mask = data % 3 == 0
    np.testing.assert_array_equal(a[mask].asnumpy(), data[mask])
    nd_mask = mx.nd.array(mask, dtype=np.bool_)
    np.testing.assert_array_equal(a[nd_mask].asnumpy(), data[mask])
    rows = np.array([True, False, True])
    np.testing.assert_array_equal(a[rows].asnumpy(), data[rows])


# ---------------------------------------------------------------------------------------------
# Indexing: writing


SET_CASES = [
    (slice(None), 3.0),
    (slice(None), np.arange(6)),                # broadcast over rows
    (1, 7.0),
    (1, np.arange(6)),
    (-1, [[1, 2, 3, 4, 5, 6]]),                 # extra leading 1 axis dropped
    (slice(1, 3), 2.0),
    (slice(None, None, 2), np.ones((2, 5, 6))),
    ((slice(None), 2), np.arange(6)),
    ((slice(None), slice(None), slice(None, None, -2)), 4.0),
    ((1, 2, 3), 9.0),
    ((Ellipsis, 1), np.arange(5)),
    ((slice(0, 1), None, 1), 5.0),
    ([0, 3], 1.5),
    ([0, 3], np.arange(30).reshape(5, 6)),
    ((slice(None), [1, 2]), np.arange(6)),
    (([0, 1], [2, 3]), [[8.0], [9.0]]),
    ((slice(None), [0, 4], [5, 0]), 6.0),
    ((0, slice(0, 0)), 1.0),                    # empty region
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=[repr(k) for k, _ in SET_CASES])
def test_setitem_matches_numpy(key, value):
    data = np_arange((4, 5, 6))
    a = mx.nd.array(data)
    data[key] = value
    a[key] = value
    np.testing.assert_array_equal(a.asnumpy(), data)


@pytest.mark.parametrize("key,value", SET_CASES[:14], ids=[repr(k) for k, _ in SET_CASES[:14]])
def test_setitem_with_ndarray_value(key, value):
    data = np_arange((4, 5, 6))
    a = mx.nd.array(data)
    data[key] = value
    a[key] = mx.nd.array(np.asarray(value, dtype=np.float32))
    np.testing.assert_array_equal(a.asnumpy(), data)


def test_setitem_boolean_mask_and_ndarray_index():
    data = np_arange((3, 4))
    a = mx.nd.array(data)
    mask = data > 6
    data[mask] = -1
    a[mask] = -1
    np.testing.assert_array_equal(a.asnumpy(), data)
    data[[2, 0]] = 5
    a[mx.nd.array([2, 0], dtype="int32")] = 5
    np.testing.assert_array_equal(a.asnumpy(), data)


def test_setitem_whole_array_forms():
    a = mx.nd.zeros((2, 3), dtype="int32")
    a[:] = 4
    np.testing.assert_array_equal(a.asnumpy(), np.full((2, 3), 4))
    a[:] = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype="int32")
    np.testing.assert_array_equal(a.asnumpy(), [[1, 2, 3], [4, 5, 6]])
    a[:] = mx.nd.array([7, 8, 9], dtype="int32")          # broadcast NDArray value
    np.testing.assert_array_equal(a.asnumpy(), [[7, 8, 9], [7, 8, 9]])
    a[...] = np.array([[1], [2]])
    np.testing.assert_array_equal(a.asnumpy(), [[1, 1, 1], [2, 2, 2]])
    a[:] = a                                             # self assignment is a no-op
    np.testing.assert_array_equal(a.asnumpy(), [[1, 1, 1], [2, 2, 2]])
    f = mx.nd.zeros((2,))
    f[:] = mx.nd.array([1.5, 2.5], dtype="float64")      # dtype converted
    np.testing.assert_array_equal(f.asnumpy(), [1.5, 2.5])


def test_setitem_errors():
    a = mx.nd.zeros((2, 3))
    with pytest.raises(ValueError):
        a[:] = np.ones((3, 2))
    with pytest.raises(ValueError):
        a[0] = np.ones(4)
    with pytest.raises(IndexError):
        a[2] = 1
    ro = mx.nd.zeros((2,))
    ro.writable = False
    with pytest.raises(ValueError):
        ro[:] = 1
    with pytest.raises(ValueError):
        ro[0] = 1


def test_slice_assign_methods():
    a = mx.nd.zeros((3, 4))
    a.slice_assign(mx.nd.ones((2, 2)), (0, 1), (2, 3), (1, 1))
    a.slice_assign_scalar(5, (2, 0), (3, 4), ())
    exp = np.zeros((3, 4))
    exp[0:2, 1:3] = 1
    exp[2] = 5
    np.testing.assert_array_equal(a.asnumpy(), exp)


# ---------------------------------------------------------------------------------------------
# Operators


BINARY = [
    ("+", lambda x, y: x + y), ("-", lambda x, y: x - y), ("*", lambda x, y: x * y),
    ("/", lambda x, y: x / y), ("%", lambda x, y: x % y), ("**", lambda x, y: x ** y),
    ("==", lambda x, y: x == y), ("!=", lambda x, y: x != y), (">", lambda x, y: x > y),
    (">=", lambda x, y: x >= y), ("<", lambda x, y: x < y), ("<=", lambda x, y: x <= y),
]


@pytest.mark.parametrize("name,fn", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)),
                                    ((4, 1, 3), (2, 1))])
def test_binary_operators_broadcast_like_numpy(name, fn, shapes):
    rng = np.random.RandomState(0)
    x = rng.uniform(0.5, 2.0, shapes[0]).astype(np.float32)
    y = rng.uniform(0.5, 2.0, shapes[1]).astype(np.float32)
    y[..., 0] = x.reshape(-1)[0]       # make == hit
    got = fn(mx.nd.array(x), mx.nd.array(y))
    expected = fn(x, y).astype(np.float32)
    assert got.shape == expected.shape
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,fn", BINARY, ids=[b[0] for b in BINARY])
def test_scalar_operators_and_reflected(name, fn):
    x = np.array([[0.5, 1.0, 2.0], [3.0, 4.0, 2.0]], dtype=np.float32)
    a = mx.nd.array(x)
    for s in (2, 2.0, np.float32(2.0)):
        np.testing.assert_allclose(fn(a, s).asnumpy(), fn(x, np.float32(s)).astype(np.float32),
                                   rtol=1e-5)
        np.testing.assert_allclose(fn(s, a).asnumpy(), fn(np.float32(s), x).astype(np.float32),
                                   rtol=1e-5)


def test_operator_result_dtype_follows_input():
    a = mx.nd.array([1, 2, 3], dtype="int32")
    assert (a + 1).dtype == np.int32
    assert (a * a).dtype == np.int32
    assert (a > 1).dtype == np.int32
    np.testing.assert_array_equal((a > 1).asnumpy(), [0, 1, 1])


def test_unary_operators():
    x = np.array([-1.5, 0.0, 2.0], dtype=np.float32)
    a = mx.nd.array(x)
    np.testing.assert_array_equal((-a).asnumpy(), -x)
    np.testing.assert_array_equal(abs(a).asnumpy(), np.abs(x))
    np.testing.assert_array_equal((a // 1.0).asnumpy(), x // 1.0)
    np.testing.assert_array_equal((a // mx.nd.array([2, 2, 2])).asnumpy(), x // 2)
    np.testing.assert_array_equal((7.0 // mx.nd.array([2, 3, 4])).asnumpy(), [3, 2, 1])


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/=", "%=", "**="])
def test_inplace_operators_write_through(op):
    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    y = np.array([2.0, 3.0], dtype=np.float32)
    a = mx.nd.array(x)
    view = a[1]
    before = id(a)
    env = {"a": a, "b": mx.nd.array(y)}
    exec("a %s b" % op, env)                 # noqa: S102  (testing the statement form)
    assert id(env["a"]) == before            # same object, written in place
    ref = {"a": x.copy(), "b": y}
    exec("a %s b" % op, ref)                 # noqa: S102
    np.testing.assert_allclose(a.asnumpy(), ref["a"], rtol=1e-6)
    np.testing.assert_allclose(view.asnumpy(), ref["a"][1], rtol=1e-6)
    env = {"a": a}
    exec("a %s 2" % op, env)                 # noqa: S102
    assert env["a"] is a


def test_inplace_on_readonly_raises():
    a = mx.nd.ones((2,))
    a.writable = False
    with pytest.raises(ValueError):
        a += 1


def test_unsupported_operand_types():
    a = mx.nd.ones((2,))
    with pytest.raises(TypeError):
        a + "x"
    with pytest.raises(TypeError):
        a * [1, 2]
    assert (a == None) is False  # noqa: E711  (identity fallback, like object)


def test_elementwise_free_functions():
    x = np.array([1.0, 5.0, 3.0], dtype=np.float32)
    y = np.array([4.0, 2.0, 3.0], dtype=np.float32)
    a, b = mx.nd.array(x), mx.nd.array(y)
    np.testing.assert_array_equal(mx.nd.add(a, b).asnumpy(), x + y)
    np.testing.assert_array_equal(mx.nd.subtract(10, a).asnumpy(), 10 - x)
    np.testing.assert_array_equal(mx.nd.multiply(a, 2).asnumpy(), x * 2)
    np.testing.assert_allclose(mx.nd.divide(a, b).asnumpy(), x / y)
    np.testing.assert_array_equal(mx.nd.maximum(a, b).asnumpy(), np.maximum(x, y))
    np.testing.assert_array_equal(mx.nd.minimum(a, 2.5).asnumpy(), np.minimum(x, 2.5))
    np.testing.assert_array_equal(mx.nd.greater(a, b).asnumpy(), (x > y).astype(np.float32))
    np.testing.assert_array_equal(mx.nd.lesser_equal(3, a).asnumpy(),
                                  (3 <= x).astype(np.float32))
    np.testing.assert_array_equal(mx.nd.power(2, a).asnumpy(), 2 ** x)
    assert mx.nd.maximum(2, 3) == 3
    np.testing.assert_array_equal(mx.nd.negative(a).asnumpy(), -x)


def test_fluent_methods_forward_to_ops():
    x = np_arange((2, 3))
    a = mx.nd.array(x)
    np.testing.assert_array_equal(a.sum().asnumpy(), [x.sum()])
    np.testing.assert_array_equal(a.sum(axis=1).asnumpy(), x.sum(axis=1))
    np.testing.assert_array_equal(a.max(axis=0).asnumpy(), x.max(axis=0))
    np.testing.assert_array_equal(a.transpose().asnumpy(), x.T)
    np.testing.assert_allclose(a.exp().asnumpy(), np.exp(x), rtol=1e-6)
    np.testing.assert_array_equal(a.clip(1, 3).asnumpy(), np.clip(x, 1, 3))
    np.testing.assert_array_equal(a.flip(axis=1).asnumpy(), x[:, ::-1])
    np.testing.assert_array_equal(a.tile(reps=(2, 1)).asnumpy(), np.tile(x, (2, 1)))
    parts = a.split(num_outputs=3, axis=1)
    assert len(parts) == 3
    np.testing.assert_array_equal(parts[2].asnumpy(), x[:, 2:3])
    assert mx.nd.NDArray.sum.__name__ == "sum"
    assert "sum" in mx.nd.NDArray.sum.__doc__


def test_concatenate_moveaxis_waitall():
    a = mx.nd.array(np_arange((2, 3)))
    c = mx.nd.concatenate([a, a], axis=1)
    np.testing.assert_array_equal(c.asnumpy(), np.concatenate([np_arange((2, 3))] * 2, axis=1))
    m = mx.nd.moveaxis(mx.nd.zeros((2, 3, 4)), 0, -1)
    assert m.shape == (3, 4, 2)
    mx.nd.waitall()
    a.wait_to_read()
    a.wait_to_write()


def test_hash_is_identity():
    a = mx.nd.ones((1,))
    b = mx.nd.ones((1,))
    assert len({a, b}) == 2
    assert hash(a) == id(a) // 16


# ---------------------------------------------------------------------------------------------
# Pickling and save/load


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "float16"])
def test_pickle_roundtrip(dtype):
    a = mx.nd.array(np_arange((2, 3)), dtype=dtype)
    for protocol in range(0, pickle.HIGHEST_PROTOCOL + 1):
        b = pickle.loads(pickle.dumps(a, protocol=protocol))
        assert isinstance(b, mx.nd.NDArray)
        assert b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    c = copy.deepcopy(a)
    c[:] = 0
    assert a.asnumpy().sum() > 0


def test_pickle_bad_bytes_raise_mxneterror():
    a = mx.nd.NDArray(None)
    with pytest.raises(mx.MXNetError):
        a.__setstate__({"handle": bytearray(b"not an ndarray")})


def test_save_load_roundtrip(tmp_path):
    arrays = {"w": mx.nd.array(np_arange((2, 3))),
              "b": mx.nd.array([1, 2], dtype="int32"),
              "e": mx.nd.zeros((0, 4))}
    path = tmp_path / "d.params"
    mx.nd.save(str(path), arrays)
    loaded = mx.nd.load(str(path))
    assert isinstance(loaded, dict)
    assert list(loaded) == list(arrays)
    for k, v in arrays.items():
        assert loaded[k].dtype == v.dtype
        assert loaded[k].shape == v.shape
        np.testing.assert_array_equal(loaded[k].asnumpy(), v.asnumpy())

    mx.nd.save(path, [arrays["w"], arrays["b"]])           # path-like accepted
    lst = mx.nd.load(path)
    assert isinstance(lst, list) and len(lst) == 2
    np.testing.assert_array_equal(lst[1].asnumpy(), [1, 2])

    mx.nd.save(str(path), arrays["w"])                      # a single array -> list of one
    single = mx.nd.load(str(path))
    assert isinstance(single, list) and len(single) == 1

    buf = path.read_bytes()
    from_buf = mx.nd.load_frombuffer(buf)
    np.testing.assert_array_equal(from_buf[0].asnumpy(), arrays["w"].asnumpy())


def test_save_rejects_bad_input(tmp_path):
    with pytest.raises(TypeError):
        mx.nd.save(str(tmp_path / "x"), {1: mx.nd.ones((1,))})
    with pytest.raises(TypeError):
        mx.nd.save(str(tmp_path / "x"), [np.ones(2)])
    with pytest.raises(ValueError):
        mx.nd.save(str(tmp_path / "x"), "nope")
    with pytest.raises(mx.MXNetError):
        mx.nd.load(str(tmp_path / "does-not-exist"))


# ---------------------------------------------------------------------------------------------
# Errors from the library


def test_library_errors_are_typed_and_recoverable():
    a = mx.nd.ones((2, 3))
    with pytest.raises(mx.MXNetError) as info:
        mx.nd.broadcast_add(a, mx.nd.ones((4, 5)))
    assert isinstance(info.value, RuntimeError)
    with pytest.raises(mx.MXNetError, match="slice|begin|Required"):
        mx.nd.slice(a)                                     # required params missing
    with pytest.raises(mx.MXNetError):
        mx.nd.sum(a, no_such_param=1)
    with pytest.raises(mx.MXNetError):
        (a + mx.nd.ones((3, 2))).wait_to_read()
    np.testing.assert_array_equal((a + 1).asnumpy(), np.full((2, 3), 2))   # still usable


def test_library_errors_carry_builtin_types():
    a = mx.nd.ones((2, 3))
    with pytest.raises(mx.MXNetError) as info:
        mx.nd.broadcast_add(a, mx.nd.ones((4, 5)))
    assert isinstance(info.value, ValueError)
    with pytest.raises(mx.MXNetError) as info:
        a + mx.nd.ones((2, 3), dtype="int32")
    assert isinstance(info.value, TypeError)
    with pytest.raises(mx.MXNetError) as info:          # raised by the kernel, at the wait
        mx.nd.take(a, mx.nd.array([5]), mode="raise").asnumpy()
    assert isinstance(info.value, IndexError)
    if mx.context.num_gpus() == 0:
        with pytest.raises(mx.MXNetError):
            mx.nd.zeros((2,), ctx=mx.gpu(0)).asnumpy()
    np.testing.assert_array_equal((a * 2).asnumpy(), np.full((2, 3), 2))


def test_error_class_mapping_from_library_prefix():
    from mxnet import base
    for name, builtin in [("ValueError", ValueError), ("TypeError", TypeError),
                          ("IndexError", IndexError), ("AttributeError", AttributeError),
                          ("NotImplementedError", NotImplementedError)]:
        cls, _ = base.c2pyerror("%s: something" % name)
        assert issubclass(cls, mx.MXNetError) and issubclass(cls, builtin)


def test_threads_use_their_own_buffers():
    errors = []

    def work(seed):
        try:
            rng = np.random.RandomState(seed)
            for _ in range(200):
                x = rng.uniform(size=(3, 4)).astype(np.float32)
                y = rng.uniform(size=(4,)).astype(np.float32)
                got = (mx.nd.array(x) + mx.nd.array(y)) * 2
                np.testing.assert_allclose(got.asnumpy(), (x + y) * 2, rtol=1e-6)
        except Exception as e:  # pylint: disable=broad-except
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
