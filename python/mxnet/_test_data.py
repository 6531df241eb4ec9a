"""The data helpers of mx.test_utils: downloading, the MNIST / CIFAR-10 sets, archives,
DummyIter, and where tools/im2rec.py lives."""
import bz2
import gzip
import logging
import os
import struct
import zipfile

import numpy as np

from . import io as _io

__all__ = ['download', 'download_model', 'get_mnist', 'get_mnist_ubyte', 'get_mnist_pkl', 'get_mnist_iterator',
           'get_cifar10', 'get_zip_data', 'get_bz2_data', 'get_im2rec_path', 'DummyIter']

_DATA_URL = 'http://data.mxnet.io/data/'


def download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """Download `url` to `fname` (default: the URL's last part, under `dirname` when given)
    unless the file exists and `overwrite` is False; tries `retries` times. Returns the path."""
    import requests
    if fname is None:
        fname = url.split('/')[-1]
    if dirname is not None:
        fname = os.path.join(dirname, fname)
    if dirname is not None and not os.path.isdir(dirname):
        os.makedirs(dirname, exist_ok=True)
    if not overwrite and os.path.exists(fname):
        logging.info('%s exists, skipping download', fname)
        return fname
    if retries <= 0:
        raise ValueError('download: expected a positive number of retries, got %d' % retries)
    for attempt in range(retries):
        try:
            reply = requests.get(url, stream=True, timeout=60)
            if reply.status_code != 200:
                raise RuntimeError('download of %s failed with status %d'
                                   % (url, reply.status_code))
            partial = fname + '.part'
            with open(partial, 'wb') as out:
                for chunk in reply.iter_content(chunk_size=1 << 20):
                    out.write(chunk)
            os.replace(partial, fname)
            logging.info('downloaded %s into %s', url, fname)
            return fname
        except Exception:  # noqa: BLE001  (network errors of any kind are retried)
            if attempt == retries - 1:
                raise
            logging.warning('download of %s failed, retrying (%d left)', url,
                            retries - attempt - 1)
    return fname


def _read_idx(path, dtype_size):
    """The array in an IDX file (the MNIST format), optionally gzip-compressed."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rb') as f:
        magic = struct.unpack('>I', f.read(4))[0]
        ndim = magic & 0xff
        shape = struct.unpack('>' + 'I' * ndim, f.read(4 * ndim))
        data = np.frombuffer(f.read(), dtype=np.uint8 if dtype_size == 1 else np.int32)
    return data.reshape(shape)


def get_mnist(path='data'):
    """The MNIST set as {'train_data', 'train_label', 'test_data', 'test_label'}: images as
    float32 (N, 1, 28, 28) in [0, 1], labels as uint8 (N,). The gzipped IDX files are read
    from `path` (downloaded there when missing)."""
    files = {'train_data': 'train-images-idx3-ubyte.gz',
             'train_label': 'train-labels-idx1-ubyte.gz',
             'test_data': 't10k-images-idx3-ubyte.gz',
             'test_label': 't10k-labels-idx1-ubyte.gz'}
    out = {}
    for key, name in files.items():
        local = os.path.join(path, name)
        if not os.path.exists(local):
            download(_DATA_URL + 'mnist/' + name, dirname=path)
        values = _read_idx(local, 1)
        if key.endswith('data'):
            out[key] = values.reshape(-1, 1, 28, 28).astype(np.float32) / 255
        else:
            out[key] = values.astype(np.uint8)
    return out


def _extract_zip(archive, dirname):
    with zipfile.ZipFile(archive) as zf:
        zf.extractall(dirname)


def get_mnist_ubyte(path='data'):
    """Make sure the four uncompressed MNIST IDX files are in `path` (fetching mnist.zip
    when they are not)."""
    names = ['train-images-idx3-ubyte', 'train-labels-idx1-ubyte', 't10k-images-idx3-ubyte',
             't10k-labels-idx1-ubyte']
    os.makedirs(path, exist_ok=True)
    if not all(os.path.exists(os.path.join(path, n)) for n in names):
        archive = download(_DATA_URL + 'mnist.zip', dirname=path)
        _extract_zip(archive, path)
    return path


def get_mnist_pkl(path='data'):
    """Make sure the pickled MNIST set mnist.pkl.gz is in `path`."""
    os.makedirs(path, exist_ok=True)
    if not os.path.exists(os.path.join(path, 'mnist.pkl.gz')):
        download(_DATA_URL + 'mnist.pkl.gz', dirname=path)
    return os.path.join(path, 'mnist.pkl.gz')


def get_cifar10(path='data'):
    """Make sure the CIFAR-10 record files (cifar/train.rec, cifar/test.rec) are in `path`."""
    os.makedirs(path, exist_ok=True)
    target = os.path.join(path, 'cifar')
    if not (os.path.exists(os.path.join(target, 'train.rec')) and
            os.path.exists(os.path.join(target, 'test.rec'))):
        archive = download(_DATA_URL + 'cifar10.zip', dirname=path)
        _extract_zip(archive, path)
    return target


def get_mnist_iterator(batch_size, input_shape, num_parts=1, part_index=0, path='data'):
    """(train, val) MNISTIters over the IDX files in `path`; an input_shape other than
    (1, 28, 28), such as (784,), flattens the images. The data are split into `num_parts`
    parts and part `part_index` is read."""
    get_mnist_ubyte(path)
    flat = len(input_shape) != 3
    train = _io.MNISTIter(image=os.path.join(path, 'train-images-idx3-ubyte'),
                          label=os.path.join(path, 'train-labels-idx1-ubyte'),
                          batch_size=batch_size, shuffle=True,
                          flat=flat, num_parts=num_parts, part_index=part_index)
    val = _io.MNISTIter(image=os.path.join(path, 't10k-images-idx3-ubyte'),
                        label=os.path.join(path, 't10k-labels-idx1-ubyte'),
                        batch_size=batch_size, flat=flat,
                        num_parts=num_parts, part_index=part_index)
    return train, val


def get_zip_data(data_dir, url, data_origin_name):
    """Download the zip archive `url` as data_dir/data_origin_name and extract it there."""
    os.makedirs(data_dir, exist_ok=True)
    archive = download(url, fname=data_origin_name, dirname=data_dir, overwrite=False)
    _extract_zip(archive, data_dir)


def get_bz2_data(data_dir, data_name, url, data_origin_name):
    """Download the bz2 file `url` as data_dir/data_origin_name and decompress it into
    data_dir/data_name (skipped when that exists); the archive is removed."""
    os.makedirs(data_dir, exist_ok=True)
    target = os.path.join(data_dir, data_name)
    if os.path.exists(target):
        return
    archive = download(url, fname=data_origin_name, dirname=data_dir, overwrite=False)
    with bz2.open(archive, 'rb') as src, open(target, 'wb') as dst:
        while True:
            block = src.read(1 << 20)
            if not block:
                break
            dst.write(block)
    os.remove(archive)


def get_im2rec_path(home_env='MXNET_HOME'):
    """The path of tools/im2rec.py: under $MXNET_HOME when set, else in this source tree."""
    if home_env in os.environ:
        candidate = os.path.join(os.environ[home_env], 'tools', 'im2rec.py')
        if os.path.isfile(candidate):
            return candidate
    here = os.path.dirname(os.path.abspath(__file__))
    candidate = os.path.join(here, '..', '..', 'tools', 'im2rec.py')
    if os.path.isfile(candidate):
        return os.path.normpath(candidate)
    raise IOError('Could not find tools/im2rec.py (set %s to the MXNet source root)' % home_env)


class DummyIter(_io.DataIter):
    """An iterator that returns the first batch of `real_iter` again and again (to time a
    model without the cost of reading data)."""

    def __init__(self, real_iter):
        super(DummyIter, self).__init__()
        self.real_iter = real_iter
        self.provide_data = real_iter.provide_data
        self.provide_label = real_iter.provide_label
        self.batch_size = real_iter.batch_size
        self.the_batch = next(real_iter)

    def __iter__(self):
        return self

    def next(self):
        return self.the_batch

    __next__ = next


# The checkpoints download_model knows (MXNet 1.x's model zoo on data.mxnet.io): name -> the
# folder under models/ and the file stem of its symbol and epoch-0000 (or 0126) parameters.
_MODEL_ZOO = 'http://data.mxnet.io/models/'
_ZOO_MODELS = {
    'imagenet1k-inception-bn': ('imagenet/inception-bn', 'Inception-BN', 126),
    'imagenet1k-resnet-18': ('imagenet/resnet/18-layers', 'resnet-18', 0),
    'imagenet1k-resnet-34': ('imagenet/resnet/34-layers', 'resnet-34', 0),
    'imagenet1k-resnet-50': ('imagenet/resnet/50-layers', 'resnet-50', 0),
    'imagenet1k-resnet-101': ('imagenet/resnet/101-layers', 'resnet-101', 0),
    'imagenet1k-resnet-152': ('imagenet/resnet/152-layers', 'resnet-152', 0),
    'imagenet1k-resnext-50': ('imagenet/resnext/50-layers', 'resnext-50', 0),
    'imagenet1k-resnext-101': ('imagenet/resnext/101-layers', 'resnext-101', 0),
    'imagenet1k-resnext-101-64x4d': ('imagenet/resnext/101-layers', 'resnext-101-64x4d', 0),
    'imagenet11k-resnet-152': ('imagenet-11k/resnet-152', 'resnet-152', 0),
    'imagenet11k-place365ch-resnet-152': ('imagenet-11k-place365-ch', 'resnet-152', 0),
    'imagenet11k-place365ch-resnet-50': ('imagenet-11k-place365-ch', 'resnet-50', 0),
}


def download_model(model_name, dst_dir='./', meta_info=None):
    """Downloads a checkpoint (symbol file and parameters) of the MXNet 1.x model zoo into
    `dst_dir` as `<model_name>-symbol.json` and `<model_name>-0000.params`.

    meta_info: {name: {'symbol': url, 'params': url}} to use instead of the known models.
    Returns (path prefix, epoch 0) for mx.model.load_checkpoint, or (None, 0) for an unknown
    name."""
    if meta_info is None:
        meta_info = {name: {'symbol': '%s%s/%s-symbol.json' % (_MODEL_ZOO, folder, stem),
                            'params': '%s%s/%s-%04d.params' % (_MODEL_ZOO, folder, stem, epoch)}
                     for name, (folder, stem, epoch) in _ZOO_MODELS.items()}
    if model_name not in meta_info:
        return (None, 0)
    urls = dict(meta_info[model_name])
    for key in ('symbol', 'params'):
        if key not in urls:
            raise ValueError('download_model: meta_info for %s has no %r url' % (model_name, key))
    os.makedirs(dst_dir, exist_ok=True)
    prefix = os.path.join(dst_dir, model_name)
    download(urls['symbol'], prefix + '-symbol.json')
    download(urls['params'], prefix + '-0000.params')
    return (prefix, 0)
