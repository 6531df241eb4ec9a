"""Contrib convolutional neural network module: deformable convolution layers (MXNet 1.9.1's
``mxnet.gluon.contrib.cnn``)."""

from . import conv_layers
from .conv_layers import *

__all__ = conv_layers.__all__
