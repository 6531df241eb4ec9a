"""Sparse arrays (CSRNDArray, RowSparseNDArray), their constructors, and the sparse operators
(registered as `_sparse_<name>`, installed here as `<name>` at import from the library registry).
"""
from ._sparse import (BaseSparseNDArray, CSRNDArray, RowSparseNDArray,  # noqa: F401
                      _ndarray_cls, csr_matrix, row_sparse_array, zeros, empty, array, add,
                      subtract, multiply, divide)

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "csr_matrix",
           "row_sparse_array", "zeros", "empty", "array", "add", "subtract", "multiply", "divide"]
