"""Gluon neural-network layers."""
from .activations import *
from .basic_layers import *
from .conv_layers import *
from ..block import Block, HybridBlock, SymbolBlock  # as MXNet 1.x: nn.Block, nn.HybridBlock
