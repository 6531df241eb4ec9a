"""Recurrent cells: one time step per call; `unroll` runs a whole sequence.

Parameter names, state layouts and gate orders follow MXNet 1.9.1 (LSTM gates i, f, c, o;
GRU gates r, z, n) so that parameters saved by either implementation load in the other.
"""
from ... import ndarray
from ... import symbol  # noqa: F401  (MXNet 1.9.1's module exposes it)
from ..block import Block, HybridBlock
from ..utils import _indent
from ._sequence import (_cells_state_info, _cells_begin_state, _get_begin_state, _format_sequence,
                        _mask_sequence_variable_length, _reverse_sequences, _sequence_last,
                        _np_states, tensor_types)
# Names MXNet 1.9.1's module also exposes (it imports them).
from ...base import string_types, numeric_types  # noqa: F401

__all__ = ["RecurrentCell", "HybridRecurrentCell", "RNNCell", "LSTMCell", "GRUCell",
           "SequentialRNNCell", "HybridSequentialRNNCell", "DropoutCell", "ModifierCell",
           "ZoneoutCell", "ResidualCell", "BidirectionalCell"]

class RecurrentCell(Block):
    """Base class of recurrent cells: `cell(inputs, states)` runs one step and returns
    (output, new_states); `unroll` runs a sequence."""

    def __init__(self, prefix=None, params=None):
        super(RecurrentCell, self).__init__(prefix=prefix, params=params)
        self._modified = False
        self.reset()

    def reset(self):
        """Resets the step counters (called at the start of every unroll)."""
        self._init_counter = -1
        self._counter = -1
        for cell in self._children.values():
            cell.reset()

    def state_info(self, batch_size=0):
        """Shape and layout of every state this cell carries."""
        raise NotImplementedError()

    @property
    def _curr_prefix(self):
        return "%st%d_" % (self.prefix, self._counter)

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial states made by `func(name=..., shape=..., **kwargs)` (zeros by default)."""
        assert not self._modified, \
            "After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be called " \
            "directly. Call the modifier cell instead."
        states = []
        for info in self.state_info(batch_size):
            self._init_counter += 1
            if info is not None:
                info = dict(info)
                info.update(kwargs)
            else:
                info = kwargs
            states.append(func(name="%sbegin_state_%d" % (self._prefix, self._init_counter),
                               **info))
        return _np_states(states)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        """Runs `length` steps over `inputs` (one tensor in `layout`, or a list of per-step
        (batch, C) tensors). Returns (outputs, states); outputs are merged into one tensor when
        merge_outputs is True (None: the same form as the inputs). With `valid_length` (batch,)
        outputs past each sample's length are zero and states are those of its last step."""
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        begin_state = _get_begin_state(self, F, begin_state, inputs, batch_size)
        states = begin_state
        outputs = []
        all_states = []
        for i in range(length):
            output, states = self(inputs[i], states)
            outputs.append(output)
            if valid_length is not None:
                all_states.append(states)
        if valid_length is not None:
            states = [_sequence_last(F, list(ele_list), valid_length, length)
                      for ele_list in zip(*all_states)]
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     True)
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        return outputs, states

    def _get_activation(self, F, inputs, activation, **kwargs):
        """Applies an activation given by name ('tanh', 'relu', ...) or as a callable/block."""
        if isinstance(activation, str):
            if activation in ("tanh", "sigmoid", "relu", "softsign"):
                return getattr(F, activation)(inputs, **kwargs)
            return F.Activation(inputs, act_type=activation, **kwargs)
        if isinstance(activation, Block):
            return activation(inputs)
        return activation(inputs, **kwargs)

    def forward(self, inputs, states):
        """One step: returns (output, new_states)."""
        self._counter += 1
        return super(RecurrentCell, self).forward(inputs, states)


class HybridRecurrentCell(RecurrentCell, HybridBlock):
    """A recurrent cell that can be hybridized (its step is a symbol graph)."""

    def __init__(self, prefix=None, params=None):
        super(HybridRecurrentCell, self).__init__(prefix=prefix, params=params)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise NotImplementedError


class RNNCell(HybridRecurrentCell):
    """Elman cell: h' = activation(W_i x + b_i + W_h h + b_h)."""

    def __init__(self, hidden_size, activation="tanh", i2h_weight_initializer=None,
                 h2h_weight_initializer=None, i2h_bias_initializer="zeros",
                 h2h_bias_initializer="zeros", input_size=0, prefix=None, params=None):
        super(RNNCell, self).__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._activation = activation
        self._input_size = input_size
        self.i2h_weight = self.params.get("i2h_weight", shape=(hidden_size, input_size),
                                          init=i2h_weight_initializer,
                                          allow_deferred_init=True)
        self.h2h_weight = self.params.get("h2h_weight", shape=(hidden_size, hidden_size),
                                          init=h2h_weight_initializer,
                                          allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(hidden_size,),
                                        init=i2h_bias_initializer, allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(hidden_size,),
                                        init=h2h_bias_initializer, allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "rnn"

    def __repr__(self):
        s = "{name}({mapping}"
        if hasattr(self, "_activation"):
            s += ", {_activation}"
        s += ")"
        shape = self.i2h_weight.shape
        mapping = "{0} -> {1}".format(shape[1] if shape[1] else None, shape[0])
        return s.format(name=self.__class__.__name__, mapping=mapping, **self.__dict__)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size, name=prefix + "i2h")
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias,
                               num_hidden=self._hidden_size, name=prefix + "h2h")
        i2h_plus_h2h = F.elemwise_add(i2h, h2h, name=prefix + "plus0")
        output = self._get_activation(F, i2h_plus_h2h, self._activation, name=prefix + "out")
        return output, [output]


class LSTMCell(HybridRecurrentCell):
    """Long short-term memory cell; gates (i, f, c, o) stacked in that order in the weights."""

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 prefix=None, params=None, activation="tanh", recurrent_activation="sigmoid"):
        super(LSTMCell, self).__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self.i2h_weight = self.params.get("i2h_weight", shape=(4 * hidden_size, input_size),
                                          init=i2h_weight_initializer,
                                          allow_deferred_init=True)
        self.h2h_weight = self.params.get("h2h_weight", shape=(4 * hidden_size, hidden_size),
                                          init=h2h_weight_initializer,
                                          allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(4 * hidden_size,),
                                        init=i2h_bias_initializer, allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(4 * hidden_size,),
                                        init=h2h_bias_initializer, allow_deferred_init=True)
        self._activation = activation
        self._recurrent_activation = recurrent_activation

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"},
                {"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "lstm"

    def __repr__(self):
        shape = self.i2h_weight.shape
        mapping = "{0} -> {1}".format(shape[1] if shape[1] else None, shape[0])
        return "{name}({mapping})".format(name=self.__class__.__name__, mapping=mapping)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size * 4, name=prefix + "i2h")
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias,
                               num_hidden=self._hidden_size * 4, name=prefix + "h2h")
        gates = F.elemwise_add(i2h, h2h, name=prefix + "plus0")
        slice_gates = F.SliceChannel(gates, num_outputs=4, name=prefix + "slice")
        in_gate = self._get_activation(F, slice_gates[0], self._recurrent_activation,
                                       name=prefix + "i")
        forget_gate = self._get_activation(F, slice_gates[1], self._recurrent_activation,
                                           name=prefix + "f")
        in_transform = self._get_activation(F, slice_gates[2], self._activation,
                                            name=prefix + "c")
        out_gate = self._get_activation(F, slice_gates[3], self._recurrent_activation,
                                        name=prefix + "o")
        next_c = F.elemwise_add(F.elemwise_mul(forget_gate, states[1], name=prefix + "mul0"),
                                F.elemwise_mul(in_gate, in_transform, name=prefix + "mul1"),
                                name=prefix + "state")
        next_h = F.elemwise_mul(out_gate, self._get_activation(F, next_c, self._activation),
                                name=prefix + "out")
        return next_h, [next_h, next_c]


class GRUCell(HybridRecurrentCell):
    """Gated recurrent unit cell; gates (r, z, n) stacked in that order in the weights, with
    n = tanh(W_in x + b_in + r * (W_hn h + b_hn)) as in cuDNN and MXNet's fused RNN."""

    def __init__(self, hidden_size, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 prefix=None, params=None):
        super(GRUCell, self).__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self.i2h_weight = self.params.get("i2h_weight", shape=(3 * hidden_size, input_size),
                                          init=i2h_weight_initializer,
                                          allow_deferred_init=True)
        self.h2h_weight = self.params.get("h2h_weight", shape=(3 * hidden_size, hidden_size),
                                          init=h2h_weight_initializer,
                                          allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(3 * hidden_size,),
                                        init=i2h_bias_initializer, allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(3 * hidden_size,),
                                        init=h2h_bias_initializer, allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "gru"

    def __repr__(self):
        shape = self.i2h_weight.shape
        mapping = "{0} -> {1}".format(shape[1] if shape[1] else None, shape[0])
        return "{name}({mapping})".format(name=self.__class__.__name__, mapping=mapping)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = "t%d_" % self._counter
        prev_state_h = states[0]
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size * 3, name=prefix + "i2h")
        h2h = F.FullyConnected(data=prev_state_h, weight=h2h_weight, bias=h2h_bias,
                               num_hidden=self._hidden_size * 3, name=prefix + "h2h")
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, name=prefix + "i2h_slice")
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, name=prefix + "h2h_slice")
        reset_gate = F.sigmoid(F.elemwise_add(i2h_r, h2h_r, name=prefix + "plus0"),
                               name=prefix + "r_act")
        update_gate = F.sigmoid(F.elemwise_add(i2h_z, h2h_z, name=prefix + "plus1"),
                                name=prefix + "z_act")
        next_h_tmp = F.tanh(F.elemwise_add(i2h, F.elemwise_mul(reset_gate, h2h,
                                                                name=prefix + "mul0"),
                                           name=prefix + "plus2"), name=prefix + "h_act")
        ones = F.ones_like(update_gate, name=prefix + "ones_like0")
        next_h = F.elemwise_add(
            F.elemwise_mul(F.elemwise_sub(ones, update_gate, name=prefix + "minus0"),
                           next_h_tmp, name=prefix + "mul1"),
            F.elemwise_mul(update_gate, prev_state_h, name=prefix + "mul20"),
            name=prefix + "out")
        return next_h, [next_h]


def _sequential_call(cells, inputs, states):
    next_states = []
    p = 0
    for cell in cells:
        if isinstance(cell, BidirectionalCell):
            raise NotImplementedError("BidirectionalCell cannot be stepped inside a sequential "
                                      "cell. Please use unroll")
        n = len(cell.state_info())
        state = states[p:p + n]
        p += n
        inputs, state = cell(inputs, state)
        next_states.append(state)
    return inputs, sum(next_states, [])


def _sequential_unroll(self, length, inputs, begin_state, layout, merge_outputs, valid_length):
    self.reset()
    inputs, _, F, batch_size = _format_sequence(length, inputs, layout, None)
    num_cells = len(self._children)
    begin_state = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
    p = 0
    next_states = []
    for i, cell in enumerate(self._children.values()):
        n = len(cell.state_info())
        states = begin_state[p:p + n]
        p += n
        inputs, states = cell.unroll(length, inputs=inputs, begin_state=states, layout=layout,
                                     merge_outputs=None if i < num_cells - 1 else merge_outputs,
                                     valid_length=valid_length)
        next_states.extend(states)
    return inputs, next_states


def _sequential_cell_repr(self):
    s = "{name}(\n{modstr}\n)"
    modstr = "\n".join(["({i}): {m}".format(i=i, m=_indent(repr(m), 2))
                        for i, m in self._children.items()])
    return s.format(name=self.__class__.__name__, modstr=modstr)


class SequentialRNNCell(RecurrentCell):
    """Stacks cells: each cell's output is the next one's input; states are concatenated."""

    def __init__(self, prefix=None, params=None):
        super(SequentialRNNCell, self).__init__(prefix=prefix, params=params)

    __repr__ = _sequential_cell_repr

    def add(self, cell):
        """Appends a cell."""
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        assert not self._modified, \
            "After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be called " \
            "directly. Call the modifier cell instead."
        return _cells_begin_state(self._children.values(), **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        return _sequential_unroll(self, length, inputs, begin_state, layout, merge_outputs,
                                  valid_length)

    def __call__(self, inputs, states):
        self._counter += 1
        return _sequential_call(self._children.values(), inputs, states)

    def __getitem__(self, i):
        return list(self._children.values())[i]

    def __len__(self):
        return len(self._children)

    def hybrid_forward(self, *args, **kwargs):
        raise NotImplementedError


class HybridSequentialRNNCell(HybridRecurrentCell):
    """SequentialRNNCell whose children are hybridizable cells."""

    def __init__(self, prefix=None, params=None):
        super(HybridSequentialRNNCell, self).__init__(prefix=prefix, params=params)

    __repr__ = _sequential_cell_repr

    def add(self, cell):
        """Appends a cell."""
        self.register_child(cell)

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        assert not self._modified, \
            "After applying modifier cells (e.g. ZoneoutCell) the base cell cannot be called " \
            "directly. Call the modifier cell instead."
        return _cells_begin_state(self._children.values(), **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        return _sequential_unroll(self, length, inputs, begin_state, layout, merge_outputs,
                                  valid_length)

    def __call__(self, inputs, states):
        self._counter += 1
        return _sequential_call(self._children.values(), inputs, states)

    def __getitem__(self, i):
        return list(self._children.values())[i]

    def __len__(self):
        return len(self._children)

    def hybrid_forward(self, F, inputs, states):
        return _sequential_call(self._children.values(), inputs, states)


class DropoutCell(HybridRecurrentCell):
    """Applies dropout to the inputs (no states); `axes` share the mask along those axes."""

    def __init__(self, rate, axes=(), prefix=None, params=None):
        super(DropoutCell, self).__init__(prefix, params)
        if not isinstance(rate, (int, float)):
            raise TypeError("DropoutCell: rate must be a number, got %s" % type(rate))
        self._rate = rate
        self._axes = axes

    def __repr__(self):
        return "{name}(rate={_rate}, axes={_axes})".format(name=self.__class__.__name__,
                                                            **self.__dict__)

    def state_info(self, batch_size=0):
        return []

    def _alias(self):
        return "dropout"

    def hybrid_forward(self, F, inputs, states):
        if self._rate > 0:
            inputs = F.Dropout(data=inputs, p=self._rate, axes=self._axes,
                               name="t%d_fwd" % self._counter)
        return inputs, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, _, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if isinstance(inputs, tensor_types):
            return self.hybrid_forward(F, inputs, begin_state if begin_state else [])
        return super(DropoutCell, self).unroll(length, inputs, begin_state=begin_state,
                                               layout=layout, merge_outputs=merge_outputs,
                                               valid_length=None)


class ModifierCell(HybridRecurrentCell):
    """Base class of cells that wrap another cell (Zoneout, Residual); the wrapped cell's
    parameters are this cell's parameters and it must not be used directly any more."""

    def __init__(self, base_cell):
        assert not base_cell._modified, \
            "Cell %s is already modified. One cell cannot be modified twice" % base_cell.name
        base_cell._modified = True
        super(ModifierCell, self).__init__(prefix=base_cell.prefix + self._alias(),
                                           params=None)
        self.base_cell = base_cell

    @property
    def params(self):
        return self.base_cell.params

    def state_info(self, batch_size=0):
        return self.base_cell.state_info(batch_size)

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        assert not self._modified, \
            "After applying modifier cells (e.g. DropoutCell) the base cell cannot be called " \
            "directly. Call the modifier cell instead."
        self.base_cell._modified = False
        begin = self.base_cell.begin_state(batch_size=batch_size, func=func, **kwargs)
        self.base_cell._modified = True
        return begin

    def hybrid_forward(self, F, inputs, states):
        raise NotImplementedError

    def __repr__(self):
        return "{name}({base_cell})".format(name=self.__class__.__name__, **self.__dict__)


class ZoneoutCell(ModifierCell):
    """Zoneout: with probability p a unit keeps its previous output/state (training only)."""

    def __init__(self, base_cell, zoneout_outputs=0., zoneout_states=0.):
        assert not isinstance(base_cell, BidirectionalCell), \
            "BidirectionalCell doesn't support zoneout since it doesn't support step. " \
            "Please add ZoneoutCell to the cells underneath instead."
        super(ZoneoutCell, self).__init__(base_cell)
        self.zoneout_outputs = zoneout_outputs
        self.zoneout_states = zoneout_states
        self._prev_output = None

    def __repr__(self):
        return "{name}(p_out={zoneout_outputs}, p_state={zoneout_states}, {base_cell})".format(
            name=self.__class__.__name__, **self.__dict__)

    def _alias(self):
        return "zoneout"

    def reset(self):
        super(ZoneoutCell, self).reset()
        self._prev_output = None

    def hybrid_forward(self, F, inputs, states):
        cell, p_outputs, p_states = self.base_cell, self.zoneout_outputs, self.zoneout_states
        next_output, next_states = cell(inputs, states)

        def mask(p, like):
            # Dropout of ones: 0 with probability p, else 1/(1-p); `where` only tests != 0.
            return F.Dropout(F.ones_like(like), p=p)

        prev_output = self._prev_output
        if prev_output is None:
            prev_output = F.zeros_like(next_output)
        output = (F.where(mask(p_outputs, next_output), next_output, prev_output)
                  if p_outputs != 0. else next_output)
        states = ([F.where(mask(p_states, new_s), new_s, old_s)
                   for new_s, old_s in zip(next_states, states)]
                  if p_states != 0. else next_states)
        self._prev_output = output
        return output, states


class ResidualCell(ModifierCell):
    """Adds the cell's input to its output (the base cell's output size must equal the
    input size)."""

    def __init__(self, base_cell):
        super(ResidualCell, self).__init__(base_cell)

    def _alias(self):
        return "residual"

    def hybrid_forward(self, F, inputs, states):
        output, states = self.base_cell(inputs, states)
        output = F.elemwise_add(output, inputs, name="t%d_fwd" % self._counter)
        return output, states

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        self.reset()
        self.base_cell._modified = False
        outputs, states = self.base_cell.unroll(length, inputs=inputs, begin_state=begin_state,
                                                layout=layout, merge_outputs=merge_outputs,
                                                valid_length=valid_length)
        self.base_cell._modified = True
        merge_outputs = isinstance(outputs, tensor_types) if merge_outputs is None \
            else merge_outputs
        inputs, axis, F, _ = _format_sequence(length, inputs, layout, merge_outputs)
        if valid_length is not None:
            inputs = _mask_sequence_variable_length(F, inputs, length, valid_length, axis,
                                                    merge_outputs)
        if merge_outputs:
            outputs = F.elemwise_add(outputs, inputs)
        else:
            outputs = [F.elemwise_add(i, j) for i, j in zip(outputs, inputs)]
        return outputs, states


class BidirectionalCell(HybridRecurrentCell):
    """Runs `l_cell` forward and `r_cell` backward over the sequence and concatenates their
    outputs on the feature axis. Only `unroll` is supported (no single steps)."""

    def __init__(self, l_cell, r_cell, output_prefix="bi_"):
        super(BidirectionalCell, self).__init__(prefix="", params=None)
        self.register_child(l_cell, "l_cell")
        self.register_child(r_cell, "r_cell")
        self._output_prefix = output_prefix

    def __call__(self, inputs, states):
        raise NotImplementedError("Bidirectional cannot be stepped. Please use unroll")

    def __repr__(self):
        s = "{name}(forward={l_cell}, backward={r_cell})"
        return s.format(name=self.__class__.__name__,
                        l_cell=self._children["l_cell"], r_cell=self._children["r_cell"])

    def state_info(self, batch_size=0):
        return _cells_state_info(self._children.values(), batch_size)

    def begin_state(self, **kwargs):
        assert not self._modified, \
            "After applying modifier cells (e.g. DropoutCell) the base cell cannot be called " \
            "directly. Call the modifier cell instead."
        return _cells_begin_state(self._children.values(), **kwargs)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, False)
        reversed_inputs = _reverse_sequences(inputs, length, valid_length)
        begin_state = _get_begin_state(self, F, begin_state, inputs, batch_size)
        states = begin_state
        l_cell, r_cell = self._children.values()
        n_left = len(l_cell.state_info(batch_size))
        l_outputs, l_states = l_cell.unroll(length, inputs=inputs, begin_state=states[:n_left],
                                            layout=layout, merge_outputs=merge_outputs,
                                            valid_length=valid_length)
        r_outputs, r_states = r_cell.unroll(length, inputs=reversed_inputs,
                                            begin_state=states[n_left:], layout=layout,
                                            merge_outputs=False, valid_length=valid_length)
        reversed_r_outputs = _reverse_sequences(r_outputs, length, valid_length)
        if merge_outputs is None:
            merge_outputs = isinstance(l_outputs, tensor_types)
        l_outputs, _, _, _ = _format_sequence(None, l_outputs, layout, merge_outputs)
        reversed_r_outputs, _, _, _ = _format_sequence(None, reversed_r_outputs, layout,
                                                       merge_outputs)
        if merge_outputs:
            outputs = F.concat(l_outputs, reversed_r_outputs, dim=2,
                               name="%sout" % self._output_prefix)
        else:
            outputs = [F.concat(l_o, r_o, dim=1, name="%st%d" % (self._output_prefix, i))
                       for i, (l_o, r_o) in enumerate(zip(l_outputs, reversed_r_outputs))]
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     merge_outputs)
        states = l_states + r_states
        return outputs, states
