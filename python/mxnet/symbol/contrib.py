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


# ---- MXNet 1.9.1's Python-level contrib functions ------------------------------------------
__all__ += ["adamw_update", "mp_adamw_update", "rand_zipfian", "SparseEmbedding"]


def _rescale_grad_symbol(rescale_grad):
    from .symbol import Symbol  # pylint: disable=import-outside-toplevel
    from . import _internal  # pylint: disable=import-outside-toplevel
    if isinstance(rescale_grad, Symbol):
        return rescale_grad
    return _internal._full(shape=(1,), value=float(rescale_grad), dtype='float32')


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, name=None, **kwargs):
    """One AdamW step (_adamw_update); `rescale_grad` is a number or a one-element Symbol."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    return _internal._adamw_update(weight, grad, mean, var, _rescale_grad_symbol(rescale_grad),
                                   lr=lr, eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon,
                                   wd=wd, clip_gradient=clip_gradient, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, name=None, **kwargs):
    """Multi-precision AdamW step (_mp_adamw_update)."""
    from . import _internal  # pylint: disable=import-outside-toplevel
    return _internal._mp_adamw_update(weight, grad, mean, var, weight32,
                                      _rescale_grad_symbol(rescale_grad), lr=lr, eta=eta,
                                      beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                                      clip_gradient=clip_gradient, name=name, **kwargs)


def rand_zipfian(true_classes, num_sampled, range_max):
    """Symbolic rand_zipfian (see mx.nd.contrib.rand_zipfian): (sampled classes, expected
    counts of the true classes, expected counts of the sampled classes)."""
    import math  # pylint: disable=import-outside-toplevel
    from . import random as _random, op  # pylint: disable=import-outside-toplevel
    log_range = math.log(range_max + 1)
    draws = _random.uniform(0, log_range, shape=(num_sampled,), dtype='float64')
    sampled = op.Cast(op.exp(draws) - 1, dtype='int64') % range_max

    def expected_count(classes):
        classes = op.Cast(classes, dtype='float64')
        return op.log((classes + 2.0) / (classes + 1.0)) / log_range * num_sampled

    return sampled, expected_count(true_classes), expected_count(sampled)


def SparseEmbedding(data, weight, input_dim, output_dim, dtype='float32',  # pylint: disable=invalid-name
                    deterministic=False, name=None, **kwargs):  # pylint: disable=unused-argument
    """Embedding with a row_sparse gradient for `weight`."""
    from . import op  # pylint: disable=import-outside-toplevel
    return op.Embedding(data, weight, input_dim=input_dim, output_dim=output_dim, dtype=dtype,
                        sparse_grad=True, name=name, **kwargs)
