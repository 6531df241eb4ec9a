"""Gluon DataLoader: batches of a Dataset, in-process or with worker threads."""
import io
import multiprocessing
import pickle
from multiprocessing.pool import ThreadPool
from multiprocessing.reduction import ForkingPickler

import numpy as np

from ... import ndarray as nd
from ... import context
from .sampler import SequentialSampler, RandomSampler, BatchSampler
from ...util import set_np
from ...util import is_np_array

__all__ = ["DataLoader", "default_batchify_fn"]


def default_batchify_fn(data):
    """Stacks a list of samples: NDArrays with nd.stack, tuples element-wise, anything else
    through numpy (keeping its dtype)."""
    if isinstance(data[0], nd.NDArray):
        return _as_np_if_np_mode(nd.stack(*data))
    if isinstance(data[0], tuple):
        data = zip(*data)
        return [default_batchify_fn(i) for i in data]
    data = np.asarray(data)
    return _as_np_if_np_mode(nd.array(data, dtype=data.dtype))


def _as_np_if_np_mode(batch):
    """Batches are mx.np arrays under NumPy array semantics (npx.set_np())."""
    return batch.as_np_ndarray() if is_np_array() else batch


default_mp_batchify_fn = default_batchify_fn


class DataLoader(object):
    """Iterates over `dataset` in batches.

    batch_size/shuffle/sampler/last_batch ('keep', 'discard', 'rollover') build a BatchSampler
    unless `batch_sampler` is given. num_workers > 0 loads batches in that many threads.
    """

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None,
                 batch_sampler=None, batchify_fn=None, num_workers=0, pin_memory=False,
                 pin_device_id=0, prefetch=None, thread_pool=False, timeout=120,
                 try_nopython=None):
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._timeout = timeout
        self._worker_pool = None
        if batch_sampler is None:
            if batch_size is None:
                raise ValueError("batch_size must be specified unless batch_sampler is "
                                 "specified")
            if sampler is None:
                if shuffle:
                    sampler = RandomSampler(len(dataset))
                else:
                    sampler = SequentialSampler(len(dataset))
            elif shuffle:
                raise ValueError("shuffle must not be specified if sampler is specified")
            batch_sampler = BatchSampler(sampler, batch_size,
                                         last_batch if last_batch else "keep")
        elif batch_size is not None or shuffle or sampler is not None or \
                last_batch is not None:
            raise ValueError("batch_size, shuffle, sampler and last_batch must not be "
                             "specified if batch_sampler is specified.")
        self._batch_sampler = batch_sampler
        self._num_workers = num_workers if num_workers >= 0 else 0
        self._prefetch = max(0, int(prefetch) if prefetch is not None
                             else 2 * self._num_workers)
        self._batchify_fn = batchify_fn if batchify_fn is not None else default_batchify_fn

    def _load(self, batch):
        ret = self._batchify_fn([self._dataset[idx] for idx in batch])
        if self._pin_memory:
            ret = _as_in_context(ret, context.cpu_pinned(self._pin_device_id))
        return ret

    def __iter__(self):
        if self._num_workers == 0:
            return (self._load(batch) for batch in self._batch_sampler)
        if self._worker_pool is None:
            self._worker_pool = ThreadPool(self._num_workers)
        return _MultiWorkerIter(self._worker_pool, self._batchify_fn, self._batch_sampler,
                                pin_memory=self._pin_memory, pin_device_id=self._pin_device_id,
                                worker_fn=_thread_worker_fn, prefetch=self._prefetch,
                                dataset=self._dataset, data_loader=self,
                                timeout=self._timeout)

    def __del__(self):
        if getattr(self, '_worker_pool', None) is not None:
            self._worker_pool.terminate()
            self._worker_pool = None

    def __len__(self):
        return len(self._batch_sampler)


def _as_in_context(data, ctx):
    if isinstance(data, nd.NDArray):
        return data.as_in_context(ctx)
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data


def _thread_worker_fn(samples, batchify_fn, dataset):
    """A batch made in a worker thread: the dataset is shared, the batch returned as is."""
    return batchify_fn([dataset[i] for i in samples])


# The dataset a worker process reads (set by _worker_initializer in each process).
_worker_dataset = None


def _worker_initializer(dataset, active_shape=False, active_array=False):
    """Initializer of a worker process: remembers `dataset` and takes on the parent's NumPy
    shape / array semantics."""
    global _worker_dataset  # pylint: disable=global-statement
    set_np(shape=active_shape, array=active_array)
    _worker_dataset = dataset


def _worker_fn(samples, batchify_fn, dataset=None):  # pylint: disable=unused-argument
    """A batch made in a worker process from its dataset, returned pickled (the parent
    unpickles it; _MultiWorkerIter does when it has no dataset)."""
    batch = batchify_fn([_worker_dataset[i] for i in samples])
    buf = io.BytesIO()
    ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump(batch)
    return buf.getvalue()


class _MultiWorkerIter(object):
    """Iterator over the batches of `batch_sampler` made by `worker_fn(samples, batchify_fn,
    dataset)` in `worker_pool`: up to `prefetch` batches are requested ahead and batches come
    back in order. Without a `dataset` the workers return pickled batches (_worker_fn)."""

    def __init__(self, worker_pool, batchify_fn, batch_sampler, pin_memory=False,
                 pin_device_id=0, worker_fn=_worker_fn, prefetch=0, dataset=None,
                 data_loader=None, timeout=120):
        self._worker_pool = worker_pool
        self._batchify_fn = batchify_fn
        self._batch_sampler = batch_sampler
        self._data_buffer = {}
        self._rcvd_idx = 0
        self._sent_idx = 0
        self._iter = iter(self._batch_sampler)
        self._worker_fn = worker_fn
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        self._dataset = dataset
        self._data_loader = data_loader   # keeps the loader (and its pool) alive
        self._timeout = timeout
        for _ in range(prefetch):
            self._push_next()

    def __len__(self):
        return len(self._batch_sampler)

    def _push_next(self):
        samples = next(self._iter, None)
        if samples is None:
            return
        self._data_buffer[self._sent_idx] = self._worker_pool.apply_async(
            self._worker_fn, (samples, self._batchify_fn, self._dataset))
        self._sent_idx += 1

    def __next__(self):
        self._push_next()
        if self._rcvd_idx == self._sent_idx:
            assert not self._data_buffer, 'Data buffer should be empty at this moment'
            raise StopIteration
        pending = self._data_buffer.pop(self._rcvd_idx)
        try:
            batch = pending.get(self._timeout)
        except multiprocessing.TimeoutError:
            raise RuntimeError('DataLoader worker timed out after %s seconds; the dataset may '
                               'be slow or a worker may have died' % self._timeout) from None
        if self._dataset is None:
            batch = pickle.loads(batch)
        if self._pin_memory:
            batch = _as_in_context(batch, context.cpu_pinned(self._pin_device_id))
        self._rcvd_idx += 1
        return batch

    def next(self):
        return self.__next__()

    def __iter__(self):
        return self


# MXNet 1.9.1's first multi-process loader and its queue and pickling helpers.
from .dataloader_v1 import (ConnectionWrapper, Queue, SimpleQueue, DataLoaderV1,  # noqa: E402,F401
                            worker_loop_v1, fetcher_loop_v1, reduce_ndarray, rebuild_ndarray,
                            reduce_np_ndarray, rebuild_np_ndarray)
