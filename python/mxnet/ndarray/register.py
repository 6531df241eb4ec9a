"""Builds the `mx.nd.<op>` functions from the library's operator registry at import.

No source text is generated: each operator gets a closure that binds its arguments with
precomputed tables and calls MXImperativeInvokeEx, plus a real `inspect.Signature`
(`__signature__`) and a numpydoc docstring built from the registered arguments.

Signature of a generated function (API.md §2.4):
  fixed arity:  f(<inputs>=None, ..., <params>=_Null, ..., out=None, name=None, **kwargs)
  variadic:     f(*<inputs>, <params>=_Null (keyword-only), ..., out=None, name=None, **kwargs)
Tensor inputs that are None are skipped; params left at _Null are not sent (the operator's
default applies); extra keyword arguments are sent as operator params; values are sent as
str(value), with `dtype` normalised to its NumPy name.
"""
import inspect
import keyword
import re

import numpy as np

from ..base import _Null, op_info, build_param_doc, _init_op_module, op_handle, list_op_names
from .._enums import dtype_str
from ._invoke import NDArrayBase, imperative_invoke, invoke_nd, invoke_nd_nd, OPS
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..base import mx_uint  # noqa: F401

__all__ = ["make_ndarray_function", "build_doc", "param_str", "OpSpec", "register_new_ops"]

def _seq_str(seq):
    items = []
    for e in seq:
        if isinstance(e, np.generic):
            e = e.item()
        elif isinstance(e, (tuple, list)):
            items.append(_seq_str(e))
            continue
        items.append(repr(e) if isinstance(e, str) else str(e))
    if isinstance(seq, list):
        return "[" + ", ".join(items) + "]"
    if len(items) == 1:
        return "(" + items[0] + ",)"
    return "(" + ", ".join(items) + ")"


def param_str(value):
    """The string an operator param value is sent as (Python literal syntax, as MXNet does)."""
    t = type(value)
    if t is str:
        return value
    if t is int or t is float or t is bool:
        return str(value)
    if t is tuple or t is list:
        return _seq_str(value)
    if isinstance(value, np.dtype):
        return value.name
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value).name
    return str(value)


def _encode(name, value, op=None):
    if name == "dtype":
        return dtype_str(value, op).encode()
    return param_str(value).encode()


# ---------------------------------------------------------------------------------------------
# Docstrings

_EXTRA_DOCS = None


def _extra_docs():
    """{op name: [example docstrings]} from the `<op>Doc` classes of mxnet.ndarray_doc."""
    global _EXTRA_DOCS
    if _EXTRA_DOCS is None:
        from .. import ndarray_doc
        _EXTRA_DOCS = {}
        for cls in ndarray_doc.NDArrayDoc.__subclasses__():
            if cls.__name__.endswith("Doc") and cls.__doc__:
                _EXTRA_DOCS.setdefault(cls.__name__[:-3], []).append(cls.__doc__)
    return _EXTRA_DOCS


def build_doc(func_name, desc, arg_names, arg_types, arg_descs, key_var_num_args=None,
              ret_type=None):
    """MXNet's NDArray-function docstring: description, Parameters, out, Returns, examples."""
    param_doc = build_param_doc(arg_names, arg_types, arg_descs)
    doc_str = ("%s\n\n"
               "%s\n"
               "out : NDArray, optional\n"
               "    The output NDArray to hold the result.\n\n"
               "Returns\n"
               "-------\n"
               "out : NDArray or list of NDArrays\n"
               "    The output of this function.") % (desc, param_doc)
    extra = _extra_docs().get(func_name)
    if extra:
        doc_str += re.sub("    ", "", "\n" + "\n".join(extra))
    return doc_str.replace("NDArray-or-Symbol", "NDArray")


# ---------------------------------------------------------------------------------------------
# Argument classification


class OpSpec(object):
    """How a generated function maps Python arguments to the operator.

    inputs: tensor input names (fixed arity) in declaration order.
    variadic: name of the variable-length input (e.g. 'data'), or None.
    params: (name, type string, description) of every non-tensor param, registration order.
    """
    __slots__ = ("op_name", "func_name", "canonical_name", "handle", "inputs", "input_types",
                 "variadic", "params", "key_var_num_args", "description", "return_type")

    def __init__(self, op_name, func_name, handle, info):
        self.op_name = op_name
        self.func_name = func_name
        self.canonical_name = info.name
        self.handle = handle
        self.key_var_num_args = info.key_var_num_args
        self.description = info.description
        self.return_type = info.return_type
        self.inputs = []
        self.input_types = []
        self.variadic = None
        self.params = []
        seen = set()
        for name, atype, adesc in zip(info.arg_names, info.arg_types, info.arg_descs):
            if name in seen:
                continue
            seen.add(name)
            if name != "dtype" and (atype.startswith("NDArray") or atype.startswith("Symbol")):
                if atype.endswith("[]"):
                    self.variadic = name
                else:
                    self.inputs.append(name)
                    self.input_types.append(atype)
            else:
                self.params.append((name, atype, adesc))

    def __repr__(self):
        return "OpSpec(%r, inputs=%r, variadic=%r, params=%r)" % (
            self.op_name, self.inputs, self.variadic, [p[0] for p in self.params])


_RESERVED = {"out", "name", "kwargs"}


def _usable(name, taken):
    return (name.isidentifier() and not keyword.iskeyword(name) and name not in _RESERVED
            and name not in taken)


def signature_names(spec, reserved=()):
    """(inputs, params) of a generated function's signature: the usable names, each once,
    without `reserved` (mx.sym keeps `attr` for itself) and the variadic op's count argument
    (the library fills it in from the number of inputs)."""
    taken = set(reserved)
    sig_inputs = []
    for n in spec.inputs:
        if _usable(n, taken):
            sig_inputs.append(n)
            taken.add(n)
    if spec.variadic is not None:
        taken.add(spec.variadic)
    sig_params = []
    for n, _, _ in spec.params:
        if spec.variadic is not None and n == spec.key_var_num_args:
            continue
        if _usable(n, taken):
            sig_params.append(n)
            taken.add(n)
    return sig_inputs, sig_params


_PARAM_CACHE = {}


def _param(name, kind, default=inspect.Parameter.empty):
    # Parameters are immutable and most names recur across operators: share them.
    key = (name, kind, default is _Null, default is None)
    p = _PARAM_CACHE.get(key)
    if p is None:
        p = _PARAM_CACHE[key] = inspect.Parameter(name, kind, default=default)
    return p


def _signature(spec, sig_inputs, sig_params, trailing=("out", "name")):
    """The generated function's signature: inputs, params, then the `trailing` keywords
    (mx.sym's functions take name, attr and out) and **kwargs."""
    P = inspect.Parameter
    parameters = []
    if spec.variadic is not None:
        parameters.append(_param(spec.variadic, P.VAR_POSITIONAL))
        kind = P.KEYWORD_ONLY
    else:
        kind = P.POSITIONAL_OR_KEYWORD
    for name in sig_inputs:
        parameters.append(_param(name, kind, None))
    for name in sig_params:
        parameters.append(_param(name, kind, _Null))
    for name in trailing:
        parameters.append(_param(name, kind, None))
    parameters.append(_param("kwargs", P.VAR_KEYWORD))
    return inspect.Signature(parameters)


def _check_input(func_name, arg_name, value):
    if not isinstance(value, NDArrayBase):
        raise TypeError("%s: argument '%s' must be an NDArray, got %s"
                        % (func_name, arg_name, type(value).__name__))


# ---------------------------------------------------------------------------------------------
# Function factories


def _make_fixed(spec, sig_inputs, sig_params):
    handle = spec.handle
    func_name = spec.func_name
    in_names = tuple(sig_inputs)
    n_in = len(in_names)
    param_names = tuple(sig_params)
    n_pos = n_in + len(param_names)
    pos_index = {n: i for i, n in enumerate(in_names + param_names)}
    pkeys = tuple(p.encode() for p in param_names)
    dtype_pos = param_names.index("dtype") if "dtype" in param_names else -1
    key_cache = {}
    invoke = imperative_invoke
    invoke1 = invoke_nd
    invoke2 = invoke_nd_nd
    null = _Null
    base = NDArrayBase

    def op_function(*args, out=None, name=None, **kwargs):  # pylint: disable=unused-argument
        nargs = len(args)
        if nargs == n_in and not kwargs and (out is None or isinstance(out, base)):
            # Fast path: only the tensor inputs, given positionally (mx.nd.exp(a)).
            if n_in == 1:
                a = args[0]
                if isinstance(a, base):
                    return invoke1(handle, a, out)
            elif n_in == 2:
                a, b = args
                if isinstance(a, base) and isinstance(b, base):
                    return invoke2(handle, a, b, out)
        if nargs > n_pos:
            if nargs > n_pos + 2:
                raise TypeError("%s() takes at most %d positional arguments (%d given)"
                                % (func_name, n_pos + 2, nargs))
            extra = args[n_pos:]
            out = extra[0]
            if len(extra) > 1:
                name = extra[1]
            args = args[:n_pos]
            nargs = n_pos
        keys = []
        vals = []
        if kwargs:
            ins = list(args[:n_in])
            if len(ins) < n_in:
                ins.extend([None] * (n_in - len(ins)))
            for k, v in kwargs.items():
                i = pos_index.get(k)
                if i is not None:
                    if i < nargs:
                        raise TypeError("%s() got multiple values for argument '%s'"
                                        % (func_name, k))
                    if i < n_in:
                        ins[i] = v
                        continue
                if v is null or (v is None and k == "ctx"):   # ctx=None: default device
                    continue
                kb = key_cache.get(k)
                if kb is None:
                    kb = key_cache[k] = k.encode()
                keys.append(kb)
                vals.append(_encode(k, v, func_name))
        else:
            ins = args if nargs <= n_in else args[:n_in]
        ndargs = []
        for i, a in enumerate(ins):
            if a is not None:
                if not isinstance(a, base):
                    _check_input(func_name, in_names[i], a)
                ndargs.append(a)
        for i in range(n_in, nargs):
            v = args[i]
            if v is not null:
                j = i - n_in
                keys.append(pkeys[j])
                vals.append(dtype_str(v, func_name).encode() if j == dtype_pos
                            else param_str(v).encode())
        return invoke(handle, ndargs, keys, vals, out)

    return op_function


def _make_variadic(spec, sig_inputs):
    handle = spec.handle
    func_name = spec.func_name
    var_name = spec.variadic
    extra_inputs = frozenset(sig_inputs)
    key_cache = {}
    invoke = imperative_invoke
    null = _Null
    base = NDArrayBase

    def op_function(*data, out=None, name=None, **kwargs):  # pylint: disable=unused-argument
        if len(data) == 1 and isinstance(data[0], (list, tuple)):
            data = data[0]
        ndargs = list(data)
        for a in ndargs:
            if not isinstance(a, base):
                _check_input(func_name, var_name, a)
        keys = []
        vals = []
        for k, v in kwargs.items():
            if k in extra_inputs:
                if v is not None:
                    _check_input(func_name, k, v)
                    ndargs.append(v)
                continue
            if v is null or (v is None and k == "ctx"):
                continue
            kb = key_cache.get(k)
            if kb is None:
                kb = key_cache[k] = k.encode()
            keys.append(kb)
            vals.append(_encode(k, v, func_name))
        return invoke(handle, ndargs, keys, vals, out)

    return op_function


def make_ndarray_function(handle, op_name, func_name):
    """The Python function for operator `op_name` (an alias or canonical name)."""
    info = op_info(handle)
    spec = OpSpec(op_name, func_name, handle, info)
    sig_inputs, sig_params = signature_names(spec)
    if spec.variadic is not None:
        function = _make_variadic(spec, sig_inputs)
    else:
        function = _make_fixed(spec, sig_inputs, sig_params)
    function.__name__ = func_name
    function.__qualname__ = func_name
    function.__signature__ = _signature(spec, sig_inputs, sig_params)
    function.__doc__ = build_doc(func_name, info.description, info.arg_names, info.arg_types,
                                 info.arg_descs, info.key_var_num_args, info.return_type)
    function._op_spec = spec  # pylint: disable=protected-access  (used by the .pyi generator)
    return function


# Operators the NDArray methods call through the fast path (ndarray._invoke.OPS).
_FAST_OPS = (
    "broadcast_add", "broadcast_sub", "broadcast_mul", "broadcast_div", "broadcast_mod",
    "broadcast_power", "broadcast_equal", "broadcast_not_equal", "broadcast_greater",
    "broadcast_greater_equal", "broadcast_lesser", "broadcast_lesser_equal",
    "_plus_scalar", "_minus_scalar", "_rminus_scalar", "_mul_scalar", "_div_scalar",
    "_rdiv_scalar", "_mod_scalar", "_rmod_scalar", "_power_scalar", "_rpower_scalar",
    "_equal_scalar", "_not_equal_scalar", "_greater_scalar", "_greater_equal_scalar",
    "_lesser_scalar", "_lesser_equal_scalar", "abs")


def init_ndarray_module(names=None):
    """Generate and install the operator functions (all, or just `names`)."""
    _init_op_module("mxnet", "ndarray", make_ndarray_function, names)
    registered = set(list_op_names())
    for name in _FAST_OPS:
        if name in registered:
            setattr(OPS, name, op_handle(name))


def register_new_ops(names):
    """Generate functions for operators registered after import (mx.library.load): installed
    like the others, and those of `mxnet.ndarray.op` also as `mx.nd.<name>`."""
    import sys
    from ..base import _refresh_op_names, _op_placement
    _refresh_op_names()
    init_ndarray_module(names)
    package = sys.modules["mxnet.ndarray"]
    op_module = sys.modules["mxnet.ndarray.op"]
    for name in names:
        target, func_name = _op_placement(name, "mxnet", "ndarray")
        if target == op_module.__name__:
            setattr(package, func_name, getattr(op_module, func_name))
            if func_name not in package.__all__:
                package.__all__.append(func_name)
