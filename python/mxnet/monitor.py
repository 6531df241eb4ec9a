"""Monitor: statistics of executor outputs (and inputs), weights and auxiliary states.

    mon = mx.mon.Monitor(interval=1, pattern='.*output')
    mon.install(exe)
    mon.tic(); exe.forward(); mon.toc_print()   # logs "Batch: <n> <name> <stat>" per tensor
"""
import ctypes
import logging
import re
from math import sqrt

from .base import NDArrayHandle, py_str
from .ndarray import NDArray
from . import ndarray

__all__ = ['Monitor']


def _default_stat(x):
    """norm(x) / sqrt(size(x)): the root mean square of x (computed asynchronously)."""
    return ndarray.norm(x) / sqrt(x.size)


class Monitor(object):
    """Collects stat_func(array) for the tensors whose names match `pattern`.

    Parameters
    ----------
    interval : int
        Collect on every `interval`-th batch (tic calls).
    stat_func : callable NDArray -> NDArray (or list of NDArrays), optional
        Default: norm(x) / sqrt(x.size).
    pattern : str
        Regular expression matched (re.match) against tensor names, e.g. '.*weight|.*output'.
    sort : bool
        Sort the results of toc by name.
    monitor_all : bool
        Also monitor operator inputs, not only outputs.
    """

    def __init__(self, interval, stat_func=None, pattern='.*', sort=False, monitor_all=False):
        self.stat_func = stat_func if stat_func is not None else _default_stat
        self.interval = interval
        self.activated = False
        self.queue = []
        self.step = 0
        self.exes = []
        self.re_prog = re.compile(pattern)
        self.sort = sort
        self.monitor_all = monitor_all

        def stat_helper(name, handle):
            # Wrap first: the callback owns the new handle, and the wrapper frees it.
            array = NDArray(ctypes.cast(handle, NDArrayHandle), writable=False)
            name = py_str(name)
            if self.activated and self.re_prog.match(name):
                self.queue.append((self.step, name, self.stat_func(array)))
        self.stat_helper = stat_helper

    def install(self, exe):
        """Start receiving the outputs of executor `exe` (several executors may be installed)."""
        exe.set_monitor_callback(self.stat_helper, self.monitor_all)
        self.exes.append(exe)

    def _wait_for_parameters(self):
        for exe in self.exes:
            for array in exe.arg_arrays:
                array.wait_to_read()
            for array in exe.aux_arrays:
                array.wait_to_read()

    def tic(self):
        """Start a batch; call before forward."""
        if self.step % self.interval == 0:
            self._wait_for_parameters()
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self):
        """End the batch: list of (step, name, stat text) for outputs seen since tic, then the
        matching arguments and auxiliary states. Empty when this batch is not collected."""
        if not self.activated:
            return []
        self._wait_for_parameters()
        for exe in self.exes:
            sym = exe._symbol  # pylint: disable=protected-access
            for name, array in zip(sym.list_arguments(), exe.arg_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
            for name, array in zip(sym.list_auxiliary_states(), exe.aux_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
        self.activated = False
        if self.sort:
            self.queue.sort(key=lambda entry: entry[1])
        res = []
        for step, name, stats in self.queue:
            if isinstance(stats, NDArray):
                stats = [stats]
            if not isinstance(stats, list):
                raise TypeError('Monitor: stat_func must return an NDArray or a list of '
                                'NDArrays, got %s for %s' % (type(stats).__name__, name))
            text = ''
            for v in stats:
                if not isinstance(v, NDArray):
                    raise TypeError('Monitor: stat_func returned a %s for %s, expected NDArray'
                                    % (type(v).__name__, name))
                text += (str(v.asscalar()) if v.shape == (1,) else str(v.asnumpy())) + '\t'
            res.append((step, name, text))
        self.queue = []
        return res

    def toc_print(self):
        """End the batch and log each result with logging.info."""
        for step, name, text in self.toc():
            logging.info('Batch: {:7d} {:30s} {:s}'.format(step, name, text))
