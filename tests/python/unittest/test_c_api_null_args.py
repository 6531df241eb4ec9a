"""Every function of the public C headers, called with NULL for each pointer and handle and 0
(then 1) for each count, returns -1 with a message naming the function, or succeeds: it never
crashes or hangs (issue 19: "NULL handles, wrong sizes and counts give -1 and a message").

The prototypes are read from include/mxnet/c_api.h and c_predict_api.h, so a new function is
probed as soon as it is declared. The calls run in a child process that reports each call before
making it; a crash or hang names the function, and the child restarts after it."""
import ctypes
import json
import os
import re
import subprocess
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
HEADERS = ["include/mxnet/c_api.h", "include/mxnet/c_predict_api.h"]

# Not probed: they act on the whole process (shut the engine down, wait forever as a server).
SKIP = {"MXNotifyShutdown", "MXKVStoreRunServer"}

_INTEGER_TYPES = {"int", "unsigned", "unsignedint", "uint32_t", "int32_t", "mx_uint", "nn_uint",
                  "size_t", "int64_t", "uint64_t", "dim_t", "bool", "long", "char", "uint8_t",
                  "int8_t", "uint16_t", "int16_t"}
_FLOAT_TYPES = {"float": "c_float", "mx_float": "c_float", "double": "c_double"}


def _strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def _split_params(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur)
    return [p.strip() for p in out]


def _kind(param):
    """'p' (pointer or handle), 'i' (integer), or a ctypes float type name."""
    if "*" in param or "(" in param:
        return "p"
    words = [w for w in re.findall(r"\w+", param) if w not in ("const", "struct", "enum")]
    if len(words) >= 2:  # "type name": drop the name
        words = words[:-1]
    base = "".join(words)
    if base in _FLOAT_TYPES:
        return _FLOAT_TYPES[base]
    if base in _INTEGER_TYPES:
        return "i"
    return "p"  # handles and callbacks are pointer typedefs


def prototypes():
    """[(name, return type, [kind per parameter])] of every exported C function."""
    found = []
    for header in HEADERS:
        with open(os.path.join(REPO, header)) as f:
            text = _strip_comments(f.read())
        for m in re.finditer(r"MXNET_DLL\s+([\w\s\*]+?)\s*\b(\w+)\s*\(([^;]*?)\)\s*;", text):
            ret, name, params = " ".join(m.group(1).split()), m.group(2), m.group(3).strip()
            kinds = [] if params in ("", "void") else [_kind(p) for p in _split_params(params)]
            found.append((name, ret, kinds))
    return found


CHILD = r'''
import ctypes, json, sys
import mxnet as mx
# Own function objects (the front end's have argtypes declared; the probe passes raw C types).
lib = ctypes.CDLL(mx.base._LIB._name)
last_error = ctypes.CDLL(mx.base._LIB._name).MXGetLastError
last_error.restype = ctypes.c_char_p
calls = json.loads(sys.argv[1])
for index, (name, ret, kinds, count) in enumerate(calls):
    fn = getattr(lib, name)
    fn.restype = ctypes.c_int if ret == "int" else ctypes.c_void_p
    args = []
    for kind in kinds:
        if kind == "p":
            args.append(ctypes.c_void_p(None))
        elif kind == "i":
            args.append(ctypes.c_int64(count))
        else:
            args.append(getattr(ctypes, kind)(count))
    print("CALL", index, flush=True)
    rc = fn(*args)
    message = last_error().decode(errors="replace") if ret == "int" and rc == -1 else ""
    print("DONE", index, rc, json.dumps(message.splitlines()[0] if message else ""), flush=True)
'''


def run_campaign(calls, cwd, timeout=60):
    """{call index: 'crash ...' | 'hang' | (rc, first message line)}. The child runs in `cwd`
    (profiler dumps and the like write files there)."""
    results, start = {}, 0
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(REPO, "python"),
                                                       os.environ.get("PYTHONPATH", "")]))
    while start < len(calls):
        payload = json.dumps(calls[start:])
        try:
            proc = subprocess.run([sys.executable, "-c", CHILD, payload], env=env, cwd=cwd,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=timeout, check=False)
            out, hung = proc.stdout.decode(errors="replace"), False
        except subprocess.TimeoutExpired as err:
            out, hung = (err.stdout or b"").decode(errors="replace"), True
        last_call = None
        for line in out.splitlines():
            if line.startswith("CALL "):
                last_call = start + int(line.split()[1])
            elif line.startswith("DONE "):
                _, index, rc, message = line.split(" ", 3)
                results[start + int(index)] = (int(rc), json.loads(message))
        if last_call is None:
            raise AssertionError("the probe child did not start:\n" + out[-3000:])
        if last_call in results:  # every call returned
            if last_call == len(calls) - 1:
                break
            raise AssertionError("the probe child stopped after %s:\n%s"
                                 % (calls[last_call][0], out[-3000:]))
        results[last_call] = "hang" if hung else "crash (exit status %d): %s" % (
            proc.returncode, out.strip().splitlines()[-1][:200])
        start = last_call + 1
    return results


def _names_a_callee(message):
    """Thin wrappers (MXNDArrayLoad -> MXNDArrayLoadEx, ...) report the function they call."""
    return re.search(r"\b(MX|NN)\w+: ", message) is not None


def test_every_c_function_survives_null_arguments(tmp_path):
    protos = [p for p in prototypes() if p[0] not in SKIP]
    assert len(protos) > 200, "the header parser found only %d functions" % len(protos)
    calls = []
    for name, ret, kinds in protos:
        calls.append((name, ret, kinds, 0))
        if "i" in kinds:  # a count of 1 with a NULL array is wrong, not empty
            calls.append((name, ret, kinds, 1))
    results = run_campaign(calls, str(tmp_path))
    failures = []
    for index, (name, ret, kinds, count) in enumerate(calls):
        outcome = results.get(index, "not run")
        if isinstance(outcome, str):
            failures.append("%s(counts=%d): %s" % (name, count, outcome))
        elif outcome[0] == -1 and not outcome[1]:
            failures.append("%s(counts=%d): -1 without a message" % (name, count))
        elif outcome[0] == -1 and "null" in outcome[1].lower() and name not in outcome[1] \
                and not _names_a_callee(outcome[1]):
            failures.append("%s(counts=%d): the NULL is not blamed on the function: %s"
                            % (name, count, outcome[1]))
    assert not failures, "%d of %d calls failed:\n%s" % (len(failures), len(calls),
                                                         "\n".join(failures))
