"""Sparse NDArrays (csr, row_sparse): construction, parts, conversion, format checks, save/load
(including files written by and for MXNet 1.9.1) and pickling. References are dense NumPy."""
import os
import pickle
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

import mx191_oracle

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")


def _random_sparse_dense(rng, shape, density=0.4, dtype="float32"):
    x = rng.uniform(-3, 3, size=shape).astype(dtype)
    x[rng.uniform(size=shape) > density] = 0
    return x


def _csr_parts(dense):
    """NumPy reference of the compact csr layout."""
    indptr, indices, data = [0], [], []
    for row in dense:
        nz = np.nonzero(row)[0]
        indices.extend(nz)
        data.extend(row[nz])
        indptr.append(len(indices))
    return np.array(data, dtype=dense.dtype), np.array(indices), np.array(indptr)


def test_csr_from_parts_and_properties():
    data = np.array([1.0, 2.0, 3.0], dtype="float32")
    indices = np.array([0, 2, 1])
    indptr = np.array([0, 2, 2, 3])
    a = mx.nd.sparse.csr_matrix((data, indices, indptr), shape=(3, 4))
    assert isinstance(a, mx.nd.sparse.CSRNDArray)
    assert a.stype == "csr" and a.shape == (3, 4) and a.dtype == np.float32
    np.testing.assert_array_equal(a.data.asnumpy(), data)
    np.testing.assert_array_equal(a.indices.asnumpy(), indices)
    np.testing.assert_array_equal(a.indptr.asnumpy(), indptr)
    assert a.indices.dtype == np.int64 and a.indptr.dtype == np.int64
    want = np.array([[1, 0, 2, 0], [0, 0, 0, 0], [0, 3, 0, 0]], dtype="float32")
    np.testing.assert_array_equal(a.asnumpy(), want)
    np.testing.assert_array_equal(a.tostype("default").asnumpy(), want)
    assert "CSRNDArray 3x4" in repr(a)
    # shape inferred from indptr / max index
    b = mx.nd.sparse.csr_matrix((data, indices, indptr))
    assert b.shape == (3, 3)


def test_row_sparse_from_parts_and_properties():
    data = np.arange(6, dtype="float64").reshape(2, 3) + 1
    a = mx.nd.sparse.row_sparse_array((data, np.array([1, 3])), shape=(5, 3))
    assert isinstance(a, mx.nd.sparse.RowSparseNDArray)
    assert a.stype == "row_sparse" and a.dtype == np.float64 and a.shape == (5, 3)
    want = np.zeros((5, 3))
    want[[1, 3]] = data
    np.testing.assert_array_equal(a.asnumpy(), want)
    np.testing.assert_array_equal(a.indices.asnumpy(), [1, 3])
    np.testing.assert_array_equal(a.data.asnumpy(), data)
    assert a[:] is a
    with pytest.raises(ValueError):
        a[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16"])
def test_dense_to_sparse_round_trip(dtype):
    rng = np.random.RandomState(0)
    dense = _random_sparse_dense(rng, (6, 7), dtype=dtype)
    dense[3] = 0
    x = mx.nd.array(dense, dtype=dtype)
    csr = x.tostype("csr")
    data, indices, indptr = _csr_parts(dense)
    np.testing.assert_array_equal(csr.indptr.asnumpy(), indptr)
    np.testing.assert_array_equal(csr.indices.asnumpy(), indices)
    np.testing.assert_array_equal(csr.data.asnumpy(), data)
    np.testing.assert_array_equal(csr.asnumpy(), dense)
    rsp = x.tostype("row_sparse")
    rows = [i for i in range(6) if dense[i].any()]
    np.testing.assert_array_equal(rsp.indices.asnumpy(), rows)
    np.testing.assert_array_equal(rsp.data.asnumpy(), dense[rows])
    np.testing.assert_array_equal(rsp.tostype("default").asnumpy(), dense)
    assert csr.tostype("csr").stype == "csr"
    np.testing.assert_array_equal(mx.nd.cast_storage(csr, stype="default").asnumpy(), dense)


def test_sparse_constructors_from_dense_and_shape():
    dense = np.array([[0, 1.5], [0, 0], [2, 0]], dtype="float32")
    np.testing.assert_array_equal(mx.nd.sparse.csr_matrix(dense).asnumpy(), dense)
    np.testing.assert_array_equal(mx.nd.sparse.row_sparse_array(dense).asnumpy(), dense)
    np.testing.assert_array_equal(mx.nd.sparse.csr_matrix(mx.nd.array(dense)).asnumpy(), dense)
    e = mx.nd.sparse.csr_matrix((3, 2))
    assert e.shape == (3, 2) and e.stype == "csr"
    np.testing.assert_array_equal(e.indptr.asnumpy(), [0, 0, 0, 0])
    np.testing.assert_array_equal(e.asnumpy(), np.zeros((3, 2)))
    r = mx.nd.sparse.row_sparse_array((4, 2, 3))
    assert r.shape == (4, 2, 3) and r.data.shape == (0, 2, 3)
    for stype in ("csr", "row_sparse"):
        z = mx.nd.sparse.zeros(stype, (2, 5), dtype="float64")
        assert z.stype == stype and z.dtype == np.float64
        np.testing.assert_array_equal(z.asnumpy(), np.zeros((2, 5)))
        z2 = mx.nd.zeros((2, 5), stype=stype)
        assert z2.stype == stype
        assert mx.nd.sparse.empty(stype, (2, 5)).stype == stype


def test_scipy_interop():
    spsp = pytest.importorskip("scipy.sparse")
    rng = np.random.RandomState(1)
    dense = _random_sparse_dense(rng, (5, 4))
    sp = spsp.csr_matrix(dense)
    a = mx.nd.sparse.csr_matrix(sp)
    np.testing.assert_array_equal(a.asnumpy(), dense)
    b = mx.nd.sparse.array(sp)
    assert b.stype == "csr"
    back = a.asscipy()
    np.testing.assert_array_equal(back.toarray(), dense)


def test_csr_row_slicing():
    rng = np.random.RandomState(2)
    dense = _random_sparse_dense(rng, (6, 5))
    a = mx.nd.array(dense).tostype("csr")
    for key in [slice(1, 4), slice(0, 6), slice(4, None), slice(None, 2), slice(3, 3)]:
        part = a[key]
        assert part.stype == "csr"
        np.testing.assert_array_equal(part.asnumpy(), dense[key])
        part.check_format()
    row = a[2]
    assert row.stype == "csr" and row.shape == (1, 5)
    np.testing.assert_array_equal(row.asnumpy(), dense[2:3])
    np.testing.assert_array_equal(a[-1].asnumpy(), dense[5:6])
    with pytest.raises(IndexError):
        a[6]


def test_copy_astype_and_assign():
    dense = np.array([[0, 1], [2, 0], [0, 0]], dtype="float32")
    for stype in ("csr", "row_sparse"):
        a = mx.nd.array(dense).tostype(stype)
        c = a.copy()
        assert c.stype == stype and c.handle.value != a.handle.value
        np.testing.assert_array_equal(c.asnumpy(), dense)
        d = a.astype("float64")
        assert d.dtype == np.float64 and d.stype == stype
        np.testing.assert_array_equal(d.asnumpy(), dense)
        z = mx.nd.sparse.zeros(stype, (3, 2))
        z[:] = mx.nd.array(dense * 2)
        np.testing.assert_array_equal(z.asnumpy(), dense * 2)
        out = mx.nd.zeros((3, 2))
        a.copyto(out)
        np.testing.assert_array_equal(out.asnumpy(), dense)


def test_check_format_errors():
    good = mx.nd.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([0, 1]), np.array([0, 1, 2])),
                                   shape=(2, 2))
    good.check_format()
    bad_indptr = mx.nd.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([0, 1]),
                                          np.array([0, 2, 1])), shape=(2, 2))
    with pytest.raises(MXNetError, match="non-decreasing"):
        bad_indptr.check_format()
    bad_index = mx.nd.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([0, 5]),
                                         np.array([0, 1, 2])), shape=(2, 3))
    with pytest.raises(MXNetError, match="out of range"):
        bad_index.check_format()
    unsorted = mx.nd.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([1, 0]),
                                        np.array([0, 2, 2])), shape=(2, 3))
    unsorted.check_format(full_check=False)
    with pytest.raises(MXNetError, match="increasing"):
        unsorted.check_format(full_check=True)
    bad_end = mx.nd.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([0, 1]),
                                       np.array([0, 1, 1])), shape=(2, 3))
    with pytest.raises(MXNetError, match="indptr"):
        bad_end.check_format()
    rsp_bad = mx.nd.sparse.row_sparse_array((np.ones((2, 2)), np.array([1, 7])), shape=(3, 2))
    with pytest.raises(MXNetError, match="out of range"):
        rsp_bad.check_format()
    rsp_unsorted = mx.nd.sparse.row_sparse_array((np.ones((2, 2)), np.array([2, 1])), shape=(3, 2))
    with pytest.raises(MXNetError, match="increasing"):
        rsp_unsorted.check_format()


def test_constructor_errors():
    with pytest.raises(ValueError):
        mx.nd.sparse.row_sparse_array((np.ones((2, 3)), np.array([0, 1])), shape=(4, 2))
    with pytest.raises(ValueError):
        mx.nd.sparse.csr_matrix((np.ones(2), np.array([0, 1]), np.array([0, 2])), shape=(2, 2, 2))
    with pytest.raises(ValueError):
        mx.nd.ones((2, 3, 4)).tostype("csr")
    with pytest.raises(ValueError, match="cast_storage: csr needs a 2-D input"):
        mx.nd.cast_storage(mx.nd.ones((2, 3, 4)), stype="csr")


def test_dense_views_of_sparse_are_errors():
    a = mx.nd.sparse.zeros("csr", (2, 3))
    with pytest.raises(NotImplementedError):
        a.reshape((3, 2))
    with pytest.raises(ValueError):
        a[0:1] = 1


def test_save_load_round_trip(tmp_path):
    rng = np.random.RandomState(3)
    dense = _random_sparse_dense(rng, (4, 5))
    arrays = {"c": mx.nd.array(dense).tostype("csr"),
              "r": mx.nd.array(dense, dtype="float64").tostype("row_sparse"),
              "d": mx.nd.array(dense),
              "z": mx.nd.sparse.zeros("row_sparse", (3, 2, 2))}
    fname = str(tmp_path / "sp.params")
    mx.nd.save(fname, arrays)
    back = mx.nd.load(fname)
    assert set(back) == set(arrays)
    for k, v in arrays.items():
        assert back[k].stype == v.stype and back[k].dtype == v.dtype and back[k].shape == v.shape
        np.testing.assert_array_equal(back[k].asnumpy(), v.asnumpy())
    np.testing.assert_array_equal(back["c"].indptr.asnumpy(), arrays["c"].indptr.asnumpy())


def test_pickle():
    dense = np.array([[0, 1], [2, 0], [0, 0]], dtype="float32")
    for stype in ("csr", "row_sparse"):
        a = mx.nd.array(dense).tostype(stype)
        b = pickle.loads(pickle.dumps(a))
        assert type(b) is type(a)
        np.testing.assert_array_equal(b.asnumpy(), dense)
        np.testing.assert_array_equal(b.indices.asnumpy(), a.indices.asnumpy())


def test_load_mx191_sparse_file():
    loaded = mx.nd.load(os.path.join(DATA, "sparse.params"))
    expected = np.load(os.path.join(DATA, "sparse_expected.npz"))
    stypes = {"csr_f32": "csr", "csr_f64_i32": "csr", "csr_empty": "csr", "rsp_f64": "row_sparse",
              "rsp_3d": "row_sparse", "rsp_empty": "row_sparse", "dense": "default"}
    for name, stype in stypes.items():
        arr = loaded[name]
        assert arr.stype == stype, name
        want = expected[name]
        assert arr.dtype == want.dtype, name
        np.testing.assert_array_equal(arr.asnumpy(), want)
        if stype != "default":
            arr.check_format()
            np.testing.assert_array_equal(arr.data.asnumpy(), expected[name + ".data"])
            np.testing.assert_array_equal(arr.indices.asnumpy(), expected[name + ".indices"])
            if stype == "csr":
                np.testing.assert_array_equal(arr.indptr.asnumpy(), expected[name + ".indptr"])


def test_our_sparse_file_byte_identical_to_mx191(tmp_path):
    """Re-saving what 1.9.1 wrote gives the same bytes (same layout, aux order, dtypes)."""
    src = os.path.join(DATA, "sparse.params")
    loaded = mx.nd.load(src)  # a dict in file order
    out = str(tmp_path / "again.params")
    mx.nd.save(out, loaded)
    with open(src, "rb") as f:
        ref = f.read()
    with open(out, "rb") as f:
        ours = f.read()
    assert ours == ref


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_mx191_loads_our_sparse_file(tmp_path):
    mx191_oracle.check_reference()
    rng = np.random.RandomState(4)
    dense = _random_sparse_dense(rng, (5, 3))
    fname = str(tmp_path / "ours.params")
    mx.nd.save(fname, {"c": mx.nd.array(dense).tostype("csr"),
                       "r": mx.nd.array(dense, dtype="float64").tostype("row_sparse")})
    script = tmp_path / "check.py"
    script.write_text(
        "import sys, numpy as np, mxnet as mx\n"
        "d = mx.nd.load(sys.argv[1])\n"
        "assert d['c'].stype == 'csr' and d['r'].stype == 'row_sparse'\n"
        "d['c'].check_format(); d['r'].check_format()\n"
        "np.save(sys.argv[2], d['c'].asnumpy()); np.save(sys.argv[3], d['r'].asnumpy())\n"
        "print(d['r'].dtype)\n")
    c_out, r_out = str(tmp_path / "c.npy"), str(tmp_path / "r.npy")
    out = mx191_oracle.run([script, fname, c_out, r_out], ours=False, output=True).decode()
    assert "float64" in out
    np.testing.assert_array_equal(np.load(c_out), dense)
    np.testing.assert_array_equal(np.load(r_out), dense.astype("float64"))


@pytest.mark.parametrize("stype", ["csr", "row_sparse"])
def test_rand_sparse_ndarray(stype):
    from mxnet.test_utils import rand_sparse_ndarray, rand_ndarray
    np.random.seed(5)
    arr, parts = rand_sparse_ndarray((6, 4), stype, density=0.5, dtype="float64")
    assert arr.stype == stype and arr.dtype == np.float64 and arr.shape == (6, 4)
    arr.check_format()
    np.testing.assert_array_equal(arr.data.asnumpy(), parts[0])
    np.testing.assert_array_equal(arr.indices.asnumpy(), parts[1])
    dense = arr.asnumpy()
    if stype == "csr":
        np.testing.assert_array_equal(arr.indptr.asnumpy(), parts[2])
        assert np.count_nonzero(dense) == parts[0].size
    else:
        assert sorted(set(np.nonzero(dense)[0])) == list(parts[1])
    assert rand_ndarray((3, 5), stype, density=0.3).stype == stype
    shuffled, sp = rand_sparse_ndarray((5, 6), "csr", density=0.9, shuffle_csr_indices=True) \
        if stype == "csr" else (None, None)
    if shuffled is not None:
        shuffled.check_format(full_check=False)
        # same values as the dense matrix they describe
        want = np.zeros((5, 6), dtype=np.float32)
        for r in range(5):
            for k in range(sp[2][r], sp[2][r + 1]):
                want[r, sp[1][k]] = sp[0][k]
        np.testing.assert_array_equal(shuffled.asnumpy(), want)


def test_malformed_arrays_raise_instead_of_crashing():
    bad_csr = mx.nd.sparse.csr_matrix((np.array([1.0, 2.0]), np.array([0, 9]),
                                       np.array([0, 1, 2])), shape=(2, 3))
    bad_ptr = mx.nd.sparse.csr_matrix((np.array([1.0]), np.array([0]), np.array([0, 5, 1])),
                                      shape=(2, 3))
    bad_rsp = mx.nd.sparse.row_sparse_array((np.ones((2, 2)), np.array([0, 9])), shape=(3, 2))
    for arr in (bad_csr, bad_ptr, bad_rsp):
        with pytest.raises(MXNetError, match="out of range|indptr"):
            arr.asnumpy()
        with pytest.raises(MXNetError):
            mx.nd.abs(arr).wait_to_read()
        with pytest.raises(MXNetError):
            mx.nd.exp(arr).asnumpy()
    with pytest.raises(MXNetError):
        mx.nd.dot(bad_csr, mx.nd.ones((3, 2))).wait_to_read()
    w = mx.nd.ones((3, 2))
    with pytest.raises(MXNetError):
        mx.nd.sgd_update(w, bad_rsp, lr=0.1, out=w).wait_to_read()
    with pytest.raises(MXNetError):
        (bad_rsp + bad_rsp).wait_to_read()
