"""Operator functions of `mx.sym` generated from the library registry at import (contrib)."""
__all__ = []
