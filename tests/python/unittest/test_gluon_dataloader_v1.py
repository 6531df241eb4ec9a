"""DataLoaderV1 (worker processes with queues) and the dataloader's queue and pickling
helpers of MXNet 1.9.1."""
import io
import multiprocessing
import pickle
import threading

import numpy as onp
import pytest

import mxnet as mx
from mxnet.gluon.data import ArrayDataset
from mxnet.gluon.data import dataloader as dl


def _dataset(n=11):
    return ArrayDataset(onp.arange(2 * n, dtype='float32').reshape(n, 2), onp.arange(n))


@pytest.mark.parametrize('workers', [0, 1, 3])
def test_data_loader_v1_matches_data_loader(workers):
    ds = _dataset()
    expected = [(d.asnumpy(), l.asnumpy()) for d, l in
                mx.gluon.data.DataLoader(ds, batch_size=4, last_batch='keep')]
    loader = dl.DataLoaderV1(ds, batch_size=4, num_workers=workers)
    assert len(loader) == 3
    for _ in range(2):   # iterate twice: each pass starts its own workers
        got = [(d.asnumpy(), l.asnumpy()) for d, l in loader]
        assert len(got) == len(expected)
        for (gd, gl), (ed, el) in zip(got, expected):
            onp.testing.assert_array_equal(gd, ed)
            onp.testing.assert_array_equal(gl, el)
    with pytest.raises(ValueError):
        dl.DataLoaderV1(ds)
    with pytest.raises(ValueError):
        dl.DataLoaderV1(ds, batch_size=2, shuffle=True,
                        sampler=mx.gluon.data.SequentialSampler(3))


def test_reducers_round_trip():
    arr = mx.nd.array([[1.5, 2.0], [3.0, 4.0]], dtype='float64')
    rebuild, args = dl.reduce_ndarray(arr)
    back = rebuild(*args)
    assert back.dtype == onp.float64
    onp.testing.assert_array_equal(back.asnumpy(), arr.asnumpy())
    np_arr = mx.np.arange(4)
    rebuild, args = dl.reduce_np_ndarray(np_arr)
    assert isinstance(rebuild(*args), mx.np.ndarray)
    buf = io.BytesIO()
    dl.ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump({'x': arr})
    onp.testing.assert_array_equal(pickle.loads(buf.getvalue())['x'].asnumpy(), arr.asnumpy())


def test_queues_and_loops():
    queue = dl.Queue()
    queue.put((3, mx.nd.ones(2)))
    idx, value = queue.get(timeout=10)
    assert idx == 3 and value.asnumpy().tolist() == [1, 1]
    simple = dl.SimpleQueue()
    simple.put(mx.nd.arange(3))
    assert simple.get().asnumpy().tolist() == [0, 1, 2]
    left, right = multiprocessing.Pipe()
    wrapped = dl.ConnectionWrapper(left)
    wrapped.send([mx.nd.zeros(1)])
    assert dl.ConnectionWrapper(right).recv()[0].asnumpy().tolist() == [0]
    assert wrapped.poll() is False           # other attributes come from the connection
    keys, data = dl.Queue(), dl.Queue()
    keys.put((0, [0, 1]))
    keys.put((None, None))
    dl.worker_loop_v1(_dataset(), keys, data, dl.default_batchify_fn)
    idx, batch = data.get(timeout=10)
    assert idx == 0 and batch[1].asnumpy().tolist() == [0, 1]
    data.put((5, batch))
    data.put((None, None))
    buffer, lock = {}, threading.Lock()
    dl.fetcher_loop_v1(data, buffer, data_buffer_lock=lock)
    assert list(buffer) == [5] and buffer[5][0].context == mx.cpu()
