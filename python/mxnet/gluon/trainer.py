"""Gluon `Trainer`: applies an optimizer to a set of Parameters after backward."""
import os
import warnings

from .. import optimizer as opt
from ..kvstore import KVStore, create as kv_create
from ..context import Context
from .parameter import ParameterDict, Parameter

__all__ = ["Trainer"]


class Trainer(object):
    """Updates `params` with `optimizer` (a name or Optimizer) on every `step`.

    Gradients are summed over the parameters' contexts (the role of kvstore='device') and
    rescaled by 1/batch_size before the update.
    """

    def __init__(self, params, optimizer, optimizer_params=None, kvstore="device",
                 compression_params=None, update_on_kvstore=None):
        param_list = []
        if isinstance(params, (dict, ParameterDict)):
            for key in sorted(list(params.keys())):
                param_list.append(params[key])
            params = param_list
        if not isinstance(params, (list, tuple)):
            raise ValueError("First argument must be a list or dict of Parameters, "
                             "got %s." % (type(params)))
        self._params = []
        self._param2idx = {}
        for i, param in enumerate(params):
            if not isinstance(param, Parameter):
                raise ValueError("First argument must be a list or dict of Parameters, "
                                 "got list of %s." % (type(param)))
            self._param2idx[param.name] = i
            self._params.append(param)
            param._set_trainer(self)
        self._compression_params = compression_params
        self._contexts = self._check_contexts()
        optimizer_params = optimizer_params if optimizer_params else {}
        self._init_optimizer(optimizer, optimizer_params)
        self._scale = self._optimizer.rescale_grad
        self._kvstore_params = {"kvstore": kvstore, "update_on_kvstore": update_on_kvstore}
        self._kv_initialized = False
        self._kvstore = None
        self._update_on_kvstore = None
        self._params_to_init = []
        self._reset_kvstore()

    def _check_contexts(self):
        contexts = None
        for param in self._params:
            ctx = param.list_ctx() if (param._data is not None or param._deferred_init) \
                else None
            if ctx is None:
                continue
            assert contexts is None or contexts == ctx, \
                "All Parameters must be initialized on the same set of contexts, but " \
                "Parameter %s is initialized on %s while previous Parameters are " \
                "initialized on %s." % (param.name, str(ctx), str(contexts))
            contexts = ctx
        return contexts

    def _init_optimizer(self, optimizer, optimizer_params):
        param_dict = {i: param for i, param in enumerate(self._params)}
        if isinstance(optimizer, opt.Optimizer):
            assert not optimizer_params, \
                "optimizer_params must be None if optimizer is an instance of Optimizer " \
                "instead of str"
            self._optimizer = optimizer
            self._optimizer.param_dict = param_dict
        else:
            self._optimizer = opt.create(optimizer, param_dict=param_dict, **optimizer_params)
        self._updaters = [opt.get_updater(self._optimizer)
                          for _ in (self._contexts or [None])]

    def _reset_kvstore(self):
        self._kv_initialized = False
        self._kvstore = None
        self._distributed = False
        self._update_on_kvstore = None
        self._params_to_init = [param for param in self._params]

    def _init_kvstore(self):
        """Dense gradients are reduced over contexts locally (the 'device' kvstore role).
        Parameters with row_sparse gradients go through a KVStore, as in MXNet 1.9.1, when one
        is given as an object or when there are several contexts: push the gradients, then pull
        the summed gradients (update_on_kvstore False, the default for a single machine) or
        the weights updated by the store's optimizer (update_on_kvstore=True).
        A distributed kvstore ('dist_sync', ...) carries every parameter (_init_dist_kvstore)."""
        kvstore = self._kvstore_params["kvstore"]
        update_on_kvstore = self._kvstore_params["update_on_kvstore"]
        multi_process = ("dist", "horovod")
        if (isinstance(kvstore, str) and kvstore.lower().startswith(multi_process)) or \
                (isinstance(kvstore, KVStore) and kvstore.type.startswith(multi_process)):
            self._init_dist_kvstore(kvstore, update_on_kvstore)
            return
        self._distributed = False
        self._kvstore = None
        self._kv_inited_keys = set()
        self._update_on_kvstore = False
        if any(p._stype != "default" for p in self._params):
            # As MXNet 1.x: row_sparse weights live in a kvstore that applies the optimizer;
            # row_sparse_data(row_id) pulls the rows a batch needs.
            if update_on_kvstore is False:
                raise ValueError("Cannot set update_on_kvstore=False when sparse weights "
                                 "are present.")
            if isinstance(kvstore, KVStore):
                self._kvstore = kvstore
            elif isinstance(kvstore, str):
                self._kvstore = kv_create(kvstore)
            else:
                raise TypeError("Cannot create '%s' KVStore with row_sparse parameters. The "
                                "type must be KVStore or str." % kvstore)
            self._kvstore.set_optimizer(self._optimizer)
            self._update_on_kvstore = True
            self._kv_initialized = True
            return
        if any(p._grad_stype != "default" for p in self._params):
            contexts = self._contexts_now()
            if isinstance(kvstore, KVStore):
                self._kvstore = kvstore
            elif isinstance(kvstore, str) and contexts is not None and len(contexts) > 1:
                self._kvstore = kv_create(kvstore)
            if self._kvstore is not None and update_on_kvstore:
                if not isinstance(self._optimizer, opt.Optimizer):
                    raise ValueError("Cannot set update_on_kvstore=True for custom optimizers")
                self._kvstore.set_optimizer(self._optimizer)
                self._update_on_kvstore = True
        if update_on_kvstore and not self._update_on_kvstore:
            warnings.warn("update_on_kvstore=True is only supported for parameters with "
                          "row_sparse gradients and a kvstore; parameters are updated locally")
        self._kv_initialized = True

    def _init_dist_kvstore(self, kvstore, update_on_kvstore):
        """Every parameter goes through the distributed store: its first init gives every
        worker rank 0's weights; each step pushes the gradients (summed over this worker's
        contexts, then over the workers) and pulls either the summed gradients (the local
        updaters then run identically on every worker) or, with update_on_kvstore (the default,
        as in MXNet 1.x), the weights the store's optimizer updated."""
        kv = kvstore if isinstance(kvstore, KVStore) else kv_create(kvstore)
        if self._compression_params:
            kv.set_gradient_compression(self._compression_params)
        if not kv.is_capable(KVStore.OPTIMIZER):  # 'horovod': all-reduce only
            if update_on_kvstore:
                raise ValueError("Please set update_on_kvstore to False: the '%s' kvstore "
                                 "runs no optimizer" % kv.type)
            update_on_kvstore = False
        if update_on_kvstore is None:
            update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
        if "async" in kv.type and not update_on_kvstore:
            raise ValueError("Please set update_on_kvstore=True when training in async mode.")
        if update_on_kvstore:
            if not isinstance(self._optimizer, opt.Optimizer):
                raise ValueError("Cannot set update_on_kvstore=True for custom optimizers")
            kv.set_optimizer(self._optimizer)
        self._distributed = True
        self._kvstore = kv
        self._kv_inited_keys = set()
        self._update_on_kvstore = bool(update_on_kvstore)
        self._kv_initialized = True

    def _uses_kvstore(self, param):
        if self._kvstore is None:
            return False
        return self._distributed or param._grad_stype != "default" or \
            param._stype != "default"

    def _init_kv_key(self, i, param):
        if i not in self._kv_inited_keys:
            data = param._check_and_get(param._data, list)
            if self._distributed and not self._kvstore.is_capable("optimizer"):
                self._kvstore.broadcast(i, data[0], out=data, priority=-i)  # keeps no values
            else:
                self._kvstore.init(i, data[0])
                if self._distributed and param._stype == "default":
                    self._kvstore.pull(i, data, priority=-i)  # rank 0's weights everywhere
            self._kv_inited_keys.add(i)

    def _row_sparse_pull(self, parameter, out, row_id, full_idx=False):
        """Pulls the rows `row_id` of a row_sparse parameter into `out` (an array or a list,
        one per context) from the kvstore."""
        # pylint: disable=unused-argument
        if not self._kv_initialized:
            self._init_kvstore()
        idx = self._param2idx[parameter.name]
        self._init_kv_key(idx, parameter)
        self._kvstore.row_sparse_pull(idx, out=out, row_ids=row_id, priority=-idx)

    @property
    def learning_rate(self):
        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning("Optimizer has to be defined before its learning rate can be "
                              "accessed.")
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        if isinstance(self._optimizer, opt.Optimizer):
            return self._optimizer
        raise UserWarning("Optimizer has not been initialized yet")

    def set_learning_rate(self, lr):
        """Sets the optimizer's learning rate."""
        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning("Optimizer has to be defined before its learning rate is "
                              "mutated.")
        self._optimizer.set_learning_rate(lr)

    def _contexts_now(self):
        if self._contexts is None:
            self._contexts = self._check_contexts()
            if self._contexts is not None and len(self._updaters) != len(self._contexts):
                self._updaters = [opt.get_updater(self._optimizer) for _ in self._contexts]
        return self._contexts

    def step(self, batch_size, ignore_stale_grad=False):
        """allreduce_grads + update, with gradients rescaled by 1/batch_size."""
        rescale_grad = self._scale / batch_size
        self._check_and_rescale_grad(rescale_grad)
        if not self._kv_initialized:
            self._init_kvstore()
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def _check_and_rescale_grad(self, scale):
        if self._update_on_kvstore and self._kv_initialized and \
                self._optimizer.rescale_grad != scale:
            raise UserWarning("Possible change in the `batch_size` from previous `step` "
                              "detected. Optimizer gradient normalizing factor will not "
                              "change w.r.t new batch_size when update_on_kvstore=True")
        self._optimizer.rescale_grad = scale

    def allreduce_grads(self):
        """Sums gradients over contexts (for use with a manual `update`)."""
        if not self._kv_initialized:
            self._init_kvstore()
        self._allreduce_grads()

    def _allreduce_grads(self):
        for i, param in enumerate(self._params):
            if param.grad_req == "null" or param._grad is None:
                continue
            grads = param.list_grad()
            if self._uses_kvstore(param):
                self._init_kv_key(i, param)
                if self._distributed and not self._update_on_kvstore and \
                        param._stype == "default":
                    # summed over this worker's contexts and the workers, into every grad
                    self._kvstore.pushpull(i, grads, out=grads, priority=-i)
                    continue
                # Sparse gradients: push, then pull the sum (or the updated weights).
                self._kvstore.push(i, grads, priority=-i)
                if param._stype != "default":
                    continue  # its rows are pulled by row_sparse_data when next needed
                pull_list = param.list_data() if self._update_on_kvstore else grads
                self._kvstore.pull(i, pull_list, priority=-i, ignore_sparse=False)
                continue
            if len(grads) <= 1:
                continue
            total = grads[0].copy()
            for g in grads[1:]:
                total += g.as_in_context(total.context)
            for g in grads:
                total.copyto(g)

    def update(self, batch_size, ignore_stale_grad=False):
        """Applies the optimizer (after allreduce_grads), gradients rescaled by 1/batch_size."""
        if not self._kv_initialized:
            self._init_kvstore()
        if self._update_on_kvstore:
            raise ValueError("update() when parameters are updated on kvstore is not "
                             "supported. Try setting `update_on_kvstore` to False when "
                             "creating trainer.")
        self._check_and_rescale_grad(self._scale / batch_size)
        self._update(ignore_stale_grad)

    def _update(self, ignore_stale_grad=False):
        self._contexts_now()
        updates = [[] for _ in self._updaters]
        for i, param in enumerate(self._params):
            if param.grad_req == "null":
                continue
            if param._data is None:
                if param._deferred_init:
                    if not ignore_stale_grad:
                        raise UserWarning(
                            "Gradient of Parameter `%s` on context %s has not been updated by "
                            "backward since last `step`: its initialization is still "
                            "deferred. Call step with ignore_stale_grad=True to skip it."
                            % (param.name, str(param.list_ctx()[0])))
                    continue
                raise RuntimeError("Parameter '%s' has not been initialized" % param.name)
            if not ignore_stale_grad:
                for data in param._check_and_get(param._data, list):
                    if not data._fresh_grad:
                        raise UserWarning(
                            "Gradient of Parameter `%s` on context %s has not been updated by "
                            "backward since last `step`. This could mean a bug in your model "
                            "that made it only use a subset of the Parameters (Blocks) for "
                            "this iteration. If you are intentionally only using a subset, "
                            "call step with ignore_stale_grad=True to suppress this warning "
                            "and skip updating of Parameters with stale gradient"
                            % (param.name, str(data.context)))
            if self._update_on_kvstore and self._uses_kvstore(param):
                # the store's optimizer already updated it
                for arr in param._check_and_get(param._data, list):
                    arr._fresh_grad = False
                continue
            for upd, arr, grad in zip(updates, param.list_data(), param.list_grad()):
                if not ignore_stale_grad or arr._fresh_grad:
                    upd.append((i, grad, arr))
                    arr._fresh_grad = False
        for updater, upd in zip(self._updaters, updates):
            if upd:
                i, g, w = zip(*upd)
                updater(list(i), list(g), list(w))

    def save_states(self, fname):
        """Writes the optimizer states (and the optimizer) to `fname`."""
        assert self._optimizer is not None
        if not self._kv_initialized:
            self._init_kvstore()
        updater = self._updaters[0]
        if self._update_on_kvstore and self._kvstore._updater is not None:
            # Sparse-gradient parameters keep their states in the kvstore's updater (the keys
            # are parameter indices in both, and disjoint): save them together.
            updater = opt.get_updater(self._optimizer)
            updater.states = dict(self._updaters[0].states)
            updater.states.update(self._kvstore._updater.states)
        with open(fname, "wb") as fout:
            fout.write(updater.get_states(dump_optimizer=True))

    def load_states(self, fname):
        """Restores states written by save_states."""
        if not self._kv_initialized:
            self._init_kvstore()
        with open(fname, "rb") as f:
            states = f.read()
        for updater in self._updaters:
            updater.set_states(states)
            updater.optimizer = self._updaters[0].optimizer
        self._optimizer = self._updaters[0].optimizer
        param_dict = {i: param for i, param in enumerate(self._params)}
        self._optimizer.param_dict = param_dict
        if self._update_on_kvstore and self._kvstore._updater is not None:
            self._kvstore._updater.set_states(states)
            self._kvstore._updater.optimizer = self._optimizer
