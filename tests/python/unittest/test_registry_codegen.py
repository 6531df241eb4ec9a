"""Generated mx.nd operator functions: placement, signatures, docstrings, calling (the .pyi
stubs are checked by test_stubs.py)."""
import ctypes
import inspect
import sys

import numpy as np
import pytest

import mxnet as mx
from mxnet import base
from mxnet.base import _Null
from mxnet.ndarray import register

from common import run_python_script


def _all_names():
    return base.list_op_names()


def _expected_place(name):
    for prefix in ("_contrib_", "_linalg_", "_sparse_", "_image_", "_random_"):
        if name.startswith(prefix):
            if prefix != "_random_" or name.endswith("_like"):
                return "mxnet.ndarray." + prefix[1:-1], name[len(prefix):]
            return "mxnet.ndarray._internal", name
    if name.startswith("_"):
        return "mxnet.ndarray._internal", name
    return "mxnet.ndarray.op", name


def test_every_registered_op_is_installed_where_mxnet_puts_it():
    names = _all_names()
    assert names, "MXListAllOpNames returned nothing"
    for name in names:
        if name.startswith(("_np_", "_npi_", "_npx_")):
            assert not hasattr(mx.nd._internal, name)
            continue
        modname, func_name = _expected_place(name)
        module = sys.modules[modname]
        func = getattr(module, func_name, None)
        assert func is not None, "%s missing from %s" % (name, modname)
        assert func.__name__ == func_name
        assert func.__module__ == modname
        assert func_name in module.__all__
        if modname == "mxnet.ndarray.op":
            assert getattr(mx.nd, func_name) is not None


def test_public_ops_are_star_imported_into_mx_nd():
    for name in mx.nd.op.__all__:
        assert hasattr(mx.nd, name), name
    # hand-written functions take precedence over generated ones of the same name
    assert mx.nd.zeros.__module__ in ("mxnet.ndarray.utils", "mxnet.ndarray.ndarray")


def test_aliases_each_get_a_function():
    aliases = {"flatten": "Flatten", "concat": "Concat", "reshape": "Reshape"}
    for alias, canonical in aliases.items():
        if alias in _all_names() and canonical in _all_names():
            f = getattr(mx.nd, alias)
            assert f.__name__ == alias
            assert f._op_spec.canonical_name in (alias, canonical)


def test_no_exec_generated_source():
    # All fixed-arity ops share one code object: the functions are closures, not exec'd text.
    assert mx.nd.sum.__code__ is mx.nd.broadcast_add.__code__
    assert mx.nd.concat.__code__ is not mx.nd.sum.__code__
    assert inspect.getsourcefile(mx.nd.sum).endswith("register.py")


def test_fixed_arity_signature():
    sig = inspect.signature(mx.nd.broadcast_add)
    assert list(sig.parameters) == ["lhs", "rhs", "out", "name", "kwargs"]
    assert sig.parameters["lhs"].default is None
    assert sig.parameters["kwargs"].kind is inspect.Parameter.VAR_KEYWORD
    sig = inspect.signature(mx.nd.sum)
    names = list(sig.parameters)
    assert names[0] == "data"
    assert {"axis", "keepdims", "exclude"} <= set(names)
    assert sig.parameters["axis"].default is _Null
    assert sig.parameters["axis"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert names[-3:] == ["out", "name", "kwargs"]


def test_variadic_signature():
    sig = inspect.signature(mx.nd.concat)
    params = list(sig.parameters.values())
    assert params[0].kind is inspect.Parameter.VAR_POSITIONAL
    assert params[0].name == "data"
    assert "dim" in sig.parameters
    assert sig.parameters["dim"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "num_args" not in sig.parameters      # filled in by the library


def test_signatures_exist_for_every_function():
    for modname in ("op", "_internal", "contrib", "linalg", "image", "sparse", "random"):
        module = getattr(mx.nd, modname)
        for name in module.__all__:
            func = getattr(module, name)
            if hasattr(func, "_op_spec"):
                sig = inspect.signature(func)
                assert "out" in sig.parameters and "kwargs" in sig.parameters
                assert func.__doc__ and "Parameters" in func.__doc__


def test_docstring_format():
    doc = mx.nd.sum.__doc__
    info = base.op_info(base.op_handle("sum"))
    assert doc.startswith(info.description)
    assert "Parameters\n----------\n" in doc
    assert "data : NDArray" in doc
    assert "NDArray-or-Symbol" not in doc
    assert "axis : " in doc
    assert "out : NDArray, optional\n    The output NDArray to hold the result." in doc
    assert "Returns\n-------\nout : NDArray or list of NDArrays" in doc
    assert "num_args" not in mx.nd.concat.__doc__.split("Parameters")[1]


def test_build_doc_pure():
    doc = register.build_doc("myop", "Does things.", ["data", "num_args", "axis", "axis"],
                             ["NDArray-or-Symbol", "int, required", "int, optional, default='0'",
                              "int"], ["The input.", "", "An axis.", "dup"], "", "")
    assert doc == ("Does things.\n\nParameters\n----------\ndata : NDArray\n    The input.\n"
                   "axis : int, optional, default='0'\n    An axis.\n\n"
                   "out : NDArray, optional\n    The output NDArray to hold the result.\n\n"
                   "Returns\n-------\nout : NDArray or list of NDArrays\n"
                   "    The output of this function.")
    with_example = register.build_doc("Reshape", "R.", [], [], [])
    assert "Examples" in with_example and "    >>>" not in with_example


def test_param_str_pure():
    ps = register.param_str
    assert ps(3) == "3"
    assert ps(1.5) == "1.5"
    assert ps(True) == "True"
    assert ps(None) == "None"
    assert ps("relu") == "relu"
    assert ps((2, 3)) == "(2, 3)"
    assert ps((2,)) == "(2,)"
    assert ps([2, 3]) == "[2, 3]"
    assert ps((np.int64(2), np.int32(3))) == "(2, 3)"
    assert ps((None, 1)) == "(None, 1)"
    assert ps(np.float32(0.5)) == "0.5"
    assert ps(mx.cpu(0)) == "cpu(0)"
    assert ps(np.float32) == "float32"
    ds = register.dtype_str
    assert ds(np.float32) == "float32"
    assert ds("float16") == "float16"
    assert ds(np.dtype("int8")) == "int8"
    assert ds("bfloat16") == "bfloat16"
    assert ds(None) == "None"


def test_opspec_classification_pure():
    info = base.OpInfo("Foo", "d", ["data", "weight", "dtype", "alpha"],
                       ["NDArray-or-Symbol", "NDArray-or-Symbol", "{'float32'}, required",
                        "float, optional"], ["", "", "", ""], "", "")
    spec = register.OpSpec("Foo", "Foo", None, info)
    assert spec.inputs == ["data", "weight"]
    assert [p[0] for p in spec.params] == ["dtype", "alpha"]
    assert spec.variadic is None
    info = base.OpInfo("Cat", "d", ["data", "num_args", "dim"],
                       ["NDArray-or-Symbol[]", "int, required", "int"], ["", "", ""],
                       "num_args", "")
    spec = register.OpSpec("Cat", "Cat", None, info)
    assert spec.variadic == "data" and spec.inputs == []


def test_calling_conventions():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = mx.nd.array(x)
    np.testing.assert_array_equal(mx.nd.sum(a, 1).asnumpy(), x.sum(axis=1))          # positional
    np.testing.assert_array_equal(mx.nd.sum(a, axis=1).asnumpy(), x.sum(axis=1))
    np.testing.assert_array_equal(mx.nd.sum(data=a, axis=0).asnumpy(), x.sum(axis=0))
    np.testing.assert_array_equal(mx.nd.sum(a, axis=(0, 1)).asnumpy(), [x.sum()])
    np.testing.assert_array_equal(mx.nd.sum(a, axis=_Null).asnumpy(), [x.sum()])     # _Null
    np.testing.assert_array_equal(mx.nd.broadcast_add(rhs=a, lhs=a).asnumpy(), x + x)
    np.testing.assert_array_equal(mx.nd.concat(a, a, dim=0).asnumpy(),
                                  np.concatenate([x, x], 0))
    np.testing.assert_array_equal(mx.nd.concat(*[a, a, a], dim=1).shape, (2, 9))
    z = mx.nd.zeros((2, 2), dtype=np.int32)                       # dtype normalised
    assert z.dtype == np.int32
    c = mx.nd.cast(a, dtype=np.float64)
    assert c.dtype == np.float64
    mx.nd.sum(a, name="ignored")                                  # name dropped


def test_out_argument_returns_out_object():
    a = mx.nd.array([1.0, 2.0])
    out = mx.nd.zeros((2,))
    res = mx.nd.broadcast_add(a, a, out=out)
    assert res is out
    np.testing.assert_array_equal(out.asnumpy(), [2, 4])
    outs = [mx.nd.zeros((2, 1)), mx.nd.zeros((2, 1))]
    res = mx.nd.split(mx.nd.array([[1, 2], [3, 4]]), num_outputs=2, axis=1, out=outs)
    assert res is outs
    np.testing.assert_array_equal(outs[1].asnumpy(), [[2], [4]])


def test_multi_output_returns_list():
    parts = mx.nd.split(mx.nd.zeros((2, 4)), num_outputs=2, axis=1)
    assert isinstance(parts, list) and len(parts) == 2
    assert parts[0].shape == (2, 2)


def test_multi_output_op_without_params():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], dtype=np.float32)
    res = mx.nd.linalg.gelqf(mx.nd.array(a))                   # inputs-only fast path
    assert isinstance(res, list) and len(res) == 2
    q, l = [r.asnumpy() for r in res]
    np.testing.assert_allclose(l @ q, a, rtol=1e-4, atol=1e-4)


def test_argument_errors():
    a = mx.nd.ones((2,))
    with pytest.raises(TypeError, match="must be an NDArray"):
        mx.nd.broadcast_add(a, np.ones(2))
    with pytest.raises(TypeError, match="must be an NDArray"):
        mx.nd.concat(a, [1, 2])
    with pytest.raises(TypeError, match="multiple values"):
        mx.nd.sum(a, 0, axis=0)
    with pytest.raises(TypeError, match="positional"):
        mx.nd.abs(a, None, None, None, None)
    with pytest.raises(mx.MXNetError):
        mx.nd.sum(a, bogus_param=3)                                # passed through, rejected


def test_module_placement_of_prefixed_ops():
    names = set(_all_names())
    if "_contrib_allclose" in names:
        assert mx.nd.contrib.allclose.__module__ == "mxnet.ndarray.contrib"
    if "_random_uniform" in names:
        assert hasattr(mx.nd._internal, "_random_uniform")
        assert not hasattr(mx.nd.random, "_random_uniform")
    if "_random_uniform_like" in names:
        assert mx.nd.random.uniform_like.__module__ == "mxnet.ndarray.random"
    if "_plus_scalar" in names:
        assert mx.nd._internal._plus_scalar.__module__ == "mxnet.ndarray._internal"
    linalg = [n for n in names if n.startswith("_linalg_")]
    for n in linalg:
        assert hasattr(mx.nd.linalg, n[len("_linalg_"):])


def test_import_is_lazy_about_heavy_modules(tmp_path):
    script = tmp_path / "imp.py"
    script.write_text("import sys, mxnet\n"
                      "print(','.join(m for m in ('scipy', 'matplotlib', 'pandas', 'mxnet.gluon')"
                      " if m in sys.modules))\n")
    proc = run_python_script(script)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_op_handles_are_c_void_p():
    spec = mx.nd.sum._op_spec
    assert isinstance(spec.handle, ctypes.c_void_p)
