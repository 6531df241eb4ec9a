"""Sparse arrays (CSRNDArray, RowSparseNDArray), their constructors, and the sparse operators
(registered as `_sparse_<name>`, installed here as `<name>` at import from the library registry).
"""
from ._sparse import (BaseSparseNDArray, CSRNDArray, RowSparseNDArray,  # noqa: F401
                      _ndarray_cls, csr_matrix, row_sparse_array, zeros, empty, array, add,
                      subtract, multiply, divide)
# Names MXNet 1.9.1's module also exposes (it imports them).
from array import array as native_array  # noqa: F401
from builtins import slice as py_slice, sum as py_sum  # noqa: F401
from ..base import (NDArrayHandle, integer_types, numeric_types, mx_real_t,  # noqa: F401
                    NotSupportedForSparseNDArray, c_array_buf, check_call)
from ..context import Context, current_context  # noqa: F401
from .ndarray import NDArray  # noqa: F401

__all__ = ["BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "csr_matrix",
           "row_sparse_array", "zeros", "empty", "array", "add", "subtract", "multiply", "divide"]
