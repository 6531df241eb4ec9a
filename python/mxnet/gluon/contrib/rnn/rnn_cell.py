"""VariationalDropoutCell (one dropout mask per sequence) and LSTMPCell (LSTM with a
projected recurrent state), as in mx.gluon.contrib.rnn of MXNet 1.9.1."""
from ...rnn import BidirectionalCell, HybridRecurrentCell, ModifierCell, SequentialRNNCell
from ...rnn._sequence import (_format_sequence, _get_begin_state,
                             _mask_sequence_variable_length, tensor_types)
from .... import ndarray, symbol

__all__ = ["VariationalDropoutCell", "LSTMPCell", "dynamic_unroll"]


class VariationalDropoutCell(ModifierCell):
    """Variational dropout (Gal & Ghahramani): the same dropout mask is applied to the inputs,
    the first state and the outputs at every time step of a sequence; masks are redrawn at
    every unroll/reset."""

    def __init__(self, base_cell, drop_inputs=0., drop_states=0., drop_outputs=0.):
        assert not drop_states or not isinstance(base_cell, BidirectionalCell), \
            "BidirectionalCell doesn't support variational state dropout. " \
            "Please add VariationalDropoutCell to the cells underneath instead."
        assert not drop_states \
            or not isinstance(base_cell, SequentialRNNCell) \
            or not any(isinstance(c, BidirectionalCell) for c in base_cell._children.values()), \
            "Bidirectional SequentialRNNCell doesn't support variational state dropout. " \
            "Please add VariationalDropoutCell to the cells underneath instead."
        super(VariationalDropoutCell, self).__init__(base_cell)
        self.drop_inputs = drop_inputs
        self.drop_states = drop_states
        self.drop_outputs = drop_outputs
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _alias(self):
        return "vardrop"

    def reset(self):
        super(VariationalDropoutCell, self).reset()
        self.drop_inputs_mask = None
        self.drop_states_mask = None
        self.drop_outputs_mask = None

    def _initialize_input_masks(self, F, inputs, states):
        if self.drop_states and self.drop_states_mask is None:
            self.drop_states_mask = F.Dropout(F.ones_like(states[0]), p=self.drop_states)
        if self.drop_inputs and self.drop_inputs_mask is None:
            self.drop_inputs_mask = F.Dropout(F.ones_like(inputs), p=self.drop_inputs)

    def _initialize_output_mask(self, F, output):
        if self.drop_outputs and self.drop_outputs_mask is None:
            self.drop_outputs_mask = F.Dropout(F.ones_like(output), p=self.drop_outputs)

    def hybrid_forward(self, F, inputs, states):
        cell = self.base_cell
        self._initialize_input_masks(F, inputs, states)
        if self.drop_states:
            states = list(states)
            # Only the hidden state (the first one) is dropped, not an LSTM's cell state.
            states[0] = states[0] * self.drop_states_mask
        if self.drop_inputs:
            inputs = inputs * self.drop_inputs_mask
        next_output, next_states = cell(inputs, states)
        self._initialize_output_mask(F, next_output)
        if self.drop_outputs:
            next_output = next_output * self.drop_outputs_mask
        return next_output, next_states

    def __repr__(self):
        return "{name}(p_out = {drop_outputs}, p_state = {drop_states})".format(
            name=self.__class__.__name__, **self.__dict__)

    def unroll(self, length, inputs, begin_state=None, layout="NTC", merge_outputs=None,
               valid_length=None):
        # Without state dropout, the input and output masks can be applied to the whole
        # sequence at once (one mask shared along the time axis).
        if self.drop_states:
            return super(VariationalDropoutCell, self).unroll(
                length, inputs, begin_state, layout, merge_outputs, valid_length=valid_length)
        self.reset()
        inputs, axis, F, batch_size = _format_sequence(length, inputs, layout, True)
        states = _get_begin_state(self, F, begin_state, inputs, batch_size, layout)
        if self.drop_inputs:
            inputs = F.Dropout(inputs, p=self.drop_inputs, axes=(axis,))
        outputs, states = self.base_cell.unroll(length, inputs, states, layout,
                                                merge_outputs=True, valid_length=valid_length)
        if self.drop_outputs:
            outputs = F.Dropout(outputs, p=self.drop_outputs, axes=(axis,))
        merge_outputs = isinstance(outputs, tensor_types) if merge_outputs is None \
            else merge_outputs
        outputs, _, _, _ = _format_sequence(length, outputs, layout, merge_outputs)
        if valid_length is not None:
            outputs = _mask_sequence_variable_length(F, outputs, length, valid_length, axis,
                                                     merge_outputs)
        return outputs, states


class LSTMPCell(HybridRecurrentCell):
    """LSTM with a projection of the hidden state: r_t = h2r_weight . (o * tanh(c_t)) is the
    output and the recurrent input (states [r (batch, projection_size), c (batch, hidden)])."""

    def __init__(self, hidden_size, projection_size, i2h_weight_initializer=None,
                 h2h_weight_initializer=None, h2r_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 prefix=None, params=None):
        super(LSTMPCell, self).__init__(prefix=prefix, params=params)
        self._hidden_size = hidden_size
        self._input_size = input_size
        self._projection_size = projection_size
        self.i2h_weight = self.params.get("i2h_weight", shape=(4 * hidden_size, input_size),
                                          init=i2h_weight_initializer,
                                          allow_deferred_init=True)
        self.h2h_weight = self.params.get("h2h_weight",
                                          shape=(4 * hidden_size, projection_size),
                                          init=h2h_weight_initializer,
                                          allow_deferred_init=True)
        self.h2r_weight = self.params.get("h2r_weight", shape=(projection_size, hidden_size),
                                          init=h2r_weight_initializer,
                                          allow_deferred_init=True)
        self.i2h_bias = self.params.get("i2h_bias", shape=(4 * hidden_size,),
                                        init=i2h_bias_initializer, allow_deferred_init=True)
        self.h2h_bias = self.params.get("h2h_bias", shape=(4 * hidden_size,),
                                        init=h2h_bias_initializer, allow_deferred_init=True)

    def state_info(self, batch_size=0):
        return [{"shape": (batch_size, self._projection_size), "__layout__": "NC"},
                {"shape": (batch_size, self._hidden_size), "__layout__": "NC"}]

    def _alias(self):
        return "lstmp"

    def __repr__(self):
        shape = self.i2h_weight.shape
        proj_shape = self.h2r_weight.shape
        mapping = "{0} -> {1} -> {2}".format(shape[1] if shape[1] else None,
                                             shape[0], proj_shape[0])
        return "{name}({mapping})".format(name=self.__class__.__name__, mapping=mapping)

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, h2r_weight, i2h_bias,
                       h2h_bias):
        prefix = "t%d_" % self._counter
        i2h = F.FullyConnected(data=inputs, weight=i2h_weight, bias=i2h_bias,
                               num_hidden=self._hidden_size * 4, name=prefix + "i2h")
        h2h = F.FullyConnected(data=states[0], weight=h2h_weight, bias=h2h_bias,
                               num_hidden=self._hidden_size * 4, name=prefix + "h2h")
        gates = F.elemwise_add(i2h, h2h, name=prefix + "plus0")
        slice_gates = F.SliceChannel(gates, num_outputs=4, name=prefix + "slice")
        in_gate = F.sigmoid(slice_gates[0], name=prefix + "i")
        forget_gate = F.sigmoid(slice_gates[1], name=prefix + "f")
        in_transform = F.tanh(slice_gates[2], name=prefix + "c")
        out_gate = F.sigmoid(slice_gates[3], name=prefix + "o")
        next_c = F.elemwise_add(F.elemwise_mul(forget_gate, states[1], name=prefix + "mul0"),
                                F.elemwise_mul(in_gate, in_transform, name=prefix + "mul1"),
                                name=prefix + "state")
        hidden = F.elemwise_mul(out_gate, F.tanh(next_c), name=prefix + "hidden")
        next_r = F.FullyConnected(data=hidden, num_hidden=self._projection_size,
                                  weight=h2r_weight, no_bias=True, name=prefix + "out")
        return next_r, [next_r, next_c]


def dynamic_unroll(cell, inputs, begin_state, drop_inputs=0, drop_outputs=0, layout='TNC',
                   valid_length=None):
    """Runs `cell` over the whole sequence `inputs` (layout 'TNC' or 'NTC') with
    F.contrib.foreach. drop_inputs / drop_outputs are dropout rates applied with one mask per
    sequence (shared over time). With `valid_length` (one length per sample) the states stop
    changing after a sample's last step and its later outputs are zero.
    Returns (outputs in `layout`, final states)."""
    F = symbol if isinstance(inputs, symbol.Symbol) else ndarray
    if layout not in ('TNC', 'NTC'):
        raise ValueError("dynamic_unroll: layout must be 'TNC' or 'NTC', got %r" % layout)
    if layout == 'NTC':
        inputs = F.swapaxes(inputs, dim1=0, dim2=1)
    if drop_inputs:
        inputs = F.Dropout(inputs, p=drop_inputs, axes=(0,))
    if valid_length is None:
        def body(data, states):
            return cell(data, states)
        outputs, states = F.contrib.foreach(body, inputs, begin_state)
    else:
        # alive[t, n] = 1 while step t is within sample n's length.
        steps = F.contrib.arange_like(inputs, axis=0)
        alive = F.broadcast_lesser(F.reshape(steps, shape=(-1, 1)),
                                   F.reshape(valid_length, shape=(1, -1)))

        def body(data, states):
            out, new = cell(data[0], states)
            kept = []
            for n, p in zip(new, states):
                mask = F.reshape(data[1], shape=(-1,) + (1,) * (len(n.shape) - 1))
                kept.append(F.broadcast_mul(n - p, mask) + p)
            return out, kept
        outputs, states = F.contrib.foreach(body, [inputs, alive], list(begin_state))
        outputs = F.SequenceMask(outputs, sequence_length=valid_length,
                                 use_sequence_length=True, axis=0)
    if drop_outputs:
        outputs = F.Dropout(outputs, p=drop_outputs, axes=(0,))
    if layout == 'NTC':
        outputs = F.swapaxes(outputs, dim1=0, dim2=1)
    return outputs, states
