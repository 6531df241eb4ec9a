"""DLPack exchange: capsules, NumPy interop, from_numpy zero-copy, optional PyTorch."""
import gc
import sys
import time

import numpy as np
import pytest

import mxnet as mx


def test_capsule_roundtrip_shares_memory():
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    cap = a.to_dlpack_for_write()
    assert "dltensor" in repr(cap)
    b = mx.nd.from_dlpack(cap)
    assert "used_dltensor" in repr(cap)
    assert b.shape == a.shape and b.dtype == a.dtype
    np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())
    b[:] = 7
    b.wait_to_read()        # a and b are separate engine variables over the same memory
    np.testing.assert_array_equal(a.asnumpy(), np.full((2, 3), 7))
    del a
    gc.collect()
    np.testing.assert_array_equal(b.asnumpy(), np.full((2, 3), 7))   # b keeps the data alive


def test_capsule_consumed_once():
    cap = mx.nd.ones((2,)).to_dlpack_for_read()
    mx.nd.from_dlpack(cap)
    with pytest.raises(ValueError, match="consumed only once"):
        mx.nd.from_dlpack(cap)


def test_unconsumed_capsule_is_released():
    for _ in range(50):
        cap = mx.nd.ones((100,)).to_dlpack_for_read()
        del cap
    gc.collect()
    assert (mx.nd.ones((1,)) + 1).asscalar() == 2


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8", "int8"])
def test_numpy_from_dlpack(dtype):
    if not hasattr(np, "from_dlpack"):
        pytest.skip("numpy without from_dlpack")
    src = np.arange(12).reshape(3, 4).astype(dtype)
    a = mx.nd.array(src, dtype=dtype)
    view = np.from_dlpack(a)
    assert view.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(view, src)
    a[:] = 1
    a.wait_to_read()                       # writes are asynchronous; DLPack views don't wait
    np.testing.assert_array_equal(view, np.ones((3, 4)))        # zero copy


def test_mx_from_numpy_dlpack():
    if not hasattr(np.ndarray, "__dlpack__"):
        pytest.skip("numpy without __dlpack__")
    src = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = mx.nd.from_dlpack(src)                 # objects with __dlpack__ are accepted
    np.testing.assert_array_equal(a.asnumpy(), src)
    src[0, 0] = 42
    assert a.asnumpy()[0, 0] == 42             # shares memory
    b = mx.nd.from_dlpack(src.__dlpack__())
    assert b.asnumpy()[0, 0] == 42


def test_from_numpy_zero_copy_and_copy():
    src = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = mx.nd.from_numpy(src)
    assert not src.flags["WRITEABLE"]
    np.testing.assert_array_equal(a.asnumpy(), np.arange(6).reshape(2, 3))
    del src
    gc.collect()
    np.testing.assert_array_equal((a + 1).asnumpy(), np.arange(1, 7).reshape(2, 3))
    src2 = np.arange(4, dtype=np.int32)
    b = mx.nd.from_numpy(src2, zero_copy=False)
    assert b.dtype == np.int32
    src2[0] = 9
    assert b.asnumpy()[0] == 0
    with pytest.raises(ValueError):
        mx.nd.from_numpy(np.zeros((4, 4), dtype=np.float32)[:, ::2])


def test_from_numpy_releases_the_numpy_array():
    # The NDArray holds one reference on the NumPy array and gives it back when it dies (the
    # DLPack deleter of a transient handle runs on a copy of the struct, as in MXNet 1.x).
    src = np.arange(6, dtype=np.float32)
    before = sys.getrefcount(src)
    for _ in range(3):
        a = mx.nd.from_numpy(src)
        assert sys.getrefcount(src) == before + 1
        (a * 2).wait_to_read()
        del a
        mx.nd.waitall()
        gc.collect()
        for _ in range(100):  # the chunk is freed by the engine, after its pending reads
            if sys.getrefcount(src) == before:
                break
            time.sleep(0.01)
        assert sys.getrefcount(src) == before


def test_torch_interop():
    torch = pytest.importorskip("torch")
    import torch.utils.dlpack as tdl
    a = mx.nd.array([[1, 2], [3, 4]])
    t = tdl.from_dlpack(a.to_dlpack_for_write())
    t += 1
    np.testing.assert_array_equal(a.asnumpy(), [[2, 3], [4, 5]])
    b = mx.nd.from_dlpack(tdl.to_dlpack(torch.arange(4, dtype=torch.float32)))
    np.testing.assert_array_equal(b.asnumpy(), [0, 1, 2, 3])
