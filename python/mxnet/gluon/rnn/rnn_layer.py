"""Multi-layer (optionally bidirectional) RNN, LSTM and GRU layers.

As in MXNet 1.9.1, the layers run the fused `RNN` operator: the per-layer parameters are
flattened and packed with `_rnn_param_concat` (all weights, then all biases, layer by layer,
direction by direction, i2h before h2h) into its flat parameter vector. Parameter names,
shapes, gate orders, dropout placement (between layers, training only) and state layouts are
those of 1.9.1, so results and saved parameters are interchangeable.

LSTM with a projection (LSTMP, projection_size) runs the fused operator where it has a kernel
for it, on a GPU with cuDNN (as 1.9.1, which ran it nowhere else), for inputs on such a GPU
when cuDNN covers the call (no dropout between layers, no lstm_state_clip_nan,
MXNET_RNN_CUDNN not 0). Elsewhere it unrolls the same recurrence over time with
FullyConnected and element-wise operators, so its graph depends on the sequence length (a
hybridized layer rebuilds its graph when the length or the choice changes).
"""
import os

from ... import ndarray
from ... import runtime
from ... import symbol
from ..block import HybridBlock
from ._sequence import _as_list, _known_shape, _np_states
from ._sequence import tensor_types  # noqa: F401  (MXNet 1.9.1's module exposes it)

__all__ = ["RNN", "LSTM", "GRU"]

_GATES = {"rnn_relu": 1, "rnn_tanh": 1, "lstm": 4, "gru": 3}
_CUDNN = []  # whether the library was built with cuDNN, once known


def _built_with_cudnn():
    if not _CUDNN:
        _CUDNN.append(runtime.Features().is_enabled("CUDNN"))
    return _CUDNN[0]


class _RNNLayer(HybridBlock):
    """Implementation of RNN, LSTM and GRU (see their docs)."""

    def __init__(self, hidden_size, num_layers, layout, dropout, bidirectional, input_size,
                 i2h_weight_initializer, h2h_weight_initializer, i2h_bias_initializer,
                 h2h_bias_initializer, mode, projection_size, h2r_weight_initializer,
                 lstm_state_clip_min, lstm_state_clip_max, lstm_state_clip_nan, dtype,
                 use_sequence_length=False, **kwargs):
        super(_RNNLayer, self).__init__(**kwargs)
        if layout not in ("TNC", "NTC"):
            raise ValueError("Invalid layout %s; must be one of ['TNC' or 'NTC']" % layout)
        if use_sequence_length and projection_size:
            raise NotImplementedError("%s: use_sequence_length is not supported together with "
                                      "projection_size" % self.__class__.__name__)
        self._hidden_size = hidden_size
        self._projection_size = projection_size
        self._num_layers = num_layers
        self._mode = mode
        self._layout = layout
        self._dropout = dropout
        self._dir = 2 if bidirectional else 1
        self._input_size = input_size
        self._i2h_weight_initializer = i2h_weight_initializer
        self._h2h_weight_initializer = h2h_weight_initializer
        self._i2h_bias_initializer = i2h_bias_initializer
        self._h2h_bias_initializer = h2h_bias_initializer
        self._lstm_state_clip_min = lstm_state_clip_min
        self._lstm_state_clip_max = lstm_state_clip_max
        self._lstm_state_clip_nan = lstm_state_clip_nan
        self._dtype = dtype
        self._use_sequence_length = use_sequence_length
        self._gates = _GATES[mode]
        self._seq_len = None
        self._fused_projection = False  # LSTMP on the fused operator (module docstring)
        self.skip_states = None

        ng, ni, nh = self._gates, input_size, hidden_size
        # With a projection (LSTMP) the recurrent state and the layer output have
        # projection_size features: r = h2r_weight . h.
        nr = projection_size if projection_size else nh
        for i in range(num_layers):
            for j in ["l", "r"][:self._dir]:
                self._register_param("{}{}_i2h_weight".format(j, i), shape=(ng * nh, ni),
                                     init=i2h_weight_initializer, dtype=dtype)
                self._register_param("{}{}_h2h_weight".format(j, i), shape=(ng * nh, nr),
                                     init=h2h_weight_initializer, dtype=dtype)
                self._register_param("{}{}_i2h_bias".format(j, i), shape=(ng * nh,),
                                     init=i2h_bias_initializer, dtype=dtype)
                self._register_param("{}{}_h2h_bias".format(j, i), shape=(ng * nh,),
                                     init=h2h_bias_initializer, dtype=dtype)
                if projection_size:
                    self._register_param("{}{}_h2r_weight".format(j, i), shape=(nr, nh),
                                         init=h2r_weight_initializer, dtype=dtype)
            ni = nr * self._dir

    def _register_param(self, name, shape, init, dtype):
        p = self.params.get(name, shape=shape, init=init, allow_deferred_init=True, dtype=dtype)
        setattr(self, name, p)
        return p

    def __repr__(self):
        s = "{name}({mapping}, {_layout}"
        if self._num_layers != 1:
            s += ", num_layers={_num_layers}"
        if self._dropout != 0:
            s += ", dropout={_dropout}"
        if self._dir == 2:
            s += ", bidirectional"
        s += ")"
        shape = self.l0_i2h_weight.shape
        mapping = "{0} -> {1}".format(shape[1] if shape[1] else None, shape[0] // self._gates)
        return s.format(name=self.__class__.__name__, mapping=mapping, **self.__dict__)

    def _collect_params_with_prefix(self, prefix=""):
        """Keys as MXNet 1.9.1 writes them with save_parameters: the parameters of layer i
        are addressed through its equivalent unfused cells, '_unfused.<i>.<part>' (or
        '_unfused.<i>.l_cell.<part>' / 'r_cell' when bidirectional)."""
        if prefix:
            prefix += "."
        ret = {}
        for key, val in self._reg_params.items():
            direction, rest = key[0], key[1:]
            layer, part = rest.split("_", 1)
            cell = "" if self._dir == 1 else ("l_cell." if direction == "l" else "r_cell.")
            ret["%s_unfused.%s.%s%s" % (prefix, layer, cell, part)] = val
        return ret

    def cast(self, dtype):
        """Casts the parameters; begin_state then makes states of the new type too (as in
        1.9.1, where GluonNLP's models cast to float64/float16 rely on it)."""
        super(_RNNLayer, self).cast(dtype)
        self._dtype = dtype

    def state_info(self, batch_size=0):
        raise NotImplementedError

    def begin_state(self, batch_size=0, func=ndarray.zeros, **kwargs):
        """Initial states (zeros by default), each of shape
        (num_layers * num_directions, batch_size, hidden_size)."""
        states = []
        for i, info in enumerate(self.state_info(batch_size)):
            if info is not None:
                info = dict(info)
                info.update(kwargs)
            else:
                info = kwargs
            states.append(func(name="%sh0_%d" % (self.prefix, i), **info))
        return _np_states(states)

    def infer_shape(self, inputs, *args):
        """Deferred parameter shapes from the input's feature size (as 1.9.1)."""
        if inputs.ndim != 3:
            raise ValueError("%s: input must have 3 dimensions (layout %s), got shape %s"
                             % (self.name, self._layout, inputs.shape))
        step = self._projection_size if self._projection_size else self._hidden_size
        ni = inputs.shape[2]
        for i in range(self._num_layers):
            for j in ["l", "r"][:self._dir]:
                getattr(self, "{}{}_i2h_weight".format(j, i)).shape = \
                    (self._gates * self._hidden_size, ni)
            ni = step * self._dir

    def __call__(self, inputs, states=None, sequence_length=None, **kwargs):
        if self.skip_states is not None and self.skip_states != (states is None):
            self._clear_cached_op()  # the cached graph returns states only when given them
        self.skip_states = states is None
        if self._use_sequence_length and sequence_length is None:
            raise ValueError("%s: use_sequence_length=True needs the sequence_length argument"
                             % self.name)
        time_axis = self._layout.find("T")
        shape = None
        if self._projection_size:
            fused = self._projection_runs_fused(inputs)
            if fused != self._fused_projection:
                self._fused_projection = fused
                self._clear_cached_op()
        if self._projection_size and not self._fused_projection:
            # The unrolled LSTMP graph needs the sequence length.
            if isinstance(inputs, ndarray.NDArray):
                length = inputs.shape[time_axis]
            else:
                shape = _known_shape(inputs)
                length = shape[time_axis] if shape is not None and len(shape) == 3 else None
                if length is None:
                    raise ValueError(
                        "%s: the sequence length of the symbolic input is unknown. LSTM with "
                        "projection_size unrolls over time and needs the length; give the "
                        "input variable a shape or call the layer with NDArrays." % self.name)
            if length != self._seq_len:
                self._seq_len = length
                self._clear_cached_op()
        if states is None:
            if isinstance(inputs, ndarray.NDArray):
                batch_size = inputs.shape[self._layout.find("N")]
                states = self.begin_state(batch_size, ctx=inputs.context, dtype=inputs.dtype)
            else:
                states = self._symbolic_zero_states(inputs, shape)
        if isinstance(states, (ndarray.NDArray, symbol.Symbol)):
            states = [states]
        if self._use_sequence_length:
            return super(_RNNLayer, self).__call__(inputs, states, sequence_length, **kwargs)
        return super(_RNNLayer, self).__call__(inputs, states, **kwargs)

    def _projection_runs_fused(self, inputs):
        """Whether the fused operator runs LSTMP for these inputs: on a GPU, where cuDNN
        takes the call (the rules of src/operator/nn/cudnn/cudnn_rnn.h)."""
        if not isinstance(inputs, ndarray.NDArray) or inputs.context.device_type != "gpu":
            return False
        if self._dropout and self._num_layers > 1:
            return False
        clipped = self._lstm_state_clip_min is not None or self._lstm_state_clip_max is not None
        if clipped and self._lstm_state_clip_nan:
            return False
        if os.environ.get("MXNET_RNN_CUDNN") == "0":
            return False
        return _built_with_cudnn()

    def _symbolic_zero_states(self, inputs, shape):
        """Zero begin states for a symbolic input. With the batch size known they are plain
        zeros; otherwise they are derived from the input (zeros_like of one time step, reduced
        and tiled to (layers*dirs, N, size)), so no shape is needed."""
        if shape is None:
            shape = _known_shape(inputs)
        if shape is not None and len(shape) == 3:
            return self.begin_state(shape[self._layout.find("N")], func=symbol.zeros)
        step = symbol.zeros_like(symbol.slice_axis(inputs, axis=self._layout.find("T"),
                                                   begin=0, end=1))
        if self._layout == "NTC":
            step = symbol.swapaxes(step, dim1=0, dim2=1)
        step = symbol.sum(step, axis=2, keepdims=True)  # (1, N, 1) zeros
        states = []
        for info in self.state_info(0):
            states.append(symbol.tile(step, reps=(info["shape"][0], 1, info["shape"][2])))
        return states

    def hybrid_forward(self, F, inputs, states, sequence_length=None, **kwargs):
        if F is ndarray:
            batch_size = inputs.shape[self._layout.find("N")]
            for state, info in zip(states, self.state_info(batch_size)):
                if state.shape != info["shape"]:
                    raise ValueError("Invalid recurrent state shape. Expecting %s, got %s."
                                     % (str(info["shape"]), str(state.shape)))
            if inputs.ndim != 3:
                raise ValueError("%s: input must have 3 dimensions (layout %s), got shape %s"
                                 % (self.name, self._layout, inputs.shape))
        if self._projection_size and not self._fused_projection:
            out = self._unrolled_kernel(F, inputs, states, **kwargs)
        else:
            out = self._fused_kernel(F, inputs, states, sequence_length, **kwargs)
        return out[0] if self.skip_states else out

    def _fused_kernel(self, F, inputs, states, sequence_length, **kwargs):
        """The fused RNN operator over the (T, N, C) sequence."""
        if self._layout == "NTC":
            inputs = F.swapaxes(inputs, dim1=0, dim2=1)
        params = [F.reshape(kwargs["{}{}_{}_{}".format(d, l, g, t)], shape=(-1,))
                  for t in ["weight", "bias"]
                  for l in range(self._num_layers)
                  for d in ["l", "r"][:self._dir]
                  for g in ["i2h", "h2h", "h2r"]
                  if g != "h2r" or (t == "weight" and self._projection_size)]
        params = F._internal._rnn_param_concat(*params, dim=0, num_args=len(params))
        if self._projection_size:
            kwargs_proj = dict(projection_size=self._projection_size)
        else:
            kwargs_proj = {}
        # Inputs by name: the optional ones (state_cell, sequence_length) depend on the mode.
        inputs_by_name = dict(data=inputs, parameters=params, state=states[0])
        if self._mode == "lstm":
            inputs_by_name["state_cell"] = states[1]
        if self._use_sequence_length:
            inputs_by_name["sequence_length"] = sequence_length
        rnn = F.RNN(use_sequence_length=self._use_sequence_length,
                    state_size=self._hidden_size, num_layers=self._num_layers,
                    bidirectional=self._dir == 2, p=self._dropout, state_outputs=True,
                    mode=self._mode, lstm_state_clip_min=self._lstm_state_clip_min,
                    lstm_state_clip_max=self._lstm_state_clip_max,
                    lstm_state_clip_nan=self._lstm_state_clip_nan, **kwargs_proj,
                    **inputs_by_name)
        if self._mode == "lstm":
            outputs, states = rnn[0], [rnn[1], rnn[2]]
        else:
            outputs, states = rnn[0], [rnn[1]]
        if self._layout == "NTC":
            outputs = F.swapaxes(outputs, dim1=0, dim2=1)
        return outputs, states

    def _cell_step(self, F, i2h, h2h, h, c):
        """One time step of one direction of one layer; returns (new h, new c)."""
        if self._mode in ("rnn_relu", "rnn_tanh"):
            act = F.relu if self._mode == "rnn_relu" else F.tanh
            return act(F.elemwise_add(i2h, h2h)), None
        if self._mode == "lstm":
            gates = F.elemwise_add(i2h, h2h)
            g_i, g_f, g_c, g_o = F.SliceChannel(gates, num_outputs=4)
            next_c = F.elemwise_add(F.elemwise_mul(F.sigmoid(g_f), c),
                                    F.elemwise_mul(F.sigmoid(g_i), F.tanh(g_c)))
            if self._lstm_state_clip_min is not None or self._lstm_state_clip_max is not None:
                lo = self._lstm_state_clip_min
                hi = self._lstm_state_clip_max
                next_c = F.clip(next_c, a_min=lo if lo is not None else -3.4e38,
                                a_max=hi if hi is not None else 3.4e38)
            next_h = F.elemwise_mul(F.sigmoid(g_o), F.tanh(next_c))
            return next_h, next_c
        i2h_r, i2h_z, i2h_n = F.SliceChannel(i2h, num_outputs=3)
        h2h_r, h2h_z, h2h_n = F.SliceChannel(h2h, num_outputs=3)
        reset_gate = F.sigmoid(F.elemwise_add(i2h_r, h2h_r))
        update_gate = F.sigmoid(F.elemwise_add(i2h_z, h2h_z))
        candidate = F.tanh(F.elemwise_add(i2h_n, F.elemwise_mul(reset_gate, h2h_n)))
        next_h = F.elemwise_add(
            F.elemwise_mul(F.elemwise_sub(F.ones_like(update_gate), update_gate), candidate),
            F.elemwise_mul(update_gate, h))
        return next_h, None

    def _unrolled_kernel(self, F, inputs, states, **kwargs):
        """LSTMP: runs all layers and directions over the (T, N, C) sequence step by step."""
        if self._layout == "NTC":
            inputs = F.swapaxes(inputs, dim1=0, dim2=1)
        length = self._seq_len
        ng, nh, ndir = self._gates, self._hidden_size, self._dir
        num_slots = self._num_layers * ndir
        h_init = _as_list(F.split(states[0], num_outputs=num_slots, axis=0, squeeze_axis=True))
        c_init = (_as_list(F.split(states[1], num_outputs=num_slots, axis=0,
                                   squeeze_axis=True))
                  if self._mode == "lstm" else [None] * num_slots)
        layer_in = inputs
        last_h, last_c = [], []
        for layer in range(self._num_layers):
            dir_outputs = []
            for d, tag in enumerate(["l", "r"][:ndir]):
                key = "{}{}_".format(tag, layer)
                # Input projections of all steps at once; only h2h depends on the previous step.
                i2h_all = F.FullyConnected(layer_in, kwargs[key + "i2h_weight"],
                                           kwargs[key + "i2h_bias"], num_hidden=ng * nh,
                                           flatten=False)
                i2h_steps = _as_list(F.split(i2h_all, num_outputs=length, axis=0,
                                             squeeze_axis=True))
                h, c = h_init[layer * ndir + d], c_init[layer * ndir + d]
                step_outputs = [None] * length
                order = range(length) if tag == "l" else reversed(range(length))
                for t in order:
                    h2h = F.FullyConnected(h, kwargs[key + "h2h_weight"],
                                           kwargs[key + "h2h_bias"], num_hidden=ng * nh)
                    h, c = self._cell_step(F, i2h_steps[t], h2h, h, c)
                    if self._projection_size:
                        h = F.FullyConnected(h, kwargs[key + "h2r_weight"], no_bias=True,
                                             num_hidden=self._projection_size)
                    step_outputs[t] = h
                last_h.append(h)
                last_c.append(c)
                dir_outputs.append(F.stack(*step_outputs, axis=0))
            layer_in = dir_outputs[0] if ndir == 1 else F.concat(*dir_outputs, dim=2)
            if self._dropout and layer < self._num_layers - 1:
                layer_in = F.Dropout(layer_in, p=self._dropout)
        outputs = layer_in
        new_states = [F.stack(*last_h, axis=0)]
        if self._mode == "lstm":
            new_states.append(F.stack(*last_c, axis=0))
        if self._layout == "NTC":
            outputs = F.swapaxes(outputs, dim1=0, dim2=1)
        return outputs, new_states


class RNN(_RNNLayer):
    """Multi-layer Elman RNN with tanh or relu: h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh).

    Inputs: data (layout 'TNC' or 'NTC'), optional states [(num_layers*dirs, N, hidden)].
    Returns out (T, N, dirs*hidden in the layout), plus the new states when states were given.
    """

    def __init__(self, hidden_size, num_layers=1, activation="relu", layout="TNC", dropout=0,
                 bidirectional=False, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", input_size=0,
                 dtype="float32", **kwargs):
        if activation not in ("relu", "tanh"):
            raise ValueError("RNN: activation must be 'relu' or 'tanh', got %r" % activation)
        super(RNN, self).__init__(hidden_size, num_layers, layout, dropout, bidirectional,
                                  input_size, i2h_weight_initializer, h2h_weight_initializer,
                                  i2h_bias_initializer, h2h_bias_initializer,
                                  "rnn_" + activation, None, None, None, None, False, dtype,
                                  **kwargs)

    def state_info(self, batch_size=0):
        return [{"shape": (self._num_layers * self._dir, batch_size, self._hidden_size),
                 "__layout__": "LNC", "dtype": self._dtype}]


class LSTM(_RNNLayer):
    """Multi-layer LSTM (gates i, f, c, o). States: [h, c], each
    (num_layers*dirs, N, hidden); with projection_size (LSTMP) h and the outputs have
    projection_size features.

    state_clip_min/max clip the cell state as documented for 1.9.1 (its CPU kernel ignores
    them; only its cuDNN path clips)."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False,
                 input_size=0, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros",
                 projection_size=None, h2r_weight_initializer=None, state_clip_min=None,
                 state_clip_max=None, state_clip_nan=False, dtype="float32", **kwargs):
        super(LSTM, self).__init__(hidden_size, num_layers, layout, dropout, bidirectional,
                                   input_size, i2h_weight_initializer, h2h_weight_initializer,
                                   i2h_bias_initializer, h2h_bias_initializer, "lstm",
                                   projection_size, h2r_weight_initializer, state_clip_min,
                                   state_clip_max, state_clip_nan, dtype, **kwargs)

    def state_info(self, batch_size=0):
        h_size = self._projection_size if self._projection_size else self._hidden_size
        return [{"shape": (self._num_layers * self._dir, batch_size, h_size),
                 "__layout__": "LNC", "dtype": self._dtype},
                {"shape": (self._num_layers * self._dir, batch_size, self._hidden_size),
                 "__layout__": "LNC", "dtype": self._dtype}]


class GRU(_RNNLayer):
    """Multi-layer GRU (gates r, z, n; n = tanh(W_in x + b_in + r * (W_hn h + b_hn)))."""

    def __init__(self, hidden_size, num_layers=1, layout="TNC", dropout=0, bidirectional=False,
                 input_size=0, i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer="zeros", h2h_bias_initializer="zeros", dtype="float32",
                 **kwargs):
        super(GRU, self).__init__(hidden_size, num_layers, layout, dropout, bidirectional,
                                  input_size, i2h_weight_initializer, h2h_weight_initializer,
                                  i2h_bias_initializer, h2h_bias_initializer, "gru", None, None,
                                  None, None, False, dtype, **kwargs)

    def state_info(self, batch_size=0):
        return [{"shape": (self._num_layers * self._dir, batch_size, self._hidden_size),
                 "__layout__": "LNC", "dtype": self._dtype}]
