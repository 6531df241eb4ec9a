"""Registry audit (STYLE.md §4): every registered operator is described, has shape and type
inference, and is covered by the operator table or explicitly exempted with a reason."""
import ctypes

import pytest

import mxnet as mx
from mxnet.base import _LIB, check_call, py_str

from optable import all_entries, all_exemptions


def _all_op_names():
    size = ctypes.c_uint()
    names = ctypes.POINTER(ctypes.c_char_p)()
    check_call(_LIB.MXListAllOpNames(ctypes.byref(size), ctypes.byref(names)))
    return sorted(py_str(names[i]) for i in range(size.value))


def _canonical(name):
    handle = ctypes.c_void_p()
    check_call(_LIB.NNGetOpHandle(mx.base.c_str(name), ctypes.byref(handle)))
    out = ctypes.c_char_p()
    check_call(_LIB.MXSymbolGetAtomicSymbolName(handle, ctypes.byref(out)))
    return py_str(out.value)


def _covered():
    covered = set()
    for entry in all_entries():
        leaf = entry.name.split(".")[-1]
        prefix = {"contrib": "_contrib_", "linalg": "_linalg_", "random": "_random_",
                  "image": "_image_"}.get(
            entry.name.split(".")[0] if "." in entry.name else "", "")
        covered.add(prefix + leaf)
        covered.update(entry.covers)
    return {_canonical(n) for n in covered if _exists(n)}


def _exists(name):
    handle = ctypes.c_void_p()
    return _LIB.NNGetOpHandle(mx.base.c_str(name), ctypes.byref(handle)) == 0


def test_every_operator_is_in_the_table_or_exempt():
    covered = _covered()
    exempt = all_exemptions()
    missing = sorted({_canonical(n) for n in _all_op_names()} - covered -
                     {_canonical(n) for n in exempt if _exists(n)})
    # Backward operators are exercised by the gradient tests of their forward op.
    missing = [n for n in missing if not n.startswith("_backward_")]
    # Operators of extension libraries loaded by other tests are not built-in operators.
    missing = [n for n in missing if n not in mx.library.loaded_operators()]
    assert not missing, "operators with no op-table entry and no exemption: %s" % missing


def test_every_exemption_names_a_registered_op_and_a_reason():
    for name, reason in all_exemptions().items():
        assert _exists(name), "exempted op %s is not registered" % name
        assert reason and len(reason) > 10, "exemption of %s needs a reason" % name
