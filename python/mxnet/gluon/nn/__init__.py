"""Gluon neural-network layers."""
from .activations import *
from .basic_layers import *
from .conv_layers import *
