"""Testing helpers with MXNet 1.x's signatures and tolerance defaults (``mx.test_utils``).

    from mxnet.test_utils import assert_almost_equal, check_numeric_gradient, rand_shape_nd
    data = mx.sym.Variable('data')
    check_numeric_gradient(mx.sym.sin(data), [np.random.randn(3, 4)])
"""
import functools
import os
import traceback
from contextlib import contextmanager

import numpy as np

from .context import Context, cpu, current_context
from .ndarray import NDArray, array as nd_array
from . import ndarray as nd

__all__ = ["default_context", "set_default_context", "default_dtype", "get_rtol", "get_atol",
           "get_tols", "get_etol", "same", "almost_equal", "assert_almost_equal",
           "assert_almost_equal_ignore_nan", "assert_almost_equal_with_err", "assert_exception",
           "rand_shape_2d", "rand_shape_3d", "rand_shape_nd", "rand_ndarray", "random_arrays",
           "rand_sparse_ndarray",
           "np_reduce", "numeric_grad", "check_numeric_gradient", "check_symbolic_forward",
           "check_symbolic_backward", "check_consistency", "simple_forward", "list_gpus",
           "environment", "retry", "find_max_violation"]

_DEFAULT_CTX = [None]


def default_context():
    """The context tests run on (cpu(0) unless set_default_context was called)."""
    return _DEFAULT_CTX[0] if _DEFAULT_CTX[0] is not None else current_context()


def set_default_context(ctx):
    """Set the context default_context() returns."""
    if not isinstance(ctx, Context):
        raise TypeError("set_default_context expects a Context, got %s" % type(ctx).__name__)
    _DEFAULT_CTX[0] = ctx


def default_dtype():
    """The dtype of random test arrays."""
    return np.float32


def list_gpus():
    """GPU ids of this machine (none in a CPU-only build)."""
    from .context import num_gpus
    return list(range(num_gpus()))


# ---- tolerances --------------------------------------------------------------------------------

_RTOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5}
_ATOL = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-20}


def _dtype_of(x):
    if x is None:
        return np.dtype(np.float32)
    if isinstance(x, NDArray):
        return np.dtype(x.dtype)
    if isinstance(x, np.ndarray):
        return x.dtype
    try:
        return np.dtype(x)
    except TypeError:
        return np.asarray(x).dtype


def get_rtol(rtol=None, dtype=np.dtype(np.float64)):
    """rtol if given, else the default for dtype (0 for integer/bool types)."""
    return _RTOL.get(_dtype_of(dtype), 0) if rtol is None else rtol


def get_atol(atol=None, dtype=np.dtype(np.float64)):
    """atol if given, else the default for dtype (0 for integer/bool types)."""
    return _ATOL.get(_dtype_of(dtype), 0) if atol is None else atol


def get_etol(etol=None):
    """Fraction of elements allowed to exceed the tolerance (0 by default)."""
    return 0 if etol is None else etol


def get_tols(x, y, rtol, atol):
    """The looser of the defaults of x's and y's dtypes, unless given."""
    if rtol is None:
        rtol = max(get_rtol(None, _dtype_of(x)), get_rtol(None, _dtype_of(y)))
    if atol is None:
        atol = max(get_atol(None, _dtype_of(x)), get_atol(None, _dtype_of(y)))
    return rtol, atol


# ---- comparisons -------------------------------------------------------------------------------

def _as_numpy(x):
    if isinstance(x, NDArray):
        return x.asnumpy()
    return np.asarray(x)


def same(a, b):
    """True if a and b are equal element by element (same shape)."""
    return np.array_equal(_as_numpy(a), _as_numpy(b))


def _violations(a, b, rtol, atol, equal_nan):
    a = a.astype(np.float64) if a.dtype.kind in "fiub" else a
    b = b.astype(np.float64) if b.dtype.kind in "fiub" else b
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(a - b)
        tol = atol + rtol * np.abs(b)
        bad = ~(diff <= tol)
    if equal_nan:
        bad &= ~(np.isnan(a) & np.isnan(b))
    else:
        # inf == inf of the same sign counts as equal
        same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
        bad &= ~same_inf
    with np.errstate(invalid="ignore", divide="ignore"):
        violation = np.where(bad, diff / np.where(tol > 0, tol, 1e-300), 0)
    return bad, violation


def find_max_violation(a, b, rtol=None, atol=None):
    """(index, violation ratio) of the element with the largest |a-b| / (atol + rtol|b|)."""
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.broadcast_arrays(_as_numpy(a), _as_numpy(b))
    _, violation = _violations(a, b, rtol, atol, False)
    idx = np.unravel_index(np.nanargmax(violation), violation.shape) if violation.size else ()
    return idx, (np.nanmax(violation) if violation.size else 0)


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """True if |a - b| <= atol + rtol * |b| everywhere (NaNs equal only with equal_nan)."""
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = _as_numpy(a), _as_numpy(b)
    if a.shape != b.shape and not use_broadcast:
        return False
    try:
        a, b = np.broadcast_arrays(a, b)
    except ValueError:
        return False
    bad, _ = _violations(a, b, rtol, atol, equal_nan)
    return not bad.any()


def _allclose_op(a, b, rtol, atol, equal_nan):
    """The _contrib_allclose operator on two NDArrays of one context and dtype."""
    from .ndarray import contrib
    return bool(contrib.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).asnumpy()[0])


def assert_almost_equal(a, b, rtol=None, atol=None, names=('a', 'b'), equal_nan=False,
                        use_broadcast=True, mismatches=(10, 10)):
    """Raise AssertionError unless |a - b| <= atol + rtol * |b| everywhere.

    Defaults come from the dtypes (the looser of a's and b's): rtol float16 1e-2, float32 1e-4,
    float64 1e-5; atol float16 1e-1, float32 1e-3, float64 1e-20; integers exact. The message
    lists up to mismatches[0] of the worst mismatching elements.
    """
    rtol, atol = get_tols(a, b, rtol, atol)
    if (isinstance(a, NDArray) and isinstance(b, NDArray) and a.context == b.context and
            a.dtype == b.dtype and a.shape == b.shape):
        if _allclose_op(a, b, rtol, atol, equal_nan):
            return
    a_np, b_np = _as_numpy(a), _as_numpy(b)
    if a_np.shape != b_np.shape and not use_broadcast:
        raise AssertionError("%s and %s have different shapes: %s vs %s"
                             % (names[0], names[1], a_np.shape, b_np.shape))
    try:
        a_b, b_b = np.broadcast_arrays(a_np, b_np)
    except ValueError:
        raise AssertionError("%s and %s have incompatible shapes: %s vs %s"
                             % (names[0], names[1], a_np.shape, b_np.shape)) from None
    bad, violation = _violations(a_b, b_b, rtol, atol, equal_nan)
    if not bad.any():
        return
    order = np.argsort(-violation, axis=None)[:max(1, mismatches[0])]
    lines = []
    for flat in order:
        idx = np.unravel_index(flat, violation.shape)
        if not bad[idx]:
            break
        lines.append("  %s: %s=%r, %s=%r" % (tuple(int(i) for i in idx), names[0],
                                            a_b[idx].item(), names[1], b_b[idx].item()))
    worst = np.unravel_index(order[0], violation.shape)
    msg = ("\nItems are not equal:\nError %f exceeds tolerance rtol=%e, atol=%e "
           "(mismatch %f%%).\nLocation of maximum error: %s, %s=%r, %s=%r\n"
           "Worst mismatches:\n%s\n %s: %s\n %s: %s" % (
               float(np.nanmax(violation)), rtol, atol, 100.0 * bad.mean(),
               tuple(int(i) for i in worst), names[0], a_b[worst].item(), names[1],
               b_b[worst].item(), "\n".join(lines), names[0],
               np.array2string(a_np, threshold=mismatches[1] * 10),
               names[1], np.array2string(b_np, threshold=mismatches[1] * 10)))
    raise AssertionError(msg)


def assert_almost_equal_with_err(a, b, rtol=None, atol=None, etol=None, names=('a', 'b'),
                                 equal_nan=False, mismatches=(10, 10)):
    """Like assert_almost_equal, but a fraction etol of the elements may mismatch."""
    etol = get_etol(etol)
    if etol <= 0:
        return assert_almost_equal(a, b, rtol, atol, names, equal_nan, mismatches=mismatches)
    rtol, atol = get_tols(a, b, rtol, atol)
    a_np, b_np = np.broadcast_arrays(_as_numpy(a), _as_numpy(b))
    bad, _ = _violations(a_np, b_np, rtol, atol, equal_nan)
    if bad.mean() > etol:
        assert_almost_equal(a, b, rtol, atol, names, equal_nan, mismatches=mismatches)
    return None


def assert_almost_equal_ignore_nan(a, b, rtol=None, atol=None, names=('a', 'b')):
    """assert_almost_equal where positions that are NaN in either input are ignored."""
    a = np.copy(_as_numpy(a)).astype(np.float64)
    b = np.copy(_as_numpy(b)).astype(np.float64)
    nan_mask = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan_mask] = 0
    b[nan_mask] = 0
    assert_almost_equal(a, b, rtol, atol, names)


def assert_exception(f, exception_type, *args, **kwargs):
    """Assert that f(*args, **kwargs) raises exception_type."""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError("%s did not raise %s" % (getattr(f, "__name__", f),
                                                  exception_type.__name__))


# ---- random data -------------------------------------------------------------------------------

def _rand_dim(dim, allow_zero_size):
    return np.random.randint(0 if allow_zero_size else 1, dim + 1)


def rand_shape_2d(dim0=10, dim1=10, allow_zero_size=False):
    """A random 2-D shape with dims in [1, dim] ([0, dim] with allow_zero_size)."""
    return _rand_dim(dim0, allow_zero_size), _rand_dim(dim1, allow_zero_size)


def rand_shape_3d(dim0=10, dim1=10, dim2=10, allow_zero_size=False):
    """A random 3-D shape."""
    return (_rand_dim(dim0, allow_zero_size), _rand_dim(dim1, allow_zero_size),
            _rand_dim(dim2, allow_zero_size))


def rand_shape_nd(num_dim, dim=10, allow_zero_size=False):
    """A random shape of num_dim dims, each in [1, dim] ([0, dim] with allow_zero_size)."""
    low = 0 if allow_zero_size else 1
    return tuple(np.random.randint(low, dim + 1, size=num_dim).tolist())


def random_arrays(*shapes):
    """Standard-normal float32 NumPy arrays of the given shapes (a scalar for shape ());
    one array if one shape is given."""
    arrays = [np.array(np.random.randn(), dtype=default_dtype()) if len(s) == 0
              else np.random.randn(*s).astype(default_dtype()) for s in shapes]
    if len(arrays) == 1:
        return arrays[0]
    return arrays


def rand_ndarray(shape, stype='default', density=None, dtype=None, modifier_func=None,
                 shuffle_csr_indices=False, distribution=None, ctx=None):
    """A random NDArray of shape (standard normal values); sparse `stype` ('csr',
    'row_sparse') gives rand_sparse_ndarray(...)[0]."""
    ctx = ctx if ctx is not None else default_context()
    dtype = default_dtype() if dtype is None else dtype
    if stype != 'default':
        return rand_sparse_ndarray(shape, stype, density=density, dtype=dtype,
                                   distribution=distribution, modifier_func=modifier_func,
                                   shuffle_csr_indices=shuffle_csr_indices, ctx=ctx)[0]
    if distribution not in (None, 'normal', 'uniform'):
        raise ValueError("rand_ndarray: unknown distribution %r" % (distribution,))
    if distribution == 'uniform':
        values = np.random.uniform(-1, 1, size=shape)
    else:
        values = random_arrays(shape)
    if density is not None:
        values = values * (np.random.uniform(size=shape) < density)
    if modifier_func is not None:
        values = np.vectorize(modifier_func)(values)
    return nd_array(np.asarray(values), ctx=ctx, dtype=dtype)


def rand_sparse_ndarray(shape, stype, density=None, dtype=None, distribution=None,
                        data_init=None, rsp_indices=None, modifier_func=None,
                        shuffle_csr_indices=False, ctx=None):
    """A random sparse array and its NumPy parts: (csr, (data, indices, indptr)) or
    (row_sparse, (data, indices)). Each row (row_sparse) or element (csr) is stored with
    probability `density` (random when None); values are uniform in [0, 1) or `data_init`.
    """
    from .ndarray import sparse as _sp
    ctx = ctx if ctx is not None else default_context()
    dtype = default_dtype() if dtype is None else dtype
    density = np.random.rand() if density is None else density
    if distribution not in (None, 'uniform'):
        raise ValueError("rand_sparse_ndarray: unsupported distribution %r" % (distribution,))

    def values(n_shape):
        val = np.random.rand(*n_shape) if data_init is None else np.full(n_shape, data_init)
        if modifier_func is not None and val.size:
            val = np.vectorize(modifier_func)(val)
        return np.asarray(val).astype(dtype)

    if stype == 'row_sparse':
        if rsp_indices is not None:
            indices = np.unique(np.asarray(rsp_indices, dtype=np.int64))
        else:
            indices = np.argwhere(np.random.rand(shape[0]) < density).flatten().astype(np.int64)
        data = values((indices.shape[0],) + tuple(shape[1:]))
        arr = _sp.row_sparse_array((data, indices), shape=shape, ctx=ctx, dtype=dtype)
        return arr, (data, indices)
    if stype == 'csr':
        if len(shape) != 2:
            raise ValueError("rand_sparse_ndarray: csr needs a 2-D shape, got %s" % (shape,))
        mask = np.random.rand(*shape) < density
        dense = np.zeros(shape, dtype=dtype)
        dense[mask] = values((int(mask.sum()),))
        indptr = np.concatenate([[0], np.cumsum(mask.sum(axis=1))]).astype(np.int64)
        indices = np.nonzero(mask)[1].astype(np.int64)
        data = dense[mask]
        if shuffle_csr_indices:  # unsorted column indices within each row
            for r in range(shape[0]):
                perm = np.random.permutation(indptr[r + 1] - indptr[r]) + indptr[r]
                indices[indptr[r]:indptr[r + 1]] = indices[perm]
                data[indptr[r]:indptr[r + 1]] = data[perm]
        arr = _sp.csr_matrix((data, indices, indptr), shape=shape, ctx=ctx, dtype=dtype)
        return arr, (data, indices, indptr)
    raise ValueError("rand_sparse_ndarray: unknown storage type %r" % (stype,))


def np_reduce(dat, axis, keepdims, numpy_reduce_func):
    """Reduce dat over axis (int, tuple, or None = all) with a NumPy reduction, one axis at a
    time, optionally keeping the reduced dims."""
    if isinstance(axis, int):
        axis = [axis]
    else:
        axis = list(axis) if axis is not None else list(range(len(dat.shape)))
    axis = [a % dat.ndim if dat.ndim else a for a in axis]
    ret = dat
    for i in reversed(sorted(axis)):
        ret = numpy_reduce_func(ret, axis=i)
    if keepdims:
        keepdims_shape = list(dat.shape)
        for i in axis:
            keepdims_shape[i] = 1
        ret = ret.reshape(tuple(keepdims_shape))
    return ret


# ---- symbolic checks ---------------------------------------------------------------------------

def _to_nd(value, ctx, dtype):
    if isinstance(value, NDArray):
        return value
    value = np.asarray(value)
    target = value.dtype if dtype == "asnumpy" else dtype
    return nd_array(value, ctx=ctx, dtype=target)


def _parse_location(sym, location, ctx, dtype=default_dtype()):
    """{argument name: NDArray} from a list (in list_arguments order) or dict."""
    names = sym.list_arguments()
    if isinstance(location, dict):
        if set(location.keys()) != set(names):
            raise ValueError("Symbol arguments and keys of the given location do not match. "
                             "symbol args:%s, location.keys():%s"
                             % (str(set(names)), str(set(location.keys()))))
    else:
        location = list(location)
        if len(location) != len(names):
            raise ValueError("Symbol has %d arguments %s but %d locations were given"
                             % (len(names), names, len(location)))
        location = dict(zip(names, location))
    return {k: _to_nd(v, ctx, dtype) for k, v in location.items()}


def _parse_aux_states(sym, aux_states, ctx, dtype=default_dtype()):
    """{aux name: NDArray} from a list or dict (None stays None)."""
    if aux_states is None:
        return None
    names = sym.list_auxiliary_states()
    if isinstance(aux_states, dict):
        if set(aux_states.keys()) != set(names):
            raise ValueError("Symbol aux_states names and given aux_states do not match. "
                             "symbol aux_names:%s, aux_states.keys:%s"
                             % (str(set(names)), str(set(aux_states.keys()))))
    else:
        aux_states = dict(zip(names, aux_states))
    return {k: _to_nd(v, ctx, dtype) for k, v in aux_states.items()}


def numeric_grad(executor, location, aux_states=None, eps=1e-4, use_forward_train=True,
                 dtype=default_dtype()):
    """Central finite differences of sum(executor.outputs[0]) w.r.t. each float argument in
    location ({name: numpy array}): (f(x + eps/2) - f(x - eps/2)) / eps per element."""
    approx_grads = {k: np.zeros(v.shape, dtype=dtype) for k, v in location.items()}
    location = {k: np.array(v, copy=True) for k, v in location.items()}
    for k, v in location.items():
        executor.arg_dict[k][:] = v

    def reset_aux():
        if aux_states is not None:
            for key, val in aux_states.items():
                executor.aux_dict[key][:] = val

    for k, v in location.items():
        if v.dtype.kind != 'f':
            continue
        flat = v.reshape(-1)
        old_value = flat.copy()
        for i in range(flat.size):
            flat[i] = old_value[i] + eps / 2.0
            executor.arg_dict[k][:] = v
            reset_aux()
            executor.forward(is_train=use_forward_train)
            f_peps = executor.outputs[0].asnumpy().astype(np.float64)
            flat[i] = old_value[i] - eps / 2.0
            executor.arg_dict[k][:] = v
            reset_aux()
            executor.forward(is_train=use_forward_train)
            f_neps = executor.outputs[0].asnumpy().astype(np.float64)
            approx_grads[k].reshape(-1)[i] = (f_peps - f_neps).sum() / eps
            flat[i] = old_value[i]
        executor.arg_dict[k][:] = v
    reset_aux()
    return approx_grads


_NUMERIC_EPS = {np.dtype(np.float16): 2.0 ** -6, np.dtype(np.float32): 2.0 ** -9,
                np.dtype(np.float64): 2.0 ** -14}


def check_numeric_gradient(sym, location, aux_states=None, numeric_eps=None, rtol=None,
                           atol=None, grad_nodes=None, use_forward_train=True, ctx=None,
                           grad_stype_dict=None, dtype=default_dtype()):
    """Compare the executor's gradients of sym with central finite differences.

    The (first) output is multiplied by a random projection `__random_proj` and wrapped in
    make_loss, so backward computes the gradient of sum(out * proj) for every node in
    grad_nodes (all arguments by default; a dict gives grad_req per node).
    """
    from . import symbol as sym_mod
    dtype = np.dtype(dtype)
    assert dtype in (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))
    ctx = ctx if ctx is not None else default_context()
    if numeric_eps is None:
        numeric_eps = _NUMERIC_EPS[dtype]
    rtol = get_rtol(rtol, dtype)
    atol = get_atol(atol, dtype)

    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    location_npy = {k: v.asnumpy() for k, v in location.items()}
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    aux_states_npy = None if aux_states is None else {k: v.asnumpy()
                                                       for k, v in aux_states.items()}
    if grad_nodes is None:
        grad_nodes = sym.list_arguments()
        grad_req = {k: 'write' for k in grad_nodes}
    elif isinstance(grad_nodes, (list, tuple)):
        grad_nodes = list(grad_nodes)
        grad_req = {k: 'write' for k in grad_nodes}
    elif isinstance(grad_nodes, dict):
        grad_req = dict(grad_nodes)
        grad_nodes = list(grad_nodes.keys())
    else:
        raise ValueError("grad_nodes must be None, a list or a dict, got %s"
                         % type(grad_nodes).__name__)

    input_shape = {k: v.shape for k, v in location.items()}
    _, out_shape, _ = sym.infer_shape(**input_shape)
    proj = sym_mod.Variable("__random_proj")
    out = sym * proj
    # make_loss makes backward start from ones; without that op, pass ones as head gradient.
    has_make_loss = hasattr(sym_mod, "make_loss")
    if has_make_loss:
        out = sym_mod.make_loss(out)
    location = dict(location)
    location["__random_proj"] = nd_array(np.random.rand(*out_shape[0]) + 0.1, ctx=ctx,
                                         dtype=dtype)
    args_grad_npy = {k: np.random.normal(0, 0.01, size=location[k].shape) for k in grad_nodes}
    args_grad_npy["__random_proj"] = np.random.normal(0, 0.01, size=out_shape[0])
    args_grad = {k: nd_array(v, ctx=ctx, dtype=dtype) for k, v in args_grad_npy.items()}
    executor = out.bind(ctx, grad_req=grad_req, args=location, args_grad=args_grad,
                        aux_states=aux_states)
    if len(executor.arg_arrays) != len(location):
        raise ValueError("Executor arg_arrays and location len do not match. Got %d inputs "
                         "and %d locations" % (len(executor.arg_arrays), len(location)))
    executor.forward(is_train=True)
    if has_make_loss:
        executor.backward()
    else:
        executor.backward([nd.ones(o.shape, ctx=ctx, dtype=o.dtype) for o in executor.outputs])
    symbolic_grads = {k: executor.grad_dict[k].asnumpy() for k in grad_nodes}

    numeric_gradients = numeric_grad(executor, location_npy, aux_states_npy, eps=numeric_eps,
                                     use_forward_train=use_forward_train, dtype=dtype)
    for name in grad_nodes:
        fd_grad = numeric_gradients[name]
        orig_grad = args_grad_npy[name]
        sym_grad = symbolic_grads[name]
        names = ("NUMERICAL_%s" % name, "BACKWARD_%s" % name)
        if grad_req[name] == 'write':
            assert_almost_equal(fd_grad, sym_grad, rtol, atol, names)
        elif grad_req[name] == 'add':
            assert_almost_equal(fd_grad, sym_grad - orig_grad, rtol, atol, names)
        elif grad_req[name] == 'null':
            assert_almost_equal(orig_grad.astype(dtype), sym_grad, rtol, atol, names)
        else:
            raise ValueError("Invalid grad_req %s for argument %s" % (grad_req[name], name))


def check_symbolic_forward(sym, location, expected, rtol=None, atol=None, aux_states=None,
                           ctx=None, equal_nan=False, dtype=default_dtype()):
    """Bind sym with location, run forward(is_train=False), compare every output with expected
    (a list in list_outputs order or a dict); returns the outputs."""
    ctx = ctx if ctx is not None else default_context()
    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    if isinstance(expected, dict):
        expected = [expected[k] for k in sym.list_outputs()]
    args_grad_data = {k: nd.empty(v.shape, ctx=ctx, dtype=v.dtype) for k, v in location.items()}
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad_data, aux_states=aux_states)
    executor.forward(is_train=False)
    outputs = executor.outputs
    for output_name, expect, output in zip(sym.list_outputs(), expected, outputs):
        assert_almost_equal(expect, output, rtol, atol,
                            ("EXPECTED_%s" % output_name, "FORWARD_%s" % output_name),
                            equal_nan=equal_nan)
    return executor.outputs


def check_symbolic_backward(sym, location, out_grads, expected, rtol=None, atol=None,
                            aux_states=None, grad_req='write', ctx=None, grad_stypes=None,
                            equal_nan=False, dtype=default_dtype()):
    """Bind sym, run forward(is_train=True) and backward(out_grads), compare the argument
    gradients with expected (list in list_arguments order or dict). Gradient buffers start
    with random values: with grad_req 'add' the check is grad - initial == expected, with
    'null' the buffer must be unchanged. Returns the gradient arrays."""
    ctx = ctx if ctx is not None else default_context()
    location = _parse_location(sym=sym, location=location, ctx=ctx, dtype=dtype)
    aux_states = _parse_aux_states(sym=sym, aux_states=aux_states, ctx=ctx, dtype=dtype)
    if isinstance(expected, (list, tuple)):
        expected = dict(zip(sym.list_arguments(), expected))
    args_grad_npy = {k: np.random.normal(size=np.shape(v)) for k, v in expected.items()}
    args_grad_data = {}
    for k, v in args_grad_npy.items():
        target = np.asarray(expected[k]).dtype if dtype == "asnumpy" else dtype
        args_grad_data[k] = nd_array(v, ctx=ctx, dtype=target)
    if isinstance(grad_req, str):
        grad_req = {k: grad_req for k in sym.list_arguments()}
    elif isinstance(grad_req, (list, tuple)):
        grad_req = dict(zip(sym.list_arguments(), grad_req))
    executor = sym.bind(ctx=ctx, args=location, args_grad=args_grad_data,
                        aux_states=aux_states, grad_req=grad_req)
    executor.forward(is_train=True)
    if isinstance(out_grads, (tuple, list)):
        out_grads = [_to_nd(g, ctx, np.asarray(g).dtype if dtype == "asnumpy" else dtype)
                     if not isinstance(g, NDArray) else g for g in out_grads]
    elif isinstance(out_grads, dict):
        out_grads = [_to_nd(out_grads[k], ctx, dtype) for k in sym.list_outputs()]
    elif isinstance(out_grads, np.ndarray):
        out_grads = [_to_nd(out_grads, ctx, dtype)]
    elif out_grads is not None and not isinstance(out_grads, NDArray):
        raise ValueError("out_grads must be None, an array, a list or a dict")
    executor.backward(out_grads)
    grads = args_grad_data
    for name in expected:
        names = ("EXPECTED_%s" % name, "BACKWARD_%s" % name)
        if grad_req[name] == 'write':
            assert_almost_equal(expected[name], grads[name], rtol, atol, names,
                                equal_nan=equal_nan)
        elif grad_req[name] == 'add':
            assert_almost_equal(expected[name], grads[name].asnumpy() - args_grad_npy[name],
                                rtol, atol, names, equal_nan=equal_nan)
        elif grad_req[name] == 'null':
            assert_almost_equal(args_grad_npy[name], grads[name].asnumpy(), rtol, atol, names,
                                equal_nan=equal_nan)
        else:
            raise ValueError("Invalid grad_req %s for argument %s" % (grad_req[name], name))
    return args_grad_data


def simple_forward(sym, ctx=None, is_train=False, **inputs):
    """Bind sym to the NumPy inputs, run forward, return the output(s) as NumPy."""
    ctx = ctx if ctx is not None else default_context()
    inputs = {k: nd_array(v, ctx=ctx) for k, v in inputs.items()}
    exe = sym.bind(ctx, args=inputs)
    exe.forward(is_train=is_train)
    outputs = [x.asnumpy() for x in exe.outputs]
    if len(outputs) == 1:
        outputs = outputs[0]
    return outputs


def check_consistency(sym, ctx_list, scale=1.0, grad_req='write', arg_params=None,
                      aux_params=None, tol=None, raise_on_err=True, ground_truth=None,
                      equal_nan=False, use_uniform=False, rand_type=np.float64):
    """Run sym on each entry of ctx_list ({'ctx': ..., <arg>: shape, 'type_dict': {...}}) with
    the same random parameters and compare outputs and gradients with the most precise run
    (or ground_truth). Returns the per-context outputs and gradients."""
    if tol is None:
        tol = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3,
               np.dtype(np.float64): 1e-5, np.dtype(np.uint8): 0, np.dtype(np.int32): 0,
               np.dtype(np.int64): 0}
    elif isinstance(tol, (int, float)):
        tol = {np.dtype(t): tol for t in (np.float16, np.float32, np.float64, np.uint8,
                                          np.int32, np.int64)}
    assert len(ctx_list) > 1 or ground_truth is not None
    if isinstance(sym, (list, tuple)):
        syms = list(sym)
    else:
        syms = [sym] * len(ctx_list)
    output_names = syms[0].list_outputs()
    arg_names = syms[0].list_arguments()
    exe_list = []
    for s, spec in zip(syms, ctx_list):
        spec = dict(spec)
        ctx = spec.pop('ctx')
        type_dict = spec.pop('type_dict', None)
        exe_list.append(s.simple_bind(ctx, grad_req=grad_req, type_dict=type_dict, **spec))
    arg_params = {} if arg_params is None else dict(arg_params)
    aux_params = {} if aux_params is None else dict(aux_params)
    for n, arr in exe_list[0].arg_dict.items():
        if n not in arg_params:
            if use_uniform:
                arg_params[n] = np.random.uniform(low=-0.92 * scale, high=0.92 * scale,
                                                  size=arr.shape).astype(rand_type)
            else:
                arg_params[n] = np.random.normal(size=arr.shape, scale=scale).astype(rand_type)
    for n, arr in exe_list[0].aux_dict.items():
        if n not in aux_params:
            aux_params[n] = 0
    for exe in exe_list:
        for name, arr in exe.arg_dict.items():
            arr[:] = arg_params[name]
        for name, arr in exe.aux_dict.items():
            arr[:] = aux_params[name]
    dtypes = [np.dtype(exe.outputs[0].dtype) for exe in exe_list]
    max_idx = int(np.argmax([t.itemsize if t.kind == 'f' else 0 for t in dtypes]))
    gt = ground_truth
    for exe in exe_list:
        exe.forward(is_train=False)
    if gt is None:
        gt = {name: arr.asnumpy() for name, arr in zip(output_names, exe_list[max_idx].outputs)}
    for i, exe in enumerate(exe_list):
        if i == max_idx and ground_truth is None:
            continue
        rt = tol[dtypes[i]]
        for name, arr in zip(output_names, exe.outputs):
            try:
                assert_almost_equal(arr.asnumpy().astype(np.float64), gt[name].astype(np.float64),
                                    rtol=rt, atol=rt, equal_nan=equal_nan,
                                    names=("ctx_%d_%s" % (i, name), "gt_%s" % name))
            except AssertionError:
                if raise_on_err:
                    raise
                traceback.print_exc()
    if grad_req != 'null':
        grads = None
        for exe in exe_list:
            exe.forward(is_train=True)
            exe.backward(exe.outputs)
        if ground_truth is None:
            grads = {name: arr.asnumpy() for name, arr in
                     zip(arg_names, exe_list[max_idx].grad_arrays) if arr is not None}
        else:
            grads = ground_truth
        for i, exe in enumerate(exe_list):
            if i == max_idx and ground_truth is None:
                continue
            rt = tol[dtypes[i]]
            for name, arr in zip(arg_names, exe.grad_arrays):
                if arr is None or name not in grads:
                    continue
                try:
                    assert_almost_equal(arr.asnumpy().astype(np.float64),
                                        grads[name].astype(np.float64), rtol=rt, atol=rt,
                                        equal_nan=equal_nan,
                                        names=("ctx_%d_grad_%s" % (i, name), "gt_%s" % name))
                except AssertionError:
                    if raise_on_err:
                        raise
                    traceback.print_exc()
    return gt


# ---- misc --------------------------------------------------------------------------------------

@contextmanager
def environment(*args):
    """Set environment variables inside a with-block: environment('K', 'v') or
    environment({'K': 'v', 'K2': None}) (None unsets); restores them after."""
    if len(args) == 2:
        updates = {args[0]: args[1]}
    elif len(args) == 1 and isinstance(args[0], dict):
        updates = args[0]
    else:
        raise ValueError("environment expects (name, value) or a dict")
    saved = {k: os.environ.get(k) for k in updates}
    try:
        for k, v in updates.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = str(v)
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def retry(n):
    """Decorator: rerun a (flaky) test up to n times, raising the last AssertionError."""
    assert n > 0

    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            err = None
            for _ in range(n):
                try:
                    return f(*args, **kwargs)
                except AssertionError as e:
                    err = e
            raise err
        return wrapper
    return decorate


# ---- the data and checking helpers (split out by topic) ---------------------------------------
from ._test_data import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
from ._test_checks import *  # noqa: E402,F401,F403  pylint: disable=wildcard-import,wrong-import-position
from . import _test_data, _test_checks  # noqa: E402  pylint: disable=wrong-import-position

__all__ += _test_data.__all__ + _test_checks.__all__

# What `from mxnet.test_utils import *` gives in MXNet 1.9.1 beyond the helpers: the module has
# no __all__ there, so its imports come along (test files rely on `mx`, `np`, `sys`, ...).
import bz2  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import errno  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import gzip  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import json  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import logging  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import numbers  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import platform  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import struct  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import sys  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import time  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
import zipfile  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
from collections import OrderedDict  # noqa: E402,F401  pylint: disable=wrong-import-position,wrong-import-order
from . import random as rnd  # noqa: E402,F401  pylint: disable=wrong-import-position
from .ndarray import array  # noqa: E402,F401  pylint: disable=wrong-import-position
from .symbol import Symbol  # noqa: E402,F401  pylint: disable=wrong-import-position
from .runtime import Features  # noqa: E402,F401  pylint: disable=wrong-import-position
from .util import (use_np, getenv, setenv,  # noqa: E402,F401  pylint: disable=wrong-import-position
                   get_cuda_compute_capability)

# `requests`, `scipy.stats` (as `ss`) and `numpy.testing` (as `npt`) are slow to import: they
# are imported on first use (None when not installed).
_LAZY_MODULES = {'requests': 'requests', 'ss': 'scipy.stats', 'npt': 'numpy.testing'}


def __getattr__(name):
    if name in _LAZY_MODULES:
        import importlib
        try:
            module = importlib.import_module(_LAZY_MODULES[name])
        except ImportError:
            module = None
        globals()[name] = module
        return module
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def __dir__():
    return sorted(set(globals()) | set(_LAZY_MODULES))

__all__ += ['mx', 'np', 'sys', 'os', 'time', 'json', 'logging', 'numbers', 'platform', 'struct',
            'bz2', 'gzip', 'errno', 'zipfile', 'OrderedDict', 'npt', 'rnd', 'array', 'Symbol',
            'Features', 'NDArray', 'Context', 'cpu', 'current_context', 'nd', 'use_np',
            'getenv', 'setenv', 'get_cuda_compute_capability', 'requests', 'ss',
            'contextmanager', 'functools', 'traceback']
