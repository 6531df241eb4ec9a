"""Sparse arrays and the sparse operators (`_sparse_*` registered names, without the prefix).

The operator functions are added at import from the library registry.
"""
from ._sparse import (BaseSparseNDArray, CSRNDArray, RowSparseNDArray,  # noqa: F401
                      _ndarray_cls, empty, zeros)

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "empty", "zeros"]
