"""tools/check_layers.py: the tree keeps its layer map, and the checker sees offences."""
import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCRIPT = os.path.join(ROOT, "tools", "check_layers.py")


def _checker():
    spec = importlib.util.spec_from_file_location("check_layers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tree_follows_the_layer_map():
    run = subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_cpp_rules_catch_offences():
    check = _checker()
    assert "includes up" in check._cpp_rule("src/operator/nn/x.cc", "src/imperative/y.h")
    assert "siblings" in check._cpp_rule("src/kvstore/x.cc", "src/io/y.h")
    assert "runtime internals" in check._cpp_rule("src/operator/x.cc", "src/engine/y.h")
    assert "family" in check._cpp_rule("src/kvstore/x.cc", "src/operator/nn/y-inl.h")
    assert "base operator family" in check._cpp_rule("src/operator/tensor/x.cc",
                                                     "src/operator/nn/y-inl.h")
    assert check._cpp_rule("src/imperative/x.cc", "src/executor/exec_core.h") is None
    assert check._cpp_rule("src/operator/nn/x.cc", "src/common/y.h") is None
    assert check._cpp_rule("src/c_api/x.cc", "src/imperative/y.h") is None


def test_python_circles_are_found():
    check = _checker()
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert check._cycles(graph) == [["a", "b", "c"]]
    assert check._py_layer("mxnet._enums") < check._py_layer("mxnet.ndarray.sparse") \
        < check._py_layer("mxnet.symbol.symbol") < check._py_layer("mxnet.gluon.block")
