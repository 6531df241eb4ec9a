"""Gluon samplers: sequences of indices (or of index batches)."""
import numpy as np

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "BatchSampler", "FilterSampler",
           "SplitSampler"]


class Sampler(object):
    """Base class: iterating yields dataset indices."""

    def __iter__(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """start, start+1, ..., start+length-1."""

    def __init__(self, length, start=0):
        self._length = length
        self._start = start

    def __iter__(self):
        return iter(range(self._start, self._start + self._length))

    def __len__(self):
        return self._length


class RandomSampler(Sampler):
    """A random permutation of range(length) (numpy's global RNG), new on each iteration."""

    def __init__(self, length):
        self._length = length

    def __iter__(self):
        indices = np.arange(self._length)
        np.random.shuffle(indices)
        return iter(indices)

    def __len__(self):
        return self._length


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of `batch_size`; the last short batch is
    kept ('keep'), dropped ('discard') or carried into the next epoch ('rollover')."""

    def __init__(self, sampler, batch_size, last_batch="keep"):
        self._sampler = sampler
        self._batch_size = batch_size
        self._last_batch = last_batch
        self._prev = []
        if last_batch not in ("keep", "discard", "rollover"):
            raise ValueError("last_batch must be one of 'keep', 'discard', or 'rollover', but "
                             "got %s" % last_batch)

    def __iter__(self):
        batch, self._prev = self._prev, []
        for i in self._sampler:
            batch.append(i)
            if len(batch) == self._batch_size:
                yield batch
                batch = []
        if batch:
            if self._last_batch == "keep":
                yield batch
            elif self._last_batch == "discard":
                return
            elif self._last_batch == "rollover":
                self._prev = batch

    def __len__(self):
        if self._last_batch == "keep":
            return (len(self._sampler) + self._batch_size - 1) // self._batch_size
        if self._last_batch == "discard":
            return len(self._sampler) // self._batch_size
        return (len(self._prev) + len(self._sampler)) // self._batch_size


class FilterSampler(Sampler):
    """The indices of the samples of `dataset` for which fn(sample) is true."""

    def __init__(self, fn, dataset):
        self._fn = fn
        self._dataset = dataset
        self._indices = [i for i, sample in enumerate(dataset) if fn(sample)]

    def __iter__(self):
        return iter(self._indices)

    def __len__(self):
        return len(self._indices)


_FilterSampler = FilterSampler


class SplitSampler(Sampler):
    """The indices of part `part_index` of `num_parts` near-equal contiguous parts of
    range(length), optionally shuffled within the part on each iteration: each worker of a
    distributed job reads its own part,

        sampler = SplitSampler(len(dataset), num_parts=kv.num_workers, part_index=kv.rank)
        loader = DataLoader(dataset, batch_size=32, sampler=sampler)

    With even_size=True (the default) every part has ceil(length / num_parts) indices (the
    shorter parts repeat their first ones), so every worker runs the same number of batches,
    which a synchronous kvstore requires.
    """

    def __init__(self, length, num_parts=1, part_index=0, shuffle=False, even_size=True):
        if not 0 <= part_index < num_parts:
            raise ValueError("SplitSampler: part_index must be in [0, num_parts), got "
                             "part_index=%r num_parts=%r" % (part_index, num_parts))
        begin, end = length * part_index // num_parts, length * (part_index + 1) // num_parts
        self._indices = list(range(begin, end))
        if even_size and length > 0:
            size = -(-length // num_parts)
            while len(self._indices) < size:
                self._indices.extend(range(begin, end)[:size - len(self._indices)] or
                                     range(min(begin, length - 1), min(begin, length - 1) + 1))
        self._shuffle = shuffle

    def __iter__(self):
        indices = list(self._indices)
        if self._shuffle:
            np.random.shuffle(indices)
        return iter(indices)

    def __len__(self):
        return len(self._indices)
