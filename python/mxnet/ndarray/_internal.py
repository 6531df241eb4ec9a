"""Operators whose names start with '_' (creation, scalar, assignment helpers, ...).

Populated at import from the library registry.
"""
__all__ = []
