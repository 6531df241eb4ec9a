"""The executor manager of MXNet's first model API (used by FeedForward before Module):
a batch is split over several devices by a work load list, one executor per device runs its
slice, and parameters are read back as the average over the devices."""
import logging

import numpy as np

from .base import mx_real_t
from .context import cpu
from .io import DataDesc

__all__ = ['DataParallelExecutorGroup', 'DataParallelExecutorManager']


def _split_input_slice(batch_size, work_load_list):
    """Slices of a batch of `batch_size` proportional to the work loads."""
    total = float(sum(work_load_list))
    sizes = [int(round(batch_size * w / total)) for w in work_load_list]
    sizes[-1] = batch_size - sum(sizes[:-1])
    if min(sizes) <= 0:
        raise ValueError('Too many slices: some splits of the batch of %d are empty'
                         % batch_size)
    bounds = np.cumsum([0] + sizes)
    return [slice(int(lo), int(hi)) for lo, hi in zip(bounds[:-1], bounds[1:])]


def _load(sources, targets):
    for src, dst in zip(sources, targets):
        for piece, array in dst:
            src[piece].copyto(array)


class DataParallelExecutorGroup(object):
    """One executor of `sym` per context, each bound for its slice of the batch; `arg_names`
    are the symbol's arguments, `param_names` the trained ones. With `shared_group` (another
    bucket of the same model) the parameter arrays are shared."""

    def __init__(self, sym, arg_names, param_names, ctx, slices, train_data, shared_group=None):
        names = sym.list_arguments()
        if len(set(names)) != len(names):
            raise ValueError('Find duplicated argument name, please make the weight name '
                             'non-duplicated (using name arguments), arguments are %s' % names)
        descs = list(train_data.provide_data) + list(train_data.provide_label or [])
        self.data_names = [d[0] for d in train_data.provide_data]
        self.label_names = [d[0] for d in (train_data.provide_label or [])]
        self.aux_names = sym.list_auxiliary_states()
        self.param_idx = [i for i, name in enumerate(arg_names) if name in param_names]
        self.param_names = [arg_names[i] for i in self.param_idx]
        self.slices = slices
        self.train_execs = []
        for i, context in enumerate(ctx):
            shapes, types = {}, {}
            for desc in descs:
                shapes[desc[0]] = (slices[i].stop - slices[i].start,) + tuple(desc[1][1:])
                types[desc[0]] = desc.dtype if isinstance(desc, DataDesc) else mx_real_t
            grad_req = {name: ('write' if name in self.param_names else 'null')
                        for name in names}
            shared = None if shared_group is None else shared_group.train_execs[i]
            self.train_execs.append(sym.simple_bind(
                context, grad_req=grad_req, type_dict=types, shared_exec=shared,
                shared_arg_names=self.param_names if shared is not None else None, **shapes))
        self.data_arrays = [[(slices[i], e.arg_dict[name]) for i, e in enumerate(self.train_execs)]
                            for name in self.data_names]
        self.label_arrays = [[(slices[i], e.arg_dict[name])
                              for i, e in enumerate(self.train_execs)]
                             for name in self.label_names if name in names]
        self.param_arrays = [[e.arg_arrays[i] for e in self.train_execs] for i in self.param_idx]
        self.grad_arrays = [[e.grad_arrays[i] for e in self.train_execs] for i in self.param_idx]
        self.aux_arrays = [[e.aux_arrays[i] for e in self.train_execs]
                           for i in range(len(self.aux_names))]

    def load_data_batch(self, data_batch):
        """Copy each device's slice of the batch's data and labels into its executor."""
        _load(data_batch.data, self.data_arrays)
        _load(data_batch.label or [], self.label_arrays)

    def forward(self, is_train=False):
        for texec in self.train_execs:
            texec.forward(is_train=is_train)

    def backward(self):
        for texec in self.train_execs:
            texec.backward()

    def update_metric(self, metric, labels, pre_sliced=False):
        """Update `metric` with each executor's outputs and its slice of `labels`."""
        for dev, (texec, piece) in enumerate(zip(self.train_execs, self.slices)):
            labels_slice = labels[dev] if pre_sliced else [label[piece] for label in labels]
            metric.update(labels_slice, texec.outputs)


class DataParallelExecutorManager(object):
    """Runs `symbol` data-parallel over the contexts `ctx` for batches of `train_data`
    (split by `work_load_list`); with `sym_gen` (bucketing) a group is bound per bucket key,
    sharing the parameters."""

    def __init__(self, symbol, ctx, train_data, arg_names, param_names, aux_names,
                 work_load_list=None, logger=None, sym_gen=None):
        logger = logger or logging
        logger.info('Start training with %s', str(ctx))
        work_load_list = [1] * len(ctx) if work_load_list is None else work_load_list
        if not isinstance(work_load_list, list) or len(work_load_list) != len(ctx):
            raise ValueError('Invalid settings for work load: expected a list of %d numbers'
                             % len(ctx))
        self.slices = _split_input_slice(train_data.batch_size, work_load_list)
        self.arg_names = arg_names
        self.param_names = param_names
        self.aux_names = aux_names
        self.ctx = ctx
        self.symbol = symbol
        self.sym_gen = sym_gen
        self.execgrp = DataParallelExecutorGroup(symbol, arg_names, param_names, ctx,
                                                 self.slices, train_data)
        self.curr_execgrp = None
        if sym_gen is not None:
            self.execgrp_bucket = {train_data.default_bucket_key: self.execgrp}

    def install_monitor(self, monitor):
        if self.sym_gen is not None:
            raise NotImplementedError('Monitoring is not implemented for bucketing')
        for texec in self.execgrp.train_execs:
            monitor.install(texec)

    def set_params(self, arg_params, aux_params):
        """Copy the parameters into every device's executor."""
        for texec in self.execgrp.train_execs:
            texec.copy_params_from(arg_params, aux_params)

    def copy_to(self, arg_params, aux_params):
        """Write the parameters, averaged over the devices, into the given dicts."""
        for names, blocks, target in ((self.param_names, self.param_arrays, arg_params),
                                      (self.aux_names, self.aux_arrays, aux_params)):
            for name, block in zip(names, blocks):
                total = block[0].copyto(cpu())
                for w in block[1:]:
                    total += w.copyto(cpu())
                (total / len(block)).astype(target[name].dtype).copyto(target[name])

    @property
    def param_arrays(self):
        return self.execgrp.param_arrays

    @property
    def grad_arrays(self):
        return self.execgrp.grad_arrays

    @property
    def aux_arrays(self):
        return self.execgrp.aux_arrays

    def load_data_batch(self, data_batch):
        """Select the group of the batch's bucket (binding it if new) and load the batch."""
        if self.sym_gen is not None:
            key = data_batch.bucket_key
            if key not in self.execgrp_bucket:
                self.execgrp_bucket[key] = DataParallelExecutorGroup(
                    self.sym_gen(key), self.arg_names, self.param_names, self.ctx,
                    self.slices, data_batch, shared_group=self.execgrp)
            self.curr_execgrp = self.execgrp_bucket[key]
        else:
            self.curr_execgrp = self.execgrp
        self.curr_execgrp.load_data_batch(data_batch)

    def forward(self, is_train=False):
        self.curr_execgrp.forward(is_train=is_train)

    def backward(self):
        self.curr_execgrp.backward()

    def update_metric(self, metric, labels, pre_sliced=False):
        self.curr_execgrp.update_metric(metric, labels, pre_sliced)

