"""Builds the `mx.sym.<op>` functions from the library's operator registry at import.

Argument classification, signatures and parameter encoding are shared with the NDArray
generator (mxnet.ndarray.register); only the call differs: a generated symbol function creates
an atomic symbol (MXSymbolCreateAtomicSymbol) and composes it with its Symbol inputs (API.md §2.5):

  fixed arity:  f(<inputs>=None, ..., <params>=_Null, ..., name=None, attr=None, out=None, **kwargs)
  variadic:     f(*<inputs>, <params>=_Null, ..., name=None, attr=None, out=None, **kwargs)

Symbol-valued keyword arguments are inputs, the rest op params; attributes of the current
AttrScope (and `attr`) are added to the params; the name comes from the NameManager
(`<op name lower><counter>`). Variadic ops get `num_args` (key_var_num_args) unless given.
"""
from ..attribute import AttrScope
from ..base import _Null, op_info, build_param_doc, _init_op_module
from ..name import NameManager
from .._enums import dtype_str
from .symbol import Symbol, _create_atomic
from ..ndarray.register import OpSpec, param_str, signature_names, _signature as _nd_signature
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..base import mx_uint  # noqa: F401

__all__ = ["make_symbol_function", "build_doc"]


def build_doc(func_name, desc, arg_names, arg_types, arg_descs, key_var_num_args=None):
    """MXNet's Symbol-function docstring."""
    param_doc = build_param_doc(arg_names, arg_types, arg_descs)
    if key_var_num_args:
        desc += "\nThis function support variable length of positional input."
    doc_str = ("%s\n\n"
               "%s\n"
               "name : string, optional.\n"
               "    Name of the resulting symbol.\n\n"
               "Returns\n"
               "-------\n"
               "Symbol\n"
               "    The result symbol.") % (desc, param_doc)
    return doc_str.replace("NDArray-or-Symbol", "Symbol")


def _signature(spec, sig_inputs, sig_params):
    return _nd_signature(spec, sig_inputs, sig_params, trailing=("name", "attr", "out"))


def _encode(key, value, op=None):
    return dtype_str(value, op) if key == "dtype" else param_str(value)


def _make_function(spec, sig_inputs, sig_params):
    handle = spec.handle
    func_name = spec.func_name
    hint = func_name.lower()
    in_names = tuple(sig_inputs)
    param_names = tuple(sig_params)
    variadic = spec.variadic
    extra_inputs = frozenset(sig_inputs)
    key_var_num_args = spec.key_var_num_args
    positional = in_names + param_names

    def op_function(*args, name=None, attr=None, out=None, **kwargs):  # pylint: disable=unused-argument
        if attr is not None and not isinstance(attr, dict):
            raise TypeError("%s: attr must be a dict of strings" % func_name)
        scope_attr = AttrScope.current.get(attr)
        sym_args = []
        sym_kwargs = {}
        keys = []
        vals = []
        if variadic is not None:
            if len(args) == 1 and isinstance(args[0], (list, tuple)):
                args = args[0]
            for a in args:
                if not isinstance(a, Symbol):
                    raise TypeError("%s: positional input '%s' must be a Symbol, got %s"
                                    % (func_name, variadic, type(a).__name__))
                sym_args.append(a)
        else:
            if len(args) > len(positional):
                raise TypeError("%s() takes at most %d positional arguments (%d given)"
                                % (func_name, len(positional), len(args)))
            for k, v in zip(positional, args):
                if k in kwargs:
                    raise TypeError("%s() got multiple values for argument '%s'" % (func_name, k))
                kwargs[k] = v
        for k, v in kwargs.items():
            if isinstance(v, Symbol):
                sym_kwargs[k] = v
            elif v is None and (k in extra_inputs or k in in_names):
                continue
            elif k in in_names:
                raise TypeError("%s: argument '%s' must be a Symbol, got %s"
                                % (func_name, k, type(v).__name__))
            elif v is _Null:
                continue
            else:
                keys.append(k)
                vals.append(_encode(k, v, func_name))
        for k, v in scope_attr.items():
            keys.append(k)
            vals.append(str(v))
        if variadic is not None:
            if sym_args and sym_kwargs:
                raise TypeError("Operators with variable length input can only accept input "
                                "Symbols either as positional or keyword arguments, not both")
            if key_var_num_args and key_var_num_args not in kwargs:
                keys.append(key_var_num_args)
                vals.append(str(len(sym_args) + len(sym_kwargs)))
        name = NameManager.current.get(name, hint)
        return _create_atomic(handle, keys, vals, sym_args, sym_kwargs, name)

    return op_function


def make_symbol_function(handle, op_name, func_name):
    """The Python function for operator `op_name` (an alias or canonical name)."""
    info = op_info(handle)
    spec = OpSpec(op_name, func_name, handle, info)
    sig_inputs, sig_params = signature_names(spec, reserved=("attr",))
    function = _make_function(spec, sig_inputs, sig_params)
    function.__name__ = func_name
    function.__qualname__ = func_name
    function.__signature__ = _signature(spec, sig_inputs, sig_params)
    function.__doc__ = build_doc(func_name, info.description, info.arg_names, info.arg_types,
                                 info.arg_descs, info.key_var_num_args)
    function._op_spec = spec  # pylint: disable=protected-access
    return function


def init_symbol_module(names=None):
    """Generate and install the operator functions (all, or just `names`)."""
    _init_op_module("mxnet", "symbol", make_symbol_function, names)
