"""Operator functions of `mx.sym` generated from the library registry at import (contrib)."""
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..base import SymbolHandle  # noqa: F401

__all__ = []

# ---- control flow: needs the _foreach/_while_loop/_cond subgraph operators ----------------
__all__ += ["foreach", "while_loop", "cond"]


def _no_subgraph_op(name):
    raise NotImplementedError(
        "mx.sym.contrib.%s needs the '_%s' subgraph operator, which this libmxnet does not "
        "implement; use mx.nd.contrib.%s (imperative, works under autograd) or unroll the "
        "loop in Python" % (name, name, name))


def foreach(body, data, init_states, name="foreach"):  # pylint: disable=unused-argument
    """Symbolic foreach (not available: see the NotImplementedError message)."""
    _no_subgraph_op("foreach")


def while_loop(cond, func, loop_vars, max_iterations=None,  # pylint: disable=unused-argument
               name="while_loop"):
    """Symbolic while_loop (not available: see the NotImplementedError message)."""
    _no_subgraph_op("while_loop")


def cond(pred, then_func, else_func, name="cond"):  # pylint: disable=unused-argument
    """Symbolic cond (not available: see the NotImplementedError message)."""
    _no_subgraph_op("cond")
