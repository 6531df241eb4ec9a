"""The pre-1.0 autograd API kept in `mx.contrib.autograd` (train_section, compute_gradient,
grad_and_loss, ...), written over `mx.autograd`."""
import functools

from .. import autograd as _ag
from ..ndarray import NDArray, zeros_like
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array  # noqa: F401
from ..base import NDArrayHandle, mx_uint, string_types  # noqa: F401


def set_is_training(is_train):
    """Sets both training mode and recording to `is_train`; returns the previous state."""
    _ag.set_training(bool(is_train))
    prev = _ag.set_recording(bool(is_train))
    return bool(prev)


class TrainingStateScope(object):
    """Scope that sets training+recording to `enter_state` and restores it on exit."""

    def __init__(self, enter_state):
        self._enter_state = enter_state
        self._prev = None

    def __enter__(self):
        self._prev = set_is_training(self._enter_state)

    def __exit__(self, ptype, value, trace):
        if self._prev != self._enter_state:
            set_is_training(self._prev)


def train_section():
    """``with train_section():`` records operators in training mode."""
    return TrainingStateScope(True)


def test_section():
    """``with test_section():`` inside a train_section: no recording, inference mode."""
    return TrainingStateScope(False)


def mark_variables(variables, gradients, grad_reqs="write"):
    """Attaches gradient buffers to `variables` (see mx.autograd.mark_variables)."""
    _ag.mark_variables(variables, gradients, grad_reqs)


def backward(outputs, out_grads=None, retain_graph=False):
    """Back-propagates from `outputs` (an NDArray or a list) into the marked variables."""
    if isinstance(outputs, NDArray):
        outputs = [outputs]
    _ag.backward(outputs, head_grads=out_grads, retain_graph=retain_graph)


def compute_gradient(outputs):
    """Deprecated alias of ``backward(outputs)``."""
    backward(outputs)


def grad_and_loss(func, argnum=None):
    """A function computing ``(gradients of func w.r.t. the arguments numbered `argnum`
    (default all), func's outputs)``."""
    @functools.wraps(func)
    def wrapped(*args):
        variables = args
        if argnum is not None:
            argnums = argnum if isinstance(argnum, list) else [argnum]
            variables = [args[i] for i in argnums]
        for x in variables:
            if not isinstance(x, NDArray):
                raise TypeError("type of autograd input should NDArray, got %s" % type(x))
        grads = [zeros_like(x) for x in variables]
        mark_variables(variables, grads)
        with train_section():
            outputs = func(*args)
        compute_gradient([outputs] if isinstance(outputs, NDArray) else outputs)
        return grads, outputs
    return wrapped


def grad(func, argnum=None):
    """A function computing the gradients of `func` w.r.t. the arguments `argnum`."""
    grad_with_loss_func = grad_and_loss(func, argnum)

    @functools.wraps(grad_with_loss_func)
    def wrapped(*args):
        return grad_with_loss_func(*args)[0]
    return wrapped
