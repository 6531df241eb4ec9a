"""mx.lr_scheduler: schedules against their closed-form formulas, warmup, argument errors,
and (when the MXNet 1.9.1 venv exists) the same sequences from the real MXNet."""
import math
import os
import tempfile

import numpy as np
import pytest

import mxnet as mx

from mx191_oracle import HAVE_MX191, SKIP_REASON, check_reference, run


def test_factor_scheduler_formula():
    s = mx.lr_scheduler.FactorScheduler(step=3, factor=0.5, base_lr=1.0)
    for n in range(1, 20):
        assert s(n) == pytest.approx(0.5 ** ((n - 1) // 3)), n


def test_factor_scheduler_stop_factor_lr_and_jump():
    s = mx.lr_scheduler.FactorScheduler(step=1, factor=0.1, stop_factor_lr=1e-3, base_lr=1.0)
    # Resuming at update 10 applies all reductions at once, clamped at stop_factor_lr.
    assert s(10) == pytest.approx(1e-3)
    assert s(11) == pytest.approx(1e-3)


def test_multifactor_scheduler_formula():
    steps = [3, 7, 8]
    s = mx.lr_scheduler.MultiFactorScheduler(step=steps, factor=0.1, base_lr=2.0)
    for n in range(0, 15):
        expected = 2.0 * 0.1 ** sum(1 for st in steps if n > st)
        assert s(n) == pytest.approx(expected), n


def test_poly_scheduler_formula():
    s = mx.lr_scheduler.PolyScheduler(max_update=20, base_lr=0.5, pwr=2, final_lr=0.01)
    for n in range(0, 25):
        m = min(n, 20)
        assert s(n) == pytest.approx(0.01 + (0.5 - 0.01) * (1 - m / 20.0) ** 2), n


def test_cosine_scheduler_formula():
    s = mx.lr_scheduler.CosineScheduler(max_update=10, base_lr=1.0, final_lr=0.1)
    for n in range(0, 14):
        m = min(n, 10)
        assert s(n) == pytest.approx(0.1 + 0.9 * (1 + math.cos(math.pi * m / 10)) / 2), n


def test_linear_and_constant_warmup():
    s = mx.lr_scheduler.CosineScheduler(max_update=14, base_lr=1.0, warmup_steps=4,
                                        warmup_begin_lr=0.2)
    assert [s(n) for n in range(4)] == pytest.approx([0.2, 0.4, 0.6, 0.8])
    # After warmup the decay runs over max_update - warmup_steps updates.
    assert s(4) == pytest.approx(1.0)
    assert s(9) == pytest.approx((1 + math.cos(math.pi * 5 / 10)) / 2)
    c = mx.lr_scheduler.PolyScheduler(max_update=10, base_lr=1.0, pwr=1, warmup_steps=5,
                                      warmup_begin_lr=0.3, warmup_mode="constant")
    assert [c(n) for n in range(5)] == [0.3] * 5
    assert c(5) == pytest.approx(1.0)
    assert c(10) == pytest.approx(0.0)
    f = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0, warmup_steps=2)
    assert [f(n) for n in range(6)] == pytest.approx([0.0, 0.5, 1.0, 0.5, 0.5, 0.25])


@pytest.mark.parametrize("make,exc", [
    (lambda: mx.lr_scheduler.FactorScheduler(step=0), ValueError),
    (lambda: mx.lr_scheduler.FactorScheduler(step=2, factor=1.5), ValueError),
    (lambda: mx.lr_scheduler.MultiFactorScheduler(step=[5, 3]), ValueError),
    (lambda: mx.lr_scheduler.MultiFactorScheduler(step=[0, 3]), ValueError),
    (lambda: mx.lr_scheduler.PolyScheduler(max_update=0), ValueError),
    (lambda: mx.lr_scheduler.CosineScheduler(max_update=0), ValueError),
    (lambda: mx.lr_scheduler.CosineScheduler(max_update=5, warmup_mode="exp"), ValueError),
    (lambda: mx.lr_scheduler.CosineScheduler(max_update=5, base_lr=0.1, warmup_begin_lr=1),
     ValueError),
    (lambda: mx.lr_scheduler.CosineScheduler(max_update=5, warmup_steps=-1), ValueError),
])
def test_bad_arguments(make, exc):
    with pytest.raises(exc):
        make()


_SCRIPT = r"""
import sys, numpy as np, mxnet as mx
L = mx.lr_scheduler
scheds = [L.FactorScheduler(step=3, factor=0.7, base_lr=0.9, warmup_steps=4, warmup_begin_lr=0.1),
          L.MultiFactorScheduler(step=[5, 9, 12], factor=0.3, base_lr=0.5, warmup_steps=3,
                                 warmup_mode='constant', warmup_begin_lr=0.05),
          L.PolyScheduler(max_update=25, base_lr=0.4, pwr=3, final_lr=0.02, warmup_steps=5),
          L.CosineScheduler(max_update=30, base_lr=0.6, final_lr=0.05, warmup_steps=6,
                            warmup_begin_lr=0.1)]
np.save(sys.argv[1], np.array([[s(n) for n in range(40)] for s in scheds]))
"""


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_sequences_match_mxnet_191():
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "s.py")
        with open(script, "w") as f:
            f.write(_SCRIPT)
        check_reference()
        run([script, os.path.join(tmp, "ref.npy")], ours=False)
        run([script, os.path.join(tmp, "ours.npy")], ours=True)
        np.testing.assert_allclose(np.load(os.path.join(tmp, "ours.npy")),
                                   np.load(os.path.join(tmp, "ref.npy")), rtol=1e-12)
