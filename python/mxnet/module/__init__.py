"""`mx.mod`: modules, the intermediate training API over symbols and executors."""
from .base_module import BaseModule
from .module import Module

__all__ = ["BaseModule", "Module"]
