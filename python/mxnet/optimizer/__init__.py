"""`mx.optimizer`: optimizers, the registry (`create`, `register`) and `get_updater`."""
from . import optimizer
from .optimizer import (Optimizer, SGD, NAG, Adam, AdaGrad, RMSProp, AdaDelta, Signum, FTML,
                        Ftrl, Adamax, Nadam, LAMB, SGLD, DCASGD, ccSGD, Test, Updater,
                        get_updater, create, register)

__all__ = optimizer.__all__
