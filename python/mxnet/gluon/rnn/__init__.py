"""Recurrent neural network cells (step by step, `unroll`) and multi-layer RNN/LSTM/GRU layers."""
from .rnn_cell import *
from .rnn_layer import *
