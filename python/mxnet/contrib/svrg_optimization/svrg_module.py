"""SVRGModule: a Module trained with Stochastic Variance Reduced Gradient (Johnson & Zhang,
"Accelerating Stochastic Gradient Descent using Predictive Variance Reduction", 2013).

Every `update_freq` epochs the module takes a snapshot w~ of its weights and computes the
full gradient mu = mean over the training data of grad(w~). Each update then uses the
variance-reduced gradient grad_batch(w) - grad_batch(w~) + mu, the snapshot gradient coming
from an auxiliary module that holds w~.
"""
import logging
import time

from ... import context as ctx
from ... import initializer as init
from ... import metric
from ... import ndarray as nd
from ...base import _as_list
from ...model import BatchEndParam
from ...module import Module

__all__ = ['SVRGModule']


class SVRGModule(Module):
    """A Module whose `fit` trains with SVRG; `update_freq` (a positive int) is the number of
    epochs between full-gradient snapshots. Other arguments are those of Module. Works with
    a local kvstore (gradients of several devices are summed by the updates as usual)."""

    def __init__(self, symbol, data_names=('data',), label_names=('softmax_label',),
                 logger=logging, context=ctx.cpu(), work_load_list=None,
                 fixed_param_names=None, state_names=None, group2ctxs=None,
                 compression_params=None, update_freq=None):
        if not isinstance(update_freq, int) or isinstance(update_freq, bool):
            raise TypeError('update_freq in SVRGModule must be an integer to represent the '
                            'frequency for calculating full gradients')
        if update_freq <= 0:
            raise ValueError('update_freq in SVRGModule must be a positive integer to '
                             'represent the frequency for calculating full gradients')
        super(SVRGModule, self).__init__(symbol, data_names=data_names,
                                         label_names=label_names, logger=logger,
                                         context=context, work_load_list=work_load_list,
                                         fixed_param_names=fixed_param_names,
                                         state_names=state_names, group2ctxs=group2ctxs,
                                         compression_params=compression_params)
        self.update_freq = update_freq
        self._mod_aux = Module(symbol, data_names=data_names, label_names=label_names,
                               logger=logger, context=context, work_load_list=work_load_list,
                               fixed_param_names=fixed_param_names, state_names=state_names,
                               group2ctxs=group2ctxs, compression_params=compression_params)
        self._param_dict = None
        self._ctx_len = len(self._context)

    def _reset_bind(self):
        super(SVRGModule, self)._reset_bind()
        self._mod_aux._reset_bind()

    def reshape(self, data_shapes, label_shapes=None):
        super(SVRGModule, self).reshape(data_shapes, label_shapes=label_shapes)
        self._mod_aux.reshape(data_shapes, label_shapes=label_shapes)

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req='write'):
        super(SVRGModule, self).bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                                     force_rebind, shared_module, grad_req)
        if for_training:
            self._mod_aux.bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                               force_rebind, shared_module, grad_req)

    def init_optimizer(self, kvstore='local', optimizer='sgd',
                       optimizer_params=(('learning_rate', 0.01),), force_init=False):
        if isinstance(kvstore, str) and kvstore.startswith('dist'):
            raise ValueError('SVRGModule: only local kvstores are supported here, got %r'
                             % kvstore)
        arg_params, _ = self.get_params()
        self._param_dict = [{name: nd.zeros(value.shape, ctx=self._context[i],
                                            dtype=value.dtype)
                             for name, value in arg_params.items()}
                            for i in range(self._ctx_len)]
        super(SVRGModule, self).init_optimizer(kvstore=kvstore, optimizer=optimizer,
                                               optimizer_params=optimizer_params,
                                               force_init=force_init)

    def forward(self, data_batch, is_train=None):
        super(SVRGModule, self).forward(data_batch, is_train)
        if is_train and self._mod_aux.binded and self._mod_aux.params_initialized:
            self._mod_aux.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        super(SVRGModule, self).backward(out_grads)
        if self._mod_aux.binded and self._mod_aux.params_initialized:
            self._mod_aux.backward(out_grads)

    def prepare(self, data_batch, sparse_row_id_fn=None):
        super(SVRGModule, self).prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        if self._mod_aux.binded:
            self._mod_aux.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)

    def update_full_grads(self, train_data):
        """Snapshot the current weights into the auxiliary module and average its gradients
        over all of `train_data` (padding of the last batch excluded)."""
        param_names = self._exec_group.param_names
        arg_params, aux_params = self.get_params()
        if not self._mod_aux.params_initialized:
            self._mod_aux.init_params(arg_params=arg_params, aux_params=aux_params)
        self._mod_aux.set_params(arg_params=arg_params, aux_params=aux_params)
        for per_device in self._param_dict:
            for value in per_device.values():
                value[:] = 0
        train_data.reset()
        nbatch, padding = 0, 0
        for batch in train_data:
            self._mod_aux.forward(batch, is_train=True)
            self._mod_aux.backward()
            nbatch += 1
            for dev in range(self._ctx_len):
                for index, name in enumerate(param_names):
                    grad = self._mod_aux._exec_group.grad_arrays[index][dev]
                    if grad is not None:
                        self._param_dict[dev][name] += grad
            padding = batch.pad or 0
        train_data.reset()
        true_num_batch = nbatch - padding / float(train_data.batch_size)
        for per_device in self._param_dict:
            for value in per_device.values():
                value[:] /= true_num_batch

    def _update_svrg_gradients(self):
        """Replace each gradient g(w) by g(w) - g(w~) + mu."""
        param_names = self._exec_group.param_names
        for dev in range(self._ctx_len):
            for index, name in enumerate(param_names):
                current = self._exec_group.grad_arrays[index][dev]
                snapshot = self._mod_aux._exec_group.grad_arrays[index][dev]
                if current is None or snapshot is None:
                    continue
                current[:] = current - snapshot + self._param_dict[dev][name]

    def update(self):
        self._update_svrg_gradients()
        super(SVRGModule, self).update()

    def fit(self, train_data, eval_data=None, eval_metric='acc', epoch_end_callback=None,
            batch_end_callback=None, kvstore='local', optimizer='sgd',
            optimizer_params=(('learning_rate', 0.01),), eval_end_callback=None,
            eval_batch_end_callback=None, initializer=init.Uniform(0.01), arg_params=None,
            aux_params=None, allow_missing=False, force_rebind=False, force_init=False,
            begin_epoch=0, num_epoch=None, validation_metric=None, monitor=None,
            sparse_row_id_fn=None):
        """Module.fit with SVRG: full gradients are recomputed at the start of every epoch
        that is a multiple of update_freq."""
        if num_epoch is None:
            raise ValueError('please specify number of epochs')
        self.bind(data_shapes=train_data.provide_data, label_shapes=train_data.provide_label,
                  for_training=True, force_rebind=force_rebind)
        if monitor is not None:
            self.install_monitor(monitor)
        self.init_params(initializer=initializer, arg_params=arg_params,
                         aux_params=aux_params, allow_missing=allow_missing,
                         force_init=force_init)
        self.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                            optimizer_params=optimizer_params)
        if validation_metric is None:
            validation_metric = eval_metric
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        for epoch in range(begin_epoch, num_epoch):
            tic = time.time()
            eval_metric.reset()
            if epoch % self.update_freq == 0:
                self.update_full_grads(train_data)
            for nbatch, data_batch in enumerate(train_data):
                if monitor is not None:
                    monitor.tic()
                self.forward_backward(data_batch)
                self.update()
                self.update_metric(eval_metric, data_batch.label)
                if monitor is not None:
                    monitor.toc_print()
                if batch_end_callback is not None:
                    params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric,
                                           locals=locals())
                    for callback in _as_list(batch_end_callback):
                        callback(params)
            for name, val in eval_metric.get_global_name_value():
                self.logger.info('Epoch[%d] Train-%s=%f', epoch, name, val)
            self.logger.info('Epoch[%d] Time cost=%.3f', epoch, time.time() - tic)
            arg_params, aux_params = self.get_params()
            self.set_params(arg_params, aux_params)
            if epoch_end_callback is not None:
                for callback in _as_list(epoch_end_callback):
                    callback(epoch, self.symbol, arg_params, aux_params)
            if eval_data:
                res = self.score(eval_data, validation_metric,
                                 score_end_callback=eval_end_callback,
                                 batch_end_callback=eval_batch_end_callback, epoch=epoch)
                for name, val in res:
                    self.logger.info('Epoch[%d] Validation-%s=%f', epoch, name, val)
            train_data.reset()
