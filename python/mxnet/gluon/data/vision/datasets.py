"""MNIST-format and CIFAR image datasets read from local files (no downloads), and image
datasets over folders, image lists and RecordIO files (decoded with mx.image)."""
import gzip
import numbers
import os
import struct
import warnings

import numpy as np

from .... import ndarray as nd
from .... import image, recordio
from ..dataset import Dataset, RecordFileDataset

__all__ = ["MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageRecordDataset",
           "ImageFolderDataset", "ImageListDataset"]


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


class CIFAR10(Dataset):
    """CIFAR-10 images (32x32x3 uint8 NDArray, HWC) and int32 labels from the binary version of
    the set in `root` (cifar-10-batches-bin/data_batch_1..5.bin for training, test_batch.bin
    for testing: records of 1 label byte and 3072 image bytes in CHW order). Samples are
    (image, label), or transform(image, label)."""

    _folder = 'cifar-10-batches-bin'
    _train_files = ['data_batch_%d.bin' % i for i in range(1, 6)]
    _test_files = ['test_batch.bin']
    _label_bytes = 1

    def __init__(self, root=os.path.join('~', '.mxnet', 'datasets', 'cifar10'), train=True,
                 transform=None):
        self._root = os.path.expanduser(root)
        self._train = train
        self._transform = transform
        self._get_data()

    def _paths(self):
        names = self._train_files if self._train else self._test_files
        paths = []
        for name in names:
            for path in (os.path.join(self._root, self._folder, name),
                         os.path.join(self._root, name)):
                if os.path.exists(path):
                    paths.append(path)
                    break
            else:
                raise OSError('%s: file %s not found in %s, and this build does not download '
                              'data sets; extract the binary version of the set there'
                              % (self.__class__.__name__, name, self._root))
        return paths

    def _pick_label(self, labels):
        return labels[:, 0]

    def _get_data(self):
        record = self._label_bytes + 3072
        paths = self._paths()
        raw = [np.fromfile(path, dtype=np.uint8) for path in paths]
        for path, values in zip(paths, raw):
            if values.size % record:
                raise ValueError('%s: %s is not a whole number of %d-byte records'
                                 % (self.__class__.__name__, path, record))
        records = np.concatenate(raw).reshape(-1, record)
        images = records[:, self._label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        self._data = nd.array(np.ascontiguousarray(images), dtype=np.uint8)
        self._label = self._pick_label(records[:, :self._label_bytes]).astype(np.int32)

    def __getitem__(self, idx):
        if self._transform is not None:
            return self._transform(self._data[idx], self._label[idx])
        return self._data[idx], self._label[idx]

    def __len__(self):
        return len(self._label)


class CIFAR100(CIFAR10):
    """CIFAR-100 from its binary version in `root` (cifar-100-binary/train.bin, test.bin:
    records of a coarse and a fine label byte and 3072 image bytes). The label is the fine
    class (0-99) when fine_label, else the coarse superclass (0-19)."""

    _folder = 'cifar-100-binary'
    _train_files = ['train.bin']
    _test_files = ['test.bin']
    _label_bytes = 2

    def __init__(self, root=os.path.join('~', '.mxnet', 'datasets', 'cifar100'),
                 fine_label=False, train=True, transform=None):
        self._fine_label = fine_label
        super(CIFAR100, self).__init__(root, train, transform)

    def _pick_label(self, labels):
        return labels[:, 1] if self._fine_label else labels[:, 0]


class ImageRecordDataset(RecordFileDataset):
    """Images packed in a RecordIO file (with its .idx): samples are (image, label) with the
    image decoded by mx.image.imdecode (flag 1 colour, 0 grey) and the record header's label,
    or transform(image, label)."""

    def __init__(self, filename, flag=1, transform=None):
        super(ImageRecordDataset, self).__init__(filename)
        self._flag = flag
        self._transform = transform

    def __getitem__(self, idx):
        record = super(ImageRecordDataset, self).__getitem__(idx)
        header, img = recordio.unpack(record)
        if self._transform is not None:
            return self._transform(image.imdecode(img, self._flag), header.label)
        return image.imdecode(img, self._flag), header.label


class ImageFolderDataset(Dataset):
    """Images in `root`/<class folder>/<image>: the label of an image is the index of its folder
    in sorted order (names in .synsets). Only .jpg, .jpeg and .png files are read."""

    def __init__(self, root, flag=1, transform=None):
        self._root = os.path.expanduser(root)
        self._flag = flag
        self._transform = transform
        self._exts = ['.jpg', '.jpeg', '.png']
        self._list_images(self._root)

    def _list_images(self, root):
        self.synsets = []
        self.items = []
        for folder in sorted(os.listdir(root)):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                warnings.warn('Ignoring %s, which is not a directory.' % path, stacklevel=3)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for filename in sorted(os.listdir(path)):
                filename = os.path.join(path, filename)
                ext = os.path.splitext(filename)[1]
                if ext.lower() not in self._exts:
                    warnings.warn('Ignoring %s of type %s. Only support %s'
                                  % (filename, ext, ', '.join(self._exts)))
                    continue
                self.items.append((filename, label))

    def __getitem__(self, idx):
        img = image.imread(self.items[idx][0], self._flag)
        label = self.items[idx][1]
        if self._transform is not None:
            return self._transform(img, label)
        return img, label

    def __len__(self):
        return len(self.items)


class ImageListDataset(Dataset):
    """Images listed in a .lst file under `root` (``index\tlabel(s)\tpath`` lines) or in a
    Python list of [label(s)..., path]; samples are (image, float label array)."""

    def __init__(self, root='.', imglist=None, flag=1):
        self._flag = flag
        self._root = root
        self.items = []
        if isinstance(imglist, str):
            with open(os.path.join(self._root, imglist), 'rt') as fin:
                for line in iter(fin.readline, ''):
                    line = line.strip().split('\t')
                    if len(line) < 2:
                        continue
                    label = np.array(line[1:-1]).astype('float')
                    self.items.append((os.path.join(self._root, line[-1]), label))
        elif isinstance(imglist, list):
            for img in imglist:
                if len(img) > 2:
                    label = np.array(img[:-1]).astype('float')
                elif isinstance(img[0], (numbers.Number, np.generic)):
                    label = np.array([img[0]]).astype('float')
                else:
                    label = np.array(img[0]).astype('float')
                self.items.append((os.path.join(self._root, img[-1]), label))
        else:
            raise ValueError("imglist should be a list or str, got {}".format(type(imglist)))

    def __getitem__(self, idx):
        img = image.imread(self.items[idx][0], self._flag)
        label = self.items[idx][1]
        return img, label

    def __len__(self):
        return len(self.items)
