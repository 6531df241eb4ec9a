"""Shape, data-movement, indexing and element-wise comparison operators on the GPU against the
CPU (float64 reference, 1.9.1's check_consistency tolerances), forward and gradients."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, DTYPES, TOL, check, check_fn, inputs


def same_on_both(fn, arrays):
    """fn(*NDArrays) on the CPU and on DEV with the same inputs: exact equality (data movement,
    comparisons and indices must not round)."""
    outs = []
    for ctx in (mx.cpu(), DEV):
        nds = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in arrays]
        outs.append(fn(*nds).asnumpy())
    np.testing.assert_array_equal(outs[1], outs[0])
    return outs[0]


# ------------------------------------------------------------------------- shapes, copies

@pytest.mark.parametrize("dtype", DTYPES)
def test_reshape_family_and_gradients(dtype):
    x = inputs([(2, 3, 4)], dtype)[0]
    check_fn(lambda a: mx.nd.reshape(a, shape=(4, -1)), [x], dtype, True, "reshape")
    check_fn(lambda a: mx.nd.flatten(a), [x], dtype, True, "flatten")
    check_fn(lambda a: mx.nd.expand_dims(a, axis=1), [x], dtype, True, "expand_dims")
    check_fn(lambda a: mx.nd.squeeze(mx.nd.expand_dims(a, axis=0)), [x], dtype, True, "squeeze")
    y = inputs([(6, 4)], dtype)[0]
    check_fn(lambda a, b: mx.nd.reshape_like(a, b), [x, y], dtype, True, "reshape_like")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axes", [None, (1, 0, 2), (2, 0, 1), (0, 2, 1)])
def test_transpose_and_gradient(dtype, axes):
    x = inputs([(3, 4, 5)], dtype)[0]
    params = {} if axes is None else dict(axes=axes)
    check_fn(lambda a: mx.nd.transpose(a, **params), [x], dtype, True, "transpose")


def test_large_transpose_and_swapaxes():
    x = np.random.RandomState(0).rand(300, 257).astype(np.float32)
    np.testing.assert_array_equal(same_on_both(lambda a: mx.nd.transpose(a), [x]), x.T)
    y = np.random.RandomState(1).rand(4, 5, 6).astype(np.float32)
    same_on_both(lambda a: mx.nd.SwapAxis(a, dim1=0, dim2=2), [y])


@pytest.mark.parametrize("dtype", DTYPES)
def test_tile_repeat_reverse_and_gradients(dtype):
    x = inputs([(2, 3)], dtype)[0]
    check_fn(lambda a: mx.nd.tile(a, reps=(2, 1, 3)), [x], dtype, True, "tile")
    check_fn(lambda a: mx.nd.repeat(a, repeats=3, axis=1), [x], dtype, True, "repeat")
    check_fn(lambda a: mx.nd.repeat(a, repeats=2), [x], dtype, True, "repeat (flat)")
    check_fn(lambda a: mx.nd.reverse(a, axis=(0, 1)), [x], dtype, True, "reverse")


def test_reverse_in_place_and_depth_space_and_diag():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    g = mx.nd.array(x, ctx=DEV)
    mx.nd.reverse(g, axis=2, out=g)
    np.testing.assert_array_equal(g.asnumpy(), x[:, :, ::-1])
    d = np.arange(2 * 8 * 3 * 3, dtype=np.float32).reshape(2, 8, 3, 3)
    same_on_both(lambda a: mx.nd.depth_to_space(a, block_size=2), [d])
    same_on_both(lambda a: mx.nd.space_to_depth(mx.nd.depth_to_space(a, block_size=2),
                                                block_size=2), [d])
    m = np.random.RandomState(2).rand(4, 5).astype(np.float32)
    same_on_both(lambda a: mx.nd.diag(a, k=1), [m])
    same_on_both(lambda a: mx.nd.diag(a), [m[0]])
    check_fn(lambda a: mx.nd.diag(a, k=-1), [m], np.float32, True, "diag")


@pytest.mark.parametrize("dtype", DTYPES)
def test_slice_family_and_gradients(dtype):
    x = inputs([(5, 6, 4)], dtype)[0]
    check_fn(lambda a: mx.nd.slice(a, begin=(1, None, 0), end=(4, None, 3), step=(2, -1, 1)),
             [x], dtype, True, "slice")
    check_fn(lambda a: mx.nd.slice_axis(a, axis=1, begin=1, end=-1), [x], dtype, True,
             "slice_axis")
    y = inputs([(3, 2, 4)], dtype)[0]
    check_fn(lambda a, b: mx.nd.slice_like(a, b, axes=(0, 1)), [x, y], dtype, True, "slice_like")


def test_setitem_on_gpu_arrays():
    x = np.zeros((4, 5), np.float32)
    g = mx.nd.array(x, ctx=DEV)
    g[1:3, 2:] = mx.nd.ones((2, 3), ctx=DEV) * 7
    g[3] = 2.5
    x[1:3, 2:] = 7
    x[3] = 2.5
    np.testing.assert_array_equal(g.asnumpy(), x)


@pytest.mark.parametrize("dtype", DTYPES)
def test_concat_stack_split_and_gradients(dtype):
    a, b, c = inputs([(2, 3, 4), (2, 1, 4), (2, 5, 4)], dtype)
    check_fn(lambda x, y, z: mx.nd.concat(x, y, z, dim=1), [a, b, c], dtype, True, "concat")
    p, q = inputs([(3, 4), (3, 4)], dtype)
    check_fn(lambda x, y: mx.nd.stack(x, y, axis=1), [p, q], dtype, True, "stack")
    check_fn(lambda x: mx.nd.split(x, num_outputs=2, axis=1)[1], [p], dtype, True, "split")
    check_fn(lambda x: mx.nd.split_v2(x, (1, 3), axis=1)[2], [p], dtype, True, "split_v2")


# --------------------------------------------------------------------------------- indexing

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["clip", "wrap"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_and_gradient_with_repeated_indices(dtype, mode, axis):
    x = inputs([(4, 5, 3)], dtype)[0]
    idx = np.array([[0, 2, 2], [-1, 7, 0]], np.float32)  # repeats accumulate in the gradient
    results = []
    for ctx, dt in ((mx.cpu(), np.float64), (DEV, dtype)):
        a = mx.nd.array(x.astype(dt), ctx=ctx, dtype=dt)
        i = mx.nd.array(idx, ctx=ctx)
        a.attach_grad()
        with mx.autograd.record():
            y = mx.nd.take(a, i, axis=axis, mode=mode)
        y.backward(mx.nd.ones_like(y) * 1.5)
        results.append((y.asnumpy(), a.grad.asnumpy()))
    rtol, atol = TOL[dtype]
    for got, ref in zip(results[1], results[0]):
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol)


def test_take_raise_mode_reports_the_bad_index():
    a = mx.nd.ones((3, 2), ctx=DEV)
    with pytest.raises(mx.MXNetError, match="take: index 5 is out of bounds"):
        mx.nd.take(a, mx.nd.array([0, 5], ctx=DEV), mode="raise").asnumpy()
    ok = mx.nd.take(a, mx.nd.array([-1, 2], ctx=DEV), mode="raise")
    np.testing.assert_array_equal(ok.asnumpy(), np.ones((2, 2)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_embedding_and_gradient(dtype):
    w = inputs([(10, 4)], dtype)[0]
    data = np.array([[1, 3, 3], [9, 0, 1]], np.float32)
    results = []
    for ctx, dt in ((mx.cpu(), np.float64), (DEV, dtype)):
        weight = mx.nd.array(w.astype(dt), ctx=ctx, dtype=dt)
        weight.attach_grad()
        with mx.autograd.record():
            y = mx.nd.Embedding(mx.nd.array(data, ctx=ctx), weight, input_dim=10, output_dim=4,
                                dtype=np.dtype(dt).name)
        y.backward(mx.nd.array(np.linspace(-1, 1, y.size).reshape(y.shape), ctx=ctx, dtype=dt))
        results.append((y.asnumpy(), weight.grad.asnumpy()))
    rtol, atol = TOL[dtype]
    for got, ref in zip(results[1], results[0]):
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol)


def test_batch_take_one_hot_where_argmax():
    a = np.random.RandomState(3).rand(5, 4).astype(np.float32)
    idx = np.array([0, 3, 1, 9, -2], np.int32)
    same_on_both(lambda x, i: mx.nd.batch_take(x, i), [a, idx])
    same_on_both(lambda i: mx.nd.one_hot(i, depth=6, on_value=2, off_value=-1),
                 [np.array([[0, 5], [2, 7]], np.float32)])
    cond = np.array([[1, 0, 1, 0]] * 5, np.float32)
    b = -a
    same_on_both(lambda c, x, y: mx.nd.where(c, x, y), [cond, a, b])
    same_on_both(lambda c, x, y: mx.nd.where(c, x, y), [np.array([1, 0, 0, 1, 1], np.float32),
                                                         a, b])
    check_fn(lambda c, x, y: mx.nd.where(c, x, y), [cond, a, b], np.float32, True, "where")
    a[2, 1] = np.nan
    for op in ("argmax", "argmin"):
        for axis in (0, 1):
            same_on_both(lambda x: getattr(mx.nd, op)(x, axis=axis), [a])
    same_on_both(lambda x: mx.nd.argmax_channel(x), [a])


@pytest.mark.parametrize("dtype", DTYPES)
def test_clip_add_n_and_gradients(dtype):
    x = inputs([(4, 6)], dtype)[0]
    check_fn(lambda a: mx.nd.clip(a, -1.0, 1.2), [x], dtype, True, "clip")
    arrays = inputs([(3, 5)] * 11, dtype)  # more than one pack of eight inputs
    check_fn(lambda *a: mx.nd.add_n(*a), arrays, dtype, True, "add_n")


# ---------------------------------------------------------------- comparisons, extended ops

LOGIC = ["equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal",
         "logical_and", "logical_or", "logical_xor"]


@pytest.mark.parametrize("op", LOGIC)
def test_comparison_and_logical_ops(op):
    rng = np.random.RandomState(4)
    a = rng.randint(0, 3, (3, 4)).astype(np.float32)
    b = rng.randint(0, 3, (3, 4)).astype(np.float32)
    same_on_both(lambda x, y: getattr(mx.nd, "broadcast_" + op)(x, y), [a, b[:1]])
    same_on_both(lambda x, y: getattr(mx.nd._internal, "_" + op)(x, y), [a, b])
    same_on_both(lambda x: getattr(mx.nd._internal, "_" + op + "_scalar")(x, scalar=1.0), [a])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", ["power", "maximum", "minimum", "hypot"])
def test_extended_binary_ops_and_gradients(op, dtype):
    a, b = [np.abs(v) + 0.5 for v in inputs([(3, 4), (3, 4)], dtype)]
    check_fn(lambda x, y: getattr(mx.nd._internal, "_" + op)(x, y), [a, b], dtype, True, op)
    check_fn(lambda x, y: getattr(mx.nd, "broadcast_" + op)(x, y), [a, b[:1]], dtype, True,
             "broadcast_" + op)
    check_fn(lambda x: getattr(mx.nd._internal, "_" + op + "_scalar")(x, scalar=1.5), [a], dtype,
             True, op + "_scalar")


# ------------------------------------------------------------------------- sorting (CUB)

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "uint8"])
@pytest.mark.parametrize("is_ascend", [False, True])
def test_sort_argsort_topk_match_the_cpu(dtype, is_ascend):
    rng = np.random.RandomState(5)
    x = rng.randint(0, 6, (4, 7, 3)).astype(dtype)  # many ties: the column order must hold
    if np.dtype(dtype).kind == "f":
        x[0, 2, 1] = np.nan
        x[1, 0, 0] = -0.0
    for axis in (1, -1, None):
        same_on_both(lambda a: mx.nd.sort(a, axis=axis, is_ascend=is_ascend), [x])
        same_on_both(lambda a: mx.nd.argsort(a, axis=axis, is_ascend=is_ascend), [x])
        for ret in ("indices", "value", "mask"):
            same_on_both(lambda a: mx.nd.topk(a, axis=axis, k=3, ret_typ=ret,
                                              is_ascend=is_ascend), [x])
        same_on_both(lambda a: mx.nd.topk(a, axis=axis, k=2, ret_typ="both",
                                          is_ascend=is_ascend)[1], [x])


def test_topk_gradient_and_large_rows():
    x = np.random.RandomState(6).rand(3, 5000).astype(np.float32)
    check_fn(lambda a: mx.nd.topk(a, k=4, ret_typ="value"), [x], np.float32, True, "topk")
    same_on_both(lambda a: mx.nd.argsort(a), [x])
    same_on_both(lambda a: mx.nd.sort(a, axis=0), [x])


def test_gather_nd_scatter_nd_and_gradient():
    data = np.random.RandomState(7).rand(4, 5, 3).astype(np.float32)
    idx = np.array([[0, 3, 3, -1], [1, 4, 4, 0]], np.float32)  # repeated tuple: grads add up
    same_on_both(lambda d, i: mx.nd.gather_nd(d, i), [data, idx])
    check_fn(lambda d: mx.nd.gather_nd(d, mx.nd.array(idx, ctx=d.context)), [data], np.float32,
             True, "gather_nd")
    rows = np.random.RandomState(8).rand(3, 3).astype(np.float32)
    sidx = np.array([[0, 2, 3], [1, 0, 4]], np.float32)  # distinct tuples
    same_on_both(lambda r, i: mx.nd.scatter_nd(r, i, shape=(4, 5, 3)), [rows, sidx])
    with pytest.raises(mx.MXNetError, match="gather_nd: index 9 is out of bounds"):
        mx.nd.gather_nd(mx.nd.array(data, ctx=DEV),
                        mx.nd.array([[9], [0]], ctx=DEV)).asnumpy()


def test_amp_casts_on_the_device():
    x = np.random.RandomState(9).uniform(-3, 3, (4, 5)).astype(np.float32)
    same_on_both(lambda a: mx.nd.amp_cast(a, dtype="float16"), [x])
    same_on_both(lambda a, b: mx.nd.amp_multicast(a, b, num_outputs=2)[0],
                 [x.astype(np.float16), x])
    check_fn(lambda a: mx.nd.amp_cast(a, dtype="float64") * 2, [x], np.float32, True, "amp_cast")
