"""MNIST-format image datasets read from local idx files (no downloads)."""
import gzip
import os
import struct

import numpy as np

from .... import ndarray as nd
from ..dataset import Dataset

__all__ = ["MNIST", "FashionMNIST"]


def _read_idx(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as fin:
        magic = struct.unpack(">I", fin.read(4))[0]
        ndim = magic & 0xFF
        dims = struct.unpack(">" + "I" * ndim, fin.read(4 * ndim))
        data = np.frombuffer(fin.read(), dtype=np.uint8)
    if data.size != int(np.prod(dims)):
        raise ValueError("idx file %s is truncated: header says %s, found %d bytes"
                         % (path, dims, data.size))
    return data.reshape(dims)


class MNIST(Dataset):
    """MNIST images (28x28x1 uint8 NDArray) and int32 labels from idx files in `root`
    (gzip-compressed or not). Samples are (image, label), or transform(image, label)."""

    _train_files = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte")
    _test_files = ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")

    def __init__(self, root=os.path.join("~", ".mxnet", "datasets", "mnist"), train=True,
                 transform=None):
        self._root = os.path.expanduser(root)
        self._train = train
        self._transform = transform
        self._get_data()

    def _find(self, base):
        for name in (base + ".gz", base):
            path = os.path.join(self._root, name)
            if os.path.exists(path):
                return path
        raise OSError("%s: file %s(.gz) not found in %s, and this build does not download "
                      "data sets; put the idx files there (the repository ships a 5,000-sample "
                      "subset in data/mnist-5k/)" % (self.__class__.__name__, base, self._root))

    def _get_data(self):
        images, labels = self._train_files if self._train else self._test_files
        label = _read_idx(self._find(labels)).astype(np.int32)
        data = _read_idx(self._find(images))
        data = data.reshape(len(label), 28, 28, 1)
        self._data = nd.array(data, dtype=data.dtype)
        self._label = label

    def __getitem__(self, idx):
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)


class FashionMNIST(MNIST):
    """Fashion-MNIST (same file layout as MNIST)."""

    def __init__(self, root=os.path.join("~", ".mxnet", "datasets", "fashion-mnist"),
                 train=True, transform=None):
        super(FashionMNIST, self).__init__(root, train, transform)
