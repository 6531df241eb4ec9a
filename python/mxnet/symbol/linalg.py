"""Operator functions of `mx.sym` generated from the library registry at import (linalg)."""
__all__ = []
