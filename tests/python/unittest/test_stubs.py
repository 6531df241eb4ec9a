"""The .pyi stubs of the generated mx.nd modules (tools/gen_stubs.py): the annotations it
derives from registered argument types, that a stub covers every public name, and that the
committed stubs are exactly what the generator writes for this build."""
import ast
import difflib
import importlib.util
import os

import pytest

import mxnet as mx

from common import REPO, run_python_script

PKG = os.path.dirname(os.path.abspath(mx.ndarray.__file__))

_spec = importlib.util.spec_from_file_location(
    "gen_stubs", os.path.join(REPO, "tools", "gen_stubs.py"))
gen_stubs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_stubs)


def test_annotation_for_pure():
    ann = gen_stubs.annotation_for
    assert ann("x", "int, optional, default='1'") == "int"
    assert ann("x", "float, required") == "float"
    assert ann("x", "boolean, optional, default=0") == "bool"
    assert ann("x", "Shape(tuple), required") == "Union[int, Tuple[int, ...]]"
    assert ann("x", "Shape or None, optional, default=None") == \
        "Optional[Union[int, Tuple[int, ...]]]"
    assert ann("x", "{'relu', 'tanh'}, required") == "Literal['relu', 'tanh']"
    assert ann("x", "{None, 'a', 'b'},optional, default='None'") == \
        "Optional[Literal['a', 'b']]"
    assert ann("x", "int or None, optional") == "Optional[int]"
    assert ann("dtype", "{'float32'}") == "Union[str, type, np.dtype, None]"
    assert ann("data", "NDArray-or-Symbol") == "NDArray"
    assert ann("x", "something odd") == "Any"


def test_generated_stubs_cover_every_function(tmp_path):
    paths = gen_stubs.write_stubs(str(tmp_path))
    assert len(paths) == len(gen_stubs.STUB_MODULES)
    for short, path in zip(gen_stubs.STUB_MODULES, paths):
        with open(path) as f:
            tree = ast.parse(f.read())
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                    for a in n.names}
        module = getattr(mx.nd, short)
        for name in module.__all__:
            assert name in defined or name in imported, "%s.%s missing from stub" % (short, name)
    op_stub = open(os.path.join(str(tmp_path), "op.pyi")).read()
    assert "def broadcast_add(lhs: Optional[NDArray] = ..., rhs: Optional[NDArray] = ..." in op_stub


def test_committed_stubs_parse():
    found = [f for f in os.listdir(PKG) if f.endswith(".pyi")]
    if not found:
        pytest.skip("no committed stubs yet")
    for f in found:
        with open(os.path.join(PKG, f)) as fh:
            ast.parse(fh.read())


def test_committed_stubs_are_up_to_date(tmp_path):
    """Regenerates every stub into a temporary folder, in a fresh process (operators that other
    tests register, from extension libraries for instance, must not count); any difference from
    the committed file fails, with the diff (rerun tools/gen_stubs.py and commit)."""
    proc = run_python_script(os.path.join(REPO, "tools", "gen_stubs.py"), tmp_path)
    assert proc.returncode == 0, proc.stderr
    committed_dir = os.path.join(REPO, "python", "mxnet", "ndarray")
    problems = []
    for short in gen_stubs.STUB_MODULES:
        name = short + ".pyi"
        path = os.path.join(str(tmp_path), name)
        committed = os.path.join(committed_dir, name)
        if not os.path.exists(committed):
            problems.append("%s is not committed" % name)
            continue
        with open(path) as f:
            fresh = f.read().splitlines(keepends=True)
        with open(committed) as f:
            old = f.read().splitlines(keepends=True)
        if fresh != old:
            diff = difflib.unified_diff(old, fresh, "committed/" + name, "regenerated/" + name)
            problems.append("".join(list(diff)[:40]))
    assert not problems, ("the committed .pyi stubs differ from what tools/gen_stubs.py "
                          "writes now; run it and commit:\n" + "\n".join(problems))
