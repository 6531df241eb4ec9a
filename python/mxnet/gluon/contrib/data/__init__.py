"""Contributed data utilities of Gluon: IntervalSampler and the WikiText datasets."""
from . import sampler
from . import text
from .sampler import *  # noqa: F401,F403
