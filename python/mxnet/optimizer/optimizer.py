"""Optimizers: the update rules applied to (weight, gradient) pairs, and the Updater.

Every optimizer keeps per-parameter state created by `create_state(index, weight)` and applies
``update(index, weight, grad, state)`` in place. Where MXNet has a fused update operator the
rule runs as one operator call per parameter (SGD even batches several parameters into one
``multi_sgd_*`` call); the others are written with NDArray arithmetic.

Class and attribute names follow MXNet 1.9.1, so the pickles written by
``Updater.get_states(dump_optimizer=True)`` load in either implementation.
"""
import math
import os
import pickle
import warnings

import numpy

from ..base import py_str
from ..ndarray import (NDArray, zeros, clip, sqrt, square, sign, maximum, abs as NDabs, cast,
                       sgd_update, sgd_mom_update, mp_sgd_update, mp_sgd_mom_update,
                       multi_sgd_update, multi_sgd_mom_update, multi_mp_sgd_update,
                       multi_mp_sgd_mom_update, nag_mom_update, mp_nag_mom_update, adam_update,
                       rmsprop_update, rmspropalex_update, ftrl_update, ftml_update,
                       signsgd_update, signum_update, lamb_update_phase1, lamb_update_phase2,
                       mp_lamb_update_phase1, mp_lamb_update_phase2)
from ..ndarray import random as _nd_random
from ..ndarray import sparse as _nd_sparse
# Names MXNet 1.9.1's module also exposes (it imports them).
from ..ndarray import (array, multiply, norm as NDnorm, multi_sum_sq, multi_lars,  # noqa: F401
                       preloaded_multi_sgd_update, preloaded_multi_sgd_mom_update,
                       preloaded_multi_mp_sgd_update, preloaded_multi_mp_sgd_mom_update)
from ..ndarray.random import normal  # noqa: F401
from ..util import is_np_array  # noqa: F401

__all__ = ["Optimizer", "SGD", "NAG", "Adam", "AdaGrad", "RMSProp", "AdaDelta", "Signum",
           "FTML", "Ftrl", "Adamax", "Nadam", "LAMB", "SGLD", "DCASGD", "ccSGD", "Test",
           "Updater", "get_updater", "create", "register"]


def _flatten_list(nested):
    return [item for group in nested for item in group]


_FLOATS_STR_CACHE = {}


def _floats_str(values):
    """The operator-parameter string of a float tuple (lrs/wds of the multi_* updates).

    Cached: the same learning rates are formatted at every step otherwise.
    """
    key = tuple(values)
    text = _FLOATS_STR_CACHE.get(key)
    if text is None:
        if len(_FLOATS_STR_CACHE) > 4096:
            _FLOATS_STR_CACHE.clear()
        text = _FLOATS_STR_CACHE[key] = "(" + ", ".join(repr(float(v)) for v in key) + \
            ("," if len(key) == 1 else "") + ")"
    return text


class Optimizer(object):
    """Base class of all optimizers.

    rescale_grad: multiplies every gradient first (Module sets it to 1/batch_size).
    param_idx2name: dict index -> parameter name, used for lr/wd multipliers by name; names
        not ending in ``_weight`` or ``_gamma`` get wd_mult 0 (no decay on biases).
    wd: weight decay. clip_gradient: clip the rescaled gradient to [-c, c] (None: off).
    learning_rate: defaults to 0.01 (or the scheduler's base_lr when `lr_scheduler` is set).
    lr_scheduler: an `mx.lr_scheduler.LRScheduler` called with `num_update`.
    sym: a Symbol whose variables' ``__lr_mult__``/``__wd_mult__`` attributes apply.
    begin_num_update: initial update count (resuming training).
    multi_precision: keep float32 master weights (and states) for float16 weights.
    param_dict: dict index -> Gluon Parameter (its lr_mult/wd_mult win).
    """

    opt_registry = {}

    def __init__(self, rescale_grad=1., param_idx2name=None, wd=0., clip_gradient=None,
                 learning_rate=None, lr_scheduler=None, sym=None, begin_num_update=0,
                 multi_precision=False, param_dict=None):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if self.lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if self.lr_scheduler is not None and learning_rate is not None:
            if self.lr_scheduler.base_lr != learning_rate:
                warnings.warn("learning rate from ``lr_scheduler`` has been overwritten by "
                              "``learning_rate`` in optimizer.")
                self.lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        if not isinstance(param_idx2name, dict):
            raise TypeError("param_idx2name should be a dict of param indexes to names.")
        self.idx2name = param_idx2name.copy()
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        self.allow_np_array = False
        self.set_lr_mult({})
        self.set_wd_mult({})

    # ---- registry -----------------------------------------------------------------------
    @staticmethod
    def register(klass):
        """Class decorator: registers `klass` under its lower-case class name."""
        if not isinstance(klass, type):
            raise TypeError("Optimizer.register needs a class, got %s" % type(klass))
        name = klass.__name__.lower()
        if name in Optimizer.opt_registry and Optimizer.opt_registry[name] is not klass:
            warnings.warn("WARNING: New optimizer %s.%s is overriding existing optimizer %s.%s"
                          % (klass.__module__, klass.__name__,
                             Optimizer.opt_registry[name].__module__,
                             Optimizer.opt_registry[name].__name__))
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """Instantiates the optimizer registered as `name` (case-insensitive)."""
        key = name.lower() if isinstance(name, str) else name
        if key in Optimizer.opt_registry:
            return Optimizer.opt_registry[key](**kwargs)
        raise ValueError("Cannot find optimizer %s (registered: %s)"
                         % (name, ", ".join(sorted(Optimizer.opt_registry))))

    # ---- learning rate ------------------------------------------------------------------
    @property
    def learning_rate(self):
        """Current learning rate (from the scheduler at `num_update` if there is one)."""
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def set_learning_rate(self, lr):
        """Sets a new learning rate (not allowed when an lr_scheduler is in charge)."""
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note "
                              "that set_learning_rate can mutate the value of the learning "
                              "rate of the optimizer only when the LRScheduler of the "
                              "optimizer is undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale):  # pylint: disable=unused-argument
        raise DeprecationWarning("set_lr_scale is deprecated; use set_lr_mult instead.")

    def set_lr_mult(self, args_lr_mult):
        """Per-parameter learning rate multipliers: symbol ``__lr_mult__`` attrs, then the dict."""
        self.lr_mult = {}
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__lr_mult__" in attr[name]:
                    self.lr_mult[name] = float(attr[name]["__lr_mult__"])
        self.lr_mult.update(args_lr_mult)

    def set_wd_mult(self, args_wd_mult):
        """Per-parameter weight decay multipliers.

        Parameters whose names do not end in ``_weight`` or ``_gamma`` get 0, then the
        symbol's ``__wd_mult__`` attributes and the dict override.
        """
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not (n.endswith("_weight") or n.endswith("_gamma")):
                self.wd_mult[n] = 0.0
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__wd_mult__" in attr[name]:
                    self.wd_mult[name] = float(attr[name]["__wd_mult__"])
        self.wd_mult.update(args_wd_mult)

    def _set_current_context(self, device_id):
        """Keeps a separate update count per device (several devices update the same index)."""
        if device_id not in self._all_index_update_counts:
            self._all_index_update_counts[device_id] = {}
        self._index_update_count = self._all_index_update_counts[device_id]

    def _update_count(self, index):
        if not isinstance(index, (list, tuple)):
            index = [index]
        counts = self._index_update_count
        for idx in index:
            if idx not in counts:
                counts[idx] = self.begin_num_update
            counts[idx] += 1
            if counts[idx] > self.num_update:
                self.num_update = counts[idx]

    def _get_lrs(self, indices):
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        lrs = [lr] * len(indices)
        for i, index in enumerate(indices):
            if index in self.param_dict:
                lrs[i] *= self.param_dict[index].lr_mult
            elif index in self.lr_mult:
                lrs[i] *= self.lr_mult[index]
            elif index in self.idx2name:
                lrs[i] *= self.lr_mult.get(self.idx2name[index], 1.0)
        return lrs

    def _get_lr(self, index):
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        wds = [self.wd] * len(indices)
        for i, index in enumerate(indices):
            if index in self.param_dict:
                wds[i] *= self.param_dict[index].wd_mult
            elif index in self.wd_mult:
                wds[i] *= self.wd_mult[index]
            elif index in self.idx2name:
                wds[i] *= self.wd_mult.get(self.idx2name[index], 1.0)
        return wds

    def _get_wd(self, index):
        return self._get_wds([index])[0]

    # ---- states and updates -------------------------------------------------------------
    def create_state(self, index, weight):  # pylint: disable=unused-argument
        """Auxiliary state for one parameter (None when the rule needs none)."""
        return None

    def create_state_multi_precision(self, index, weight):
        """State for a parameter; for float16 weights with multi_precision: (weight32, state)."""
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy = weight.astype(numpy.float32)
            return (weight_master_copy,) + (self.create_state(index, weight_master_copy),)
        if weight.dtype == numpy.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or "
                          "slow convergence. Consider using multi_precision=True option of the "
                          "optimizer")
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """Updates `weight` in place from `grad` and `state`."""
        raise NotImplementedError()

    def update_multi_precision(self, index, weight, grad, state):
        """`update` on the float32 master copy for float16 weights, then cast back."""
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy, original_state = state[0], state[1]
            grad32 = grad.astype(numpy.float32)
            self.update(index, weight_master_copy, grad32, original_state)
            cast(weight_master_copy, dtype=weight.dtype, out=weight)
        else:
            self.update(index, weight, grad, state)

    def _common_kwargs(self, clip_key="clip_gradient"):
        kwargs = {"rescale_grad": self.rescale_grad}
        if self.clip_gradient:
            kwargs[clip_key] = self.clip_gradient
        return kwargs

    def _prepare_grad(self, grad, weight=None, wd=0.0, wd_before_clip=False):
        """rescale (and clip) the gradient with NDArray ops; `wd * weight` added if given."""
        grad = grad * self.rescale_grad
        if weight is not None and wd_before_clip:
            grad = grad + wd * weight
        if self.clip_gradient is not None:
            grad = clip(grad, -self.clip_gradient, self.clip_gradient)
        if weight is not None and not wd_before_clip:
            grad = grad + wd * weight
        return grad

    def __getstate__(self):
        ret = self.__dict__.copy()
        # Gluon Parameters are not picklable; the Trainer sets param_dict again after loading.
        ret.pop("param_dict", None)
        return ret

    def __setstate__(self, state):
        self.__dict__ = state
        self.param_dict = {}


register = Optimizer.register
create = Optimizer.create_optimizer


def _zeros_like(weight, stype=None):
    return zeros(weight.shape, weight.context, dtype=weight.dtype,
                 stype=stype or weight.stype)


@register
class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum.

    With momentum: ``state = momentum * state - lr * (rescale_grad * grad + wd * weight)``;
    ``weight += state``; without: ``weight -= lr * (rescale_grad * grad + wd * weight)``.
    Dense weights are updated ``MXNET_OPTIMIZER_AGGREGATION_SIZE`` (default 4) at a time with
    the ``multi_sgd_*`` operators. `lazy_update` applies to row-sparse gradients only.
    """

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super(SGD, self).__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.aggregate_num = int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "4"))

    def create_state_multi_precision(self, index, weight):
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy = weight.astype(numpy.float32)
            return (self.create_state(index, weight_master_copy), weight_master_copy)
        if weight.dtype == numpy.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or "
                          "slow convergence. Consider using multi_precision=True option of the "
                          "SGD optimizer")
        return self.create_state(index, weight)

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return _zeros_like(weight, weight.stype if self.lazy_update else "default")

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        if not isinstance(indices, (tuple, list)):
            indices, weights, grads, states = [indices], [weights], [grads], [states]
        aggregate = True
        for weight, grad in zip(weights, grads):
            if not isinstance(weight, NDArray) or not isinstance(grad, NDArray):
                raise TypeError("SGD.update needs NDArray weights and gradients, got %s and %s"
                                % (type(weight), type(grad)))
            # Sparse arrays are NDArray subclasses; a plain NDArray is dense without asking.
            if type(weight) is not NDArray or type(grad) is not NDArray:
                aggregate = aggregate and weight.stype == "default" and grad.stype == "default"
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        kwargs = {"rescale_grad": self.rescale_grad}
        if self.momentum > 0:
            kwargs["momentum"] = self.momentum
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        if aggregate:
            n = len(weights)
            lrs, wds = _floats_str(lrs), _floats_str(wds)
            if not multi_precision:
                if self.momentum > 0:
                    multi_sgd_mom_update(*_flatten_list(zip(weights, grads, states)),
                                         out=weights, num_weights=n, lrs=lrs, wds=wds, **kwargs)
                else:
                    multi_sgd_update(*_flatten_list(zip(weights, grads)), out=weights,
                                     num_weights=n, lrs=lrs, wds=wds, **kwargs)
            else:
                if self.momentum > 0:
                    groups = [(w, g, s[0], s[1]) for w, g, s in zip(weights, grads, states)]
                    multi_mp_sgd_mom_update(*_flatten_list(groups), out=weights,
                                            num_weights=n, lrs=lrs, wds=wds, **kwargs)
                else:
                    groups = [(w, g, s[1]) for w, g, s in zip(weights, grads, states)]
                    multi_mp_sgd_update(*_flatten_list(groups), out=weights, num_weights=n,
                                        lrs=lrs, wds=wds, **kwargs)
            return
        for weight, grad, state, lr, wd in zip(weights, grads, states, lrs, wds):
            if not multi_precision:
                if state is not None:
                    sgd_mom_update(weight, grad, state, out=weight, lazy_update=self.lazy_update,
                                   lr=lr, wd=wd, **kwargs)
                else:
                    sgd_update(weight, grad, out=weight, lazy_update=self.lazy_update, lr=lr,
                               wd=wd, **kwargs)
            elif state[0] is not None:
                mp_sgd_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd,
                                  **kwargs)
            else:
                mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        first = weight[0] if isinstance(index, (tuple, list)) else weight
        use_mp = self.multi_precision and first.dtype == numpy.float16
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


@register
class ccSGD(SGD):  # pylint: disable=invalid-name
    """[Deprecated] Same as SGD."""


@register
class NAG(Optimizer):
    """Nesterov accelerated gradient (``nag_mom_update``).

    g = rescale_grad * grad + wd * weight; state = momentum * state + g;
    weight -= lr * (g + momentum * state).
    """

    def __init__(self, momentum=0.0, **kwargs):
        super(NAG, self).__init__(**kwargs)
        self.momentum = momentum

    def create_state_multi_precision(self, index, weight):
        if self.multi_precision and weight.dtype == numpy.float16:
            weight_master_copy = weight.astype(numpy.float32)
            return (self.create_state(index, weight_master_copy), weight_master_copy)
        return super(NAG, self).create_state_multi_precision(index, weight)

    def create_state(self, index, weight):
        return _zeros_like(weight) if self.momentum != 0.0 else None

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        kwargs = {"rescale_grad": self.rescale_grad}
        if self.momentum > 0:
            kwargs["momentum"] = self.momentum
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        if not multi_precision:
            if state is not None:
                nag_mom_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
            else:
                sgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        elif state[0] is not None:
            mp_nag_mom_update(weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd,
                              **kwargs)
        else:
            mp_sgd_update(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        use_mp = self.multi_precision and weight.dtype == numpy.float16
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


@register
class Adam(Optimizer):
    """Adam (Kingma & Ba): bias correction folded into the learning rate, then ``adam_update``.

    lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t); g = rescale_grad * grad + wd * weight
    (then clipped); m = beta1 m + (1-beta1) g; v = beta2 v + (1-beta2) g^2;
    weight -= lr_t * m / (sqrt(v) + epsilon).
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 lazy_update=True, **kwargs):
        super(Adam, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        stype = weight.stype if self.lazy_update else "default"
        return (_zeros_like(weight, stype), _zeros_like(weight, stype))

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        lr *= math.sqrt(1. - self.beta2 ** t) / (1. - self.beta1 ** t)
        kwargs = self._common_kwargs()
        mean, var = state
        adam_update(weight, grad, mean, var, out=weight, lazy_update=self.lazy_update, lr=lr,
                    wd=wd, beta1=self.beta1, beta2=self.beta2, epsilon=self.epsilon, **kwargs)


@register
class AdaGrad(Optimizer):
    """AdaGrad: history += g^2; weight -= lr * (g / sqrt(history + eps) + wd * weight).

    g is the rescaled, clipped gradient.
    """

    def __init__(self, eps=1e-7, **kwargs):
        super(AdaGrad, self).__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        return _zeros_like(weight)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        history = state
        if grad.stype == "row_sparse" and hasattr(_nd_sparse, "adagrad_update"):
            kwargs = self._common_kwargs()
            _nd_sparse.adagrad_update(weight, grad, history, out=weight, lr=lr, wd=wd,
                                      epsilon=self.float_stable_eps, **kwargs)
            return
        grad = self._prepare_grad(grad)
        history[:] += square(grad)
        div = grad / sqrt(history + self.float_stable_eps)
        weight[:] += (div + weight * wd) * -lr


@register
class RMSProp(Optimizer):
    """RMSProp (Tieleman & Hinton) or, with `centered`, the Graves 2013 variant.

    Plain (``rmsprop_update``): n = (1-gamma1) g^2 + gamma1 n; weight -= lr g / sqrt(n + eps).
    Centered (``rmspropalex_update``): also g_avg = (1-gamma1) g + gamma1 g_avg and
    delta = gamma2 delta - lr g / sqrt(n - g_avg^2 + eps); weight += delta.
    g = rescale_grad * grad + wd * weight, clipped; `clip_weights` clips the new weight.
    """

    def __init__(self, learning_rate=0.001, gamma1=0.9, gamma2=0.9, epsilon=1e-8,
                 centered=False, clip_weights=None, **kwargs):
        super(RMSProp, self).__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.centered = centered
        self.epsilon = epsilon
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        if self.centered:
            return (_zeros_like(weight), _zeros_like(weight), _zeros_like(weight))
        return (_zeros_like(weight),)

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        kwargs = self._common_kwargs()
        kwargs.update(gamma1=self.gamma1, epsilon=self.epsilon)
        if self.clip_weights:
            kwargs["clip_weights"] = self.clip_weights
        if not self.centered:
            (n,) = state
            rmsprop_update(weight, grad, n, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            n, g, delta = state
            rmspropalex_update(weight, grad, n, g, delta, out=weight, lr=lr, wd=wd,
                               gamma2=self.gamma2, **kwargs)


@register
class AdaDelta(Optimizer):
    """AdaDelta (Zeiler 2012); the learning rate is not used.

    acc_g = rho acc_g + (1-rho) g^2; d = sqrt(acc_delta + eps) / sqrt(acc_g + eps) * g;
    acc_delta = rho acc_delta + (1-rho) d^2; weight -= d + wd * weight.
    """

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super(AdaDelta, self).__init__(**kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        wd = self._get_wd(index)
        self._update_count(index)
        grad = self._prepare_grad(grad)
        acc_g, acc_delta = state
        acc_g[:] *= self.rho
        acc_g[:] += (1. - self.rho) * grad * grad
        current_delta = sqrt(acc_delta + self.epsilon) / sqrt(acc_g + self.epsilon) * grad
        acc_delta[:] *= self.rho
        acc_delta[:] += (1. - self.rho) * current_delta * current_delta
        weight[:] -= current_delta + wd * weight


@register
class Signum(Optimizer):
    """signSGD / Signum (Bernstein et al. 2018): steps of size lr in the sign direction.

    With momentum (``signum_update``): m = momentum m - (1-momentum) (g + wd weight);
    weight = (1 - lr wd_lh) weight + lr sign(m). Without: ``signsgd_update``.
    """

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super(Signum, self).__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index, weight):
        return _zeros_like(weight) if self.momentum != 0.0 else None

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        kwargs = self._common_kwargs()
        if self.momentum > 0:
            kwargs["momentum"] = self.momentum
        if self.wd_lh:
            kwargs["wd_lh"] = self.wd_lh
        if state is not None:
            signum_update(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            signsgd_update(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)


@register
class FTML(Optimizer):
    """Follow The Moving Leader (Zheng & Kwok 2017), ``ftml_update``."""

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super(FTML, self).__init__(**kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight), _zeros_like(weight))  # d, v, z

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        kwargs = self._common_kwargs(clip_key="clip_grad")
        prev_d, prev_v, prev_z = state
        ftml_update(weight, grad, prev_d, prev_v, prev_z, out=weight, lr=lr, wd=wd,
                    beta1=self.beta1, beta2=self.beta2, epsilon=self.epsilon, t=t, **kwargs)


@register
class Ftrl(Optimizer):
    """FTRL-Proximal (McMahan et al. 2013), ``ftrl_update`` with state (z, n)."""

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super(Ftrl, self).__init__(learning_rate=learning_rate, **kwargs)
        self.lamda1 = lamda1
        self.beta = beta

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # z, n

    def update(self, index, weight, grad, state):
        self._update_count(index)
        wd, lr = self._get_wd(index), self._get_lr(index)
        kwargs = self._common_kwargs()
        z, n = state
        ftrl_update(weight, grad, z, n, out=weight, lr=lr, wd=wd, lamda1=self.lamda1,
                    beta=self.beta, **kwargs)


@register
class Adamax(Optimizer):
    """AdaMax (Adam with the infinity norm).

    g = rescale_grad * grad + wd * weight (clipped); m = beta1 m + (1-beta1) g;
    u = max(beta2 u, |g|); weight -= lr / (1 - beta1^t) * m / u.
    """

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super(Adamax, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # mean, inf-norm

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        lr /= (1. - self.beta1 ** t)
        grad = self._prepare_grad(grad, weight, wd, wd_before_clip=True)
        m_t, u_t = state
        m_t[:] *= self.beta1
        m_t[:] += (1. - self.beta1) * grad
        u_t[:] = maximum(self.beta2 * u_t, NDabs(grad))
        weight[:] -= lr * m_t / u_t


@register
class Nadam(Optimizer):
    """Nesterov Adam (Dozat 2016) with the momentum schedule
    mu_t = beta1 (1 - 0.5 * 0.96^(t * schedule_decay))."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 schedule_decay=0.004, **kwargs):
        super(Nadam, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.schedule_decay = schedule_decay
        self.m_schedule = 1.

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        grad = self._prepare_grad(grad, weight, wd, wd_before_clip=True)
        momentum_t = self.beta1 * (1. - 0.5 * (pow(0.96, t * self.schedule_decay)))
        momentum_t_1 = self.beta1 * (1. - 0.5 * (pow(0.96, (t + 1) * self.schedule_decay)))
        self.m_schedule = self.m_schedule * momentum_t
        m_schedule_next = self.m_schedule * momentum_t_1
        m_t, v_t = state
        m_t[:] *= self.beta1
        m_t[:] += (1. - self.beta1) * grad
        v_t[:] *= self.beta2
        v_t[:] += (1. - self.beta2) * grad * grad
        grad_prime = grad / (1. - self.m_schedule)
        m_t_prime = m_t / (1. - m_schedule_next)
        v_t_prime = v_t / (1. - pow(self.beta2, t))
        m_t_bar = (1. - momentum_t) * grad_prime + momentum_t_1 * m_t_prime
        weight[:] -= lr * m_t_bar / (sqrt(v_t_prime) + self.epsilon)


@register
class LAMB(Optimizer):
    """LAMB (You et al. 2019): Adam direction scaled by the trust ratio ||w|| / ||g||.

    Phase 1 (``lamb_update_phase1``) computes the bias-corrected Adam direction plus
    ``wd * weight``; phase 2 (``lamb_update_phase2``) applies ``lr * r1 / r2`` with r1 the
    weight norm clamped to [lower_bound, upper_bound] and r2 the direction norm.
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6,
                 lower_bound=None, upper_bound=None, bias_correction=True, **kwargs):
        super(LAMB, self).__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bias_correction

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))  # mean, var

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        t = self._index_update_count[index]
        kwargs = self._common_kwargs()
        kwargs.update(beta1=self.beta1, beta2=self.beta2, epsilon=self.epsilon,
                      bias_correction=self.bias_correction, t=t)
        bounds = {}
        if self.lower_bound:
            bounds["lower_bound"] = self.lower_bound
        if self.upper_bound:
            bounds["upper_bound"] = self.upper_bound
        if multi_precision:
            weight32 = state[0]
            mean, var = state[1]
            g = mp_lamb_update_phase1(weight, grad, mean, var, weight32, wd=wd, **kwargs)
            r_1, r_2 = weight32.norm(), g.norm()
            mp_lamb_update_phase2(weight, g, r_1, r_2, weight32, lr=lr, out=weight, **bounds)
        else:
            mean, var = state
            g = lamb_update_phase1(weight, grad, mean, var, wd=wd, **kwargs)
            r_1, r_2 = weight.norm(), g.norm()
            lamb_update_phase2(weight, g, r_1, r_2, lr=lr, out=weight, **bounds)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        use_mp = self.multi_precision and weight.dtype == numpy.float16
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


@register
class SGLD(Optimizer):
    """Stochastic gradient Langevin dynamics: an SGD step of lr/2 plus N(0, lr) noise."""

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        grad = self._prepare_grad(grad)
        noise = _nd_random.normal(0, math.sqrt(lr), shape=weight.shape, dtype=weight.dtype,
                                  ctx=weight.context)
        weight[:] += - lr / 2 * (grad + wd * weight) + noise


@register
class DCASGD(Optimizer):
    """Delay-compensated asynchronous SGD (Zheng et al. 2016)."""

    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super(DCASGD, self).__init__(**kwargs)
        self.momentum = momentum
        self.weight_previous = {}
        self.lamda = lamda

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return (None, weight.copy())  # momentum, previous weight
        return (_zeros_like(weight), weight.copy())

    def update(self, index, weight, grad, state):
        self._update_count(index)
        lr, wd = self._get_lr(index), self._get_wd(index)
        grad = self._prepare_grad(grad)
        mom, previous_weight = state
        step = -lr * (grad + wd * weight + self.lamda * grad * grad * (weight - previous_weight))
        if mom is not None:
            mom[:] *= self.momentum
            mom[:] += step
            step = mom
        previous_weight[:] = weight
        weight[:] += step


@register
class Test(Optimizer):
    """The test optimizer: weight += rescale_grad * grad; state holds the weight's copy sum."""

    def create_state(self, index, weight):
        return zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        weight[:] += grad * self.rescale_grad
        state[:] = weight


class Updater(object):
    """Applies an optimizer to (index, grad, weight), creating states on first use.

    Call it as ``updater(index, grad, weight)`` with single values or lists; with lists and
    an optimizer whose `aggregate_num` > 0, up to that many same-dtype parameters go to one
    ``update_multi_precision`` call.
    """

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index, grad, weight):
        if not isinstance(index, (list, tuple)):
            indices, grads, weights = [index], [grad], [weight]
        else:
            indices, grads, weights = list(index), list(grad), list(weight)
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)
        states = self.states
        for i, idx in enumerate(indices):
            if isinstance(idx, bytes):     # string keys from the C side
                idx = indices[i] = py_str(idx)
            if idx not in states:
                states[idx] = self.optimizer.create_state_multi_precision(idx, weights[i])
                self.states_synced[idx] = True
            elif not self.states_synced[idx]:
                states[idx] = self.sync_state_context(states[idx], weights[i].context)
                self.states_synced[idx] = True
        opt = self.optimizer
        if not self.aggregate_updates or opt.aggregate_num <= 0:
            for i, w, g in zip(indices, weights, grads):
                opt.update_multi_precision(i, w, g, states[i])
            return
        by_dtype = {}
        for i, w, g in zip(indices, weights, grads):
            by_dtype.setdefault(w.dtype, []).append((i, w, g))
        step = opt.aggregate_num
        for group in by_dtype.values():
            for start in range(0, len(group), step):
                chunk = group[start:start + step]
                opt.update_multi_precision([c[0] for c in chunk], [c[1] for c in chunk],
                                           [c[2] for c in chunk],
                                           [states[c[0]] for c in chunk])

    def sync_state_context(self, state, context):
        """Moves a (possibly nested) state to `context` (after loading states)."""
        if isinstance(state, NDArray):
            return state.as_in_context(context)
        if isinstance(state, (tuple, list)):
            synced = [self.sync_state_context(s, context) for s in state]
            return tuple(synced) if isinstance(state, tuple) else synced
        return state

    def set_states(self, states):
        """Restores states pickled by `get_states` (optionally with the optimizer)."""
        states = pickle.loads(states)
        if isinstance(states, tuple) and len(states) == 2:
            self.states, self.optimizer = states
            self.aggregate_updates = self.optimizer.aggregate_num > 0
        else:
            self.states = states
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def get_states(self, dump_optimizer=False):
        """Pickled states (and the optimizer when `dump_optimizer`)."""
        return pickle.dumps((self.states, self.optimizer) if dump_optimizer else self.states)


def get_updater(optimizer):
    """Returns an `Updater` closure for `optimizer`."""
    return Updater(optimizer)
