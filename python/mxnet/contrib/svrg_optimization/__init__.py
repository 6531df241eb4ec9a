"""Stochastic Variance Reduced Gradient training (Johnson & Zhang, 2013): SVRGModule."""
from . import svrg_module
from .svrg_module import SVRGModule  # noqa: F401
