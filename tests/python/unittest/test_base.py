"""The package loads the library, reports its version and maps C++ errors to Python classes."""
import ctypes
import os
import subprocess
import sys

import pytest

import mxnet as mx
from mxnet import base


def test_version_comes_from_library():
    out = ctypes.c_int()
    base.check_call(base._LIB.MXGetVersion(ctypes.byref(out)))
    assert out.value == 10901
    assert mx.__version__ == "1.9.1"


def test_features_include_names_python_asks_for():
    feats = ctypes.POINTER(type("LibFeature", (ctypes.Structure,), {
        "_fields_": [("name", ctypes.c_char_p), ("enabled", ctypes.c_bool)]}))()
    size = ctypes.c_size_t()
    base.check_call(base._LIB.MXLibInfoFeatures(ctypes.byref(feats), ctypes.byref(size)))
    names = {feats[i].name.decode() for i in range(size.value)}
    assert {"TVM_OP", "INT64_TENSOR_SIZE", "OPENMP", "BLAS_OPEN"} <= names


def test_typed_error_classes_map_from_prefix():
    cls, _ = base.c2pyerror("ValueError: bad shape")
    assert issubclass(cls, mx.MXNetError) and issubclass(cls, ValueError)
    cls, _ = base.c2pyerror("Check failed: x")
    assert cls is mx.MXNetError


def test_library_path_override_is_checked(tmp_path):
    env = dict(os.environ, MXNET_LIBRARY_PATH=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", "import mxnet"], env=env,
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "MXNET_LIBRARY_PATH" in proc.stderr
