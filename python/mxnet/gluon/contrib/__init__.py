"""Contributed Gluon blocks (experimental API of MXNet 1.9.1)."""
from . import rnn
from . import nn
from . import data
from . import cnn
