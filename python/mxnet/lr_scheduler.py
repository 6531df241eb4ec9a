"""`mx.lr_scheduler`: learning rate as a function of the number of updates.

A scheduler is called with the optimizer's `num_update` and returns the learning rate. All of
them support a warmup phase: for ``num_update < warmup_steps`` the rate rises linearly from
`warmup_begin_lr` to `base_lr` (`warmup_mode` 'linear') or stays at `warmup_begin_lr`
('constant').
"""
import logging
from math import cos, pi

__all__ = ["LRScheduler", "FactorScheduler", "MultiFactorScheduler", "PolyScheduler",
           "CosineScheduler"]


class LRScheduler(object):
    """Base class: subclasses implement ``__call__(num_update)``."""

    def __init__(self, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0, warmup_mode="linear"):
        self.base_lr = base_lr
        if not isinstance(warmup_steps, int):
            raise TypeError("warmup_steps must be an int, got %s" % type(warmup_steps))
        self.warmup_steps = warmup_steps
        self.warmup_final_lr = base_lr
        self.warmup_begin_lr = warmup_begin_lr
        if self.warmup_begin_lr > self.warmup_final_lr:
            raise ValueError("Base lr has to be higher than warmup_begin_lr")
        if self.warmup_steps < 0:
            raise ValueError("Warmup steps has to be positive or 0")
        if warmup_mode not in ("linear", "constant"):
            raise ValueError("Supports only linear and constant modes of warmup, got %r"
                             % (warmup_mode,))
        self.warmup_mode = warmup_mode

    def get_warmup_lr(self, num_update):
        """Learning rate during warmup (``num_update < warmup_steps``)."""
        if num_update >= self.warmup_steps:
            raise ValueError("update %d is past the %d warmup steps"
                             % (num_update, self.warmup_steps))
        if self.warmup_mode == "linear":
            increase = (self.warmup_final_lr - self.warmup_begin_lr) \
                * float(num_update) / float(self.warmup_steps)
            return self.warmup_begin_lr + increase
        return self.warmup_begin_lr

    def __call__(self, num_update):
        raise NotImplementedError("must override this")


class FactorScheduler(LRScheduler):
    """Multiplies the rate by `factor` every `step` updates, never below `stop_factor_lr`.

    After warmup: lr = base_lr * factor^floor((num_update - 1) / step) (clamped).
    """

    def __init__(self, step, factor=1, stop_factor_lr=1e-8, base_lr=0.01, warmup_steps=0,
                 warmup_begin_lr=0, warmup_mode="linear"):
        super(FactorScheduler, self).__init__(base_lr, warmup_steps, warmup_begin_lr,
                                              warmup_mode)
        if step < 1:
            raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step = step
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.count = 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        # A loop, not an if: training resumed at a later epoch jumps several steps at once.
        while num_update > self.count + self.step:
            self.count += self.step
            self.base_lr *= self.factor
            if self.base_lr < self.stop_factor_lr:
                self.base_lr = self.stop_factor_lr
                logging.info("Update[%d]: now learning rate arrived at %0.5e, will not "
                             "change in the future", num_update, self.base_lr)
            else:
                logging.info("Update[%d]: Change learning rate to %0.5e",
                             num_update, self.base_lr)
        return self.base_lr


class MultiFactorScheduler(LRScheduler):
    """Multiplies the rate by `factor` once past each of the increasing update counts `step`."""

    def __init__(self, step, factor=1, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode="linear"):
        super(MultiFactorScheduler, self).__init__(base_lr, warmup_steps, warmup_begin_lr,
                                                   warmup_mode)
        if not isinstance(step, list) or not step:
            raise ValueError("step must be a non-empty list of update counts")
        for i, _step in enumerate(step):
            if i != 0 and step[i] <= step[i - 1]:
                raise ValueError("Schedule step must be an increasing integer list")
            if _step < 1:
                raise ValueError("Schedule step must be greater or equal than 1 round")
        if factor > 1.0:
            raise ValueError("Factor must be no more than 1 to make lr reduce")
        self.step = step
        self.cur_step_ind = 0
        self.factor = factor
        self.count = 0

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        while self.cur_step_ind < len(self.step) and num_update > self.step[self.cur_step_ind]:
            self.count = self.step[self.cur_step_ind]
            self.cur_step_ind += 1
            self.base_lr *= self.factor
            logging.info("Update[%d]: Change learning rate to %0.5e", num_update, self.base_lr)
        return self.base_lr


class PolyScheduler(LRScheduler):
    """Polynomial decay to `final_lr` at `max_update`.

    lr = final_lr + (base_lr - final_lr) * (1 - (n - warmup_steps) / (max_update - warmup_steps))^pwr
    """

    def __init__(self, max_update, base_lr=0.01, pwr=2, final_lr=0, warmup_steps=0,
                 warmup_begin_lr=0, warmup_mode="linear"):
        super(PolyScheduler, self).__init__(base_lr, warmup_steps, warmup_begin_lr, warmup_mode)
        if not isinstance(max_update, int):
            raise TypeError("max_update must be an int, got %s" % type(max_update))
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.power = pwr
        self.base_lr_orig = self.base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            progress = float(num_update - self.warmup_steps) / float(self.max_steps)
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) \
                * pow(1 - progress, self.power)
        return self.base_lr


class CosineScheduler(LRScheduler):
    """Half-cosine decay to `final_lr` at `max_update`.

    lr = final_lr + (base_lr - final_lr) * (1 + cos(pi * (n - warmup_steps) / (max_update - warmup_steps))) / 2
    """

    def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0, warmup_begin_lr=0,
                 warmup_mode="linear"):
        super(CosineScheduler, self).__init__(base_lr, warmup_steps, warmup_begin_lr,
                                              warmup_mode)
        if not isinstance(max_update, int):
            raise TypeError("max_update must be an int, got %s" % type(max_update))
        if max_update < 1:
            raise ValueError("maximum number of updates must be strictly positive")
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.max_steps = self.max_update - self.warmup_steps

    def __call__(self, num_update):
        if num_update < self.warmup_steps:
            return self.get_warmup_lr(num_update)
        if num_update <= self.max_update:
            progress = float(num_update - self.warmup_steps) / float(self.max_steps)
            self.base_lr = self.final_lr + (self.base_lr_orig - self.final_lr) \
                * (1 + cos(pi * progress)) / 2
        return self.base_lr
