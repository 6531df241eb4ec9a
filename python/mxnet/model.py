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

__all__ = ["BatchEndParam", "save_checkpoint", "load_params", "load_checkpoint"]

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
