"""mx.engine: bulk size control."""
import numpy as np

import mxnet as mx


def test_set_bulk_size_returns_previous():
    prev = mx.engine.set_bulk_size(8)
    assert mx.engine.set_bulk_size(prev) == 8


def test_bulk_context_manager_restores_and_computes():
    prev = mx.engine.set_bulk_size(0)
    x = mx.nd.zeros((3,))
    with mx.engine.bulk(5):
        for _ in range(12):
            x += 1
        assert mx.engine.set_bulk_size(5) == 5
    np.testing.assert_array_equal(x.asnumpy(), np.full(3, 12))
    assert mx.engine.set_bulk_size(prev) == 0
