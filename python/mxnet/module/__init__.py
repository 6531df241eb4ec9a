"""`mx.mod`: modules, the intermediate training API over symbols and executors."""
from .base_module import BaseModule
from .module import Module
from .bucketing_module import BucketingModule
from .sequential_module import SequentialModule
from .python_module import PythonModule, PythonLossModule

__all__ = ["BaseModule", "Module", "BucketingModule", "SequentialModule", "PythonModule",
           "PythonLossModule"]
