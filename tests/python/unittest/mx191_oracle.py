"""Running scripts under the real MXNet 1.9.1 (the reference venv) and under this checkout.

The reference interpreter must not see this checkout's PYTHONPATH, or it would import our
package instead of MXNet 1.9.1.
"""
import os
import subprocess
import sys

import numpy as np

MX191 = "/tmp/mxbench-refs/mx191/bin/python"
HAVE_MX191 = os.path.exists(MX191)
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SKIP_REASON = "MXNet 1.9.1 reference venv missing (%s)" % MX191


def _env(ours):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if ours:
        env["PYTHONPATH"] = os.path.join(REPO, "python")
    return env


def run(args, ours, output=False):
    """Runs ``python args...`` with MXNet 1.9.1 (ours=False) or this checkout (ours=True)."""
    cmd = [sys.executable if ours else MX191] + [str(a) for a in args]
    if output:
        return subprocess.check_output(cmd, env=_env(ours), cwd="/")
    subprocess.check_call(cmd, env=_env(ours), cwd="/")
    return None


def check_reference():
    """Asserts the reference interpreter really imports MXNet 1.9.1."""
    out = run(["-c", "import mxnet; print(mxnet.__version__, mxnet.__file__)"], ours=False,
              output=True).decode()
    assert out.startswith("1.9.1 ") and "mx191" in out, out


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
