"""GPU tests: run on gpu(0) against the CPU result; skipped with a reason without a GPU.

MXNET_TEST_GPU_AS_CPU=1 runs the operator tests (test_gpu_operator*.py) on cpu(0) instead, so a
machine without a GPU still exercises the tests themselves; the runtime tests stay skipped.
"""
import os

import pytest

import mxnet as mx


def pytest_collection_modifyitems(config, items):
    if mx.context.num_gpus() > 0:
        return
    as_cpu = os.environ.get("MXNET_TEST_GPU_AS_CPU") == "1"
    reason = ("no GPU: mx.context.num_gpus() == 0 (CUDA in this build: %s)"
              % mx.runtime.Features().is_enabled("CUDA"))
    for item in items:
        path = str(item.fspath)
        if "/gpu/" not in path:
            continue
        if as_cpu and os.path.basename(path).startswith("test_gpu_operator"):
            continue
        item.add_marker(pytest.mark.skip(reason=reason))
