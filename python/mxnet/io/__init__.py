"""Data iterators: mx.io (DataDesc, DataBatch, DataIter, NDArrayIter, ResizeIter,
PrefetchingIter, MXDataIter and the C++ iterators MNISTIter / CSVIter generated at import)."""
from .io import *  # noqa: F401,F403
from .io import _init_io_module
from . import utils  # noqa: F401

_init_io_module()
from .io import LibSVMIter  # noqa: E402,F401
