"""Op table: shape and matrix manipulation (Reshape, Flatten, transpose, SwapAxis, expand_dims,
squeeze, Concat, stack, SliceChannel, _split_v2, slice, slice_axis, slice_like, _slice_assign,
_slice_assign_scalar, tile, repeat, reverse, depth_to_space, space_to_depth, diag, topk, sort,
argsort)."""
import numpy as np

from . import ALL_NUMERIC, FLOATS, INTS, OpEntry, Sample

WITH_BOOL = ALL_NUMERIC + ("float16", "bool")


def _reshape(x, shape=None, reverse=False):
    """MXNet's special reshape codes, via a direct implementation of the documented rules."""
    src = list(x.shape)
    codes = list(shape)
    if reverse:
        src, codes = src[::-1], codes[::-1]
    out, i, j, infer = [], 0, 0, -1
    while j < len(codes):
        c = codes[j]
        if c == 0:
            out.append(src[i]); i += 1
        elif c == -1:
            infer = len(out); out.append(1); i += 1
        elif c == -2:
            out.extend(src[i:]); i = len(src)
        elif c == -3:
            out.append(src[i] * src[i + 1]); i += 2
        elif c == -4:
            d0, d1, d2 = src[i], codes[j + 1], codes[j + 2]
            d1 = d0 // d2 if d1 == -1 else d1
            d2 = d0 // d1 if d2 == -1 else d2
            out += [d1, d2]; i += 1; j += 2
        else:
            out.append(c); i += 1
        j += 1
    if infer >= 0:
        out[infer] = x.size // int(np.prod(out))
    if reverse:
        out = out[::-1]
    return x.reshape(out)


RESHAPE_CASES = [((2, 3, 4), (4, 0, 2)), ((2, 3, 4), (6, 1, -1)), ((2, 3, 4), (3, -1, 8)),
                 ((2, 3, 4), (-1,)), ((2, 3, 4), (-2,)), ((2, 3, 4), (2, -2)),
                 ((2, 3, 4), (-2, 1, 1)), ((2, 3, 4), (-3, 4)), ((2, 3, 4), (0, -3)),
                 ((2, 3, 4), (-3, -2)), ((2, 3, 4), (-4, 1, 2, -2)),
                 ((2, 3, 4), (2, -4, -1, 3, -2)), ((2, 3, 4, 5), (-3, -3))]


def _transpose(x, axes=()):
    return np.transpose(x, axes if axes else None)


def _squeeze(x, axis=None):
    out = np.squeeze(x, axis=axis)
    return out.reshape(1) if out.ndim == 0 else out


def _concat(*xs, dim=1):
    return np.concatenate(xs, axis=dim)


def _stack(*xs, axis=0):
    return np.stack(xs, axis=axis)


def _split(x, num_outputs, axis=1, squeeze_axis=False):
    outs = np.split(x, num_outputs, axis=axis)
    if squeeze_axis:
        outs = [np.squeeze(o, axis=axis) for o in outs]
    return outs


def _split_v2(x, indices=(), axis=1, squeeze_axis=False, sections=0):
    outs = np.split(x, sections if sections else list(indices)[1:], axis=axis)
    if squeeze_axis:
        outs = [np.squeeze(o, axis=axis) for o in outs]
    return outs


def _slices(begin, end, step=None):
    step = step or (None,) * len(begin)
    return tuple(slice(b, e, s) for b, e, s in zip(begin, end, step))


def _slice(x, begin, end, step=None):
    return x[_slices(begin, end, step)]


def _slice_axis(x, axis, begin, end):
    sl = [slice(None)] * x.ndim
    sl[axis] = slice(begin, end)
    return x[tuple(sl)]


def _slice_like(x, y, axes=()):
    sl = [slice(None)] * x.ndim
    for a in (axes if axes else range(x.ndim)):
        sl[a] = slice(0, y.shape[a])
    return x[tuple(sl)]


def _slice_assign(x, y, begin, end, step=None):
    out = x.copy()
    out[_slices(begin, end, step)] = y
    return out


def _slice_assign_scalar(x, begin, end, step=None, scalar=0):
    out = x.copy()
    out[_slices(begin, end, step)] = scalar
    return out


def _slice_assign_inputs(shape, begin, end, step=None):
    def make(rng, dtype):
        x = rng.uniform(-2, 2, size=shape).astype(dtype)
        y = rng.uniform(-2, 2, size=x[_slices(begin, end, step)].shape).astype(dtype)
        return [x, y]
    return make


def _tile(x, reps):
    return np.tile(x, reps)


def _repeat(x, repeats, axis=None):
    return np.repeat(x, repeats, axis=axis)


def _reverse(x, axis):
    return np.flip(x, axis=axis)


def _depth_to_space(x, block_size):
    b = block_size
    n, c, h, w = x.shape
    y = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    return y.reshape(n, c // (b * b), h * b, w * b)


def _space_to_depth(x, block_size):
    b = block_size
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return y.reshape(n, c * b * b, h // b, w // b)


def _diag(x, k=0, axis1=0, axis2=1):
    if x.ndim == 1:
        return np.diag(x, k)
    return np.diagonal(x, offset=k, axis1=axis1, axis2=axis2)


def _distinct(shape):
    def make(rng, dtype):
        n = int(np.prod(shape))
        return [(rng.permutation(n) - (0 if np.dtype(dtype).kind == "u" else n // 2))
                .reshape(shape).astype(dtype)]
    return make


def _order(x, axis, ascend):
    if axis is None:
        x = x.reshape(-1)
        axis = -1
    return np.argsort(x if ascend else -x.astype(np.float64), axis=axis, kind="stable"), x, axis


def _topk(x, axis=-1, k=1, ret_typ="indices", is_ascend=False, dtype="float32"):
    idx, xv, ax = _order(x, axis, is_ascend)
    n = xv.shape[ax]
    k = n if k < 1 else k
    idx = np.take(idx, range(k), axis=ax)
    vals = np.take_along_axis(xv, idx, axis=ax)
    if ret_typ == "value":
        return vals
    if ret_typ == "both":
        return [vals, idx.astype(dtype)]
    if ret_typ == "mask":
        mask = np.zeros_like(xv)
        np.put_along_axis(mask, idx, 1, axis=ax)
        return mask.reshape(x.shape)
    return idx.astype(dtype)


def _sort(x, axis=-1, is_ascend=True):
    idx, xv, ax = _order(x, axis, is_ascend)
    return np.take_along_axis(xv, idx, axis=ax)


def _argsort(x, axis=-1, is_ascend=True, dtype="float32"):
    return _order(x, axis, is_ascend)[0].astype(dtype)


ENTRIES = [
    OpEntry("Reshape", lambda x, shape: _reshape(x, shape),
            [Sample([s], dict(shape=t)) for s, t in RESHAPE_CASES], dtypes=WITH_BOOL,
            covers=("reshape",)),
    OpEntry("reshape", lambda x, shape, reverse=False: _reshape(x, shape, reverse),
            [Sample([(10, 5, 4)], dict(shape=(-1, 0))),
             Sample([(10, 5, 4)], dict(shape=(-1, 0), reverse=True))]),
    OpEntry("Flatten", lambda x: x.reshape(x.shape[0], -1),
            [Sample([(2, 3, 4)]), Sample([(5,)]), Sample([(2, 3)])], dtypes=WITH_BOOL,
            covers=("flatten", "_npx_batch_flatten")),
    OpEntry("transpose", _transpose,
            [Sample([(2, 3)]), Sample([(2, 3, 4)]), Sample([(2, 3, 4)], dict(axes=(1, 0, 2))),
             Sample([(2, 3, 4, 5)], dict(axes=(0, 3, 1, 2))),
             Sample([(2, 3, 4)], dict(axes=(-1, 0, 1))),
             Sample([(300, 200)]), Sample([(4, 100, 90)], dict(axes=(0, 2, 1)))],
            dtypes=WITH_BOOL),
    OpEntry("SwapAxis", lambda x, dim1=0, dim2=0: np.swapaxes(x, dim1, dim2),
            [Sample([(2, 3)], dict(dim1=0, dim2=1)), Sample([(2, 3, 4)], dict(dim1=0, dim2=2)),
             Sample([(2, 3, 4)], dict(dim1=1, dim2=-1))],
            dtypes=ALL_NUMERIC, covers=("swapaxes", "_npi_swapaxes")),
    OpEntry("expand_dims", lambda x, axis: np.expand_dims(x, axis),
            [Sample([(2, 3)], dict(axis=0)), Sample([(2, 3)], dict(axis=2)),
             Sample([(2, 3)], dict(axis=-1)), Sample([(2, 3)], dict(axis=-3))],
            dtypes=WITH_BOOL, covers=("_npi_expand_dims",)),
    OpEntry("squeeze", _squeeze,
            [Sample([(1, 3, 1)]), Sample([(1, 3, 1)], dict(axis=0)),
             Sample([(1, 3, 1)], dict(axis=(0, 2))), Sample([(1, 1)]),
             Sample([(2, 1, 3)], dict(axis=-2))],
            dtypes=WITH_BOOL),
    OpEntry("concat", _concat,
            [Sample([(2, 3), (2, 4)]), Sample([(1, 3), (2, 3), (3, 3)], dict(dim=0)),
             Sample([(2, 3, 4), (2, 3, 1)], dict(dim=-1)), Sample([(5,), (3,)], dict(dim=0))],
            dtypes=WITH_BOOL, covers=("Concat", "_sparse_concat")),
    OpEntry("stack", _stack,
            [Sample([(2, 3), (2, 3)]), Sample([(2, 3), (2, 3), (2, 3)], dict(axis=1)),
             Sample([(2, 3), (2, 3)], dict(axis=-1)), Sample([(4,)], dict(axis=0))],
            dtypes=WITH_BOOL),
    OpEntry("split", _split,
            [Sample([(4, 6)], dict(num_outputs=2)), Sample([(4, 6)], dict(num_outputs=4, axis=0)),
             Sample([(3, 2, 1)], dict(num_outputs=3, axis=0, squeeze_axis=True)),
             Sample([(2, 6)], dict(num_outputs=3, axis=-1))],
            dtypes=ALL_NUMERIC, covers=("SliceChannel",)),
    OpEntry("_internal._split_v2", _split_v2,
            [Sample([(4, 6)], dict(indices=(0, 2, 5), axis=1)),
             Sample([(6, 3)], dict(indices=(), sections=3, axis=0)),
             Sample([(3, 4)], dict(indices=(), sections=3, axis=0, squeeze_axis=True))],
            covers=("_split_v2", "_npi_split")),
    OpEntry("slice", _slice,
            [Sample([(3, 4)], dict(begin=(0, 1), end=(2, 4))),
             Sample([(3, 4)], dict(begin=(None, 0), end=(None, 3), step=(-1, 2))),
             Sample([(3, 4, 5)], dict(begin=(1,), end=(3,))),
             Sample([(3, 4, 5)], dict(begin=(-2, None, 1), end=(None, -1, None),
                                      step=(None, 2, 2))),
             Sample([(5, 6)], dict(begin=(4, 5), end=(0, None), step=(-2, -1))),
             Sample([(50, 40, 30)], dict(begin=(5, 0, 1), end=(45, 40, 29), step=(2, 1, 3)))],
            dtypes=WITH_BOOL, covers=("crop", "_sparse_slice", "_npi_slice", "_npx_slice")),
    OpEntry("slice_axis", _slice_axis,
            [Sample([(3, 4)], dict(axis=0, begin=1, end=3)),
             Sample([(3, 4)], dict(axis=1, begin=0, end=2)),
             Sample([(3, 4)], dict(axis=1, begin=-3, end=-1)),
             Sample([(3, 4, 5)], dict(axis=-1, begin=2, end=None))],
            dtypes=WITH_BOOL),
    OpEntry("slice_like", _slice_like,
            [Sample([(3, 4), (2, 3)]), Sample([(3, 4), (2, 3)], dict(axes=(0,))),
             Sample([(3, 4), (2, 3)], dict(axes=(-1,))),
             Sample([(2, 3, 4, 5), (1, 2, 3)], dict(axes=(0, 2)))],
            dtypes=ALL_NUMERIC),
    OpEntry("_internal._slice_assign", _slice_assign,
            [Sample(arrays=_slice_assign_inputs((3, 4), (0, 1), (2, 3)),
                    kwargs=dict(begin=(0, 1), end=(2, 3))),
             Sample(arrays=_slice_assign_inputs((4, 5), (None, 0), (None, 5), (-1, 2)),
                    kwargs=dict(begin=(None, 0), end=(None, 5), step=(-1, 2)))],
            covers=("_slice_assign", "_crop_assign", "_npi_slice_assign")),
    OpEntry("_internal._slice_assign_scalar", _slice_assign_scalar,
            [Sample([(3, 4)], dict(begin=(0, 1), end=(2, 3), scalar=7.0)),
             Sample([(4, 5)], dict(begin=(1,), end=(4,), step=(2,), scalar=-1.5))],
            covers=("_slice_assign_scalar", "_crop_assign_scalar", "_npi_slice_assign_scalar")),
    OpEntry("tile", _tile,
            [Sample([(2, 2)], dict(reps=(2, 3))), Sample([(2, 2)], dict(reps=(2,))),
             Sample([(2, 2)], dict(reps=(2, 2, 3))), Sample([(3,)], dict(reps=(1, 0))),
             Sample([(30, 40)], dict(reps=(3, 10)))],
            dtypes=WITH_BOOL, covers=("_npi_tile",)),
    OpEntry("repeat", _repeat,
            [Sample([(2, 2)], dict(repeats=2)), Sample([(2, 2)], dict(repeats=2, axis=1)),
             Sample([(2, 2)], dict(repeats=3, axis=0)), Sample([(2, 3)], dict(repeats=2, axis=-1))],
            dtypes=WITH_BOOL, covers=("_np_repeat",)),
    OpEntry("reverse", _reverse,
            [Sample([(2, 5)], dict(axis=0)), Sample([(2, 5)], dict(axis=1)),
             Sample([(2, 3, 4)], dict(axis=(0, 2))), Sample([(2, 3, 4)], dict(axis=-1))],
            dtypes=WITH_BOOL, covers=("flip",)),
    OpEntry("depth_to_space", _depth_to_space,
            [Sample([(1, 4, 2, 3)], dict(block_size=2)), Sample([(2, 9, 2, 2)], dict(block_size=3))],
            dtypes=ALL_NUMERIC),
    OpEntry("space_to_depth", _space_to_depth,
            [Sample([(1, 1, 4, 6)], dict(block_size=2)), Sample([(2, 2, 6, 3)], dict(block_size=3))],
            dtypes=ALL_NUMERIC),
    OpEntry("diag", _diag,
            [Sample([(3, 4)]), Sample([(3, 4)], dict(k=1)), Sample([(3, 4)], dict(k=-1)),
             Sample([(3,)]), Sample([(3,)], dict(k=2)), Sample([(3,)], dict(k=-1)),
             Sample([(2, 3, 4, 5)], dict(axis1=0, axis2=2)),
             Sample([(2, 3, 4)], dict(k=1, axis1=-1, axis2=1))],
            dtypes=ALL_NUMERIC),
    OpEntry("topk", _topk,
            [Sample(arrays=_distinct((3, 5))),
             Sample(arrays=_distinct((3, 5)), kwargs=dict(k=2, ret_typ="value")),
             Sample(arrays=_distinct((3, 5)), kwargs=dict(k=2, ret_typ="value", is_ascend=True)),
             Sample(arrays=_distinct((3, 5)), kwargs=dict(axis=0, k=2, ret_typ="both")),
             Sample(arrays=_distinct((3, 5)), kwargs=dict(axis=None, k=3, ret_typ="both")),
             Sample(arrays=_distinct((2, 3, 4)), kwargs=dict(axis=1, k=2, ret_typ="mask")),
             Sample(arrays=_distinct((2, 3, 4)), kwargs=dict(k=0, ret_typ="indices",
                                                            dtype="int32"))],
            dtypes=("float32", "float64", "int32"), covers=("_npx_topk",)),
    OpEntry("sort", _sort,
            [Sample([(3, 5)]), Sample([(3, 5)], dict(axis=0)), Sample([(3, 5)], dict(axis=None)),
             Sample([(2, 3, 4)], dict(axis=1, is_ascend=False))],
            dtypes=FLOATS, covers=("_npi_sort",)),
    OpEntry("argsort", _argsort,
            [Sample(arrays=_distinct((3, 5))), Sample(arrays=_distinct((3, 5)), kwargs=dict(axis=0)),
             Sample(arrays=_distinct((3, 5)), kwargs=dict(axis=None)),
             Sample(arrays=_distinct((2, 3, 4)), kwargs=dict(is_ascend=False, dtype="int64"))],
            dtypes=("float32", "float64", "int32"), grad=False, covers=("_npi_argsort",)),
]
