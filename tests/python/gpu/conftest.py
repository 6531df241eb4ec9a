"""GPU tests: run on gpu(0) against the CPU result; skipped with a reason without a GPU."""
import pytest

import mxnet as mx


def pytest_collection_modifyitems(config, items):
    if mx.context.num_gpus() > 0:
        return
    reason = ("no GPU: mx.context.num_gpus() == 0 (CUDA in this build: %s)"
              % mx.runtime.Features().is_enabled("CUDA"))
    for item in items:
        if "/gpu/" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=reason))
