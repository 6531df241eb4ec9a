"""Sparse operators on the device under test against the CPU: cast_storage between every pair of
storage types (csr and row_sparse arrays living on the device), copies of sparse arrays between
devices, _sparse_retain, _sparse_adagrad_update, getnnz and edge_id (GPU kernels), the dgl_*
graph operators (host paths on GPU arrays, same results as the CPU), and
_contrib_quantized_batch_norm (bit-identical int8 output). Random inputs of several shapes and
densities, all-zero and empty ones included."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, check_fn

SHAPES_2D = [(5, 7), (1, 1), (0, 4), (4, 0), (33, 65)]
DENSITIES = [0.0, 0.3, 1.0]


def _dense(shape, density, dtype="float32", seed=0):
    rng = np.random.RandomState(seed)
    x = rng.uniform(-3, 3, size=shape).astype(dtype)
    x[rng.uniform(size=shape) >= density] = 0
    return x


def _parts(a):
    """The stored parts of a sparse array as NumPy arrays (dense: its values)."""
    if a.stype == "csr":
        return [a.data.asnumpy(), a.indices.asnumpy(), a.indptr.asnumpy()]
    if a.stype == "row_sparse":
        return [a.data.asnumpy(), a.indices.asnumpy()]
    return [a.asnumpy()]


def _assert_same(got, want):
    assert got.stype == want.stype and got.shape == want.shape and got.dtype == want.dtype
    assert got.context == DEV
    for g, w in zip(_parts(got), _parts(want)):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())


# ---- cast_storage ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64"])
@pytest.mark.parametrize("density", DENSITIES)
@pytest.mark.parametrize("shape", SHAPES_2D)
def test_cast_storage_dense_csr_rsp_round_trips(shape, density, dtype):
    x = _dense(shape, density, dtype)
    for stype in ("csr", "row_sparse"):
        want = mx.nd.array(x, ctx=mx.cpu(), dtype=dtype).tostype(stype)
        got = mx.nd.array(x, ctx=DEV, dtype=dtype).tostype(stype)
        _assert_same(got, want)
        _assert_same(mx.nd.cast_storage(got, stype="default"),
                     mx.nd.cast_storage(want, stype="default"))
        _assert_same(mx.nd.cast_storage(got, stype=stype), mx.nd.cast_storage(want, stype=stype))


@pytest.mark.parametrize("shape", [(6, 3, 2), (3,), (0, 2, 2), (2, 0)])
@pytest.mark.parametrize("density", DENSITIES)
def test_cast_storage_row_sparse_nd(shape, density):
    x = _dense(shape, density, seed=2)
    rows = np.arange(shape[0]) % 2 == 0
    x[rows] = 0  # whole zero rows too
    want = mx.nd.array(x, ctx=mx.cpu()).tostype("row_sparse")
    got = mx.nd.array(x, ctx=DEV).tostype("row_sparse")
    _assert_same(got, want)
    np.testing.assert_array_equal(got.tostype("default").asnumpy(), x)


def test_cast_storage_from_parts_made_on_the_device():
    data = np.array([1.5, -2, 3, 4], np.float32)
    indices = np.array([2, 0, 1, 3], np.int64)
    indptr = np.array([0, 2, 2, 4], np.int64)
    a = mx.nd.sparse.csr_matrix((data, indices, indptr), shape=(3, 5), ctx=DEV)
    b = mx.nd.sparse.csr_matrix((data, indices, indptr), shape=(3, 5), ctx=mx.cpu())
    _assert_same(a, b)
    _assert_same(a.tostype("default"), b.tostype("default"))
    r = mx.nd.sparse.row_sparse_array((np.ones((2, 3), np.float32), [1, 4]), shape=(6, 3), ctx=DEV)
    s = mx.nd.sparse.row_sparse_array((np.ones((2, 3), np.float32), [1, 4]), shape=(6, 3))
    _assert_same(r.tostype("default"), s.tostype("default"))
    z = mx.nd.sparse.zeros("csr", (4, 3), ctx=DEV)
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((4, 3), np.float32))


def test_cast_storage_gradient_is_a_copy():
    x = _dense((4, 5), 0.5, "float64", seed=3)
    check_fn(lambda a: mx.nd.cast_storage(a, stype="default"), [x], np.float32, True,
             "cast_storage")


@pytest.mark.parametrize("stype", ["csr", "row_sparse"])
def test_sparse_copies_between_devices(stype):
    x = _dense((7, 6), 0.4, seed=4)
    host = mx.nd.array(x).tostype(stype)
    dev = host.copyto(DEV)
    assert dev.stype == stype and dev.context == DEV
    _assert_same(dev, host)
    back = dev.copyto(mx.cpu())
    assert back.context == mx.cpu()
    for g, w in zip(_parts(back), _parts(host)):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(dev.astype("float64").asnumpy(), x.astype(np.float64))


# ---- _sparse_retain ----------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(8, 3), (8,), (5, 2, 2), (0, 3)])
@pytest.mark.parametrize("density", DENSITIES)
@pytest.mark.parametrize("ids", [[0, 3, 7], [7, 1, 1, 4, 0], [], [2]])
def test_sparse_retain(shape, density, ids):
    ids = [i % max(shape[0], 1) for i in ids] if shape[0] else []
    x = _dense(shape, density, seed=5)
    for idx_dtype in ("int64", "float32"):
        want = mx.nd.sparse.retain(mx.nd.array(x).tostype("row_sparse"),
                                   mx.nd.array(ids, dtype=idx_dtype))
        got = mx.nd.sparse.retain(mx.nd.array(x, ctx=DEV).tostype("row_sparse"),
                                  mx.nd.array(ids, ctx=DEV, dtype=idx_dtype))
        _assert_same(got, want)


def test_sparse_retain_dense_input_and_range_error():
    x = _dense((6, 4), 0.7, seed=6)
    want = mx.nd.sparse.retain(mx.nd.array(x), mx.nd.array([1, 4]))
    got = mx.nd.sparse.retain(mx.nd.array(x, ctx=DEV), mx.nd.array([1, 4], ctx=DEV))
    np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
    rsp = mx.nd.array(x, ctx=DEV).tostype("row_sparse")
    with pytest.raises(IndexError):
        mx.nd.sparse.retain(rsp, mx.nd.array([1, 9], ctx=DEV)).wait_to_read()


# ---- _sparse_adagrad_update --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("density", DENSITIES)
@pytest.mark.parametrize("shape", [(6, 4), (5,), (0, 3)])
def test_sparse_adagrad_update(shape, density, dtype):
    rng = np.random.RandomState(7)
    w0 = rng.uniform(-1, 1, shape).astype(dtype)
    h0 = rng.uniform(0, 1, shape).astype(dtype)
    g0 = _dense(shape, density, dtype, seed=8)
    results = []
    for ctx in (mx.cpu(), DEV):
        w = mx.nd.array(w0, ctx=ctx, dtype=dtype)
        h = mx.nd.array(h0, ctx=ctx, dtype=dtype)
        g = mx.nd.array(g0, ctx=ctx, dtype=dtype).tostype("row_sparse")
        mx.nd.sparse.adagrad_update(w, g, h, lr=0.1, epsilon=1e-7, rescale_grad=0.5,
                                    clip_gradient=1.5, out=w)
        results.append((w.asnumpy(), h.asnumpy()))
    rtol = 1e-6 if dtype == "float32" else 1e-12
    for got, want in zip(results[1], results[0]):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


# ---- getnnz, edge_id, dgl_* --------------------------------------------------------------------

def _graph(n, p, seed, ctx, dtype="int64"):
    rng = np.random.RandomState(seed)
    adj = (rng.rand(n, n) < p).astype(np.int64)
    np.fill_diagonal(adj, 0)
    ids = np.cumsum(adj.ravel()).reshape(n, n) * adj
    return ids, mx.nd.array(ids, ctx=ctx, dtype=dtype).tostype("csr")


@pytest.mark.parametrize("n,p", [(12, 0.4), (5, 0.0), (1, 1.0), (40, 0.1)])
def test_getnnz_and_edge_id(n, p):
    ids, g_cpu = _graph(n, p, 1, mx.cpu())
    _, g_dev = _graph(n, p, 1, DEV)
    for axis in (None, 0, 1):
        want = mx.nd.contrib.getnnz(g_cpu, axis=axis)
        got = mx.nd.contrib.getnnz(g_dev, axis=axis)
        assert got.dtype == np.int64 and got.context == DEV
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
    rng = np.random.RandomState(2)
    u, v = rng.randint(-1, n + 1, 50), rng.randint(0, n, 50)
    for gdtype in ("int64", "float32"):
        _, gc = _graph(n, p, 1, mx.cpu(), gdtype)
        _, gd = _graph(n, p, 1, DEV, gdtype)
        for udtype in ("float32", "int64"):
            want = mx.nd.contrib.edge_id(gc, mx.nd.array(u, dtype=udtype),
                                         mx.nd.array(v, dtype=udtype))
            got = mx.nd.contrib.edge_id(gd, mx.nd.array(u, ctx=DEV, dtype=udtype),
                                        mx.nd.array(v, ctx=DEV, dtype=udtype))
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
    empty = mx.nd.contrib.edge_id(g_dev, mx.nd.array([], ctx=DEV), mx.nd.array([], ctx=DEV))
    assert empty.shape == (0,)


def test_dgl_adjacency_subgraph_compact():
    ids, g_cpu = _graph(10, 0.5, 4, mx.cpu())
    _, g_dev = _graph(10, 0.5, 4, DEV)
    _assert_same(mx.nd.contrib.dgl_adjacency(g_dev), mx.nd.contrib.dgl_adjacency(g_cpu))
    sets = [np.array([0, 2, 3, 7, 9]), np.array([1, 4]), np.array([5])]
    want = mx.nd.contrib.dgl_subgraph(g_cpu, *[mx.nd.array(v, dtype="int64") for v in sets],
                                      return_mapping=True)
    got = mx.nd.contrib.dgl_subgraph(g_dev, *[mx.nd.array(v, ctx=DEV, dtype="int64")
                                              for v in sets], return_mapping=True)
    for a, b in zip(got, want):
        _assert_same(a, b)
    # compact the sampled graphs of a uniform sample (sampled on the CPU, compacted on both)
    seeds = mx.nd.array([0, 1], dtype="int64")
    mx.random.seed(3)
    out = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(g_cpu, seeds, num_hops=1,
                                                        num_neighbor=2, max_num_vertices=6)
    size = int(out[0].asnumpy()[-1])
    want = mx.nd.contrib.dgl_graph_compact(out[1], out[0], graph_sizes=(size,),
                                           return_mapping=True)
    got = mx.nd.contrib.dgl_graph_compact(out[1].copyto(DEV), out[0].copyto(DEV),
                                          graph_sizes=(size,), return_mapping=True)
    for a, b in zip(got, want):
        _assert_same(a, b)


@pytest.mark.parametrize("weighted", [False, True])
def test_dgl_neighbor_samplers_same_draws_as_the_cpu(weighted):
    _, g_cpu = _graph(15, 0.3, 5, mx.cpu())
    _, g_dev = _graph(15, 0.3, 5, DEV)
    prob = np.random.RandomState(6).uniform(0.1, 1, 15).astype(np.float32)
    results = []
    for ctx, g in ((mx.cpu(), g_cpu), (DEV, g_dev)):
        seeds = [mx.nd.array([0, 3], ctx=ctx, dtype="int64"),
                 mx.nd.array([7], ctx=ctx, dtype="int64")]
        mx.random.seed(11)
        if weighted:
            out = mx.nd.contrib.dgl_csr_neighbor_non_uniform_sample(
                g, mx.nd.array(prob, ctx=ctx), *seeds, num_hops=2, num_neighbor=2,
                max_num_vertices=8)
        else:
            out = mx.nd.contrib.dgl_csr_neighbor_uniform_sample(
                g, *seeds, num_hops=2, num_neighbor=2, max_num_vertices=8)
        results.append(out)
    for got, want in zip(results[1], results[0]):
        assert got.stype == want.stype and got.shape == want.shape
        for g, w in zip(_parts(got), _parts(want)):
            np.testing.assert_array_equal(g, w)


# ---- quantized batch norm ----------------------------------------------------------------------

@pytest.mark.parametrize("qtype", ["int8", "uint8"])
@pytest.mark.parametrize("shape,axis", [((2, 3, 4, 5), 1), ((4, 6), 1), ((3, 2, 5), -1),
                                        ((0, 3, 2), 1)])
def test_quantized_batch_norm_bit_identical(shape, axis, qtype):
    rng = np.random.RandomState(9)
    lo, hi = (-128, 127) if qtype == "int8" else (0, 255)
    x = rng.randint(lo, hi + 1, size=shape).astype(qtype)
    c = shape[axis]
    gamma = rng.uniform(0.5, 2, c).astype(np.float32)
    beta = rng.uniform(-1, 1, c).astype(np.float32)
    mean = rng.uniform(-0.5, 0.5, c).astype(np.float32)
    var = rng.uniform(0.1, 2, c).astype(np.float32)
    var[0] = 0  # eps only
    outs = []
    for ctx in (mx.cpu(), DEV):
        nd = [mx.nd.array(a, ctx=ctx, dtype=a.dtype) for a in (x, gamma, beta, mean, var)]
        rng_in = [mx.nd.array([-1.5], ctx=ctx), mx.nd.array([0.7], ctx=ctx)]
        q = mx.nd.contrib.quantized_batch_norm(*nd, *rng_in, axis=axis, eps=1e-3,
                                               min_calib_range=-2.0, max_calib_range=3.0)
        outs.append([o.asnumpy() for o in q])
    for got, want in zip(outs[1], outs[0]):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
