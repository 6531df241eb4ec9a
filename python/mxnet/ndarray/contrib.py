"""Contributed operators (`_contrib_*` registered names, without the prefix).

Populated at import from the library registry.
"""
__all__ = []
