"""Key-value stores for data-parallel training (mx.kv): create('local' | 'device' |
'dist_sync' | 'dist_device_sync')."""
from .base import KVStoreBase, create  # noqa: F401
from .kvstore import KVStore  # noqa: F401
from .kvstore_server import KVStoreServer  # noqa: F401

__all__ = ["KVStoreBase", "KVStore", "KVStoreServer", "create"]
