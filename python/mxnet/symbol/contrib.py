"""Operator functions of `mx.sym` generated from the library registry at import (contrib)."""
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..base import SymbolHandle  # noqa: F401

__all__ = []

# ---- control flow: the _foreach / _while_loop / _cond subgraph operators -------------------
__all__ += ["foreach", "while_loop", "cond"]

import copy as _copy  # noqa: E402
import ctypes as _ctypes  # noqa: E402
from collections import defaultdict as _defaultdict  # noqa: E402

from ..base import _LIB, check_call  # noqa: E402
from ..attribute import AttrScope  # noqa: E402
from .._nested import flatten_nested, regroup_nested  # noqa: E402

# Per base name, how many control-flow subgraphs were made ("foreach0", "foreach1", ...).
_SUBGRAPH_COUNTS = _defaultdict(int)


def _symbol_cls():
    from .symbol import Symbol  # pylint: disable=import-outside-toplevel
    return Symbol


def _symbol_format(x):
    """A Symbol counts as its number of outputs when it has several (flatten_nested's format)."""
    if not isinstance(x, _symbol_cls()):
        return None
    n = len(x.list_outputs())
    return int(n if n > 1 else 0)


def _flatten(args, inout_str):
    """(flat list of Symbols, format to rebuild the nesting with _regroup)."""
    return flatten_nested(args, _symbol_format, lambda bad: TypeError(
        "%s must be (nested) list of Symbol, but got %s of type %s"
        % (inout_str, str(bad), str(type(bad)))))


_regroup = regroup_nested


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _check_symbols(items, what):
    Symbol = _symbol_cls()
    for item in items:
        if not isinstance(item, Symbol):
            raise TypeError("%s should be a Symbol or a nested list of Symbols, got %s"
                            % (what, type(item).__name__))


def _uniq_name(sym):
    """The name of the variable standing for `sym` inside a subgraph: '<name>-<output index>'."""
    return "%s-%s" % (sym.name, sym.attr("_value_index"))


def _handles_to_symbols(handles, num):
    Symbol = _symbol_cls()
    from ..base import SymbolHandle as _H  # pylint: disable=import-outside-toplevel
    return [Symbol(_ctypes.cast(handles[i], _H)) for i in range(num)]


def _graph_inputs(graph):
    """Variable Symbols of `graph`'s inputs (list_inputs order)."""
    num = _ctypes.c_int(0)
    handles = _ctypes.POINTER(SymbolHandle)()
    check_call(_LIB.MXSymbolGetInputSymbols(graph.handle, _ctypes.byref(handles),
                                            _ctypes.byref(num)))
    return _handles_to_symbols(handles, num.value)


def _cut_subgraph(graph):
    """Replace the edges from outside the subgraph by variables; return the outer symbols."""
    num = _ctypes.c_int(0)
    handles = _ctypes.POINTER(SymbolHandle)()
    check_call(_LIB.MXSymbolCutSubgraph(graph.handle, _ctypes.byref(handles),
                                        _ctypes.byref(num)))
    return _handles_to_symbols(handles, num.value)


def _subgraph_name(base):
    scoped = AttrScope.current._attr.get("__subgraph_name__", "")  # pylint: disable=protected-access
    if scoped:
        base = scoped + "$" + base
    index = _SUBGRAPH_COUNTS[base]
    _SUBGRAPH_COUNTS[base] += 1
    return base + str(index)


def _finish_subgraph(outputs, name, states=()):
    """Group the body's outputs (then `states`); one that is an input, was not made inside the
    body, or (a state) is also a data output goes through identity: every subgraph output is
    a distinct node of the subgraph."""
    from . import op as _op  # pylint: disable=import-outside-toplevel
    from .symbol import Group  # pylint: disable=import-outside-toplevel
    everything = list(outputs) + list(states)
    input_names = set(Group(everything).list_inputs()) if everything else set()
    output_names = {o.name for o in outputs}
    made = []
    for i, out in enumerate(everything):
        is_state = i >= len(outputs)
        if out.name in input_names or out.list_attr().get("__subgraph_name__", "") != name or \
                (is_state and out.name in output_names):
            out = _op.identity(out)
        made.append(out)
    return Group(made)


def _to_python_scalar(value, type_, what):
    if hasattr(value, "asscalar"):
        value = value.asscalar()
    try:
        return type_(value)
    except (TypeError, ValueError):
        raise ValueError("Cannot convert %s to python %s" % (what, type_.__name__))


def foreach(body, data, init_states, name="foreach"):
    """Run a for loop with user-defined computation over Symbols on dimension 0.

    ``out, states = body(data_t, states)`` runs for every row ``data_t`` of `data` (a Symbol or
    a nested list of Symbols); the per-step outputs are stacked along axis 0 and the states of
    the last step are returned. Equivalent to::

        states = init_states
        outs = []
        for i in range(data.shape[0]):
            out, states = body(data[i], states)
            outs.append(out)
        outs = stack(*outs)

    Parameters
    ----------
    body : a Python function ``(data, states) -> (outputs, new_states)``.
    data : a Symbol or a (nested) list of Symbols.
    init_states : a Symbol or a (nested) list of Symbols.
    name : string, the name of the operator.

    Returns
    -------
    outputs, states : Symbols (or nested lists) with the stacked outputs and the last states.

    Examples
    --------
    >>> step = lambda data, states: (data + states[0], [states[0] * 2])
    >>> outs, states = mx.sym.contrib.foreach(step, mx.sym.var('data'), [mx.sym.var('state')])
    """
    from . import _internal  # pylint: disable=import-outside-toplevel
    flat_data, data_fmt = _flatten(data, "foreach input")
    _check_symbols(flat_data, "data")
    flat_states, state_fmt = _flatten(init_states, "foreach states")
    _check_symbols(flat_states, "init_states")

    sg_name = _subgraph_name(name)
    with AttrScope(__subgraph_name__=sg_name):
        in_vars, _ = _regroup([_var(_uniq_name(s)) for s in flat_data], data_fmt)
        state_vars, _ = _regroup([_var(_uniq_name(s)) for s in flat_states],
                                 _copy.deepcopy(state_fmt))
        outs, new_states = body(in_vars, state_vars)
        outs, out_fmt = _flatten(outs, "foreach output")
        new_states, new_state_fmt = _flatten(new_states, "foreach loop_vars")
        if new_state_fmt != state_fmt:
            raise ValueError("The input and output loop_vars have different format")
        _check_symbols(outs, "the output")
        _check_symbols(new_states, "the output states")
        num_out_data = len(outs)
        num_states = len(new_states)
        graph = _finish_subgraph(outs, sg_name, new_states)

    cut = {s.list_outputs()[0]: s for s in _cut_subgraph(graph)}
    graph_vars = {s.name: s for s in _graph_inputs(graph)}
    sub_inputs = graph.list_inputs()
    if len(set(sub_inputs)) != len(sub_inputs):
        raise ValueError("The inputs of the subgraph don't have unique names: %s" % sub_inputs)
    data_names = [_uniq_name(s) for s in flat_data]
    state_names = [_uniq_name(s) for s in flat_states]
    ordered = list(flat_data) + list(flat_states)
    in_data_locs, in_state_locs, remain_locs = [], [], []
    for dname in data_names:
        if dname not in sub_inputs:
            raise ValueError("the data arrays have to be used in the loop body")
        in_data_locs.append(sub_inputs.index(dname))
    for sname in state_names:
        if sname not in sub_inputs:
            raise ValueError("the state arrays have to be used in the loop body")
        in_state_locs.append(sub_inputs.index(sname))
    for i, in_name in enumerate(sub_inputs):
        if in_name in cut:
            ordered.append(cut[in_name])
            remain_locs.append(i)
        elif in_name not in data_names and in_name not in state_names:
            # A variable made inside the body: the outer graph gets its own copy.
            ordered.append(_copy.deepcopy(graph_vars[in_name]))
            remain_locs.append(i)

    num_outputs = num_out_data + num_states
    ret = _internal._foreach(graph, *ordered, num_outputs=num_outputs,
                             num_out_data=num_out_data, in_state_locs=in_state_locs,
                             in_data_locs=in_data_locs, remain_locs=remain_locs)
    outs, _ = _regroup([ret[i] for i in range(num_out_data)], out_fmt)
    states, _ = _regroup([ret[num_out_data + i] for i in range(num_states)], state_fmt)
    return outs, states


def _union_inputs(graphs, outer_by_name):
    """The node's inputs for several subgraphs and, per graph, where its inputs are in them.
    `outer_by_name(name)` gives the outer symbol a graph input named `name` stands for (or
    None): the remaining inputs are cut outer symbols or copies of variables made inside."""
    inputs, locs, position = [], [], {}
    for graph in graphs:
        cut = {s.list_outputs()[0]: s for s in _cut_subgraph(graph)}
        graph_vars = {s.name: s for s in _graph_inputs(graph)}
        graph_locs = []
        for in_name in graph.list_inputs():
            sym = outer_by_name(in_name, inputs)
            if sym is None:
                sym = cut[in_name] if in_name in cut else _copy.deepcopy(graph_vars[in_name])
            if id(sym) not in position:
                position[id(sym)] = len(inputs)
                inputs.append(sym)
            graph_locs.append(position[id(sym)])
        locs.append(graph_locs)
    return inputs, locs


def while_loop(cond, func, loop_vars, max_iterations=None, name="while_loop"):  # pylint: disable=redefined-outer-name
    """Run a while loop with user-defined condition and computation on Symbols.

    ``cond(*loop_vars)`` gives a one-element Symbol; while it is true (and fewer than
    `max_iterations` steps ran) ``outputs, loop_vars = func(*loop_vars)`` runs. The step outputs
    are stacked along axis 0 into `max_iterations` rows (rows after the last step are zeros
    here; MXNet 1.9.1 leaves them uninitialized).

    Returns
    -------
    outputs, loop_vars : the stacked step outputs and the final loop variables.

    Examples
    --------
    >>> cond = lambda i, s: i <= 5
    >>> func = lambda i, s: ([i + s], [i + 1, s + i])
    >>> outputs, states = mx.sym.contrib.while_loop(
    ...     cond, func, [mx.sym.var('i'), mx.sym.var('s')], max_iterations=10)
    """
    from . import _internal  # pylint: disable=import-outside-toplevel
    if max_iterations is None:
        raise ValueError("max_iterations should be specified")
    max_iterations = _to_python_scalar(max_iterations, int, "max_iteration")
    flat_vars, var_fmt = _flatten(loop_vars, "while loop_vars")
    _check_symbols(flat_vars, "loop_vars")
    if not flat_vars:
        raise ValueError("loop_vars should contain at least one element")

    def make_graph(fn, base, is_cond):
        sg_name = _subgraph_name(base)
        with AttrScope(__subgraph_name__=sg_name):
            graph_vars = [_var(_uniq_name(s)) for s in flat_vars]
            graph_vars, _ = _regroup(graph_vars, var_fmt)
            graph_vars = _as_list(graph_vars) if isinstance(var_fmt, list) else [graph_vars]
            if is_cond:
                outs, new_vars = [fn(*graph_vars)], []
                outs, _ = _flatten(outs, "while cond")
                out_fmt = None
            else:
                outs, new_vars = fn(*graph_vars)
                outs = [] if outs is None else outs
                new_vars = [] if new_vars is None else new_vars
                outs, out_fmt = _flatten(_as_list(outs) if isinstance(outs, tuple) else outs,
                                         "while output")
                new_vars, _ = _flatten(_as_list(new_vars) if isinstance(new_vars, tuple)
                                       else new_vars, "while loop_vars")
                if len(new_vars) != len(flat_vars):
                    raise ValueError("The number of loop_vars should be consistent during the loop")
            graph = _finish_subgraph(outs + new_vars, sg_name)
        return graph, len(outs), len(outs) + len(new_vars), out_fmt

    cond_g, _, cond_nout, _ = make_graph(cond, name + "_cond", True)
    if cond_nout != 1:
        raise ValueError("cond should return a single Symbol")
    func_g, num_out_data, num_outputs, out_fmt = make_graph(func, name + "_func", False)

    var_by_name = {_uniq_name(s): s for s in flat_vars}
    var_pos = {_uniq_name(s): i for i, s in enumerate(flat_vars)}
    inputs, (cond_locs, func_locs) = _union_inputs(
        [cond_g, func_g], lambda n, _: var_by_name.get(n))
    func_var_locs = [-1] * len(flat_vars)
    for k, in_name in enumerate(func_g.list_inputs()):
        if in_name in var_pos:
            func_var_locs[var_pos[in_name]] = k
    for i, loc in enumerate(func_var_locs, 1):
        if loc == -1:
            raise ValueError("The %d-th loop_var doesn't involve into the computation" % i)
    ret = _internal._while_loop(cond_g, func_g, *inputs, max_iterations=max_iterations,
                                cond_input_locs=cond_locs, func_input_locs=func_locs,
                                func_var_locs=func_var_locs, num_out_data=num_out_data,
                                num_outputs=num_outputs)
    outs = [ret[i] for i in range(num_out_data)]
    if out_fmt is not None:
        outs, _ = _regroup(outs, out_fmt)
    final = [ret[i] for i in range(num_out_data, num_outputs)]
    final, _ = _regroup(final, var_fmt)
    return outs, final


def cond(pred, then_func, else_func, name="cond"):
    """Run an if-then-else using user-defined condition and computation on Symbols.

    `pred` is a one-element Symbol; ``then_func()`` computes the outputs when it is non-zero,
    ``else_func()`` otherwise. Both must return the same number of Symbols with the same shapes
    and dtypes.

    Examples
    --------
    >>> a, b = mx.sym.var('a'), mx.sym.var('b')
    >>> out = mx.sym.contrib.cond(a * b < 5, lambda: (a + 5) * (b + 5), lambda: (a - 5) * (b - 5))
    """
    from . import _internal  # pylint: disable=import-outside-toplevel

    def make_graph(fn, base):
        sg_name = _subgraph_name(base)
        with AttrScope(__subgraph_name__=sg_name):
            outs, fmt = _flatten(fn(), "cond outputs")
            graph = _finish_subgraph(outs, sg_name)
        return graph, len(outs), fmt

    cond_g, cond_nout, _ = make_graph(lambda: pred, name + "_pred")
    if cond_nout != 1:
        raise ValueError("pred should always be a single output")
    then_g, then_nout, then_fmt = make_graph(then_func, name + "_then")
    else_g, else_nout, _ = make_graph(else_func, name + "_else")
    if then_nout != else_nout:
        raise ValueError("Number of outputs differs between then-branch and else-branch")

    def earlier_input(in_name, inputs):
        for sym in inputs:
            if sym.name == in_name:
                return sym
        return None

    inputs, (cond_locs, then_locs, else_locs) = _union_inputs(
        [cond_g, then_g, else_g], earlier_input)
    ret = _internal._cond(cond_g, then_g, else_g, *inputs, cond_input_locs=cond_locs,
                          then_input_locs=then_locs, else_input_locs=else_locs,
                          num_outputs=then_nout)
    outs, _ = _regroup([ret[i] for i in range(then_nout)], then_fmt)
    return outs


def _var(name):
    from .symbol import var  # pylint: disable=import-outside-toplevel
    return var(name)


# ---- MXNet 1.9.1's Python-level contrib functions ------------------------------------------
__all__ += ["adamw_update", "mp_adamw_update", "rand_zipfian", "SparseEmbedding"]


def _rescale_grad_symbol(rescale_grad):
    from .symbol import Symbol  # pylint: disable=import-outside-toplevel
    from . import _internal  # pylint: disable=import-outside-toplevel
    if isinstance(rescale_grad, Symbol):
        return rescale_grad
    return _internal._full(shape=(1,), value=float(rescale_grad), dtype='float32')


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, name=None, **kwargs):
    """One AdamW step (_adamw_update); `rescale_grad` is a number or a one-element Symbol."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    return _internal._adamw_update(weight, grad, mean, var, _rescale_grad_symbol(rescale_grad),
                                   lr=lr, eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon,
                                   wd=wd, clip_gradient=clip_gradient, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, name=None, **kwargs):
    """Multi-precision AdamW step (_mp_adamw_update)."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    return _internal._mp_adamw_update(weight, grad, mean, var, weight32,
                                      _rescale_grad_symbol(rescale_grad), lr=lr, eta=eta,
                                      beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                                      clip_gradient=clip_gradient, name=name, **kwargs)


def rand_zipfian(true_classes, num_sampled, range_max):
    """Symbolic rand_zipfian (see mx.nd.contrib.rand_zipfian): (sampled classes, expected
    counts of the true classes, expected counts of the sampled classes)."""
    import math  # pylint: disable=import-outside-toplevel
    from . import random as _random, op  # pylint: disable=import-outside-toplevel
    log_range = math.log(range_max + 1)
    draws = _random.uniform(0, log_range, shape=(num_sampled,), dtype='float64')
    sampled = op.Cast(op.exp(draws) - 1, dtype='int64') % range_max

    def expected_count(classes):
        classes = op.Cast(classes, dtype='float64')
        return op.log((classes + 2.0) / (classes + 1.0)) / log_range * num_sampled

    return sampled, expected_count(true_classes), expected_count(sampled)


def SparseEmbedding(data, weight, input_dim, output_dim, dtype='float32',  # pylint: disable=invalid-name
                    deterministic=False, name=None, **kwargs):  # pylint: disable=unused-argument
    """Embedding with a row_sparse gradient for `weight`."""
    from . import op  # pylint: disable=import-outside-toplevel
    return op.Embedding(data, weight, input_dim=input_dim, output_dim=output_dim, dtype=dtype,
                        sparse_grad=True, name=name, **kwargs)
