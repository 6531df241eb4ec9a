"""`mx.contrib`: experimental namespaces (contrib operators and the old autograd API)."""
from . import symbol
from . import ndarray
from . import symbol as sym
from . import ndarray as nd
from . import autograd
from . import io
