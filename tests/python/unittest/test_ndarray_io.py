"""mx.nd.save/load against files written by MXNet 1.9.1, and robustness to corrupt files."""
import json
import os
import struct

import numpy as np
import pytest

import mxnet as mx

from common import run_python_script

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")


def _ref(name):
    return os.path.join(DATA, name)


def test_load_named_mx191_params():
    loaded = mx.nd.load(_ref("named.params"))
    expected = np.load(_ref("named_expected.npz"))
    assert isinstance(loaded, dict)
    assert sorted(loaded) == sorted(expected.files)
    for key in expected.files:
        arr = loaded[key]
        assert isinstance(arr, mx.nd.NDArray)
        assert arr.shape == expected[key].shape, key
        assert np.dtype(arr.dtype) == expected[key].dtype, key
        assert arr.context == mx.cpu(0)
        np.testing.assert_array_equal(arr.asnumpy(), expected[key])


def test_load_unnamed_mx191_list():
    loaded = mx.nd.load(_ref("unnamed.nd"))
    expected = np.load(_ref("unnamed_expected.npz"))
    assert isinstance(loaded, list) and len(loaded) == 2
    for i, arr in enumerate(loaded):
        ref = expected["arr_%d" % i]
        assert np.dtype(arr.dtype) == ref.dtype
        np.testing.assert_array_equal(arr.asnumpy(), ref)


@pytest.mark.parametrize("name", ["named.params", "unnamed.nd", "mlp-0003.params",
                                  "convnet-0001.params"])
def test_resave_is_byte_identical_to_mx191(tmp_path, name):
    """Loading an MXNet 1.9.1 file and saving it again reproduces the same bytes."""
    loaded = mx.nd.load(_ref(name))
    out = tmp_path / name
    mx.nd.save(str(out), loaded)
    with open(_ref(name), "rb") as f:
        original = f.read()
    assert out.read_bytes() == original
    again = mx.nd.load(str(out))
    if isinstance(loaded, dict):
        assert list(again) == list(loaded)
        pairs = [(again[k], loaded[k]) for k in loaded]
    else:
        pairs = list(zip(again, loaded))
    for a, b in pairs:
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_load_from_buffer_matches_file():
    with open(_ref("named.params"), "rb") as f:
        buf = f.read()
    from_buf = mx.nd.load_frombuffer(buf)
    from_file = mx.nd.load(_ref("named.params"))
    assert list(from_buf) == list(from_file)
    for k in from_file:
        np.testing.assert_array_equal(from_buf[k].asnumpy(), from_file[k].asnumpy())


def test_checkpoint_params_have_arg_prefixes():
    params = mx.nd.load(_ref("mlp-0003.params"))
    assert all(k.startswith(("arg:", "aux:")) for k in params)
    assert params["arg:fc1_weight"].shape == (16, 20)


# ---------------------------------------------------------------------------------------------
# Corrupt and truncated files: every one must raise MXNetError; the process must survive.


def _corruptions(good_named, good_unnamed):
    cases = {}
    for n in range(0, len(good_unnamed), 1):
        cases["unnamed_trunc_%d" % n] = good_unnamed[:n]
    for n in range(0, len(good_named), 7):
        cases["named_trunc_%d" % n] = good_named[:n]
    # List header: magic, reserved, count.
    cases["bad_list_magic"] = struct.pack("<Q", 0x113) + good_unnamed[8:]
    cases["huge_count"] = good_unnamed[:16] + struct.pack("<Q", 1 << 40) + good_unnamed[24:]
    cases["count_too_big"] = good_unnamed[:16] + struct.pack("<Q", 3) + good_unnamed[24:]
    # First array record starts at 24: magic u32, stype i32, ndim i32, dims i64...
    rec = 24
    cases["bad_array_magic"] = good_unnamed[:rec] + b"\x00\x00\x00\x00" + good_unnamed[rec + 4:]
    cases["bad_stype"] = good_unnamed[:rec + 4] + struct.pack("<i", 7) + good_unnamed[rec + 8:]
    cases["huge_ndim"] = good_unnamed[:rec + 8] + struct.pack("<i", 1 << 30) + \
        good_unnamed[rec + 12:]
    cases["negative_ndim"] = good_unnamed[:rec + 8] + struct.pack("<i", -7) + \
        good_unnamed[rec + 12:]
    cases["huge_dim"] = good_unnamed[:rec + 12] + struct.pack("<q", 1 << 60) + \
        good_unnamed[rec + 20:]
    cases["negative_dim"] = good_unnamed[:rec + 12] + struct.pack("<q", -3) + \
        good_unnamed[rec + 20:]
    # After the 2-d shape (12 + 16 bytes): dev_type, dev_id, dtype.
    dt = rec + 12 + 16 + 8
    cases["bad_dtype"] = good_unnamed[:dt] + struct.pack("<i", 99) + good_unnamed[dt + 4:]
    # Names: unnamed file + one name for two arrays; a name length past the end.
    body = good_unnamed[:-8]
    cases["name_count_mismatch"] = body + struct.pack("<Q", 1) + struct.pack("<Q", 1) + b"a"
    cases["name_too_long"] = body + struct.pack("<Q", 2) + struct.pack("<Q", 1 << 40) + b"ab"
    cases["garbage"] = bytes(range(256)) * 3
    return cases


_CHILD = r"""
import json, os, sys
import mxnet as mx
folder = sys.argv[1]
results = {}
for name in sorted(os.listdir(folder)):
    path = os.path.join(folder, name)
    try:
        mx.nd.load(path)
        results[name] = "loaded"
    except mx.MXNetError as e:
        results[name] = "MXNetError"
    except Exception as e:
        results[name] = "%s: %s" % (type(e).__name__, e)
    with open(path, "rb") as f:
        buf = f.read()
    try:
        mx.nd.load_frombuffer(buf)
        results[name + "#buf"] = "loaded"
    except mx.MXNetError:
        results[name + "#buf"] = "MXNetError"
    except Exception as e:
        results[name + "#buf"] = "%s: %s" % (type(e).__name__, e)
# still alive and working
assert mx.nd.array([1, 2]).asnumpy().tolist() == [1.0, 2.0]
print(json.dumps(results))
"""


def test_corrupt_and_truncated_files_raise(tmp_path):
    with open(_ref("named.params"), "rb") as f:
        good_named = f.read()
    with open(_ref("unnamed.nd"), "rb") as f:
        good_unnamed = f.read()
    folder = tmp_path / "corrupt"
    folder.mkdir()
    cases = _corruptions(good_named, good_unnamed)
    for name, data in cases.items():
        (folder / name).write_bytes(data)
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    proc = run_python_script(script, folder)
    assert proc.returncode == 0, "child died (rc=%d):\n%s" % (proc.returncode, proc.stderr[-3000:])
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    bad = {k: v for k, v in results.items() if v != "MXNetError"}
    assert not bad, bad
