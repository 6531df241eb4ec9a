"""`Symbol`: a symbolic graph of operators, composed lazily and run by binding an Executor.

>>> data = mx.sym.var('data')
>>> net = mx.sym.FullyConnected(data, num_hidden=10, name='fc1')
>>> net.list_arguments()
['data', 'fc1_weight', 'fc1_bias']
>>> net.infer_shape(data=(4, 20))[0]
[(4, 20), (10, 20), (10,)]
>>> ex = net.simple_bind(mx.cpu(), data=(4, 20))
>>> ex.forward(data=mx.nd.ones((4, 20)))
"""
import ctypes
import warnings

import numpy as np

from ..attribute import AttrScope
from ..base import (_LIB, check_call, c_str, c_str_array, c_array, c_handle_array, py_str,
                    mx_uint, mx_int, SymbolHandle, ExecutorHandle, NDArrayHandle, string_types,
                    numeric_types, _Null, MXNetError)
from ..context import Context, current_context
from ..name import NameManager
from .._enums import (_DTYPE_NP_TO_MX, _DTYPE_MX_TO_NP, _GRAD_REQ_MAP, _STORAGE_TYPE_STR_TO_ID,
                      _STORAGE_TYPE_ID_TO_STR)
from ..ndarray import NDArray
from ..ndarray.ndarray import _FLUENT_METHODS
from ..executor import Executor
from ..ndarray._sparse import _ndarray_cls
from . import _internal
from . import op as _op_module
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array  # noqa: F401
from builtins import slice as py_slice  # noqa: F401
from numbers import Number  # noqa: F401
from ..base import integer_types, mx_int64, NotImplementedForSymbol, c_array_buf  # noqa: F401
from ..util import is_np_shape  # noqa: F401

__all__ = ["Symbol", "var", "Variable", "Group", "load", "load_json", "pow", "power", "maximum",
           "minimum", "hypot", "zeros", "ones", "full", "arange", "linspace", "eye", "histogram",
           "split_v2"]


def _create_atomic(handle, keys, vals, args, kwargs, name):
    """MXSymbolCreateAtomicSymbol + compose (what every generated function calls)."""
    hdl = SymbolHandle()
    check_call(_LIB.MXSymbolCreateAtomicSymbol(
        handle, mx_uint(len(keys)), c_str_array(keys), c_str_array(vals), ctypes.byref(hdl)))
    s = Symbol(hdl)
    if args:
        s._compose(*args, name=name)
    elif kwargs:
        s._compose(name=name, **kwargs)
    else:
        s._compose(name=name)
    return s


def _str_list(func, handle):
    size = mx_uint()
    arr = ctypes.POINTER(ctypes.c_char_p)()
    check_call(func(handle, ctypes.byref(size), ctypes.byref(arr)))
    return [py_str(arr[i]) for i in range(size.value)]



# Symbol operators under NumPy array semantics: the broadcasting operators mx.np uses.
_NP_BROADCAST_OPS = {"_Plus": "broadcast_add", "_Minus": "broadcast_sub",
                     "_Mul": "broadcast_mul", "_Div": "broadcast_div", "_Mod": "broadcast_mod",
                     "_Power": "broadcast_power"}


def _is_np_array():
    from ..util import is_np_array
    return is_np_array()

class Symbol(object):
    """A symbolic graph (one or more outputs). Build with mx.sym.var and the operator
    functions; run with bind/simple_bind/eval."""
    __slots__ = ("handle", "__weakref__")
    # Python prefers our reflected operators over NumPy's for `ndarray + symbol`.
    __array_priority__ = 1000.0

    def __init__(self, handle):
        self.handle = handle

    def __del__(self):
        try:
            if self.handle is not None:
                _LIB.MXSymbolFree(self.handle)
        except Exception:  # pylint: disable=broad-except  (interpreter shutdown)
            pass

    # ---------------------------------------------------------------- copying / pickling
    def __copy__(self):
        return self.__deepcopy__(None)

    def __deepcopy__(self, _):
        hdl = SymbolHandle()
        check_call(_LIB.MXSymbolCopy(self.handle, ctypes.byref(hdl)))
        return Symbol(hdl)

    def __getstate__(self):
        return {"handle": self.tojson(remove_amp_cast=False)}

    def __setstate__(self, state):
        hdl = SymbolHandle()
        check_call(_LIB.MXSymbolCreateFromJSON(c_str(state["handle"]), ctypes.byref(hdl)))
        self.handle = hdl

    def __reduce__(self):
        return (_from_json_state, (self.tojson(remove_amp_cast=False),))

    def __repr__(self):
        name = self.name
        if name is None:
            return "<Symbol group [%s]>" % ", ".join(s.name for s in self)
        return "<Symbol %s>" % name

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __len__(self):
        n = mx_uint()
        check_call(_LIB.MXSymbolGetNumOutputs(self.handle, ctypes.byref(n)))
        return n.value

    def __hash__(self):
        return id(self)

    def __bool__(self):
        raise NotImplementedError("The truth value of a Symbol is not defined")

    # ---------------------------------------------------------------- composition
    def __call__(self, *args, **kwargs):
        s = self.__copy__()
        s._compose(*args, **kwargs)
        return s

    def _compose(self, *args, **kwargs):
        name = kwargs.pop("name", None)
        if name is not None and not isinstance(name, string_types):
            raise TypeError("name must be a string")
        if args and kwargs:
            raise TypeError("compose only accept input Symbols either as positional or "
                            "keyword arguments, not both")
        for a in args:
            if not isinstance(a, Symbol):
                raise TypeError("Compose expect `Symbol` as arguments, got %s" % type(a).__name__)
        for k, v in kwargs.items():
            if not isinstance(v, Symbol):
                raise TypeError("Compose expect `Symbol` as arguments, got %s for %s"
                                % (type(v).__name__, k))
        if kwargs:
            keys = c_str_array(list(kwargs.keys()))
            syms = c_handle_array(list(kwargs.values()))
            n = len(kwargs)
        else:
            keys = None
            syms = c_handle_array(args)
            n = len(args)
        check_call(_LIB.MXSymbolCompose(self.handle, c_str(name) if name else None, mx_uint(n),
                                        keys, syms))

    def __getitem__(self, index):
        if isinstance(index, string_types):
            outputs = self.list_outputs()
            idx = None
            for i, name in enumerate(outputs):
                if name == index:
                    if idx is not None:
                        raise ValueError("There are multiple outputs with name \"%s\"" % index)
                    idx = i
            if idx is None:
                raise ValueError("Cannot find output that matches name \"%s\"" % index)
            index = idx
        if isinstance(index, slice):
            return Group([self[i] for i in range(len(self))[index]])
        if not isinstance(index, (int, np.integer)):
            raise TypeError("Symbol only supports integer or string indices, got %s"
                            % type(index).__name__)
        n = len(self)
        if index < 0:
            index += n
        if index < 0 or index >= n:
            raise IndexError("Symbol index %d out of range (%d outputs)" % (index, n))
        hdl = SymbolHandle()
        check_call(_LIB.MXSymbolGetOutput(self.handle, mx_uint(index), ctypes.byref(hdl)))
        return Symbol(hdl)

    # ---------------------------------------------------------------- arithmetic
    def _binary(self, other, op_sym, op_scalar, reverse=False):
        if isinstance(other, Symbol):
            if op_sym in _NP_BROADCAST_OPS and _is_np_array():
                # NumPy array semantics (npx.set_np()): operators broadcast as in mx.np.
                fn = getattr(_op_module, _NP_BROADCAST_OPS[op_sym])
                return fn(other, self) if reverse else fn(self, other)
            return getattr(_internal, op_sym)(other, self) if reverse else \
                getattr(_internal, op_sym)(self, other)
        if isinstance(other, numeric_types):
            return getattr(_internal, op_scalar)(self, scalar=float(other))
        raise TypeError("type %s not supported" % str(type(other)))

    def __add__(self, other):
        return self._binary(other, "_Plus", "_PlusScalar")

    __radd__ = __add__

    def __iadd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        return self._binary(other, "_Minus", "_MinusScalar")

    def __isub__(self, other):
        return self.__sub__(other)

    def __rsub__(self, other):
        return self._binary(other, "_Minus", "_RMinusScalar", reverse=True)

    def __mul__(self, other):
        return self._binary(other, "_Mul", "_MulScalar")

    __rmul__ = __mul__

    def __imul__(self, other):
        return self.__mul__(other)

    def __truediv__(self, other):
        return self._binary(other, "_Div", "_DivScalar")

    __div__ = __truediv__

    def __rtruediv__(self, other):
        return self._binary(other, "_Div", "_RDivScalar", reverse=True)

    __rdiv__ = __rtruediv__

    def __itruediv__(self, other):
        return self.__truediv__(other)

    def __mod__(self, other):
        return self._binary(other, "_Mod", "_ModScalar")

    def __rmod__(self, other):
        return self._binary(other, "_Mod", "_RModScalar", reverse=True)

    def __pow__(self, other):
        return self._binary(other, "_Power", "_PowerScalar")

    def __rpow__(self, other):
        return self._binary(other, "_Power", "_RPowerScalar", reverse=True)

    def __neg__(self):
        return self.__mul__(-1.0)

    def __abs__(self):
        return _op_module.abs(self)

    def __eq__(self, other):
        return self._binary(other, "_equal", "_equal_scalar")

    def __ne__(self, other):
        return self._binary(other, "_not_equal", "_not_equal_scalar")

    def __gt__(self, other):
        return self._binary(other, "_greater", "_greater_scalar")

    def __ge__(self, other):
        return self._binary(other, "_greater_equal", "_greater_equal_scalar")

    def __lt__(self, other):
        return self._binary(other, "_lesser", "_lesser_scalar")

    def __le__(self, other):
        return self._binary(other, "_lesser_equal", "_lesser_equal_scalar")

    # ---------------------------------------------------------------- inspection
    @property
    def name(self):
        """The node name of a single-node symbol; None for a group."""
        ret = ctypes.c_char_p()
        success = ctypes.c_int()
        check_call(_LIB.MXSymbolGetName(self.handle, ctypes.byref(ret), ctypes.byref(success)))
        return py_str(ret.value) if success.value != 0 else None

    def attr(self, key):
        """The attribute `key` of this symbol's node (hidden keys may omit the underscores)."""
        ret = ctypes.c_char_p()
        success = ctypes.c_int()
        check_call(_LIB.MXSymbolGetAttr(self.handle, c_str(key), ctypes.byref(ret),
                                        ctypes.byref(success)))
        return py_str(ret.value) if success.value != 0 else None

    def list_attr(self, recursive=False):
        """Attributes of this node (recursive=True is deprecated: use attr_dict)."""
        if recursive:
            raise DeprecationWarning("Symbol.list_attr with recursive=True has been deprecated. "
                                     "Please use attr_dict instead.")
        size = mx_uint()
        pairs = ctypes.POINTER(ctypes.c_char_p)()
        check_call(_LIB.MXSymbolListAttrShallow(self.handle, ctypes.byref(size),
                                                ctypes.byref(pairs)))
        return {py_str(pairs[i * 2]): py_str(pairs[i * 2 + 1]) for i in range(size.value)}

    def attr_dict(self):
        """{node name: {key: value}} for every node with attributes."""
        size = mx_uint()
        pairs = ctypes.POINTER(ctypes.c_char_p)()
        check_call(_LIB.MXSymbolListAttr(self.handle, ctypes.byref(size), ctypes.byref(pairs)))
        ret = {}
        for i in range(size.value):
            name, key = py_str(pairs[i * 2]).split("$", 1)
            ret.setdefault(name, {})[key] = py_str(pairs[i * 2 + 1])
        return ret

    def _set_attr(self, **kwargs):
        for key, value in kwargs.items():
            if not isinstance(value, string_types):
                raise ValueError("Set Attr only accepts string values")
            check_call(_LIB.MXSymbolSetAttr(self.handle, c_str(key), c_str(str(value))))

    def get_internals(self):
        """A group of every output of every node (variables included)."""
        hdl = SymbolHandle()
        check_call(_LIB.MXSymbolGetInternals(self.handle, ctypes.byref(hdl)))
        return Symbol(hdl)

    def get_children(self):
        """A group of the inputs of this symbol's nodes, or None for a variable."""
        hdl = SymbolHandle()
        check_call(_LIB.MXSymbolGetChildren(self.handle, ctypes.byref(hdl)))
        ret = Symbol(hdl)
        if len(ret.list_outputs()) == 0:
            return None
        return ret

    def list_arguments(self):
        return _str_list(_LIB.MXSymbolListArguments, self.handle)

    def list_outputs(self):
        return _str_list(_LIB.MXSymbolListOutputs, self.handle)

    def list_auxiliary_states(self):
        return _str_list(_LIB.MXSymbolListAuxiliaryStates, self.handle)

    def list_inputs(self):
        """Arguments and auxiliary states, in graph order."""
        size = mx_uint()
        arr = ctypes.POINTER(ctypes.c_char_p)()
        check_call(_LIB.NNSymbolListInputNames(self.handle, 0, ctypes.byref(size),
                                               ctypes.byref(arr)))
        return [py_str(arr[i]) for i in range(size.value)]

    # ---------------------------------------------------------------- inference
    def infer_type(self, *args, **kwargs):
        """(arg_types, out_types, aux_types) as NumPy types, or Nones when incomplete."""
        try:
            res = self._infer_type_impl(False, *args, **kwargs)
            if res[1] is None:
                unknown = [n for n, t in zip(self.list_arguments(), self._infer_type_impl(
                    True, *args, **kwargs)[0]) if t is None]
                warnings.warn("Cannot decide type for the following arguments. Consider "
                              "providing them as input:\n\t" + "\n\t".join(unknown),
                              stacklevel=2)
            return res
        except MXNetError:
            print("infer_type error. Arguments:")
            for i, arg in enumerate(args):
                print("  #%d: %s" % (i, arg))
            for k, v in kwargs.items():
                print("  %s: %s" % (k, v))
            raise

    def _stype_keys(self, args, kwargs):
        names = self.list_arguments()
        if args and kwargs:
            raise ValueError("infer_storage_type: give storage types by position or by name, "
                             "not both")
        if args:
            if len(args) > len(names):
                raise ValueError("infer_storage_type: %d storage types for %d arguments"
                                 % (len(args), len(names)))
            pairs = [(n, s) for n, s in zip(names, args) if s is not None]
        else:
            pairs = [(k, v) for k, v in kwargs.items() if v is not None]
        keys, codes = [], []
        for k, v in pairs:
            if v not in _STORAGE_TYPE_STR_TO_ID or v == "undefined":
                raise ValueError("infer_storage_type: unknown storage type %r for %s "
                                 "(expected 'default', 'row_sparse' or 'csr')" % (v, k))
            keys.append(k)
            codes.append(_STORAGE_TYPE_STR_TO_ID[v])
        return keys, codes

    def infer_storage_type(self, *args, **kwargs):
        """Storage types ('default', 'row_sparse', 'csr') of the arguments, outputs and
        auxiliary states, from the given argument storage types (by position or name; the
        others come from the variables' ``stype``, else 'default'). Operators that cannot
        run on sparse inputs produce dense outputs (storage fallback)."""
        keys, codes = self._stype_keys(args, kwargs)
        sizes = [mx_uint() for _ in range(3)]
        ptrs = [ctypes.POINTER(ctypes.c_int)() for _ in range(3)]
        check_call(_LIB.MXSymbolInferStorageTypeEx(
            self.handle, mx_uint(len(keys)), c_str_array(keys), c_array(ctypes.c_int, codes),
            ctypes.byref(sizes[0]), ctypes.byref(ptrs[0]), ctypes.byref(sizes[1]),
            ctypes.byref(ptrs[1]), ctypes.byref(sizes[2]), ctypes.byref(ptrs[2])))
        return tuple([_STORAGE_TYPE_ID_TO_STR[ptrs[k][i]] for i in range(sizes[k].value)]
                     for k in range(3))

    def _infer_grad_storage_type(self, grad_req, *args, **kwargs):
        """Storage types of the gradient arrays simple_bind would allocate (None where the
        grad_req is 'null'); grad_req is a str, a list or a dict as in bind."""
        names = self.list_arguments()
        if isinstance(grad_req, string_types):
            reqs = [grad_req] * len(names)
        elif isinstance(grad_req, (list, tuple)):
            reqs = list(grad_req)
        else:
            reqs = [grad_req.get(n, "null") for n in names]
        codes_req = [_GRAD_REQ_MAP[r] for r in reqs]
        keys, codes = self._stype_keys(args, kwargs)
        size = mx_uint()
        ptr = ctypes.POINTER(ctypes.c_int)()
        check_call(_LIB.MXSymbolInferGradStorageType(
            self.handle, mx_uint(len(keys)), c_str_array(keys), c_array(ctypes.c_int, codes),
            mx_uint(len(codes_req)), c_array(mx_uint, codes_req), ctypes.byref(size),
            ctypes.byref(ptr)))
        return [None if ptr[i] < 0 else _STORAGE_TYPE_ID_TO_STR[ptr[i]]
                for i in range(size.value)]

    def infer_type_partial(self, *args, **kwargs):
        return self._infer_type_impl(True, *args, **kwargs)

    def _infer_type_impl(self, partial, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Can only specify known argument types either by positional or "
                             "kwargs way.")
        def code(t):
            if t is None:
                return -1
            return _DTYPE_NP_TO_MX[np.dtype(t).type]
        if args:
            keys = None
            types = [code(t) for t in args]
        else:
            keys = c_str_array(list(kwargs.keys()))
            types = [code(t) for t in kwargs.values()]
        sizes = [mx_uint(), mx_uint(), mx_uint()]
        datas = [ctypes.POINTER(ctypes.c_int)() for _ in range(3)]
        complete = ctypes.c_int()
        func = _LIB.MXSymbolInferTypePartial if partial else _LIB.MXSymbolInferType
        check_call(func(self.handle, mx_uint(len(types)), keys, c_array(ctypes.c_int, types),
                        ctypes.byref(sizes[0]), ctypes.byref(datas[0]),
                        ctypes.byref(sizes[1]), ctypes.byref(datas[1]),
                        ctypes.byref(sizes[2]), ctypes.byref(datas[2]), ctypes.byref(complete)))
        if complete.value == 0:
            return (None, None, None)
        return tuple([_DTYPE_MX_TO_NP[datas[k][i]] if datas[k][i] >= 0 else None
                      for i in range(sizes[k].value)] for k in range(3))

    def infer_shape(self, *args, **kwargs):
        """(arg_shapes, out_shapes, aux_shapes), or (None, None, None) with a warning when some
        shape cannot be decided. Unknown dims are 0 (MXNet's legacy convention)."""
        try:
            res = self._infer_shape_impl(False, *args, **kwargs)
            if res[1] is None:
                arg_shapes, _, _ = self._infer_shape_impl(True, *args, **kwargs)
                unknowns = []
                for name, shape in zip(self.list_arguments(), arg_shapes):
                    if not shape or 0 in shape:
                        unknowns.append("%s: %s" % (name, str(shape)))
                warnings.warn("Cannot decide shape for the following arguments (0s in shape "
                              "means unknown dimensions). Consider providing them as input:\n\t"
                              + "\n\t".join(unknowns), stacklevel=2)
            return res
        except MXNetError:
            print("infer_shape error. Arguments:")
            for i, arg in enumerate(args):
                print("  #%d: %s" % (i, arg))
            for k, v in kwargs.items():
                print("  %s: %s" % (k, v))
            raise

    def infer_shape_partial(self, *args, **kwargs):
        return self._infer_shape_impl(True, *args, **kwargs)

    def _infer_shape_impl(self, partial, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Can only specify known argument shapes either by positional or "
                             "kwargs way.")
        sdata = []
        indptr = [0]
        if args:
            keys = None
            for s in args:
                if s is not None:
                    if not isinstance(s, tuple):
                        raise TypeError("Arguments need to be shapes (tuple), got %s" % str(s))
                    sdata.extend(s)
                indptr.append(len(sdata))
        else:
            keys = []
            for k, v in kwargs.items():
                if isinstance(v, (int, np.integer)):
                    v = (v,)
                if not isinstance(v, tuple):
                    raise TypeError("Arguments need to be shapes (tuple), got %s for %s"
                                    % (str(v), k))
                keys.append(k)
                sdata.extend(v)
                indptr.append(len(sdata))
            keys = c_str_array(keys)
        sizes = [ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_size_t()]
        ndims = [ctypes.POINTER(mx_int)() for _ in range(3)]
        datas = [ctypes.POINTER(ctypes.POINTER(ctypes.c_int64))() for _ in range(3)]
        complete = ctypes.c_int()
        func = _LIB.MXSymbolInferShapePartialEx64 if partial else _LIB.MXSymbolInferShapeEx64
        check_call(func(self.handle, mx_uint(len(indptr) - 1), keys,
                        c_array(ctypes.c_int64, indptr), c_array(ctypes.c_int64, sdata),
                        ctypes.byref(sizes[0]), ctypes.byref(ndims[0]), ctypes.byref(datas[0]),
                        ctypes.byref(sizes[1]), ctypes.byref(ndims[1]), ctypes.byref(datas[1]),
                        ctypes.byref(sizes[2]), ctypes.byref(ndims[2]), ctypes.byref(datas[2]),
                        ctypes.byref(complete)))
        if complete.value == 0:
            return (None, None, None)
        return tuple([tuple(datas[k][i][:ndims[k][i]]) for i in range(sizes[k].value)]
                     for k in range(3))

    # ---------------------------------------------------------------- serialisation
    def debug_str(self):
        out = ctypes.c_char_p()
        check_call(_LIB.MXSymbolPrint(self.handle, ctypes.byref(out)))
        return py_str(out.value)

    def _without_amp_cast(self):
        """A copy without amp_cast/amp_multicast nodes (consumers read the casts' inputs)."""
        handle = SymbolHandle()
        check_call(_LIB.MXSymbolRemoveAmpCast(self.handle, ctypes.byref(handle)))
        return Symbol(handle)

    def tojson(self, remove_amp_cast=True):
        sym = self._without_amp_cast() if remove_amp_cast else self
        out = ctypes.c_char_p()
        check_call(_LIB.MXSymbolSaveToJSON(sym.handle, ctypes.byref(out)))
        return py_str(out.value)

    def save(self, fname, remove_amp_cast=True):
        if not isinstance(fname, string_types):
            raise TypeError("fname need to be string")
        sym = self._without_amp_cast() if remove_amp_cast else self
        check_call(_LIB.MXSymbolSaveToFile(sym.handle, c_str(fname)))

    # ---------------------------------------------------------------- binding
    def _arrays_in_order(self, arrays, names, what, allow_missing=False):
        """A list of handles (or None) in `names` order from a list or a dict."""
        if arrays is None:
            return [None] * len(names)
        if isinstance(arrays, (list, tuple)):
            if len(arrays) != len(names):
                raise ValueError("Length of %s does not match the number of %s: %d vs %d "
                                 "(%s)" % (what, what, len(arrays), len(names), names))
            for a in arrays:
                if a is not None and not isinstance(a, NDArray):
                    raise TypeError("Only accept list of NDArrays or dict of str to NDArray")
            return list(arrays)
        if isinstance(arrays, dict):
            unknown = [k for k in arrays if k not in names]
            if unknown:
                # MXNet 1.9.1 ignores them (scripts pass one dict to several graphs): so do we,
                # saying so, since a misspelt name is the other reason for an unknown key.
                warnings.warn("bind: %s has name(s) %s that the symbol does not have (its %s are "
                              "%s); they are ignored" % (what, unknown, what, names),
                              stacklevel=3)
            ret = []
            for name in names:
                if name in arrays:
                    if not isinstance(arrays[name], NDArray):
                        raise TypeError("Only accept list of NDArrays or dict of str to NDArray")
                    ret.append(arrays[name])
                elif allow_missing:
                    ret.append(None)
                else:
                    raise ValueError("key `%s` is missing in `%s`" % (name, what))
            return ret
        raise TypeError("Only accept list of NDArrays or dict of str to NDArray")

    def bind(self, ctx, args, args_grad=None, grad_req="write", aux_states=None, group2ctx=None,
             shared_exec=None):
        """Bind to arrays (lists in list_arguments order, or dicts by name)."""
        if not isinstance(ctx, Context):
            raise TypeError("Context type error")
        arg_names = self.list_arguments()
        aux_names = self.list_auxiliary_states()
        args = self._arrays_in_order(args, arg_names, "args")
        grads = self._arrays_in_order(args_grad, arg_names, "args_grad", allow_missing=True)
        aux = self._arrays_in_order(aux_states if aux_states is not None else [], aux_names,
                                    "aux_states")
        if isinstance(grad_req, string_types):
            if grad_req not in _GRAD_REQ_MAP:
                raise ValueError("grad_req must be in %s" % str(_GRAD_REQ_MAP))
            reqs = [_GRAD_REQ_MAP[grad_req]] * len(arg_names)
        elif isinstance(grad_req, (list, tuple)):
            if len(grad_req) != len(arg_names):
                raise ValueError("grad_req list length %d does not match %d arguments"
                                 % (len(grad_req), len(arg_names)))
            reqs = [_GRAD_REQ_MAP[r] for r in grad_req]
        elif isinstance(grad_req, dict):
            for k in grad_req:
                if k not in arg_names:
                    raise ValueError("grad_req: %s is not an argument" % k)
            reqs = [_GRAD_REQ_MAP[grad_req.get(n, "null")] for n in arg_names]
        else:
            raise TypeError("grad_req must be a str, list or dict")
        g2c = group2ctx or {}
        handle = ExecutorHandle()
        null = ctypes.c_void_p(None)
        check_call(_LIB.MXExecutorBindEX(
            self.handle, ctypes.c_int(ctx.device_typeid), ctypes.c_int(ctx.device_id),
            mx_uint(len(g2c)), c_str_array(list(g2c.keys())),
            c_array(ctypes.c_int, [c.device_typeid for c in g2c.values()]),
            c_array(ctypes.c_int, [c.device_id for c in g2c.values()]),
            mx_uint(len(args)), c_array(ctypes.c_void_p, [a.handle for a in args]),
            c_array(ctypes.c_void_p, [g.handle if g is not None else null for g in grads]),
            c_array(mx_uint, reqs), mx_uint(len(aux)),
            c_array(ctypes.c_void_p, [a.handle for a in aux]),
            shared_exec.handle if shared_exec is not None else None, ctypes.byref(handle)))
        ex = Executor(handle, self, ctx, grad_req, group2ctx)
        ex.arg_arrays = list(args)
        ex.grad_arrays = list(grads)
        ex.aux_arrays = list(aux)
        return ex

    def simple_bind(self, ctx, grad_req="write", type_dict=None, stype_dict=None, group2ctx=None,
                    shared_arg_names=None, shared_exec=None, shared_buffer=None, **kwargs):
        """Infer shapes from `kwargs` (name=shape), allocate every array and bind."""
        arg_names = self.list_arguments()
        if type_dict is None:
            attrs = self.attr_dict()
            type_dict = {k: np.float32 for k in arg_names
                         if k not in attrs or "__dtype__" not in attrs[k]}
        shape_names, shape_data, shape_idx = [], [], [0]
        for k, v in kwargs.items():
            if isinstance(v, (int, np.integer)):
                v = (v,)
            if not isinstance(v, tuple):
                raise TypeError("simple_bind: shape of %s must be a tuple, got %s" % (k, v))
            shape_names.append(k)
            shape_data.extend(int(d) for d in v)
            shape_idx.append(len(shape_data))
        dtype_names = list(type_dict.keys())
        dtypes = [_DTYPE_NP_TO_MX[np.dtype(t).type] for t in type_dict.values()]
        stype_names, stypes = [], []
        if stype_dict:
            for k, v in stype_dict.items():
                stype_names.append(k)
                stypes.append(_STORAGE_TYPE_STR_TO_ID[v])
        if isinstance(grad_req, string_types):
            req_len, req_names, req_types = 0, None, c_str_array([grad_req])
        elif isinstance(grad_req, (list, tuple)):
            req_len, req_names, req_types = len(grad_req), None, c_str_array(list(grad_req))
        elif isinstance(grad_req, dict):
            req_len = len(grad_req)
            req_names = c_str_array(list(grad_req.keys()))
            req_types = c_str_array(list(grad_req.values()))
        else:
            raise TypeError("grad_req must be a str, list or dict")
        g2c = group2ctx or {}
        shared_arg_names = shared_arg_names or []
        if shared_buffer is not None:
            buf_len = ctypes.c_int(len(shared_buffer))
            buf_names = c_str_array(list(shared_buffer.keys()))
            buf_handles = c_array(ctypes.c_void_p, [v.handle for v in shared_buffer.values()])
        else:
            buf_len = ctypes.c_int(-1)
            buf_names = None
            buf_handles = None
        upd_names = ctypes.POINTER(ctypes.c_char_p)()
        upd_handles = ctypes.POINTER(NDArrayHandle)()
        num_in = mx_uint()
        in_h = ctypes.POINTER(NDArrayHandle)()
        grad_h = ctypes.POINTER(NDArrayHandle)()
        num_aux = mx_uint()
        aux_h = ctypes.POINTER(NDArrayHandle)()
        handle = ExecutorHandle()
        check_call(_LIB.MXExecutorSimpleBindEx(
            self.handle, ctypes.c_int(ctx.device_typeid), ctypes.c_int(ctx.device_id),
            mx_uint(len(g2c)), c_str_array(list(g2c.keys())),
            c_array(ctypes.c_int, [c.device_typeid for c in g2c.values()]),
            c_array(ctypes.c_int, [c.device_id for c in g2c.values()]),
            mx_uint(req_len), req_names, req_types,
            mx_uint(len(shape_names)), c_str_array(shape_names),
            c_array(ctypes.c_int, shape_data), c_array(mx_uint, shape_idx),
            mx_uint(len(dtype_names)), c_str_array(dtype_names), c_array(ctypes.c_int, dtypes),
            mx_uint(len(stype_names)), c_str_array(stype_names), c_array(ctypes.c_int, stypes),
            mx_uint(len(shared_arg_names)), c_str_array(shared_arg_names),
            ctypes.byref(buf_len), buf_names, buf_handles,
            ctypes.byref(upd_names), ctypes.byref(upd_handles),
            ctypes.byref(num_in), ctypes.byref(in_h), ctypes.byref(grad_h),
            ctypes.byref(num_aux), ctypes.byref(aux_h),
            shared_exec.handle if shared_exec is not None else None, ctypes.byref(handle)))
        if shared_buffer is not None:
            for i in range(buf_len.value):
                k = py_str(upd_names[i])
                shared_buffer[k] = _ndarray_cls(NDArrayHandle(upd_handles[i]))
        args = [_ndarray_cls(NDArrayHandle(in_h[i])) for i in range(num_in.value)]
        grads = [_ndarray_cls(NDArrayHandle(grad_h[i])) if grad_h[i] else None
                 for i in range(num_in.value)]
        aux = [_ndarray_cls(NDArrayHandle(aux_h[i])) for i in range(num_aux.value)]
        ex = Executor(handle, self, ctx, grad_req, group2ctx)
        ex.arg_arrays = args
        ex.grad_arrays = grads
        ex.aux_arrays = aux
        return ex

    def eval(self, ctx=None, **kwargs):
        """Bind to the named arrays and run forward; returns the outputs."""
        if ctx is None:
            ctx = current_context()
        return self.bind(ctx, kwargs).forward()

    def gradient(self, wrt):
        raise NotImplementedError("Symbol.gradient is not implemented (as in MXNet 1.x)")

    def as_nd_ndarray(self):
        return self

    def as_np_ndarray(self):
        """The Symbol for mx.sym.np functions: one Symbol class serves both here."""
        return self


def _from_json_state(js):
    return load_json(js)


def _make_fluent(op_name):
    def method(self, *args, **kwargs):
        return getattr(_op_module, op_name)(self, *args, **kwargs)
    method.__name__ = op_name
    method.__qualname__ = "Symbol." + op_name
    method.__doc__ = "Convenience fluent method for :py:func:`%s`." % op_name
    return method


def _install_fluent_methods():
    for name in _FLUENT_METHODS + ("reshape", "flatten", "expand_dims", "squeeze", "astype",
                                   "broadcast_to", "broadcast_like", "tostype", "zeros_like"):
        target = {"astype": "cast", "tostype": "cast_storage"}.get(name, name)
        if hasattr(_op_module, target) and not hasattr(Symbol, name):
            setattr(Symbol, name, _make_fluent(target))


def var(name, attr=None, shape=None, lr_mult=None, wd_mult=None, dtype=None, init=None,
        stype=None, **kwargs):
    """A variable (graph input) named `name`, with optional shape/dtype/init/lr_mult/... hints
    stored as hidden attributes."""
    if not isinstance(name, string_types):
        raise TypeError("Expect a string for variable `name`")
    handle = SymbolHandle()
    check_call(_LIB.MXSymbolCreateVariable(c_str(name), ctypes.byref(handle)))
    ret = Symbol(handle)
    attr = AttrScope.current.get(attr)
    attr = {} if attr is None else dict(attr)
    if shape is not None:
        attr["__shape__"] = str(tuple(shape) if not isinstance(shape, (int, np.integer))
                                else (shape,))
    if lr_mult is not None:
        attr["__lr_mult__"] = str(lr_mult)
    if wd_mult is not None:
        attr["__wd_mult__"] = str(wd_mult)
    if dtype is not None:
        attr["__dtype__"] = str(_DTYPE_NP_TO_MX[np.dtype(dtype).type])
    if init is not None:
        if not isinstance(init, string_types):
            init = init.dumps()
        attr["__init__"] = init
    if stype is not None:
        attr["__storage_type__"] = str(_STORAGE_TYPE_STR_TO_ID[stype])
    for k, v in kwargs.items():
        if k.startswith("__") and k.endswith("__"):
            attr[k] = str(v)
        else:
            raise ValueError("Attribute name=%s is not supported. Additional attributes must "
                             "start and end with double underscores, e.g, __yourattr__" % k)
    ret._set_attr(**attr)
    return ret


Variable = var


def Group(symbols):  # pylint: disable=invalid-name
    """One symbol whose outputs are the outputs of `symbols`, in order."""
    if not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise TypeError("Expected a list of symbols as input")
    handle = SymbolHandle()
    check_call(_LIB.MXSymbolCreateGroup(mx_uint(len(symbols)), c_handle_array(symbols),
                                        ctypes.byref(handle)))
    return Symbol(handle)


def load(fname):
    """Load a symbol saved with Symbol.save (MXNet JSON)."""
    if not isinstance(fname, string_types):
        raise TypeError("fname need to be string")
    handle = SymbolHandle()
    check_call(_LIB.MXSymbolCreateFromFile(c_str(fname), ctypes.byref(handle)))
    return Symbol(handle)


def load_json(json_str):
    """Load a symbol from its JSON text."""
    if not isinstance(json_str, string_types):
        raise TypeError("json_str need to be string")
    handle = SymbolHandle()
    check_call(_LIB.MXSymbolCreateFromJSON(c_str(json_str), ctypes.byref(handle)))
    return Symbol(handle)


def _ufunc(lhs, rhs, sym_op, lscalar_op, rscalar_op, np_fn):
    if isinstance(lhs, Symbol) and isinstance(rhs, Symbol):
        return getattr(_internal, sym_op)(lhs, rhs)
    if isinstance(lhs, Symbol) and isinstance(rhs, numeric_types):
        return getattr(_internal, lscalar_op)(lhs, scalar=float(rhs))
    if isinstance(rhs, Symbol) and isinstance(lhs, numeric_types):
        return getattr(_internal, rscalar_op)(rhs, scalar=float(lhs))
    if isinstance(lhs, numeric_types) and isinstance(rhs, numeric_types):
        return np_fn(lhs, rhs)
    raise TypeError("types (%s, %s) not supported" % (type(lhs), type(rhs)))


def pow(base, exp):  # pylint: disable=redefined-builtin
    return _ufunc(base, exp, "_Power", "_PowerScalar", "_RPowerScalar", lambda a, b: a ** b)


power = pow


def maximum(left, right):
    return _ufunc(left, right, "_Maximum", "_MaximumScalar", "_MaximumScalar", max)


def minimum(left, right):
    return _ufunc(left, right, "_Minimum", "_MinimumScalar", "_MinimumScalar", min)


def hypot(left, right):
    return _ufunc(left, right, "_Hypot", "_HypotScalar", "_HypotScalar", np.hypot)


def zeros(shape, dtype=None, **kwargs):
    return _internal._zeros(shape=shape, dtype=np.float32 if dtype is None else dtype, **kwargs)


def ones(shape, dtype=None, **kwargs):
    return _internal._ones(shape=shape, dtype=np.float32 if dtype is None else dtype, **kwargs)


def full(shape, val, dtype=None, **kwargs):
    return _internal._full(shape=shape, value=val, dtype=np.float32 if dtype is None else dtype,
                           **kwargs)


def arange(start, stop=None, step=1.0, repeat=1, infer_range=False, name=None, dtype=None):
    return _internal._arange(start=start, stop=stop, step=step, repeat=repeat,
                             infer_range=infer_range, name=name,
                             dtype=np.float32 if dtype is None else dtype)


def linspace(start, stop, num, endpoint=True, name=None, dtype=None):
    return _internal._linspace(start=start, stop=stop, num=num, endpoint=endpoint, name=name,
                               dtype=np.float32 if dtype is None else dtype)


def eye(N, M=0, k=0, dtype=None, **kwargs):  # pylint: disable=invalid-name
    return _internal._eye(N=N, M=M, k=k, dtype=np.float32 if dtype is None else dtype, **kwargs)


def histogram(a, bins=10, range=None, **kwargs):  # pylint: disable=redefined-builtin
    if isinstance(bins, Symbol):
        return _internal._histogram(data=a, bins=bins, **kwargs)
    if range is None:
        raise ValueError("null range is not supported in symbol mode")
    return _internal._histogram(data=a, bin_cnt=bins, range=range, **kwargs)


def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False):
    if isinstance(indices_or_sections, int):
        return _internal._split_v2(ary, sections=indices_or_sections, axis=axis,
                                   squeeze_axis=squeeze_axis)
    return _internal._split_v2(ary, indices=(0,) + tuple(indices_or_sections), axis=axis,
                               squeeze_axis=squeeze_axis)

