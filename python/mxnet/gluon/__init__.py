"""Gluon: the imperative neural-network API (Block, HybridBlock, Parameter, Trainer, nn,
loss, data, utils)."""
from .parameter import *
from .block import *
from . import nn
from . import loss
from .trainer import *
from . import utils
from . import data
from . import rnn
from . import contrib
from . import model_zoo
