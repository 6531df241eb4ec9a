"""Helpers shared by the unit tests."""
import os
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def run_python_script(path, *args, timeout=600):
    """Run a Python script in a fresh interpreter with this checkout's mxnet on the path."""
    cmd = [sys.executable]
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    return subprocess.run(cmd + [str(path)] + [str(a) for a in args], env=env,
                          capture_output=True, text=True, timeout=timeout)
