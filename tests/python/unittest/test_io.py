"""mx.io: NDArrayIter / ResizeIter / PrefetchingIter, and the C++ MNISTIter / CSVIter through
the C API. Expected values come from NumPy (the idx files decoded independently) and from
MXNet 1.9.1 runs (quoted where used)."""
import gzip
import os
import struct
import threading

import numpy as np
import pytest

import mxnet as mx

from common import REPO, run_python_script

MNIST = os.path.join(REPO, "data", "mnist-5k")


def _idx_numpy(name):
    """Decode an idx(.gz) file with NumPy only (the oracle for MNISTIter)."""
    with gzip.open(os.path.join(MNIST, name + ".gz"), "rb") as f:
        raw = f.read()
    magic, n = struct.unpack(">II", raw[:8])
    if magic == 2051:
        rows, cols = struct.unpack(">II", raw[8:16])
        return np.frombuffer(raw, np.uint8, offset=16).reshape(n, rows, cols)
    return np.frombuffer(raw, np.uint8, offset=8)


@pytest.fixture(scope="module")
def mnist_plain(tmp_path_factory):
    """The bundled test set as plain (un-gzipped) idx files, as real MXNet reads them."""
    d = tmp_path_factory.mktemp("mnist")
    for name in ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
        with gzip.open(os.path.join(MNIST, name + ".gz"), "rb") as f:
            (d / name).write_bytes(f.read())
    return str(d)


# ---------------------------------------------------------------------------------------------
# DataDesc / DataBatch

def test_datadesc():
    d = mx.io.DataDesc("data", (2, 3), np.float64, "NTC")
    assert d.name == "data" and d.shape == (2, 3) and d.dtype == np.float64 and d.layout == "NTC"
    assert tuple(d) == ("data", (2, 3))
    assert mx.io.DataDesc.get_batch_axis("TNC") == 1
    assert mx.io.DataDesc.get_batch_axis(None) == 0
    lst = mx.io.DataDesc.get_list([("a", (1,)), ("b", (2,))], [("a", np.int32), ("b", np.float16)])
    assert [x.dtype for x in lst] == [np.int32, np.float16]
    assert mx.io.DataDesc.get_list([("a", (1,))], None)[0].dtype == np.float32
    assert repr(mx.io.DataDesc("x", (1, 2))) == "DataDesc[x,(1, 2),<class 'numpy.float32'>,NCHW]"


def test_databatch_checks_types():
    b = mx.io.DataBatch([mx.nd.zeros((2, 3))], [mx.nd.zeros((2,))], pad=1)
    assert "data shapes: [(2, 3)]" in str(b)
    with pytest.raises(TypeError):
        mx.io.DataBatch(mx.nd.zeros((2, 3)))


# ---------------------------------------------------------------------------------------------
# NDArrayIter (expected batches from MXNet 1.9.1: 10 samples, batch_size 4)

def _labels(it):
    return [(b.label[0].asnumpy().astype(int).tolist(), b.pad) for b in it]


def test_ndarrayiter_pad():
    d = np.arange(20).reshape(10, 2)
    it = mx.io.NDArrayIter(d, np.arange(10), batch_size=4, last_batch_handle="pad")
    expected = [([0, 1, 2, 3], 0), ([4, 5, 6, 7], 0), ([8, 9, 0, 1], 2)]
    for _ in range(2):
        assert _labels(it) == expected
        it.reset()
    it.reset()
    batches = list(it)
    np.testing.assert_array_equal(batches[2].data[0].asnumpy(), d[[8, 9, 0, 1]])
    assert batches[0].data[0].dtype == np.float32
    assert it.provide_data[0].shape == (4, 2) and it.provide_label[0].shape == (4,)


def test_ndarrayiter_discard():
    it = mx.io.NDArrayIter(np.arange(20).reshape(10, 2), np.arange(10), batch_size=4,
                           last_batch_handle="discard")
    for _ in range(2):
        assert _labels(it) == [([0, 1, 2, 3], 0), ([4, 5, 6, 7], 0)]
        it.reset()


def test_ndarrayiter_roll_over():
    it = mx.io.NDArrayIter(np.arange(20).reshape(10, 2), np.arange(10), batch_size=4,
                           last_batch_handle="roll_over")
    assert _labels(it) == [([0, 1, 2, 3], 0), ([4, 5, 6, 7], 0)]
    it.reset()
    assert _labels(it) == [([8, 9, 0, 1], 2), ([2, 3, 4, 5], 0), ([6, 7, 8, 9], 0)]
    it.reset()
    assert _labels(it) == [([0, 1, 2, 3], 0), ([4, 5, 6, 7], 0)]
    it.hard_reset()
    assert _labels(it) == [([0, 1, 2, 3], 0), ([4, 5, 6, 7], 0)]


def test_ndarrayiter_names_dict_list():
    d = np.arange(20).reshape(10, 2)
    it = mx.io.NDArrayIter({"b": d, "a": d * 2}, {"lab": np.arange(10)}, batch_size=3)
    assert [x.name for x in it.provide_data] == ["a", "b"]  # sorted, as MXNet
    assert [x.name for x in it.provide_label] == ["lab"]
    batch = next(it)
    np.testing.assert_array_equal(batch.data[0].asnumpy(), d[:3] * 2)
    it = mx.io.NDArrayIter([d, d], [np.arange(10)], batch_size=3)
    assert [x.name for x in it.provide_data] == ["_0_data", "_1_data"]
    assert [x.name for x in it.provide_label] == ["softmax_label"]
    it = mx.io.NDArrayIter(mx.nd.array(d), batch_size=5, data_name="x")
    assert it.provide_data[0].name == "x" and it.provide_label == []
    assert [b.label for b in it] == [[], []]


def test_ndarrayiter_shuffle_is_seeded():
    d = np.arange(20).reshape(10, 2)
    np.random.seed(7)
    it = mx.io.NDArrayIter(d, np.arange(10), batch_size=5, shuffle=True)
    first = [b.label[0].asnumpy().astype(int).tolist() for b in it]
    # MXNet 1.9.1 gives this order for np.random.seed(7).
    assert first == [[8, 5, 0, 2, 1], [9, 7, 3, 6, 4]]
    np.random.seed(7)
    it2 = mx.io.NDArrayIter(d, np.arange(10), batch_size=5, shuffle=True)
    assert [b.label[0].asnumpy().astype(int).tolist() for b in it2] == first
    # Data rows follow their labels.
    it2.reset()
    for b in it2:
        lab = b.label[0].asnumpy().astype(int)
        np.testing.assert_array_equal(b.data[0].asnumpy(), d[lab])
    assert sorted(sum(first, [])) == list(range(10))


def test_ndarrayiter_errors():
    with pytest.raises(ValueError):
        mx.io.NDArrayIter(np.zeros((4, 2)), batch_size=2, last_batch_handle="bogus")
    with pytest.raises(ValueError):
        mx.io.NDArrayIter(np.zeros((4, 2)), np.zeros(3), batch_size=2)
    with pytest.raises(TypeError):
        mx.io.NDArrayIter(object(), batch_size=2)
    with pytest.raises(ValueError):
        mx.io.NDArrayIter(np.zeros((4, 2)), batch_size=0)


def test_resize_iter():
    base = mx.io.NDArrayIter(np.arange(10).reshape(5, 2), np.arange(5), batch_size=2,
                             last_batch_handle="discard")
    it = mx.io.ResizeIter(base, 5)
    labels = [b.label[0].asnumpy().astype(int).tolist() for b in it]
    assert labels == [[0, 1], [2, 3], [0, 1], [2, 3], [0, 1]]
    it.reset()
    assert len(list(it)) == 5
    assert it.provide_data == base.provide_data


def test_prefetching_iter_joins_and_renames():
    a = mx.io.NDArrayIter(np.arange(12).reshape(6, 2), np.arange(6), batch_size=2)
    b = mx.io.NDArrayIter(np.arange(12).reshape(6, 2) * 10, np.arange(6) * 10, batch_size=2)
    it = mx.io.PrefetchingIter([a, b], rename_data=[{"data": "x"}, {"data": "y"}])
    assert [d.name for d in it.provide_data] == ["x", "y"]
    for _ in range(2):
        batches = list(it)
        assert len(batches) == 3
        for i, batch in enumerate(batches):
            assert len(batch.data) == 2 and len(batch.label) == 2
            np.testing.assert_array_equal(batch.data[1].asnumpy(),
                                          batch.data[0].asnumpy() * 10)
            assert batch.label[0].asnumpy().tolist() == [2 * i, 2 * i + 1]
        it.reset()
    it.close()


def test_prefetching_iter_propagates_errors():
    class Broken(mx.io.DataIter):
        provide_data = [mx.io.DataDesc("data", (2, 2))]
        provide_label = []

        def next(self):
            raise RuntimeError("broken inner iterator")

    it = mx.io.PrefetchingIter(Broken())
    with pytest.raises(RuntimeError, match="broken inner"):
        next(it)
    it.close()


# ---------------------------------------------------------------------------------------------
# C++ iterators

def test_iterators_listed():
    assert callable(mx.io.MNISTIter) and callable(mx.io.CSVIter)
    assert "batch_size" in mx.io.MNISTIter.__doc__ and "data_csv" in mx.io.CSVIter.__doc__


def test_mnist_iter_matches_numpy(mnist_plain):
    images = _idx_numpy("t10k-images-idx3-ubyte")
    labels = _idx_numpy("t10k-labels-idx1-ubyte")
    it = mx.io.MNISTIter(image=os.path.join(mnist_plain, "t10k-images-idx3-ubyte"),
                         label=os.path.join(mnist_plain, "t10k-labels-idx1-ubyte"),
                         batch_size=300, shuffle=False, silent=True)
    assert it.provide_data[0].shape == (300, 1, 28, 28)
    assert it.provide_label[0].shape == (300,)
    for _ in range(2):
        batches = list(it)
        assert len(batches) == 3  # 1000 images: the incomplete 4th batch is dropped (MXNet)
        for i, b in enumerate(batches):
            assert b.pad == 0
            np.testing.assert_array_equal(b.label[0].asnumpy(), labels[i * 300:(i + 1) * 300])
            np.testing.assert_array_equal(
                b.data[0].asnumpy(),
                images[i * 300:(i + 1) * 300, None].astype(np.float32) / 256)
        it.reset()
    # MXNet 1.9.1's first labels of this file.
    it.reset()
    assert next(it).label[0].asnumpy()[:10].tolist() == [6, 0, 3, 3, 1, 5, 4, 8, 6, 7]


def test_mnist_iter_gzip_flat_shuffle_parts():
    images = _idx_numpy("t10k-images-idx3-ubyte").reshape(1000, -1)
    labels = _idx_numpy("t10k-labels-idx1-ubyte")
    kw = dict(image=os.path.join(MNIST, "t10k-images-idx3-ubyte.gz"),
              label=os.path.join(MNIST, "t10k-labels-idx1-ubyte.gz"), silent=True)

    def epoch(it):
        return [(b.data[0].asnumpy(), b.label[0].asnumpy(), b.index) for b in it]

    a = epoch(mx.io.MNISTIter(batch_size=100, shuffle=True, seed=5, flat=True, **kw))
    b = epoch(mx.io.MNISTIter(batch_size=100, shuffle=True, seed=5, flat=True, **kw))
    c = epoch(mx.io.MNISTIter(batch_size=100, shuffle=True, seed=6, flat=True, **kw))
    assert len(a) == 10 and a[0][0].shape == (100, 784)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x[0], y[0])
        np.testing.assert_array_equal(x[1], y[1])
    assert not np.array_equal(a[0][1], c[0][1])
    order = np.concatenate([x[2] for x in a]).astype(np.int64)
    assert sorted(order.tolist()) == list(range(1000))  # a permutation
    for data, lab, index in a:  # the rows are the images the indices name
        np.testing.assert_array_equal(data, images[index.astype(np.int64)] / np.float32(256))
        np.testing.assert_array_equal(lab, labels[index.astype(np.int64)])
    # Parts: MXNet 1.9.1 gives part 1 of 3 the images [333, 666): 47 batches of 7.
    part = epoch(mx.io.MNISTIter(batch_size=7, shuffle=False, num_parts=3, part_index=1,
                                 flat=True, **kw))
    assert len(part) == 47
    np.testing.assert_array_equal(part[0][2], np.arange(333, 340))
    np.testing.assert_array_equal(part[0][1], labels[333:340])


def test_mnist_iter_shuffle_order_matches_mxnet191():
    kw = dict(image=os.path.join(MNIST, "t10k-images-idx3-ubyte.gz"),
              label=os.path.join(MNIST, "t10k-labels-idx1-ubyte.gz"), silent=True, flat=True,
              batch_size=7, shuffle=True)
    images = _idx_numpy("t10k-images-idx3-ubyte").reshape(1000, -1)
    # Source images of MXNet 1.9.1's first batch (found by matching its output rows).
    for seed, expected in ((3, [474, 631, 489, 144, 715, 436, 662]),
                           (0, [442, 182, 578, 333, 528, 330, 678])):
        b = next(mx.io.MNISTIter(seed=seed, **kw))
        np.testing.assert_array_equal(b.data[0].asnumpy(), images[expected] / np.float32(256))


def test_mnist_iter_dtype():
    it = mx.io.MNISTIter(image=os.path.join(MNIST, "t10k-images-idx3-ubyte.gz"),
                         label=os.path.join(MNIST, "t10k-labels-idx1-ubyte.gz"),
                         batch_size=10, shuffle=False, silent=True, dtype="float64")
    b = next(it)
    assert b.data[0].dtype == np.float64 and b.label[0].dtype == np.float64


def test_mnist_iter_errors(tmp_path, mnist_plain):
    img = os.path.join(mnist_plain, "t10k-images-idx3-ubyte")
    lbl = os.path.join(mnist_plain, "t10k-labels-idx1-ubyte")
    with pytest.raises(mx.MXNetError, match="cannot be opened"):
        mx.io.MNISTIter(image=str(tmp_path / "nope"), label=lbl, silent=True)
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    with pytest.raises(mx.MXNetError, match="empty"):
        mx.io.MNISTIter(image=str(empty), label=lbl, silent=True)
    raw = open(img, "rb").read()
    short = tmp_path / "short"
    short.write_bytes(raw[:10])
    with pytest.raises(mx.MXNetError, match="truncated"):
        mx.io.MNISTIter(image=str(short), label=lbl, silent=True)
    cut = tmp_path / "cut"
    cut.write_bytes(raw[:5000])
    with pytest.raises(mx.MXNetError, match="truncated"):
        mx.io.MNISTIter(image=str(cut), label=lbl, silent=True)
    with pytest.raises(mx.MXNetError, match="bad magic"):
        mx.io.MNISTIter(image=lbl, label=lbl, silent=True)  # a label file as images
    with pytest.raises(mx.MXNetError, match="has 1000 images but"):
        lshort = tmp_path / "lshort"
        lshort.write_bytes(struct.pack(">II", 2049, 3) + b"\1\2\3")
        mx.io.MNISTIter(image=img, label=str(lshort), silent=True)
    bad_gz = tmp_path / "bad.gz"
    bad_gz.write_bytes(gzip.compress(raw)[:3000])
    with pytest.raises(mx.MXNetError, match="corrupt or truncated|truncated"):
        mx.io.MNISTIter(image=str(bad_gz), label=lbl, silent=True)
    with pytest.raises(mx.MXNetError, match="bogus"):
        mx.io.MNISTIter(image=img, label=lbl, silent=True, bogus=1)
    with pytest.raises(ValueError, match="part_index"):
        mx.io.MNISTIter(image=img, label=lbl, silent=True, num_parts=2, part_index=2)
    with pytest.raises(ValueError, match="larger than the 1000 images"):
        mx.io.MNISTIter(image=img, label=lbl, silent=True, batch_size=1001)
    with pytest.raises(TypeError):
        mx.io.MNISTIter("positional")


def _write(path, text):
    path.write_text(text)
    return str(path)


def test_csv_iter_round_batch(tmp_path):
    data = _write(tmp_path / "d.csv", "1,2,3\n2,3,4\n3,4,5\n4,5,6\n")
    label = _write(tmp_path / "l.csv", "1\n2\n3\n4\n")
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), label_csv=label, batch_size=3)
    assert it.provide_data[0].shape == (3, 3) and it.provide_label[0].shape == (3,)
    got = []
    for _ in range(3):
        got.append([(b.data[0].asnumpy()[:, 0].tolist(), b.label[0].asnumpy().tolist(), b.pad,
                     b.index.tolist()) for b in it])
        it.reset()
    # MXNet 1.9.1 output (the overflow rows are skipped in the next epoch).
    assert got == [
        [([1, 2, 3], [1, 2, 3], 0, [0, 1, 2]), ([4, 1, 2], [4, 1, 2], 2, [3, 0, 1])],
        [([3, 4, 1], [3, 4, 1], 1, [2, 3, 0])],
        [([2, 3, 4], [2, 3, 4], 0, [1, 2, 3])],
    ]


def test_csv_iter_no_round_batch(tmp_path):
    data = _write(tmp_path / "d.csv", "1,2,3\n2,3,4\n3,4,5\n4,5,6\n")
    label = _write(tmp_path / "l.csv", "1\n2\n3\n4\n")
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), label_csv=label, batch_size=3,
                       round_batch=False)
    for _ in range(2):
        got = [(b.data[0].asnumpy().tolist(), b.pad) for b in it]
        # MXNet 1.9.1: padding slots keep the previous batch's rows.
        assert got == [([[1, 2, 3], [2, 3, 4], [3, 4, 5]], 0),
                       ([[4, 5, 6], [2, 3, 4], [3, 4, 5]], 2)]
        it.reset()


def test_csv_iter_shapes_dtype_dir(tmp_path):
    data = _write(tmp_path / "d.csv", "1,2,3,4,5,6\n7,8,9,10,11,12\n")
    it = mx.io.CSVIter(data_csv=data, data_shape=(3, 2), batch_size=2, dtype="int32")
    b = next(it)
    assert b.data[0].dtype == np.int32 and b.label[0].dtype == np.int32
    np.testing.assert_array_equal(b.data[0].asnumpy(), np.arange(1, 13).reshape(2, 3, 2))
    np.testing.assert_array_equal(b.label[0].asnumpy(), [0, 0])  # no label file: zeros
    lab = _write(tmp_path / "l.csv", "1,2\n3,4\n")
    it = mx.io.CSVIter(data_csv=data, data_shape=(6,), label_csv=lab, label_shape=(2,),
                       batch_size=2)
    assert next(it).label[0].shape == (2, 2)
    d = tmp_path / "dir"
    d.mkdir()
    _write(d / "a.csv", "1,1\n2,2\n")
    _write(d / "b.csv", "3,3\n")
    it = mx.io.CSVIter(data_csv=str(d), data_shape=(2,), batch_size=3)
    np.testing.assert_array_equal(next(it).data[0].asnumpy()[:, 0], [1, 2, 3])


def test_csv_iter_errors(tmp_path):
    data = _write(tmp_path / "d.csv", "1,2,3\n2,3,4\n")
    with pytest.raises(mx.MXNetError, match="does not match"):
        mx.io.CSVIter(data_csv=data, data_shape=(4,), batch_size=2)
    with pytest.raises(mx.MXNetError, match="cannot be opened"):
        mx.io.CSVIter(data_csv=str(tmp_path / "missing.csv"), data_shape=(3,), batch_size=2)
    with pytest.raises(mx.MXNetError, match="empty"):
        mx.io.CSVIter(data_csv=_write(tmp_path / "e.csv", ""), data_shape=(3,), batch_size=2)
    with pytest.raises(mx.MXNetError, match="cannot parse"):
        mx.io.CSVIter(data_csv=_write(tmp_path / "x.csv", "1,a,3\n"), data_shape=(3,),
                      batch_size=1)
    with pytest.raises(mx.MXNetError, match="label_csv"):
        mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=2,
                      label_csv=_write(tmp_path / "l.csv", "1\n"))
    with pytest.raises(mx.MXNetError, match="batch_size"):
        mx.io.CSVIter(data_csv=data, data_shape=(3,))  # required
    with pytest.raises(mx.MXNetError, match="larger than"):
        it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=5)


def test_prefetch_threads_do_not_hang_at_exit(tmp_path):
    """Iterators alive (mid-epoch, with full prefetch queues) when the interpreter exits."""
    script = tmp_path / "exit.py"
    script.write_text(
        "import os, mxnet as mx\n"
        "m = os.path.join(%r, 'data', 'mnist-5k')\n"
        "it = mx.io.MNISTIter(image=os.path.join(m, 'train-images-idx3-ubyte.gz'),\n"
        "    label=os.path.join(m, 'train-labels-idx1-ubyte.gz'), batch_size=10, silent=True)\n"
        "next(it)\n"
        "p = mx.io.PrefetchingIter(mx.io.NDArrayIter(mx.nd.zeros((10, 2)), batch_size=2))\n"
        "next(p)\n"
        "keep = [it, p]\n"
        "print('done')\n" % REPO)
    res = run_python_script(script, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "done"


def test_mxdataiter_free_while_prefetching():
    """Deleting an iterator whose producer is busy must join it cleanly."""
    for _ in range(5):
        it = mx.io.MNISTIter(image=os.path.join(MNIST, "t10k-images-idx3-ubyte.gz"),
                             label=os.path.join(MNIST, "t10k-labels-idx1-ubyte.gz"),
                             batch_size=1, silent=True, prefetch_buffer=2)
        next(it)
        it.reset()
        del it
    assert threading.active_count() >= 1


def test_prefetching_and_resize_over_mnist_iter():
    labels = _idx_numpy("t10k-labels-idx1-ubyte")
    kw = dict(image=os.path.join(MNIST, "t10k-images-idx3-ubyte.gz"),
              label=os.path.join(MNIST, "t10k-labels-idx1-ubyte.gz"), silent=True,
              shuffle=False, batch_size=250)
    it = mx.io.PrefetchingIter(mx.io.MNISTIter(**kw))
    for _ in range(2):
        got = np.concatenate([b.label[0].asnumpy() for b in it])
        np.testing.assert_array_equal(got, labels)
        it.reset()
    it.close()
    resized = mx.io.ResizeIter(mx.io.MNISTIter(**kw), 6)
    got = np.concatenate([b.label[0].asnumpy() for b in resized])
    np.testing.assert_array_equal(got, np.concatenate([labels, labels[:500]]))
