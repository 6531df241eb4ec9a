"""Operator functions of `mx.sym` generated from the library registry at import (_internal)."""
__all__ = []
