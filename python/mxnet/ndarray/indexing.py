"""NDArray indexing: ``x[key]`` and ``x[key] = value`` with NumPy semantics.

Basic indexing (integers, slices with any step, ``None``/newaxis, ``...``) never copies when the
selected region is contiguous in memory: ``x[i]`` is MXNDArrayAt, ``x[a:b]`` MXNDArraySlice,
and other contiguous regions are a reshape + slice + reshape view. Otherwise the ``slice``
operator copies the region (then a reshape drops integer-indexed axes).

Advanced indexing (integer arrays, lists, NDArrays, boolean masks): one integer index array on
one axis with the other axes whole is the ``take`` operator (NDArray indices stay on the
device; negative indices count from the end). Anything else is resolved to flat element
positions with NumPy, which implies a host copy of NDArray indices, and then gathered with
``take`` (read) or scattered with ``_scatter_set_nd`` (write; a library without that operator
gets a host round trip instead). Boolean masks always go through that NumPy path. Duplicate
positions in an assignment keep an unspecified one of the values.

As in MXNet 1.x (legacy shape mode), a result with no axes left, e.g. ``x[1, 2]``, has shape
``(1,)``.
"""
import numpy as np

from ..base import integer_types, numeric_types
from ._shape import shape_size, broadcast_shape_for_assign

__all__ = ["parse_basic_key", "BasicIndex", "is_advanced_key", "getitem", "setitem"]


class BasicIndex(object):
    """A basic index resolved against a shape.

    begin/end/step: per source axis, as the ``slice`` operator takes them (end None means
    "through the first element" for a negative step).
    sliced_shape: shape of the selected region with integer-indexed axes kept as 1.
    out_shape: NumPy result shape (integer axes dropped, newaxis inserted).
    int_axes: source axes indexed by an integer.
    full: True when the index selects the whole array unchanged (no ints, no newaxis).
    """
    __slots__ = ("begin", "end", "step", "sliced_shape", "out_shape", "int_axes", "full",
                 "unit_steps")

    def __init__(self):
        self.begin = []
        self.end = []
        self.step = []
        self.sliced_shape = []
        self.out_shape = []
        self.int_axes = []
        self.full = True
        self.unit_steps = True

    def contiguous_range(self, shape):
        """(flat_begin, flat_end) when the region is one contiguous run in C order, else None."""
        if not self.unit_steps:
            return None
        ndim = len(shape)
        # Find the last axis that is not whole; everything after it must be whole and
        # everything before it must select a single index.
        k = ndim - 1
        while k >= 0 and self.sliced_shape[k] == shape[k]:
            k -= 1
        if k < 0:
            return (0, shape_size(shape))
        for j in range(k):
            if self.sliced_shape[j] != 1:
                return None
        stride = shape_size(shape[k + 1:])
        offset = 0
        for j in range(k + 1):
            offset = offset * shape[j] + self.begin[j]
        offset *= stride
        return (offset, offset + self.sliced_shape[k] * stride)


def _is_int(x):
    return isinstance(x, integer_types) and not isinstance(x, (bool, np.bool_))


def is_advanced_key(key):
    """True when `key` (a tuple or single item) needs advanced indexing."""
    items = key if isinstance(key, tuple) else (key,)
    for k in items:
        if k is None or k is Ellipsis or isinstance(k, slice) or _is_int(k):
            continue
        return True
    return False


def parse_basic_key(key, shape):
    """Resolve a basic index `key` against `shape`; raises IndexError/TypeError like NumPy."""
    if not isinstance(key, tuple):
        key = (key,)
    ndim = len(shape)
    n_ellipsis = sum(1 for k in key if k is Ellipsis)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_real > ndim:
        raise IndexError("too many indices for array: array is %d-dimensional, but %d were "
                         "indexed" % (ndim, n_real))
    idx = BasicIndex()
    axis = 0

    def whole(axis):
        dim = shape[axis]
        idx.begin.append(0)
        idx.end.append(dim)
        idx.step.append(1)
        idx.sliced_shape.append(dim)
        idx.out_shape.append(dim)

    for k in key:
        if k is None:
            idx.out_shape.append(1)
            idx.full = False
        elif k is Ellipsis:
            for _ in range(ndim - n_real):
                whole(axis)
                axis += 1
        elif isinstance(k, slice):
            dim = shape[axis]
            start, stop, step = k.indices(dim)
            length = len(range(start, stop, step))
            if step < 0 and stop < 0:
                stop = None
            elif step > 0:
                stop = max(start, stop)
            idx.begin.append(start)
            idx.end.append(stop)
            idx.step.append(step)
            if step != 1:
                idx.unit_steps = False
            idx.sliced_shape.append(length)
            idx.out_shape.append(length)
            if length != dim or step != 1:
                idx.full = False
            axis += 1
        elif _is_int(k):
            dim = shape[axis]
            i = int(k)
            if i < -dim or i >= dim:
                raise IndexError("index %d is out of bounds for axis %d with size %d"
                                 % (i, axis, dim))
            if i < 0:
                i += dim
            idx.begin.append(i)
            idx.end.append(i + 1)
            idx.step.append(1)
            idx.sliced_shape.append(1)
            idx.int_axes.append(axis)
            idx.full = False
            axis += 1
        else:
            raise TypeError("NDArray does not support indexing with %s" % type(k).__name__)
    while axis < ndim:
        whole(axis)
        axis += 1
    return idx


def _legacy_shape(shape):
    """Legacy (non-NumPy) shape mode has no 0-d arrays: () becomes (1,)."""
    return tuple(shape) if shape else (1,)


def _slice_tuple(values):
    return tuple(values)


# ---------------------------------------------------------------------------------------------
# Reading


def getitem(arr, key):
    """``arr[key]``."""
    from . import ndarray as _nd
    if _is_int(key):
        return arr._at(int(key))
    shape = arr.shape
    if isinstance(key, (list, np.ndarray, _nd.NDArray)) or (
            isinstance(key, tuple) and is_advanced_key(key)) or isinstance(key, (bool, np.bool_)):
        return _get_advanced(arr, key, shape)
    idx = parse_basic_key(key, shape)
    if idx.full:
        return arr._slice(0, shape[0]) if shape else arr
    out_shape = _legacy_shape(idx.out_shape)
    if 0 in idx.sliced_shape:
        return _nd.empty(out_shape, ctx=arr.context, dtype=arr.dtype)
    run = idx.contiguous_range(shape)
    if run is not None:
        begin, end = run
        if len(shape) == 1:
            res = arr._slice(begin, end)
        else:
            res = arr._reshape_view((shape_size(shape),))._slice(begin, end)
        if res.shape != out_shape:
            res = res._reshape_view(out_shape)
        return res
    res = _nd.op.slice(arr, begin=_slice_tuple(idx.begin), end=_slice_tuple(idx.end),
                       step=_slice_tuple(idx.step))
    if tuple(idx.sliced_shape) != out_shape:
        res = res._reshape_view(out_shape)
    return res


def _single_take_axis(key, ndim):
    """(axis, index) when `key` is one integer index array on one axis, others whole."""
    from . import ndarray as _nd
    items = key if isinstance(key, tuple) else (key,)
    axis = None
    index = None
    for pos, k in enumerate(items):
        if isinstance(k, slice) and k == slice(None):
            continue
        if axis is not None:
            return None
        if isinstance(k, _nd.NDArray):
            if np.dtype(k.dtype).kind not in "iuf":
                return None
        elif isinstance(k, (list, np.ndarray)):
            kk = np.asarray(k)
            if kk.dtype.kind not in "iu" or kk.size == 0:
                return None
        else:
            return None
        axis, index = pos, k
    if axis is None or axis >= ndim:
        return None
    return axis, index


def _to_numpy_key(key):
    from . import ndarray as _nd
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for k in items:
        if isinstance(k, _nd.NDArray):
            k = k.asnumpy()
        out.append(k)
    return tuple(out)


def flat_positions(key, shape):
    """Flat C-order element positions selected by any NumPy index `key` on `shape`.

    Uses NumPy's own indexing on broadcast (zero-copy) coordinate grids, so every NumPy rule
    applies, including errors (IndexError for out-of-range indices).
    """
    ndim = len(shape)
    flat = None
    stride = 1
    for axis in range(ndim - 1, -1, -1):
        grid_shape = [1] * ndim
        grid_shape[axis] = shape[axis]
        grid = np.broadcast_to(np.arange(shape[axis], dtype=np.int64).reshape(grid_shape), shape)
        coord = grid[key]
        term = coord * stride if stride != 1 else coord
        flat = term if flat is None else flat + term
        stride *= shape[axis]
    if flat is None:                     # 0-d array
        flat = np.zeros((), dtype=np.int64)[key]
    return np.asarray(flat, dtype=np.int64)


def _index_array(positions, ctx):
    from . import ndarray as _nd
    dtype = np.int32 if positions.size == 0 or positions.max() < 2 ** 31 else np.int64
    return _nd.array(positions.astype(dtype, copy=False), ctx=ctx, dtype=dtype)


def _get_advanced(arr, key, shape):
    from . import ndarray as _nd
    single = _single_take_axis(key, len(shape))
    if single is not None:
        axis, index = single
        if not isinstance(index, _nd.NDArray):
            index = np.asarray(index)
            dim = shape[axis]
            if index.min() < -dim or index.max() >= dim:
                bad = index[(index < -dim) | (index >= dim)].flat[0]
                raise IndexError("index %d is out of bounds for axis %d with size %d"
                                 % (bad, axis, dim))
            index = _index_array(np.where(index < 0, index + dim, index), arr.context)
            return _nd.op.take(arr, index, axis=axis)
        return _nd.op.take(arr, index, axis=axis, mode="wrap")
    np_key = _to_numpy_key(key)
    positions = flat_positions(np_key if len(np_key) != 1 else np_key[0], shape)
    out_shape = _legacy_shape(positions.shape)
    if positions.size == 0:
        return _nd.empty(out_shape, ctx=arr.context, dtype=arr.dtype)
    flat = arr._reshape_view((shape_size(shape),))
    res = _nd.op.take(flat, _index_array(positions.reshape(-1), arr.context), axis=0)
    return res._reshape_view(out_shape)


# ---------------------------------------------------------------------------------------------
# Writing


def _value_as_nd(value, target_shape, view_shape, arr):
    """`value` as an NDArray of `view_shape` holding value broadcast to `target_shape`.

    `target_shape` is the NumPy shape of the selected region, `view_shape` the same elements
    laid out as the assignment operator wants them (same size, C order).
    """
    from . import ndarray as _nd
    ctx, dtype = arr.context, arr.dtype
    if isinstance(value, _nd.NDArray):
        src = value
        if src.context != ctx:
            src = src.as_in_context(ctx)
        if np.dtype(src.dtype) != np.dtype(dtype):
            src = src.astype(dtype)
        vshape = src.shape
        if tuple(vshape) == tuple(view_shape):
            return src
        if not target_shape:            # a single element
            if src.size != 1:
                raise ValueError("could not broadcast input array from shape %s into shape ()"
                                 % (tuple(vshape),))
            return src._reshape_view(tuple(view_shape))
        padded = broadcast_shape_for_assign(vshape, target_shape)
        if padded != tuple(vshape):
            src = src._reshape_view(padded)
        if padded != tuple(target_shape):
            src = _nd.op.broadcast_to(src, shape=tuple(target_shape))
        if tuple(target_shape) != tuple(view_shape):
            src = src._reshape_view(tuple(view_shape))
        return src
    npval = np.asarray(value, dtype=dtype)
    if not target_shape:
        if npval.size != 1:
            raise ValueError("could not broadcast input array from shape %s into shape ()"
                             % (npval.shape,))
    else:
        npval = npval.reshape(broadcast_shape_for_assign(npval.shape, target_shape))
        npval = np.broadcast_to(npval, tuple(target_shape))
    return _nd.array(np.ascontiguousarray(npval).reshape(tuple(view_shape)), ctx=ctx,
                     dtype=dtype)


def setitem(arr, key, value):
    """``arr[key] = value``; value is a number, NDArray or array-like (broadcast as NumPy)."""
    from . import ndarray as _nd
    if not arr.writable:
        raise ValueError("Cannot assign to readonly NDArray")
    shape = arr.shape
    if isinstance(key, (list, np.ndarray, _nd.NDArray)) or (
            isinstance(key, tuple) and is_advanced_key(key)) or isinstance(key, (bool, np.bool_)):
        _set_advanced(arr, key, value, shape)
        return
    idx = parse_basic_key(key, shape)
    if idx.full:
        _set_whole(arr, value, shape)
        return
    if 0 in idx.sliced_shape:
        return
    begin, end, step = _slice_tuple(idx.begin), _slice_tuple(idx.end), _slice_tuple(idx.step)
    if isinstance(value, numeric_types) and not isinstance(value, np.ndarray):
        _nd._internal._slice_assign_scalar(data=arr, scalar=float(value), begin=begin,
                                           end=end, step=step, out=arr)
        return
    value_nd = _value_as_nd(value, idx.out_shape, idx.sliced_shape, arr)
    _nd._internal._slice_assign(lhs=arr, rhs=value_nd, begin=begin, end=end, step=step,
                                out=arr)


def _set_whole(arr, value, shape):
    from . import ndarray as _nd
    if isinstance(value, numeric_types) and not isinstance(value, np.ndarray):
        _nd._internal._full(shape=tuple(shape), ctx=arr.context, dtype=arr.dtype,
                            value=float(value), out=arr)
    elif isinstance(value, _nd.NDArray):
        if value.handle.value == arr.handle.value:
            return
        if tuple(value.shape) != tuple(shape):
            value = _value_as_nd(value, shape, shape, arr)
        value.copyto(arr)
    else:
        arr._sync_copyfrom(value)


def _set_advanced(arr, key, value, shape):
    from . import ndarray as _nd
    np_key = _to_numpy_key(key)
    positions = flat_positions(np_key if len(np_key) != 1 else np_key[0], shape)
    if positions.size == 0:
        return
    target_shape = positions.shape
    n = positions.size
    if not hasattr(_nd._internal, "_scatter_set_nd"):
        _set_advanced_on_host(arr, positions, value, target_shape)
        return
    if isinstance(value, numeric_types) and not isinstance(value, np.ndarray):
        value_nd = _nd.full((n,), value, ctx=arr.context, dtype=arr.dtype)
    else:
        value_nd = _value_as_nd(value, target_shape, (n,), arr)
    flat = arr._reshape_view((shape_size(shape),))
    indices = _index_array(positions.reshape(1, n), arr.context)
    _nd._internal._scatter_set_nd(lhs=flat, rhs=value_nd, indices=indices,
                                  shape=(shape_size(shape),), out=flat)


def _set_advanced_on_host(arr, positions, value, target_shape):
    """Fallback for a library without `_scatter_set_nd`: assign through a host copy."""
    from . import ndarray as _nd
    if isinstance(value, _nd.NDArray):
        value = value.asnumpy()
    dtype = arr.dtype
    npval = np.asarray(value, dtype=dtype)
    npval = np.broadcast_to(npval.reshape(broadcast_shape_for_assign(npval.shape, target_shape)),
                            target_shape)
    host = arr.asnumpy()
    host.reshape(-1)[positions.reshape(-1)] = npval.reshape(-1)
    arr._sync_copyfrom(host)


# ---------------------------------------------------------------------------------------------
# MXNet 1.9.1's public indexing helpers (mx.nd.ndarray / mx.np.multiarray expose them)

_NDARRAY_UNSUPPORTED_INDEXING = -1
_NDARRAY_BASIC_INDEXING = 0
_NDARRAY_ADVANCED_INDEXING = 1
_NDARRAY_EMPTY_TUPLE_INDEXING = 2


def get_indexing_dispatch_code(key):
    """Which indexing an expanded key tuple needs: 0 basic (integers, slices, None), 1
    advanced (an array, list or range among them), 2 an empty tuple in the key. Other
    entries raise ValueError."""
    from .ndarray import NDArray
    assert isinstance(key, tuple), 'expected the key as a tuple, got %s' % type(key)
    for idx in key:
        if isinstance(idx, (NDArray, np.ndarray, list, tuple, range)):
            if isinstance(idx, tuple) and not idx:
                return _NDARRAY_EMPTY_TUPLE_INDEXING
            return _NDARRAY_ADVANCED_INDEXING
        if not (isinstance(idx, (slice, int, np.integer)) or idx is None):
            raise ValueError('NDArray does not support slicing with key %s of type %s.'
                             % (idx, type(idx)))
    return _NDARRAY_BASIC_INDEXING


def check_boolean_array_dimension(array_shape, axis, bool_shape):
    """Raise IndexError unless a boolean index of shape `bool_shape` matches the indexed
    array's dimensions starting at `axis`."""
    for i, size in enumerate(bool_shape):
        if array_shape[axis + i] != size:
            raise IndexError('boolean index did not match indexed array along axis %d; size is '
                             '%d but corresponding boolean size is %d'
                             % (axis + i, array_shape[axis + i], size))


def indexing_key_expand_implicit_axes(key, shape):
    """`key` as a tuple with one entry per axis of an array of `shape`: the axes an Ellipsis or
    a short key leaves implicit become slice(None), and a boolean array becomes the integer
    arrays of its nonzero positions (one per dimension it covers)."""
    from .ndarray import NDArray
    if not isinstance(key, tuple):
        key = (key,)
    ellipsis_seen = False
    consumed = 0
    for idx in key:
        if idx is Ellipsis:
            if ellipsis_seen:
                raise IndexError('an index can only have a single ellipsis (\'...\')')
            ellipsis_seen = True
        elif idx is not None:
            host = idx.asnumpy() if isinstance(idx, NDArray) else idx
            if isinstance(host, np.ndarray) and host.dtype == np.bool_:
                consumed += host.ndim
            else:
                consumed += 1
    if consumed > len(shape):
        raise IndexError('too many indices (%d) for array with %d dimensions'
                         % (consumed, len(shape)))
    expanded = []
    axis = 0
    for idx in key:
        if idx is Ellipsis:
            fill = len(shape) - consumed
            expanded.extend([slice(None)] * fill)
            axis += fill
            continue
        if idx is None:
            expanded.append(None)
            continue
        host = idx.asnumpy() if isinstance(idx, NDArray) else idx
        if isinstance(host, np.ndarray) and host.dtype == np.bool_:
            check_boolean_array_dimension(shape, axis, host.shape)
            expanded.extend(np.nonzero(host))
            axis += host.ndim
        else:
            expanded.append(idx)
            axis += 1
    expanded.extend([slice(None)] * (len(shape) - axis))
    return tuple(expanded)


def get_oshape_of_gather_nd_op(dshape, ishape):
    """The output shape of gather_nd for data of shape `dshape` and indices of shape `ishape`:
    ishape[1:] followed by the data dimensions the indices do not address."""
    assert dshape and ishape, 'gather_nd needs non-scalar data and indices'
    oshape = list(ishape[1:])
    if ishape[0] < len(dshape):
        oshape.extend(dshape[ishape[0]:])
    return tuple(oshape)
