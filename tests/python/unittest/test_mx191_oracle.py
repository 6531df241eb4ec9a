"""mx191_oracle.run: a script run through the fork server behaves as `python script args...`
does in a new interpreter (this checkout's side, which needs no reference interpreter)."""
import os
import subprocess

import pytest

import mx191_oracle

SCRIPT = r"""
import os, sys
import mxnet as mx
print(repr((sys.argv, sys.path[0], os.getcwd(), __name__)))
a = mx.nd.ones((300, 300))
print(float((a * 2).sum().asscalar()))
f = open(sys.argv[1], "w")
f.write("left open")  # the end of the interpreter closes and flushes it
if sys.argv[2] != "0":
    sys.exit(int(sys.argv[2]))
"""


def _both(args, tmp_path):
    """The outputs of a plain interpreter and of the fork server for the same run."""
    results = []
    for fork in ("0", "1"):
        os.environ["MXNET_TEST_FORKSERVER"] = fork
        try:
            results.append(mx191_oracle.run(args, ours=True, output=True).decode())
        finally:
            del os.environ["MXNET_TEST_FORKSERVER"]
    return results


def test_script_sees_what_a_new_interpreter_sees(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    plain, forked = _both([script, tmp_path / "f.txt", "0"], tmp_path)
    assert forked == plain
    assert repr(str(tmp_path)) in forked and "'/'" in forked and "180000.0" in forked
    assert (tmp_path / "f.txt").read_text() == "left open"


def test_dash_c_and_its_arguments(tmp_path):
    code = "import sys; print(sys.argv, repr(sys.path[0]), __name__)"
    plain, forked = _both(["-c", code, "x", 3], tmp_path)
    assert forked == plain == "['-c', 'x', '3'] '' __main__\n"


@pytest.mark.parametrize("how, rc", [("sys.exit(3)", 3), ("raise ValueError('boom')", 1),
                                     ("sys.exit('message')", 1)])
def test_failures_raise_with_the_exit_status_and_stderr(how, rc):
    with pytest.raises(subprocess.CalledProcessError) as failed:
        mx191_oracle.run(["-c", "import sys\n" + how], ours=True, output=True)
    assert failed.value.returncode == rc
    if rc == 1:
        assert b"boom" in failed.value.stderr or b"message" in failed.value.stderr


def test_a_changed_environment_gets_a_new_server(monkeypatch):
    code = "import os; print(os.environ.get('MX191_ORACLE_PROBE'))"
    assert mx191_oracle.run(["-c", code], ours=True, output=True) == b"None\n"
    monkeypatch.setenv("MX191_ORACLE_PROBE", "seen")
    assert mx191_oracle.run(["-c", code], ours=True, output=True) == b"seen\n"
