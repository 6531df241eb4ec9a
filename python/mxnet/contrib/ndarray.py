"""`mx.contrib.ndarray` (`mx.contrib.nd`): the contrib NDArray functions, i.e. the names of
`mx.nd.contrib`."""
from ..ndarray import contrib as _contrib


def __getattr__(name):
    # Resolved on access: operators registered into mx.nd.contrib later (e.g. by
    # mx.library.load) are visible here too.
    try:
        return getattr(_contrib, name)
    except AttributeError:
        raise AttributeError("module 'mxnet.contrib.ndarray' has no attribute %r" % name)


def __dir__():
    return [n for n in dir(_contrib) if not n.startswith("__")]


__all__ = list(getattr(_contrib, "__all__", []))
