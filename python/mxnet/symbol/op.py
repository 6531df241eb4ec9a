"""Operator functions of `mx.sym` generated from the library registry at import (op)."""
__all__ = []
