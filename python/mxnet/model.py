"""`mx.model`: checkpoints and the parameter-update helpers `Module` uses.

Checkpoint format (MXNet's): ``prefix-symbol.json`` (the symbol's JSON) and
``prefix-%04d.params`` (an NDArray dict file with keys ``arg:<name>`` / ``aux:<name>``).
"""
import logging
import os
from collections import namedtuple

import numpy as np

from . import ndarray as nd
from .context import cpu
# Names MXNet 1.9.1's module also exposes (it imports them).
from .base import mx_real_t  # noqa: F401

__all__ = ["BatchEndParam", "save_checkpoint", "load_params", "load_checkpoint", "FeedForward"]

try:  # FeedForward derives from scikit-learn's BaseEstimator when it is installed
    from sklearn.base import BaseEstimator
    SKLEARN_INSTALLED = True
except ImportError:
    SKLEARN_INSTALLED = False
    BaseEstimator = object
BASE_ESTIMATOR = BaseEstimator

BatchEndParam = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])


def save_checkpoint(prefix, epoch, symbol, arg_params, aux_params, remove_amp_cast=True):
    """Writes ``prefix-symbol.json`` (unless `symbol` is None) and ``prefix-%04d.params``."""
    if symbol is not None:
        symbol.save("%s-symbol.json" % prefix, remove_amp_cast=remove_amp_cast)
    save_dict = {("arg:%s" % k): v.as_in_context(cpu()) for k, v in arg_params.items()}
    save_dict.update({("aux:%s" % k): v.as_in_context(cpu()) for k, v in aux_params.items()})
    param_name = "%s-%04d.params" % (prefix, epoch)
    nd.save(param_name, save_dict)
    logging.info("Saved checkpoint to \"%s\"", param_name)


def load_params(prefix, epoch):
    """Reads ``prefix-%04d.params`` into ``(arg_params, aux_params)``."""
    fname = "%s-%04d.params" % (prefix, epoch)
    save_dict = nd.load(fname)
    arg_params, aux_params = {}, {}
    if not save_dict:
        logging.warning("Params file '%s' is empty", fname)
        return (arg_params, aux_params)
    if not isinstance(save_dict, dict):
        raise ValueError("Invalid params file %s: expected named arrays with arg:/aux: "
                         "prefixes, got an unnamed list" % fname)
    for k, v in save_dict.items():
        tp, sep, name = k.partition(":")
        if not sep or tp not in ("arg", "aux"):
            raise ValueError("Invalid param file %s: key %r has no arg:/aux: prefix"
                             % (fname, k))
        (arg_params if tp == "arg" else aux_params)[name] = v
    return (arg_params, aux_params)


def load_checkpoint(prefix, epoch):
    """Reads a checkpoint: ``(symbol, arg_params, aux_params)``."""
    from . import symbol as sym  # imported here: mx.symbol imports this package's modules
    symbol = sym.load("%s-symbol.json" % prefix)
    arg_params, aux_params = load_params(prefix, epoch)
    return (symbol, arg_params, aux_params)


# ---- parameter updates (shared by Module) ---------------------------------------------------
def _create_kvstore(kvstore, num_device, arg_params):
    """Returns ``(kvstore or None, update_on_kvstore)``.

    A single device on one machine needs no KVStore: the updater runs locally.
    """
    update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, str):
        if num_device == 1 and "dist" not in kvstore:
            kv = None
        else:
            from . import kvstore as kvs
            kv = kvs.create(kvstore)
            if kvstore == "local":
                # Large parameters are cheaper to update on each device than to reduce.
                max_size = max(int(np.prod(param.shape)) for param in arg_params.values())
                if max_size > 1024 * 1024 * 16:
                    update_on_kvstore = False
    elif hasattr(kvstore, "push") and hasattr(kvstore, "pull"):
        kv = kvstore
    else:
        raise TypeError("kvstore must be KVStore, str or None")
    if kv is None:
        update_on_kvstore = False
    elif hasattr(kv, "is_capable"):
        try:
            update_on_kvstore &= bool(kv.is_capable("optimizer"))
        except Exception:  # pylint: disable=broad-except
            pass
    return (kv, update_on_kvstore)


def _initialize_kvstore(kvstore, param_arrays, arg_params, param_names, update_on_kvstore):
    """Initializes every parameter key on the KVStore and, when it updates, pulls it back."""
    for idx, param_on_devs in enumerate(param_arrays):
        name = param_names[idx]
        kvstore.init(name, arg_params[name])
        if update_on_kvstore:
            kvstore.pull(name, param_on_devs, priority=-idx)


def _update_params_on_kvstore(param_arrays, grad_arrays, kvstore, param_names):
    """Pushes gradients to the KVStore (which runs the optimizer) and pulls the weights."""
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        name = param_names[index]
        kvstore.push(name, grad_list, priority=-index)
        kvstore.pull(name, out=arg_list, priority=-index)


def _update_params(param_arrays, grad_arrays, updater, num_device, kvstore=None,
                   param_names=None):
    """Runs `updater` on every (weight, gradient); gradients are summed over devices first
    through the KVStore when there is one. One updater call per device with all indices, so
    the optimizer can batch them (SGD's multi_sgd_* ops)."""
    updates = [[] for _ in range(num_device)]
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        if kvstore:
            name = param_names[index]
            kvstore.push(name, grad_list, priority=-index)
            kvstore.pull(name, grad_list, priority=-index)
        for k, (w, g) in enumerate(zip(arg_list, grad_list)):
            # A distinct index per device so each device keeps its own optimizer state.
            updates[k].append((index * num_device + k, g, w))
    for dev_updates in updates:
        if dev_updates:
            indices, grads, weights = zip(*dev_updates)
            updater(list(indices), list(grads), list(weights))


class FeedForward(BASE_ESTIMATOR):
    """The model API of MXNet's first releases (deprecated in favour of mx.mod.Module, on
    which it runs here): a network `symbol` with one data input and its label, trained by
    `fit` and applied by `predict` / `score`. Data may be DataIters or NumPy arrays / NDArrays
    (batched by `numpy_batch_size`). Extra keyword arguments are optimizer parameters."""

    def __init__(self, symbol, ctx=None, num_epoch=None, epoch_size=None, optimizer='sgd',
                 initializer=None, numpy_batch_size=128, arg_params=None, aux_params=None,
                 allow_extra_params=False, begin_epoch=0, **kwargs):
        from . import initializer as init
        self.symbol = symbol
        self.ctx = [cpu()] if ctx is None else (ctx if isinstance(ctx, list) else [ctx])
        self.num_epoch = num_epoch
        self.epoch_size = epoch_size
        self.optimizer = optimizer
        self.initializer = init.Uniform(0.01) if initializer is None else initializer
        self.numpy_batch_size = numpy_batch_size
        self.arg_params = arg_params
        self.aux_params = aux_params
        self.allow_extra_params = allow_extra_params
        self.begin_epoch = begin_epoch
        self.kwargs = kwargs.copy()
        self._pred_module = None

    def _names(self, data):
        data_names = [d[0] if isinstance(d, tuple) else d.name for d in data.provide_data]
        label_names = [d[0] if isinstance(d, tuple) else d.name
                       for d in (data.provide_label or [])]
        return data_names, [n for n in label_names if n in self.symbol.list_arguments()]

    def _init_iter(self, X, y, is_train):
        """X as a DataIter (NumPy arrays / NDArrays are wrapped in an NDArrayIter)."""
        from . import io
        if isinstance(X, io.DataIter):
            return X
        if hasattr(X, 'asnumpy'):
            X = X.asnumpy()
        if y is None:
            if is_train:
                raise ValueError('y must be specified when X is a numpy.ndarray')
            y = np.zeros(len(X))
        elif hasattr(y, 'asnumpy'):
            y = y.asnumpy()
        batch_size = min(len(X), self.numpy_batch_size)
        return io.NDArrayIter(X, y, batch_size, shuffle=is_train,
                              last_batch_handle='roll_over' if is_train else 'pad')

    def _module(self, data):
        from .module import Module
        data_names, label_names = self._names(data)
        return Module(self.symbol, data_names=data_names, label_names=label_names,
                      context=self.ctx)

    def fit(self, X, y=None, eval_data=None, eval_metric='acc', epoch_end_callback=None,
            batch_end_callback=None, kvstore='local', logger=None, work_load_list=None,
            monitor=None, eval_end_callback=None, eval_batch_end_callback=None):
        """Train for epochs begin_epoch .. num_epoch - 1 on X (and labels y); afterwards
        arg_params and aux_params hold the trained parameters."""
        from . import callback
        data = self._init_iter(X, y, is_train=True)
        if isinstance(eval_data, (tuple, list)) and len(eval_data) == 2:
            eval_data = self._init_iter(eval_data[0], eval_data[1], is_train=False)
        mod = self._module(data)
        if logger is not None:
            mod.logger = logger
        optimizer_params = dict(self.kwargs)
        optimizer_params.setdefault('rescale_grad', 1.0 / data.batch_size)
        mod.fit(data, eval_data=eval_data, eval_metric=eval_metric,
                epoch_end_callback=epoch_end_callback, batch_end_callback=batch_end_callback,
                kvstore=kvstore, optimizer=self.optimizer, optimizer_params=optimizer_params,
                eval_end_callback=eval_end_callback or callback.LogValidationMetricsCallback(),
                eval_batch_end_callback=eval_batch_end_callback, initializer=self.initializer,
                arg_params=self.arg_params, aux_params=self.aux_params,
                allow_missing=True, begin_epoch=self.begin_epoch, num_epoch=self.num_epoch,
                monitor=monitor)
        self.arg_params, self.aux_params = mod.get_params()
        self._pred_module = None
        return self

    def _prediction_module(self, data):
        mod = self._module(data)
        label_names = self._names(data)[1]
        mod.bind(data_shapes=data.provide_data,
                 label_shapes=data.provide_label if label_names else None,
                 for_training=False)
        mod.init_params(arg_params=self.arg_params, aux_params=self.aux_params,
                        allow_missing=False, allow_extra=self.allow_extra_params)
        return mod

    def predict(self, X, num_batch=None, return_data=False, reset=True):
        """The network's outputs on X as NumPy arrays (one array, or a list for several
        outputs); with return_data also the data and labels read."""
        data = self._init_iter(X, None, is_train=False)
        if reset:
            data.reset()
        mod = self._prediction_module(data)
        outputs, datas, labels = None, [], []
        for nbatch, batch in enumerate(data):
            if num_batch is not None and nbatch == num_batch:
                break
            mod.forward(batch, is_train=False)
            keep = batch.data[0].shape[0] - (batch.pad or 0)
            outs = [o[:keep].asnumpy() for o in mod.get_outputs()]
            outputs = [[o] for o in outs] if outputs is None else \
                [acc + [o] for acc, o in zip(outputs, outs)]
            if return_data:
                datas.append(batch.data[0][:keep].asnumpy())
                labels.append(batch.label[0][:keep].asnumpy() if batch.label else None)
        outputs = [np.concatenate(o) for o in outputs]
        result = outputs[0] if len(outputs) == 1 else outputs
        if return_data:
            return result, np.concatenate(datas), (np.concatenate(labels)
                                                   if labels and labels[0] is not None
                                                   else None)
        return result

    def score(self, X, eval_metric='acc', num_batch=None, batch_end_callback=None, reset=True):
        """The value of `eval_metric` on the labelled data X."""
        from . import metric
        data = self._init_iter(X, None, is_train=False)
        if reset:
            data.reset()
        if not isinstance(eval_metric, metric.EvalMetric):
            eval_metric = metric.create(eval_metric)
        mod = self._prediction_module(data)
        mod.score(data, eval_metric, num_batch=num_batch,
                  batch_end_callback=batch_end_callback, reset=False)
        return eval_metric.get()[1]

    def save(self, prefix, epoch=None, remove_amp_cast=True):
        """Write the checkpoint prefix-symbol.json and prefix-<epoch>.params (epoch defaults
        to num_epoch)."""
        epoch = self.num_epoch if epoch is None else epoch
        save_checkpoint(prefix, epoch, self.symbol, self.arg_params, self.aux_params,
                        remove_amp_cast=remove_amp_cast)

    @staticmethod
    def load(prefix, epoch, ctx=None, **kwargs):
        """A FeedForward holding the checkpoint saved at `prefix`, `epoch`."""
        symbol, arg_params, aux_params = load_checkpoint(prefix, epoch)
        return FeedForward(symbol, ctx=ctx, arg_params=arg_params, aux_params=aux_params,
                           begin_epoch=epoch, **kwargs)

    @staticmethod
    def create(symbol, X, y=None, ctx=None, num_epoch=None, epoch_size=None, optimizer='sgd',
               initializer=None, eval_data=None, eval_metric='acc', epoch_end_callback=None,
               batch_end_callback=None, kvstore='local', logger=None, work_load_list=None,
               eval_end_callback=None, eval_batch_end_callback=None, **kwargs):
        """Build a FeedForward and fit it on X (and y)."""
        model = FeedForward(symbol, ctx=ctx, num_epoch=num_epoch, epoch_size=epoch_size,
                            optimizer=optimizer, initializer=initializer, **kwargs)
        return model.fit(X, y, eval_data=eval_data, eval_metric=eval_metric,
                         epoch_end_callback=epoch_end_callback,
                         batch_end_callback=batch_end_callback, kvstore=kvstore, logger=logger,
                         work_load_list=work_load_list, eval_end_callback=eval_end_callback,
                         eval_batch_end_callback=eval_batch_end_callback)
