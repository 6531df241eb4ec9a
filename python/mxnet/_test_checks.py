"""The checking and sample-making helpers of mx.test_utils: tolerance tables, statistical
tests for samplers, optimizer and Gluon hybridization comparisons, speed measurement, test
matrices with known spectra, and small NumPy / NDArray utilities."""
import json
import os
import platform
import sys
import time
from contextlib import contextmanager

import numpy as np

from .context import current_context
from . import ndarray as nd

__all__ = ['assert_allclose', 'locationError', 'assign_each', 'assign_each2', 'checkShapes',
           'check_gluon_hybridize_consistency', 'check_speed', 'chi_square_check',
           'collapse_sum_like', 'compare_ndarray_tuple', 'compare_optimizer', 'create_2d_tensor',
           'create_vector', 'create_sparse_array', 'create_sparse_array_zd', 'default_atols',
           'default_rtols', 'default_numeric_eps', 'effective_dtype', 'get_tolerance',
           'discard_stderr', 'gen_buckets_probs_with_ppf', 'verify_generator', 'mean_check',
           'var_check', 'get_identity_mat', 'get_identity_mat_batch',
           'new_matrix_with_real_eigvals_2d', 'new_matrix_with_real_eigvals_nd',
           'new_orthonormal_matrix_2d', 'new_sym_matrix_with_real_eigvals_2d',
           'new_sym_matrix_with_real_eigvals_nd', 'has_tvm_ops', 'is_aarch64_run', 'is_cd_run',
           'is_op_runnable', 'rand_coord_2d', 'random_sample', 'random_uniform_arrays',
           'same_array', 'same_symbol_structure', 'shuffle_csr_column_indices']


# ---- tolerances -------------------------------------------------------------------------------

def default_rtols():
    """The relative tolerance per dtype used when a test gives none."""
    return {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5,
            np.dtype(np.bool_): 0, np.dtype(np.int8): 0, np.dtype(np.uint8): 0,
            np.dtype(np.int32): 0, np.dtype(np.uint32): 0, np.dtype(np.int64): 0,
            np.dtype(np.uint64): 0}


def default_atols():
    """The absolute tolerance per dtype used when a test gives none."""
    return {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3,
            np.dtype(np.float64): 1e-20, np.dtype(np.bool_): 0, np.dtype(np.int8): 0,
            np.dtype(np.uint8): 0, np.dtype(np.int32): 0, np.dtype(np.uint32): 0,
            np.dtype(np.int64): 0, np.dtype(np.uint64): 0}


def default_numeric_eps():
    """The finite-difference step per dtype for numeric gradients."""
    return {np.dtype(np.float16): 1.0 / 2 ** 6, np.dtype(np.float32): 1.0 / 2 ** 9,
            np.dtype(np.float64): 1.0 / 2 ** 14}


def effective_dtype(dat):
    """The dtype whose precision the computation on `dat` has: its own dtype (no TF32 math on
    this build's devices)."""
    return np.dtype(dat.dtype)


def get_tolerance(dat, tol, default_tol):
    """`tol` itself, its entry for dat's effective dtype when it is a dict, or that entry of
    `default_tol` when tol is None."""
    if tol is None:
        return default_tol[effective_dtype(dat)]
    if isinstance(tol, dict):
        return tol[effective_dtype(dat)]
    return tol


def assert_allclose(a, b, rtol=1e-07, atol=0, equal_nan=True):
    """Assert |a - b| <= atol + rtol * |b| element-wise (NDArrays or NumPy arrays)."""
    from .test_utils import assert_almost_equal
    assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def checkShapes(a, b):  # noqa: N802  (MXNet's name)
    """Raise AssertionError unless a and b have the same shape."""
    if a.shape != b.shape:
        raise AssertionError('a.shape = %s and b.shape = %s are not equal' % (a.shape, b.shape))


# ---- element-wise helpers ---------------------------------------------------------------------

def assign_each(the_input, function):
    """A NumPy array of function(x) for each element x of the_input (same shape)."""
    if function is None:
        return np.array(the_input)
    return np.vectorize(function)(the_input)


def assign_each2(input1, input2, function):
    """A NumPy array of function(x1, x2) for the elements of two same-shaped arrays."""
    if function is None:
        return np.array(input1)
    return np.vectorize(function)(input1, input2)


def collapse_sum_like(a, shape):
    """`a` summed over the axes that broadcasting `shape` to a.shape expanded: the reverse
    of broadcasting (the gradient of a broadcast)."""
    assert len(a.shape) >= len(shape), (a.shape, shape)
    if np.prod(shape) == 0 or a.size == 0:
        return np.zeros(shape, dtype=a.dtype)
    lead = len(a.shape) - len(shape)
    axes = list(range(lead))
    for i, (da, ds) in enumerate(zip(a.shape[lead:], shape)):
        if ds == 1 and da != 1:
            axes.append(lead + i)
        elif ds != da:
            raise ValueError('collapse_sum_like: shape %s does not broadcast to %s'
                             % (shape, a.shape))
    return a.sum(axis=tuple(axes)).reshape(shape) if axes else a.copy()


def compare_ndarray_tuple(t1, t2, rtol=None, atol=None):
    """Assert two (nested) tuples of NDArrays are almost equal; None entries are skipped."""
    from .test_utils import assert_almost_equal
    if t1 is None or t2 is None:
        return
    if isinstance(t1, tuple):
        for s1, s2 in zip(t1, t2):
            compare_ndarray_tuple(s1, s2, rtol, atol)
    else:
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)


def same_array(array1, array2):
    """Whether two NDArrays are views of the same memory: a write to one shows in the other
    (the write is undone)."""
    from .test_utils import same
    array1[:] += 1
    if not same(array1.asnumpy(), array2.asnumpy()):
        array1[:] -= 1
        return False
    array1[:] -= 1
    return same(array1.asnumpy(), array2.asnumpy())


def same_symbol_structure(sym1, sym2):
    """Whether two Symbols have the same graph: the same operators with the same inputs,
    node by node."""
    nodes1 = json.loads(sym1.tojson())['nodes']
    nodes2 = json.loads(sym2.tojson())['nodes']
    if len(nodes1) != len(nodes2):
        return False
    for n1, n2 in zip(nodes1, nodes2):
        if n1['op'] != n2['op'] or n1['inputs'] != n2['inputs']:
            return False
    return True


# ---- arrays for tests -------------------------------------------------------------------------

def create_vector(size, dtype=np.int64):
    """The NDArray [0, 1, ..., size - 1]."""
    return nd.arange(0, size, dtype=dtype)


def create_2d_tensor(rows, columns, dtype=np.int64):
    """A (rows, columns) NDArray whose row i is filled with i."""
    col = nd.arange(0, rows, dtype=dtype).reshape((rows, 1))
    return nd.broadcast_to(col, shape=(rows, columns))


def create_sparse_array(shape, stype, data_init=None, rsp_indices=None, dtype=None,
                        modifier_func=None, density=.5, shuffle_csr_indices=False):
    """A random sparse NDArray ('csr' or 'row_sparse') of `shape` with the given density."""
    from .test_utils import rand_sparse_ndarray
    if stype == 'row_sparse' and rsp_indices is not None:
        assert len(rsp_indices) <= shape[0]
    arr, _ = rand_sparse_ndarray(shape, stype, density=density, dtype=dtype,
                                 data_init=data_init, rsp_indices=rsp_indices,
                                 modifier_func=modifier_func,
                                 shuffle_csr_indices=shuffle_csr_indices)
    return arr


def create_sparse_array_zd(shape, stype, density, data_init=None, rsp_indices=None,
                           dtype=None, modifier_func=None, shuffle_csr_indices=False):
    """create_sparse_array with an explicit density, which may be 0 (an all-zero array)."""
    if stype == 'row_sparse':
        density = 0.0 if rsp_indices is not None and len(rsp_indices) == 0 else density
    return create_sparse_array(shape, stype, data_init=data_init, rsp_indices=rsp_indices,
                               dtype=dtype, modifier_func=modifier_func, density=density,
                               shuffle_csr_indices=shuffle_csr_indices)


def shuffle_csr_column_indices(csr):
    """Shuffle, in place, the column indices (and their values) within each row of a SciPy
    CSR matrix, leaving the matrix unsorted but equal."""
    for row in range(len(csr.indptr) - 1):
        lo, hi = csr.indptr[row], csr.indptr[row + 1]
        perm = np.random.permutation(hi - lo) + lo
        csr.indices[lo:hi] = csr.indices[perm]
        csr.data[lo:hi] = csr.data[perm]
    return csr


def rand_coord_2d(x_low, x_high, y_low, y_high):
    """A random integer point (x, y) with x in [x_low, x_high) and y in [y_low, y_high)."""
    x = np.random.randint(x_low, x_high, dtype=np.int64)
    y = np.random.randint(y_low, y_high, dtype=np.int64)
    return x, y


def random_sample(population, k):
    """k elements of the list `population` drawn without replacement."""
    assert 0 <= k <= len(population)
    picked = list(population)
    np.random.shuffle(picked)
    return picked[:k]


def random_uniform_arrays(*shapes, **kwargs):
    """Uniform [low, high) NumPy arrays of the given shapes and dtype (keywords low=0.0,
    high=1.0, dtype float32); one array if one shape is given."""
    low = kwargs.pop('low', 0.0)
    high = kwargs.pop('high', 1.0)
    dtype = kwargs.pop('dtype', np.float32)
    if kwargs:
        raise TypeError('random_uniform_arrays: unexpected arguments %s' % sorted(kwargs))
    arrays = [np.random.uniform(low, high, size=s).astype(dtype) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def get_identity_mat(size):
    """The size x size identity matrix."""
    return np.identity(size)


def get_identity_mat_batch(batch_size, size):
    """A batch of batch_size identity matrices, shape (batch_size, size, size)."""
    return np.stack([np.identity(size)] * batch_size)


def new_orthonormal_matrix_2d(n):
    """A random n x n orthonormal matrix (the Q of a QR factorisation of a random matrix)."""
    q, r = np.linalg.qr(np.random.uniform(-1.0, 1.0, size=(n, n)))
    return q * np.sign(np.diag(r))


def new_sym_matrix_with_real_eigvals_2d(n):
    """A random symmetric n x n matrix Q D Q^T (its eigenvalues D are real, in [-10, 10])."""
    q = new_orthonormal_matrix_2d(n)
    return (q * np.random.uniform(-10.0, 10.0, n)) @ q.T


def new_sym_matrix_with_real_eigvals_nd(shape):
    """A stack of random symmetric matrices of shape (..., n, n)."""
    n = shape[-1]
    mats = [new_sym_matrix_with_real_eigvals_2d(n)
            for _ in range(int(np.prod(shape[:-2])))]
    return np.array(mats).reshape(shape)


def new_matrix_with_real_eigvals_2d(n):
    """A random (generally non-symmetric) n x n matrix P^-1 D P with real eigenvalues D in
    [-10, 10] and a well-conditioned P."""
    while True:
        p = np.random.uniform(-1.0, 1.0, size=(n, n)) + 2 * np.identity(n)
        if np.linalg.cond(p) < 10:
            break
    return np.linalg.inv(p) @ np.diag(np.random.uniform(-10.0, 10.0, n)) @ p


def new_matrix_with_real_eigvals_nd(shape):
    """A stack of random matrices with real eigenvalues, shape (..., n, n)."""
    n = shape[-1]
    mats = [new_matrix_with_real_eigvals_2d(n) for _ in range(int(np.prod(shape[:-2])))]
    return np.array(mats).reshape(shape)


# ---- where tests run --------------------------------------------------------------------------

def has_tvm_ops():
    """Whether this library was built with the TVM-generated operators."""
    from .runtime import Features
    features = Features()
    return 'TVM_OP' in features and features.is_enabled('TVM_OP')


def is_aarch64_run():
    """Whether the tests run on a 64-bit ARM machine."""
    return 'aarch64' in platform.machine()


def is_cd_run():
    """Whether the tests run in the release (CD) pipeline (CD_JOB=1)."""
    return os.environ.get('CD_JOB', '0') == '1'


def is_op_runnable():
    """Whether the TVM-generated operators can run on the current context: always on the CPU
    or without TVM operators; on a GPU they need compute capability 5.3 or newer."""
    ctx = current_context()
    if ctx.device_type != 'gpu' or not has_tvm_ops():
        return True
    from .util import get_cuda_compute_capability
    try:
        return get_cuda_compute_capability(ctx) >= 53
    except (OSError, RuntimeError):
        return False


@contextmanager
def discard_stderr():
    """Within the block, whatever the process writes to stderr (C++ code too) is dropped."""
    stderr_fd = sys.stderr.fileno()
    saved = os.dup(stderr_fd)
    with open(os.devnull, 'w') as devnull:
        sys.stderr.flush()
        os.dup2(devnull.fileno(), stderr_fd)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, stderr_fd)
            os.close(saved)


# ---- samplers ---------------------------------------------------------------------------------

def gen_buckets_probs_with_ppf(ppf, nbuckets):
    """`nbuckets` buckets (low, high) of equal probability 1/nbuckets for the distribution
    with percent-point function `ppf`, and those probabilities."""
    probs = [1.0 / nbuckets] * nbuckets
    buckets = [(ppf(i / float(nbuckets)), ppf((i + 1) / float(nbuckets)))
               for i in range(nbuckets)]
    return buckets, probs


def chi_square_check(generator, buckets, probs, nsamples=1000000):
    """Pearson's chi-square test of `nsamples` draws of generator(n) against the bucket
    probabilities. Buckets are (low, high) ranges (continuous) or values (discrete).
    Returns (p-value, observed counts, expected counts)."""
    import scipy.stats as ss
    samples = np.asarray(generator(nsamples))
    if hasattr(samples, 'asnumpy'):
        samples = samples.asnumpy()
    samples = np.asarray(samples).reshape(-1)
    assert samples.shape[0] == nsamples, (samples.shape, nsamples)
    continuous = isinstance(buckets[0], tuple)
    if continuous:
        obs = np.array([np.sum((samples >= lo) & (samples < hi)) for lo, hi in buckets])
    else:
        obs = np.array([np.sum(samples == value) for value in buckets])
    expected = nsamples * np.asarray(probs, dtype=np.float64) / np.sum(probs)
    # scipy requires matching totals; samples outside every bucket are not counted.
    expected = expected * obs.sum() / expected.sum()
    _, p = ss.chisquare(f_obs=obs, f_exp=expected)
    return p, obs, expected


def verify_generator(generator, buckets, probs, nsamples=1000000, nrepeat=5, success_rate=0.2,
                     alpha=0.05):
    """Repeat chi_square_check `nrepeat` times; fail (AssertionError) unless the share of
    repeats with p > alpha reaches `success_rate`. Returns the list of check results."""
    results = [chi_square_check(generator, buckets, probs, nsamples) for _ in range(nrepeat)]
    passed = sum(1 for p, _, _ in results if p > alpha)
    if passed < success_rate * nrepeat:
        raise AssertionError('Generator test fails, Chi-square p=%s, obs_freq=%s, '
                             'expected_freq=%s.' % ([r[0] for r in results], results[0][1],
                                                    results[0][2]))
    return results


def mean_check(generator, mu, sigma, nsamples=1000000):
    """Whether the mean of `nsamples` draws lies within 3 standard errors of mu."""
    samples = np.asarray(generator(nsamples), dtype=np.float64)
    return abs(samples.mean() - mu) < 3 * sigma / np.sqrt(nsamples)


def var_check(generator, sigma, nsamples=1000000):
    """Whether the variance of `nsamples` draws lies within 3 standard errors of sigma**2."""
    samples = np.asarray(generator(nsamples), dtype=np.float64)
    spread = 3 * np.sqrt(2 * sigma ** 4 / (nsamples - 1))
    return abs(samples.var(ddof=1) - sigma ** 2) < spread


# ---- comparisons of whole components ----------------------------------------------------------

def compare_optimizer(opt1, opt2, shapes, dtype, w_stype='default', g_stype='default',
                      rtol=1e-4, atol=1e-5, compare_states=True):
    """Update the same random weights with the same gradients by opt1 and opt2 (one step per
    shape) and assert the weights, and the optimizer states when compare_states, agree."""
    from .test_utils import rand_ndarray, assert_almost_equal
    for index, shape in enumerate(shapes):
        w1 = rand_ndarray(shape, w_stype, dtype=dtype)
        g1 = rand_ndarray(shape, g_stype, dtype=dtype)
        w2, g2 = w1.copy(), g1.copy()
        s1 = opt1.create_state_multi_precision(index, w1)
        s2 = opt2.create_state_multi_precision(index, w2)
        if compare_states:
            compare_ndarray_tuple(s1, s2)
        opt1.update_multi_precision(index, w1, g1, s1)
        opt2.update_multi_precision(index, w2, g2, s2)
        if compare_states:
            compare_ndarray_tuple(s1, s2, rtol=rtol, atol=atol)
        assert_almost_equal(w1, w2, rtol=rtol, atol=atol)


def check_gluon_hybridize_consistency(net_builder, data_l, numpy_func=None, test_grad=True,
                                      rtol=1e-4, atol=1e-4):
    """Run the block net_builder() makes on the arrays data_l unhybridized, then hybridized
    with the same parameters, and assert the outputs (and, with test_grad, the gradients of
    their sum with respect to the inputs) agree, and agree with numpy_func(*inputs) when given.
    Returns the outputs as NumPy arrays."""
    from . import autograd
    from .test_utils import assert_almost_equal
    saved_outputs = saved_grads = params = None
    for hybridize in (False, True):
        net = net_builder()
        net.initialize()
        if params is not None:
            # The first run's parameters, matched by position (each build has new names);
            # one forward pass first gives deferred-initialized parameters their shapes.
            net(*[x.copy() for x in data_l])
            for param, value in zip(net.collect_params().values(), params):
                param.set_data(value)
        if hybridize:
            net.hybridize()
        inputs = [x.copy() for x in data_l]
        if test_grad:
            for x in inputs:
                x.attach_grad()
        with autograd.record():
            out = net(*inputs)
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            total = outs[0].sum()
            for extra in outs[1:]:
                total = total + extra.sum()
        if test_grad:
            total.backward()
        if params is None:
            params = [p.data().copy() for p in net.collect_params().values()]
        outputs = [o.asnumpy() for o in outs]
        grads = [x.grad.asnumpy() for x in inputs] if test_grad else None
        if saved_outputs is None:
            saved_outputs, saved_grads = outputs, grads
            continue
        for got, want in zip(outputs, saved_outputs):
            assert_almost_equal(got, want, rtol=rtol, atol=atol)
        if test_grad:
            for got, want in zip(grads, saved_grads):
                assert_almost_equal(got, want, rtol=rtol, atol=atol)
    if numpy_func is not None:
        expected = numpy_func(*[x.asnumpy() for x in data_l])
        expected = list(expected) if isinstance(expected, (list, tuple)) else [expected]
        for got, want in zip(saved_outputs, expected):
            assert_almost_equal(got, want, rtol=rtol, atol=atol)
    return saved_outputs


def check_speed(sym, location=None, ctx=None, N=20, grad_req=None, typ='whole', **kwargs):
    """Seconds per run of sym's forward (typ='forward') or forward and backward
    (typ='whole'), averaged over N runs after one warm-up. `location` maps argument names to
    arrays (random normal by default, from the shapes in kwargs)."""
    from .test_utils import default_context
    ctx = default_context() if ctx is None else ctx
    grad_req = grad_req or {name: 'write' for name in sym.list_arguments()}
    exe = sym.simple_bind(ctx=ctx, grad_req=grad_req, **kwargs)
    if location is None:
        location = {name: np.random.normal(size=arr.shape)
                    for name, arr in exe.arg_dict.items()}
    for name, value in location.items():
        exe.arg_dict[name][:] = value
    if typ == 'whole':
        def run():
            exe.forward(is_train=True)
            exe.backward(out_grads=[nd.ones(o.shape, ctx=ctx) for o in exe.outputs])
            for out in exe.grad_arrays:
                if out is not None:
                    out.wait_to_read()
    elif typ == 'forward':
        def run():
            exe.forward(is_train=False)
            for out in exe.outputs:
                out.wait_to_read()
    else:
        raise ValueError("check_speed: typ must be 'whole' or 'forward', got %r" % (typ,))
    run()
    tic = time.time()
    for _ in range(N):
        run()
    return (time.time() - tic) / N


def locationError(a, b, index, names, maxError=False):  # pylint: disable=invalid-name
    """The line assert_almost_equal reports for a mismatch at `index` of arrays `a` and `b`
    named `names`: "Location of [maximum ]error: <index>, <name a>=<a>, <name b>=<b>"."""
    return "Location of %serror: %s, %s=%.8f, %s=%.8f" % (
        "maximum " if maxError else "", str(index), names[0], a[index], names[1], b[index])
