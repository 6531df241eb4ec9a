"""Contributed recurrent cells: VariationalDropoutCell, LSTMPCell."""
from .rnn_cell import *
