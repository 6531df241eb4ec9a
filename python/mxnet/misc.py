"""The learning-rate schedulers of MXNet's first API (superseded by mx.lr_scheduler): a
scheduler is called with the iteration number and returns the learning rate."""
import logging
import math

__all__ = ['LearningRateScheduler', 'FactorScheduler']


class LearningRateScheduler(object):
    """Base class: `base_lr` (0.01 unless set) is the learning rate at iteration 0."""

    def __init__(self):
        self.base_lr = 0.01

    def __call__(self, iteration):
        """The learning rate at `iteration`."""
        raise NotImplementedError('must override this')


class FactorScheduler(LearningRateScheduler):
    """base_lr * factor ** floor(iteration / step): the rate shrinks by `factor` every `step`
    iterations (a change is logged)."""

    def __init__(self, step, factor=0.1):
        super(FactorScheduler, self).__init__()
        if step < 1:
            raise ValueError('Schedule step must be greater or equal than 1 round')
        if factor >= 1.0:
            raise ValueError('Factor must be less than 1 to make lr reduce')
        self.step = step
        self.factor = factor
        self.old_lr = self.base_lr
        self.init = False

    def __call__(self, iteration):
        if not self.init:
            self.init = True
            self.old_lr = self.base_lr
        lr = self.base_lr * math.pow(self.factor, int(iteration / self.step))
        if lr != self.old_lr:
            self.old_lr = lr
            logging.info('At Iteration [%d]: Swith to new learning rate %.5f', iteration, lr)
        return lr
