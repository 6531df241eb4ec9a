"""Running scripts under the real MXNet 1.9.1 (the reference interpreter) and under this checkout.

The reference interpreter is a Python with MXNet 1.9.1 installed (a scratch venv). Its path is
read here and nowhere else: $MXNET_REFERENCE_PYTHON, default /tmp/mxbench-refs/mx191/bin/python.
Tests that need it skip (HAVE_MX191, SKIP_REASON) when it is absent. The scripts that wrote the
committed reference data (tests/python/data/mx191/gen_*.py) are launched through here too.

The reference interpreter must not see this checkout's PYTHONPATH, or it would import our
package instead of MXNet 1.9.1.

Importing MXNet 1.9.1 takes about 3 s and this checkout's package about 1 s, more than most
scripts run here take, and a test session runs a few hundred of them. So `run` hands each script
to a fork server (one per interpreter, started on first use): a process that imported mxnet once
and forks a child per script. The child starts from the state a fresh `python script.py` has
after `import mxnet` (MXNet 1.9.1 and this package both restart their engines after fork), in
"/" with the same argv, sys.path[0], environment and exit status. A run whose environment differs
from the server's, or MXNET_TEST_FORKSERVER=0, gets a plain new interpreter.
"""
import atexit
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ENV_VAR = "MXNET_REFERENCE_PYTHON"
MX191 = os.environ.get(ENV_VAR) or "/tmp/mxbench-refs/mx191/bin/python"
HAVE_MX191 = os.path.exists(MX191)
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DATA = os.path.join(REPO, "tests", "python", "data", "mx191")
SKIP_REASON = "MXNet 1.9.1 reference interpreter missing (%s; set $%s)" % (MX191, ENV_VAR)


def env(ours):
    """The environment for a child: this checkout's package on PYTHONPATH (ours=True) or no
    PYTHONPATH at all (the reference interpreter, which would also load the library that
    MXNET_LIBRARY_PATH names: that is ours, so it is dropped too)."""
    result = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if ours:
        result["PYTHONPATH"] = os.path.join(REPO, "python")
    else:
        result.pop("MXNET_LIBRARY_PATH", None)
    return result


# The server: one JSON request per line on stdin ({"argv", "stdout", "stderr"}: the child's
# arguments and the files its fds 1 and 2 go to), one JSON reply per line ({"rc"}).
_SERVER = r"""
import gc, json, os, runpy, sys, traceback, types
import mxnet
requests, replies = sys.stdin, sys.stdout
for line in requests:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        break
    _, status = os.waitpid(pid, 0)
    replies.write(json.dumps({"rc": os.waitstatus_to_exitcode(status)}) + "\n")
    replies.flush()
else:
    raise SystemExit(0)
# The child: a script run as `python argv...` would run it.
null = os.open(os.devnull, os.O_RDONLY)
os.dup2(null, 0)
for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
    os.dup2(os.open(path, os.O_WRONLY | os.O_TRUNC), fd)
del requests, replies
argv, code = request["argv"], 0
try:
    if argv[0] == "-c":
        sys.argv, sys.path[0] = ["-c"] + argv[2:], ""
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        exec(compile(argv[1], "<string>", "exec"), main.__dict__)
    else:
        sys.argv, sys.path[0] = list(argv), os.path.dirname(os.path.abspath(argv[0]))
        runpy.run_path(argv[0], run_name="__main__")
except SystemExit as e:
    if isinstance(e.code, int) or e.code is None:
        code = e.code or 0
    else:
        print(e.code, file=sys.stderr)
        code = 1
except BaseException:
    traceback.print_exc()
    code = 1
gc.collect()  # closes what the script left open, as the end of its interpreter would
raise SystemExit(code)
"""


def _server_env(ours):
    """The environment a run must have to go through the fork server (pytest's per-test
    variable aside)."""
    return {k: v for k, v in env(ours).items() if k != "PYTEST_CURRENT_TEST"}


class _ForkServer:
    def __init__(self, ours):
        self.env = _server_env(ours)
        self.proc = subprocess.Popen([sys.executable if ours else MX191, "-c", _SERVER],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=self.env, cwd="/", text=True)
        atexit.register(self.close)

    def run(self, argv):
        """(exit status, stdout bytes, stderr bytes) of one script run in a child."""
        with tempfile.NamedTemporaryFile() as out, tempfile.NamedTemporaryFile() as err:
            self.proc.stdin.write(json.dumps({"argv": argv, "stdout": out.name,
                                              "stderr": err.name}) + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline()
            if not reply:
                raise RuntimeError("the mx191_oracle fork server exited")
            return json.loads(reply)["rc"], out.read(), err.read()

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


_servers = {}


def _server(ours):
    if os.environ.get("MXNET_TEST_FORKSERVER", "1") == "0":
        return None
    server = _servers.get(ours)
    if server is not None and (server.env != _server_env(ours) or server.proc.poll() is not None):
        server.close()
        server = None
    if server is None:
        server = _servers[ours] = _ForkServer(ours)
    return server


def run(args, ours, output=False):
    """Runs ``python args...`` with MXNet 1.9.1 (ours=False) or this checkout (ours=True)."""
    args = [str(a) for a in args]
    cmd = [sys.executable if ours else MX191] + args
    server = _server(ours)
    if server is None:
        if output:
            return subprocess.check_output(cmd, env=env(ours), cwd="/")
        subprocess.check_call(cmd, env=env(ours), cwd="/")
        return None
    rc, out, err = server.run(args)
    sys.stderr.write(err.decode(errors="replace"))
    if rc != 0:
        raise subprocess.CalledProcessError(rc, cmd, output=out, stderr=err)
    if output:
        return out
    sys.stdout.write(out.decode(errors="replace"))
    return None


_reference_checked = False


def check_reference():
    """Asserts the reference interpreter really imports MXNet 1.9.1 (not this checkout's)."""
    global _reference_checked
    if _reference_checked:
        return
    out = run(["-c", "import mxnet; print(mxnet.__version__, mxnet.__file__)"], ours=False,
              output=True).decode()
    assert out.startswith("1.9.1 ") and REPO not in out, out
    _reference_checked = True


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
