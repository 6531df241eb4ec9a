"""Vision datasets and transforms."""
from .datasets import *
from . import transforms
