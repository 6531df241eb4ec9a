"""Structured error classes: a C++ error "<Type>: message" raises the class registered as Type.

    @mx.error.register
    class MyError(mx.MXNetError):
        pass            # C++ `MX_THROW(...)` text starting with "MyError: " now raises MyError
"""
from .base import MXNetError, InternalError, register_error
from .base import ValueError, TypeError, AttributeError, IndexError  # noqa: A004 pylint: disable=redefined-builtin
from .base import NotImplementedError  # noqa: A004 pylint: disable=redefined-builtin

__all__ = ['MXNetError', 'InternalError', 'register', 'register_error']

register = register_error
