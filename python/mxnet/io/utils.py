"""Helpers of the Python data iterators: normalising the data argument, shuffling by index."""
from collections import OrderedDict

import numpy as np

from ..ndarray import NDArray, array

try:
    import h5py
except ImportError:  # h5py is optional
    h5py = None

_ARRAY_TYPES = (np.ndarray, NDArray, h5py.Dataset) if h5py else (np.ndarray, NDArray)


def _init_data(data, allow_empty, default_name):
    """Normalise `data` (array, list of arrays or dict name -> array) to a sorted list of
    (name, NDArray) pairs. A single array is named `default_name`; a list names its items
    `_0_<default_name>`, `_1_<default_name>`, ...
    """
    if data is None:
        if not allow_empty:
            raise ValueError("data must not be None")
        data = []
    if isinstance(data, _ARRAY_TYPES):
        data = [data]
    if isinstance(data, (list, tuple)):
        if not allow_empty and len(data) == 0:
            raise ValueError("data must contain at least one array")
        if len(data) == 1:
            data = OrderedDict([(default_name, data[0])])
        else:
            data = OrderedDict([('_%d_%s' % (i, default_name), d) for i, d in enumerate(data)])
    if not isinstance(data, dict):
        raise TypeError("Input must be NDArray, numpy.ndarray, h5py.Dataset "
                        "a list of them or dict with them as values")
    data = OrderedDict(data)
    for k, v in data.items():
        if not isinstance(v, (NDArray, h5py.Dataset) if h5py else NDArray):
            try:
                data[k] = array(v)
            except Exception:
                raise TypeError(("Invalid type '%s' for %s, " % (type(v), k))
                                + "should be NDArray, numpy.ndarray or h5py.Dataset") from None
    return list(sorted(data.items()))


def _has_instance(data, dtype):
    """True if any array of the (name, array) list is an instance of `dtype`."""
    return any(isinstance(arr, dtype) for _, arr in data)


def _getdata_by_idx(data, idx):
    """The (name, array) list with every array's rows reordered by `idx`."""
    shuffled = []
    for name, arr in data:
        if h5py and isinstance(arr, h5py.Dataset):
            shuffled.append((name, arr))
        else:
            shuffled.append((name, array(arr.asnumpy()[idx], arr.context, dtype=arr.dtype)))
    return shuffled
