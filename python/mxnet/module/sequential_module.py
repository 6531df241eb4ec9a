"""`SequentialModule`: modules chained so each one's outputs are the next one's data."""
import copy
import logging

from ..initializer import Uniform
from .base_module import BaseModule


class SequentialModule(BaseModule):
    """A chain of modules. `add(module, take_labels=..., auto_wiring=...)` appends one:
    take_labels: the module receives the batch's labels (and is used for metrics);
    auto_wiring: the previous outputs are renamed to this module's data names at bind."""

    META_TAKE_LABELS = "take_labels"
    META_AUTO_WIRING = "auto_wiring"

    def __init__(self, logger=logging):
        super(SequentialModule, self).__init__(logger=logger)
        self._modules = []
        self._metas = []
        self._label_shapes = None
        self._data_shapes = None
        self._meta_keys = {SequentialModule.META_TAKE_LABELS,
                           SequentialModule.META_AUTO_WIRING}

    def add(self, module, **kwargs):
        """Appends `module`; returns self so calls can be chained."""
        for key in kwargs:
            if key not in self._meta_keys:
                raise ValueError('Unknown meta "%s", a typo? (known: %s)'
                                 % (key, sorted(self._meta_keys)))
        self._modules.append(module)
        self._metas.append(kwargs)
        # A new module invalidates the binding, parameters and optimizer.
        self.binded = False
        self.params_initialized = False
        self.optimizer_initialized = False
        return self

    def _require(self, *flags):
        for flag in flags:
            if not getattr(self, flag):
                raise RuntimeError("SequentialModule: %s is False" % flag)

    @property
    def data_names(self):
        return self._modules[0].data_names if self._modules else []

    @property
    def output_names(self):
        return self._modules[-1].output_names if self._modules else []

    @property
    def data_shapes(self):
        self._require("binded")
        return self._modules[0].data_shapes

    @property
    def label_shapes(self):
        self._require("binded")
        return self._label_shapes

    @property
    def output_shapes(self):
        self._require("binded")
        return self._modules[-1].output_shapes

    def get_params(self):
        self._require("binded", "params_initialized")
        arg_params, aux_params = {}, {}
        for module in self._modules:
            arg, aux = module.get_params()
            arg_params.update(arg)
            aux_params.update(aux)
        return (arg_params, aux_params)

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        if self.params_initialized and not force_init:
            return
        self._require("binded")
        for module in self._modules:
            # Each module gets the given parameters that are its own.
            own_args = _subset(arg_params, getattr(module, "_param_names", None))
            own_aux = _subset(aux_params, getattr(module, "_aux_names", None))
            module.init_params(initializer=initializer, arg_params=own_args,
                               aux_params=own_aux, allow_missing=allow_missing,
                               force_init=force_init, allow_extra=allow_extra)
        known = {}
        for i, module in enumerate(self._modules):
            arg, aux = module.get_params()
            for name in list(arg) + list(aux):
                if name in known:
                    raise ValueError("Duplicated parameter name %r: in layer %d (%s) and "
                                     "layer %d (%s)" % (name, known[name],
                                                        type(self._modules[known[name]]),
                                                        i, type(module)))
                known[name] = i
        self.params_initialized = True

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if inputs_need_grad and not for_training:
            raise ValueError("inputs_need_grad=True needs for_training=True")
        if shared_module is not None:
            raise ValueError("Shared module is not supported by SequentialModule")
        if not self._modules:
            raise ValueError("Attempting to bind an empty SequentialModule")
        self.binded = True
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._label_shapes = label_shapes
        my_data_shapes = data_shapes
        anybody_needs_label = False
        for i_layer, module in enumerate(self._modules):
            meta = self._metas[i_layer]
            if meta.get(SequentialModule.META_TAKE_LABELS, False):
                my_label_shapes = label_shapes
                anybody_needs_label = True
            else:
                my_label_shapes = None
            # Every module after the first must give gradients to the one before it.
            my_inputs_need_grad = bool(inputs_need_grad or (for_training and i_layer > 0))
            if meta.get(SequentialModule.META_AUTO_WIRING, False):
                data_names = module.data_names
                if len(data_names) != len(my_data_shapes):
                    raise ValueError("auto_wiring: module %d has data names %s but the "
                                     "previous module gives %d outputs"
                                     % (i_layer, data_names, len(my_data_shapes)))
                my_data_shapes = [(new_name, shape) for new_name, (_, shape)
                                  in zip(data_names, my_data_shapes)]
            module.bind(data_shapes=my_data_shapes, label_shapes=my_label_shapes,
                        for_training=for_training, inputs_need_grad=my_inputs_need_grad,
                        force_rebind=force_rebind, shared_module=None, grad_req=grad_req)
            my_data_shapes = module.output_shapes
        if not anybody_needs_label:
            self._label_shapes = None

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        self._require("binded", "params_initialized")
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring.")
            return
        for module in self._modules:
            module.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                                  optimizer_params=optimizer_params, force_init=force_init)
        self.optimizer_initialized = True

    def forward(self, data_batch, is_train=None):
        self._require("binded", "params_initialized")
        data_batch = copy.copy(data_batch)
        for i_layer, module in enumerate(self._modules):
            module.forward(data_batch, is_train=is_train)
            if i_layer + 1 == len(self._modules):
                break
            data_batch.data = module.get_outputs()
            if getattr(data_batch, "provide_data", None) is not None:
                next_names = self._modules[i_layer + 1].data_names
                if len(next_names) != len(data_batch.data):
                    next_names = [x[0] for x in module.output_shapes]
                data_batch.provide_data = [(name, x.shape) for name, x
                                           in zip(next_names, data_batch.data)]

    def backward(self, out_grads=None):
        self._require("binded", "params_initialized")
        for i_layer in reversed(range(len(self._modules))):
            module = self._modules[i_layer]
            module.backward(out_grads=out_grads)
            if i_layer == 0:
                break
            out_grads = module.get_input_grads()

    def update(self):
        self._require("binded", "params_initialized", "optimizer_initialized")
        for module in self._modules:
            module.update()

    def get_outputs(self, merge_multi_context=True):
        self._require("binded", "params_initialized")
        return self._modules[-1].get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        self._require("binded", "params_initialized")
        if not self.inputs_need_grad:
            raise RuntimeError("SequentialModule: bind with inputs_need_grad=True")
        return self._modules[0].get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        self._require("binded", "params_initialized")
        for meta, module in zip(self._metas, self._modules):
            if meta.get(SequentialModule.META_TAKE_LABELS, False):
                module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon):
        self._require("binded")
        for module in self._modules:
            module.install_monitor(mon)


def _subset(params, names):
    if params is None or names is None:
        return params
    names = set(names)
    return {k: v for k, v in params.items() if k in names}
