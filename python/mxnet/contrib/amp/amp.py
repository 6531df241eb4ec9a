"""Automatic mixed precision (AMP).

``amp.init()`` makes the operator functions of mx.nd and mx.sym cast their inputs: the
operators of the target-precision list (matrix products, convolutions) run in float16 (or
bfloat16), numerically sensitive ones in float32, and multi-input ones on the widest type of
their inputs, so an unchanged float32 model trains in mixed precision. ``init_trainer``,
``scale_loss`` and ``unscale`` add dynamic loss scaling to a Gluon Trainer. ``convert_symbol``
/ ``convert_model`` / ``convert_hybrid_block`` / ``convert_bucketing_module`` rewrite a
trained float32 model for mixed-precision inference.
"""
import contextlib
import ctypes  # noqa: F401  (names MXNet 1.9.1's module exposes)
import functools
import json
import logging
import warnings
from array import array  # noqa: F401
from types import MethodType

import numpy as np

from ... import base  # noqa: F401
from ... import ndarray
from ... import optimizer as opt
from ... import symbol
from ...base import SymbolHandle, mx_uint, c_array_buf, c_str_array, check_call  # noqa: F401
from ...context import gpu
from ...gluon import trainer
from ...module import BucketingModule
from ...ndarray import NDArray
from ...symbol import Symbol
from ...symbol import contrib as symbol_contrib  # noqa: F401
from . import lists
from .loss_scaler import LossScaler

__all__ = ['init', 'init_trainer', 'scale_loss', 'unscale', 'convert_model',
           'convert_hybrid_block', 'convert_symbol', 'convert_bucketing_module',
           'list_lp16_ops', 'list_fp32_ops', 'list_lp16_fp32_ops', 'list_conditional_fp32_ops',
           'list_widest_type_cast', 'list_loss_output_functions', 'list_lp16_use_fp32_params']

bfloat16 = np.dtype([('bfloat16', np.uint16)])

_amp_initialized = False
_amp_loss_scale_initialized = False
_loss_scaler = None
_FLOATS = (np.float16, np.float32, np.float64)


# ---------------------------------------------------------------------------------------------
# The lists


def _is_bf16(target_dtype):
    return target_dtype in ('bfloat16', bfloat16)


def _check_dtype(target_dtype):
    if target_dtype not in ('float16', np.float16, 'bfloat16', bfloat16):
        raise ValueError('AMP: target_dtype must be float16 or bfloat16, got %r'
                         % (target_dtype,))


def _dtype_name(target_dtype):
    return 'bfloat16' if _is_bf16(target_dtype) else 'float16'


def list_lp16_ops(target_dtype):
    """The operators AMP runs in `target_dtype` (float16 or bfloat16)."""
    _check_dtype(target_dtype)
    return lists.symbol_bf16.BF16_FUNCS if _is_bf16(target_dtype) else \
        lists.symbol_fp16.FP16_FUNCS


def list_fp32_ops(target_dtype):
    """The operators AMP runs in float32."""
    _check_dtype(target_dtype)
    return lists.symbol_bf16.FP32_FUNCS if _is_bf16(target_dtype) else \
        lists.symbol_fp16.FP32_FUNCS


def list_lp16_fp32_ops(target_dtype):
    """The operators that run in the type of their inputs."""
    _check_dtype(target_dtype)
    return lists.symbol_bf16.BF16_FP32_FUNCS if _is_bf16(target_dtype) else \
        lists.symbol_fp16.FP16_FP32_FUNCS


def list_conditional_fp32_ops(target_dtype):
    """(operator, parameter, values) triples: the operator runs in float32 when the
    parameter has one of the values."""
    _check_dtype(target_dtype)
    return lists.symbol_bf16.CONDITIONAL_FP32_FUNCS if _is_bf16(target_dtype) else \
        lists.symbol_fp16.CONDITIONAL_FP32_FUNCS


def list_widest_type_cast(target_dtype):
    """The operators whose inputs are cast to the widest type among them."""
    _check_dtype(target_dtype)
    return lists.symbol_bf16.WIDEST_TYPE_CASTS if _is_bf16(target_dtype) else \
        lists.symbol_fp16.WIDEST_TYPE_CASTS


def list_loss_output_functions(target_dtype):
    """The loss-output operators (their outputs are float32)."""
    _check_dtype(target_dtype)
    return lists.symbol_bf16.LOSS_OUTPUT_FUNCTIONS if _is_bf16(target_dtype) else \
        lists.symbol_fp16.LOSS_OUTPUT_FUNCTIONS


def list_lp16_use_fp32_params(target_dtype):
    """For bfloat16: {operator: parameters that stay float32}; None for float16."""
    _check_dtype(target_dtype)
    return lists.symbol_bf16.BF16_USE_FP32_PARAMS if _is_bf16(target_dtype) else None


# ---------------------------------------------------------------------------------------------
# init: casting wrappers around the operator functions


def _cast_nd(x, dtype):
    if isinstance(x, NDArray) and x.dtype in _FLOATS and np.dtype(x.dtype).name != dtype:
        return ndarray.amp_cast(x, dtype=dtype)
    return x


def _cast_sym(x, dtype):
    return symbol.amp_cast(x, dtype=dtype) if isinstance(x, Symbol) else x


def _map_inputs(args, kwargs, fn):
    """args and kwargs with fn applied to each array (and to the arrays of list arguments)."""
    def one(v):
        if isinstance(v, (list, tuple)) and v and isinstance(v[0], (NDArray, Symbol)):
            return type(v)(fn(e) for e in v)
        return fn(v)
    return [one(a) for a in args], {k: (v if k in ('out', 'name') else one(v))
                                    for k, v in kwargs.items()}


def _arrays_of(args, kwargs):
    found = []
    for v in list(args) + [v for k, v in kwargs.items() if k not in ('out', 'name')]:
        if isinstance(v, (NDArray, Symbol)):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            found.extend(e for e in v if isinstance(e, (NDArray, Symbol)))
    return found


def _widest_cast(args, kwargs):
    arrays = _arrays_of(args, kwargs)
    if len(arrays) < 2:
        return args, kwargs
    if isinstance(arrays[0], Symbol):
        casted = symbol.amp_multicast(*arrays, num_outputs=len(arrays))
        casted = [casted[i] for i in range(len(arrays))]
    else:
        casted = ndarray.amp_multicast(*arrays, num_outputs=len(arrays))
        casted = list(casted) if isinstance(casted, (list, tuple)) else [casted]
    replacement = {id(a): c for a, c in zip(arrays, casted)}
    return _map_inputs(args, kwargs, lambda v: replacement.get(id(v), v))


def _wrap(func, target, condition=None):
    """func with its array inputs cast to `target` ('widest': to their widest type); with a
    condition (param, values) only when kwargs[param] is one of the values."""
    @functools.wraps(func)
    def amp_function(*args, **kwargs):
        if condition is not None and kwargs.get(condition[0]) not in condition[1]:
            return func(*args, **kwargs)
        if target == 'widest':
            args, kwargs = _widest_cast(args, kwargs)
        else:
            arrays = _arrays_of(args, kwargs)
            cast = _cast_sym if arrays and isinstance(arrays[0], Symbol) else _cast_nd
            args, kwargs = _map_inputs(args, kwargs, lambda v: cast(v, target))
        return func(*args, **kwargs)
    amp_function._amp_original = getattr(func, '_amp_original', func)
    return amp_function


def _op_modules():
    from ...ndarray import op as nd_op, _internal as nd_internal, contrib as nd_contrib
    from ...symbol import op as sym_op, _internal as sym_internal
    return [(ndarray, ''), (nd_op, ''), (nd_internal, ''), (nd_contrib, '_contrib_'),
            (symbol, ''), (sym_op, ''), (sym_internal, ''), (symbol_contrib, '_contrib_')]


def _patch(op_names, target, condition=None):
    for module, prefix in _op_modules():
        for op_name in op_names:
            name = op_name[len(prefix):] if prefix and op_name.startswith(prefix) else op_name
            if prefix and not op_name.startswith(prefix):
                continue
            func = getattr(module, name, None)
            if callable(func):
                setattr(module, name, _wrap(getattr(func, '_amp_original', func), target,
                                            condition))


def init(target_dtype='float16', target_precision_ops=None, conditional_fp32_ops=None,
         fp32_ops=None, layout_optimization=False):  # pylint: disable=unused-argument
    """Turn AMP on: from now on the operator functions of mx.nd and mx.sym cast their inputs
    as the lists say (optionally replaced by `target_precision_ops`, `conditional_fp32_ops`
    and `fp32_ops`). Call it before building the model."""
    global _amp_initialized, _loss_scaler  # pylint: disable=global-statement
    _check_dtype(target_dtype)
    if _amp_initialized:
        warnings.warn('AMP is already initialized, skipping')
        return
    _amp_initialized = True
    name = _dtype_name(target_dtype)
    logging.info('Using AMP')
    lp16 = list_lp16_ops(target_dtype) if target_precision_ops is None else target_precision_ops
    fp32 = list_fp32_ops(target_dtype) if fp32_ops is None else fp32_ops
    conditional = list_conditional_fp32_ops(target_dtype) if conditional_fp32_ops is None \
        else conditional_fp32_ops
    _patch(lp16, name)
    _patch(fp32, 'float32')
    for op_name, param, values in conditional:
        _patch([op_name], 'float32', (param, values))
    _patch(list_widest_type_cast(target_dtype), 'widest')
    _loss_scaler = LossScaler()


# ---------------------------------------------------------------------------------------------
# Loss scaling with a Gluon Trainer


def init_trainer(optimizer_or_trainer):
    """Give a Gluon Trainer dynamic loss scaling: each step checks the gradients for overflow
    and skips the update when they overflowed (use with scale_loss)."""
    global _amp_loss_scale_initialized  # pylint: disable=global-statement
    assert _amp_initialized, 'AMP not initialized, did you forget to call amp.init()?'
    if isinstance(optimizer_or_trainer, opt.Optimizer):
        raise TypeError('AMP is currently only compatible with Gluon Trainer')
    if not isinstance(optimizer_or_trainer, trainer.Trainer):
        raise TypeError('optimizer_or_trainer should be a Gluon Trainer or an optimizer, '
                        'instead is %s' % type(optimizer_or_trainer))
    if not _amp_loss_scale_initialized:
        _amp_loss_scale_initialized = True
        scaler = _loss_scaler
    else:
        scaler = LossScaler()
    tr = optimizer_or_trainer
    tr._amp_loss_scaler = scaler
    tr._amp_original_scale = tr._scale
    optimizer = tr._optimizer
    original_update = optimizer.update_multi_precision

    def update_unless_overflow(self, index, weight, grad, state):  # pylint: disable=unused-argument
        if not scaler.wait_and_update():
            original_update(index, weight, grad, state)
    optimizer.update_multi_precision = MethodType(update_unless_overflow, optimizer)
    original_trainer_update = tr._update

    def check_then_update(self, ignore_stale_grad=False):
        scaler.launch_check_overflow(self._params)
        original_trainer_update(ignore_stale_grad)
    tr._update = MethodType(check_then_update, tr)


@contextlib.contextmanager
def scale_loss(loss, optimizer_or_trainer):
    """``with amp.scale_loss(loss, trainer) as scaled: scaled.backward()``: the loss (or list
    of losses) multiplied by the current loss scale; the trainer divides the gradients by it
    again."""
    scaler = getattr(optimizer_or_trainer, '_amp_loss_scaler', None)
    assert scaler is not None, \
        'Loss scaler is not initialized, did you forget to call amp.init_trainer()?'
    optimizer_or_trainer._scale = optimizer_or_trainer._amp_original_scale / scaler.loss_scale
    if isinstance(loss, (list, tuple)):
        yield [l * scaler.loss_scale for l in loss]
    else:
        yield scaler.loss_scale * loss


def unscale(optimizer_or_trainer):
    """Divide the gradients of a Trainer by the loss scale now (e.g. before gradient
    clipping); the following step then uses them as they are."""
    if not isinstance(optimizer_or_trainer, trainer.Trainer):
        raise TypeError('optimizer_or_trainer should be a Gluon Trainer, instead is %s'
                        % type(optimizer_or_trainer))
    tr = optimizer_or_trainer
    for param in tr._params:
        if param._grad is not None:
            for g in param.list_grad():
                g[:] *= tr._scale
    tr._scale = 1.


# ---------------------------------------------------------------------------------------------
# Converting trained models


def _node_outputs(graph):
    ptr = graph['node_row_ptr']
    return [ptr[i + 1] - ptr[i] for i in range(len(graph['nodes']))]


def convert_symbol(sym, target_dtype='float16', target_dtype_ops=None, fp32_ops=None,
                   conditional_fp32_ops=None, excluded_sym_names=None, data_names=None,
                   cast_optional_params=False):
    """A copy of `sym` with amp_cast / amp_multicast nodes inserted: the inputs of the
    target-precision operators are cast to `target_dtype`, those of float32 operators (and of
    the nodes named in `excluded_sym_names`) to float32, and those of widest-type operators
    to their widest type. With `cast_optional_params`, parameters feeding only
    target-precision operators are marked `target_dtype` (cast them with convert_model)
    instead of being cast in the graph. `data_names` are the inputs that are data, not
    parameters."""
    _check_dtype(target_dtype)
    name = _dtype_name(target_dtype)
    lp16 = set(list_lp16_ops(target_dtype) if target_dtype_ops is None else target_dtype_ops)
    fp32 = set(list_fp32_ops(target_dtype) if fp32_ops is None else fp32_ops)
    conditional = list_conditional_fp32_ops(target_dtype) if conditional_fp32_ops is None \
        else conditional_fp32_ops
    widest = set(list_widest_type_cast(target_dtype))
    excluded = set(excluded_sym_names or [])
    data_names = set(data_names or [])
    graph = json.loads(sym.tojson(remove_amp_cast=False))
    nodes = graph['nodes']
    counts = _node_outputs(graph)
    consumers = {}
    for node in nodes:
        for entry in node['inputs']:
            consumers.setdefault(entry[0], set()).add(node['op'])

    def target_of(node):
        if node['op'] == 'null':
            return None
        if node['name'] in excluded:
            return 'float32'
        if node['op'] in lp16:
            return name
        if node['op'] in fp32:
            return 'float32'
        attrs = node.get('attrs', {})
        for op_name, param, values in conditional:
            if node['op'] == op_name and attrs.get(param) in values:
                return 'float32'
        if node['op'] in widest:
            return 'widest'
        return None

    offline = set()
    if cast_optional_params:
        offline = {i for i, node in enumerate(nodes)
                   if node['op'] == 'null' and node['name'] not in data_names
                   and consumers.get(i) and consumers[i] <= lp16}
    new_nodes, new_counts, remap, casts = [], [], {}, {}

    def add(node, outputs):
        new_nodes.append(node)
        new_counts.append(outputs)
        return len(new_nodes) - 1

    def entry(e):
        return [remap[e[0]], e[1], 0]

    for i, node in enumerate(nodes):
        node = dict(node)
        inputs = [entry(e) for e in node['inputs']]
        target = target_of(node)
        if target == 'widest' and len(inputs) > 1:
            key = ('multi', tuple(tuple(e) for e in inputs))
            if key not in casts:
                casts[key] = add({'op': 'amp_multicast', 'name': node['name'] + '_amp_multicast',
                                  'attrs': {'num_outputs': str(len(inputs))},
                                  'inputs': inputs}, len(inputs))
            inputs = [[casts[key], k, 0] for k in range(len(inputs))]
        elif target in (name, 'float32'):
            casted = []
            for e, original in zip(inputs, node['inputs']):
                if original[0] in offline and target == name:
                    casted.append(e)
                    continue
                key = (tuple(e), target)
                if key not in casts:
                    casts[key] = add({'op': 'amp_cast', 'name': '%s_amp_cast_%s_%d'
                                      % (node['name'], target, len(casts)),
                                      'attrs': {'dtype': target}, 'inputs': [e]}, 1)
                casted.append([casts[key], 0, 0])
            inputs = casted
        node['inputs'] = inputs
        if i in offline:
            node.setdefault('attrs', {})['__dtype__'] = str(
                {'float16': 2, 'bfloat16': 12}[name])
        remap[i] = add(node, counts[i])
    graph['nodes'] = new_nodes
    graph['arg_nodes'] = [i for i, n in enumerate(new_nodes) if n['op'] == 'null']
    ptr = [0]
    for c in new_counts:
        ptr.append(ptr[-1] + c)
    graph['node_row_ptr'] = ptr
    graph['heads'] = [entry(h) for h in graph['heads']]
    return symbol.load_json(json.dumps(graph))


def convert_model(sym, arg_params, aux_params, target_dtype='float16', target_dtype_ops=None,
                  fp32_ops=None, conditional_fp32_ops=None, excluded_sym_names=None,
                  cast_optional_params=False):
    """convert_symbol for a trained model: returns (symbol, arg_params, aux_params), the
    parameters cast to `target_dtype` where the graph now expects it."""
    data_names = [n for n in sym.list_arguments() if n not in arg_params]
    converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops,
                               conditional_fp32_ops, excluded_sym_names, data_names,
                               cast_optional_params)
    lp16_params = set()
    if cast_optional_params:
        for node in json.loads(converted.tojson(remove_amp_cast=False))['nodes']:
            if node['op'] == 'null' and '__dtype__' in node.get('attrs', {}):
                lp16_params.add(node['name'])
    dtype = _dtype_name(target_dtype)

    def cast_params(params):
        return {k: (v.astype(dtype) if k in lp16_params else v) for k, v in params.items()}
    return converted, cast_params(arg_params), cast_params(aux_params)


def convert_hybrid_block(block, target_dtype='float16', target_dtype_ops=None, fp32_ops=None,
                         conditional_fp32_ops=None, excluded_sym_names=None, ctx=gpu(0),
                         cast_optional_params=False):
    """A SymbolBlock running the graph of the hybridized (and already run once) `block`
    converted by convert_model, with its parameters on `ctx`."""
    from ...gluon import SymbolBlock
    if not getattr(block, '_cached_graph', None):
        raise RuntimeError('Please first call block.hybridize() and then run forward with '
                           'this block at least once before calling convert_hybrid_block.')
    inputs, sym = block._cached_graph
    if isinstance(inputs, Symbol):
        inputs = [inputs]
    input_names = [i.name for i in inputs]
    arg_params, aux_params = {}, {}
    aux_names = set(sym.list_auxiliary_states())
    for name, param in block.collect_params().items():
        (aux_params if name in aux_names else arg_params)[name] = param.data()
    converted, arg_params, aux_params = convert_model(
        sym, arg_params, aux_params, target_dtype, target_dtype_ops, fp32_ops,
        conditional_fp32_ops, excluded_sym_names, cast_optional_params)
    net = SymbolBlock(converted, [symbol.var(n) for n in input_names])
    params = net.collect_params()
    for name, value in list(arg_params.items()) + list(aux_params.items()):
        if name in params:
            param = params[name]
            param._dtype = value.dtype
            param.initialize(ctx=ctx)
            param.set_data(value)
    return net


def convert_bucketing_module(bucketing_mod, target_dtype='float16', target_dtype_ops=None,
                             fp32_ops=None, conditional_fp32_ops=None, excluded_sym_names=None,
                             cast_optional_params=False):
    """A BucketingModule whose symbol for every bucket is converted by convert_symbol, bound
    like `bucketing_mod` and holding its (converted) parameters."""
    if not bucketing_mod.binded or not bucketing_mod.params_initialized:
        raise RuntimeError('convert_bucketing_module: the module must be bound and have its '
                           'parameters initialized')
    arg_params, aux_params = bucketing_mod.get_params()
    original_gen = bucketing_mod._sym_gen

    def sym_gen(bucket_key):
        sym, data_names, label_names = original_gen(bucket_key)
        converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops,
                                   conditional_fp32_ops, excluded_sym_names,
                                   list(data_names) + list(label_names or []),
                                   cast_optional_params)
        return converted, data_names, label_names
    result = BucketingModule(sym_gen, default_bucket_key=bucketing_mod._default_bucket_key,
                             context=bucketing_mod._context,
                             work_load_list=bucketing_mod._work_load_list,
                             fixed_param_names=bucketing_mod._fixed_param_names,
                             state_names=bucketing_mod._state_names)
    result.bind(bucketing_mod.data_shapes, bucketing_mod.label_shapes,
                for_training=bucketing_mod.for_training,
                inputs_need_grad=bucketing_mod.inputs_need_grad)
    result.set_params(arg_params, aux_params)
    return result
