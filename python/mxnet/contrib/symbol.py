"""`mx.contrib.symbol` (`mx.contrib.sym`): the contrib Symbol functions, i.e. the names of
`mx.sym.contrib`."""
from ..symbol import contrib as _contrib


def __getattr__(name):
    # Resolved on access: operators registered into mx.sym.contrib later (e.g. by
    # mx.library.load) are visible here too.
    try:
        return getattr(_contrib, name)
    except AttributeError:
        raise AttributeError("module 'mxnet.contrib.symbol' has no attribute %r" % name)


def __dir__():
    return [n for n in dir(_contrib) if not n.startswith("__")]


__all__ = list(getattr(_contrib, "__all__", []))
