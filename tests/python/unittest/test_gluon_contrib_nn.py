"""mx.gluon.contrib.nn: Concurrent, HybridConcurrent, Identity and PixelShuffle1D/2D/3D, against
NumPy and against MXNet 1.9.1 (parameter names, outputs)."""
import json
import os
import tempfile

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon import nn
from mxnet.gluon.contrib import nn as cnn

import mx191_oracle


def pixel_shuffle_reference(x, factors):
    """out[n, c, d0*f0 + i0, d1*f1 + i1, ...] = x[n, c*prod(f) + flat(i0, i1, ...), d0, d1, ...]"""
    n, cin = x.shape[:2]
    spatial = x.shape[2:]
    channels = cin // int(np.prod(factors))
    out = np.empty((n, channels) + tuple(s * f for s, f in zip(spatial, factors)), x.dtype)
    for c in range(channels):
        for offsets in np.ndindex(*factors):
            channel = c * int(np.prod(factors)) + int(np.ravel_multi_index(offsets, factors))
            index = (slice(None), c) + tuple(slice(o, None, f) for o, f in zip(offsets, factors))
            out[index] = x[:, channel]
    return out


CASES = [(cnn.PixelShuffle1D, 3, (2, 6, 5)),
         (cnn.PixelShuffle2D, (2, 3), (2, 12, 3, 4)),
         (cnn.PixelShuffle2D, 2, (1, 8, 2, 3)),
         (cnn.PixelShuffle3D, (2, 1, 3), (1, 12, 2, 3, 2))]


@pytest.mark.parametrize("hybridize", [False, True])
@pytest.mark.parametrize("block,factor,shape", CASES)
def test_pixel_shuffle_matches_numpy_forward_and_backward(block, factor, shape, hybridize):
    ndim = len(shape) - 2
    factors = factor if isinstance(factor, tuple) else (factor,) * ndim
    rng = np.random.RandomState(0)
    x_np = rng.randn(*shape).astype(np.float32)
    net = block(factor)
    if hybridize:
        net.hybridize()
    x = mx.nd.array(x_np)
    x.attach_grad()
    with mx.autograd.record():
        y = net(x)
    want = pixel_shuffle_reference(x_np, factors)
    np.testing.assert_array_equal(y.asnumpy(), want)
    # A permutation: the input gradient is the head gradient moved back to each source.
    head = rng.randn(*want.shape).astype(np.float32)
    y.backward(mx.nd.array(head))
    expected = np.empty_like(x_np)
    flat_sources = pixel_shuffle_reference(
        np.arange(x_np.size, dtype=np.int64).reshape(shape), factors)
    expected.reshape(-1)[flat_sources.reshape(-1)] = head.reshape(-1)
    np.testing.assert_array_equal(x.grad.asnumpy(), expected)


def test_pixel_shuffle_rejects_bad_factors():
    with pytest.raises(ValueError, match="PixelShuffle2D"):
        cnn.PixelShuffle2D((2, 2, 2))
    with pytest.raises(ValueError, match="PixelShuffle1D"):
        cnn.PixelShuffle1D(0)


def _branches(block):
    with block.name_scope():
        block.add(nn.Dense(4))
        block.add(cnn.Identity())
        block.add(nn.Dense(3))
    return block


@pytest.mark.parametrize("cls", [cnn.Concurrent, cnn.HybridConcurrent])
def test_concurrent_concatenates_children_outputs(cls):
    x = mx.nd.array(np.random.RandomState(1).randn(2, 5).astype(np.float32))
    net = _branches(cls(axis=1))
    net.initialize(mx.init.Uniform(1.0))
    if cls is cnn.HybridConcurrent:
        net.hybridize()
    out = net(x).asnumpy()
    children = list(net._children.values())
    want = np.concatenate([children[0](x).asnumpy(), x.asnumpy(), children[2](x).asnumpy()],
                          axis=1)
    np.testing.assert_allclose(out, want, rtol=1e-6)


MX191_SCRIPT = r"""
import json, sys
import numpy as np
import mxnet as mx
from mxnet.gluon import nn
from mxnet.gluon.contrib import nn as cnn
out = {}
for name in ("Concurrent", "HybridConcurrent"):
    block = getattr(cnn, name)(axis=1)
    with block.name_scope():
        block.add(nn.Dense(4)); block.add(cnn.Identity()); block.add(nn.Dense(3))
    block.initialize()
    block(mx.nd.ones((2, 5)))
    out[name] = sorted(block.collect_params().keys())
x = np.arange(2 * 12 * 3 * 4, dtype=np.float32).reshape(2, 12, 3, 4)
out["ps2d"] = cnn.PixelShuffle2D((2, 3))(mx.nd.array(x)).asnumpy().tolist()
x = np.arange(1 * 12 * 2 * 3 * 2, dtype=np.float32).reshape(1, 12, 2, 3, 2)
out["ps3d"] = cnn.PixelShuffle3D((2, 1, 3))(mx.nd.array(x)).asnumpy().tolist()
json.dump(out, open(sys.argv[1], "w"))
"""


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_names_and_outputs_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "ref.py")
        result = os.path.join(tmp, "ref.json")
        with open(script, "w") as f:
            f.write(MX191_SCRIPT)
        mx191_oracle.run([script, result], ours=False)
        with open(result) as f:
            ref = json.load(f)
    for name in ("Concurrent", "HybridConcurrent"):
        with mx.name.NameManager():
            block = _branches(getattr(cnn, name)(axis=1))
        block.initialize()
        block(mx.nd.ones((2, 5)))
        assert sorted(block.collect_params().keys()) == ref[name]
    x = np.arange(2 * 12 * 3 * 4, dtype=np.float32).reshape(2, 12, 3, 4)
    np.testing.assert_array_equal(cnn.PixelShuffle2D((2, 3))(mx.nd.array(x)).asnumpy(),
                                  np.array(ref["ps2d"], np.float32))
    x = np.arange(1 * 12 * 2 * 3 * 2, dtype=np.float32).reshape(1, 12, 2, 3, 2)
    np.testing.assert_array_equal(cnn.PixelShuffle3D((2, 1, 3))(mx.nd.array(x)).asnumpy(),
                                  np.array(ref["ps3d"], np.float32))
