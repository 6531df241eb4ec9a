"""Contributed neural-network layers (mx.gluon.contrib.nn of MXNet 1.9.1)."""
from .basic_layers import *
