"""Running scripts under the real MXNet 1.9.1 (the reference interpreter) and under this checkout.

The reference interpreter is a Python with MXNet 1.9.1 installed (a scratch venv). Its path is
read here and nowhere else: $MXNET_REFERENCE_PYTHON, default /tmp/mxbench-refs/mx191/bin/python.
Tests that need it skip (HAVE_MX191, SKIP_REASON) when it is absent. The scripts that wrote the
committed reference data (tests/python/data/mx191/gen_*.py) are launched through here too.

The reference interpreter must not see this checkout's PYTHONPATH, or it would import our
package instead of MXNet 1.9.1.
"""
import importlib.util
import os
import subprocess
import sys

import numpy as np

ENV_VAR = "MXNET_REFERENCE_PYTHON"
MX191 = os.environ.get(ENV_VAR) or "/tmp/mxbench-refs/mx191/bin/python"
HAVE_MX191 = os.path.exists(MX191)
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DATA = os.path.join(REPO, "tests", "python", "data", "mx191")
SKIP_REASON = "MXNet 1.9.1 reference interpreter missing (%s; set $%s)" % (MX191, ENV_VAR)


def env(ours):
    """The environment for a child: this checkout's package on PYTHONPATH (ours=True) or no
    PYTHONPATH at all (the reference interpreter)."""
    result = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if ours:
        result["PYTHONPATH"] = os.path.join(REPO, "python")
    return result


def run(args, ours, output=False):
    """Runs ``python args...`` with MXNet 1.9.1 (ours=False) or this checkout (ours=True)."""
    cmd = [sys.executable if ours else MX191] + [str(a) for a in args]
    if output:
        return subprocess.check_output(cmd, env=env(ours), cwd="/")
    subprocess.check_call(cmd, env=env(ours), cwd="/")
    return None


def check_reference():
    """Asserts the reference interpreter really imports MXNet 1.9.1 (not this checkout's)."""
    out = run(["-c", "import mxnet; print(mxnet.__version__, mxnet.__file__)"], ours=False,
              output=True).decode()
    assert out.startswith("1.9.1 ") and REPO not in out, out


def run_script_under_both(script_text, tmp_dir):
    """Runs `script_text` (which writes an .npz to sys.argv[1]) under MXNet 1.9.1 and under this
    checkout; returns (reference, ours) as loaded .npz files."""
    script = os.path.join(tmp_dir, "script.py")
    with open(script, "w") as f:
        f.write(script_text)
    ref_file, our_file = os.path.join(tmp_dir, "ref.npz"), os.path.join(tmp_dir, "ours.npz")
    run([script, ref_file], ours=False)
    run([script, our_file], ours=True)
    return np.load(ref_file), np.load(our_file)


def load_generator(name):
    """Imports tests/python/data/mx191/<name>.py, a reference-data script, as a module (with
    this checkout's mxnet), for the tests that rebuild its networks and cases."""
    if DATA not in sys.path:
        sys.path.insert(0, DATA)  # the scripts import their helper, refgen
    spec = importlib.util.spec_from_file_location(name, os.path.join(DATA, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
