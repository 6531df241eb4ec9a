"""Automatic mixed precision: mx.contrib.amp (see amp.py)."""
from . import lists
from . import loss_scaler
from . import amp
from .amp import *  # noqa: F401,F403
