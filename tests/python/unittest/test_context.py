"""mx.context: Context objects, the with-statement default context, device queries."""
import pickle
import threading

import pytest

import mxnet as mx


def test_context_basics():
    c = mx.cpu()
    assert c.device_type == "cpu" and c.device_id == 0 and c.device_typeid == 1
    assert str(c) == "cpu(0)" and repr(c) == "cpu(0)"
    assert str(mx.gpu(1)) == "gpu(1)"
    assert mx.gpu(1).device_typeid == 2
    assert mx.cpu_pinned(0).device_typeid == 3
    assert mx.context.cpu_shared(0).device_typeid == 5
    assert mx.Context("cpu_pinned", 2) == mx.cpu_pinned(2)
    assert mx.Context(mx.gpu(3)) == mx.gpu(3)
    assert mx.cpu(0) != mx.cpu(1)
    assert mx.cpu(0) != "cpu(0)"
    assert len({mx.cpu(0), mx.Context("cpu", 0), mx.gpu(0)}) == 2
    assert pickle.loads(pickle.dumps(mx.gpu(2))) == mx.gpu(2)
    with pytest.raises(ValueError):
        mx.Context("tpu", 0)


def test_with_statement_nests_and_restores():
    assert mx.current_context() == mx.cpu(0)
    with mx.cpu(1) as c1:
        assert c1 == mx.cpu(1)
        assert mx.current_context() == mx.cpu(1)
        with mx.cpu_pinned(0):
            assert mx.current_context() == mx.cpu_pinned(0)
        assert mx.current_context() == mx.cpu(1)
        with mx.cpu(1):             # the same context entered twice
            assert mx.current_context() == mx.cpu(1)
        assert mx.current_context() == mx.cpu(1)
    assert mx.current_context() == mx.cpu(0)
    assert mx.Context.default_ctx == mx.cpu(0)


def test_default_context_is_thread_local():
    seen = []
    with mx.cpu(3):
        t = threading.Thread(target=lambda: seen.append(mx.current_context()))
        t.start()
        t.join()
        assert mx.current_context() == mx.cpu(3)
    assert seen == [mx.cpu(0)]


def test_num_gpus():
    n = mx.context.num_gpus()
    assert isinstance(n, int) and n >= 0
