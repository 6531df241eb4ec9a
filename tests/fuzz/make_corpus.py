"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/) from the library's
own writers, so every seed is a valid file the fuzzer mutates from. Run from the repository root
with the library built: PYTHONPATH=python python3 tests/fuzz/make_corpus.py"""
import os
import struct
import sys

import numpy as np

import mxnet as mx
from mxnet import recordio

HERE = os.path.dirname(os.path.abspath(__file__))


def _write(target, name, data):
    folder = os.path.join(HERE, 'corpus', target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), 'wb') as f:
        f.write(data)


def _saved(arrays, tmp):
    mx.nd.save(tmp, arrays)
    with open(tmp, 'rb') as f:
        return f.read()


def ndarray_files(tmp):
    rng = np.random.RandomState(0)
    dense = mx.nd.array(rng.rand(2, 3), dtype='float32')
    _write('fuzz_ndarray_load', 'named.params',
           _saved({'arg:w': dense, 'aux:m': mx.nd.array([1, 2], dtype='int64')}, tmp))
    _write('fuzz_ndarray_load', 'list.nd', _saved([dense.astype('float16'), mx.nd.ones((1,))], tmp))
    _write('fuzz_ndarray_load', 'sparse.nd', _saved(
        {'rsp': dense.tostype('row_sparse'), 'csr': dense.tostype('csr')}, tmp))
    _write('fuzz_ndarray_load', 'empty.nd', _saved([], tmp))
    _write('fuzz_ndarray_load', 'zero_size.nd', _saved([mx.nd.zeros((0, 4))], tmp))
    # The single-array format of pickled NDArrays (MXNDArraySaveRawBytes).
    _write('fuzz_ndarray_load', 'raw.bytes', bytes(dense.__getstate__()['handle']))


def symbol_files():
    data = mx.sym.Variable('data')
    mlp = mx.sym.FullyConnected(data, num_hidden=8, name='fc1')
    mlp = mx.sym.Activation(mlp, act_type='relu')
    mlp = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(mlp, num_hidden=2), name='softmax')
    conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name='conv')
    conv = mx.sym.BatchNorm(conv, name='bn')
    conv = mx.sym.Pooling(conv, kernel=(2, 2), stride=(2, 2), pool_type='max')
    with mx.AttrScope(ctx_group='dev1', lr_mult='0.5'):
        attrs = mx.sym.Variable('x', shape=(2, 3), dtype='float32') * 2 + 1
    group = mx.sym.Group([mx.sym.split(data, num_outputs=2)[1], mx.sym.sum(data, axis=1)])
    rnn = mx.sym.RNN(data, mx.sym.Variable('params'), mx.sym.Variable('state'),
                     mx.sym.Variable('cell'), state_size=4, num_layers=1, mode='lstm',
                     state_outputs=True)
    for name, sym in [('mlp', mlp), ('conv_bn', conv), ('attrs', attrs), ('group', group),
                      ('rnn', rnn)]:
        _write('fuzz_symbol_json', name + '.json', sym.tojson().encode())


def record_files(tmp):
    img = (np.arange(8 * 8 * 3) % 251).astype(np.uint8).reshape(8, 8, 3)
    writer = recordio.MXRecordIO(tmp, 'w')
    writer.write(b'plain record')
    writer.write(b'')
    writer.write(recordio.pack(recordio.IRHeader(0, 3.0, 7, 0), b'payload'))
    writer.write(recordio.pack(recordio.IRHeader(2, [1.0, 2.0], 8, 0), b'multi-label'))
    writer.write(recordio.pack_img(recordio.IRHeader(0, 1.0, 9, 0), img, img_fmt='.png'))
    writer.close()
    with open(tmp, 'rb') as f:
        _write('fuzz_recordio', 'records.rec', f.read())
    # Images for the decoders; the first byte of each seed is the target's flag byte.
    for fmt, flags in (('.jpg', 1), ('.png', 3), ('.png', 0)):
        packed = recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), img, img_fmt=fmt)
        _, encoded = recordio.unpack(packed)
        _write('fuzz_image_decode', 'img%d%s' % (flags, fmt), bytes([flags]) + encoded)
    grey = recordio.pack_img(recordio.IRHeader(0, 0.0, 0, 0), img[:, :, 0], img_fmt='.jpg')
    _write('fuzz_image_decode', 'grey.jpg', bytes([0]) + recordio.unpack(grey)[1])


def iterator_files():
    # First byte: 0 CSV, 1 LibSVM, 2 MNIST; second: where the second file starts.
    csv_data = b'1,2,3\n4,5,6\n7,8,9\n'
    csv_label = b'0\n1\n0\n'
    _write('fuzz_data_iters', 'csv', bytes([0, len(csv_data)]) + csv_data + csv_label)
    libsvm = b'1 0:1.5 3:2\n0 1:1 7:0.25\n1 2:3\n'
    _write('fuzz_data_iters', 'libsvm', bytes([1, 0]) + libsvm)
    images = struct.pack('>iiii', 2051, 3, 2, 2) + bytes(range(12))
    labels = struct.pack('>ii', 2049, 3) + bytes([1, 2, 3])
    _write('fuzz_data_iters', 'mnist', bytes([2, len(images)]) + images + labels)


def main():
    tmp = os.path.join(HERE, '.corpus.tmp')
    try:
        ndarray_files(tmp)
        symbol_files()
        record_files(tmp)
        iterator_files()
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
