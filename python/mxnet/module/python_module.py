"""`PythonModule`: a module written in Python (no symbol); `PythonLossModule`: a loss layer
whose gradient is computed by a Python function."""
import logging

from .. import ndarray as nd
from ..initializer import Uniform
from .base_module import BaseModule


class PythonModule(BaseModule):
    """Base of modules computed in Python. Has no parameters; subclasses implement forward,
    backward, get_outputs, get_input_grads and `_compute_output_shapes`."""

    def __init__(self, data_names, label_names, output_names, logger=logging):
        super(PythonModule, self).__init__(logger=logger)
        if isinstance(data_names, tuple):
            data_names = list(data_names)
        if isinstance(label_names, tuple):
            label_names = list(label_names)
        self._data_names = data_names
        self._label_names = label_names
        self._output_names = output_names
        self._data_shapes = None
        self._label_shapes = None
        self._output_shapes = None

    @property
    def data_names(self):
        return self._data_names

    @property
    def output_names(self):
        return self._output_names

    @property
    def data_shapes(self):
        return self._data_shapes

    @property
    def label_shapes(self):
        return self._label_shapes

    @property
    def output_shapes(self):
        return self._output_shapes

    def get_params(self):
        return (dict(), dict())

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        pass

    def update(self):
        pass

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        if self._label_shapes is None:
            return      # not a loss module: nothing to evaluate
        if pre_sliced:
            raise RuntimeError("PythonModule does not support presliced labels")
        eval_metric.update(labels, self.get_outputs())

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if grad_req != "write":
            raise ValueError("Python module only support write gradient, got grad_req=%r"
                             % (grad_req,))
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        given = [x[0] for x in data_shapes]
        if given != list(self._data_names):
            raise ValueError("PythonModule: data shapes are for %s but the data names are %s"
                             % (given, self._data_names))
        self._data_shapes = data_shapes
        self._label_shapes = label_shapes
        if label_shapes is not None:
            given = [x[0] for x in label_shapes]
            if self._label_names is None or given != list(self._label_names):
                raise ValueError("PythonModule: label shapes are for %s but the label names "
                                 "are %s" % (given, self._label_names))
        self._output_shapes = self._compute_output_shapes()
        self.binded = True

    def _compute_output_shapes(self):
        """``[(name, shape)]`` of the outputs, from self._data_shapes / _label_shapes."""
        raise NotImplementedError()

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        pass


class PythonLossModule(PythonModule):
    """A loss: the output is the input scores; backward gives ``grad_func(scores, labels)``
    as the gradient of the scores."""

    def __init__(self, name="pyloss", data_names=("data",), label_names=("softmax_label",),
                 logger=logging, grad_func=None):
        super(PythonLossModule, self).__init__(data_names, label_names, [name + "_output"],
                                               logger=logger)
        self._name = name
        if len(data_names) != 1 or len(label_names) != 1:
            raise ValueError("PythonLossModule takes one data and one label, got %s and %s"
                             % (data_names, label_names))
        self._scores = None
        self._labels = None
        self._scores_grad = None
        if grad_func is not None and not callable(grad_func):
            raise TypeError("grad_func must be callable")
        self._grad_func = grad_func

    def _compute_output_shapes(self):
        return [(self._name + "_output", self._data_shapes[0][1])]

    def forward(self, data_batch, is_train=None):
        self._scores = data_batch.data[0]
        if is_train is None:
            is_train = self.for_training
        if is_train:
            self._labels = data_batch.label[0]

    def get_outputs(self, merge_multi_context=True):
        if not merge_multi_context:
            raise ValueError("PythonLossModule only supports merge_multi_context=True")
        return [self._scores]

    def backward(self, out_grads=None):
        if out_grads is not None:
            raise ValueError("For a loss module, out_grads should be None")
        if not self.for_training:
            raise RuntimeError("PythonLossModule: bind with for_training=True to run backward")
        self._backward_impl()

    def _backward_impl(self):
        """Computes the gradient of the scores (override, or pass grad_func)."""
        if self._grad_func is None:
            raise NotImplementedError("PythonLossModule needs a grad_func (or override "
                                      "_backward_impl)")
        grad = self._grad_func(self._scores, self._labels)
        if not isinstance(grad, nd.NDArray):
            grad = nd.array(grad)
        self._scores_grad = grad

    def get_input_grads(self, merge_multi_context=True):
        if not merge_multi_context:
            raise ValueError("PythonLossModule only supports merge_multi_context=True")
        return [self._scores_grad]

    def install_monitor(self, mon):
        raise NotImplementedError()
