"""Large-batch optimizers of MXNet 1.9.1's optimizer module: LARS, SGD with a layer-wise
adaptive learning rate (You, Gitman, Ginsburg, "Large Batch Training of Convolutional
Networks", 2017), and LBSGD, SGD that emulates a large batch by accumulating gradients, with
a warm-up of the learning rate."""
import math

import numpy

from ..ndarray import norm, sgd_update, sgd_mom_update, mp_sgd_update, mp_sgd_mom_update
from .optimizer import Optimizer, register, _zeros_like

__all__ = ['LARS', 'LBSGD']


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


@register
class LBSGD(Optimizer):
    """SGD over large batches emulated by accumulating the gradients of `batch_scale`
    consecutive updates of a weight: the weight changes once per `batch_scale` updates, with
    the mean of the accumulated gradients and the learning rate multiplied by

    - a warm-up factor growing from 1 to `batch_scale` over the first `warmup_epochs` epochs
      of `updates_per_epoch` updates: linearly ('linear'), quadratically ('power2') or as a
      square root ('sqrt'), or
    - with warmup_strategy='lars', the layer-wise ratio sqrt(||w||^2 / (||g||^2 +
      wd ||w||^2)) clipped to [0.01, 100].

    The update itself is SGD (with `momentum` when non-zero)."""

    def __init__(self, momentum=0.0, multi_precision=False, warmup_strategy='linear',
                 warmup_epochs=5, batch_scale=1, updates_per_epoch=32, begin_epoch=0,
                 num_epochs=60, **kwargs):
        super(LBSGD, self).__init__(multi_precision=multi_precision, **kwargs)
        if warmup_strategy not in ('linear', 'power2', 'sqrt', 'lars'):
            raise ValueError("LBSGD: warmup_strategy must be 'linear', 'power2', 'sqrt' or "
                             "'lars', got %r" % (warmup_strategy,))
        self.momentum = momentum
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads = {}
        self.adaptive = False
        self.admult = 1

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return _zeros_like(weight, weight.stype)

    def create_state_multi_precision(self, index, weight):
        if self.multi_precision and weight.dtype == numpy.float16:
            master = weight.astype(numpy.float32)
            return (self.create_state(index, master), master)
        return self.create_state(index, weight)

    def _get_lbmult(self, nup):
        """The warm-up multiplier of the learning rate after `nup` updates."""
        nwup = self.warmup_epochs * self.updates_per_epoch
        maxmult = float(self.batch_scale)
        if nup >= nwup:
            return maxmult
        if nwup <= 1:
            return 1.0
        if self.warmup_strategy == 'linear':
            return 1.0 + (maxmult - 1) * nup / nwup
        if self.warmup_strategy == 'power2':
            return 1.0 + (maxmult - 1) * (nup * nup) / (nwup * nwup)
        if self.warmup_strategy == 'sqrt':
            return 1.0 + (maxmult - 1) * math.sqrt(float(nup) / nwup)
        return 1.0

    @staticmethod
    def _l2norm(v):
        return float((v * v).sum().asscalar())

    def _get_lars(self, weight, g, wd):
        """The layer-wise multiplier sqrt(||w||^2 / (||g||^2 + wd ||w||^2)) in [0.01, 100]."""
        weight2 = self._l2norm(weight)
        grad2 = self._l2norm(g)
        lars = math.sqrt(weight2 / (grad2 + wd * weight2 + 1e-18))
        return min(max(lars, 0.01), 100.0)

    def _cumulate_gradient(self, grad, index):
        """Add `grad` to the gradients accumulated for weight `index`; num_cums counts the
        updates of the weight so far (from begin_epoch), which drives the warm-up."""
        entry = self.cumgrads.get(index)
        if entry is None:
            entry = {'cum_grad': None, 'num_cums': self.init_updates}
        total = grad.copy() if entry['cum_grad'] is None else entry['cum_grad'] + grad
        entry = {'cum_grad': total, 'num_cums': entry['num_cums'] + 1}
        self.cumgrads[index] = entry
        return entry

    def update(self, index, weight, grad, state):
        lr, wd = self._get_lr(index), self._get_wd(index)
        self._update_count(index)
        entry = self._cumulate_gradient(grad, index)
        if entry['num_cums'] % self.batch_scale != 0:
            return   # still accumulating: the weight waits for the whole large batch
        grad = entry['cum_grad'] / self.batch_scale
        if self.warmup_strategy == 'lars':
            lr *= self._get_lars(weight, grad * self.rescale_grad, wd)
        else:
            lr *= self._get_lbmult(entry['num_cums'])
        kwargs = self._common_kwargs()
        if self.momentum > 0:
            kwargs['momentum'] = self.momentum
        if isinstance(state, (list, tuple)):
            mom, master = state
            if mom is not None:
                mp_sgd_mom_update(weight, grad, mom, master, out=weight, lr=lr, wd=wd, **kwargs)
            else:
                mp_sgd_update(weight, grad, master, out=weight, lr=lr, wd=wd, **kwargs)
        elif state is not None:
            sgd_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        self.cumgrads[index]['cum_grad'] = None   # start the next large batch

    def update_multi_precision(self, index, weight, grad, state):
        self.update(index, weight, grad, state)
