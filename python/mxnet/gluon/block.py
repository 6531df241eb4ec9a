"""Gluon blocks: `Block` (imperative), `HybridBlock` (imperative or compiled to a symbol graph)
and `SymbolBlock` (a block made from an existing symbol)."""
import copy
import json
import re
import threading
import warnings
from collections import OrderedDict

import numpy as np

from .. import autograd
from .. import context as _context
from .. import initializer
from .. import name as _name
from .. import ndarray
from .. import symbol
from ..base import MXNetError, op_handle
from ..ndarray import NDArray
from ..ndarray._invoke import imperative_invoke
from ..symbol import Symbol
from .._nested import flatten_nested, regroup_nested
from ..util import is_np_array
from .parameter import Parameter, ParameterDict, DeferredInitializationError
from .utils import _indent, _brief_print_list, HookHandle as _HookHandle
# Names MXNet 1.9.1's module also exposes (it imports them).
from collections import defaultdict  # noqa: F401
from ..base import mx_real_t  # noqa: F401

__all__ = ["Block", "HybridBlock", "SymbolBlock"]

# While a HybridBlock traces its graph: {"shapes": {input var name: NDArray shape},
# "shape_dependent": bool}. Children whose graph depends on input shapes (RNN layers, which
# unroll over time) read the shapes and set shape_dependent, so the cache is rebuilt when the
# input shapes change.
_trace_state = threading.local()


class _BlockScope(object):
    """The naming scope of a block: children created inside ``with block.name_scope()`` get
    prefixes '<hint><n>_' counted per parent, and their parameters live under the parent's
    prefix."""
    _current = threading.local()

    def __init__(self, block):
        self._block = block
        self._counter = {}
        self._old_scope = None
        self._name_scope = None

    @staticmethod
    def create(prefix, params, hint):
        current = getattr(_BlockScope._current, "value", None)
        if current is None:
            if prefix is None:
                prefix = _name.NameManager.current.get(None, hint) + "_"
            if params is None:
                params = ParameterDict(prefix)
            else:
                params = ParameterDict(params.prefix, params)
            return prefix, params
        if prefix is None:
            count = current._counter.get(hint, 0)
            prefix = "%s%d_" % (hint, count)
            current._counter[hint] = count + 1
        if params is None:
            parent = current._block.params
            params = ParameterDict(parent.prefix + prefix, parent._shared)
        else:
            params = ParameterDict(params.prefix, params)
        return current._block.prefix + prefix, params

    def __enter__(self):
        if self._block._empty_prefix:
            return self
        self._old_scope = getattr(_BlockScope._current, "value", None)
        _BlockScope._current.value = self
        self._name_scope = _name.Prefix(self._block.prefix)
        self._name_scope.__enter__()
        return self

    def __exit__(self, ptype, value, trace):
        if self._block._empty_prefix:
            return
        self._name_scope.__exit__(ptype, value, trace)
        self._name_scope = None
        _BlockScope._current.value = self._old_scope


def _leaf_format(x):
    if isinstance(x, NDArray):
        return 0
    if isinstance(x, Symbol):
        length = len(x.list_outputs())
        return length if length > 1 else 0
    if x is None:
        return -1
    return None


def _flatten(args, inout_str):
    """Flattens nested lists of NDArrays/Symbols; returns (flat list, format for _regroup)."""
    return flatten_nested(args, _leaf_format, lambda bad: ValueError(
        "When hybridized, the %s of HybridBlock must be (nested) list of Symbol or NDArray, "
        "but got %s of type %s" % (inout_str, str(bad), str(type(bad)))))


_regroup = regroup_nested


def _as_np_outputs(out):
    """Block outputs as mx.np.ndarray (NumPy array semantics are on: npx.set_np())."""
    if type(out) is NDArray:  # pylint: disable=unidiomatic-typecheck
        return out.as_np_ndarray()
    if isinstance(out, (list, tuple)):
        return type(out)(_as_np_outputs(o) for o in out)
    return out

class Block(object):
    """Base class of all layers and models.

    Children assigned as attributes are registered automatically; create them inside
    ``with self.name_scope():`` so their parameter names carry this block's prefix.
    """

    def __init__(self, prefix=None, params=None):
        self._empty_prefix = prefix == ""
        self._prefix, self._params = _BlockScope.create(prefix, params, self._alias())
        self._name = self._prefix[:-1] if self._prefix.endswith("_") else self._prefix
        self._scope = _BlockScope(self)
        self._children = OrderedDict()
        self._reg_params = {}
        self._forward_hooks = OrderedDict()
        self._forward_pre_hooks = OrderedDict()

    def __repr__(self):
        s = "{name}(\n{modstr}\n)"
        modstr = "\n".join(["  ({key}): {block}".format(key=key, block=_indent(repr(block), 2))
                            for key, block in self.__dict__.items() if isinstance(block, Block)])
        return s.format(name=self.__class__.__name__, modstr=modstr)

    def __setattr__(self, name, value):
        """Registers child blocks and parameters assigned as attributes."""
        if hasattr(self, name):
            existing = getattr(self, name)
            if isinstance(existing, (Parameter, Block)) and not isinstance(value, type(existing)):
                raise TypeError("Changing attribute type for {name} from {type1} to {type2} "
                                "is not allowed.".format(name=name, type1=type(existing),
                                                         type2=type(value)))
        if isinstance(value, Block):
            self.register_child(value, name)
        elif isinstance(value, Parameter):
            assert name not in self._reg_params, \
                "Overriding Parameter attribute %s is not allowed. If you want to share " \
                "parameters between blocks, please set 'params' at Block construction " \
                "instead." % name
            self._reg_params[name] = value
        super(Block, self).__setattr__(name, value)

    def _check_container_with_block(self):
        pass

    def _alias(self):
        return self.__class__.__name__.lower()

    @property
    def prefix(self):
        """The prefix of this block's parameter (and child) names, e.g. 'dense0_'."""
        return self._prefix

    @property
    def name(self):
        """The prefix without its trailing '_'."""
        return self._name

    def name_scope(self):
        """``with`` scope in which created child blocks get names under this block."""
        return self._scope

    @property
    def params(self):
        """This block's own ParameterDict (children's parameters not included)."""
        return self._params

    def collect_params(self, select=None):
        """A ParameterDict of this block's and all descendants' parameters; `select` is a
        regex ('weight|bias', '.*gamma') matched against full names."""
        self._check_container_with_block()
        ret = ParameterDict(self._params.prefix)
        if not select:
            ret.update(self.params)
        else:
            pattern = re.compile(select)
            ret.update({name: value for name, value in self.params.items()
                        if pattern.match(name)})
        for cld in self._children.values():
            ret.update(cld.collect_params(select=select))
        return ret

    def _collect_params_with_prefix(self, prefix=""):
        if prefix:
            prefix += "."
        ret = {prefix + key: val for key, val in self._reg_params.items()}
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    def save_parameters(self, filename, deduplicate=False):
        """Saves parameters keyed by their attribute path ('0.weight', 'conv.bias')."""
        params = self._collect_params_with_prefix()
        if deduplicate:
            reverse = {}
            for k, v in params.items():
                reverse.setdefault(v, []).append(k)
            params = {v[0]: k for k, v in reverse.items()}
        arg_dict = {key: val._reduce() for key, val in params.items()}
        ndarray.save(filename, arg_dict)

    def save_params(self, filename):
        """Deprecated: saves with full parameter names (use save_parameters)."""
        warnings.warn("save_params is deprecated. Please use save_parameters. Note that if you "
                      "want load from SymbolBlock later, please use export instead.")
        try:
            self.collect_params().save(filename, strip_prefix=self.prefix)
        except ValueError as e:
            raise ValueError("%s\nsave_params is deprecated. Using save_parameters may "
                             "resolve this error." % e)

    def load_parameters(self, filename, ctx=None, allow_missing=False, ignore_extra=False,
                        cast_dtype=False, dtype_source="current"):
        """Loads parameters saved by save_parameters (or by the legacy save_params)."""
        loaded = ndarray.load(filename)
        params = self._collect_params_with_prefix()
        if not loaded and not params:
            return
        if isinstance(loaded, list):
            raise ValueError("File '%s' holds an unnamed list of arrays, not parameters"
                             % filename)
        if not any("." in i for i in loaded.keys()):
            # Legacy files (save_params / ParameterDict.save) use full parameter names.
            del loaded
            self.collect_params().load(filename, ctx, allow_missing, ignore_extra,
                                       self.prefix, cast_dtype=cast_dtype,
                                       dtype_source=dtype_source)
            return
        if not allow_missing:
            params_inv = {}
            for k, v in params.items():
                params_inv.setdefault(v, []).append(k)
            for name, param in params.items():
                if not any(p in loaded for p in params_inv[param]):
                    raise AssertionError(
                        "Parameter '%s' is missing in file '%s', which contains parameters: "
                        "%s. Set allow_missing=True to ignore missing parameters."
                        % (name, filename, _brief_print_list(loaded.keys())))
        for name in loaded:
            if not ignore_extra and name not in params:
                raise ValueError(
                    "Parameter '%s' loaded from file '%s' is not present in ParameterDict, "
                    "which contains parameters %s. Set ignore_extra=True to ignore. "
                    % (name, filename, _brief_print_list(params.keys())))
            if name in params:
                params[name]._load_init(loaded[name], ctx, cast_dtype=cast_dtype,
                                        dtype_source=dtype_source)

    def load_params(self, filename, ctx=None, allow_missing=False, ignore_extra=False):
        """Deprecated alias of load_parameters."""
        warnings.warn("load_params is deprecated. Please use load_parameters.")
        self.load_parameters(filename, ctx, allow_missing, ignore_extra)

    def register_child(self, block, name=None):
        """Registers `block` as a child (named by its index when `name` is None)."""
        if name is None:
            name = str(len(self._children))
        self._children[name] = block

    def register_forward_pre_hook(self, hook):
        """`hook(block, inputs)` runs before forward; returns a handle with detach()."""
        handle = _HookHandle()
        handle.attach(self._forward_pre_hooks, hook)
        return handle

    def register_forward_hook(self, hook):
        """`hook(block, inputs, outputs)` runs after forward."""
        handle = _HookHandle()
        handle.attach(self._forward_hooks, hook)
        return handle

    def apply(self, fn):
        """Calls `fn(block)` on every descendant and then this block; returns self."""
        for cld in self._children.values():
            cld.apply(fn)
        fn(self)
        return self

    def initialize(self, init=initializer.Uniform(), ctx=None, verbose=False,
                   force_reinit=False):
        """Initialises all parameters (collect_params().initialize)."""
        self.collect_params().initialize(init, ctx, verbose, force_reinit)

    def hybridize(self, active=True, **kwargs):
        """Hybridizes all HybridBlock descendants (a plain Block itself stays imperative)."""
        for cld in self._children.values():
            cld.hybridize(active, **kwargs)

    def cast(self, dtype):
        """Casts all parameters to `dtype`."""
        for child in self._children.values():
            child.cast(dtype)
        for _, param in self.params.items():
            param.cast(dtype)

    def zero_grad(self):
        """Sets all parameter gradients to 0."""
        self.collect_params().zero_grad()

    def reset_ctx(self, ctx):
        self.collect_params().reset_ctx(ctx)

    def __call__(self, *args):
        for hook in self._forward_pre_hooks.values():
            hook(self, args)
        out = self.forward(*args)
        if is_np_array():
            out = _as_np_outputs(out)
        for hook in self._forward_hooks.values():
            hook(self, args, out)
        return out

    def forward(self, *args):
        """Override to define the computation."""
        raise NotImplementedError

    def summary(self, *inputs):
        """Prints each layer's output shape and parameter count for a forward of `inputs`."""
        summary = OrderedDict()
        seen = set()
        hooks = []

        def _get_shape_str(args):
            def flatten(args):
                if not isinstance(args, (list, tuple)):
                    return [args], int(0)
                flat, fmts = [], []
                for i in args:
                    arg, fmt = flatten(i)
                    flat.extend(arg)
                    fmts.append(fmt)
                return flat, fmts

            def regroup(args, fmt):
                if isinstance(fmt, int):
                    if fmt == 0:
                        return args[0], args[1:]
                    return args[:fmt], args[fmt:]
                ret = []
                for i in fmt:
                    res, args = regroup(args, i)
                    ret.append(res)
                return ret, args
            flat_args, fmts = flatten(args)
            flat_arg_shapes = [x.shape if isinstance(x, NDArray) else x for x in flat_args]
            shapes = regroup(flat_arg_shapes, fmts)[0]
            if isinstance(shapes, list):
                shape_str = str(shapes)[1:-1]
            else:
                shape_str = str(shapes)
            return shape_str.replace("L", "")

        def _register_summary_hook(block):
            assert not isinstance(block, HybridBlock) or not block._active, \
                "\"{}\" must not be hybridized to print summary.".format(block.name)

            def _summary_hook(block, _, outputs):
                class_name = block.__class__.__name__
                block_idx = len(summary) - 1
                m_key = "%s-%i" % (class_name, block_idx + 1)
                summary[m_key] = OrderedDict()
                summary[m_key]["output_shape"] = _get_shape_str(outputs)
                params = 0
                summary[m_key]["trainable"] = 0
                summary[m_key]["shared"] = 0
                for p in block.params.values():
                    params += p.data().size
                    summary[m_key]["trainable"] += 0 if p.grad_req == "null" else p.data().size
                    if p in seen:
                        summary[m_key]["shared"] += p.data().size
                    else:
                        seen.add(p)
                summary[m_key]["n_params"] = params

            from .nn.basic_layers import Sequential, HybridSequential
            if not isinstance(block, (Sequential, HybridSequential)):
                hooks.append(block.register_forward_hook(_summary_hook))

        summary["Input"] = OrderedDict()
        summary["Input"]["output_shape"] = _get_shape_str(inputs)
        summary["Input"]["n_params"] = 0
        summary["Input"]["trainable"] = 0
        summary["Input"]["shared"] = 0
        try:
            self.apply(_register_summary_hook)
            self(*inputs)
            line_format = "{:>20}  {:>42} {:>15}"
            print("-" * 80)
            print(line_format.format("Layer (type)", "Output Shape", "Param #"))
            print("=" * 80)
            total_params = trainable_params = shared_params = 0
            for layer in summary:
                print(line_format.format(layer, str(summary[layer]["output_shape"]),
                                         summary[layer]["n_params"]))
                total_params += summary[layer]["n_params"]
                trainable_params += summary[layer]["trainable"]
                shared_params += summary[layer]["shared"]
            print("=" * 80)
            print("Parameters in forward computation graph, duplicate included")
            print("   Total params: " + str(total_params))
            print("   Trainable params: " + str(trainable_params))
            print("   Non-trainable params: " + str(total_params - trainable_params))
            print("Shared params in forward computation graph: " + str(shared_params))
            print("Unique parameters in model: " + str(total_params - shared_params))
            print("-" * 80)
        finally:
            for h in hooks:
                h.detach()


def _run_graph(sym, values):
    """Evaluates `sym` imperatively node by node (differentiable under autograd.record);
    `values` maps input names to NDArrays. Used when no compiled CachedOp is available."""
    graph = json.loads(sym.tojson(remove_amp_cast=False))
    nodes = graph["nodes"]
    results = [None] * len(nodes)
    for i, node in enumerate(nodes):
        if node["op"] == "null":
            if node["name"] not in values:
                raise ValueError("Input '%s' of the graph was not given" % node["name"])
            results[i] = [values[node["name"]]]
            continue
        ins = [results[e[0]][e[1]] for e in node["inputs"]]
        attrs = node.get("attrs", {})
        keys = [k.encode() for k in attrs if not k.startswith("__")]
        vals = [attrs[k].encode() for k in attrs if not k.startswith("__")]
        out = imperative_invoke(op_handle(node["op"]), ins, keys, vals, None,
                                output_is_list=True)
        results[i] = out
    outs = [results[h[0]][h[1]] for h in graph["heads"]]
    return outs


class HybridBlock(Block):
    """A Block whose computation `hybrid_forward(F, x, *args, **params)` works with both
    F=mx.nd (imperative) and F=mx.sym (graph). After ``hybridize()`` the first call builds the
    symbol graph and later calls run it as one compiled CachedOp."""

    def __init__(self, prefix=None, params=None):
        super(HybridBlock, self).__init__(prefix=prefix, params=params)
        self._cached_graph = ()
        self._cached_op = None
        self._out_format = None
        self._in_format = None
        self._active = False
        self._flags = []
        self._callback = None
        self._monitor_all = False
        self._backend = None
        self._backend_opts = {}

    def __setattr__(self, name, value):
        super(HybridBlock, self).__setattr__(name, value)
        if isinstance(value, HybridBlock):
            self._clear_cached_op()

    def register_child(self, block, name=None):
        if not isinstance(block, HybridBlock):
            raise ValueError(
                "Children of HybridBlock must also be HybridBlock, but %s has type %s. If you "
                "are using Sequential, please try HybridSequential instead."
                % (str(block), str(type(block))))
        super(HybridBlock, self).register_child(block, name)
        self._clear_cached_op()

    def _clear_cached_op(self):
        self._cached_graph = ()
        self._cached_op = None

    def hybridize(self, active=True, backend=None, backend_opts=None, clear=True, **kwargs):
        """Activates (or deactivates) compiling this block and its children; kwargs are
        CachedOp flags such as static_alloc=True, static_shape=True."""
        self._backend = backend
        if backend_opts is not None:
            self._backend_opts = backend_opts
        self._active = active
        self._flags = list(kwargs.items())
        if clear:
            self._clear_cached_op()
        if active and self._forward_hooks or self._forward_pre_hooks:
            warnings.warn("\"{block}\" is being hybridized while still having forward hook/"
                          "pre-hook. If \"{block}\" is a child of HybridBlock, the hooks will "
                          "not take effect.".format(block=self))
        super(HybridBlock, self).hybridize(active, **kwargs)

    def cast(self, dtype):
        self._clear_cached_op()
        super(HybridBlock, self).cast(dtype)

    def _get_graph(self, *args):
        if not self._cached_graph:
            flat_args, self._in_format = _flatten(args, "input")
            if len(flat_args) > 1:
                inputs = [symbol.var("data%d" % i) if a is not None else None
                          for i, a in enumerate(flat_args)]
            else:
                inputs = [symbol.var("data")]
            grouped_inputs = _regroup(inputs, self._in_format)[0]
            params = {i: j.var() for i, j in self._reg_params.items()}
            previous = getattr(_trace_state, "value", None)
            shapes = {var.name: arg.shape for var, arg in zip(inputs, flat_args)
                      if isinstance(arg, NDArray)}
            _trace_state.value = {"shapes": shapes, "shape_dependent": False}
            try:
                with self.name_scope():
                    out = self.hybrid_forward(symbol, *grouped_inputs, **params)
                shape_dependent = _trace_state.value["shape_dependent"]
            finally:
                _trace_state.value = previous
            self._graph_input_shapes = (
                [getattr(a, "shape", None) for a in flat_args] if shape_dependent else None)
            out, self._out_format = _flatten(out, "output")
            self._cached_graph = inputs, (symbol.Group(out) if len(out) > 1 else out[0])
        return self._cached_graph

    def _build_cache(self, *args):
        data, out = self._get_graph(*args)
        data_names = {d.name: i for i, d in enumerate(data) if d is not None}
        params = self.collect_params()
        input_names = out.list_inputs()
        param_names = set(params.keys())
        expected = set(input_names) - set(data_names)
        missing = expected - param_names
        if missing:
            raise ValueError("Graph inputs %s are neither data nor parameters of %s"
                             % (sorted(missing), self.name))
        unused = [d for d in data_names if d not in input_names]
        if unused:
            warnings.warn("The %s input %s of %s is/are not used by the computation. Is this "
                          "intended?" % ("data", unused, self.name), stacklevel=4)
        self._cached_op_args = [(True, data_names[name]) if name in data_names
                                else (False, params[name]) for name in input_names]
        cached_op_cls = getattr(ndarray, "CachedOp", None)
        if cached_op_cls is None:
            self._cached_op = _GraphInterpreter(out, input_names)
        else:
            self._cached_op = cached_op_cls(out, self._flags)

    def _deferred_infer_shape(self, *args):
        try:
            self.infer_shape(*args)
        except Exception as e:
            raise ValueError("Deferred initialization failed because shape cannot be "
                             "inferred. {}".format(e))

    def _call_cached_op(self, *args):
        if self._cached_op is not None and getattr(self, "_graph_input_shapes", None):
            shapes = [getattr(a, "shape", None) for a in _flatten(args, "input")[0]]
            if shapes != self._graph_input_shapes:
                self._clear_cached_op()
        if self._cached_op is None:
            self._build_cache(*args)
        flat_args, fmt = _flatten(args, "input")
        if fmt != self._in_format:
            raise ValueError("The argument structure of HybridBlock does not match the cached "
                             "version. Stored format = {}, input format = {}"
                             .format(self._in_format, fmt))
        arrays = [a for a in flat_args if isinstance(a, NDArray)]
        ctx = arrays[0].context if arrays else _context.current_context()
        try:
            cargs = [flat_args[i] if is_arg else i.data(ctx)
                     for is_arg, i in self._cached_op_args]
        except DeferredInitializationError:
            self._deferred_infer_shape(*args)
            cargs = []
            for is_arg, i in self._cached_op_args:
                if is_arg:
                    cargs.append(flat_args[i])
                else:
                    i._finish_deferred_init()
                    cargs.append(i.data(ctx))
        out = self._cached_op(*cargs)
        if isinstance(out, NDArray):
            out = [out]
        return _regroup(out, self._out_format)[0]

    def _infer_attrs(self, infer_fn, attr, *args):
        inputs, out = self._get_graph(*args)
        args, _ = _flatten(args, "input")
        with warnings.catch_warnings(record=True) as w:
            arg_attrs, _, aux_attrs = getattr(out, infer_fn)(
                **{i.name: getattr(j, attr) for i, j in zip(inputs, args) if j is not None})
            if arg_attrs is None:
                raise ValueError(w[0].message if w else "%s failed" % infer_fn)
        sdict = {i: j for i, j in zip(out.list_arguments(), arg_attrs)}
        sdict.update({name: value for name, value in zip(out.list_auxiliary_states(),
                                                          aux_attrs)})
        for i in self.collect_params().values():
            if i.name in sdict:
                setattr(i, attr, sdict[i.name])

    def infer_shape(self, *args):
        """Infers the shapes of all parameters from the inputs."""
        self._infer_attrs("infer_shape", "shape", *args)

    def infer_type(self, *args):
        """Infers the dtypes of all parameters from the inputs."""
        self._infer_attrs("infer_type", "dtype", *args)

    def export(self, path, epoch=0, remove_amp_cast=True):
        """Writes `path-symbol.json` and `path-%04d.params` (arg:/aux: names) for loading
        with SymbolBlock.imports, Module or the C predict API."""
        if not self._cached_graph:
            raise RuntimeError("Please first call block.hybridize() and then run forward with "
                               "this block at least once before calling export.")
        sym = self._cached_graph[1]
        sym_filename = "%s-symbol.json" % (path if path is not None else "")
        if path is not None:
            sym.save(sym_filename, remove_amp_cast=remove_amp_cast)
        arg_names = set(sym.list_arguments())
        aux_names = set(sym.list_auxiliary_states())
        arg_dict = {}
        for name, param in self.collect_params().items():
            if name in arg_names:
                arg_dict["arg:%s" % name] = param._reduce()
            elif name in aux_names:
                arg_dict["aux:%s" % name] = param._reduce()
            else:
                warnings.warn("Parameter \"{name}\" is not found in the graph. ".format(name=name),
                              stacklevel=3)
        params_filename = "%s-%04d.params" % ((path if path is not None else ""), epoch)
        if path is not None:
            ndarray.save(params_filename, arg_dict)
            return sym_filename, params_filename
        return sym, arg_dict

    def forward(self, x, *args):
        """Runs hybrid_forward with NDArrays (or the CachedOp when hybridized) or Symbols."""
        has_symbol = isinstance(x, Symbol) or any(isinstance(a, Symbol) for a in args)
        if not has_symbol and (isinstance(x, NDArray) or
                               any(isinstance(a, NDArray) for a in _flatten(args, "input")[0])
                               or isinstance(x, (list, tuple))):
            first = _flatten([x] + list(args), "input")[0]
            first = [a for a in first if isinstance(a, NDArray)]
            ctx = first[0].context if first else _context.current_context()
            with ctx:
                if self._active:
                    return self._call_cached_op(x, *args)
                try:
                    params = {k: v.data(ctx) for k, v in self._reg_params.items()}
                except DeferredInitializationError:
                    self._deferred_infer_shape(x, *args)
                    for _, v in self.params.items():
                        v._finish_deferred_init()
                    params = {k: v.data(ctx) for k, v in self._reg_params.items()}
                try:
                    return self.hybrid_forward(ndarray, x, *args, **params)
                except MXNetError as e:
                    if "Error in block" in str(e):
                        raise
                    raise type(e)("Error in block %s (%s) with input shapes %s and parameter "
                                  "shapes %s: %s" % (
                                      self.name, self.__class__.__name__,
                                      [a.shape for a in first],
                                      {k: v.shape for k, v in params.items()}, e)) from None
        params = {i: j.var() for i, j in self._reg_params.items()}
        with self.name_scope():
            return self.hybrid_forward(symbol, x, *args, **params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        """Override to define the computation with F (mx.nd or mx.sym)."""
        raise NotImplementedError


class _GraphInterpreter(object):
    """Stand-in for mx.nd.CachedOp: runs the graph op by op (inputs in list_inputs order)."""

    def __init__(self, sym, input_names):
        self._sym = sym
        self._names = list(input_names)

    def __call__(self, *args):
        outs = _run_graph(self._sym, dict(zip(self._names, args)))
        return outs[0] if len(outs) == 1 else outs


class SymbolBlock(HybridBlock):
    """A HybridBlock built from a symbol: `outputs` (Symbol or list), `inputs` (the input
    variables); all other arguments and auxiliary states become parameters."""

    @staticmethod
    def imports(symbol_file, input_names, param_file=None, ctx=None, allow_missing=False,
                ignore_extra=False):
        """Loads a model written by HybridBlock.export (or save_checkpoint)."""
        sym = symbol.load(symbol_file)
        if isinstance(input_names, str):
            input_names = [input_names]
        if param_file is None:
            inputs = [symbol.var(i, dtype="float32") for i in input_names]
        else:
            inputs = [symbol.var(i) for i in input_names]
        ret = SymbolBlock(sym, inputs)
        if param_file is not None:
            ret.collect_params().load(param_file, ctx, allow_missing, ignore_extra,
                                      cast_dtype=True, dtype_source="saved")
        return ret

    def __repr__(self):
        s = "{name}(\n{modstr}\n)"
        modstr = "\n".join(["{block} : {numinputs} -> {numoutputs}".format(
            block=self._cached_graph[1], numinputs=len(self._cached_graph[0]),
            numoutputs=len(self._cached_graph[1].list_outputs()))])
        return s.format(name=self.__class__.__name__, modstr=modstr)

    def __init__(self, outputs, inputs, params=None):
        super(SymbolBlock, self).__init__(prefix=None, params=None)
        self._prefix = ""
        self._params = ParameterDict("", params)
        if isinstance(inputs, Symbol) and len(inputs.list_outputs()) == 1:
            inputs = [inputs]
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            outputs = outputs[0]
        syms, self._in_format = _flatten(inputs, "input")
        out, self._out_format = _flatten(outputs, "output")
        out = symbol.Group(out) if len(out) > 1 else out[0]
        input_names = set()
        for i in syms:
            assert len(i.get_internals().list_outputs()) == 1, \
                "Input symbols must be variable, but %s is an output of operators" % str(i)
            input_names.add(i.name)
        # Attributes of the graph's variables (shape, dtype, lr_mult...) seed the parameters.
        arg_attrs = out.attr_dict()
        for i in out.list_arguments():
            if i not in input_names:
                self.params.get(i, allow_deferred_init=True,
                                **_param_kwargs(arg_attrs.get(i, {})))
        for i in out.list_auxiliary_states():
            if i not in input_names:
                self.params.get(i, grad_req="null", allow_deferred_init=True,
                                **_param_kwargs(arg_attrs.get(i, {})))
        self._cached_graph = syms, out
        len_prefix = len(_common_prefix(list(self._params.keys())))
        self._reg_params = {key[len_prefix:]: val for key, val in self._params.items()}

    def forward(self, x, *args):
        if isinstance(x, NDArray) or (isinstance(x, (list, tuple)) and x and
                                      isinstance(_flatten(x, "input")[0][0], NDArray)):
            first = _flatten(x, "input")[0][0]
            with first.context:
                return self._call_cached_op(x, *args)
        assert isinstance(x, Symbol), \
            "HybridBlock requires the first argument to forward be either Symbol or NDArray, " \
            "but got %s" % type(x)
        args, in_fmt = _flatten([x] + list(args), "input")
        assert in_fmt == self._in_format, "Invalid input format"
        ret = copy.copy(self._cached_graph[1])
        ret._compose(**{k.name: v for k, v in zip(self._cached_graph[0], args)})
        return _regroup(list(ret), self._out_format)[0]

    def _clear_cached_op(self):
        tmp = self._cached_graph
        super(SymbolBlock, self)._clear_cached_op()
        self._cached_graph = tmp

    def cast(self, dtype):
        self._clear_cached_op()
        super(SymbolBlock, self).cast(dtype)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


def _param_kwargs(attrs):
    kwargs = {}
    if "__shape__" in attrs:
        shape = tuple(int(d) for d in attrs["__shape__"].strip("()[] ").split(",") if d.strip())
        kwargs["shape"] = shape
    if "__lr_mult__" in attrs:
        kwargs["lr_mult"] = float(attrs["__lr_mult__"])
    if "__wd_mult__" in attrs:
        kwargs["wd_mult"] = float(attrs["__wd_mult__"])
    return kwargs


def _common_prefix(names):
    if not names:
        return ""
    prefix = names[0]
    for name in names:
        i = 0
        while i < len(prefix) and i < len(name) and prefix[i] == name[i]:
            i += 1
        prefix = prefix[:i]
    return prefix
