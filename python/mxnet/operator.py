"""Operators written in Python: subclass CustomOp (the computation) and CustomOpProp (its
description), register the property, then use it as ``mx.nd.Custom(..., op_type=name)`` or
``mx.sym.Custom(..., op_type=name)``::

    class Scale(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], out_grad[0] * 2)

    @mx.operator.register("scale2")
    class ScaleProp(mx.operator.CustomOpProp):
        def create_operator(self, ctx, in_shapes, in_dtypes):
            return Scale()

    y = mx.nd.Custom(x, op_type="scale2")

forward/backward run on dedicated worker threads of the library (never on the engine's own
workers), with autograd recording off, so they may call any mx.nd operator, wait on results or
copy to NumPy. An exception raised in them becomes an MXNetError (with the Python traceback)
at the next wait on the outputs.

The library calls back through the protocol of MXCustomOpRegister (API.md §4.2).
"""
import collections
import ctypes
import threading
import traceback
from array import array
from ctypes import CFUNCTYPE, POINTER, c_char, c_char_p, c_int, c_uint, c_void_p, cast

import numpy as np

from .base import _LIB, check_call, c_str, py_str, NDArrayHandle, MXCallbackList
from ._enums import _DTYPE_MX_TO_NP, _DTYPE_NP_TO_MX
from . import context as _context
# Names MXNet 1.9.1's module also exposes (it imports them).
from ctypes import Structure, c_bool, pointer  # noqa: F401
from threading import Lock  # noqa: F401
from .base import (OpHandle, mx_float, mx_int, mx_uint, c_array, c_array_buf,  # noqa: F401
                   ctypes2numpy_shared)
from .ndarray import NDArray  # noqa: F401
from .util import is_np_array  # noqa: F401
c_int_p = POINTER(c_int)

__all__ = ["CustomOp", "CustomOpProp", "register", "get_all_registered_operators",
           "get_operator_arguments", "OperatorArguments"]


class CustomOp(object):
    """Base class of the computation of a custom operator."""

    def __init__(self):
        pass

    def forward(self, is_train, req, in_data, out_data, aux):
        """Compute out_data from in_data.

        is_train: whether in training mode; req: one of 'null', 'write', 'inplace', 'add' per
        output; in_data, out_data, aux: lists of NDArrays (aux states are updated in place).
        """

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Compute in_grad. req has one entry per input gradient. Arrays the property did not
        declare as backward dependencies are empty."""

    def assign(self, dst, req, src):
        """Write src into dst according to req ('null', 'write', 'inplace' or 'add')."""
        if req == "null":
            return
        if req in ("write", "inplace"):
            dst[:] = src
        elif req == "add":
            dst[:] += src
        else:
            raise ValueError("CustomOp.assign: unknown req %r (expected 'null', 'write', "
                             "'inplace' or 'add')" % (req,))


class CustomOpProp(object):
    """Base class of the description of a custom operator.

    Subclass constructors receive the operator's keyword arguments as strings.
    need_top_grad: whether backward needs the gradient of the outputs (False for losses).
    """

    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape):
        """Return (input shapes, output shapes, aux shapes); default: every output has the
        shape of the first input."""
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type):
        """Return (input dtypes, output dtypes, aux dtypes) as NumPy types; default: the first
        input's dtype everywhere."""
        return (in_type, [in_type[0]] * len(self.list_outputs()),
                [in_type[0]] * len(self.list_auxiliary_states()))

    def infer_storage_type(self, in_stype):
        """Storage types (only 'default', dense, is supported)."""
        for i, stype in enumerate(in_stype):
            assert stype == "default", ("Default infer_storage_type implementation doesnt allow "
                                        "non default stypes: found non default stype '%s' for "
                                        "in_stype[%d]." % (stype, i))
        return (in_stype, ["default"] * len(self.list_outputs()),
                ["default"] * len(self.list_auxiliary_states()))

    def infer_storage_type_backward(self, ograd_stype, in_stype, out_stype, igrad_stype,
                                    aux_stype):
        """Backward storage types (only 'default')."""
        for stypes in (ograd_stype, in_stype, out_stype, aux_stype):
            for stype in stypes:
                assert stype == "default", "only 'default' storage is supported, got %s" % stype
        igrad_stype = ["default" if s in ("default", "undefined", None) else s
                       for s in igrad_stype]
        return (["default"] * len(ograd_stype), ["default"] * len(in_stype),
                ["default"] * len(out_stype), igrad_stype, ["default"] * len(aux_stype))

    def list_outputs(self):
        """Names of the outputs."""
        return ["output"]

    def list_arguments(self):
        """Names of the inputs (data first, then parameters)."""
        return ["data"]

    def list_auxiliary_states(self):
        """Names of the auxiliary states."""
        return []

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The ids (of the given lists) that backward reads; default: the output gradients
        (if need_top_grad), all inputs and all outputs."""
        deps = []
        if self.need_top_grad_:
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps

    def create_operator(self, ctx, in_shapes, in_dtypes):
        """A new CustomOp for the context, input shapes and dtypes."""
        return CustomOp()


# ---------------------------------------------------------------------------------- protocol


_REQ_NAMES = ("null", "write", "inplace", "add")
_STYPE_NAMES = {-1: "undefined", 0: "default", 1: "row_sparse", 2: "csr"}
_STYPE_CODES = {v: k for k, v in _STYPE_NAMES.items()}

_FB = CFUNCTYPE(c_int, c_int, POINTER(c_void_p), POINTER(c_int), POINTER(c_int), c_int, c_void_p)
_DEL = CFUNCTYPE(c_int, c_void_p)
_INFER_SHAPE = CFUNCTYPE(c_int, c_int, POINTER(c_int), POINTER(POINTER(c_int)), c_void_p)
_INFER_TYPE = CFUNCTYPE(c_int, c_int, POINTER(c_int), c_void_p)
_INFER_STYPE = CFUNCTYPE(c_int, c_int, POINTER(c_int), c_void_p)
_INFER_STYPE_BWD = CFUNCTYPE(c_int, c_int, POINTER(c_int), POINTER(c_int), c_void_p)
_LIST = CFUNCTYPE(c_int, POINTER(POINTER(POINTER(c_char))), c_void_p)
_DEPS = CFUNCTYPE(c_int, POINTER(c_int), POINTER(c_int), POINTER(c_int), POINTER(c_int),
                  POINTER(POINTER(c_int)), c_void_p)
_CREATE_OP = CFUNCTYPE(c_int, c_char_p, c_int, POINTER(POINTER(c_uint)), POINTER(c_int),
                       POINTER(c_int), POINTER(MXCallbackList), c_void_p)
_CREATOR = CFUNCTYPE(c_int, c_char_p, c_int, POINTER(c_char_p), POINTER(c_char_p),
                     POINTER(MXCallbackList))
_GENERIC = CFUNCTYPE(c_int)

_LIB.MXAPISetLastError.restype = None
_LIB.MXAPISetLastError.argtypes = [c_char_p]


class _Registry(object):
    """Keeps every ctypes object the library may call or read alive, and the registered
    property classes."""

    def __init__(self):
        self.ref_holder = {}
        self.prop_classes = {}
        self.lock = threading.Lock()
        self.counter = 0

    def hold(self, *objs):
        with self.lock:
            self.counter += 1
            key = self.counter
            self.ref_holder[key] = objs
        return key

    def release(self, key):
        with self.lock:
            self.ref_holder.pop(key, None)


_registry = _Registry()


def _report(where):
    """Hand the current exception's traceback to the library as the thread's last error."""
    msg = "Error in %s: %s" % (where, traceback.format_exc())
    try:
        _LIB.MXAPISetLastError(msg.encode("utf-8", "replace"))
    except Exception:  # pylint: disable=broad-except  (interpreter shutdown)
        pass


def _callback_list(ret, funcs, key_holder):
    """Fill *ret with funcs (NULL contexts); returns the ctypes objects to keep alive."""
    callbacks = (_GENERIC * len(funcs))(*[cast(f, _GENERIC) for f in funcs])
    contexts = (c_void_p * len(funcs))(*([None] * len(funcs)))
    ret[0] = MXCallbackList(c_int(len(funcs)), cast(callbacks, POINTER(_GENERIC)),
                            cast(contexts, POINTER(c_void_p)))
    return callbacks, contexts


def _parse_ctx(ctx_str):
    ctx_str = py_str(ctx_str)
    sep = ctx_str.find("(")
    return _context.Context(ctx_str[:sep], int(ctx_str[sep + 1:-1]))


def _make_operator_callbacks(reg_name, op, ctx, ret):
    from .ndarray import NDArray  # pylint: disable=import-outside-toplevel

    def _wrap(num, ptrs, tags):
        tensors = [[] for _ in range(5)]
        for i in range(num):
            tag = tags[i]
            # Outputs, input gradients and aux states are written; inputs are read-only.
            writable = tag in (1, 2, 4)
            tensors[tag].append(NDArray(cast(ptrs[i], NDArrayHandle), writable=writable))
        return tensors

    def forward_entry(num, ptrs, tags, reqs, is_train, _):
        try:
            tensors = _wrap(num, ptrs, tags)
            req = [_REQ_NAMES[reqs[i]] for i in range(len(tensors[1]))]
            with ctx:
                op.forward(is_train=bool(is_train), req=req, in_data=tensors[0],
                           out_data=tensors[1], aux=tensors[4])
        except Exception:  # pylint: disable=broad-except
            _report("%s.forward" % reg_name)
            return False
        return True

    def backward_entry(num, ptrs, tags, reqs, is_train, _):
        try:
            tensors = _wrap(num, ptrs, tags)
            req = [_REQ_NAMES[reqs[i]] for i in range(len(tensors[2]))]
            with ctx:
                op.backward(req=req, in_data=tensors[0], out_data=tensors[1],
                            in_grad=tensors[2], out_grad=tensors[3], aux=tensors[4])
        except Exception:  # pylint: disable=broad-except
            _report("%s.backward" % reg_name)
            return False
        return True

    holder = {}

    def delete_entry(_):
        _registry.release(holder.get("key"))
        return True

    funcs = [_DEL(delete_entry), _FB(forward_entry), _FB(backward_entry)]
    arrays = _callback_list(ret, funcs, holder)
    holder["key"] = _registry.hold(op, funcs, arrays)


def _make_prop_callbacks(reg_name, prop, ret):
    """Fill ret with the 10 property callbacks of prop."""
    keep = {}   # buffers returned to the library, alive until the next call of that callback

    def counts():
        return (len(prop.list_arguments()), len(prop.list_outputs()),
                len(prop.list_auxiliary_states()))

    def list_entry(method, what):
        def entry(out, _):
            try:
                names = [str(x) for x in method()]
                arr = (c_char_p * (len(names) + 1))(*[c_str(x) for x in names], None)
                keep[what] = arr
                out[0] = cast(arr, POINTER(POINTER(c_char)))
            except Exception:  # pylint: disable=broad-except
                _report("%s.%s" % (reg_name, what))
                return False
            return True
        return entry

    def infer_shape_entry(num_tensor, ndims, shapes, _):
        try:
            n_in, n_out, n_aux = counts()
            assert num_tensor == n_in + n_out + n_aux, "tensor count mismatch"
            in_shape = [[shapes[i][j] for j in range(ndims[i])] for i in range(n_in)]
            res = prop.infer_shape(in_shape)
            if len(res) == 2:
                ishape, oshape = res
                ashape = []
            elif len(res) == 3:
                ishape, oshape, ashape = res
            else:
                raise AssertionError("infer_shape must return 2 or 3 lists")
            assert len(ishape) == n_in, \
                "InferShape Error: expecting %d entries in returned input shapes, got %d." % (
                    n_in, len(ishape))
            assert len(oshape) == n_out, \
                "InferShape Error: expecting %d entries in returned output shapes, got %d." % (
                    n_out, len(oshape))
            assert len(ashape) == n_aux, \
                "InferShape Error: expecting %d entries in returned aux state shapes, got %d." % (
                    n_aux, len(ashape))
            bufs = []
            for i, shape in enumerate(list(ishape) + list(oshape) + list(ashape)):
                buf = array("i", [int(d) for d in shape])
                bufs.append(buf)
                shapes[i] = cast((c_int * len(buf)).from_buffer(buf) if len(buf) else
                                 (c_int * 1)(), POINTER(c_int))
                ndims[i] = len(buf)
            keep["shapes"] = bufs
        except Exception:  # pylint: disable=broad-except
            _report("%s.infer_shape" % reg_name)
            return False
        return True

    def infer_type_entry(num_tensor, types, _):
        try:
            n_in, n_out, n_aux = counts()
            assert num_tensor == n_in + n_out + n_aux, "tensor count mismatch"
            in_type = [_DTYPE_MX_TO_NP[types[i]] if types[i] != -1 else None for i in range(n_in)]
            res = prop.infer_type(in_type)
            if len(res) == 2:
                itype, otype = res
                atype = []
            elif len(res) == 3:
                itype, otype, atype = res
            else:
                raise AssertionError("infer_type must return 2 or 3 lists")
            assert len(itype) == n_in and len(otype) == n_out and len(atype) == n_aux, \
                "infer_type returned %d/%d/%d types, expected %d/%d/%d" % (
                    len(itype), len(otype), len(atype), n_in, n_out, n_aux)
            for i, dtype in enumerate(list(itype) + list(otype) + list(atype)):
                types[i] = -1 if dtype is None else _DTYPE_NP_TO_MX[np.dtype(dtype).type]
        except Exception:  # pylint: disable=broad-except
            _report("%s.infer_type" % reg_name)
            return False
        return True

    def infer_storage_type_entry(num_tensor, stypes, _):
        try:
            n_in, n_out, n_aux = counts()
            res = prop.infer_storage_type([_STYPE_NAMES[stypes[i]] for i in range(n_in)])
            istype, ostype, astype = (list(res) + [[]])[:3]
            for i, stype in enumerate(list(istype) + list(ostype) + list(astype)):
                stypes[i] = _STYPE_CODES[stype]
        except Exception:  # pylint: disable=broad-except
            _report("%s.infer_storage_type" % reg_name)
            return False
        return True

    def infer_storage_type_backward_entry(num_tensor, stypes, tags, _):
        try:
            groups = [[] for _ in range(5)]
            for i in range(num_tensor):
                groups[tags[i]].append(_STYPE_NAMES[stypes[i]])
            res = prop.infer_storage_type_backward(groups[3], groups[0], groups[1], groups[2],
                                                   groups[4])
            # Results come back in the order (ograd, in, out, igrad, aux) = tags 3, 0, 1, 2, 4.
            by_tag = {3: list(res[0]), 0: list(res[1]), 1: list(res[2]), 2: list(res[3]),
                      4: list(res[4])}
            for i in range(num_tensor):
                stypes[i] = _STYPE_CODES[by_tag[tags[i]].pop(0)]
        except Exception:  # pylint: disable=broad-except
            _report("%s.infer_storage_type_backward" % reg_name)
            return False
        return True

    def declare_backward_dependency_entry(out_grad, in_data, out_data, num_dep, deps, _):
        try:
            n_in, n_out, _n_aux = counts()
            og = [out_grad[i] for i in range(n_out)]
            ind = [in_data[i] for i in range(n_in)]
            od = [out_data[i] for i in range(n_out)]
            rdeps = [int(x) for x in prop.declare_backward_dependency(og, ind, od)]
            buf = (c_int * max(len(rdeps), 1))(*rdeps)
            keep["deps"] = buf
            deps[0] = cast(buf, POINTER(c_int))
            num_dep[0] = len(rdeps)
        except Exception:  # pylint: disable=broad-except
            _report("%s.declare_backward_dependency" % reg_name)
            return False
        return True

    def create_operator_entry(ctx, num_inputs, shapes, ndims, dtypes, ret_op, _):
        try:
            pctx = _parse_ctx(ctx)
            in_shapes = [[shapes[i][j] for j in range(ndims[i])] for i in range(num_inputs)]
            in_dtypes = [_DTYPE_MX_TO_NP[dtypes[i]] if dtypes[i] != -1 else None
                         for i in range(num_inputs)]
            op = prop.create_operator(pctx, in_shapes, in_dtypes)
            _make_operator_callbacks(reg_name, op, pctx, ret_op)
        except Exception:  # pylint: disable=broad-except
            _report("%s.create_operator" % reg_name)
            return False
        return True

    holder = {}

    def delete_entry(_):
        _registry.release(holder.get("key"))
        return True

    funcs = [_DEL(delete_entry),
             _LIST(list_entry(prop.list_arguments, "list_arguments")),
             _LIST(list_entry(prop.list_outputs, "list_outputs")),
             _LIST(list_entry(prop.list_auxiliary_states, "list_auxiliary_states")),
             _INFER_SHAPE(infer_shape_entry),
             _DEPS(declare_backward_dependency_entry),
             _CREATE_OP(create_operator_entry),
             _INFER_TYPE(infer_type_entry),
             _INFER_STYPE(infer_storage_type_entry),
             _INFER_STYPE_BWD(infer_storage_type_backward_entry)]
    arrays = _callback_list(ret, funcs, holder)
    holder["key"] = _registry.hold(prop, funcs, arrays, keep)


def register(reg_name):
    """Class decorator: register a CustomOpProp subclass as custom operator reg_name."""

    def do_register(prop_cls):
        def creator(op_type, argc, keys, values, ret):
            try:
                kwargs = {py_str(keys[i]): py_str(values[i]) for i in range(argc)}
                prop = prop_cls(**kwargs)
                _make_prop_callbacks(reg_name, prop, ret)
            except Exception:  # pylint: disable=broad-except
                _report("%s (creating the CustomOpProp)" % reg_name)
                return False
            return True

        creator_fn = _CREATOR(creator)
        _registry.hold(creator_fn)          # the library keeps the pointer forever
        _registry.prop_classes[reg_name] = prop_cls
        check_call(_LIB.MXCustomOpRegister(c_str(reg_name), creator_fn))
        return prop_cls

    return do_register


def get_all_registered_operators():
    """Names of every operator registered in the library (MXListAllOpNames), followed by the
    custom operators registered from Python (used through Custom(op_type=...))."""
    from .base import list_op_names, _refresh_op_names
    _refresh_op_names()   # a library loaded since the last call may have added operators
    names = list(list_op_names())
    known = set(names)
    return names + sorted(n for n in _registry.prop_classes if n not in known)


OperatorArguments = collections.namedtuple('OperatorArguments', ['narg', 'names', 'types'])


def get_operator_arguments(op_name):
    """OperatorArguments(narg, names, types) of registered operator `op_name`: its inputs and
    parameters as the registry documents them (types like 'NDArray-or-Symbol',
    'int, required'). For a Python custom operator, the keyword arguments of its property's
    constructor (types 'string')."""
    from .base import op_handle, op_info, list_op_names
    if op_name in _registry.prop_classes and op_name not in list_op_names():
        import inspect  # pylint: disable=import-outside-toplevel
        prop_cls = _registry.prop_classes[op_name]
        params = [p for p in inspect.signature(prop_cls.__init__).parameters if p != "self"]
        return OperatorArguments(len(params), params, ['string'] * len(params))
    info = op_info(op_handle(op_name))
    return OperatorArguments(len(info.arg_names), list(info.arg_names), list(info.arg_types))


register("custom_op")(CustomOpProp)


# MXNet's first Python operator interface, run through CustomOp (see operator_legacy).
from .operator_legacy import PythonOp, NumpyOp, NDArrayOp  # noqa: E402,F401
__all__ += ['PythonOp', 'NumpyOp', 'NDArrayOp']
