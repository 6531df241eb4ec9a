"""mx.sym.np functions that need the input shapes or have no registered operator, built as
host operators (see _host): stacking and splitting by dimensionality, padding, inserting,
deleting and resizing, NaN replacement, polynomial evaluation, order statistics and integer
bit operations. Stacking, padding and editing pass gradients through; the integer and
order-statistic functions have zero gradients, as in MXNet 1.9.1."""
# pylint: disable=invalid-name,redefined-builtin
import numbers

import numpy as _onp

from ._host import host_op, as_list

__all__ = ['atleast_1d', 'atleast_2d', 'atleast_3d', 'hstack', 'vstack', 'row_stack', 'dstack',
           'column_stack', 'hsplit', 'pad', 'insert', 'delete', 'resize', 'nan_to_num',
           'polyval', 'percentile', 'quantile', 'bitwise_and', 'bitwise_or', 'bitwise_xor',
           'bitwise_not', 'invert', 'lcm']


def _zero_strided(shape, dtype=_onp.int8):
    """A read-only array of `shape` that takes no memory (for shape arithmetic)."""
    return _onp.lib.stride_tricks.as_strided(_onp.zeros(1, dtype=dtype), shape=tuple(shape),
                                             strides=(0,) * len(shape), writeable=False)


def _adjoint(grad, index_map, in_shape):
    """Gradient of a gather out[k] = in[index_map[k]] (index -1: no input element)."""
    flat, g = index_map.ravel(), grad.ravel()
    keep = flat >= 0
    size = int(_onp.prod(in_shape))
    return _onp.bincount(flat[keep], weights=g[keep], minlength=size).reshape(in_shape)


# ---- dimensionality ---------------------------------------------------------------------------

def _atleast_shape(shape, n):
    shape = tuple(shape)
    if len(shape) >= n:
        return shape
    if n == 3 and len(shape) == 2:
        return shape + (1,)
    if n == 3 and len(shape) == 1:
        return (1,) + shape + (1,)
    return (1,) * (n - len(shape)) + shape


def _make_atleast(n):
    op = host_op('atleast_%dd' % n,
                 forward=lambda xs: [xs[0].reshape(_atleast_shape(xs[0].shape, n))],
                 infer_shape=lambda shapes: [_atleast_shape(shapes[0], n)],
                 backward=lambda gs, xs: [gs[0].reshape(xs[0].shape)])

    def function(*arys):
        res = [op(a) for a in arys]
        return res[0] if len(res) == 1 else res
    function.__name__ = 'atleast_%dd' % n
    function.__doc__ = 'The inputs viewed with at least %d dimensions (NumPy\'s rules).' % n
    return function


atleast_1d = _make_atleast(1)
atleast_2d = _make_atleast(2)
atleast_3d = _make_atleast(3)


def _stack_layout(kind, shapes):
    """(per-input shapes as stacked, concatenation axis) for hstack/vstack/dstack/column."""
    if kind == 'h':
        shapes = [_atleast_shape(s, 1) for s in shapes]
        return shapes, 0 if len(shapes[0]) == 1 else 1
    if kind == 'v':
        return [_atleast_shape(s, 2) for s in shapes], 0
    if kind == 'd':
        return [_atleast_shape(s, 3) for s in shapes], 2
    return [tuple(s) + (1,) if len(s) == 1 else _atleast_shape(s, 2) for s in shapes], 1


def _make_stack(kind, name):
    def forward(xs):
        shapes, axis = _stack_layout(kind, [x.shape for x in xs])
        return [_onp.concatenate([x.reshape(s) for x, s in zip(xs, shapes)], axis=axis)]

    def infer_shape(in_shapes):
        shapes, axis = _stack_layout(kind, in_shapes)
        out = list(shapes[0])
        out[axis] = sum(s[axis] for s in shapes)
        return [tuple(out)]

    def backward(gs, xs):
        shapes, axis = _stack_layout(kind, [x.shape for x in xs])
        bounds = _onp.cumsum([s[axis] for s in shapes])[:-1]
        return [p.reshape(x.shape) for p, x in zip(_onp.split(gs[0], bounds, axis=axis), xs)]

    op = host_op(name, forward, infer_shape, backward=backward)

    def function(tup):
        return op(*tup)
    function.__name__ = name
    function.__doc__ = ('The arrays stacked as numpy.%s stacks them (by their numbers of '
                        'dimensions).' % name)
    return function


hstack = _make_stack('h', 'hstack')
vstack = _make_stack('v', 'vstack')
row_stack = vstack
dstack = _make_stack('d', 'dstack')
column_stack = _make_stack('c', 'column_stack')


def _hsplit_bounds(shape, sections):
    axis = 0 if len(shape) == 1 else 1
    n = shape[axis]
    if isinstance(sections, list):
        bounds = [min(int(b), n) for b in sections]
    else:
        if n % sections:
            raise ValueError('hsplit: array split does not result in an equal division')
        bounds = [n // sections * i for i in range(1, sections)]
    return axis, bounds


def _hsplit_shapes(shapes, sections):
    shape = shapes[0]
    axis, bounds = _hsplit_bounds(shape, sections)
    edges = [0] + bounds + [shape[axis]]
    out = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        s = list(shape)
        s[axis] = max(hi - lo, 0)
        out.append(tuple(s))
    return out


_hsplit = host_op(
    'hsplit',
    forward=lambda xs, sections: _onp.split(xs[0], _hsplit_bounds(xs[0].shape, sections)[1],
                                            axis=_hsplit_bounds(xs[0].shape, sections)[0]),
    infer_shape=_hsplit_shapes,
    infer_type=lambda ts, sections: [ts[0]] * (len(sections) + 1 if isinstance(sections, list)
                                               else sections),
    backward=lambda gs, xs, sections: [_onp.concatenate(
        gs, axis=_hsplit_bounds(xs[0].shape, sections)[0])],
    num_outputs=lambda n, sections: len(sections) + 1 if isinstance(sections, list)
    else sections)


def hsplit(ary, indices_or_sections):
    """Sub-arrays along the second axis (the first for 1-D arrays): equal sections or pieces
    between the given indices."""
    if isinstance(indices_or_sections, numbers.Integral):
        sections = int(indices_or_sections)
        count = sections
    else:
        sections = [int(i) for i in indices_or_sections]
        count = len(sections) + 1
    return as_list(_hsplit(ary, sections=sections), count)


# ---- editing --------------------------------------------------------------------------------

def _pad_width(width, ndim):
    return _onp.broadcast_to(_onp.asarray(width, dtype=_onp.int64).reshape(-1, 2)
                             if _onp.ndim(width) else _onp.full((1, 2), width),
                             (ndim, 2)).tolist()


_COPY_MODES = ('constant', 'edge', 'reflect', 'symmetric', 'wrap')


def _pad_forward(xs, pad_width, mode, kwargs):
    return [_onp.pad(xs[0], _pad_width(pad_width, xs[0].ndim), mode=mode, **kwargs)]


def _pad_backward(gs, xs, pad_width, mode, kwargs):  # pylint: disable=unused-argument
    if mode not in _COPY_MODES:
        raise NotImplementedError('mx.sym.np.pad: no gradient for mode %r' % mode)
    index = _onp.arange(xs[0].size).reshape(xs[0].shape)
    extra = {'constant_values': -1} if mode == 'constant' else {}
    index = _onp.pad(index, _pad_width(pad_width, xs[0].ndim), mode=mode, **extra)
    return [_adjoint(gs[0], index, xs[0].shape)]


_pad = host_op('pad', _pad_forward,
               infer_shape=lambda shapes, pad_width, mode, kwargs: [tuple(
                   d + a + b for d, (a, b) in zip(shapes[0], _pad_width(pad_width,
                                                                        len(shapes[0]))))],
               backward=_pad_backward)


def pad(x, pad_width, mode='constant', **kwargs):
    """x padded by pad_width ((before, after) per axis, or one pair or number for all) in
    one of NumPy's modes; differentiable for the modes that copy elements."""
    return _pad(x, pad_width=_onp.asarray(pad_width).tolist(), mode=mode, kwargs=kwargs)


def _insert_forward(xs, obj, axis, values):
    vals = xs[1] if values is None else _onp.asarray(values, dtype=xs[0].dtype)
    return [_onp.insert(xs[0], obj, vals, axis=axis)]


def _insert_index(shape, obj, axis):
    index = _onp.arange(int(_onp.prod(shape))).reshape(shape)
    return _onp.insert(index, obj, -1, axis=axis)


def _insert_backward(gs, xs, obj, axis, values):  # pylint: disable=unused-argument
    grads = [_adjoint(gs[0], _insert_index(xs[0].shape, obj, axis), xs[0].shape)]
    if len(xs) > 1:   # the inserted values' own gradient is not propagated
        grads.append(_onp.zeros(xs[1].shape))
    return grads


_insert = host_op('insert', _insert_forward,
                  infer_shape=lambda shapes, obj, axis, values: [
                      _onp.insert(_zero_strided(shapes[0]), obj,
                                  0 if values is None else values, axis=axis).shape],
                  backward=_insert_backward)


def insert(arr, obj, values, axis=None):
    """`values` (numbers or a Symbol) inserted before the index or indices `obj` along
    `axis` (of the flattened array when None); the gradient reaches `arr`."""
    from ..symbol import Symbol
    obj = obj if isinstance(obj, numbers.Integral) else [int(i) for i in obj]
    if isinstance(values, Symbol):
        return _insert(arr, values, obj=obj, axis=axis, values=None)
    return _insert(arr, obj=obj, axis=axis, values=_onp.asarray(values).tolist())


def _delete_index(shape, obj, axis):
    index = _onp.arange(int(_onp.prod(shape))).reshape(shape)
    return _onp.delete(index, _delete_obj(obj), axis=axis)


def _delete_obj(obj):
    return slice(*obj['slice']) if isinstance(obj, dict) else obj


_delete = host_op('delete',
                  forward=lambda xs, obj, axis: [_onp.delete(xs[0], _delete_obj(obj),
                                                             axis=axis)],
                  infer_shape=lambda shapes, obj, axis: [_delete_index(shapes[0], obj,
                                                                       axis).shape],
                  backward=lambda gs, xs, obj, axis: [_adjoint(
                      gs[0], _delete_index(xs[0].shape, obj, axis), xs[0].shape)])


def delete(arr, obj, axis=None):
    """arr without the sub-arrays at `obj` (an index, a slice or indices) along `axis`."""
    if isinstance(obj, slice):
        obj = {'slice': [obj.start, obj.stop, obj.step]}
    elif not isinstance(obj, numbers.Integral):
        obj = [int(i) for i in obj]
    return _delete(arr, obj=obj, axis=axis)


_resize = host_op('resize',
                  forward=lambda xs, new_shape: [_onp.resize(xs[0], new_shape)],
                  infer_shape=lambda shapes, new_shape: [tuple(new_shape)],
                  backward=lambda gs, xs, new_shape: [_adjoint(
                      gs[0], _onp.resize(_onp.arange(xs[0].size), new_shape), xs[0].shape)])


def resize(a, new_shape):
    """An array of `new_shape` filled with a's elements repeated in order."""
    new_shape = [int(new_shape)] if isinstance(new_shape, numbers.Integral) else \
        [int(d) for d in new_shape]
    return _resize(a, new_shape=new_shape)


# ---- element-wise ---------------------------------------------------------------------------

def _nan_to_num_forward(xs, nan, posinf, neginf):
    return [_onp.nan_to_num(xs[0], nan=nan, posinf=posinf, neginf=neginf)]


_nan_to_num = host_op('nan_to_num', _nan_to_num_forward,
                      infer_shape=lambda shapes, **_: [shapes[0]],
                      backward=lambda gs, xs, **_: [gs[0] * _onp.isfinite(xs[0])])


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):  # pylint: disable=unused-argument
    """x with NaN replaced by `nan` and infinities by `posinf` / `neginf` (default: the
    largest finite values of x's dtype); the gradient passes at the finite elements."""
    return _nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


def _polyval_backward(gs, xs):
    p, x = xs
    n = p.shape[0]
    grad_p = _onp.stack([(gs[0] * x ** (n - 1 - i)).sum() for i in range(n)])
    grad_x = gs[0] * _onp.polyval(_onp.polyder(p), x) if n > 1 else _onp.zeros_like(x)
    return [grad_p, grad_x]


_polyval = host_op('polyval', forward=lambda xs: [_onp.polyval(xs[0], xs[1])],
                   infer_shape=lambda shapes: [shapes[1]],
                   infer_type=lambda ts: [ts[1]], backward=_polyval_backward)


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x; differentiable in both."""
    return _polyval(p, x)


def _quantile_shape(shapes, q, axis, keepdims, **_):
    shape = list(shapes[0])
    axes = range(len(shape)) if axis is None else \
        [a % len(shape) for a in (axis if isinstance(axis, list) else [axis])]
    reduced = [1 if i in axes else d for i, d in enumerate(shape)] if keepdims else \
        [d for i, d in enumerate(shape) if i not in axes]
    return [tuple(_onp.shape(q)) + tuple(reduced)]


_quantile = host_op('quantile',
                    forward=lambda xs, q, axis, keepdims, method: [_onp.quantile(
                        xs[0], q, axis=tuple(axis) if isinstance(axis, list) else axis,
                        keepdims=keepdims, method=method)],
                    infer_shape=_quantile_shape)


def quantile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear',
             keepdims=False):  # pylint: disable=unused-argument
    """The q-th quantiles (q in [0, 1], numbers) of a over `axis`."""
    return _quantile(a, q=_onp.asarray(q, dtype=float).tolist(),
                     axis=list(axis) if isinstance(axis, tuple) else axis, keepdims=keepdims,
                     method=interpolation)


def percentile(a, q, axis=None, out=None, overwrite_input=None, interpolation='linear',
               keepdims=False):
    """The q-th percentiles (q in [0, 100], numbers) of a over `axis`."""
    return quantile(a, _onp.asarray(q, dtype=float) / 100.0, axis=axis, out=out,
                    overwrite_input=overwrite_input, interpolation=interpolation,
                    keepdims=keepdims)


# ---- integers -------------------------------------------------------------------------------

def _make_integer_binary(name):
    func = getattr(_onp, name)

    def forward(xs, scalar, reflected):
        if scalar is None:
            return [func(xs[0], xs[1])]
        s = _onp.asarray(scalar, dtype=xs[0].dtype)
        return [func(s, xs[0]) if reflected else func(xs[0], s)]

    op = host_op(name, forward,
                 infer_shape=lambda shapes, **_: [_onp.broadcast_shapes(*shapes)],
                 infer_type=lambda ts, **_: [_onp.result_type(*ts).type])

    def function(x1, x2, out=None, **kwargs):  # pylint: disable=unused-argument
        if isinstance(x2, numbers.Integral):
            return op(x1, scalar=int(x2), reflected=False)
        if isinstance(x1, numbers.Integral):
            return op(x2, scalar=int(x1), reflected=True)
        return op(x1, x2, scalar=None, reflected=False)
    function.__name__ = name
    function.__doc__ = 'Element-wise numpy.%s of integer arrays (or an array and an int).' % name
    return function


bitwise_and = _make_integer_binary('bitwise_and')
bitwise_or = _make_integer_binary('bitwise_or')
bitwise_xor = _make_integer_binary('bitwise_xor')
lcm = _make_integer_binary('lcm')

_invert = host_op('invert', forward=lambda xs: [_onp.invert(xs[0])],
                  infer_shape=lambda shapes: [shapes[0]])


def invert(x, out=None, **kwargs):  # pylint: disable=unused-argument
    """Bit-wise NOT of an integer or boolean array."""
    return _invert(x)


bitwise_not = invert
