"""Contributed recurrent cells: VariationalDropoutCell, LSTMPCell, the convolutional
RNN/LSTM/GRU cells (Conv1D/2D/3D...Cell) and dynamic_unroll."""
from .rnn_cell import *  # noqa: F401,F403
from .conv_rnn_cell import *  # noqa: F401,F403
from . import rnn_cell, conv_rnn_cell  # noqa: F401
