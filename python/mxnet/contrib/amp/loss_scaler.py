"""Dynamic loss scaling for float16 training."""
import logging

from ... import autograd as ag  # noqa: F401  (MXNet 1.9.1's module exposes it)
from ... import ndarray as nd
from ...ndarray import multi_all_finite

__all__ = ['LossScaler']

_CHUNK = 200   # gradients checked per multi_all_finite call


class LossScaler(object):
    """Dynamic loss scale: the loss is multiplied by `loss_scale` (2**16 at first) before
    backward so that small float16 gradients do not underflow. A step whose gradients
    overflowed (Inf/NaN) is skipped and halves the scale; 2000 steps in a row without overflow
    double it (up to 2**24)."""

    def __init__(self):
        self._loss_scale = 2. ** 16
        self._next_loss_scale = self._loss_scale
        self._max_loss_scale = 2. ** 24
        self._scale_seq_len = 2000
        self._unskipped = 0
        self._wait_for_outputs = False
        self._has_overflow = False
        self.output = None

    @property
    def loss_scale(self):
        return self._loss_scale

    def has_overflow(self, params):
        """Whether any gradient of the Parameters `params` is not finite."""
        grads = [g for p in params if p.grad_req != 'null' for g in p.list_grad()]
        if not grads:
            return False
        finite = None
        for start in range(0, len(grads), _CHUNK):
            chunk = grads[start:start + _CHUNK]
            ok = multi_all_finite(*chunk, num_arrays=len(chunk))
            finite = ok if finite is None else finite * ok
        return not bool(finite.asscalar())

    def launch_check_overflow(self, params):
        """Start checking the gradients of `params` (the result is read by wait_and_update)."""
        self._wait_for_outputs = True
        grads = [g for p in params if p.grad_req != 'null' for g in p.list_grad()]
        self.output = nd.ones((1,)) if not grads else None
        for start in range(0, len(grads), _CHUNK):
            chunk = grads[start:start + _CHUNK]
            ok = multi_all_finite(*chunk, num_arrays=len(chunk))
            self.output = ok if self.output is None else self.output * ok

    def wait_and_update(self):
        """Whether the checked step overflowed (it must then be skipped); adjusts the scale for
        the next step."""
        if self._wait_for_outputs:
            self._has_overflow = not bool(self.output.asscalar())
            self._loss_scale = self._next_loss_scale
            if self._has_overflow:
                self._next_loss_scale = self._loss_scale / 2.
                self._unskipped = 0
                logging.info('AMP: decreasing loss scale to %f', self._next_loss_scale)
            else:
                self._unskipped += 1
            if self._unskipped == self._scale_seq_len:
                self._unskipped = 0
                self._next_loss_scale = min(self._max_loss_scale, self._loss_scale * 2.)
                logging.info('AMP: increasing loss scale to %f', self._next_loss_scale)
            self._wait_for_outputs = False
        return self._has_overflow
