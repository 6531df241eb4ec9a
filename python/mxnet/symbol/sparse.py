"""Operator functions of `mx.sym` generated from the library registry at import (sparse)."""
__all__ = []
