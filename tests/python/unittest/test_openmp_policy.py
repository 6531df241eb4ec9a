"""import mxnet makes libgomp's threads sleep after a parallel region unless the user chose a
wait policy (python/mxnet/base.py, _default_openmp_wait_policy). libgomp itself reports the
policy it runs with when OMP_DISPLAY_ENV is set, so these checks read the library's own view."""
import os
import subprocess
import sys

import pytest

PYTHON_DIR = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'python')


def libgomp_settings(**env):
    full = dict(os.environ)
    for k in ('OMP_WAIT_POLICY', 'GOMP_SPINCOUNT'):
        full.pop(k, None)
    full.update(env)
    full['OMP_DISPLAY_ENV'] = 'VERBOSE'
    full['PYTHONPATH'] = os.path.abspath(PYTHON_DIR)
    out = subprocess.run([sys.executable, '-c', 'import mxnet; print(mxnet.nd.ones((2,)).sum())'],
                         env=full, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    settings = {}
    for line in out.stderr.splitlines():
        if '=' in line:
            k, v = line.split('=', 1)
            settings[k.strip()] = v.strip().strip("'")
    return settings


def test_default_policy_is_passive():
    # libgomp prints PASSIVE for an unset policy too; the spin count tells them apart
    # (0 when passive, 300000 by default).
    s = libgomp_settings()
    if 'GOMP_SPINCOUNT' not in s:
        pytest.skip('this OpenMP runtime does not report its settings')
    assert s['OMP_WAIT_POLICY'] == 'PASSIVE'
    assert s['GOMP_SPINCOUNT'] == '0'


@pytest.mark.parametrize('env', [{'OMP_WAIT_POLICY': 'ACTIVE'}, {'GOMP_SPINCOUNT': '100000'}])
def test_user_choice_is_kept(env):
    s = libgomp_settings(**env)
    if 'GOMP_SPINCOUNT' not in s:
        pytest.skip('this OpenMP runtime does not report its settings')
    if 'OMP_WAIT_POLICY' in env:
        assert s['OMP_WAIT_POLICY'] == 'ACTIVE'
        assert s['GOMP_SPINCOUNT'] != '0'
    else:
        assert s['GOMP_SPINCOUNT'] == '100000'
