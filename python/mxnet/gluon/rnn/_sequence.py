"""Helpers the Gluon recurrent cells and layers share: converting between a merged sequence
tensor and a list of steps, begin states, and masking, reversing and picking steps by valid
length."""
from ... import ndarray
from ... import symbol
from ...util import is_np_array
from .. import block as _block

tensor_types = (symbol.Symbol, ndarray.NDArray)


def _as_list(obj):
    """A list of per-output items: lists stay, a multi-output symbol is split into outputs."""
    if isinstance(obj, (list, tuple)):
        return list(obj)
    if isinstance(obj, symbol.Symbol) and len(obj.list_outputs()) > 1:
        return list(obj)
    return [obj]


def _cells_state_info(cells, batch_size):
    return sum([c.state_info(batch_size) for c in cells], [])


def _cells_begin_state(cells, **kwargs):
    return sum([c.begin_state(**kwargs) for c in cells], [])


def _get_begin_state(cell, F, begin_state, inputs, batch_size, layout="NTC"):
    """Zero states on the inputs' context when the caller gave none."""
    if begin_state is not None:
        return begin_state
    if F is ndarray:
        ctx = inputs.context if isinstance(inputs, tensor_types) else inputs[0].context
        with ctx:
            return cell.begin_state(func=F.zeros, batch_size=batch_size)
    if batch_size:
        return cell.begin_state(func=F.zeros, batch_size=batch_size)
    return cell.begin_state(func=_batch_zeros_from(inputs, layout), batch_size=0)


def _batch_zeros_from(inputs, layout):
    """A symbolic `zeros(name, shape=(0, H))` whose unknown batch dim comes from the inputs.
    MXNet 1.9.1 leaves the 0 to shape inference; here 0 is a real (empty) dimension, so the
    zeros are made as broadcast zeros_like of a (batch, 1) slice of the inputs instead."""
    if isinstance(inputs, symbol.Symbol):
        column = symbol.sum(inputs, axis=(layout.find("T"), 2)).reshape((-1, 1))
    else:
        column = symbol.sum(inputs[0].reshape((0, -1)), axis=1, keepdims=True)

    def make(name, shape, **kwargs):
        if len(shape) != 2 or shape[0] != 0:
            return symbol.zeros(name=name, shape=shape, **kwargs)
        zero_column = symbol.zeros_like(column)
        return symbol.broadcast_axis(zero_column, axis=1, size=shape[1], name=name)
    return make


def _symbolic_dim(sym, axis):
    """Dimension `axis` of a symbol when shape inference knows it (e.g. while a hybridized
    parent traces its graph), else 0 (unknown). Symbolic begin states need the batch size."""
    shape = _known_shape(sym) if len(sym.list_outputs()) == 1 else None
    return shape[axis] if shape is not None and axis < len(shape) else 0


def _format_sequence(length, inputs, layout, merge, in_layout=None):
    """Converts `inputs` between one merged tensor (merge=True) and a list of per-step tensors
    (merge=False); merge=None keeps the given form. Returns (inputs, time axis, F, batch)."""
    assert inputs is not None, \
        "unroll(inputs=None) has been deprecated. Please create input variables outside unroll."
    if layout not in ("NTC", "TNC"):
        raise ValueError("Invalid layout %s; must be one of ['NTC' or 'TNC']" % layout)
    axis = layout.find("T")
    batch_axis = layout.find("N")
    batch_size = 0
    in_axis = in_layout.find("T") if in_layout is not None else axis
    if isinstance(inputs, symbol.Symbol):
        F = symbol
        batch_size = _symbolic_dim(inputs, batch_axis)
        if merge is False:
            assert len(inputs.list_outputs()) == 1, \
                "unroll doesn't allow grouped symbol as input. Please convert to list with " \
                "list(inputs) first or let unroll handle splitting."
            inputs = list(symbol.split(inputs, axis=in_axis, num_outputs=length,
                                       squeeze_axis=1))
    elif isinstance(inputs, ndarray.NDArray):
        F = ndarray
        batch_size = inputs.shape[batch_axis]
        if merge is False:
            if length is not None and length != inputs.shape[in_axis]:
                raise ValueError("unroll: length %d does not match the input's time axis "
                                 "(shape %s, layout %s)" % (length, inputs.shape, layout))
            inputs = _as_list(ndarray.split(inputs, axis=in_axis,
                                            num_outputs=inputs.shape[in_axis],
                                            squeeze_axis=1))
    else:
        if length is not None and len(inputs) != length:
            raise ValueError("unroll: length %d does not match the %d input steps"
                             % (length, len(inputs)))
        if isinstance(inputs[0], symbol.Symbol):
            F = symbol
            batch_size = _symbolic_dim(inputs[0], 0)
        else:
            F = ndarray
            batch_size = inputs[0].shape[0]
        if merge is True:
            inputs = F.stack(*inputs, axis=axis)
            in_axis = axis
    if isinstance(inputs, tensor_types) and axis != in_axis:
        inputs = F.swapaxes(inputs, dim1=axis, dim2=in_axis)
    return inputs, axis, F, batch_size


def _mask_sequence_variable_length(F, data, length, valid_length, time_axis, merge):
    """Zeroes the steps at or after each sample's valid length."""
    assert valid_length is not None
    if not isinstance(data, tensor_types):
        data = F.stack(*data, axis=time_axis)
    outputs = F.SequenceMask(data, sequence_length=valid_length, use_sequence_length=True,
                             axis=time_axis)
    if not merge:
        outputs = _as_list(F.split(outputs, num_outputs=length, axis=time_axis,
                                   squeeze_axis=True))
    return outputs


def _time_major_index_matrix(F, valid_length, length):
    """For each sample n a (T, T) one-hot matrix P[n] with P[n][t] selecting the source step of
    output step t when the first valid_length[n] steps are reversed (the rest stay put)."""
    steps = F.arange(length).reshape((1, length))                        # (1, T)
    lens = F.cast(valid_length, dtype="float32").reshape((-1, 1))        # (N, 1)
    reversed_idx = F.broadcast_sub(F.broadcast_sub(lens, steps), F.ones_like(lens))
    inside = F.broadcast_lesser(steps, lens)                             # (N, T)
    source = F.where(inside, reversed_idx, F.broadcast_like(steps, inside))
    return F.one_hot(source, depth=length)                               # (N, T, T)


def _reverse_sequences(sequences, unroll_step, valid_length=None):
    """Reverses a list of per-step tensors; with valid_length only the valid prefix of each
    sample is reversed (what SequenceReverse(use_sequence_length=True) does)."""
    F = symbol if isinstance(sequences[0], symbol.Symbol) else ndarray
    if valid_length is None:
        return list(reversed(sequences))
    stacked = F.stack(*sequences, axis=1)                                # (N, T, C)
    perm = _time_major_index_matrix(F, valid_length, unroll_step)
    reordered = F.batch_dot(perm, stacked)                               # (N, T, C)
    return _as_list(F.split(reordered, axis=1, num_outputs=unroll_step, squeeze_axis=True))


def _sequence_last(F, steps, valid_length, length):
    """The state at step valid_length-1 of each sample (SequenceLast on the stacked steps)."""
    stacked = F.stack(*steps, axis=1)                                    # (N, T, ...)
    last = F.one_hot(F.cast(valid_length, dtype="float32") - 1, depth=length)  # (N, T)
    picked = F.batch_dot(last.expand_dims(axis=1), stacked.reshape((0, 0, -1)))
    return picked.reshape((0, -1))


def _known_shape(inputs):
    """The shape of a symbolic input, or None when shape inference cannot tell. While a parent
    block traces its graph, its input shapes are used and the parent is told that its graph
    depends on them (it then rebuilds the graph when they change)."""
    trace = getattr(_block._trace_state, "value", None)
    known = trace["shapes"] if trace else {}
    shapes = {name: known[name] for name in inputs.list_arguments() if name in known}
    try:
        _, out_shapes, _ = inputs.infer_shape_partial(**shapes)
    except Exception:  # pylint: disable=broad-except
        return None
    if not out_shapes or out_shapes[0] is None or any(d <= 0 for d in out_shapes[0]):
        return None
    if trace is not None:
        trace["shape_dependent"] = True
    return tuple(out_shapes[0])


def _np_states(states):
    """Initial states as mx.np arrays under NumPy array semantics (npx.set_np())."""
    if not is_np_array():
        return states
    return [s.as_np_ndarray() if type(s) is ndarray.NDArray else s  # pylint: disable=unidiomatic-typecheck
            for s in states]
