"""mx.engine: bulk size control, and the order in which freed memory returns to the pool."""
import os

import numpy as np
import pytest

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


_LOOP_SCRIPT = r"""
import mxnet as mx
def rss_mb():
    return int(open('/proc/self/statm').read().split()[1]) * 4096 / 2**20
x = mx.nd.ones((1024, 1024))  # 4 MiB
mx.nd.waitall()
before = rss_mb()
for _ in range(60):
    mx.nd.abs(x)  # independent calls, all ready at once; each result dropped at once
mx.nd.waitall()
print(rss_mb() - before)
"""


def test_dropped_results_free_their_memory_before_queued_calls_allocate():
    """60 independent calls pushed ahead of their execution: the deletion of each dropped
    result runs as soon as its call finishes, ahead of the calls queued since, so a few
    buffers are reused. Before, every call allocated first (60 x 4 MiB live at once)."""
    import subprocess
    import sys
    if not os.path.exists("/proc/self/statm"):
        pytest.skip("needs /proc/self/statm")
    out = subprocess.run([sys.executable, "-c", _LOOP_SCRIPT], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, MXNET_CPU_WORKER_NTHREADS="1"))
    assert out.returncode == 0, out.stderr
    grew = float(out.stdout.split()[-1])
    assert grew < 60, "resident memory grew by %.0f MiB over 60 calls of 4 MiB" % grew
