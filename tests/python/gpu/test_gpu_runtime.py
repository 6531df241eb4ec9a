"""GPU runtime on gpu(0): device queries against an independent oracle (PyTorch or
cuda-python), copies in every direction, init operators against NumPy, errors."""
import numpy as np
import pytest

import mxnet as mx


def oracle_device_count():
    try:
        from cuda.bindings import runtime as cudart  # cuda-python
        err, count = cudart.cudaGetDeviceCount()
        return count
    except ImportError:
        torch = pytest.importorskip("torch")
        return torch.cuda.device_count()


def test_device_count_and_memory_match_the_oracle():
    assert mx.context.num_gpus() == oracle_device_count()
    free, total = mx.context.gpu_memory_info(0)
    torch = pytest.importorskip("torch")
    t_free, t_total = torch.cuda.mem_get_info(0)
    assert total == t_total
    assert 0 < free <= total
    with pytest.raises(mx.MXNetError, match=r"gpu\(%d\)" % mx.context.num_gpus()):
        mx.context.gpu_memory_info(mx.context.num_gpus())


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "uint8"])
def test_copies_cpu_gpu_cpu_round_trip(dtype):
    src = (np.random.RandomState(1).rand(3, 5, 7) * 100).astype(dtype)
    g = mx.nd.array(src, ctx=mx.gpu(0), dtype=dtype)
    assert g.context == mx.gpu(0)
    np.testing.assert_array_equal(g.asnumpy(), src)
    back = g.as_in_context(mx.cpu())
    np.testing.assert_array_equal(back.asnumpy(), src)
    g2 = mx.nd.empty(src.shape, ctx=mx.gpu(0), dtype=dtype)
    g.copyto(g2)
    np.testing.assert_array_equal(g2.asnumpy(), src)


def test_copy_with_dtype_change_across_devices():
    src = np.arange(12, dtype=np.float32).reshape(3, 4) / 3
    g = mx.nd.empty((3, 4), ctx=mx.gpu(0), dtype="float64")
    mx.nd.array(src).copyto(g)
    np.testing.assert_allclose(g.asnumpy(), src.astype(np.float64), rtol=1e-7)
    c = mx.nd.empty((3, 4), dtype="float16")
    g.copyto(c)
    np.testing.assert_allclose(c.asnumpy(), src.astype(np.float16), rtol=1e-3)


def test_init_operators_on_gpu_match_numpy():
    ctx = mx.gpu(0)
    np.testing.assert_array_equal(mx.nd.zeros((4, 5), ctx=ctx).asnumpy(), np.zeros((4, 5)))
    np.testing.assert_array_equal(mx.nd.ones((4, 5), ctx=ctx, dtype="int32").asnumpy(),
                                  np.ones((4, 5), np.int32))
    np.testing.assert_array_equal(mx.nd.full((3,), 7.5, ctx=ctx).asnumpy(), np.full((3,), 7.5))
    np.testing.assert_allclose(mx.nd.arange(2, 11, 3, repeat=2, ctx=ctx).asnumpy(),
                               np.repeat(np.arange(2, 11, 3), 2).astype(np.float32))
    np.testing.assert_allclose(mx.nd.linspace(0, 1, 7, ctx=ctx).asnumpy(),
                               np.linspace(0, 1, 7).astype(np.float32), rtol=1e-6)
    np.testing.assert_array_equal(mx.nd.eye(4, 6, k=1, ctx=ctx).asnumpy(),
                                  np.eye(4, 6, k=1, dtype=np.float32))
    np.testing.assert_array_equal(mx.nd.zeros((1 << 20,), ctx=ctx).asnumpy(),
                                  np.zeros(1 << 20, np.float32))  # the memset path


def test_operator_without_gpu_kernel_names_operator_and_device():
    if "_linalg_potrf" in mx.runtime.operators_with_kernel("gpu"):
        pytest.skip("_linalg_potrf has a GPU kernel now: pick another probe")
    x = mx.nd.ones((2, 2), ctx=mx.gpu(0))
    with pytest.raises(mx.MXNetError,
                       match=r"_linalg_potrf.* has no GPU implementation: cannot run on gpu\(0\)"):
        mx.nd.linalg.potrf(x).wait_to_read()


def test_bad_device_id_is_an_error_not_a_crash():
    n = mx.context.num_gpus()
    with pytest.raises(mx.MXNetError, match=r"gpu\(%d\) does not exist" % n):
        mx.nd.zeros((2,), ctx=mx.gpu(n)).asnumpy()


def test_dlpack_exchanges_gpu_memory_with_torch_without_copies():
    torch = pytest.importorskip("torch")
    g = mx.nd.array(np.arange(12, dtype=np.float32).reshape(3, 4), ctx=mx.gpu(0))
    t = torch.utils.dlpack.from_dlpack(g.to_dlpack_for_read())
    assert t.is_cuda and t.data_ptr() == g.__cuda_array_interface__["data"][0]
    np.testing.assert_array_equal(t.cpu().numpy(), g.asnumpy())
    w = torch.arange(6, dtype=torch.float64, device="cuda").reshape(2, 3)
    m = mx.nd.from_dlpack(torch.utils.dlpack.to_dlpack(w))
    assert m.context == mx.gpu(0)
    m *= 2  # writes land in torch's memory
    mx.nd.waitall()
    np.testing.assert_array_equal(w.cpu().numpy(), np.arange(6).reshape(2, 3) * 2)


def test_cuda_array_interface_matches_pointer_attributes():
    torch = pytest.importorskip("torch")
    g = mx.nd.ones((5, 7), ctx=mx.gpu(0), dtype="float16") * 3
    cai = g.__cuda_array_interface__
    assert cai["shape"] == (5, 7) and cai["typestr"] == "<f2" and cai["version"] == 3
    t = torch.as_tensor(g, device="cuda")  # reads through the interface, no copy
    assert t.data_ptr() == cai["data"][0]
    np.testing.assert_array_equal(t.cpu().numpy(), np.full((5, 7), 3, np.float16))
    with pytest.raises(AttributeError):
        mx.nd.ones((2,)).__cuda_array_interface__


def test_freed_blocks_are_not_overwritten_before_queued_kernels_finish():
    # Queue long work that reads `a`, drop `a`, then fill a new array of the same size from the
    # host: the pool may hand out a's block, and the host copy must wait for the queued reads.
    a = mx.nd.ones((1 << 24,), ctx=mx.gpu(0))
    acc = mx.nd.zeros((1 << 24,), ctx=mx.gpu(0))
    for _ in range(50):
        acc += a
    del a
    b = mx.nd.array(np.full(1 << 24, 5, np.float32), ctx=mx.gpu(0))
    assert acc.asnumpy().max() == 50 and acc.asnumpy().min() == 50
    assert b.asnumpy().min() == 5
