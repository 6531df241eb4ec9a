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


def _symbol_with_cast_inputs(func, args, kwargs, target):
    """The symbol func builds, with every input cast to `target` (auxiliary states aside),
    the inputs it creates itself (weight, bias) included, as MXNet 1.9.1 does it."""
    built = func(*args, **kwargs)
    children = built.get_children()
    if children is None or len(built.list_outputs()) != 1:
        args, kwargs = _map_inputs(args, kwargs, lambda v: _cast_sym(v, target))
        return func(*args, **kwargs)
    aux = set(built.list_auxiliary_states())
    inputs = []
    for i in range(len(children.list_outputs())):
        child = children[i]
        is_aux = child.get_children() is None and child.name in aux
        inputs.append(child if is_aux else _cast_sym(child, target))
    params = {k: v for k, v in kwargs.items() if not isinstance(v, (Symbol, list, tuple))
              or (isinstance(v, (list, tuple)) and not any(isinstance(e, Symbol) for e in v))}
    params['name'] = built.name
    return func(*inputs, **params)


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
            if arrays and isinstance(arrays[0], Symbol):
                return _symbol_with_cast_inputs(func, args, kwargs, target)
            args, kwargs = _map_inputs(args, kwargs, lambda v: _cast_nd(v, target))
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


# Operators whose outputs have registered names ("fc_output"); cast nodes take their names
# from the output they cast, "<node>_<output name>" for these and "<node>_<index>" for the
# others, as MXNet 1.9.1 names them.
_NAMED_OUTPUTS = frozenset([
    'Activation', 'BatchNorm', 'BatchNorm_v1', 'BilinearSampler', 'Concat', 'Convolution',
    'Correlation', 'Crop', 'Deconvolution', 'Dropout', 'FullyConnected', 'GroupNorm',
    'IdentityAttachKLSparseReg', 'InstanceNorm', 'L2Normalization', 'LayerNorm', 'LeakyReLU',
    'MakeLoss', 'Pooling', 'Pooling_v1', 'SVMOutput', 'SequenceLast', 'SequenceMask',
    'SequenceReverse', 'Softmax', 'SoftmaxActivation', 'SoftmaxOutput', 'SwapAxis', '_Plus',
    '_add', '_plus', '_rnn_param_concat', 'concat', 'elemwise_add', 'make_loss', 'softmax',
    'softmin', 'swapaxes', 'SliceChannel', 'split', 'RNN', 'LRN', '_contrib_BatchNormWithReLU'])

_DTYPE_CODE = {'float32': 0, 'float16': 2, 'bfloat16': 12}


def _output_names(node, num_outputs):
    """The registered names of all `num_outputs` outputs of an operator node (hidden ones
    included), read from a one-node graph having them all as heads."""
    count = len(node['inputs'])
    graph = {'nodes': [{'op': 'null', 'name': 'in%d' % k, 'inputs': []} for k in range(count)]
                      + [dict(node, inputs=[[k, 0, 0] for k in range(count)])],
             'arg_nodes': list(range(count)),
             'heads': [[count, k, 0] for k in range(num_outputs)],
             'attrs': {'mxnet_version': ['int', 10901]}}
    try:
        names = symbol.load_json(json.dumps(graph)).list_outputs()
    except Exception:  # pylint: disable=broad-except
        return []
    return [n[len(node['name']) + 1:] if n.startswith(node['name'] + '_') else n for n in names]


def _check_lists(target_dtype, target_dtype_ops, fp32_ops, conditional_fp32_ops):
    for name, value in (('target_dtype_ops', target_dtype_ops), ('fp32_ops', fp32_ops),
                        ('conditional_fp32_ops', conditional_fp32_ops)):
        if value is not None and not isinstance(value, list):
            raise TypeError('convert_symbol: %s should be a list, got %s' % (name, type(value)))
    lp16 = set(list_lp16_ops(target_dtype) if target_dtype_ops is None else target_dtype_ops)
    fp32 = set(list_fp32_ops(target_dtype) if fp32_ops is None else fp32_ops)
    conditional = list_conditional_fp32_ops(target_dtype) if conditional_fp32_ops is None \
        else conditional_fp32_ops
    cond_names = {c[0] for c in conditional}
    for a, b, what in ((lp16, fp32, 'target_dtype_ops and fp32_ops'),
                       (lp16, cond_names, 'target_dtype_ops and conditional_fp32_ops'),
                       (cond_names, fp32, 'fp32_ops and conditional_fp32_ops')):
        if a & b:
            raise ValueError('convert_symbol: ops cannot be in two lists; common ops in %s: %s'
                             % (what, sorted(a & b)))
    return lp16, fp32, conditional


def convert_symbol(sym, target_dtype='float16', target_dtype_ops=None, fp32_ops=None,
                   conditional_fp32_ops=None, excluded_sym_names=None, data_names=None,
                   cast_optional_params=False):
    """A copy of `sym` with amp_cast / amp_multicast nodes inserted, as MXNet 1.9.1's
    ReducePrecision pass does it. Walking the graph in order: inputs of float32 operators (and
    of the nodes named in `excluded_sym_names`) that come from operators not already float32
    are cast to float32; inputs of target-precision operators not already in `target_dtype`
    are cast to it (with `cast_optional_params`, parameters -- inputs not in `data_names` --
    are instead marked `target_dtype` for convert_model to cast); widest-type operators read
    their inputs as they are when all are in one precision and through amp_multicast
    otherwise; other operators keep the precision of their (non-parameter) inputs. Outputs not
    known to be float32 get a final cast to float32. Casts are shared and named after what
    they cast ("fc_output_amp_cast_float32"). `data_names` defaults to the inputs without a
    __dtype__ attribute; the other inputs get __dtype__ = their resulting type code."""
    assert isinstance(sym, Symbol), 'First argument to convert_symbol should be Symbol'
    _check_dtype(target_dtype)
    name = _dtype_name(target_dtype)
    lp16, fp32, conditional = _check_lists(target_dtype, target_dtype_ops, fp32_ops,
                                           conditional_fp32_ops)
    if excluded_sym_names is not None and not isinstance(excluded_sym_names, list):
        raise TypeError('convert_symbol: excluded_sym_names should be a list of strs')
    excluded = set(excluded_sym_names or [])
    widest = set(list_widest_type_cast(target_dtype))
    use_fp32_params = list_lp16_use_fp32_params(target_dtype) or {}
    if data_names is None:
        attrs = sym.attr_dict()
        data_names = [n for n in sym.list_inputs() if '__dtype__' not in attrs.get(n, {})]
    data_names = set(data_names)
    graph = json.loads(sym.tojson(remove_amp_cast=False))
    nodes = graph['nodes']
    counts = _node_outputs(graph)

    new_nodes, new_counts = [], []
    mirror = {}                    # old node id -> new node id
    fp32_map, lp_map = {}, {}      # (old id, index) -> new entry, known float32 / target
    param_dtype = {}               # new id of a parameter -> its dtype name
    names_cache = {}

    def add(node, outputs):
        new_nodes.append(node)
        new_counts.append(outputs)
        return len(new_nodes) - 1

    def suffix(e):
        node = nodes[e[0]]
        if node['op'] == 'null':
            return ''
        if node['op'] in _NAMED_OUTPUTS or counts[e[0]] > 1:
            if e[0] not in names_cache:
                names_cache[e[0]] = _output_names(node, counts[e[0]])
            names = names_cache[e[0]]
            if e[1] < len(names):
                return '_' + names[e[1]]
        return '_%d' % e[1]

    def raw(e):
        return [mirror[e[0]], e[1], e[2] if len(e) > 2 else 0]

    def cast(e, dtype, table):
        key = (e[0], e[1])
        if key not in table:
            node_id = add({'op': 'amp_cast', 'name': '%s%s_amp_cast_%s'
                           % (nodes[e[0]]['name'], suffix(e), dtype),
                           'attrs': {'dtype': dtype}, 'inputs': [raw(e)]}, 1)
            table[key] = [node_id, 0, 0]
        return table[key]

    def is_param(e):
        return nodes[e[0]]['op'] == 'null' and nodes[e[0]]['name'] not in data_names

    def kind(node):
        op = node['op']
        if op in fp32 or node['name'] in excluded:
            return 'fp32'
        if op in lp16:
            return 'lp16'
        if op in widest:
            return 'widest'
        attrs = node.get('attrs', {})
        for op_name, param, values in conditional:
            if op == op_name and attrs.get(param) in values:
                return 'fp32'
        return 'other'

    for i, node in enumerate(nodes):
        node = dict(node)
        old_inputs = node['inputs']
        if node['op'] == 'null':
            mirror[i] = add(node, 1)
            continue
        how = kind(node)
        outputs = [(i, k) for k in range(counts[i])]
        table, fp32_slots = None, []
        if how == 'fp32':
            inputs = []
            for e in old_inputs:
                key = (e[0], e[1])
                if key in fp32_map:
                    inputs.append(fp32_map[key])
                elif nodes[e[0]]['op'] == 'null' and \
                        param_dtype.get(mirror[e[0]], 'float32') == 'float32':
                    inputs.append(raw(e))
                else:
                    # (MXNet 1.9.1 passes a parameter marked low precision by
                    # cast_optional_params uncast to a float32 operator; we cast it back.)
                    inputs.append(cast(e, 'float32', fp32_map))
            table = fp32_map
        elif how == 'lp16':
            inputs = []
            for e in old_inputs:
                key = (e[0], e[1])
                if key in lp_map:
                    inputs.append(lp_map[key])
                elif cast_optional_params and is_param(e):
                    param_dtype[mirror[e[0]]] = name
                    inputs.append(raw(e))
                else:
                    inputs.append(cast(e, name, lp_map))
            table = lp_map
        elif how == 'widest':
            keys = [(e[0], e[1]) for e in old_inputs]
            if keys and all(k in lp_map for k in keys):
                inputs, table = [lp_map[k] for k in keys], lp_map
            elif keys and all(k in fp32_map for k in keys):
                inputs, table = [fp32_map[k] for k in keys], fp32_map
            elif len(keys) > 1:
                first = old_inputs[0]
                multi = add({'op': 'amp_multicast', 'name': '%s%s_amp_multicast'
                             % (nodes[first[0]]['name'], suffix(first)),
                             'attrs': {'num_outputs': str(len(keys))},
                             'inputs': [raw(e) for e in old_inputs]}, len(keys))
                inputs = [[multi, k, 0] for k in range(len(keys))]
            else:
                inputs = [raw(e) for e in old_inputs]
        else:
            # keeps the precision of its inputs: in the target type when one of them
            # (parameters that stay float32 aside) is, as 1.9.1 decides it
            fp32_slots = use_fp32_params.get(node['op'], [])
            data_inputs = [(e[0], e[1]) for k, e in enumerate(old_inputs)
                           if not (k < len(fp32_slots) and fp32_slots[k])]
            if any(k in lp_map for k in data_inputs):
                table = lp_map
                # (MXNet 1.9.1 reads the uncast input here while treating the output as low
                # precision, a graph that does not bind; we read the cast one.)
                inputs = [lp_map.get((e[0], e[1]), raw(e))
                          if not (k < len(fp32_slots) and fp32_slots[k]) else raw(e)
                          for k, e in enumerate(old_inputs)]
            else:
                inputs = [raw(e) for e in old_inputs]
        node['inputs'] = inputs
        mirror[i] = add(node, counts[i])
        if table is lp_map and how == 'other' and \
                node['op'] in ('BatchNorm', 'BatchNormWithReLU', '_contrib_BatchNormWithReLU'):
            outputs = outputs[:1]   # a normalisation's statistics outputs stay float32
        if table is not None:
            for k in outputs:
                table[k] = [mirror[i], k[1], 0]

    heads = []
    for h in graph['heads']:
        key = (h[0], h[1])
        if key in fp32_map:
            heads.append(fp32_map[key])
        else:
            heads.append(cast(h, 'float32', fp32_map))

    # inputs that are parameters record their type
    for i, node in enumerate(nodes):
        if node['op'] == 'null' and node['name'] not in data_names:
            new = new_nodes[mirror[i]]
            new['attrs'] = dict(new.get('attrs', {}), __dtype__=str(
                _DTYPE_CODE[param_dtype.get(mirror[i], 'float32')]))

    # emit in depth-first post-order from the heads, as 1.9.1's graph is ordered
    order, seen = [], set()

    def visit(n):
        stack = [(n, False)]
        while stack:
            cur, done = stack.pop()
            if done:
                order.append(cur)
                continue
            if cur in seen:
                continue
            seen.add(cur)
            stack.append((cur, True))
            for e in reversed(new_nodes[cur]['inputs']):
                if e[0] not in seen:
                    stack.append((e[0], False))
    for h in heads:
        visit(h[0])
    position = {old: k for k, old in enumerate(order)}
    out_nodes = []
    for old in order:
        node = dict(new_nodes[old])
        node['inputs'] = [[position[e[0]], e[1], e[2]] for e in node['inputs']]
        out_nodes.append(node)
    graph['nodes'] = out_nodes
    graph['arg_nodes'] = [k for k, n in enumerate(out_nodes) if n['op'] == 'null']
    ptr = [0]
    for old in order:
        ptr.append(ptr[-1] + new_counts[old])
    graph['node_row_ptr'] = ptr
    graph['heads'] = [[position[h[0]], h[1], h[2]] for h in heads]
    return symbol.load_json(json.dumps(graph))


def _cast_params_as_marked(converted, params):
    """`params` with each entry whose variable carries a __dtype__ cast to that type."""
    attrs = converted.attr_dict()
    codes = {v: k for k, v in _DTYPE_CODE.items()}
    result = {}
    for key, value in params.items():
        code = attrs.get(key, {}).get('__dtype__')
        if code is not None and int(code) in codes and \
                np.dtype(value.dtype).name != codes[int(code)] and \
                not (codes[int(code)] == 'bfloat16' and value.dtype == bfloat16):
            value = value.astype(codes[int(code)])
        result[key] = value
    return result


def convert_model(sym, arg_params, aux_params, target_dtype='float16', target_dtype_ops=None,
                  fp32_ops=None, conditional_fp32_ops=None, excluded_sym_names=None,
                  cast_optional_params=False):
    """convert_symbol for a trained model (its data names: the inputs that are not
    parameters): returns (symbol, arg_params, aux_params), each parameter cast to the type
    the converted graph marks it with."""
    if excluded_sym_names is not None and not isinstance(excluded_sym_names, list):
        raise ValueError('excluded_sym_names must be a list of strings representing the names '
                         'of the symbols that should not be casted, while received type %s'
                         % str(type(excluded_sym_names)))
    assert isinstance(arg_params, dict) and isinstance(aux_params, dict), \
        'convert_model: arg_params and aux_params should be dicts of name to NDArray'
    params = set(arg_params) | set(aux_params)
    data_names = [n for n in sym.list_inputs() if n not in params]
    converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops,
                               conditional_fp32_ops, excluded_sym_names, data_names,
                               cast_optional_params)
    return converted, _cast_params_as_marked(converted, arg_params), \
        _cast_params_as_marked(converted, aux_params)


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
    converted = convert_symbol(sym, target_dtype, target_dtype_ops, fp32_ops,
                               conditional_fp32_ops, excluded_sym_names, input_names,
                               cast_optional_params)
    arg_params = _cast_params_as_marked(converted, arg_params)
    aux_params = _cast_params_as_marked(converted, aux_params)
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
