"""Gluon in NumPy mode (npx.set_np()), written like "Dive into Deep Learning" (MXNet edition):
blocks return mx.np arrays, parameters are mx.np arrays, hybridize works, and a linear
regression and an MLP train to convergence."""
import numpy as onp
import pytest

import mxnet as mx
from mxnet import np, npx, autograd, gluon, init
from mxnet.gluon import nn


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


def _synthetic_data(w, b, num_examples):
    X = np.random.normal(0, 1, (num_examples, len(w)))
    y = np.dot(X, w) + b
    y += np.random.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


def test_linear_regression_from_scratch():
    mx.random.seed(1)
    true_w = np.array([2, -3.4])
    true_b = 4.2
    features, labels = _synthetic_data(true_w, true_b, 1000)
    w = np.random.normal(0, 0.01, (2, 1))
    b = np.zeros(1)
    w.attach_grad()
    b.attach_grad()
    batch = 10
    for _ in range(3):
        for i in range(0, 1000, batch):
            X, y = features[i:i + batch], labels[i:i + batch]
            with autograd.record():
                l = (np.dot(X, w) + b - y.reshape((-1, 1))) ** 2 / 2
            l.backward()
            for param in (w, b):
                param[:] = param - 0.03 * param.grad / batch
    assert isinstance(w.grad, np.ndarray)
    onp.testing.assert_allclose(w.reshape(-1).asnumpy(), [2, -3.4], atol=0.02)
    assert abs(b.item() - 4.2) < 0.02


@pytest.mark.parametrize('hybridize', [False, True])
def test_linear_regression_gluon(hybridize):
    mx.random.seed(2)
    features, labels = _synthetic_data(np.array([2, -3.4]), 4.2, 1000)
    dataset = gluon.data.ArrayDataset(features, labels)
    loader = gluon.data.DataLoader(dataset, 10, shuffle=True)
    net = nn.HybridSequential()
    net.add(nn.Dense(1))
    net.initialize(init.Normal(sigma=0.01))
    if hybridize:
        net.hybridize()
    loss = gluon.loss.L2Loss()
    trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.03})
    for _ in range(3):
        for X, y in loader:
            with autograd.record():
                l = loss(net(X), y)
            assert isinstance(l, np.ndarray)
            l.backward()
            trainer.step(10)
    w = net[0].weight.data()
    assert isinstance(w, np.ndarray) and isinstance(net[0].weight.grad(), np.ndarray)
    onp.testing.assert_allclose(w.reshape(-1).asnumpy(), [2, -3.4], atol=0.02)
    assert abs(net[0].bias.data().item() - 4.2) < 0.02
    out = net(features[:3])
    assert isinstance(out, np.ndarray) and out.shape == (3, 1)


def test_mlp_classifier_converges():
    mx.random.seed(3)
    onp_rng = onp.random.RandomState(0)
    # Two Gaussian blobs per class in 2-D: an MLP separates them.
    centers = onp.array([[2, 2], [-2, -2], [2, -2], [-2, 2]], dtype='float32')
    cls = onp_rng.randint(0, 4, 800)
    X = np.array(centers[cls] + 0.5 * onp_rng.randn(800, 2).astype('float32'))
    y = np.array(cls % 2, dtype='int32')
    net = nn.HybridSequential()
    net.add(nn.Dense(16, activation='relu'), nn.Dense(2))
    net.initialize(init.Xavier())
    net.hybridize()
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.05})
    for _ in range(30):
        for i in range(0, 800, 100):
            with autograd.record():
                l = loss(net(X[i:i + 100]), y[i:i + 100]).mean()
            l.backward()
            trainer.step(1)
    pred = net(X).argmax(axis=1)
    acc = (pred == y.astype('int64')).astype('float32').mean().item()
    assert acc > 0.97, acc


def test_custom_block_with_np_and_npx():
    class MLP(gluon.Block):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.hidden = nn.Dense(8)
            self.out = nn.Dense(3)

        def forward(self, x):
            return npx.softmax(self.out(npx.relu(self.hidden(x))))

    net = MLP()
    net.initialize()
    x = np.random.uniform(size=(4, 5))
    with autograd.record():
        y = net(x)
        s = (y * np.arange(3)).sum()
    s.backward()
    assert isinstance(y, np.ndarray) and y.shape == (4, 3)
    onp.testing.assert_allclose(y.sum(axis=1).asnumpy(), onp.ones(4), rtol=1e-5)
    assert isinstance(net.hidden.weight.grad(), np.ndarray)
    assert float(np.abs(net.hidden.weight.grad()).sum()) > 0


def test_npx_ops():
    x = np.array([[1.0, -2.0, 3.0], [-1.0, 0.5, 2.0]])
    onp.testing.assert_allclose(npx.relu(x).asnumpy(), onp.maximum(x.asnumpy(), 0))
    onp.testing.assert_allclose(npx.sigmoid(x).asnumpy(), 1 / (1 + onp.exp(-x.asnumpy())),
                                rtol=1e-6)
    e = onp.exp(x.asnumpy())
    onp.testing.assert_allclose(npx.softmax(x).asnumpy(), e / e.sum(1, keepdims=True),
                                rtol=1e-6)
    onp.testing.assert_allclose(npx.log_softmax(x).asnumpy(),
                                onp.log(e / e.sum(1, keepdims=True)), rtol=1e-5)
    idx = np.array([0, 2])
    onp.testing.assert_allclose(npx.one_hot(idx, 3).asnumpy(), onp.eye(3)[[0, 2]])
    onp.testing.assert_allclose(npx.pick(x, idx).asnumpy(), [1.0, 2.0])
    assert isinstance(npx.topk(x, k=2), np.ndarray)
    assert npx.reshape(np.ones((2, 3, 4)), (-2, -1)).shape == (2, 12)
    assert npx.reshape(np.ones((2, 3, 4)), (-5, -4)).shape == (6, 4)
    assert npx.reshape(np.ones((2, 12)), (-2, -6, 3, -1)).shape == (2, 3, 4)
    mask = npx.sequence_mask(np.ones((3, 2, 1)), np.array([1, 2]), use_sequence_length=True)
    assert mask.asnumpy()[:, :, 0].tolist() == [[1, 1], [0, 1], [0, 0]]
    emb = npx.embedding(np.array([0, 2]), np.arange(6).reshape(3, 2), input_dim=3,
                        output_dim=2)
    assert emb.asnumpy().tolist() == [[0, 1], [4, 5]]
    assert isinstance(npx.dropout(x, p=0.5), np.ndarray)


def test_np_ops_hybridized_export_names(tmp_path):
    net = nn.HybridSequential()
    net.add(nn.Dense(2))
    net.initialize()
    net.hybridize()
    net(np.ones((1, 3)))
    sym_file, _ = net.export(str(tmp_path / 'net'))
    text = open(sym_file).read()
    assert 'FullyConnected' in text


def test_registry_has_191_names():
    from mxnet.base import op_handle
    for name in ['_np_sum', '_np_max', '_np_min', '_np_prod', '_npi_mean', '_np_reshape',
                 '_npi_add', '_npi_multiply', '_npi_exp', '_npi_zeros', '_npx_relu',
                 '_npx_fully_connected', '_npx_convolution', '_npx_batch_norm']:
        op_handle(name)


def test_d2l_idioms():
    y_hat = np.array([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
    y = np.array([0, 2])      # float32 labels index like integers (as in MXNet 1.9.1)
    ce = -np.log(y_hat[range(len(y_hat)), y])
    onp.testing.assert_allclose(ce.asnumpy(), -onp.log([0.1, 0.5]), rtol=1e-6)
    acc = float((y_hat.argmax(axis=1).astype(y.dtype) == y).astype(y.dtype).sum())
    assert acc == 1.0

    def corr2d(X, K):
        h, w = K.shape
        Y = np.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
        for i in range(Y.shape[0]):
            for j in range(Y.shape[1]):
                Y[i, j] = (X[i: i + h, j: j + w] * K).sum()
        return Y
    got = corr2d(np.arange(9).reshape(3, 3), np.array([[0.0, 1.0], [2.0, 3.0]]))
    assert got.tolist() == [[19.0, 25.0], [37.0, 43.0]]
    # gradient through an integer-array index
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    x.attach_grad()
    with autograd.record():
        z = (x[[0, 1], [1, 0]] * np.array([10.0, 20.0])).sum()
    z.backward()
    assert x.grad.asnumpy().tolist() == [[0.0, 10.0], [20.0, 0.0]]


def test_lenet_layers_return_np_arrays():
    net = nn.Sequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation='sigmoid'),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=5, activation='sigmoid'),
            nn.MaxPool2D(pool_size=2, strides=2),
            nn.Dense(120, activation='sigmoid'), nn.BatchNorm(), nn.Dropout(0.5), nn.Dense(10))
    net.initialize()
    X = np.random.uniform(size=(1, 1, 28, 28))
    shapes = []
    for layer in net:
        X = layer(X)
        assert isinstance(X, np.ndarray)
        shapes.append(X.shape)
    assert shapes == [(1, 6, 28, 28), (1, 6, 14, 14), (1, 16, 10, 10), (1, 16, 5, 5),
                      (1, 120), (1, 120), (1, 120), (1, 10)]


@pytest.mark.parametrize('hybridize', [False, True])
def test_hybrid_forward_with_F_np_and_npx(hybridize):
    class HybridNet(nn.HybridBlock):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.hidden = nn.Dense(4)
            self.output = nn.Dense(2)

        def hybrid_forward(self, F, x):
            h = F.npx.relu(self.hidden(x))
            h = F.np.tanh(h) + F.np.sum(h, axis=1, keepdims=True)
            return F.npx.softmax(self.output(F.np.reshape(h, (-1, 4))))

    net = HybridNet()
    net.initialize()
    x = np.random.normal(size=(3, 5))
    ref = net(x).asnumpy()
    if hybridize:
        net.hybridize()
    x.attach_grad()
    with autograd.record():
        out = net(x)
        loss = (out * np.array([1.0, -1.0])).sum()
    loss.backward()
    assert isinstance(out, np.ndarray) and out.shape == (3, 2)
    onp.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    assert float(np.abs(x.grad).sum()) > 0


def test_symbol_np_records_numpy_ops():
    x = mx.sym.var('x')
    s = mx.sym.np.sum(mx.sym.np.reshape(x, (-1,)))
    assert '_np_sum' in s.tojson() and '_np_reshape' in s.tojson()
    ex = s.bind(mx.cpu(), {'x': mx.nd.ones((2, 3))})
    out = ex.forward()[0]
    assert out.shape == () and out.asnumpy().item() == 6.0


@pytest.mark.parametrize('num_workers', [0, 2])
def test_dataloader_batches_are_np_arrays(num_workers):
    X = onp.arange(20, dtype='float32').reshape(10, 2)
    y = list(range(10))
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(X, y), 4, num_workers=num_workers)
    batches = list(loader)
    assert len(batches) == 3
    for data, label in batches:
        assert isinstance(data, np.ndarray) and isinstance(label, np.ndarray)
    assert batches[0][1].dtype == onp.int64
    onp.testing.assert_allclose(batches[1][0].asnumpy(), X[4:8])


def test_rnn_layer_and_cell_states_are_np_arrays():
    layer = gluon.rnn.RNN(8)
    layer.initialize()
    state = layer.begin_state(batch_size=2, ctx=npx.cpu())
    assert isinstance(state[0], np.ndarray) and state[0].shape == (1, 2, 8)
    out, new_state = layer(np.random.uniform(size=(5, 2, 4)), state)
    assert isinstance(out, np.ndarray) and out.shape == (5, 2, 8)
    assert isinstance(new_state[0], np.ndarray)
    cell = gluon.rnn.LSTMCell(6)
    cell.initialize()
    states = cell.begin_state(batch_size=3)
    assert all(isinstance(s, np.ndarray) for s in states)
    out, _ = cell(np.ones((3, 4)), states)
    assert isinstance(out, np.ndarray) and out.shape == (3, 6)


def test_d2l_training_idioms():
    # conv kernel learned with data()[:] -= lr * grad() (d2l 6.2)
    X = np.ones((6, 8))
    X[:, 2:6] = 0
    K = np.array([[1.0, -1.0]])
    Y = np.zeros((6, 7))
    for i in range(6):
        for j in range(7):
            Y[i, j] = (X[i, j:j + 2] * K).sum()
    conv2d = nn.Conv2D(1, kernel_size=(1, 2), use_bias=False)
    conv2d.initialize()
    X, Y = X.reshape(1, 1, 6, 8), Y.reshape(1, 1, 6, 7)
    for _ in range(30):
        with autograd.record():
            l = (conv2d(X) - Y) ** 2
        l.backward()
        conv2d.weight.data()[:] -= 3e-2 * conv2d.weight.grad()
    onp.testing.assert_allclose(conv2d.weight.data().reshape((1, 2)).asnumpy(), [[1, -1]],
                                atol=0.05)
    # gradient clipping by global norm (d2l 8.5)
    params = [np.ones((2, 2)), np.ones(3)]
    for p in params:
        p.attach_grad()
    with autograd.record():
        s = sum((p * p).sum() for p in params)
    s.backward()
    import math
    norm = math.sqrt(sum((p.grad ** 2).sum() for p in params))
    assert abs(norm - math.sqrt(28.0)) < 1e-5
    for p in params:
        p.grad[:] *= 1.0 / norm
    assert abs(float(np.linalg.norm(params[1].grad)) - math.sqrt(12.0) / norm) < 1e-5
    # save / load of arrays (d2l 5.5)
    import tempfile, os
    path = os.path.join(tempfile.mkdtemp(), 'mydict')
    npx.save(path, {'x': np.arange(4), 'y': np.zeros(2)})
    loaded = npx.load(path)
    assert isinstance(loaded['x'], np.ndarray) and loaded['x'].tolist() == [0, 1, 2, 3]
