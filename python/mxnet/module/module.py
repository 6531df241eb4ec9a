"""`Module`: a symbol bound on one or more devices, with parameters and an optimizer."""
import logging
import warnings

from .. import context as ctx
from .. import ndarray as nd
from .. import optimizer as opt
from ..initializer import InitDesc, Uniform
from ..model import (_create_kvstore, _initialize_kvstore, _update_params,
                     _update_params_on_kvstore, load_checkpoint)
from .base_module import BaseModule, _check_input_names, _parse_data_desc
from .executor_group import DataParallelExecutorGroup
from ..io import DataDesc


class Module(BaseModule):
    """A module over one Symbol.

    symbol: the network. data_names / label_names / state_names: its input arguments (every
    other argument is a parameter). context: a Context or a list (data parallelism, the batch
    split by `work_load_list`). fixed_param_names: parameters not updated during training.
    """

    def __init__(self, symbol, data_names=("data",), label_names=("softmax_label",),
                 logger=logging, context=ctx.cpu(), work_load_list=None,
                 fixed_param_names=None, state_names=None, group2ctxs=None,
                 compression_params=None):
        super(Module, self).__init__(logger=logger)
        if isinstance(context, ctx.Context):
            context = [context]
        self._context = list(context)
        if work_load_list is None:
            work_load_list = [1] * len(self._context)
        if len(work_load_list) != len(self._context):
            raise ValueError("work_load_list has %d entries for %d contexts"
                             % (len(work_load_list), len(self._context)))
        self._work_load_list = work_load_list
        self._group2ctxs = group2ctxs
        self._symbol = symbol
        data_names = list(data_names) if data_names is not None else []
        label_names = list(label_names) if label_names is not None else []
        state_names = list(state_names) if state_names is not None else []
        fixed_param_names = list(fixed_param_names) if fixed_param_names is not None else []
        _check_input_names(symbol, data_names, "data", True)
        _check_input_names(symbol, label_names, "label", False)
        _check_input_names(symbol, state_names, "state", True)
        _check_input_names(symbol, fixed_param_names, "fixed_param", True)
        arg_names = symbol.list_arguments()
        input_names = data_names + label_names + state_names
        self._param_names = [x for x in arg_names if x not in input_names]
        self._fixed_param_names = fixed_param_names
        self._aux_names = symbol.list_auxiliary_states()
        self._data_names = data_names
        self._label_names = label_names
        self._state_names = state_names
        self._output_names = symbol.list_outputs()
        self._arg_params = None
        self._aux_params = None
        self._params_dirty = False
        self._compression_params = compression_params
        self._optimizer = None
        self._kvstore = None
        self._update_on_kvstore = None
        self._updater = None
        self._preload_opt_states = None
        self._grad_req = None
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    @staticmethod
    def load(prefix, epoch, load_optimizer_states=False, **kwargs):
        """A Module from checkpoint ``prefix-symbol.json`` / ``prefix-%04d.params``.

        The parameters are assigned at `bind`; with `load_optimizer_states` the optimizer
        states in ``prefix-%04d.states`` are restored at `init_optimizer`. Other keyword
        arguments go to the Module constructor.
        """
        sym, args, auxs = load_checkpoint(prefix, epoch)
        mod = Module(symbol=sym, **kwargs)
        mod._arg_params = args
        mod._aux_params = auxs
        mod.params_initialized = True
        if load_optimizer_states:
            mod._preload_opt_states = "%s-%04d.states" % (prefix, epoch)
        return mod

    def save_checkpoint(self, prefix, epoch, save_optimizer_states=False,
                        remove_amp_cast=True):
        """Writes ``prefix-symbol.json``, ``prefix-%04d.params`` (and ``.states``)."""
        self._symbol.save("%s-symbol.json" % prefix, remove_amp_cast=remove_amp_cast)
        param_name = "%s-%04d.params" % (prefix, epoch)
        self.save_params(param_name)
        logging.info("Saved checkpoint to \"%s\"", param_name)
        if save_optimizer_states:
            state_name = "%s-%04d.states" % (prefix, epoch)
            self.save_optimizer_states(state_name)
            logging.info("Saved optimizer state to \"%s\"", state_name)

    def _reset_bind(self):
        self.binded = False
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    # ---- names and shapes ---------------------------------------------------------------
    @property
    def data_names(self):
        return self._data_names

    @property
    def label_names(self):
        return self._label_names

    @property
    def output_names(self):
        return self._output_names

    @property
    def data_shapes(self):
        self._require("binded")
        return self._data_shapes

    @property
    def label_shapes(self):
        self._require("binded")
        return self._label_shapes

    @property
    def output_shapes(self):
        self._require("binded")
        return self._exec_group.get_output_shapes()

    def _require(self, *flags):
        messages = {"binded": "call bind first",
                    "params_initialized": "call init_params (or set_params) first",
                    "optimizer_initialized": "call init_optimizer first"}
        for flag in flags:
            if not getattr(self, flag):
                raise RuntimeError("Module: %s" % messages[flag])

    # ---- parameters ---------------------------------------------------------------------
    def get_params(self):
        """``(arg_params, aux_params)``: CPU copies of the parameters."""
        self._require("binded", "params_initialized")
        if self._params_dirty:
            self._sync_params_from_devices()
        return (self._arg_params, self._aux_params)

    def init_params(self, initializer=Uniform(0.01), arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        """Initializes parameters: from `arg_params`/`aux_params` where given, otherwise with
        `initializer` (only with `allow_missing` when dicts are given)."""
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. "
                          "init_params call ignored.", stacklevel=2)
            return
        self._require("binded")

        def _impl(name, arr, cache):
            if cache is not None:
                if name in cache:
                    cache_arr = cache[name]
                    if cache_arr is not arr:
                        if tuple(cache_arr.shape) != tuple(arr.shape):
                            raise ValueError("Parameter %s: given shape %s does not match "
                                             "the bound shape %s"
                                             % (name, cache_arr.shape, arr.shape))
                        if isinstance(cache_arr, nd.NDArray):
                            cache_arr.copyto(arr)
                        else:
                            arr[:] = cache_arr
                    return
                if not allow_missing:
                    raise RuntimeError("%s is not presented" % name)
            if initializer is not None:
                initializer(name, arr)

        attrs = self._symbol.attr_dict()
        if self._arg_params is None:
            # No host copies yet: initialize the first device's arrays in place and copy them
            # to the other devices. The host copies (a second full set of weights) are made
            # only when get_params() or a kvstore needs them.
            group = self._exec_group
            for names, blocks, given in ((group.param_names, group.param_arrays, arg_params),
                                         (group.aux_names, group.aux_arrays, aux_params)):
                for name, block in sorted(zip(names, blocks), key=lambda nb: nb[0]):
                    _impl(InitDesc(name, attrs.get(name, None)), block[0], given)
                    for dst in block[1:]:
                        block[0].copyto(dst)
            # Given arrays for non-parameter arguments (and unknown names) behave as in
            # set_params: copied, or an error unless allow_extra.
            group.set_params({k: v for k, v in (arg_params or {}).items()
                              if k not in group.param_names},
                             {k: v for k, v in (aux_params or {}).items()
                              if k not in group.aux_names}, allow_extra=allow_extra)
            self.params_initialized = True
            self._params_dirty = True
            return
        for name, arr in sorted(self._arg_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, arg_params)
        for name, arr in sorted(self._aux_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, aux_params)
        self.params_initialized = True
        self._params_dirty = False
        self._exec_group.set_params(self._arg_params, self._aux_params,
                                    allow_extra=allow_extra)

    def set_params(self, arg_params, aux_params, allow_missing=False, force_init=True,
                   allow_extra=False):
        """Assigns parameters from dicts name -> NDArray."""
        if not allow_missing:
            self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                             allow_missing=allow_missing, force_init=force_init,
                             allow_extra=allow_extra)
            return
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. "
                          "set_params call ignored.", stacklevel=2)
            return
        self._exec_group.set_params(arg_params, aux_params, allow_extra=allow_extra)
        self._params_dirty = True      # self._arg_params were not updated
        self.params_initialized = True

    def _sync_params_from_devices(self):
        if self._arg_params is None:
            self._allocate_host_params()
        self._exec_group.get_params(self._arg_params, self._aux_params)
        if self._kvstore and self._update_on_kvstore:
            for param_name, param_val in sorted(self._arg_params.items()):
                if param_val.stype == "row_sparse":
                    row_ids = nd.arange(0, param_val.shape[0], dtype="int64")
                    self._kvstore.row_sparse_pull(param_name, param_val, row_ids=row_ids)
        self._params_dirty = False

    def _allocate_host_params(self):
        group = self._exec_group
        # Host copies keep the storage type of the bound arrays (row_sparse weights stay so).
        self._arg_params = {name: nd.zeros(block[0].shape, dtype=block[0].dtype,
                                           stype=block[0].stype)
                            for name, block in zip(self._param_names, group.param_arrays)}
        self._aux_params = {name: nd.zeros(block[0].shape, dtype=block[0].dtype,
                                           stype=block[0].stype)
                            for name, block in zip(self._aux_names, group.aux_arrays)}

    # ---- binding ------------------------------------------------------------------------
    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        """Allocates executors for these input shapes (DataDesc or ``(name, shape)`` lists)."""
        if force_rebind:
            if self.binded and self.params_initialized and self._params_dirty:
                self._sync_params_from_devices()
            self._reset_bind()
        if self.binded:
            self.logger.warning("Already bound, ignoring bind()")
            return
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._grad_req = grad_req
        if not for_training and inputs_need_grad:
            raise ValueError("inputs_need_grad=True needs for_training=True")
        self._data_shapes, self._label_shapes = _parse_data_desc(
            self.data_names, self.label_names, data_shapes, label_shapes)
        shared_group = None
        if shared_module is not None:
            if not (shared_module.binded and shared_module.params_initialized):
                raise ValueError("shared_module must be bound and have parameters")
            shared_group = shared_module._exec_group
            if len(shared_group.execs) < len(self._context):
                raise ValueError("shared_module has fewer devices than this module")
        self._exec_group = DataParallelExecutorGroup(
            self._symbol, self._context, self._work_load_list, self._data_shapes,
            self._label_shapes, self._param_names, for_training, inputs_need_grad,
            shared_group, logger=self.logger, fixed_param_names=self._fixed_param_names,
            grad_req=grad_req, state_names=self._state_names, group2ctxs=self._group2ctxs)
        self.binded = True
        if shared_module is not None:
            if shared_module._arg_params is None:
                shared_module._sync_params_from_devices()
            self.params_initialized = True
            self._arg_params = shared_module._arg_params
            self._aux_params = shared_module._aux_params
        elif self.params_initialized:
            # Re-binding (or parameters from Module.load): copy them to the new executors.
            self._exec_group.set_params(self._arg_params, self._aux_params)
        # Otherwise the host copies (self._arg_params) are made lazily: init_params writes
        # straight into the executors' arrays.
        if shared_module is not None and shared_module.optimizer_initialized:
            self.borrow_optimizer(shared_module)

    def reshape(self, data_shapes, label_shapes=None):
        """Re-binds for new input shapes (e.g. another batch size); parameters are kept."""
        self._require("binded")
        self._data_shapes, self._label_shapes = _parse_data_desc(
            self.data_names, self.label_names, data_shapes, label_shapes)
        self._exec_group.reshape(self._data_shapes, self._label_shapes)

    # ---- optimizer ----------------------------------------------------------------------
    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        """Creates the optimizer (a name plus `optimizer_params`, or an Optimizer).

        rescale_grad defaults to 1 / batch_size. With one device and a 'local' kvstore the
        updates run in a local Updater (no KVStore).
        """
        self._require("binded", "params_initialized")
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring...")
            return
        device_params = {name: block[0] for name, block in
                         zip(self._exec_group.param_names, self._exec_group.param_arrays)}
        (kvstore, update_on_kvstore) = _create_kvstore(kvstore, len(self._context),
                                                       device_params)
        if kvstore and self._params_dirty:
            self._sync_params_from_devices()
        batch_size = self._exec_group.batch_size
        if kvstore and "dist" in kvstore.type and "_sync" in kvstore.type:
            batch_size *= kvstore.num_workers
        rescale_grad = 1.0 / batch_size
        idx2name = {}
        if update_on_kvstore:
            idx2name.update(enumerate(self._exec_group.param_names))
        else:
            for k in range(len(self._context)):
                idx2name.update({i * len(self._context) + k: n
                                 for i, n in enumerate(self._exec_group.param_names)})
        if isinstance(optimizer, str):
            optimizer_params = dict(optimizer_params)
            if "rescale_grad" not in optimizer_params:
                optimizer_params["rescale_grad"] = rescale_grad
            optimizer = opt.create(optimizer, sym=self.symbol, param_idx2name=idx2name,
                                   **optimizer_params)
        else:
            if not isinstance(optimizer, opt.Optimizer):
                raise TypeError("optimizer must be a name or an mx.optimizer.Optimizer, got %s"
                                % type(optimizer))
            if optimizer.rescale_grad != rescale_grad:
                warnings.warn("Optimizer created manually outside Module but rescale_grad is "
                              "not normalized to 1.0/batch_size/num_workers (%s vs. %s). "
                              "Is this intended?" % (optimizer.rescale_grad, rescale_grad),
                              stacklevel=2)
            if not optimizer.idx2name:
                optimizer.idx2name = idx2name.copy()
        self._optimizer = optimizer
        self._kvstore = kvstore
        self._update_on_kvstore = update_on_kvstore
        self._updater = None
        if kvstore:
            if self._compression_params:
                kvstore.set_gradient_compression(self._compression_params)
            if update_on_kvstore:
                kvstore.set_optimizer(self._optimizer)
            _initialize_kvstore(kvstore=kvstore, param_arrays=self._exec_group.param_arrays,
                                arg_params=self._arg_params,
                                param_names=self._param_names,
                                update_on_kvstore=update_on_kvstore)
        if not update_on_kvstore:
            self._updater = opt.get_updater(optimizer)
        self.optimizer_initialized = True
        if self._preload_opt_states is not None:
            self.load_optimizer_states(self._preload_opt_states)
            self._preload_opt_states = None

    def borrow_optimizer(self, shared_module):
        """Uses another module's optimizer, kvstore and updater (bucketing)."""
        if not shared_module.optimizer_initialized:
            raise RuntimeError("shared_module has no optimizer")
        self._optimizer = shared_module._optimizer
        self._kvstore = shared_module._kvstore
        self._update_on_kvstore = shared_module._update_on_kvstore
        self._updater = shared_module._updater
        self.optimizer_initialized = True

    def save_optimizer_states(self, fname):
        """Writes the optimizer states (the Updater's pickle, as MXNet)."""
        self._require("optimizer_initialized")
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname)
        else:
            with open(fname, "wb") as fout:
                fout.write(self._updater.get_states())

    def load_optimizer_states(self, fname):
        """Restores optimizer states written by `save_optimizer_states`."""
        self._require("optimizer_initialized")
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
        else:
            with open(fname, "rb") as fin:
                self._updater.set_states(fin.read())

    # ---- computation --------------------------------------------------------------------
    def forward(self, data_batch, is_train=None):
        """Runs forward on a DataBatch; re-binds first if its shapes differ from the bound
        ones. is_train None means the bind's `for_training`."""
        self._require("binded", "params_initialized")
        curr_data_shapes = tuple(i.shape for i in self._data_shapes)
        if isinstance(data_batch, list):
            new_data_shapes = []
            for i in range(len(data_batch[0].data)):
                shape = data_batch[0].data[i].shape
                for db in data_batch:
                    if shape != db.data[i].shape:
                        raise ValueError("All data batches in a list need to have the same "
                                         "shape")
                new_data_shapes.append((len(data_batch) * shape[0],) + tuple(shape[1:]))
            new_data_shapes = tuple(new_data_shapes)
        else:
            new_data_shapes = tuple(tuple(i.shape) for i in data_batch.data)
        if curr_data_shapes != new_data_shapes:
            if getattr(data_batch, "provide_data", None):
                new_dshape = data_batch.provide_data
            else:
                new_dshape = [DataDesc(i.name, shape, i.dtype, i.layout)
                              for i, shape in zip(self._data_shapes, new_data_shapes)]
            if getattr(data_batch, "provide_label", None):
                new_lshape = data_batch.provide_label
            elif getattr(data_batch, "label", None) and self._label_shapes:
                new_lshape = [DataDesc(i.name, j.shape, i.dtype, i.layout)
                              for i, j in zip(self._label_shapes, data_batch.label)]
            else:
                new_lshape = None
            self.reshape(new_dshape, new_lshape)
        self._exec_group.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        """Backward pass (out_grads needed only for outputs that are not losses)."""
        self._require("binded", "params_initialized")
        self._exec_group.backward(out_grads=out_grads)

    def update(self):
        """Applies the optimizer to every parameter with a gradient."""
        self._require("binded", "params_initialized", "optimizer_initialized")
        self._params_dirty = True
        group = self._exec_group
        if self._update_on_kvstore:
            _update_params_on_kvstore(group.param_arrays, group.grad_arrays, self._kvstore,
                                      group.param_names)
        else:
            _update_params(group.param_arrays, group.grad_arrays, updater=self._updater,
                           num_device=len(self._context), kvstore=self._kvstore,
                           param_names=group.param_names)

    def get_outputs(self, merge_multi_context=True):
        """Outputs of the last forward (merged over devices unless told otherwise)."""
        self._require("binded", "params_initialized")
        return self._exec_group.get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        """Gradients of the data inputs (bind with inputs_need_grad=True)."""
        self._require("binded", "params_initialized")
        if not self.inputs_need_grad:
            raise RuntimeError("Module: bind with inputs_need_grad=True to get input grads")
        return self._exec_group.get_input_grads(merge_multi_context=merge_multi_context)

    def get_states(self, merge_multi_context=True):
        self._require("binded", "params_initialized")
        return self._exec_group.get_states(merge_multi_context=merge_multi_context)

    def set_states(self, states=None, value=None):
        self._require("binded", "params_initialized")
        self._exec_group.set_states(states, value)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        """Updates `eval_metric` with the last outputs and `labels`."""
        self._exec_group.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon):
        self._require("binded")
        self._exec_group.install_monitor(mon)

    def prepare(self, data_batch, sparse_row_id_fn=None):
        """Row-sparse parameter pulls before a batch (only with a KVStore)."""
        self._require("binded")
        if sparse_row_id_fn is not None and self._kvstore and self._update_on_kvstore:
            row_ids = sparse_row_id_fn(data_batch)
            for param_name, row_id in row_ids.items():
                param_idx = self._exec_group.param_names.index(param_name)
                param_val = self._exec_group.param_arrays[param_idx]
                self._kvstore.row_sparse_pull(param_name, param_val, row_ids=row_id,
                                              priority=-param_idx)
