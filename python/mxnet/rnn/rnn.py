"""Checkpoints of RNN models: fused cell weights are stored unpacked (one array per gate)."""
import warnings

from .. import symbol
from ..model import load_checkpoint, save_checkpoint
from .rnn_cell import BaseRNNCell


def _as_cells(cells):
    return [cells] if isinstance(cells, BaseRNNCell) else cells


def save_rnn_checkpoint(cells, prefix, epoch, symbol, arg_params, aux_params):
    """save_checkpoint with every cell's weights unpacked first."""
    for cell in _as_cells(cells):
        arg_params = cell.unpack_weights(arg_params)
    save_checkpoint(prefix, epoch, symbol, arg_params, aux_params)


def load_rnn_checkpoint(cells, prefix, epoch):
    """load_checkpoint with every cell's weights packed again.
    Returns ``(symbol, arg_params, aux_params)``."""
    sym, arg, aux = load_checkpoint(prefix, epoch)
    for cell in _as_cells(cells):
        arg = cell.pack_weights(arg)
    return sym, arg, aux


def do_rnn_checkpoint(cells, prefix, period=1):
    """An epoch-end callback saving an RNN checkpoint every `period` epochs."""
    period = int(max(1, period))

    def _callback(iter_no, sym=None, arg=None, aux=None):
        if (iter_no + 1) % period == 0:
            save_rnn_checkpoint(cells, prefix, iter_no + 1, sym, arg, aux)
    return _callback


def rnn_unroll(cell, length, inputs=None, begin_state=None, input_prefix='', layout='NTC'):
    """Deprecated: cell.unroll(length, inputs, begin_state, layout). Without `inputs`, one
    variable per step is made, named '<input_prefix>t<step>_data'."""
    warnings.warn('rnn_unroll is deprecated. Please call cell.unroll directly.',
                  DeprecationWarning)
    if inputs is None:
        inputs = [symbol.Variable('%st%d_data' % (input_prefix, i)) for i in range(length)]
    return cell.unroll(length=length, inputs=inputs, begin_state=begin_state, layout=layout)
