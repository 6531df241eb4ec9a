"""Operator functions of `mx.nd` generated from the library registry at import.

The names are listed in `__all__` once `mxnet.ndarray` has been imported; see op.pyi for
the signatures (regenerate it with `python3 tools/gen_stubs.py`).
"""
__all__ = []
