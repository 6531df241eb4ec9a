"""Contributed data utilities of Gluon: IntervalSampler."""
from . import sampler
from .sampler import *  # noqa: F401,F403
