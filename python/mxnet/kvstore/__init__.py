"""Key-value stores for data-parallel training (mx.kv): create('local' | 'device')."""
from .base import KVStoreBase, create  # noqa: F401
from .kvstore import KVStore  # noqa: F401

__all__ = ["KVStoreBase", "KVStore", "create"]
