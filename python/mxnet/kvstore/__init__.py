"""Key-value stores for data-parallel training (mx.kv): create('local' | 'device' | 'nccl' |
'dist_sync' | 'dist_device_sync' | 'dist_async' | 'horovod')."""
import ctypes

from ..base import _LIB, check_call, c_str, string_types, KVStoreHandle
from . import base
from .base import KVStoreBase
from .kvstore import KVStore
from .horovod import Horovod
from .kvstore_server import KVStoreServer, _init_kvstore_server_module

__all__ = ["KVStoreBase", "KVStore", "KVStoreServer", "create"]


def create(name='local'):
    """Create a key-value store: 'local', 'device', 'nccl' (CUDA builds with NCCL),
    'dist_sync', 'dist_device_sync', 'dist_async' or 'horovod' (a registered Python store
    first).

    Raises
    ------
    TypeError if name is not a string; MXNetError/ValueError for an unknown type.
    """
    if not isinstance(name, string_types):
        raise TypeError('name must be a string')
    name = name.lower()
    if name in KVStoreBase.kv_registry:
        return KVStoreBase.kv_registry[name]()
    handle = KVStoreHandle()
    check_call(_LIB.MXKVStoreCreate(c_str(name), ctypes.byref(handle)))
    if name == 'horovod':
        return Horovod(handle)
    return KVStore(handle)


# MXNet 1.9.1 defines create in mx.kvstore.base; it needs the stores built on that module, so it
# lives here and is shown there too.
base.create = create
base.__all__.append("create")

_init_kvstore_server_module(create)
