"""`BucketingModule`: one `Module` per bucket key (e.g. sequence length), sharing parameters.

`sym_gen(bucket_key)` returns ``(symbol, data_names, label_names)``. The module of
`default_bucket_key` is bound first and owns the parameters, gradients and optimizer; every
other bucket's module is bound with it as `shared_module`, so all buckets read and update the
same arrays. Each batch selects its module through ``DataBatch.bucket_key``.
"""
import logging
import warnings

import numpy as np

from .. import context as ctx
from .. import ndarray as nd
from .. import symbol as sym
from ..model import load_params
from ..initializer import Uniform
from ..name import NameManager
from .base_module import BaseModule, _check_input_names
from .module import Module


class BucketingModule(BaseModule):
    """A module whose symbol depends on the batch's bucket key (see the module docstring)."""

    def __init__(self, sym_gen, default_bucket_key=None, logger=logging, context=ctx.cpu(),
                 work_load_list=None, fixed_param_names=None, state_names=None,
                 group2ctxs=None, compression_params=None):
        super(BucketingModule, self).__init__(logger=logger)
        if default_bucket_key is None:
            raise ValueError("BucketingModule needs a default_bucket_key")
        self._default_bucket_key = default_bucket_key
        self._sym_gen = sym_gen
        symbol, data_names, label_names = self._call_sym_gen(default_bucket_key)
        data_names = list(data_names) if data_names is not None else []
        label_names = list(label_names) if label_names is not None else []
        state_names = list(state_names) if state_names is not None else []
        fixed_param_names = list(fixed_param_names) if fixed_param_names is not None else []
        _check_input_names(symbol, data_names, "data", True)
        _check_input_names(symbol, label_names, "label", False)
        _check_input_names(symbol, state_names, "state", True)
        _check_input_names(symbol, fixed_param_names, "fixed_param", True)
        self._compression_params = compression_params
        self._fixed_param_names = fixed_param_names
        self._state_names = state_names
        self._context = context
        self._work_load_list = work_load_list
        self._group2ctxs = group2ctxs
        self._buckets = {}
        self._curr_module = None
        self._curr_bucket_key = None
        self._params_dirty = False
        self._monitor = None
        self._grad_req = None

    # ---- checkpoints --------------------------------------------------------------------
    def save_checkpoint(self, prefix, epoch, remove_amp_cast=False):
        """Writes ``prefix-%04d.params``, one ``prefix-<bucket_key>-symbol.json`` per bound
        bucket and the list of bucket keys in ``prefix.buckets``."""
        if not self._buckets:
            raise RuntimeError("Empty BucketingModule cannot be saved")
        self.save_params("%s-%04d.params" % (prefix, epoch))
        for bucket_key in self._buckets:
            symbol, _, _ = self._call_sym_gen(bucket_key)
            symbol.save("%s-%s-symbol.json" % (prefix, bucket_key),
                        remove_amp_cast=remove_amp_cast)
        nd.save("%s.buckets" % prefix, nd.array(list(self._buckets.keys()), dtype=np.int32))

    @staticmethod
    def load(prefix, epoch, sym_gen=None, default_bucket_key=None, **kwargs):
        """A BucketingModule from `save_checkpoint` files (bind it before use). Other keyword
        arguments go to the constructor."""
        if sym_gen is None:
            raise ValueError("sym_gen is required for loading BucketingModule")
        if default_bucket_key is None:
            raise ValueError("default_bucket_key is required for loading BucketingModule")
        buckets = [int(k) for k in nd.load("%s.buckets" % prefix)[0].asnumpy()]
        sym_dict = {key: sym.load("%s-%s-symbol.json" % (prefix, key)) for key in buckets}
        arg_params, aux_params = load_params(prefix, epoch)
        return BucketingModule._from_symbols(sym_dict, sym_gen, default_bucket_key,
                                             arg_params, aux_params, kwargs)

    @staticmethod
    def load_dict(sym_dict=None, sym_gen=None, default_bucket_key=None, arg_params=None,
                  aux_params=None, **kwargs):
        """A BucketingModule from symbols per bucket key and parameter dicts."""
        for value, what in ((sym_dict, "sym_dict"), (arg_params, "arg_params"),
                            (aux_params, "aux_params"),
                            (default_bucket_key, "default_bucket_key")):
            if value is None:
                raise ValueError("%s needs to be provided for BucketingModule.load_dict" % what)
        return BucketingModule._from_symbols(sym_dict, sym_gen, default_bucket_key,
                                             arg_params, aux_params, kwargs)

    @staticmethod
    def _from_symbols(sym_dict, sym_gen, default_bucket_key, arg_params, aux_params, kwargs):
        mod = BucketingModule(sym_gen, default_bucket_key, **kwargs)
        module_kwargs = {k: v for k, v in kwargs.items()
                         if k not in ("fixed_param_names", "state_names")}
        for bucket_key, loaded in sym_dict.items():
            _, data_names, label_names = mod._call_sym_gen(bucket_key)
            mod._buckets[bucket_key] = Module(loaded, data_names, label_names,
                                              fixed_param_names=mod._fixed_param_names,
                                              state_names=mod._state_names, **module_kwargs)
        if default_bucket_key not in mod._buckets:
            mod._buckets[default_bucket_key] = mod._new_module(default_bucket_key)
        mod._curr_module = mod._buckets[default_bucket_key]
        mod._curr_module._arg_params = arg_params
        mod._curr_module._aux_params = aux_params
        mod._curr_module.params_initialized = True
        mod.params_initialized = True
        return mod

    def _reset_bind(self):
        self.binded = False
        self._buckets = {}
        self._curr_module = None
        self._curr_bucket_key = None

    def _call_sym_gen(self, *args, **kwargs):
        # A fresh NameManager: every call names its operators the same way, so the symbols
        # of different buckets agree on parameter names.
        with NameManager():
            return self._sym_gen(*args, **kwargs)

    def _new_module(self, bucket_key):
        symbol, data_names, label_names = self._call_sym_gen(bucket_key)
        return Module(symbol, data_names, label_names, logger=self.logger,
                      context=self._context, work_load_list=self._work_load_list,
                      fixed_param_names=self._fixed_param_names,
                      state_names=self._state_names, group2ctxs=self._group2ctxs,
                      compression_params=self._compression_params)

    def _require(self, *flags):
        for flag in flags:
            if not getattr(self, flag):
                raise RuntimeError("BucketingModule: %s is False; call %s first" % (
                    flag, {"binded": "bind", "params_initialized": "init_params",
                           "optimizer_initialized": "init_optimizer"}[flag]))

    # ---- names and shapes ---------------------------------------------------------------
    @property
    def default_bucket_key(self):
        return self._default_bucket_key

    @property
    def data_names(self):
        if self.binded:
            return self._curr_module.data_names
        _, data_names, _ = self._call_sym_gen(self._default_bucket_key)
        return data_names

    @property
    def output_names(self):
        if self.binded:
            return self._curr_module.output_names
        symbol, _, _ = self._call_sym_gen(self._default_bucket_key)
        return symbol.list_outputs()

    @property
    def data_shapes(self):
        self._require("binded")
        return self._curr_module.data_shapes

    @property
    def label_shapes(self):
        self._require("binded")
        return self._curr_module.label_shapes

    @property
    def output_shapes(self):
        self._require("binded")
        return self._curr_module.output_shapes

    @property
    def symbol(self):
        """The symbol of the current bucket."""
        self._require("binded")
        return self._curr_module.symbol

    # ---- parameters ---------------------------------------------------------------------
    def get_params(self):
        self._require("binded", "params_initialized")
        self._curr_module._params_dirty = self._params_dirty or self._curr_module._params_dirty
        params = self._curr_module.get_params()
        self._params_dirty = False
        return params

    def set_params(self, arg_params, aux_params, allow_missing=False, force_init=True,
                   allow_extra=False):
        if not allow_missing:
            self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                             allow_missing=allow_missing, force_init=force_init,
                             allow_extra=allow_extra)
            return
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. "
                          "set_params call ignored.", stacklevel=2)
            return
        self._curr_module.set_params(arg_params, aux_params, allow_missing=allow_missing,
                                     force_init=force_init, allow_extra=allow_extra)
        self._params_dirty = True
        self.params_initialized = True

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        if self.params_initialized and not force_init:
            return
        self._require("binded")
        self._curr_module.init_params(initializer=initializer, arg_params=arg_params,
                                      aux_params=aux_params, allow_missing=allow_missing,
                                      force_init=force_init, allow_extra=allow_extra)
        self._params_dirty = False
        self.params_initialized = True

    def get_states(self, merge_multi_context=True):
        self._require("binded", "params_initialized")
        return self._curr_module.get_states(merge_multi_context=merge_multi_context)

    def set_states(self, states=None, value=None):
        self._require("binded", "params_initialized")
        self._curr_module.set_states(states, value)

    # ---- binding ------------------------------------------------------------------------
    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        """Binds the default bucket's module (the shapes are the default bucket's)."""
        if self.params_initialized:
            if self.binded:
                arg_params, aux_params = self.get_params()
            else:       # parameters from load / load_dict, held by the default module
                arg_params = self._curr_module._arg_params
                aux_params = self._curr_module._aux_params
        if force_rebind:
            self._reset_bind()
        if self.binded:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if shared_module is not None:
            raise ValueError("shared_module for BucketingModule is not supported")
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.binded = True
        self._grad_req = grad_req
        module = self._new_module(self._default_bucket_key)
        module.bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                    force_rebind=False, shared_module=None, grad_req=grad_req)
        self._curr_module = module
        self._curr_bucket_key = self._default_bucket_key
        self._buckets[self._default_bucket_key] = module
        if self.params_initialized:
            self.set_params(arg_params, aux_params)

    def switch_bucket(self, bucket_key, data_shapes, label_shapes=None):
        """Makes `bucket_key`'s module current, binding it (sharing the default bucket's
        parameters) the first time the key is seen."""
        self._require("binded")
        if bucket_key not in self._buckets:
            module = self._new_module(bucket_key)
            module.bind(data_shapes, label_shapes, self._curr_module.for_training,
                        self._curr_module.inputs_need_grad, force_rebind=False,
                        shared_module=self._buckets[self._default_bucket_key],
                        grad_req=self._grad_req)
            if self._monitor is not None:
                module.install_monitor(self._monitor)
            self._buckets[bucket_key] = module
        else:
            module = self._buckets[bucket_key]
            if not module.binded:       # created by load / load_dict
                module.bind(data_shapes, label_shapes, self._curr_module.for_training,
                            self._curr_module.inputs_need_grad, force_rebind=False,
                            shared_module=self._buckets[self._default_bucket_key],
                            grad_req=self._grad_req)
                if self._monitor is not None:
                    module.install_monitor(self._monitor)
        self._curr_module = module
        self._curr_bucket_key = bucket_key

    # ---- optimizer ----------------------------------------------------------------------
    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        self._require("binded", "params_initialized")
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring.")
            return
        self._curr_module.init_optimizer(kvstore, optimizer, optimizer_params,
                                         force_init=force_init)
        for mod in self._buckets.values():
            if mod is not self._curr_module:
                mod.borrow_optimizer(self._curr_module)
        self.optimizer_initialized = True

    # ---- computation --------------------------------------------------------------------
    def prepare(self, data_batch, sparse_row_id_fn=None):
        self._require("binded", "params_initialized")
        original_bucket_key = self._curr_bucket_key
        self.switch_bucket(data_batch.bucket_key, data_batch.provide_data,
                           data_batch.provide_label)
        self._curr_module.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        self.switch_bucket(original_bucket_key, None, None)

    def forward(self, data_batch, is_train=None):
        """Switches to the batch's bucket (``data_batch.bucket_key``) and runs forward."""
        self._require("binded", "params_initialized")
        bucket_key = getattr(data_batch, "bucket_key", None)
        if bucket_key is None:
            bucket_key = self._curr_bucket_key
        self.switch_bucket(bucket_key, data_batch.provide_data, data_batch.provide_label)
        self._curr_module.forward(data_batch, is_train=is_train)

    def backward(self, out_grads=None):
        self._require("binded", "params_initialized")
        self._curr_module.backward(out_grads=out_grads)

    def update(self):
        self._require("binded", "params_initialized", "optimizer_initialized")
        self._params_dirty = True
        self._curr_module.update()

    def get_outputs(self, merge_multi_context=True):
        self._require("binded", "params_initialized")
        return self._curr_module.get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        self._require("binded", "params_initialized")
        if not self.inputs_need_grad:
            raise RuntimeError("BucketingModule: bind with inputs_need_grad=True to get "
                               "input gradients")
        return self._curr_module.get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        self._require("binded", "params_initialized")
        self._curr_module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon):
        self._require("binded")
        self._monitor = mon
        for mod in self._buckets.values():
            mod.install_monitor(mon)
