"""Gluon data: datasets, samplers and the DataLoader."""
from .dataset import *
from .sampler import *
from .dataloader import *
from . import vision
