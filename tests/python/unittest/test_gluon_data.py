"""Gluon data: datasets, samplers, DataLoader, MNIST from the bundled idx files, transforms,
and an MLP / LeNet trained on the bundled MNIST subset."""
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn
from mxnet.gluon.data import vision

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
MNIST_DIR = os.path.join(REPO, "data", "mnist-5k")


def test_array_and_simple_dataset():
    x = np.arange(20).reshape(10, 2)
    y = mx.nd.arange(10)
    ds = gluon.data.ArrayDataset(x, y)
    assert len(ds) == 10
    a, b = ds[3]
    np.testing.assert_array_equal(a, [6, 7])
    assert b == 3
    with pytest.raises(AssertionError, match="same length"):
        gluon.data.ArrayDataset(x, np.arange(3))
    s = gluon.data.SimpleDataset(list(range(10)))
    assert [s.transform(lambda v: v * 2)[i] for i in range(3)] == [0, 2, 4]
    assert [s.filter(lambda v: v % 3 == 0)[i] for i in range(4)] == [0, 3, 6, 9]
    assert [s.shard(3, 0)[i] for i in range(4)] == [0, 1, 2, 3]
    assert len(s.shard(3, 2)) == 3 and len(s.take(4)) == 4
    first = ds.transform_first(lambda v: v.sum())
    assert first[2][0] == 9 and first[2][1] == 2


def test_samplers():
    assert list(gluon.data.SequentialSampler(4, start=2)) == [2, 3, 4, 5]
    np.random.seed(0)
    r = list(gluon.data.RandomSampler(10))
    assert sorted(r) == list(range(10)) and r != list(range(10))
    seq = gluon.data.SequentialSampler(7)
    assert list(gluon.data.BatchSampler(seq, 3, "keep")) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(gluon.data.BatchSampler(seq, 3, "discard")) == [[0, 1, 2], [3, 4, 5]]
    roll = gluon.data.BatchSampler(seq, 3, "rollover")
    assert list(roll) == [[0, 1, 2], [3, 4, 5]]
    assert len(roll) == 2
    assert list(roll) == [[6, 0, 1], [2, 3, 4]]
    assert len(gluon.data.BatchSampler(seq, 3, "keep")) == 3
    with pytest.raises(ValueError, match="last_batch must be one of"):
        gluon.data.BatchSampler(seq, 3, "drop")


def test_dataloader():
    x = np.arange(30, dtype="float32").reshape(10, 3)
    y = np.arange(10, dtype="int32")
    ds = gluon.data.ArrayDataset(x, y)
    batches = list(gluon.data.DataLoader(ds, batch_size=4))
    assert [b[0].shape for b in batches] == [(4, 3), (4, 3), (2, 3)]
    np.testing.assert_array_equal(batches[1][0].asnumpy(), x[4:8])
    assert batches[0][1].dtype == np.int32
    assert len(gluon.data.DataLoader(ds, batch_size=4, last_batch="discard")) == 2
    shuffled = np.concatenate([b[1].asnumpy() for b in
                               gluon.data.DataLoader(ds, batch_size=3, shuffle=True)])
    assert sorted(shuffled) == list(range(10))
    threaded = list(gluon.data.DataLoader(ds, batch_size=4, num_workers=2))
    for a, b in zip(threaded, batches):
        np.testing.assert_array_equal(a[0].asnumpy(), b[0].asnumpy())
    custom = list(gluon.data.DataLoader(ds, batch_size=5,
                                        batchify_fn=lambda s: len(s)))
    assert custom == [5, 5]
    with pytest.raises(ValueError, match="batch_size must be specified"):
        gluon.data.DataLoader(ds)
    with pytest.raises(ValueError, match="shuffle must not be specified"):
        gluon.data.DataLoader(ds, batch_size=2, shuffle=True,
                              sampler=gluon.data.SequentialSampler(10))
    with pytest.raises(ValueError, match="must not be specified if batch_sampler"):
        gluon.data.DataLoader(ds, batch_size=2,
                              batch_sampler=gluon.data.BatchSampler(
                                  gluon.data.SequentialSampler(10), 2))


def test_record_file_dataset(tmp_path):
    rec = str(tmp_path / "d.rec")
    idx = str(tmp_path / "d.idx")
    w = mx.recordio.MXIndexedRecordIO(idx, rec, "w")
    for i in range(5):
        w.write_idx(i, b"record%d" % i)
    w.close()
    ds = gluon.data.RecordFileDataset(rec)
    assert len(ds) == 5 and ds[3] == b"record3"


def test_mnist_reads_bundled_idx_files():
    train = vision.MNIST(root=MNIST_DIR, train=True)
    test = vision.MNIST(root=MNIST_DIR, train=False)
    assert len(train) == 4000 and len(test) == 1000
    img, label = train[0]
    assert img.shape == (28, 28, 1) and img.dtype == np.uint8
    assert isinstance(label, np.int32) or label.dtype == np.int32
    labels = np.array([test[i][1] for i in range(len(test))])
    assert np.bincount(labels).min() > 50
    with pytest.raises(OSError, match="not found"):
        vision.MNIST(root=str(HERE), train=True)
    fm = vision.FashionMNIST(root=MNIST_DIR, train=False)
    assert len(fm) == 1000


def test_transforms():
    img = mx.nd.array(np.arange(24).reshape(2, 4, 3), dtype="uint8")
    t = vision.transforms.ToTensor()(img)
    assert t.shape == (3, 2, 4) and t.dtype == np.float32
    np.testing.assert_allclose(t.asnumpy(), np.arange(24).reshape(2, 4, 3)
                               .transpose(2, 0, 1) / 255.0, rtol=1e-6)
    n = vision.transforms.Normalize(mean=(0.1, 0.2, 0.3), std=(0.5, 0.5, 1.0))(t)
    want = (t.asnumpy() - np.array([0.1, 0.2, 0.3]).reshape(3, 1, 1)) / \
        np.array([0.5, 0.5, 1.0]).reshape(3, 1, 1)
    np.testing.assert_allclose(n.asnumpy(), want, rtol=1e-5, atol=1e-6)
    comp = vision.transforms.Compose([vision.transforms.Cast("float32"),
                                      vision.transforms.ToTensor()])
    # Cast then ToTensor: 0..255 floats become 0..1 as well.
    np.testing.assert_allclose(comp(img).asnumpy(), t.asnumpy(), rtol=1e-6)
    assert vision.transforms.Cast("float64")(img).dtype == np.float64


def _loaders(batch_size=100):
    """Transforms each split once as a whole batch (the per-sample lazy path is covered by
    test_transforms and is slower), then batches with the DataLoader."""
    tf = vision.transforms.Compose([vision.transforms.ToTensor(),
                                    vision.transforms.Normalize(0.13, 0.31)])
    out = []
    for train in (True, False):
        ds = vision.MNIST(root=MNIST_DIR, train=train)
        images = tf(ds._data)
        labels = ds._label
        arr = gluon.data.ArrayDataset(images, labels)
        out.append(gluon.data.DataLoader(arr, batch_size=batch_size if train else 500,
                                         shuffle=train))
    return out


def _fit(net, epochs, lr, hybridize):
    mx.random.seed(1)
    np.random.seed(1)
    net.initialize(mx.init.Xavier())
    if hybridize:
        net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": lr,
                                                          "momentum": 0.9})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    train, test = _loaders()
    for _ in range(epochs):
        for x, y in train:
            with autograd.record():
                loss = loss_fn(net(x), y)
            loss.backward()
            trainer.step(x.shape[0])
    metric = mx.metric.Accuracy()
    for x, y in test:
        metric.update([y], [net(x)])
    return metric.get()[1]


def test_mlp_trains_on_bundled_mnist():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(128, activation="relu"), nn.Dropout(0.1), nn.Dense(10))
    acc = _fit(net, epochs=4, lr=0.05, hybridize=False)
    assert acc > 0.9, acc


def test_lenet_trains_on_bundled_mnist_hybridized():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(8, kernel_size=5, activation="relu"),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Conv2D(16, kernel_size=5, activation="relu"),
                nn.MaxPool2D(pool_size=2, strides=2),
                nn.Flatten(),
                nn.Dense(64, activation="relu"),
                nn.Dense(10))
    acc = _fit(net, epochs=2, lr=0.05, hybridize=True)
    assert acc > 0.85, acc
