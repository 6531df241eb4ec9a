"""Data iterators: mx.io (DataDesc, DataBatch, DataIter, NDArrayIter, ResizeIter,
PrefetchingIter, MXDataIter and the C++ iterators MNISTIter / CSVIter generated at import)."""
from .io import *  # noqa: F401,F403
from .io import _init_io_module
from . import utils  # noqa: F401

_init_io_module()
# LibSVMIter is written in Python here (MXNet 1.9.1's is a C++ iterator, listed in mx.io.io);
# it builds on mx.io.io's DataIter, so it lives beside that module and is shown there from here.
from .libsvm import LibSVMIter  # noqa: E402
io.LibSVMIter = LibSVMIter
