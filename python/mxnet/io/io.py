"""Data iterators (MXNet 1.x mx.io).

Python iterators (NDArrayIter, ResizeIter, PrefetchingIter) and the C++ ones: at import every
iterator in the library's registry (MXListDataIters) becomes a factory function here, e.g.
``mx.io.MNISTIter(image=..., label=..., batch_size=100)`` returning an MXDataIter.
"""
import ctypes
import sys
import threading
from collections import namedtuple

import numpy as np

from ..base import (_LIB, MXNetError, check_call, lib_function, c_str_array, mx_uint, py_str, build_param_doc,
                    DataIterHandle, NDArrayHandle, mx_real_t)
from ..ndarray import NDArray, concat, array
from .utils import _init_data, _getdata_by_idx
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..ndarray import tile  # noqa: F401
from ..ndarray.sparse import CSRNDArray  # noqa: F401

__all__ = ["DataDesc", "DataBatch", "DataIter", "NDArrayIter", "ResizeIter", "PrefetchingIter",
           "MXDataIter"]


class DataDesc(namedtuple('DataDesc', ['name', 'shape'])):
    """Name, shape, dtype and layout of one input of a network (a namedtuple (name, shape))."""

    def __new__(cls, name, shape, dtype=mx_real_t, layout='NCHW'):
        ret = super(DataDesc, cls).__new__(cls, name, shape)
        ret.dtype = dtype
        ret.layout = layout
        return ret

    def __repr__(self):
        return "DataDesc[%s,%s,%s,%s]" % (self.name, self.shape, self.dtype, self.layout)

    @staticmethod
    def get_batch_axis(layout):
        """The index of 'N' in `layout` (0 when layout is None, -1 when it has no 'N')."""
        if layout is None:
            return 0
        return layout.find('N')

    @staticmethod
    def get_list(shapes, types):
        """DataDesc list from [(name, shape)] and optional [(name, dtype)]."""
        if types is not None:
            type_dict = dict(types)
            return [DataDesc(x[0], x[1], type_dict[x[0]]) for x in shapes]
        return [DataDesc(x[0], x[1]) for x in shapes]


class DataBatch(object):
    """One batch: lists of data and label NDArrays, the padding count and instance indices."""

    def __init__(self, data, label=None, pad=None, index=None, bucket_key=None,
                 provide_data=None, provide_label=None):
        if data is not None and not isinstance(data, (list, tuple)):
            raise TypeError("Data must be list of NDArrays")
        if label is not None and not isinstance(label, (list, tuple)):
            raise TypeError("Label must be list of NDArrays")
        self.data = data
        self.label = label
        self.pad = pad
        self.index = index
        self.bucket_key = bucket_key
        self.provide_data = provide_data
        self.provide_label = provide_label

    def __str__(self):
        data_shapes = [d.shape for d in self.data]
        label_shapes = [lbl.shape for lbl in self.label] if self.label else None
        return "{}: data shapes: {} label shapes: {}".format(
            self.__class__.__name__, data_shapes, label_shapes)


class DataIter(object):
    """Base of the data iterators: next() builds a DataBatch from iter_next/getdata/getlabel/
    getpad/getindex; raises StopIteration at the end of the epoch."""

    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        """Go back to the start of the data."""

    def next(self):
        if self.iter_next():
            return DataBatch(data=self.getdata(), label=self.getlabel(), pad=self.getpad(),
                             index=self.getindex())
        raise StopIteration

    def __next__(self):
        return self.next()

    def iter_next(self):
        """Move to the next batch; False at the end."""

    def getdata(self):
        """The data of the current batch (list of NDArrays)."""

    def getlabel(self):
        """The label of the current batch (list of NDArrays)."""

    def getindex(self):
        """The instance indices of the current batch, or None."""
        return None

    def getpad(self):
        """The number of padding rows at the end of the current batch."""


class ResizeIter(DataIter):
    """Present `data_iter` as an iterator of exactly `size` batches per epoch (restarting the
    inner iterator when it runs out; reset resets it too when reset_internal)."""

    def __init__(self, data_iter, size, reset_internal=True):
        super(ResizeIter, self).__init__()
        self.data_iter = data_iter
        self.size = size
        self.reset_internal = reset_internal
        self.cur = 0
        self.current_batch = None
        self.provide_data = data_iter.provide_data
        self.provide_label = data_iter.provide_label
        self.batch_size = data_iter.batch_size
        if hasattr(data_iter, 'default_bucket_key'):
            self.default_bucket_key = data_iter.default_bucket_key

    def reset(self):
        self.cur = 0
        if self.reset_internal:
            self.data_iter.reset()

    def iter_next(self):
        if self.cur == self.size:
            return False
        try:
            self.current_batch = self.data_iter.next()
        except StopIteration:
            self.data_iter.reset()
            self.current_batch = self.data_iter.next()
        self.cur += 1
        return True

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class PrefetchingIter(DataIter):
    """Fetch the next batch of each of `iters` on background threads; their batches are
    joined (data lists and label lists concatenated). rename_data/rename_label: one dict per
    iterator mapping its names to new ones.

    The threads are daemons and stop when the iterator is closed or collected; an exception
    raised by an inner iterator is re-raised by next().
    """

    def __init__(self, iters, rename_data=None, rename_label=None):
        super(PrefetchingIter, self).__init__()
        if not isinstance(iters, list):
            iters = [iters]
        self.n_iter = len(iters)
        if self.n_iter == 0:
            raise ValueError("PrefetchingIter needs at least one iterator")
        self.iters = iters
        self.rename_data = rename_data
        self.rename_label = rename_label
        self.batch_size = self.provide_data[0][1][0]
        self.data_ready = [threading.Event() for _ in range(self.n_iter)]
        self.data_taken = [threading.Event() for _ in range(self.n_iter)]
        for event in self.data_taken:
            event.set()
        self.started = True
        self.current_batch = None
        self.next_batch = [None] * self.n_iter
        self.next_error = [None] * self.n_iter
        self.prefetch_threads = [
            threading.Thread(target=PrefetchingIter._prefetch, args=(self, i), daemon=True)
            for i in range(self.n_iter)]
        for thread in self.prefetch_threads:
            thread.start()

    @staticmethod
    def _prefetch(self, i):
        while True:
            self.data_taken[i].wait()
            if not self.started:
                break
            try:
                self.next_batch[i] = self.iters[i].next()
                self.next_error[i] = None
            except StopIteration:
                self.next_batch[i] = None
                self.next_error[i] = None
            except Exception as err:  # handed to the consumer thread
                self.next_batch[i] = None
                self.next_error[i] = err
            self.data_taken[i].clear()
            self.data_ready[i].set()

    def close(self):
        """Stop the prefetch threads (called on collection; safe to call twice)."""
        if not getattr(self, 'started', False):
            return
        self.started = False
        for event in self.data_taken:
            event.set()
        if sys.is_finalizing():
            return  # daemon threads may already be frozen: joining them could block forever
        for thread in self.prefetch_threads:
            if thread is not threading.current_thread():
                thread.join(timeout=60)

    def __del__(self):
        self.close()

    @property
    def provide_data(self):
        if self.rename_data is None:
            return sum([i.provide_data for i in self.iters], [])
        return sum([[DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, DataDesc)
                     else DataDesc(*x) for x in i.provide_data]
                    for r, i in zip(self.rename_data, self.iters)], [])

    @property
    def provide_label(self):
        if self.rename_label is None:
            return sum([i.provide_label for i in self.iters], [])
        return sum([[DataDesc(r[x.name], x.shape, x.dtype) if isinstance(x, DataDesc)
                     else DataDesc(*x) for x in i.provide_label]
                    for r, i in zip(self.rename_label, self.iters)], [])

    def reset(self):
        for event in self.data_ready:
            event.wait()
        for it in self.iters:
            it.reset()
        for event in self.data_ready:
            event.clear()
        for event in self.data_taken:
            event.set()

    def iter_next(self):
        for event in self.data_ready:
            event.wait()
        for err in self.next_error:
            if err is not None:
                # Let the thread fetch again after a reset.
                self.next_error = [None] * self.n_iter
                raise err
        if self.next_batch[0] is None:
            for batch in self.next_batch:
                if batch is not None:
                    raise ValueError("Number of entry mismatches between iterators")
            return False
        for batch in self.next_batch:
            if batch is None or batch.pad != self.next_batch[0].pad:
                raise ValueError("Number of entry mismatches between iterators")
        self.current_batch = DataBatch(
            sum([batch.data for batch in self.next_batch], []),
            sum([batch.label for batch in self.next_batch], []),
            self.next_batch[0].pad, self.next_batch[0].index,
            provide_data=self.provide_data, provide_label=self.provide_label)
        for event in self.data_ready:
            event.clear()
        for event in self.data_taken:
            event.set()
        return True

    def next(self):
        if self.iter_next():
            return self.current_batch
        raise StopIteration

    def getdata(self):
        return self.current_batch.data

    def getlabel(self):
        return self.current_batch.label

    def getindex(self):
        return self.current_batch.index

    def getpad(self):
        return self.current_batch.pad


class NDArrayIter(DataIter):
    """Iterate over NDArrays / NumPy arrays (or lists / dicts of them) in batches.

    last_batch_handle: 'pad' wraps the last batch around to the start and reports the pad;
    'discard' drops the incomplete last batch; 'roll_over' carries the remaining samples into
    the first batch of the next epoch. With shuffle=True the samples are permuted (np.random)
    at construction and at every reset.

    num_parts / part_index (as the file iterators take them) keep only the part_index-th of
    num_parts contiguous, near-equal parts of the samples: each worker of a distributed job
    reads its own part (e.g. num_parts=kv.num_workers, part_index=kv.rank).
    """

    def __init__(self, data, label=None, batch_size=1, shuffle=False, last_batch_handle='pad',
                 data_name='data', label_name='softmax_label', layout='NCHW', num_parts=1,
                 part_index=0):
        super(NDArrayIter, self).__init__(batch_size)
        if last_batch_handle not in ('pad', 'discard', 'roll_over'):
            raise ValueError("last_batch_handle must be 'pad', 'discard' or 'roll_over', got %r"
                             % (last_batch_handle,))
        if not isinstance(batch_size, (int, np.integer)) or batch_size <= 0:
            raise ValueError("batch_size must be a positive integer, got %r" % (batch_size,))
        self.data = _init_data(data, allow_empty=False, default_name=data_name)
        self.label = _init_data(label, allow_empty=True, default_name=label_name)
        num = self.data[0][1].shape[0]
        for name, arr in self.data + self.label:
            if arr.shape[0] != num:
                raise ValueError("NDArrayIter: all arrays must have the same number of samples "
                                 "(first dimension); %s has %d, %s has %d"
                                 % (self.data[0][0], num, name, arr.shape[0]))
        if num_parts != 1 or part_index != 0:
            if not 0 <= part_index < num_parts:
                raise ValueError("NDArrayIter: part_index must be in [0, num_parts), got "
                                 "part_index=%r num_parts=%r" % (part_index, num_parts))
            begin, end = num * part_index // num_parts, num * (part_index + 1) // num_parts
            if begin == end:
                raise ValueError("NDArrayIter: part %d of %d of %d samples is empty"
                                 % (part_index, num_parts, num))
            self.data = [(k, v[begin:end]) for k, v in self.data]
            self.label = [(k, v[begin:end]) for k, v in self.label]
            num = end - begin
        self.idx = np.arange(num)
        self.shuffle = shuffle
        self.last_batch_handle = last_batch_handle
        self.layout = layout
        self.batch_size = batch_size
        self.cursor = -self.batch_size
        self.num_data = self.idx.shape[0]
        self.reset()
        self.data_list = [x[1] for x in self.data] + [x[1] for x in self.label]
        self.num_source = len(self.data_list)
        # The incomplete last batch, kept for 'roll_over'.
        self._cache_data = None
        self._cache_label = None

    @property
    def provide_data(self):
        return [DataDesc(k, tuple([self.batch_size] + list(v.shape[1:])), v.dtype,
                         layout=self.layout) for k, v in self.data]

    @property
    def provide_label(self):
        return [DataDesc(k, tuple([self.batch_size] + list(v.shape[1:])), v.dtype,
                         layout=self.layout) for k, v in self.label]

    def hard_reset(self):
        """Start over, ignoring any roll-over from the previous epoch."""
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = None
        self._cache_label = None

    def reset(self):
        if self.shuffle:
            self._shuffle_data()
        # With roll_over, a cursor inside the last batch means samples were left over: the
        # next epoch's first batch starts with them.
        if self.last_batch_handle == 'roll_over' and \
                self.num_data - self.batch_size < self.cursor < self.num_data:
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self):
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        if not self.iter_next():
            raise StopIteration
        data = self.getdata()
        label = self.getlabel()
        if data[0].shape[0] != self.batch_size:
            # Incomplete last batch ('discard' / 'roll_over'): keep it for the next epoch.
            self._cache_data = data
            self._cache_label = label
            raise StopIteration
        return DataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def _getdata(self, data_source, start=None, end=None):
        start = start if start is not None else 0
        if end is None:
            end = data_source[0][1].shape[0] if data_source else 0
        s = slice(start, end)
        out = []
        for _, arr in data_source:
            if isinstance(arr, (np.ndarray, NDArray)):
                out.append(arr[s])
            else:  # h5py: fancy indexing needs sorted indices
                idx = self.idx[s]
                order = np.argsort(idx)
                out.append(array(arr[sorted(idx)][np.argsort(order)]))
        return out

    @staticmethod
    def _concat(first_data, second_data):
        if not first_data or not second_data:
            return first_data if first_data else second_data
        return [concat(first_data[i], second_data[i], dim=0) for i in range(len(first_data))]

    def _batchify(self, data_source):
        if self.cursor >= self.num_data:
            raise StopIteration("DataIter needs reset.")
        if self.last_batch_handle == 'roll_over' and -self.batch_size < self.cursor < 0:
            # First batch of an epoch after a roll-over: cached remainder + new samples.
            cache = self._cache_data if self._cache_data is not None else self._cache_label
            second = self._getdata(data_source, end=self.cursor + self.batch_size)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cache, second)
        if self.last_batch_handle == 'pad' and self.cursor + self.batch_size > self.num_data:
            pad = self.batch_size - self.num_data + self.cursor
            first = self._getdata(data_source, start=self.cursor)
            second = self._getdata(data_source, end=pad)
            return self._concat(first, second)
        end_idx = min(self.cursor + self.batch_size, self.num_data)
        return self._getdata(data_source, self.cursor, end_idx)

    def getdata(self):
        return self._batchify(self.data)

    def getlabel(self):
        return self._batchify(self.label)

    def getpad(self):
        if self.last_batch_handle == 'pad' and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == 'roll_over' and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self):
        np.random.shuffle(self.idx)
        self.data = _getdata_by_idx(self.data, self.idx)
        self.label = _getdata_by_idx(self.label, self.idx)


class MXDataIter(DataIter):
    """A data iterator implemented in C++ (created by the generated factories, e.g. MNISTIter).

    The first batch is read at construction to learn provide_data / provide_label.
    """

    def __init__(self, handle, data_name='data', label_name='softmax_label', **_):
        super(MXDataIter, self).__init__()
        self.handle = handle
        self._debug_skip_load = False
        self._debug_at_begin = True
        self.first_batch = None
        try:
            self.first_batch = self.next()
        except StopIteration:
            raise ValueError("the data iterator yields no batch (is batch_size larger than "
                             "the data set?)") from None
        data = self.first_batch.data[0]
        label = self.first_batch.label[0]
        self.provide_data = [DataDesc(data_name, data.shape, data.dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, label.dtype)]
        self.batch_size = data.shape[0]

    def __del__(self):
        handle = getattr(self, 'handle', None)
        if handle is not None and _LIB is not None:
            check_call(_LIB.MXDataIterFree(handle))
            self.handle = None

    def reset(self):
        self._debug_at_begin = True
        self.first_batch = None
        check_call(_LIB.MXDataIterBeforeFirst(self.handle))

    def next(self):
        if self._debug_skip_load and not self._debug_at_begin:
            return DataBatch(data=[self.getdata()], label=[self.getlabel()], pad=self.getpad(),
                             index=self.getindex())
        if self.first_batch is not None:
            batch = self.first_batch
            self.first_batch = None
            return batch
        self._debug_at_begin = False
        next_res = ctypes.c_int(0)
        check_call(_LIB.MXDataIterNext(self.handle, ctypes.byref(next_res)))
        if next_res.value:
            return DataBatch(data=[self.getdata()], label=[self.getlabel()], pad=self.getpad(),
                             index=self.getindex())
        raise StopIteration

    def iter_next(self):
        if self.first_batch is not None:
            return True
        next_res = ctypes.c_int(0)
        check_call(_LIB.MXDataIterNext(self.handle, ctypes.byref(next_res)))
        return bool(next_res.value)

    def getdata(self):
        hdl = NDArrayHandle()
        check_call(_LIB.MXDataIterGetData(self.handle, ctypes.byref(hdl)))
        return NDArray(hdl, False)

    def getlabel(self):
        hdl = NDArrayHandle()
        check_call(_LIB.MXDataIterGetLabel(self.handle, ctypes.byref(hdl)))
        return NDArray(hdl, False)

    def getindex(self):
        index_data = ctypes.POINTER(ctypes.c_uint64)()
        index_size = ctypes.c_uint64()
        check_call(_LIB.MXDataIterGetIndex(self.handle, ctypes.byref(index_data),
                                           ctypes.byref(index_size)))
        if index_size.value:
            buf = ctypes.cast(index_data, ctypes.POINTER(ctypes.c_uint64 * index_size.value))
            return np.frombuffer(buf.contents, dtype=np.uint64).copy()
        return None

    def getpad(self):
        pad = ctypes.c_int(0)
        check_call(_LIB.MXDataIterGetPadNum(self.handle, ctypes.byref(pad)))
        return pad.value


def _make_io_iterator(handle):
    """A factory function for the C++ iterator `handle` (an entry of MXListDataIters)."""
    name = ctypes.c_char_p()
    desc = ctypes.c_char_p()
    num_args = mx_uint()
    arg_names = ctypes.POINTER(ctypes.c_char_p)()
    arg_types = ctypes.POINTER(ctypes.c_char_p)()
    arg_descs = ctypes.POINTER(ctypes.c_char_p)()
    check_call(_LIB.MXDataIterGetIterInfo(
        handle, ctypes.byref(name), ctypes.byref(desc), ctypes.byref(num_args),
        ctypes.byref(arg_names), ctypes.byref(arg_types), ctypes.byref(arg_descs)))
    iter_name = py_str(name.value)
    narg = int(num_args.value)
    param_str = build_param_doc([py_str(arg_names[i]) for i in range(narg)],
                                [py_str(arg_types[i]) for i in range(narg)],
                                [py_str(arg_descs[i]) for i in range(narg)])
    doc_str = ('%s\n\n%s\n'
               'Returns\n-------\nMXDataIter\n    The result iterator.')
    doc_str = doc_str % (py_str(desc.value), param_str)

    def creator(*args, **kwargs):
        if args:
            raise TypeError('%s can only accept keyword arguments' % iter_name)
        # data_name / label_name name the batch's arrays in Python; the C++ iterator does not
        # know them.
        py_kwargs = {k: kwargs.pop(k) for k in ('data_name', 'label_name') if k in kwargs}
        keys = []
        vals = []
        for k, val in kwargs.items():
            keys.append(k)
            if isinstance(val, bool):
                val = int(val)
            elif isinstance(val, type) and issubclass(val, np.generic) or isinstance(val, np.dtype):
                val = np.dtype(val).name
            vals.append(str(val))
        iter_handle = DataIterHandle()
        check_call(_LIB.MXDataIterCreateIter(handle, mx_uint(len(keys)), c_str_array(keys),
                                             c_str_array(vals), ctypes.byref(iter_handle)))
        return MXDataIter(iter_handle, **py_kwargs)

    creator.__name__ = iter_name
    creator.__doc__ = doc_str
    return creator


def _init_io_module():
    """Add a factory for every registered C++ data iterator to mx.io."""
    plist = ctypes.POINTER(ctypes.c_void_p)()
    size = ctypes.c_uint()
    list_iters = lib_function("MXListDataIters")
    try:
        check_call(list_iters(ctypes.byref(size), ctypes.byref(plist)))
    except MXNetError:  # a library without data iterators (e.g. the NumPy stand-in)
        return
    module_obj = sys.modules["mxnet.io"]
    io_obj = sys.modules[__name__]
    for i in range(size.value):
        hdl = ctypes.c_void_p(plist[i])
        dataiter = _make_io_iterator(hdl)
        setattr(module_obj, dataiter.__name__, dataiter)
        setattr(io_obj, dataiter.__name__, dataiter)
