"""Samplers of gluon.contrib.data: IntervalSampler."""
from ...data.sampler import Sampler

__all__ = ["IntervalSampler"]


class IntervalSampler(Sampler):
    """0, k, 2k, ..., then 1, k+1, ... (when rollover)."""

    def __init__(self, length, interval, rollover=True):
        assert interval < length, \
            "Interval {} must be smaller than length {}".format(interval, length)
        self._length = length
        self._interval = interval
        self._rollover = rollover

    def __iter__(self):
        for i in range(self._interval if self._rollover else 1):
            for j in range(i, self._length, self._interval):
                yield j

    def __len__(self):
        return self._length
