"""Convolutional cells of the legacy symbolic RNN API (mx.rnn.ConvRNNCell, ConvLSTMCell,
ConvGRUCell): the classic cells with convolutions in place of the fully connected products."""
import functools

from .. import symbol
from ..base import numeric_types
from .rnn_cell import BaseRNNCell

__all__ = ['BaseConvRNNCell', 'ConvRNNCell', 'ConvLSTMCell', 'ConvGRUCell']

_LEAKY = functools.partial(symbol.LeakyReLU, act_type='leaky', slope=0.2)


def _pair(value, what):
    value = (int(value),) * 2 if isinstance(value, numeric_types) else tuple(value)
    if len(value) != 2:
        raise ValueError('%s: expected 2 values, got %s' % (what, value))
    return value


class BaseConvRNNCell(BaseRNNCell):
    """Shared part of the convolutional cells. input_shape is the (batch, channels, height,
    width) shape of one step's input; the state has num_hidden channels and the spatial size
    of the input-to-state convolution's output."""
    _num_gates = 1

    def __init__(self, input_shape, num_hidden, h2h_kernel, h2h_dilate, i2h_kernel,
                 i2h_stride, i2h_pad, i2h_dilate, i2h_weight_initializer,
                 h2h_weight_initializer, i2h_bias_initializer, h2h_bias_initializer,
                 activation, prefix='', params=None, conv_layout='NCHW'):
        super(BaseConvRNNCell, self).__init__(prefix=prefix, params=params)
        if conv_layout != 'NCHW':
            raise ValueError("conv_layout: only 'NCHW' is supported, got %r" % conv_layout)
        self._h2h_kernel = _pair(h2h_kernel, 'h2h_kernel')
        if any(k % 2 == 0 for k in self._h2h_kernel):
            raise ValueError('h2h_kernel: only odd sizes keep the state shape, got %s'
                             % (self._h2h_kernel,))
        self._h2h_dilate = _pair(h2h_dilate, 'h2h_dilate')
        self._h2h_pad = tuple(d * (k - 1) // 2 for d, k in zip(self._h2h_dilate,
                                                               self._h2h_kernel))
        self._i2h_kernel = _pair(i2h_kernel, 'i2h_kernel')
        self._i2h_stride = _pair(i2h_stride, 'i2h_stride')
        self._i2h_pad = _pair(i2h_pad, 'i2h_pad')
        self._i2h_dilate = _pair(i2h_dilate, 'i2h_dilate')
        self._num_hidden = num_hidden
        self._input_shape = tuple(input_shape)
        self._conv_layout = conv_layout
        self._activation = activation
        spatial = [(size + 2 * p - d * (k - 1) - 1) // s + 1 for size, p, d, k, s in
                   zip(self._input_shape[2:], self._i2h_pad, self._i2h_dilate,
                       self._i2h_kernel, self._i2h_stride)]
        self._state_shape = (self._input_shape[0], num_hidden) + tuple(spatial)
        self._iW = self.params.get('i2h_weight', init=i2h_weight_initializer)
        self._hW = self.params.get('h2h_weight', init=h2h_weight_initializer)
        self._iB = self.params.get('i2h_bias', init=i2h_bias_initializer)
        self._hB = self.params.get('h2h_bias', init=h2h_bias_initializer)

    @property
    def state_info(self):
        return [{'shape': self._state_shape, '__layout__': self._conv_layout}
                for _ in range(2 if self._num_gates == 4 else 1)]

    def _conv_forward(self, inputs, states, name):
        filters = self._num_hidden * self._num_gates
        i2h = symbol.Convolution(name='%si2h' % name, data=inputs, num_filter=filters,
                                 kernel=self._i2h_kernel, stride=self._i2h_stride,
                                 pad=self._i2h_pad, dilate=self._i2h_dilate,
                                 weight=self._iW, bias=self._iB)
        h2h = symbol.Convolution(name='%sh2h' % name, data=states[0], num_filter=filters,
                                 kernel=self._h2h_kernel, dilate=self._h2h_dilate,
                                 pad=self._h2h_pad, stride=(1, 1), weight=self._hW,
                                 bias=self._hB)
        return i2h, h2h

    def __call__(self, inputs, states):
        raise NotImplementedError()


def _defaults(kwargs, prefix):
    kwargs.setdefault('h2h_kernel', (3, 3))
    kwargs.setdefault('h2h_dilate', (1, 1))
    kwargs.setdefault('i2h_kernel', (3, 3))
    kwargs.setdefault('i2h_stride', (1, 1))
    kwargs.setdefault('i2h_pad', (1, 1))
    kwargs.setdefault('i2h_dilate', (1, 1))
    kwargs.setdefault('i2h_weight_initializer', None)
    kwargs.setdefault('h2h_weight_initializer', None)
    kwargs.setdefault('i2h_bias_initializer', 'zeros')
    kwargs.setdefault('h2h_bias_initializer', 'zeros')
    kwargs.setdefault('activation', _LEAKY)
    kwargs.setdefault('prefix', prefix)
    return kwargs


class ConvRNNCell(BaseConvRNNCell):
    """Convolutional Elman cell: h' = activation(conv(x) + conv(h)); the activation defaults
    to a leaky ReLU of slope 0.2."""

    def __init__(self, input_shape, num_hidden, **kwargs):
        super(ConvRNNCell, self).__init__(input_shape, num_hidden,
                                          **_defaults(kwargs, 'ConvRNN_'))

    @property
    def _gate_names(self):
        return ('',)

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        i2h, h2h = self._conv_forward(inputs, states, name)
        output = self._get_activation(i2h + h2h, self._activation, name='%sout' % name)
        return output, [output]


class ConvLSTMCell(BaseConvRNNCell):
    """Convolutional LSTM cell (Shi et al., 2015), gates (i, f, c, o) stacked in the
    weights."""
    _num_gates = 4

    def __init__(self, input_shape, num_hidden, **kwargs):
        super(ConvLSTMCell, self).__init__(input_shape, num_hidden,
                                           **_defaults(kwargs, 'ConvLSTM_'))

    @property
    def _gate_names(self):
        return ['_i', '_f', '_c', '_o']

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        i2h, h2h = self._conv_forward(inputs, states, name)
        gates = symbol.SliceChannel(i2h + h2h, num_outputs=4, axis=1, name='%sslice' % name)
        in_gate = symbol.Activation(gates[0], act_type='sigmoid', name='%si' % name)
        forget_gate = symbol.Activation(gates[1], act_type='sigmoid', name='%sf' % name)
        in_transform = self._get_activation(gates[2], self._activation, name='%sc' % name)
        out_gate = symbol.Activation(gates[3], act_type='sigmoid', name='%so' % name)
        next_c = symbol.elemwise_add(forget_gate * states[1], in_gate * in_transform,
                                     name='%sstate' % name)
        next_h = symbol.elemwise_mul(out_gate, self._get_activation(next_c, self._activation),
                                     name='%sout' % name)
        return next_h, [next_h, next_c]


class ConvGRUCell(BaseConvRNNCell):
    """Convolutional GRU cell, gates (r, z, o) stacked in the weights."""
    _num_gates = 3

    def __init__(self, input_shape, num_hidden, **kwargs):
        super(ConvGRUCell, self).__init__(input_shape, num_hidden,
                                          **_defaults(kwargs, 'ConvGRU_'))

    @property
    def _gate_names(self):
        return ['_r', '_z', '_o']

    def __call__(self, inputs, states):
        self._counter += 1
        name = '%st%d_' % (self._prefix, self._counter)
        i2h, h2h = self._conv_forward(inputs, states, name)
        i2h_r, i2h_z, i2h = symbol.SliceChannel(i2h, num_outputs=3, axis=1,
                                                name='%si2h_slice' % name)
        h2h_r, h2h_z, h2h = symbol.SliceChannel(h2h, num_outputs=3, axis=1,
                                                name='%sh2h_slice' % name)
        reset_gate = symbol.Activation(i2h_r + h2h_r, act_type='sigmoid', name='%sr_act' % name)
        update_gate = symbol.Activation(i2h_z + h2h_z, act_type='sigmoid',
                                        name='%sz_act' % name)
        candidate = self._get_activation(i2h + reset_gate * h2h, self._activation,
                                         name='%sh_act' % name)
        next_h = symbol.elemwise_add(update_gate * states[0], (1.0 - update_gate) * candidate,
                                     name='%sout' % name)
        return next_h, [next_h]
