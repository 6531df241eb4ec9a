"""Operator functions of `mx.sym` generated from the library registry at import (image)."""
__all__ = []
