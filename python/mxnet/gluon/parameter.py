"""Gluon parameters: `Parameter` (deferred initialisation, per-context copies, gradients),
`Constant` and `ParameterDict`."""
import re
import warnings
from collections import OrderedDict

import numpy as np

from ..util import is_np_array
from .. import autograd
from .. import context as _context
from .. import initializer
from .. import ndarray as nd
from .. import symbol
from ..ndarray import NDArray
# Names MXNet 1.9.1's module also exposes (it imports them).
from collections import defaultdict  # noqa: F401
from ..base import mx_real_t  # noqa: F401

__all__ = ["DeferredInitializationError", "Parameter", "Constant", "ParameterDict",
           "tensor_types"]

tensor_types = (symbol.Symbol, NDArray)


class DeferredInitializationError(RuntimeError):
    """A parameter's data was requested before its deferred initialisation could happen."""


def _shape_is_known(shape):
    """True when `shape` is given and has no unknown (0 or -1) dimension."""
    if shape is None:
        return False
    return all(d > 0 for d in shape) and len(shape) > 0 or shape == ()


def _dtype_name(dtype):
    return np.dtype(dtype).name if not isinstance(dtype, str) else dtype


class Parameter(object):
    """A weight or state of a Block, with one copy (and gradient) per context.

    The shape may contain unknown dimensions (0) when `allow_deferred_init` is set; the data is
    then created on the first forward pass once the shape is inferred.
    """

    def __init__(self, name, grad_req="write", shape=None, dtype=np.float32, lr_mult=1.0,
                 wd_mult=1.0, init=None, allow_deferred_init=False, differentiable=True,
                 stype="default", grad_stype="default"):
        self._var = None
        self._data = None
        self._grad = None
        self._ctx_list = None
        self._ctx_map = None
        self._trainer = None
        self._deferred_init = ()
        self._differentiable = differentiable
        self._allow_deferred_init = allow_deferred_init
        self._grad_req = None
        if isinstance(shape, int):
            shape = (shape,)
        self._shape = tuple(shape) if shape is not None else None
        self.name = name
        self.dtype = dtype
        self.lr_mult = lr_mult
        self.wd_mult = wd_mult
        self.grad_req = grad_req
        self.init = init
        for kind, value in (("stype", stype), ("grad_stype", grad_stype)):
            if value not in ("default", "row_sparse", "csr"):
                raise ValueError("Invalid %s '%s' for Parameter '%s'; expected 'default', "
                                 "'row_sparse' or 'csr'" % (kind, value, name))
        self._stype = stype
        self._grad_stype = grad_stype

    def __repr__(self):
        return "Parameter %s (shape=%s, dtype=%s)" % (self.name, self.shape, self.dtype)

    # ---- attributes
    @property
    def grad_req(self):
        return self._grad_req

    @grad_req.setter
    def grad_req(self, req):
        if req not in ("write", "add", "null"):
            raise ValueError("grad_req must be one of 'write', 'add', or 'null', but got '%s'"
                             % req)
        if not self._differentiable:
            req = "null"
        if self._grad_req == req:
            return
        self._grad_req = req
        if req == "null" and self._grad is not None:
            self._grad = None
            self._data = [i.detach() for i in self._data]
        elif self._data is not None:
            self._init_grad()

    @property
    def dtype(self):
        return self._dtype

    @dtype.setter
    def dtype(self, dtype):
        self._dtype = dtype

    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, new_shape):
        if self._shape is None:
            self._shape = tuple(new_shape)
            return
        new_shape = tuple(new_shape)
        compatible = len(self._shape) == len(new_shape) and all(
            i <= 0 or i == j for i, j in zip(self._shape, new_shape))
        if not compatible:
            raise ValueError("Expected shape %s is incompatible with given shape %s for "
                             "Parameter '%s'." % (str(new_shape), str(self._shape), self.name))
        self._shape = new_shape

    @property
    def stype(self):
        return self._stype

    @property
    def lr_mult(self):
        return self._lr_mult

    @lr_mult.setter
    def lr_mult(self, value):
        self._lr_mult = value

    @property
    def wd_mult(self):
        return self._wd_mult

    @wd_mult.setter
    def wd_mult(self, value):
        self._wd_mult = value

    # ---- access
    def _check_and_get(self, arr_list, ctx):
        if arr_list is not None:
            if ctx is list:
                return arr_list
            if ctx is None:
                if len(arr_list) == 1:
                    return arr_list[0]
                ctx = _context.current_context()
            idx = self._ctx_map.get((ctx.device_typeid, ctx.device_id))
            if idx is not None:
                return arr_list[idx]
            raise RuntimeError(
                "Parameter '%s' was not initialized on context %s. It was only initialized on "
                "%s." % (self.name, str(ctx), str(self._ctx_list)))
        if self._deferred_init:
            raise DeferredInitializationError(
                "Parameter '%s' has not been initialized yet because initialization was "
                "deferred. Actual initialization happens during the first forward pass. Please "
                "pass one batch of data through the network before accessing Parameters. You "
                "can also avoid deferred initialization by specifying in_units, num_features, "
                "etc., for network layers." % self.name)
        raise RuntimeError(
            "Parameter '%s' has not been initialized. Note that you should initialize "
            "parameters and create Trainer with Block.collect_params() instead of Block.params "
            "because the later does not include Parameters of nested child Blocks" % self.name)

    def data(self, ctx=None):
        """The parameter's value on `ctx` (the only context when there is one)."""
        if self._stype != "default":
            raise RuntimeError("Cannot return a copy of Parameter '%s' on ctx %s via data() "
                               "because its storage type is %s. Please use row_sparse_data() "
                               "instead." % (self.name, str(ctx), self._stype))
        return self._check_and_get(self._data, ctx)

    def list_data(self):
        """The values on all contexts, in `list_ctx()` order."""
        if self._stype != "default":
            raise RuntimeError("Cannot return copies of Parameter '%s' on all contexts via "
                               "list_data() because its storage type is %s. Please use "
                               "row_sparse_data() instead." % (self.name, self._stype))
        return self._check_and_get(self._data, list)

    def _set_trainer(self, trainer):
        """A row_sparse parameter's rows come from its one Trainer's kvstore."""
        if self._stype != "default" and self._trainer is not None and \
                trainer is not None and trainer is not self._trainer:
            raise RuntimeError("Failed to set the trainer for Parameter '%s' because it was "
                               "already set. More than one trainers for a %s Parameter is not "
                               "supported." % (self.name, self._stype))
        self._trainer = trainer

    def _get_row_sparse(self, arr_list, ctx, row_id):
        if not isinstance(row_id, NDArray):
            raise TypeError("row_id must have NDArray type, but %s is given" % type(row_id))
        if not self._trainer:
            raise RuntimeError("Cannot get row_sparse data for Parameter '%s' when no "
                               "Trainer is created with it." % self.name)
        results = self._check_and_get(arr_list, ctx)
        self._trainer._row_sparse_pull(self, results, row_id)
        return results

    def grad(self, ctx=None):
        """The gradient buffer on `ctx`."""
        if self._data is not None and self._grad is None:
            raise RuntimeError("Cannot get gradient array for Parameter '%s' because "
                               "grad_req='null'" % self.name)
        return self._check_and_get(self._grad, ctx)

    def list_grad(self):
        """The gradient buffers on all contexts."""
        if self._data is not None and self._grad is None:
            raise RuntimeError("Cannot get gradient array for Parameter '%s' because "
                               "grad_req='null'" % self.name)
        return self._check_and_get(self._grad, list)

    def list_ctx(self):
        """The contexts the parameter lives on."""
        if self._data is None:
            if self._deferred_init:
                return self._deferred_init[1]
            raise RuntimeError("Parameter '%s' has not been initialized" % self.name)
        return self._ctx_list

    # ---- initialisation
    def initialize(self, init=None, ctx=None, default_init=initializer.Uniform(),
                   force_reinit=False):
        """Creates the data on `ctx` (deferred when the shape is not yet known)."""
        if self._data is not None and not force_reinit:
            warnings.warn("Parameter '%s' is already initialized, ignoring. Set "
                          "force_reinit=True to re-initialize." % self.name, stacklevel=2)
            return
        self._data = self._grad = None
        if ctx is None:
            ctx = [_context.current_context()]
        if isinstance(ctx, _context.Context):
            ctx = [ctx]
        if init is None:
            init = default_init if self.init is None else self.init
        if not _shape_is_known(self.shape):
            if self._allow_deferred_init:
                self._deferred_init = (init, ctx, default_init, None)
                return
            raise ValueError("Cannot initialize Parameter '%s' because it has invalid shape: "
                             "%s." % (self.name, str(self.shape)))
        self._deferred_init = (init, ctx, default_init, None)
        self._finish_deferred_init()

    def _finish_deferred_init(self):
        if not self._deferred_init:
            return
        init, ctx, default_init, data = self._deferred_init
        self._deferred_init = ()
        if not _shape_is_known(self.shape):
            raise ValueError("Cannot initialize Parameter '%s' because it has invalid shape: "
                             "%s. Please specify in_units, in_channels, etc for `Block`s."
                             % (self.name, str(self.shape)))
        with autograd.pause():
            if data is None:
                data = nd.zeros(self.shape, dtype=self.dtype, ctx=_context.cpu())
                initializer.create(default_init)(
                    initializer.InitDesc(self.name, {"__init__": init}), data)
                if self._stype == "row_sparse":
                    # Every row stored (as MXNet 1.x initializes a row_sparse parameter).
                    data = nd.sparse.row_sparse_array(
                        (data.asnumpy(), np.arange(self.shape[0], dtype=np.int64)),
                        shape=self.shape, ctx=_context.cpu(), dtype=self.dtype)
            self._init_impl(data, ctx)

    def _init_impl(self, data, ctx_list):
        self._ctx_list = list(ctx_list)
        self._ctx_map = {}
        for i, ctx in enumerate(self._ctx_list):
            self._ctx_map.setdefault((ctx.device_typeid, ctx.device_id), i)
        self._data = [data.copyto(ctx) for ctx in self._ctx_list]
        if is_np_array():
            # NumPy array semantics (npx.set_np()): values and gradients are mx.np arrays.
            self._data = [d.as_np_ndarray() for d in self._data]
        self._init_grad()

    def _init_grad(self):
        if self.grad_req == "null":
            self._grad = None
            return
        self._grad = [nd.zeros(i.shape, dtype=i.dtype, ctx=i.context, stype=self._grad_stype)
                      for i in self._data]
        if is_np_array() and self._grad_stype == "default":
            self._grad = [g.as_np_ndarray() for g in self._grad]
        autograd.mark_variables(self._check_and_get(self._data, list), self._grad,
                                self.grad_req)

    def _reduce(self):
        """The value averaged over contexts, on the CPU (what save writes)."""
        if self._stype != "default":
            if self._trainer is not None:
                # Every row, as the trainer's kvstore holds them (the latest update).
                data = nd.zeros(self.shape, ctx=_context.cpu(), dtype=self.dtype,
                                stype=self._stype)
                self._trainer._row_sparse_pull(
                    self, data, nd.arange(0, self.shape[0], dtype="int64"))
                return data
            return self._check_and_get(self._data, list)[0].copyto(_context.cpu())
        block = self.list_data()
        if len(block) == 1:
            return block[0].copyto(_context.cpu())
        total = block[0].copyto(_context.cpu())
        for arr in block[1:]:
            total += arr.copyto(_context.cpu())
        return total / len(block)

    def _load_init(self, data, ctx, cast_dtype=False, dtype_source="current"):
        """Sets the value from a loaded array (initialising the parameter if needed)."""
        if self.shape:
            unknown = 0
            compatible = len(self.shape) == len(data.shape) and all(
                s == unknown or s == d for s, d in zip(self.shape, data.shape))
            if not compatible:
                raise ValueError("Failed loading Parameter '%s' from saved params: shape "
                                 "incompatible expected %s vs saved %s"
                                 % (self.name, str(self.shape), str(data.shape)))
            self.shape = tuple(data.shape)
        if self.dtype:
            if cast_dtype and np.dtype(self.dtype).type != data.dtype:
                if dtype_source == "current":
                    data = data.astype(self.dtype, copy=False)
                elif dtype_source == "saved":
                    self.dtype = data.dtype
            elif np.dtype(self.dtype).type != data.dtype:
                raise TypeError("Failed loading Parameter '%s' from saved params: dtype "
                                "incompatible expected %s vs saved %s. Set cast_dtype=True to "
                                "cast the dtype of saved params."
                                % (self.name, str(self.dtype), str(data.dtype)))
        if isinstance(ctx, _context.Context):
            ctx = [ctx]
        if self._data is None:
            if self._deferred_init:
                assert ctx is None or set(ctx) == set(self._deferred_init[1]), \
                    "Failed to load Parameter '%s' on %s because it was previous initialized " \
                    "on %s." % (self.name, str(ctx), str(self.list_ctx()))
                ctx = self._deferred_init[1]
            elif ctx is None:
                ctx = [_context.cpu()]
            self._init_impl(data, ctx)
        else:
            assert ctx is None or set(ctx) == set(self.list_ctx()), \
                "Failed to load Parameter '%s' on %s because it was previous initialized on " \
                "%s." % (self.name, str(ctx), str(self.list_ctx()))
            self.set_data(data)
        self._deferred_init = ()

    # ---- mutation
    def set_data(self, data):
        """Sets the value on every context (or the pending value of a deferred parameter)."""
        self.shape = data.shape
        if self._data is None:
            if not self._deferred_init:
                raise RuntimeError("Parameter '%s' has not been initialized" % self.name)
            self._deferred_init = self._deferred_init[:3] + (data,)
            return
        for arr in self._check_and_get(self._data, list):
            arr[:] = data

    def zero_grad(self):
        """Sets the gradient buffers to 0."""
        if self._grad is None:
            return
        for g in self._grad:
            g[:] = 0

    def reset_ctx(self, ctx):
        """Moves the parameter (its value) to other contexts."""
        if ctx is None:
            ctx = [_context.current_context()]
        if isinstance(ctx, _context.Context):
            ctx = [ctx]
        if self._data:
            data = self._reduce()
            with autograd.pause():
                self._init_impl(data, ctx)
        elif self._deferred_init:
            init, _, default_init, data = self._deferred_init
            self._deferred_init = (init, ctx, default_init, data)
        else:
            raise ValueError("Cannot reset context for Parameter '%s' because it has not been "
                             "initialized." % self.name)

    def cast(self, dtype):
        """Casts the value and gradient to `dtype`."""
        self.dtype = dtype
        if self._data is None:
            return
        with autograd.pause():
            self._data = [i.astype(dtype) for i in self._data]
            if self._grad is None:
                return
            self._grad = [i.astype(dtype) for i in self._grad]
            autograd.mark_variables(self._data, self._grad, self.grad_req)

    def var(self):
        """The symbol variable standing for this parameter in a hybridized graph."""
        if self._var is None:
            self._var = symbol.var(self.name, shape=self.shape, dtype=self.dtype,
                                   lr_mult=self.lr_mult, wd_mult=self.wd_mult, init=self.init,
                                   stype=self._stype)
        return self._var

    def row_sparse_data(self, row_id):
        """The rows `row_id` of a row_sparse parameter on row_id's context, as a
        RowSparseNDArray pulled from its Trainer's kvstore (the latest updated values)."""
        if self._stype != "row_sparse":
            raise RuntimeError("Cannot return a copy of Parameter %s via row_sparse_data() "
                               "because its storage type is %s. Please use data() instead."
                               % (self.name, self._stype))
        return self._get_row_sparse(self._data, row_id.context, row_id)

    def list_row_sparse_data(self, row_id):
        """row_sparse_data on every context."""
        if self._stype != "row_sparse":
            raise RuntimeError("Cannot return copies of Parameter '%s' on all contexts via "
                               "list_row_sparse_data() because its storage type is %s. Please "
                               "use data() instead." % (self.name, self._stype))
        return self._get_row_sparse(self._data, list, row_id)


class Constant(Parameter):
    """A parameter that is never updated (grad_req='null'), initialised to `value`."""

    def __init__(self, name, value):
        if not isinstance(value, NDArray):
            value = nd.array(value)
        self.value = value

        class _ConstInit(initializer.Initializer):
            def _init_weight(self, _, arr):
                value.copyto(arr)

            def dumps(self):  # pylint: disable=no-self-use
                return "[\"constant\", {}]"
        init_name = "Constant_{}_{}".format(name, id(self))
        super(Constant, self).__init__(name, grad_req="null", shape=value.shape,
                                       dtype=value.dtype, init=_ConstInit())
        self._init_name = init_name

    def __repr__(self):
        return "Constant %s (shape=%s, dtype=%s)" % (self.name, self.shape, self.dtype)

    @property
    def grad_req(self):
        return "null"

    @grad_req.setter
    def grad_req(self, req):
        if req != "null":
            warnings.warn("Constant parameter \"{}\" does not support grad_req other than "
                          "\"null\", and new value \"{}\" is ignored.".format(self.name, req))
        self._grad_req = "null"


class ParameterDict(object):
    """An ordered name -> Parameter mapping whose names all start with `prefix`; `shared`
    is searched first by `get` so blocks can share parameters."""

    def __init__(self, prefix="", shared=None):
        self._prefix = prefix
        self._params = OrderedDict()
        self._shared = shared

    def __repr__(self):
        body = "\n".join("  " + repr(v) for v in self.values())
        return "%s(\n%s\n)" % (self._prefix + " " if self._prefix else "", body)

    def __getitem__(self, key):
        return self._params[key]

    def __iter__(self):
        return iter(self._params)

    def __len__(self):
        return len(self._params)

    def __contains__(self, key):
        return key in self._params

    def items(self):
        return self._params.items()

    def keys(self):
        return self._params.keys()

    def values(self):
        return self._params.values()

    @property
    def prefix(self):
        return self._prefix

    def _get_impl(self, name):
        if name in self._params:
            return self._params[name]
        if self._shared is not None and name in self._shared._params:
            self._params[name] = self._shared._params[name]
            return self._shared._params[name]
        return None

    def get(self, name, **kwargs):
        """The parameter `prefix + name`, created with `kwargs` if absent; when it exists,
        unknown attributes are filled in and given ones must match."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            param = Parameter(name, **kwargs)
            self._params[name] = param
            return param
        for k, v in kwargs.items():
            if hasattr(param, k) and getattr(param, k) is not None:
                existing = getattr(param, k)
                if k == "shape" and v is not None and len(v) == len(existing):
                    inferred, matched = [], True
                    for dim1, dim2 in zip(v, existing):
                        if dim1 != dim2 and dim1 > 0 and dim2 > 0:
                            matched = False
                            break
                        inferred.append(max(dim1, dim2))
                    if matched:
                        param._shape = tuple(inferred)
                        continue
                elif k == "dtype" and np.dtype(v) == np.dtype(existing):
                    continue
                assert v is None or v == existing, \
                    "Cannot retrieve Parameter '%s' because desired attribute does not match " \
                    "with stored for attribute '%s': desired '%s' vs stored '%s'." % (
                        name, k, str(v), str(getattr(param, k)))
            else:
                setattr(param, k, v)
        return param

    def get_constant(self, name, value=None):
        """The Constant `prefix + name` (created from `value` if absent)."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            if value is None:
                raise KeyError("No constant named '{}'. Please specify value if you want to "
                               "create a new constant.".format(name))
            param = Constant(name, value)
            self._params[name] = param
        elif value is not None:
            assert isinstance(param, Constant), \
                "Parameter '{}' already exists but it is not a constant.".format(name)
            if isinstance(value, NDArray):
                value = value.asnumpy()
            assert param.shape == value.shape and \
                (param.value.asnumpy() == value).all(), \
                "Constant '{}' already exists but it's value doesn't match new value".format(name)
        return param

    def update(self, other):
        """Adds the parameters of `other` (a name clash with a different object is an error)."""
        for k, v in other.items():
            if k in self._params:
                if self._params[k] is not v:
                    raise ValueError("Cannot update self with other because they have "
                                     "different Parameters with the same name '%s'" % k)
            else:
                self._params[k] = v

    def initialize(self, init=initializer.Uniform(), ctx=None, verbose=False,
                   force_reinit=False):
        """Initialises every parameter (`init` is the default for those without their own)."""
        if verbose:
            init.set_verbosity(verbose=verbose)
        for v in self.values():
            v.initialize(None, ctx, init, force_reinit=force_reinit)

    def zero_grad(self):
        """Sets all gradient buffers to 0."""
        for v in self.values():
            v.zero_grad()

    def reset_ctx(self, ctx):
        """Moves every parameter to `ctx`."""
        for v in self.values():
            v.reset_ctx(ctx)

    def list_ctx(self):
        """The union of the parameters' contexts."""
        out = []
        for v in self.values():
            for c in v.list_ctx():
                if c not in out:
                    out.append(c)
        return out

    def setattr(self, name, value):
        """Sets attribute `name` (e.g. 'grad_req', 'lr_mult') on every parameter."""
        for v in self.values():
            setattr(v, name, value)

    def save(self, filename, strip_prefix=""):
        """Saves the values (names stripped of `strip_prefix`) in MXNet's .params format."""
        arg_dict = {}
        for param in self.values():
            weight = param._reduce()
            if not param.name.startswith(strip_prefix):
                raise ValueError("Prefix '%s' is to be striped before saving, but Parameter's "
                                 "name '%s' does not start with '%s'. this may be due to your "
                                 "Block shares parameters from other Blocks or you forgot to "
                                 "use 'with name_scope()' when creating child blocks. For more "
                                 "info on naming, please see https://mxnet.io/api/python/docs/"
                                 "tutorials/packages/gluon/blocks/naming.html"
                                 % (strip_prefix, param.name, strip_prefix))
            arg_dict[param.name[len(strip_prefix):]] = weight
        nd.save(filename, arg_dict)

    def load(self, filename, ctx=None, allow_missing=False, ignore_extra=False,
             restore_prefix="", cast_dtype=False, dtype_source="current"):
        """Loads values saved by `save` (or `export`: 'arg:'/'aux:' prefixes are dropped)."""
        if restore_prefix:
            for name in self.keys():
                assert name.startswith(restore_prefix), \
                    "restore_prefix is '%s' but Parameters name '%s' does not start with " \
                    "'%s'" % (restore_prefix, name, restore_prefix)
        ndarray_load = nd.load(filename)
        self.load_dict(ndarray_load, ctx, allow_missing, ignore_extra, restore_prefix,
                       filename, cast_dtype, dtype_source)

    def load_dict(self, param_dict, ctx=None, allow_missing=False, ignore_extra=False,
                  restore_prefix="", filename=None, cast_dtype=False, dtype_source="current"):
        """Loads values from a name -> NDArray dict."""
        lprefix = len(restore_prefix)
        loaded = [(k[4:] if k.startswith("arg:") or k.startswith("aux:") else k, v)
                  for k, v in param_dict.items()] if isinstance(param_dict, dict) else param_dict
        arg_dict = {restore_prefix + k: v for k, v in loaded}
        error_str = "file: %s" % filename if filename else "param_dict"
        if not allow_missing:
            for name in self.keys():
                if name not in arg_dict:
                    raise AssertionError(
                        "Parameter '%s' is missing in %s, which contains parameters: %s. Please "
                        "make sure source and target networks have the same prefix."
                        % (name[lprefix:], error_str, _brief_print_list(arg_dict.keys())))
        for name in arg_dict:
            if name not in self._params:
                if not ignore_extra:
                    raise AssertionError(
                        "Parameter '%s' loaded from %s is not present in ParameterDict, "
                        "choices are: %s. Set ignore_extra to True to ignore. Please make sure "
                        "source and target networks have the same prefix."
                        % (name[lprefix:], error_str, _brief_print_list(self._params.keys())))
                continue
            self[name]._load_init(arg_dict[name], ctx, cast_dtype=cast_dtype,
                                  dtype_source=dtype_source)


def _brief_print_list(lst, limit=7):
    """'a', 'b', ..., 'z' style listing of at most `limit` names."""
    lst = list(lst)
    if len(lst) > limit:
        return _brief_print_list(lst[:limit // 2], limit) + ", ..., " + \
            _brief_print_list(lst[-limit // 2:], limit)
    return ", ".join(["'%s'" % str(i) for i in lst])
