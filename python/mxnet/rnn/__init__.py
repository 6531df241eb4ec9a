"""`mx.rnn`: the legacy symbolic RNN API (cells, unrolling, bucketing data, checkpoints)."""
from . import rnn_cell
from .rnn_cell import (RNNParams, BaseRNNCell, RNNCell, LSTMCell, GRUCell, FusedRNNCell,
                       SequentialRNNCell, BidirectionalCell, DropoutCell, ModifierCell,
                       ZoneoutCell, ResidualCell)
from .rnn import save_rnn_checkpoint, load_rnn_checkpoint, do_rnn_checkpoint
from .io import encode_sentences, BucketSentenceIter
