"""Reductions, shape/matrix and indexing ops: error messages and classes, edge cases, aliases,
output counts and accumulation dtypes. (Forward values on many shapes and dtypes are in the op
table: optable/reduce.py, matrix.py, indexing.py.)"""
import numpy as np
import pytest

import mxnet as mx


def nd(x, dtype="float32"):
    return mx.nd.array(np.asarray(x), dtype=dtype)


def arange(shape, dtype="float32"):
    return nd(np.arange(int(np.prod(shape))).reshape(shape), dtype)


def raises(exc, fn, *words):
    """fn() raises exc (a typed MXNetError) whose message contains every word."""
    with pytest.raises(exc) as info:
        out = fn()
        for o in (out if isinstance(out, (list, tuple)) else [out]):
            o.asnumpy()  # errors raised inside the kernel surface at the wait
    msg = str(info.value)
    for w in words:
        assert w in msg, "%r not in %r" % (w, msg)
    assert isinstance(info.value, mx.base.MXNetError)
    return msg


# ---------------------------------------------------------------------------------------------
# Reshape family


def test_reshape_element_count_mismatch_is_a_clear_value_error():
    msg = raises(ValueError, lambda: mx.nd.reshape(arange((2, 3)), shape=(7,)), "Reshape")
    assert "6" in msg and "7" in msg


def test_reshape_bad_codes():
    raises(ValueError, lambda: mx.nd.reshape(arange((2, 3, 4)), shape=(-1, -1)), "Reshape")
    raises(ValueError, lambda: mx.nd.reshape(arange((2, 3, 4)), shape=(-4, 5, -1, -2)), "Reshape")
    raises(ValueError, lambda: mx.nd.reshape(arange((2, 3)), shape=(0, 0, 0)), "Reshape")


def test_reshape_deprecated_target_shape_and_keep_highest():
    x = arange((2, 3, 4))
    assert mx.nd.Reshape(x, target_shape=(4, 0)).shape == (4, 6)
    assert mx.nd.Reshape(x, target_shape=(9, 0), keep_highest=True).shape == (2, 12)


def test_flatten_expand_dims_squeeze_shapes():
    assert mx.nd.flatten(arange((2, 3, 4))).shape == (2, 12)
    assert mx.nd.Flatten(arange((5,))).shape == (5, 1)
    assert mx.nd.expand_dims(arange((2, 3)), axis=-3).shape == (1, 2, 3)
    assert mx.nd.squeeze(arange((1, 1, 1))).shape == (1,)
    raises(ValueError, lambda: mx.nd.expand_dims(arange((2, 3)), axis=3), "expand_dims", "axis 3")
    raises(ValueError, lambda: mx.nd.squeeze(arange((2, 1)), axis=0), "squeeze", "size 2")


def test_transpose_and_swapaxes_errors():
    raises(ValueError, lambda: mx.nd.transpose(arange((2, 3)), axes=(0,)), "transpose", "axes")
    raises(ValueError, lambda: mx.nd.transpose(arange((2, 3)), axes=(0, 0)), "transpose")
    raises(ValueError, lambda: mx.nd.swapaxes(arange((2, 3)), dim1=0, dim2=2), "SwapAxis", "axis 2")


# ---------------------------------------------------------------------------------------------
# Reductions


@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max", "min", "nansum", "nanprod"])
def test_reduction_bad_axis_names_op_and_axis(op):
    msg = raises(ValueError, lambda: getattr(mx.nd, op)(arange((2, 3)), axis=2), op, "axis 2")
    assert "[-2, 1]" in msg


def test_reduction_duplicate_axes():
    raises(ValueError, lambda: mx.nd.sum(arange((2, 3)), axis=(1, -1)), "sum", "duplicate")


def test_argmax_bad_axis_and_shapes():
    raises(ValueError, lambda: mx.nd.argmax(arange((2, 3)), axis=-3), "argmax", "axis -3")
    x = arange((2, 3, 4))
    assert mx.nd.argmax(x).shape == (1,)
    assert mx.nd.argmax(x, axis=1, keepdims=True).shape == (2, 1, 4)
    assert mx.nd.argmax(x, axis=1).dtype == np.float32
    assert mx.nd.argmin(arange((3,), "int32"), axis=0).dtype == np.int32


def test_argmax_ties_and_nan_follow_numpy():
    x = np.array([[1, 3, 3], [np.nan, 5, np.nan]], dtype="float32")
    np.testing.assert_array_equal(mx.nd.argmax(nd(x), axis=1).asnumpy(), [1, 0])
    np.testing.assert_array_equal(mx.nd.argmin(nd(x), axis=1).asnumpy(), [0, 0])


def test_max_min_propagate_nan():
    x = nd([[1, np.nan, 3], [4, 5, 6]])
    out = mx.nd.max(x, axis=1).asnumpy()
    assert np.isnan(out[0]) and out[1] == 6
    assert np.isnan(mx.nd.min(x).asnumpy()[0])


def test_float16_sum_accumulates_in_float():
    x = mx.nd.array(np.ones(10000), dtype="float16")
    assert mx.nd.sum(x).asnumpy()[0] == 10000  # naive half accumulation stalls at 2048
    assert mx.nd.mean(x).asnumpy()[0] == 1


def test_integer_reductions_keep_dtype():
    x = nd(np.arange(-6, 6).reshape(3, 4), "int32")
    out = mx.nd.sum(x, axis=0)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out.asnumpy(), np.arange(-6, 6).reshape(3, 4).sum(0))
    # integer mean truncates toward zero
    np.testing.assert_array_equal(mx.nd.mean(nd([[-3, 0], [4, 1]], "int32"), axis=1).asnumpy(),
                                  [-1, 2])
    # int8 sums wrap like the dtype
    y = nd(np.full(200, 100), "int8")
    assert mx.nd.sum(y).asnumpy()[0] == np.int8(np.int64(20000).astype(np.int8))


def test_norm_parameters():
    x = nd([[3, 4], [6, 8]])
    np.testing.assert_allclose(mx.nd.norm(x, axis=1).asnumpy(), [5, 10])
    np.testing.assert_allclose(mx.nd.norm(x, ord=1).asnumpy(), [21])
    assert mx.nd.norm(x, out_dtype="float64").dtype == np.float64
    raises(mx.base.MXNetError, lambda: mx.nd.norm(x, ord=3), "ord")
    raises(ValueError, lambda: mx.nd.norm(arange((2, 2, 2)), axis=(0, 1, 2)), "norm", "axis")


def test_exclude_with_empty_axis_reduces_everything():
    # MXNet quirk kept: axis=() means "all axes" even with exclude=True.
    assert mx.nd.sum(arange((2, 3)), axis=(), exclude=True).asnumpy()[0] == 15


def test_pick_errors():
    x = arange((2, 3))
    raises(ValueError, lambda: mx.nd.pick(x, nd([0, 1, 2]), axis=1), "pick", "index")
    raises(ValueError, lambda: mx.nd.pick(x, nd([0, 1]), axis=None), "pick", "axis=None")
    raises(mx.base.MXNetError, lambda: mx.nd.pick(x, nd([0, 1]), mode="raise"), "mode")


def test_broadcast_errors():
    raises(ValueError, lambda: mx.nd.broadcast_to(arange((2, 3)), shape=(4, 3)), "broadcast_to")
    raises(ValueError, lambda: mx.nd.broadcast_to(arange((2, 3)), shape=(2, 3, 1)),
           "broadcast_to")
    raises(ValueError, lambda: mx.nd.broadcast_axis(arange((2, 3)), axis=0, size=4),
           "broadcast_axis", "size 1")
    raises(ValueError, lambda: mx.nd.broadcast_like(arange((2, 3)), arange((4, 3))),
           "broadcast_like")


# ---------------------------------------------------------------------------------------------
# Slicing, joining, splitting


def test_slice_out_of_range_is_an_index_error():
    x = arange((3, 4))
    raises(IndexError, lambda: mx.nd.slice(x, begin=(0, 0), end=(2, 5)), "slice", "end[1]=5")
    raises(IndexError, lambda: mx.nd.slice(x, begin=(3,), end=(None,)), "slice", "begin[0]=3")
    raises(IndexError, lambda: mx.nd.slice(x, begin=(-4,), end=(None,)), "slice")
    raises(ValueError, lambda: mx.nd.slice(x, begin=(0,), end=(2,), step=(0,)), "step")
    raises(ValueError, lambda: mx.nd.slice(x, begin=(0, 0), end=(1,)), "slice", "begin")
    raises(IndexError, lambda: mx.nd.slice_axis(x, axis=1, begin=3, end=2), "slice_axis")
    raises(ValueError, lambda: mx.nd.slice_like(x, arange((4, 4))), "slice_like")


def test_empty_slices():
    x = arange((3, 4))
    assert mx.nd.slice(x, begin=(2,), end=(1,)).shape == (0, 4)
    assert mx.nd.slice(x, begin=(1,), end=(2,), step=(-1,)).shape == (0, 4)


def test_slice_assign_updates_in_place_via_out():
    x = arange((3, 4))
    mx.nd._internal._slice_assign(x, nd([[-1, -2]]), begin=(1, 1), end=(2, 3), out=x)
    mx.nd._internal._slice_assign_scalar(x, scalar=9, begin=(0,), end=(1,), out=x)
    expected = np.arange(12, dtype="float32").reshape(3, 4)
    expected[1, 1:3] = [-1, -2]
    expected[0] = 9
    np.testing.assert_array_equal(x.asnumpy(), expected)
    raises(ValueError, lambda: mx.nd._internal._slice_assign(x, nd([1, 2, 3]), begin=(0, 0),
                                                              end=(1, 2)), "_slice_assign")


def test_concat_stack_split_errors():
    raises(ValueError, lambda: mx.nd.concat(arange((2, 3)), arange((3, 3)), dim=1), "Concat")
    raises(ValueError, lambda: mx.nd.concat(arange((2, 3)), arange((2, 3)), dim=2),
           "Concat", "axis 2")
    raises(ValueError, lambda: mx.nd.stack(arange((2, 3)), arange((3, 2))), "stack")
    raises(ValueError, lambda: mx.nd.split(arange((2, 3)), num_outputs=2), "split", "divide")
    raises(ValueError, lambda: mx.nd.split(arange((2, 4)), num_outputs=2, squeeze_axis=True),
           "split", "squeeze_axis")


def test_multi_output_ops_return_lists():
    parts = mx.nd.split(arange((2, 6)), num_outputs=3)
    assert isinstance(parts, list) and len(parts) == 3 and parts[0].shape == (2, 2)
    both = mx.nd.topk(arange((2, 5)), k=2, ret_typ="both")
    assert len(both) == 2
    np.testing.assert_array_equal(both[1].asnumpy(), [[4, 3], [4, 3]])
    out = mx.nd.sort(arange((2, 5)), is_ascend=False)
    assert isinstance(out, mx.nd.NDArray)
    raises(ValueError, lambda: mx.nd.topk(arange((2, 5)), k=6), "topk", "k=6")


def test_tile_repeat_reverse():
    raises(ValueError, lambda: mx.nd.tile(arange((2,)), reps=(-1,)), "tile")
    raises(ValueError, lambda: mx.nd.repeat(arange((2,)), repeats=-1), "repeat")
    raises(ValueError, lambda: mx.nd.reverse(arange((2, 3)), axis=2), "reverse", "axis 2")
    assert mx.nd.tile(arange((2,)), reps=(0,)).shape == (0,)


def test_depth_space_errors():
    raises(ValueError, lambda: mx.nd.depth_to_space(arange((1, 3, 2, 2)), block_size=2),
           "depth_to_space")
    raises(ValueError, lambda: mx.nd.space_to_depth(arange((1, 1, 3, 2)), block_size=2),
           "space_to_depth")


# ---------------------------------------------------------------------------------------------
# Indexing


def test_take_modes():
    a = arange((3, 2))
    idx = nd([-1, 3])
    np.testing.assert_array_equal(mx.nd.take(a, idx).asnumpy(), [[0, 1], [4, 5]])
    np.testing.assert_array_equal(mx.nd.take(a, idx, mode="wrap").asnumpy(), [[4, 5], [0, 1]])
    raises(IndexError, lambda: mx.nd.take(a, idx, mode="raise"), "take", "index 3")
    raises(mx.base.MXNetError, lambda: mx.nd.take(a, idx, mode="bogus"), "mode")
    raises(ValueError, lambda: mx.nd.take(a, idx, axis=2), "take", "axis 2")


def test_embedding_shapes_dtypes_and_clipping():
    w = arange((4, 3))
    out = mx.nd.Embedding(nd([[0, 5]]), w, input_dim=4, output_dim=3)
    assert out.shape == (1, 2, 3)
    np.testing.assert_array_equal(out.asnumpy()[0, 1], [9, 10, 11])  # index 5 clips to 3
    raises(mx.base.MXNetError, lambda: mx.nd.Embedding(nd([0]), arange((5, 3)), input_dim=4,
                                                        output_dim=3), "Shape inconsistent")
    raises(mx.base.MXNetError, lambda: mx.nd.Embedding(nd([0]), w, output_dim=3), "input_dim")


def test_one_hot_out_of_range_and_dtype():
    out = mx.nd.one_hot(nd([1, -1, 3]), depth=3, dtype="int32")
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 0], [0, 0, 0], [0, 0, 0]])


def test_gather_scatter_nd_errors():
    data = arange((2, 3))
    raises(IndexError, lambda: mx.nd.gather_nd(data, nd([[0], [3]], "int32")), "gather_nd", "index 3")
    raises(ValueError, lambda: mx.nd.gather_nd(data, nd([[0], [1], [0]], "int32")), "gather_nd")
    raises(ValueError, lambda: mx.nd.scatter_nd(nd([1, 2]), nd([[0, 1, 1]]), shape=(3,)),
           "scatter_nd")


# ---------------------------------------------------------------------------------------------
# Registry surface


@pytest.mark.parametrize("alias,canonical", [
    ("sum_axis", "sum"), ("max_axis", "max"), ("min_axis", "min"), ("flip", "reverse"),
    ("swapaxes", "SwapAxis"), ("split", "SliceChannel"), ("concat", "Concat"),
    ("reshape", "Reshape"), ("flatten", "Flatten"), ("crop", "slice"),
    ("choose_element_0index", "pick"), ("broadcast_axes", "broadcast_axis")])
def test_aliases_resolve_to_the_canonical_op(alias, canonical):
    assert hasattr(mx.nd, alias)
    assert hasattr(mx.nd, canonical)


def test_concat_injects_num_args():
    out = mx.nd.concat(arange((1, 2)), arange((1, 2)), arange((1, 2)), dim=0)
    assert out.shape == (3, 2)
