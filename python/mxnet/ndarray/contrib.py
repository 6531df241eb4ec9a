"""Contributed operators (`_contrib_*` registered names, without the prefix).

Populated at import from the library registry.
"""
from . import _internal

__all__ = []


def _get_rescale_grad(rescale_grad, ctx=None):
    from . import utils, NDArray  # pylint: disable=import-outside-toplevel
    if isinstance(rescale_grad, NDArray):
        return rescale_grad if ctx is None else rescale_grad.as_in_context(ctx)
    return utils.array([rescale_grad], ctx=ctx, dtype="float32")


def multi_adamw_update(weights, grads, mean, var, rescale_grad, lrs, wds, etas,
                       out=None, name=None, size=0, **kwargs):
    """AdamW update of several weights at once (_multi_adamw_update); `rescale_grad` is a
    number or a one-element NDArray (the update is skipped when it is NaN, Inf or 0)."""
    size = size or len(weights)
    rescale_grad = _get_rescale_grad(rescale_grad, ctx=weights[0].context)
    flat = [a for group in zip(weights, grads, mean, var) for a in group] + [rescale_grad]
    return _internal._multi_adamw_update(*flat, out=out, num_weights=size, lrs=lrs, wds=wds,
                                         etas=etas, name=name, **kwargs)


def multi_mp_adamw_update(weights, grads, mean, var, weights32, rescale_grad, lrs, wds, etas,
                          out=None, name=None, size=0, **kwargs):
    """Multi-precision AdamW update of several weights (_multi_mp_adamw_update): the float32
    master copies `weights32` are updated in place and cast into `weights`."""
    size = size or len(weights)
    rescale_grad = _get_rescale_grad(rescale_grad, ctx=weights[0].context)
    flat = [a for group in zip(weights, grads, mean, var, weights32) for a in group]
    return _internal._multi_mp_adamw_update(*(flat + [rescale_grad]), out=out, num_weights=size,
                                            lrs=lrs, wds=wds, etas=etas, name=name, **kwargs)


def multi_lamb_update(weights, grads, mean, var, step_count, lrs, wds, out=None, num_tensors=0,
                      **kwargs):
    """LAMB update of several tensors at once (_multi_lamb_update); `step_count`, `lrs` and
    `wds` give one value per tensor."""
    num_tensors = num_tensors or len(weights)
    flat = [a for group in zip(weights, grads, mean, var) for a in group]
    return _internal._multi_lamb_update(*flat, out=out, num_tensors=num_tensors,
                                        step_count=step_count, learning_rates=lrs, wds=wds,
                                        **kwargs)


def multi_mp_lamb_update(weights, grads, mean, var, weights32, step_count, lrs, wds, out=None,
                         num_tensors=0, **kwargs):
    """Multi-precision LAMB update of several tensors (_multi_mp_lamb_update): the float32
    master copies `weights32` are updated in place and cast into `weights`."""
    num_tensors = num_tensors or len(weights)
    flat = [a for group in zip(weights, grads, mean, var, weights32) for a in group]
    return _internal._multi_mp_lamb_update(*flat, out=out, num_tensors=num_tensors,
                                           step_count=step_count, learning_rates=lrs, wds=wds,
                                           **kwargs)


__all__ += ["multi_adamw_update", "multi_mp_adamw_update", "multi_lamb_update",
            "multi_mp_lamb_update"]
# ---- control flow (imperative: plain Python loops over NDArrays, so autograd records every
# step's operators like any other code) and element tests ---------------------------------
import numpy as _np

from . import ndarray as _ndarray_mod
from .ndarray import NDArray as _NDArray
from . import op as _op
from .._nested import flatten_nested, regroup_nested

__all__ += ["foreach", "while_loop", "cond", "isinf", "isfinite", "isnan"]


def _flatten(args, inout_str):
    """Flattens a nested list of NDArrays; returns (flat list, format for `_regroup`)."""
    return flatten_nested(args, lambda x: 0 if isinstance(x, _NDArray) else None,
                          lambda bad: TypeError("%s must be (nested) list of NDArray, but got %s "
                                                "of type %s" % (inout_str, str(bad), str(type(bad)))))


_regroup = regroup_nested


def _to_python_scalar(value, type_, name):
    if hasattr(value, "asscalar"):
        value = value.asscalar()
    try:
        return type_(value)
    except (TypeError, ValueError):
        raise ValueError("Cannot convert %s to python %s" % (name, type_.__name__))


def foreach(body, data, init_states):
    """Runs ``outputs, states = body(data[i], states)`` for every i along axis 0 of `data`
    (an NDArray or a list of them). Returns (the per-step outputs stacked on a new axis 0,
    the final states); nesting of outputs and states is kept."""
    flat, _ = _flatten(data, "foreach input")
    if not all(isinstance(x, _NDArray) for x in flat):
        raise TypeError("data should be an NDArray or a nested list of NDArrays")
    flat, _ = _flatten(init_states, "foreach states")
    if not all(isinstance(x, _NDArray) for x in flat):
        raise TypeError("init_states should be an NDArray or a nested list of NDArrays")
    single = isinstance(data, _NDArray)
    num_iters = data.shape[0] if single else data[0].shape[0]
    states = init_states
    outputs = []
    out_fmt = None
    for i in range(num_iters):
        eles = data[i] if single else [d[i] for d in data]
        outs, states = body(eles, states)
        outs, out_fmt = _flatten(outs, "foreach output")
        outputs.append(outs)
    stacked = [_op.stack(*steps, axis=0) for steps in zip(*outputs)]
    if out_fmt is not None:
        stacked, _ = _regroup(stacked, out_fmt)
    return (stacked, states)


def while_loop(cond, func, loop_vars, max_iterations=None):  # pylint: disable=redefined-outer-name
    """While ``cond(*loop_vars)`` holds (at most `max_iterations` times):
    ``step_output, loop_vars = func(*loop_vars)``. Returns (step outputs stacked on axis 0,
    padded to `max_iterations` rows, the final loop_vars)."""
    if max_iterations is None:
        raise ValueError("max_iterations should be specified")
    max_iterations = _to_python_scalar(max_iterations, int, "max_iteration")
    if isinstance(loop_vars, (list, tuple)) and len(loop_vars) == 0:
        raise ValueError("loop_vars should contain at least one element")
    single = isinstance(loop_vars, _NDArray)
    loop_vars = [loop_vars] if single else list(loop_vars)
    steps = 0
    outputs = []
    out_fmt = None
    while steps < max_iterations and _to_python_scalar(cond(*loop_vars), bool,
                                                         "Return value of cond"):
        step_output, new_vars = func(*loop_vars)
        step_output = [] if step_output is None else step_output
        new_vars = [] if new_vars is None else new_vars
        if isinstance(step_output, tuple):
            step_output = list(step_output)
        new_vars = [new_vars] if isinstance(new_vars, _NDArray) else list(new_vars)
        if len(new_vars) != len(loop_vars):
            raise ValueError("The length of loop_vars should be consistent during the loop: "
                             "%d at the start, %d returned by func"
                             % (len(loop_vars), len(new_vars)))
        loop_vars = new_vars
        step_output, out_fmt = _flatten(step_output, "while output")
        if outputs and len(step_output) != len(outputs[0]):
            raise ValueError("Number of elements in step_output should be the same in each "
                             "step")
        outputs.append(step_output)
        steps += 1
    stacked = []
    for i_th, items in enumerate(zip(*outputs), 1):
        items = [x.expand_dims(0) for x in items]
        shapes = set(tuple(x.shape) for x in items)
        if len(shapes) != 1:
            raise ValueError("\n".join(
                ["Shapes of %d-th elements in step_outputs are inconsistent, which are:"
                 % i_th] + ["  Step %d, shape is %s" % (i, str(x.shape))
                            for i, x in enumerate(items)]))
        if steps != max_iterations and items:
            pad_shape = [max_iterations - steps] + list(items[0].shape[1:])
            items.append(_ndarray_mod.zeros(pad_shape, ctx=items[0].context,
                                            dtype=items[0].dtype))
        stacked.append(_op.concat(*items, dim=0))
    if out_fmt is not None:
        stacked, _ = _regroup(stacked, out_fmt)
    if single:
        loop_vars = loop_vars[0]
    return stacked, loop_vars


def cond(pred, then_func, else_func):
    """``then_func()`` if `pred` (a scalar NDArray or Python value) is true, else
    ``else_func()``."""
    if _to_python_scalar(pred, bool, "pred"):
        return then_func()
    return else_func()


def isinf(data):
    """1 where `data` is +-inf, else 0."""
    return data.abs() == _np.inf


def isfinite(data):
    """1 where `data` is neither inf nor nan, else 0."""
    is_data_not_nan = data == data  # pylint: disable=comparison-with-itself
    is_data_not_infinite = data.abs() != _np.inf
    return _ndarray_mod.logical_and(is_data_not_infinite, is_data_not_nan)


def isnan(data):
    """1 where `data` is nan, else 0."""
    return data != data  # pylint: disable=comparison-with-itself


# ---- MXNet 1.9.1's Python-level contrib functions ------------------------------------------
# (getnnz, edge_id and dgl_adjacency are the registered C++ operators _contrib_getnnz,
# _contrib_edge_id and _contrib_dgl_adjacency: src/operator/contrib/dgl_graph.cc.)
__all__ += ["adamw_update", "mp_adamw_update", "rand_zipfian", "SparseEmbedding"]


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """One AdamW step (_adamw_update): the moments `mean`, `var` and `weight` are updated in
    place; `rescale_grad` is a number or a one-element NDArray (the step is skipped when it
    is NaN, Inf or 0)."""
    rescale_grad = _get_rescale_grad(rescale_grad, ctx=weight.context)
    return _internal._adamw_update(weight, grad, mean, var, rescale_grad, lr=lr, eta=eta,
                                   beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                                   clip_gradient=clip_gradient, out=out, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None,
                    **kwargs):
    """Multi-precision AdamW step (_mp_adamw_update): the float32 master copy `weight32` is
    updated and cast into `weight`."""
    rescale_grad = _get_rescale_grad(rescale_grad, ctx=weight.context)
    return _internal._mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr=lr,
                                      eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon,
                                      wd=wd, clip_gradient=clip_gradient, out=out, name=name,
                                      **kwargs)


def rand_zipfian(true_classes, num_sampled, range_max, ctx=None):
    """Draw `num_sampled` classes (with replacement) from the approximately Zipfian (log-uniform)
    distribution P(c) = log((c + 2) / (c + 1)) / log(range_max + 1) over [0, range_max).

    Returns (sampled classes (int64), expected count of each true class in the draw, expected
    count of each sampled class), the counts being num_sampled * P(c)."""
    import math  # pylint: disable=import-outside-toplevel
    from . import random as _random, op  # pylint: disable=import-outside-toplevel
    ctx = true_classes.context if ctx is None else ctx
    log_range = math.log(range_max + 1)
    draws = _random.uniform(0, log_range, shape=(num_sampled,), dtype='float64', ctx=ctx)
    sampled = op.Cast(op.exp(draws) - 1, dtype='int64') % range_max

    def expected_count(classes):
        classes = op.Cast(classes, dtype='float64')
        return op.log((classes + 2.0) / (classes + 1.0)) / log_range * num_sampled

    return sampled, expected_count(true_classes.as_in_context(ctx)), expected_count(sampled)


def SparseEmbedding(data, weight, input_dim, output_dim, dtype='float32',  # pylint: disable=invalid-name
                    deterministic=False, out=None, name=None, **kwargs):  # pylint: disable=unused-argument
    """The rows of `weight` at the indices `data` (Embedding) with a row_sparse gradient for
    `weight` (deprecated in MXNet 1.9.1 in favour of Embedding(sparse_grad=True))."""
    from . import op  # pylint: disable=import-outside-toplevel
    return op.Embedding(data, weight, input_dim=input_dim, output_dim=output_dim, dtype=dtype,
                        sparse_grad=True, out=out, name=name, **kwargs)
