"""Predefined network architectures (`vision`) and the local store of pretrained weights."""
from . import model_store
from . import vision
