"""MXNet 1.9.1's first multi-process DataLoader (DataLoaderV1) and its pieces: worker
processes read (index, samples) keys from a queue and put (index, batch) on a data queue, a
fetcher thread moves the batches into a buffer, and the iterator hands them out in order.
Queues pickle with ForkingPickler, for which NDArrays are reduced by value.

Failures are errors in the caller, never a hang: an exception in a worker goes back with the
batch's index and is raised by the iterator (with the worker's traceback), and a worker that
dies (killed, or exiting) is noticed while the iterator waits."""
import io
import multiprocessing
import multiprocessing.queues
import pickle
import signal
import threading
import traceback
from multiprocessing.reduction import ForkingPickler

from ... import context
from ... import ndarray as nd
from .sampler import SequentialSampler, RandomSampler, BatchSampler

__all__ = ['ConnectionWrapper', 'Queue', 'SimpleQueue', 'DataLoaderV1', 'worker_loop_v1',
           'fetcher_loop_v1', 'reduce_ndarray', 'rebuild_ndarray', 'reduce_np_ndarray',
           'rebuild_np_ndarray']


def rebuild_ndarray(values, ctx=None):
    """The NDArray reduce_ndarray took apart (its values, on `ctx` or the CPU)."""
    return nd.array(values, ctx=ctx or context.cpu(), dtype=values.dtype)


def reduce_ndarray(data):
    """How ForkingPickler sends an NDArray to another process: by its values."""
    return rebuild_ndarray, (data.asnumpy(),)


def rebuild_np_ndarray(values, ctx=None):
    """The mx.np.ndarray reduce_np_ndarray took apart."""
    from ...numpy import array
    return array(values, dtype=values.dtype, ctx=ctx or context.cpu())


def reduce_np_ndarray(data):
    """How ForkingPickler sends an mx.np.ndarray to another process: by its values."""
    return rebuild_np_ndarray, (data.asnumpy(),)


def _register_reducers():
    from ...numpy import ndarray as np_ndarray
    ForkingPickler.register(nd.NDArray, reduce_ndarray)
    ForkingPickler.register(np_ndarray, reduce_np_ndarray)


class ConnectionWrapper(object):
    """A multiprocessing Connection whose send/recv pickle with ForkingPickler."""

    def __init__(self, conn):
        self._conn = conn

    def send(self, obj):
        buf = io.BytesIO()
        ForkingPickler(buf, pickle.HIGHEST_PROTOCOL).dump(obj)
        self.send_bytes(buf.getvalue())

    def recv(self):
        return pickle.loads(self.recv_bytes())

    def __getattr__(self, name):
        if '_conn' in self.__dict__:
            return getattr(self._conn, name)
        raise AttributeError("'{}' object has no attribute '{}'".format(
            type(self).__name__, name))


class Queue(multiprocessing.queues.Queue):
    """multiprocessing Queue that pickles with ForkingPickler."""

    def __init__(self, *args, **kwargs):
        super(Queue, self).__init__(*args, ctx=multiprocessing.get_context(), **kwargs)
        self._reader = ConnectionWrapper(self._reader)
        self._writer = ConnectionWrapper(self._writer)
        self._send = self._writer.send
        self._recv = self._reader.recv


class SimpleQueue(multiprocessing.queues.SimpleQueue):
    """multiprocessing SimpleQueue that pickles with ForkingPickler."""

    def __init__(self, *args, **kwargs):
        super(SimpleQueue, self).__init__(*args, ctx=multiprocessing.get_context(), **kwargs)
        self._reader = ConnectionWrapper(self._reader)
        self._writer = ConnectionWrapper(self._writer)
        self._send = self._writer.send
        self._recv = self._reader.recv


class _WorkerFailure(object):
    """What a worker sends instead of a batch when making it raised: the exception (when it
    pickles) and the worker's traceback text."""

    def __init__(self, exc):
        self.text = traceback.format_exc()
        try:
            pickle.dumps(exc)
            self.exc = exc
        except Exception:  # pylint: disable=broad-except
            self.exc = None

    def reraise(self):
        """Raise the worker's exception (a RuntimeError when it did not pickle), its cause
        being the worker's traceback."""
        cause = _WorkerTraceback('\n\nIn the DataLoader worker process:\n' + self.text)
        if self.exc is not None:
            raise self.exc from cause
        raise RuntimeError('DataLoader worker failed: %s' %
                           self.text.strip().splitlines()[-1]) from cause


class _WorkerTraceback(Exception):
    """Carries a worker's traceback text (shown as the cause of the re-raised exception)."""


def worker_loop_v1(dataset, key_queue, data_queue, batchify_fn):
    """A worker process: batchify the samples of each (index, samples) key until a None
    index arrives, putting (index, batch) on data_queue, or (index, failure) when making the
    batch raised."""
    while True:
        idx, samples = key_queue.get()
        if idx is None:
            break
        try:
            batch = batchify_fn([dataset[i] for i in samples])
        except Exception as exc:  # pylint: disable=broad-except  (goes to the caller)
            batch = _WorkerFailure(exc)
        data_queue.put((idx, batch))


def fetcher_loop_v1(data_queue, data_buffer, pin_memory=False, pin_device_id=0,
                    data_buffer_lock=None):
    """The fetcher thread: move (index, batch) pairs from data_queue into data_buffer (on the
    CPU, or in pinned memory) until a None index arrives."""
    from .dataloader import _as_in_context
    while True:
        idx, batch = data_queue.get()
        if idx is None:
            break
        if not isinstance(batch, _WorkerFailure):
            target = context.cpu_pinned(pin_device_id) if pin_memory else context.cpu()
            batch = _as_in_context(batch, target)
        if data_buffer_lock is not None:
            with data_buffer_lock:
                data_buffer[idx] = batch
                notify = getattr(data_buffer_lock, 'notify_all', None)   # a Condition
                if notify is not None:
                    notify()
        else:
            data_buffer[idx] = batch


class _MultiWorkerIterV1(object):
    """Batches of `batch_sampler` made by `num_workers` worker processes, in order."""

    def __init__(self, num_workers, dataset, batchify_fn, batch_sampler, pin_memory=False,
                 pin_device_id=0, worker_fn=worker_loop_v1):
        assert num_workers > 0, '_MultiWorkerIter is not for {} workers'.format(num_workers)
        self._num_workers = num_workers
        self._batch_sampler = batch_sampler
        self._key_queue = Queue()
        self._data_queue = Queue(2 * num_workers)
        self._data_buffer = {}
        self._data_buffer_lock = threading.Condition()
        self._rcvd_idx = 0
        self._sent_idx = 0
        self._iter = iter(batch_sampler)
        self._shutdown = False
        self._workers = []
        for _ in range(num_workers):
            worker = multiprocessing.Process(
                target=worker_fn,
                args=(dataset, self._key_queue, self._data_queue, batchify_fn))
            worker.daemon = True
            worker.start()
            self._workers.append(worker)
        self._fetcher = threading.Thread(
            target=fetcher_loop_v1,
            args=(self._data_queue, self._data_buffer, pin_memory, pin_device_id,
                  self._data_buffer_lock))
        self._fetcher.daemon = True
        self._fetcher.start()
        for _ in range(2 * num_workers):
            self._push_next()

    def __len__(self):
        return len(self._batch_sampler)

    def __del__(self):
        self.shutdown()

    def _push_next(self):
        samples = next(self._iter, None)
        if samples is None:
            return
        self._key_queue.put((self._sent_idx, samples))
        self._sent_idx += 1

    def __next__(self):
        assert not self._shutdown, 'call __next__ after shutdown is forbidden'
        if self._rcvd_idx == self._sent_idx:
            assert not self._data_buffer, 'Data buffer should be empty at this moment'
            self.shutdown()
            raise StopIteration
        with self._data_buffer_lock:
            while self._rcvd_idx not in self._data_buffer:
                # A worker that died holds its batch forever: look at them now and then.
                if not self._data_buffer_lock.wait(self._LIVENESS_CHECK_S):
                    self._check_workers()
            batch = self._data_buffer.pop(self._rcvd_idx)
        self._rcvd_idx += 1
        if isinstance(batch, _WorkerFailure):
            self.shutdown(terminate=True)
            batch.reraise()
        self._push_next()
        return batch

    _LIVENESS_CHECK_S = 0.5

    def _check_workers(self):
        """Raise RuntimeError (after stopping the rest) if a worker process has exited."""
        for worker in self._workers:
            code = worker.exitcode
            if code is None:
                continue
            if code < 0:
                try:
                    how = 'was killed by %s' % signal.Signals(-code).name
                except ValueError:
                    how = 'was killed by signal %d' % -code
            else:
                how = 'exited with status %d' % code
            self.shutdown(terminate=True)
            raise RuntimeError('DataLoader worker process (pid %d) %s while batch %d was '
                               'being made; the epoch cannot go on' %
                               (worker.pid, how, self._rcvd_idx))

    def next(self):
        return self.__next__()

    def __iter__(self):
        return self

    def shutdown(self, terminate=False):
        """Stop the workers and the fetcher (terminate: kill the workers rather than let them
        finish the batches already asked for, after a failure)."""
        if not getattr(self, '_shutdown', True):
            self._shutdown = True
            if terminate:
                for worker in self._workers:
                    if worker.exitcode is None:
                        worker.terminate()
                for worker in self._workers:
                    worker.join()
                # A worker killed while writing may have left a queue's lock held: their
                # feeder threads must not keep the process from exiting.
                self._key_queue.cancel_join_thread()
                self._data_queue.cancel_join_thread()
            else:
                for _ in range(self._num_workers):
                    self._key_queue.put((None, None))
            self._data_queue.put((None, None))


class DataLoaderV1(object):
    """DataLoader that loads batches in `num_workers` worker processes (forked; the dataset
    and batchify_fn must work there); with num_workers=0 batches are made in this process.
    Arguments as for DataLoader."""

    def __init__(self, dataset, batch_size=None, shuffle=False, sampler=None, last_batch=None,
                 batch_sampler=None, batchify_fn=None, num_workers=0, pin_memory=False,
                 pin_device_id=0):
        from .dataloader import default_batchify_fn
        self._dataset = dataset
        self._pin_memory = pin_memory
        self._pin_device_id = pin_device_id
        if batch_sampler is None:
            if batch_size is None:
                raise ValueError('batch_size must be specified unless batch_sampler is '
                                 'specified')
            if sampler is None:
                sampler = RandomSampler(len(dataset)) if shuffle else \
                    SequentialSampler(len(dataset))
            elif shuffle:
                raise ValueError('shuffle must not be specified if sampler is specified')
            batch_sampler = BatchSampler(sampler, batch_size, last_batch or 'keep')
        elif batch_size is not None or shuffle or sampler is not None or \
                last_batch is not None:
            raise ValueError('batch_size, shuffle, sampler and last_batch must not be '
                             'specified if batch_sampler is specified.')
        self._batch_sampler = batch_sampler
        self._num_workers = max(num_workers, 0)
        self._batchify_fn = batchify_fn or default_batchify_fn

    def __iter__(self):
        if self._num_workers == 0:
            return self._same_process_iter()
        return _MultiWorkerIterV1(self._num_workers, self._dataset, self._batchify_fn,
                                  self._batch_sampler, self._pin_memory, self._pin_device_id)

    def _same_process_iter(self):
        from .dataloader import _as_in_context
        for samples in self._batch_sampler:
            batch = self._batchify_fn([self._dataset[i] for i in samples])
            if self._pin_memory:
                batch = _as_in_context(batch, context.cpu_pinned(self._pin_device_id))
            yield batch

    def __len__(self):
        return len(self._batch_sampler)


_register_reducers()
