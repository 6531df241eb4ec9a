"""`mx.contrib.io.DataLoaderIter`: a Gluon DataLoader seen as a Module-style DataIter."""
from .. import ndarray as nd
from ..io import DataDesc, DataIter


class DataLoaderIter(DataIter):
    """Wraps a gluon DataLoader yielding ``(data, label)`` batches. The last, smaller batch
    is padded to the batch size (``pad`` says by how many rows)."""

    def __init__(self, loader, data_name="data", label_name="softmax_label",
                 dtype="float32"):
        super(DataLoaderIter, self).__init__()
        self._loader = loader
        self._iter = iter(self._loader)
        data, label = next(self._iter)
        self.batch_size = data.shape[0]
        self.dtype = dtype
        self.provide_data = [DataDesc(data_name, data.shape, dtype)]
        self.provide_label = [DataDesc(label_name, label.shape, dtype)]
        self._current_batch = None
        self.reset()

    def reset(self):
        self._iter = iter(self._loader)

    def iter_next(self):
        try:
            self._current_batch = next(self._iter)
        except StopIteration:
            self._current_batch = None
        return self._current_batch is not None

    def _padded(self, arr):
        arr = arr.astype(self.dtype)
        if arr.shape[0] == self.batch_size:
            return arr
        ret = nd.zeros((self.batch_size,) + tuple(arr.shape[1:]), dtype=self.dtype)
        ret[:arr.shape[0]] = arr
        return ret

    def getdata(self):
        return [self._padded(self._current_batch[0])]

    def getlabel(self):
        return [self._padded(self._current_batch[1])]

    def getpad(self):
        return self.batch_size - self._current_batch[0].shape[0]

    def getindex(self):
        return None
