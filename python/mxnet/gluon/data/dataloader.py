"""Gluon DataLoader: batches of a Dataset, in-process or with worker threads."""
from multiprocessing.pool import ThreadPool

import numpy as np

from ... import ndarray as nd
from ... import context
from .sampler import SequentialSampler, RandomSampler, BatchSampler

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
    from ...util import is_np_array
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
        self._timeout = timeout
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
            ret = _as_in_context(ret, context.cpu_pinned())
        return ret

    def __iter__(self):
        if self._num_workers == 0:
            for batch in self._batch_sampler:
                yield self._load(batch)
            return
        pool = ThreadPool(self._num_workers)
        try:
            for ret in pool.imap(self._load, iter(self._batch_sampler)):
                yield ret
        finally:
            pool.terminate()

    def __len__(self):
        return len(self._batch_sampler)


def _as_in_context(data, ctx):
    if isinstance(data, nd.NDArray):
        return data.as_in_context(ctx)
    if isinstance(data, (list, tuple)):
        return [_as_in_context(d, ctx) for d in data]
    return data
