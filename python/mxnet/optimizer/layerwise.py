"""LARS: SGD with a layer-wise adaptive learning rate (You, Gitman, Ginsburg, "Large Batch
Training of Convolutional Networks", 2017), as MXNet 1.9.1's optimizer.LARS."""
from ..ndarray import norm, sgd_update, sgd_mom_update
from .optimizer import Optimizer, register, _zeros_like

__all__ = ['LARS']


@register
class LARS(Optimizer):
    """SGD (with momentum) whose learning rate for each weight is scaled by the trust ratio
    ``eta * ||w|| / (||g|| + wd * ||w|| + eps)`` (g the rescaled gradient; a ratio of 1 when
    either norm is 0). Biases and normalisation parameters (names ending in 'gamma', 'beta'
    or 'bias') keep the plain learning rate. With `momentum_correction`, the momentum, which
    carries the previous learning rate, is rescaled when a weight's learning rate changes."""

    def __init__(self, momentum=0.0, lazy_update=True, eta=0.001, eps=0,
                 momentum_correction=True, **kwargs):
        super(LARS, self).__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.eta = eta
        self.eps = eps
        self.momentum_correction = momentum_correction
        self._last_lr = {}

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return _zeros_like(weight, weight.stype if self.lazy_update else 'default')

    def _layer_lr(self, index, weight, grad, lr, wd):
        name = self.idx2name.get(index, str(index))
        if name.endswith(('gamma', 'beta', 'bias')):
            return lr
        w_norm = float(norm(weight).asscalar())
        g_norm = float(norm(grad).asscalar()) * abs(self.rescale_grad)
        if w_norm > 0.0 and g_norm > 0.0:
            return lr * self.eta * w_norm / (g_norm + wd * w_norm + self.eps)
        return lr

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr = self._layer_lr(index, weight, grad, self._get_lr(index), self._get_wd(index))
        wd = self._get_wd(index)
        kwargs = self._common_kwargs()
        if state is None:
            sgd_update(weight, grad, out=weight, lazy_update=self.lazy_update, lr=lr, wd=wd,
                       **kwargs)
            return
        last = self._last_lr.get(index)
        if self.momentum_correction and last and last != lr:
            state[:] *= lr / last
        self._last_lr[index] = lr
        sgd_mom_update(weight, grad, state, out=weight, lazy_update=self.lazy_update, lr=lr,
                       wd=wd, momentum=self.momentum, **kwargs)
