"""Convolutional recurrent cells (Shi et al., "Convolutional LSTM Network", 2015): the RNN,
LSTM and GRU cells with the input-to-state and state-to-state products replaced by
convolutions, for 1-D, 2-D and 3-D inputs in channel-first layouts (NCW, NCHW, NCDHW)."""
from math import floor  # noqa: F401  (MXNet 1.9.1's module exposes it)

from ....base import numeric_types
from ...rnn.rnn_cell import HybridRecurrentCell

__all__ = ['Conv1DRNNCell', 'Conv2DRNNCell', 'Conv3DRNNCell',
           'Conv1DLSTMCell', 'Conv2DLSTMCell', 'Conv3DLSTMCell',
           'Conv1DGRUCell', 'Conv2DGRUCell', 'Conv3DGRUCell']

_LAYOUTS = {1: 'NCW', 2: 'NCHW', 3: 'NCDHW'}


def _tuple(value, dims, what):
    if isinstance(value, numeric_types):
        return (int(value),) * dims
    value = tuple(int(v) for v in value)
    if len(value) != dims:
        raise ValueError('%s: expected %d values, got %s' % (what, dims, value))
    return value


class _BaseConvRNNCell(HybridRecurrentCell):
    """The shared part: parameters, state shapes and the two convolutions of a step."""
    _num_gates = 1

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad,
                 i2h_dilate, h2h_dilate, i2h_weight_initializer, h2h_weight_initializer,
                 i2h_bias_initializer, h2h_bias_initializer, dims, conv_layout, activation,
                 prefix=None, params=None):
        super(_BaseConvRNNCell, self).__init__(prefix=prefix, params=params)
        if conv_layout != _LAYOUTS[dims]:
            raise ValueError('Conv%dD cells: expected conv_layout %r (channels first), got %r'
                             % (dims, _LAYOUTS[dims], conv_layout))
        self._input_shape = tuple(input_shape)
        if len(self._input_shape) != dims + 1:
            raise ValueError('input_shape: expected (channels,) + %d spatial sizes, got %s'
                             % (dims, self._input_shape))
        self._hidden_channels = hidden_channels
        self._i2h_kernel = _tuple(i2h_kernel, dims, 'i2h_kernel')
        self._h2h_kernel = _tuple(h2h_kernel, dims, 'h2h_kernel')
        if any(k % 2 == 0 for k in self._h2h_kernel):
            raise ValueError('h2h_kernel: only odd sizes keep the state shape, got %s'
                             % (self._h2h_kernel,))
        self._i2h_pad = _tuple(i2h_pad, dims, 'i2h_pad')
        self._i2h_dilate = _tuple(i2h_dilate, dims, 'i2h_dilate')
        self._h2h_dilate = _tuple(h2h_dilate, dims, 'h2h_dilate')
        # 'same' padding of the state-to-state convolution.
        self._h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate,
                                                               self._h2h_kernel))
        self._conv_layout = conv_layout
        self._activation = activation
        in_channels = self._input_shape[0]
        spatial = [size + 2 * p - d * (k - 1) for size, p, d, k in
                   zip(self._input_shape[1:], self._i2h_pad, self._i2h_dilate,
                       self._i2h_kernel)]
        self._state_shape = (hidden_channels,) + tuple(spatial)
        filters = hidden_channels * self._num_gates
        self.i2h_weight = self.params.get('i2h_weight',
                                          shape=(filters, in_channels) + self._i2h_kernel,
                                          init=i2h_weight_initializer)
        self.h2h_weight = self.params.get('h2h_weight',
                                          shape=(filters, hidden_channels) + self._h2h_kernel,
                                          init=h2h_weight_initializer)
        self.i2h_bias = self.params.get('i2h_bias', shape=(filters,), init=i2h_bias_initializer)
        self.h2h_bias = self.params.get('h2h_bias', shape=(filters,), init=h2h_bias_initializer)

    def state_info(self, batch_size=0):
        return [{'shape': (batch_size,) + self._state_shape, '__layout__': self._conv_layout}]

    def __repr__(self):
        return '{name}({inp} -> {state}, i2h_kernel={ik}, h2h_kernel={hk})'.format(
            name=self.__class__.__name__, inp=self._input_shape, state=self._state_shape,
            ik=self._i2h_kernel, hk=self._h2h_kernel)

    def _conv_forward(self, F, inputs, state, i2h_weight, h2h_weight, i2h_bias, h2h_bias,
                      prefix):
        filters = self._hidden_channels * self._num_gates
        i2h = F.Convolution(data=inputs, weight=i2h_weight, bias=i2h_bias,
                            kernel=self._i2h_kernel, pad=self._i2h_pad,
                            dilate=self._i2h_dilate, num_filter=filters, name=prefix + 'i2h')
        h2h = F.Convolution(data=state, weight=h2h_weight, bias=h2h_bias,
                            kernel=self._h2h_kernel, pad=self._h2h_pad,
                            dilate=self._h2h_dilate, num_filter=filters, name=prefix + 'h2h')
        return i2h, h2h


class _ConvRNNCell(_BaseConvRNNCell):
    def _alias(self):
        return 'conv_rnn'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        output = self._get_activation(F, i2h + h2h, self._activation, name=prefix + 'out')
        return output, [output]


class _ConvLSTMCell(_BaseConvRNNCell):
    _num_gates = 4

    def state_info(self, batch_size=0):
        info = {'shape': (batch_size,) + self._state_shape, '__layout__': self._conv_layout}
        return [info, dict(info)]

    def _alias(self):
        return 'conv_lstm'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        gates = F.SliceChannel(i2h + h2h, num_outputs=4, axis=1, name=prefix + 'slice')
        in_gate = F.sigmoid(gates[0], name=prefix + 'i')
        forget_gate = F.sigmoid(gates[1], name=prefix + 'f')
        in_transform = self._get_activation(F, gates[2], self._activation, name=prefix + 'c')
        out_gate = F.sigmoid(gates[3], name=prefix + 'o')
        next_c = forget_gate * states[1] + in_gate * in_transform
        next_h = out_gate * self._get_activation(F, next_c, self._activation)
        return next_h, [next_h, next_c]


class _ConvGRUCell(_BaseConvRNNCell):
    _num_gates = 3

    def _alias(self):
        return 'conv_gru'

    def hybrid_forward(self, F, inputs, states, i2h_weight, h2h_weight, i2h_bias, h2h_bias):
        prefix = 't%d_' % self._counter
        i2h, h2h = self._conv_forward(F, inputs, states[0], i2h_weight, h2h_weight, i2h_bias,
                                      h2h_bias, prefix)
        i2h_r, i2h_z, i2h = F.SliceChannel(i2h, num_outputs=3, axis=1, name=prefix + 'i2h_slice')
        h2h_r, h2h_z, h2h = F.SliceChannel(h2h, num_outputs=3, axis=1, name=prefix + 'h2h_slice')
        reset_gate = F.sigmoid(i2h_r + h2h_r, name=prefix + 'r')
        update_gate = F.sigmoid(i2h_z + h2h_z, name=prefix + 'z')
        candidate = self._get_activation(F, i2h + reset_gate * h2h, self._activation,
                                         name=prefix + 'h')
        next_h = (1.0 - update_gate) * candidate + update_gate * states[0]
        return next_h, [next_h]


def _define(name, base, dims, kind):
    """The public class `name`: `base` with MXNet 1.9.1's constructor for `dims` dimensions."""
    default_pad = (0,) * dims
    default_dilate = (1,) * dims
    layout = _LAYOUTS[dims]

    def __init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel,
                 i2h_pad=default_pad, i2h_dilate=default_dilate, h2h_dilate=default_dilate,
                 i2h_weight_initializer=None, h2h_weight_initializer=None,
                 i2h_bias_initializer='zeros', h2h_bias_initializer='zeros',
                 conv_layout=layout, activation='tanh', prefix=None, params=None):
        base.__init__(self, input_shape, hidden_channels, i2h_kernel, h2h_kernel, i2h_pad,
                      i2h_dilate, h2h_dilate, i2h_weight_initializer, h2h_weight_initializer,
                      i2h_bias_initializer, h2h_bias_initializer, dims, conv_layout,
                      activation, prefix=prefix, params=params)

    doc = ('%dD convolutional %s cell. input_shape is (channels,) + the %d spatial sizes of one '
           'input (%s layout without the batch axis); the state has hidden_channels channels '
           'and the spatial size of the input-to-state convolution\'s output (h2h_kernel must '
           'be odd: that convolution is padded to keep it).' % (dims, kind, dims, layout))
    return type(name, (base,), {'__init__': __init__, '__doc__': doc, '__module__': __name__})


Conv1DRNNCell = _define('Conv1DRNNCell', _ConvRNNCell, 1, 'RNN')
Conv2DRNNCell = _define('Conv2DRNNCell', _ConvRNNCell, 2, 'RNN')
Conv3DRNNCell = _define('Conv3DRNNCell', _ConvRNNCell, 3, 'RNN')
Conv1DLSTMCell = _define('Conv1DLSTMCell', _ConvLSTMCell, 1, 'LSTM')
Conv2DLSTMCell = _define('Conv2DLSTMCell', _ConvLSTMCell, 2, 'LSTM')
Conv3DLSTMCell = _define('Conv3DLSTMCell', _ConvLSTMCell, 3, 'LSTM')
Conv1DGRUCell = _define('Conv1DGRUCell', _ConvGRUCell, 1, 'GRU')
Conv2DGRUCell = _define('Conv2DGRUCell', _ConvGRUCell, 2, 'GRU')
Conv3DGRUCell = _define('Conv3DGRUCell', _ConvGRUCell, 3, 'GRU')
