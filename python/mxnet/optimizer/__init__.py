"""`mx.optimizer`: optimizers, the registry (`create`, `register`) and `get_updater`."""
from . import optimizer
from .optimizer import (Optimizer, SGD, NAG, Adam, AdaGrad, RMSProp, AdaDelta, Signum, FTML,
                        Ftrl, Adamax, Nadam, LAMB, SGLD, DCASGD, ccSGD, Test, Updater,
                        get_updater, create, register)
from .layerwise import LARS, LBSGD

# MXNet 1.9.1 defines LARS and LBSGD in mx.optimizer.optimizer; they build on its Optimizer, so
# they live beside it and are shown there from here.
optimizer.LARS, optimizer.LBSGD = LARS, LBSGD
optimizer.__all__ += ['LARS', 'LBSGD']
from . import contrib  # noqa: F401
from ..ndarray import abs as NDabs  # noqa: F401  (MXNet 1.9.1's package exposes it)

__all__ = optimizer.__all__
