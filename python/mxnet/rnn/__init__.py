"""`mx.rnn`: the legacy symbolic RNN API (cells, unrolling, bucketing data, checkpoints)."""

from . import rnn_cell, io, rnn  # noqa: F401
from .rnn_cell import (RNNParams, BaseRNNCell, RNNCell, LSTMCell, GRUCell,  # noqa: F401
                       FusedRNNCell, SequentialRNNCell, BidirectionalCell, DropoutCell,
                       ModifierCell, ZoneoutCell, ResidualCell)
from .conv_rnn_cell import BaseConvRNNCell, ConvRNNCell, ConvLSTMCell, ConvGRUCell

# MXNet 1.9.1 defines the convolutional cells in rnn_cell; they build on its BaseRNNCell, so
# they live beside it and are shown there from here.
for _cell in (BaseConvRNNCell, ConvRNNCell, ConvLSTMCell, ConvGRUCell):
    setattr(rnn_cell, _cell.__name__, _cell)
del _cell
from .rnn import save_rnn_checkpoint, load_rnn_checkpoint, do_rnn_checkpoint  # noqa: F401
from .io import encode_sentences, BucketSentenceIter  # noqa: F401
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..base import string_types, numeric_types  # noqa: F401

__all__ = ["RNNParams", "BaseRNNCell", "RNNCell", "LSTMCell", "GRUCell", "FusedRNNCell",
           "SequentialRNNCell", "BidirectionalCell", "DropoutCell", "ModifierCell",
           "ZoneoutCell", "ResidualCell", "BaseConvRNNCell", "ConvRNNCell", "ConvLSTMCell",
           "ConvGRUCell", "save_rnn_checkpoint", "load_rnn_checkpoint",
           "do_rnn_checkpoint", "encode_sentences", "BucketSentenceIter"]
