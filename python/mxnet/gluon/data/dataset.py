"""Gluon datasets."""
import os

from ... import ndarray
from ... import recordio

__all__ = ["Dataset", "SimpleDataset", "ArrayDataset", "RecordFileDataset"]


class Dataset(object):
    """Abstract dataset: implement __getitem__ and __len__."""

    def __getitem__(self, idx):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def filter(self, fn):
        """A dataset of the samples for which fn(sample) is true."""
        from .sampler import _FilterSampler
        return self.sample(_FilterSampler(fn, self))

    def shard(self, num_shards, index):
        """The `index`-th of `num_shards` contiguous shards (the first ones one longer when
        the length does not divide)."""
        assert index < num_shards, "Shard index of out bound: %d out of %d" % (index,
                                                                              num_shards)
        assert num_shards > 0, "Number of shards must be greater than 0"
        assert index >= 0, "Index must be non-negative"
        length = len(self)
        shard_len = length // num_shards
        rest = length % num_shards
        start = shard_len * index + min(index, rest)
        end = start + shard_len + (index < rest)
        from .sampler import SequentialSampler
        return self.sample(SequentialSampler(end - start, start))

    def take(self, count):
        """The first `count` samples (all when count is None)."""
        if count is None or count > len(self):
            count = len(self)
        from .sampler import SequentialSampler
        return self.sample(SequentialSampler(count))

    def sample(self, sampler):
        """The samples at the indices `sampler` yields."""
        from .sampler import Sampler
        if not isinstance(sampler, Sampler):
            raise TypeError("Invalid sampler type: %s. Expected gluon.data.Sampler instead."
                            % type(sampler))
        return _SampledDataset(self, sampler)

    def transform(self, fn, lazy=True):
        """A dataset of fn(*sample) (computed on access when lazy, else now)."""
        trans = _LazyTransformDataset(self, fn)
        if lazy:
            return trans
        return SimpleDataset([i for i in trans])

    def transform_first(self, fn, lazy=True):
        """Like transform, applied to the first element of each sample only."""
        return self.transform(_TransformFirstClosure(fn), lazy)


class _TransformFirstClosure(object):
    def __init__(self, fn):
        self._fn = fn

    def __call__(self, x, *args):
        if args:
            return (self._fn(x),) + args
        return self._fn(x)


class _SampledDataset(Dataset):
    def __init__(self, dataset, sampler):
        self._dataset = dataset
        self._sampler = sampler
        self._indices = list(iter(sampler))

    def __len__(self):
        return len(self._indices)

    def __getitem__(self, idx):
        return self._dataset[self._indices[idx]]


class SimpleDataset(Dataset):
    """A dataset over a list (or anything indexable with a length)."""

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        return self._data[idx]


class _LazyTransformDataset(Dataset):
    def __init__(self, data, fn):
        self._data = data
        self._fn = fn

    def __len__(self):
        return len(self._data)

    def __getitem__(self, idx):
        item = self._data[idx]
        if isinstance(item, tuple):
            return self._fn(*item)
        return self._fn(item)


class ArrayDataset(Dataset):
    """Zips equally long arrays: sample i is (a[i], b[i], ...) (just a[i] for one array)."""

    def __init__(self, *args):
        assert len(args) > 0, "Needs at least 1 arrays"
        self._length = len(args[0])
        self._data = []
        for i, data in enumerate(args):
            assert len(data) == self._length, \
                "All arrays must have the same length; array[0] has length %d while " \
                "array[%d] has %d." % (self._length, i + 1, len(data))
            if isinstance(data, ndarray.NDArray) and len(data.shape) == 1:
                data = data.asnumpy()
            self._data.append(data)

    def __getitem__(self, idx):
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(data[idx] for data in self._data)

    def __len__(self):
        return self._length


class RecordFileDataset(Dataset):
    """The raw records of a RecordIO file (with its .idx index next to it)."""

    def __init__(self, filename):
        self.idx_file = os.path.splitext(filename)[0] + ".idx"
        self.filename = filename
        self._record = recordio.MXIndexedRecordIO(self.idx_file, self.filename, "r")

    def __getitem__(self, idx):
        return self._record.read_idx(self._record.keys[idx])

    def __len__(self):
        return len(self._record.keys)
