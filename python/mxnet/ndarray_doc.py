"""Hand-written examples appended to the docstrings of generated NDArray functions.

A subclass named ``<op name>Doc`` adds its docstring to the generated docstring of that
operator (leading indentation removed).
"""


class NDArrayDoc(object):
    """The base class for extra NDArray function documentation."""


class ReshapeDoc(NDArrayDoc):
    """
    Examples
    --------
    Reshape and view the same data:

    >>> x = mx.nd.array([1, 2, 3, 4])
    >>> y = mx.nd.reshape(x, shape=(2, 2))
    >>> y.shape
    (2, 2)
    >>> y = mx.nd.reshape(x, shape=(-1, 1))
    >>> y.shape
    (4, 1)
    """


class elemwise_addDoc(NDArrayDoc):  # pylint: disable=invalid-name
    """
    Examples
    --------
    >>> x = mx.nd.array([1, 2, 3, 4])
    >>> y = mx.nd.array([1.1, 2.1, 3.1, 4.1])
    >>> mx.nd.elemwise_add(x, y).asnumpy()
    array([ 2.1,  4.1,  6.1,  8.1], dtype=float32)
    """


class BroadcastToDoc(NDArrayDoc):
    """
    Examples
    --------
    >>> x = mx.nd.array([1, 2, 3])
    >>> y = mx.nd.broadcast_to(x, shape=(2, 3))
    >>> y.asnumpy()
    array([[ 1.,  2.,  3.],
           [ 1.,  2.,  3.]], dtype=float32)
    """


class stackDoc(NDArrayDoc):  # pylint: disable=invalid-name
    """
    Example
    --------
    Join a sequence of arrays along a new axis.

    >>> x = mx.nd.array([1, 2])
    >>> y = mx.nd.array([3, 4])
    >>> stack(x, y)
    [[1, 2],
     [3, 4]]
    >>> stack(x, y, axis=1)
    [[1, 3],
     [2, 4]]
    """
