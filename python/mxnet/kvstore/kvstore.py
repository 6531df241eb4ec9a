"""KVStore: the library's key-value store ('local', 'device', 'dist_sync', ...) over the C API.

    kv = mx.kv.create('local')
    kv.init(3, mx.nd.ones((2, 3)))
    kv.push(3, [g0, g1])            # stored := g0 + g1 (or the updater's result)
    kv.pull(3, out=[a, b])          # a, b := stored

A 'dist_sync' store does the same in every worker process of a job started with
``tools/launch.py`` (or ``python -m mxnet.tools.launch``, or mpirun): init takes rank 0's value,
and a push is summed over the devices of each worker and then over the workers.
"""
import ctypes
import os
import pickle
import sys
from array import array

from ..base import (_LIB, check_call, c_array, c_array_buf, c_handle_array, c_str_array,
                    mx_uint, py_str, string_types, integer_types, NDArrayHandle, c_str)
from ..ndarray import NDArray
from ..ndarray._sparse import _ndarray_cls
from .base import KVStoreBase
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..base import KVStoreHandle  # noqa: F401

__all__ = ["KVStore"]


def _ctype_key_value(keys, vals):
    """C arrays of keys and NDArray handles for one call; keys are all int or all str.
    A key with a list of values repeats the key once per value."""
    if isinstance(keys, (tuple, list)):
        if len(keys) != len(vals):
            raise ValueError("KVStore: %d keys but %d values" % (len(keys), len(vals)))
        c_keys = []
        c_vals = []
        use_str_keys = None
        for key, val in zip(keys, vals):
            c_key_i, c_val_i, str_keys_i = _ctype_key_value(key, val)
            c_keys += c_key_i
            c_vals += c_val_i
            use_str_keys = str_keys_i if use_str_keys is None else use_str_keys
            if use_str_keys != str_keys_i:
                raise TypeError("inconsistent types of keys detected: use all int or all str keys")
        c_keys_arr = c_array(ctypes.c_char_p, c_keys) if use_str_keys \
            else c_array(ctypes.c_int, c_keys)
        c_vals_arr = c_array(ctypes.c_void_p, c_vals)
        return (c_keys_arr, c_vals_arr, use_str_keys)

    if not isinstance(keys, integer_types + string_types):
        raise TypeError("unexpected type for keys: " + str(type(keys)))
    use_str_keys = isinstance(keys, string_types)
    if isinstance(vals, NDArray):
        c_keys = c_str_array([keys]) if use_str_keys \
            else c_array_buf(ctypes.c_int, array('i', [int(keys)]))
        return (c_keys, c_handle_array([vals]), use_str_keys)
    vals = list(vals)
    for value in vals:
        if not isinstance(value, NDArray):
            raise TypeError("KVStore values must be NDArrays, got %s" % type(value))
    c_keys = c_str_array([keys] * len(vals)) if use_str_keys \
        else c_array_buf(ctypes.c_int, array('i', [int(keys)] * len(vals)))
    return (c_keys, c_handle_array(vals), use_str_keys)


def _updater_wrapper(updater):
    """A C callback calling updater(key, recv, local) with NDArrays owning the handles."""
    def updater_handle(key, lhs_handle, rhs_handle, _):
        # The pushed value may be row_sparse: wrap each handle in its storage type's class so
        # the optimizer takes the lazy row_sparse update path.
        lhs = _ndarray_cls(NDArrayHandle(lhs_handle))
        rhs = _ndarray_cls(NDArrayHandle(rhs_handle))
        if isinstance(key, bytes):
            key = py_str(key)
        updater(key, lhs, rhs)
    return updater_handle


_UPDATER_PROTO = ctypes.CFUNCTYPE(None, ctypes.c_int, NDArrayHandle, NDArrayHandle,
                                  ctypes.c_void_p)
_STR_UPDATER_PROTO = ctypes.CFUNCTYPE(None, ctypes.c_char_p, NDArrayHandle, NDArrayHandle,
                                      ctypes.c_void_p)


class KVStore(KVStoreBase):
    """A key-value store created by the library (see mx.kv.create)."""

    def __init__(self, handle):
        if not isinstance(handle, ctypes.c_void_p):
            raise TypeError("KVStore handle must be a ctypes.c_void_p")
        self.handle = handle
        self._updater = None
        self._updater_func = None
        self._str_updater_func = None
        if (self.type.startswith('dist') or self.type == 'horovod') and self.num_workers > 1:
            _end_job_on_uncaught_exception()

    def __del__(self):
        handle = getattr(self, 'handle', None)
        if handle is not None and _LIB is not None:
            check_call(_LIB.MXKVStoreFree(handle))
            self.handle = None

    def init(self, key, value):
        """Store a copy of `value` under `key` (int or str, or lists of them)."""
        ckeys, cvals, use_str_keys = _ctype_key_value(key, value)
        if use_str_keys:
            check_call(_LIB.MXKVStoreInitEx(self.handle, mx_uint(len(ckeys)), ckeys, cvals))
        else:
            check_call(_LIB.MXKVStoreInit(self.handle, mx_uint(len(ckeys)), ckeys, cvals))

    def push(self, key, value, priority=0):
        """Push values; a list of values for one key is summed, then the updater (if set)
        applies the sum to the stored value, otherwise the sum replaces it."""
        ckeys, cvals, use_str_keys = _ctype_key_value(key, value)
        if use_str_keys:
            check_call(_LIB.MXKVStorePushEx(self.handle, mx_uint(len(ckeys)), ckeys, cvals,
                                            ctypes.c_int(priority)))
        else:
            check_call(_LIB.MXKVStorePush(self.handle, mx_uint(len(ckeys)), ckeys, cvals,
                                          ctypes.c_int(priority)))

    def pull(self, key, out=None, priority=0, ignore_sparse=True):
        """Copy the stored value of `key` into `out` (an NDArray or a list of them)."""
        if out is None:
            raise ValueError("KVStore.pull needs `out`")
        ckeys, cvals, use_str_keys = _ctype_key_value(key, out)
        if use_str_keys:
            check_call(_LIB.MXKVStorePullWithSparseEx(self.handle, mx_uint(len(ckeys)), ckeys,
                                                      cvals, ctypes.c_int(priority),
                                                      ctypes.c_bool(ignore_sparse)))
        else:
            check_call(_LIB.MXKVStorePullWithSparse(self.handle, mx_uint(len(ckeys)), ckeys,
                                                    cvals, ctypes.c_int(priority),
                                                    ctypes.c_bool(ignore_sparse)))

    def pushpull(self, key, value, out=None, priority=0):
        """push(key, value) then pull(key, out); with out=None the values receive the result."""
        cvkeys, cvals, use_str_keys = _ctype_key_value(key, value)
        if out is not None:
            cokeys, couts, _ = _ctype_key_value(key, out)
        else:
            cokeys = cvkeys
            couts = cvals
        fn = _LIB.MXKVStorePushPullEx if use_str_keys else _LIB.MXKVStorePushPull
        check_call(fn(self.handle, mx_uint(len(cvkeys)), cvkeys, mx_uint(len(cokeys)), cokeys,
                      cvals, couts, ctypes.c_int(priority)))

    def broadcast(self, key, value, out, priority=0):
        """init(key, value) then pull(key, out)."""
        cvkeys, cvals, use_str_keys = _ctype_key_value(key, value)
        cokeys, couts, _ = _ctype_key_value(key, out)
        fn = _LIB.MXKVStoreBroadcastEx if use_str_keys else _LIB.MXKVStoreBroadcast
        check_call(fn(self.handle, mx_uint(len(cvkeys)), cvkeys, mx_uint(len(cokeys)), cokeys,
                      cvals, couts, ctypes.c_int(priority)))

    def row_sparse_pull(self, key, out=None, priority=0, row_ids=None):
        """Pull only the rows `row_ids` (sorted and deduplicated) of the row_sparse value of
        `key` into the RowSparseNDArray `out` (or a list of them, with one row_ids per output
        or a single row_ids shared by all outputs)."""
        if out is None:
            raise ValueError("KVStore.row_sparse_pull needs `out`")
        if row_ids is None:
            raise ValueError("KVStore.row_sparse_pull needs `row_ids`")
        if isinstance(row_ids, NDArray):
            row_ids = [row_ids]
        if not isinstance(row_ids, list):
            raise TypeError("row_ids should be an NDArray or a list of NDArrays, got %s"
                            % type(row_ids))
        first_out = out
        # One row_ids for several outputs: pull once, then copy (same rows everywhere).
        single_rowid = len(row_ids) == 1 and isinstance(out, list)
        if single_rowid:
            first_out = [out[0]]
        ckeys, cvals, use_str_keys = _ctype_key_value(key, first_out)
        _, crow_ids, _ = _ctype_key_value(key, row_ids)
        if len(crow_ids) != len(cvals):
            raise ValueError("the number of row_ids (%d) doesn't match the number of values (%d)"
                             % (len(crow_ids), len(cvals)))
        fn = _LIB.MXKVStorePullRowSparseEx if use_str_keys else _LIB.MXKVStorePullRowSparse
        check_call(fn(self.handle, mx_uint(len(ckeys)), ckeys, cvals, crow_ids,
                      ctypes.c_int(priority)))
        if single_rowid:
            for out_i in out[1:]:
                out[0].copyto(out_i)

    def set_gradient_compression(self, compression_params):
        """Compress pushed gradients: ``{'type': '2bit', 'threshold': 0.5}`` (dist_* stores).
        Each element sends +threshold, -threshold or 0, and what is not sent accumulates in a
        residual that later pushes add, as in MXNet 1.x."""
        if not isinstance(compression_params, dict):
            raise TypeError("compression_params must be a dict, got %s"
                            % type(compression_params))
        if 'type' not in compression_params:
            raise ValueError("compression_params requires the `type` field")
        if 'dist' not in self.type:
            raise NotImplementedError("Gradient compression is only supported by distributed "
                                      "KVStores ('dist_*'), not by '%s'" % self.type)
        keys = [str(k) for k in compression_params]
        vals = [str(compression_params[k]) for k in compression_params]
        check_call(_LIB.MXKVStoreSetGradientCompression(self.handle, mx_uint(len(keys)),
                                                        c_str_array(keys), c_str_array(vals)))

    _RUNS_OPTIMIZER = True  # False for the all-reduce store (horovod.py)

    @classmethod
    def is_capable(cls, capability):
        if capability.lower() == KVStoreBase.OPTIMIZER:
            return cls._RUNS_OPTIMIZER
        raise ValueError('Unknown capability: {}'.format(capability))

    def set_optimizer(self, optimizer):
        """Update the stored values with `optimizer` on every push (via get_updater).

        'dist_async' keeps the values on the server processes: the optimizer is pickled and
        sent there (by rank 0; every worker returns once the servers have it). The synchronous
        stores run it on every worker after the all-reduce, with identical results."""
        from .. import optimizer as opt  # lazy: the optimizer package imports mx.kv users
        if 'async' in self.type:
            if self.rank == 0:
                self._send_command_to_servers(0, py_str(pickle.dumps(optimizer, 0)))
            self._barrier()
            return
        self._set_updater(opt.get_updater(optimizer))

    @property
    def type(self):
        """The store type, e.g. 'local'."""
        kv_type = ctypes.c_char_p()
        check_call(_LIB.MXKVStoreGetType(self.handle, ctypes.byref(kv_type)))
        return py_str(kv_type.value)

    @property
    def rank(self):
        """This worker's rank (0 for a local store)."""
        rank = ctypes.c_int()
        check_call(_LIB.MXKVStoreGetRank(self.handle, ctypes.byref(rank)))
        return rank.value

    @property
    def num_workers(self):
        """The number of workers (1 for a local store)."""
        size = ctypes.c_int()
        check_call(_LIB.MXKVStoreGetGroupSize(self.handle, ctypes.byref(size)))
        return size.value

    def save_optimizer_states(self, fname, dump_optimizer=False):
        """Write the updater's optimizer states to `fname`."""
        if self._updater is None:
            raise ValueError("Cannot save states for distributed training / without an "
                             "optimizer: call set_optimizer first")
        with open(fname, 'wb') as fout:
            fout.write(self._updater.get_states(dump_optimizer))

    def load_optimizer_states(self, fname):
        """Load optimizer states written by save_optimizer_states."""
        if self._updater is None:
            raise ValueError("Cannot load states for distributed training / without an "
                             "optimizer: call set_optimizer first")
        with open(fname, 'rb') as fin:
            self._updater.set_states(fin.read())

    def _set_updater(self, updater):
        """Call updater(key, recv, stored) on every push instead of replacing the value."""
        self._updater = updater
        self._updater_func = _UPDATER_PROTO(_updater_wrapper(updater))
        self._str_updater_func = _STR_UPDATER_PROTO(_updater_wrapper(updater))
        check_call(_LIB.MXKVStoreSetUpdaterEx(self.handle, self._updater_func,
                                              self._str_updater_func, None))

    def _barrier(self):
        check_call(_LIB.MXKVStoreBarrier(self.handle))

    def _send_command_to_servers(self, head, body):
        check_call(_LIB.MXKVStoreSendCommmandToServers(self.handle, mx_uint(head), c_str(body)))



_JOB_HOOK_INSTALLED = []


def _end_job_on_uncaught_exception():
    """In a multi-worker job, a worker that dies of an uncaught exception ends the whole job at
    once (mpirun stops every process when one exits without finishing MPI) instead of leaving
    the other workers waiting for it."""
    if _JOB_HOOK_INSTALLED:
        return
    _JOB_HOOK_INSTALLED.append(True)
    previous = sys.excepthook

    def hook(exc_type, exc, tb):
        previous(exc_type, exc, tb)
        if not issubclass(exc_type, (KeyboardInterrupt, SystemExit)):
            sys.stderr.write("mxnet: this worker raised an uncaught exception; ending the job\n")
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(1)
    sys.excepthook = hook
