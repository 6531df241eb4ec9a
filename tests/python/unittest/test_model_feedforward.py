"""mx.model.FeedForward (MXNet's first model API, here on top of Module)."""
import numpy as onp
import pytest

import mxnet as mx


def _problem():
    rng = onp.random.RandomState(0)
    X = rng.randn(240, 4).astype('float32')
    y = (X[:, 0] - 2 * X[:, 2] > 0).astype('float32')
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=2, name='fc')
    return X, y, mx.sym.SoftmaxOutput(net, name='softmax')


def test_fit_predict_score_save_load(tmp_path):
    X, y, net = _problem()
    mx.random.seed(0)
    model = mx.model.FeedForward(net, num_epoch=8, learning_rate=0.5, numpy_batch_size=24)
    seen = []
    model.fit(X, y, epoch_end_callback=lambda epoch, *args: seen.append(epoch))
    assert seen == list(range(8))
    assert set(model.arg_params) == {'fc_weight', 'fc_bias'}
    prob = model.predict(X)
    assert prob.shape == (240, 2)
    onp.testing.assert_allclose(prob.sum(1), 1, rtol=1e-5)
    accuracy = (prob.argmax(1) == y).mean()
    assert accuracy > 0.95
    assert abs(model.score(mx.io.NDArrayIter(X, y, 24)) - accuracy) < 1e-6
    # the prediction is the softmax of the learnt affine map
    w, b = model.arg_params['fc_weight'].asnumpy(), model.arg_params['fc_bias'].asnumpy()
    logits = X @ w.T + b
    ref = onp.exp(logits - logits.max(1, keepdims=True))
    onp.testing.assert_allclose(prob, ref / ref.sum(1, keepdims=True), rtol=1e-4, atol=1e-6)
    out, data, label = model.predict(mx.io.NDArrayIter(X[:50], y[:50], 24), return_data=True)
    assert out.shape == (50, 2) and data.shape == (50, 4)
    onp.testing.assert_array_equal(label, y[:50])
    prefix = str(tmp_path / 'ff')
    model.save(prefix)
    loaded = mx.model.FeedForward.load(prefix, 8)
    onp.testing.assert_allclose(loaded.predict(X), prob, rtol=1e-6)
    with pytest.raises(ValueError):
        mx.model.FeedForward(net, num_epoch=1).fit(X)


def test_create_and_estimator_base():
    X, y, net = _problem()
    model = mx.model.FeedForward.create(net, X, y, num_epoch=2, learning_rate=0.1,
                                        numpy_batch_size=40)
    assert model.predict(X[:5]).shape == (5, 2)
    assert issubclass(mx.model.FeedForward, mx.model.BASE_ESTIMATOR)
    assert mx.model.SKLEARN_INSTALLED == (mx.model.BASE_ESTIMATOR is not object)
