"""Optimizers of MXNet 1.9.1's optimizer.contrib: GroupAdaGrad."""
from ..ndarray import clip, mean, sqrt, square, zeros
from .optimizer import Optimizer, register

__all__ = ['GroupAdaGrad']


@register
class GroupAdaGrad(Optimizer):
    """AdaGrad with one accumulated square per row (group) of a 2-D weight, as used for
    embeddings: ``history += mean(g**2, axis=1)``; ``weight -= lr * g / sqrt(history + eps)``,
    g the rescaled (and clipped) gradient. Weight decay is not supported (wd must be 0)."""

    def __init__(self, eps=1e-6, **kwargs):
        super(GroupAdaGrad, self).__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        if weight.ndim != 2:
            raise ValueError('GroupAdaGrad: expected a 2-D weight, got shape %s'
                             % (weight.shape,))
        return zeros((weight.shape[0], 1), weight.context, dtype=weight.dtype)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        if wd != 0:
            raise ValueError('GroupAdaGrad: weight decay is not supported, got wd=%s' % wd)
        if grad.stype != 'default':
            grad = grad.tostype('default')
        grad = grad * self.rescale_grad
        if self.clip_gradient is not None:
            grad = clip(grad, -self.clip_gradient, self.clip_gradient)
        state[:] += mean(square(grad), axis=1, keepdims=True)
        weight[:] -= lr * grad / sqrt(state + self.float_stable_eps)
