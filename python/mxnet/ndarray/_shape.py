"""Shape arithmetic done in Python: Reshape's special codes and broadcasting of assigned values.

Pure functions of tuples. Their errors are mx.base.ValueError: an MXNetError (as the library's
shape checks raise in MXNet 1.9.1) that is also a ValueError.
"""
from ..base import ValueError  # noqa: A004  pylint: disable=redefined-builtin

__all__ = ["infer_reshape", "broadcast_shape_for_assign", "shape_size"]


def shape_size(shape):
    """Number of elements of `shape`."""
    size = 1
    for dim in shape:
        size *= dim
    return size


def _infer(src, target):
    out = []
    inferred = -1
    src_idx = 0
    i = 0
    n_src = len(src)
    while i < len(target):
        code = target[i]
        if code == 0:
            if src_idx >= n_src:
                raise ValueError("shape code 0 at position %d has no matching input axis" % i)
            out.append(src[src_idx])
            src_idx += 1
        elif code == -1:
            if inferred >= 0:
                raise ValueError("only one dimension can be -1 (inferred)")
            inferred = len(out)
            out.append(1)
            src_idx += 1
        elif code == -2:
            out.extend(src[src_idx:])
            src_idx = n_src
        elif code == -3:
            if src_idx + 1 >= n_src:
                raise ValueError("shape code -3 at position %d needs two input axes" % i)
            out.append(src[src_idx] * src[src_idx + 1])
            src_idx += 2
        elif code == -4:
            if i + 2 >= len(target):
                raise ValueError("shape code -4 must be followed by two dimensions")
            if src_idx >= n_src:
                raise ValueError("shape code -4 at position %d has no matching input axis" % i)
            d0 = src[src_idx]
            src_idx += 1
            d1, d2 = target[i + 1], target[i + 2]
            i += 2
            if d1 == -1 and d2 == -1:
                raise ValueError("split dims cannot both be -1")
            if d1 == -1:
                d1 = d0 // d2 if d2 else 0
            if d2 == -1:
                d2 = d0 // d1 if d1 else 0
            if d1 < 0 or d2 < 0 or d1 * d2 != d0:
                raise ValueError("split dims %d, %d do not divide input dim %d" % (d1, d2, d0))
            out.extend((d1, d2))
        elif code > 0:
            out.append(code)
            src_idx += 1
        else:
            raise ValueError("invalid shape code %d (valid: positive, 0, -1, -2, -3, -4)" % code)
        i += 1
    if inferred >= 0:
        known = shape_size(out)      # the -1 slot holds 1
        total = shape_size(src)
        if known == 0:
            if total != 0:
                raise ValueError("cannot infer the -1 dimension of a zero-size target")
            out[inferred] = 0
        else:
            out[inferred] = total // known
    return out


def infer_reshape(src, target, reverse=False):
    """The shape `Reshape(shape=target, reverse=reverse)` gives an array of shape `src`.

    Special codes: 0 copy the input dim, -1 infer, -2 copy the remaining dims, -3 merge two
    input dims, -4 split one input dim into the next two values (one may be -1). With
    `reverse` the codes are matched right to left. Raises ValueError when a code cannot apply
    or the element counts differ ("Cannot reshape array of size ...").
    """
    src = tuple(int(d) for d in src)
    target = tuple(int(d) for d in target)
    if reverse:
        out = _infer(src[::-1], target[::-1])[::-1]
    else:
        out = _infer(src, target)
    out = tuple(out)
    if shape_size(out) != shape_size(src):
        raise ValueError("Cannot reshape array of size %d into shape %s"
                         % (shape_size(src), str(target)))
    return out


def broadcast_shape_for_assign(value_shape, target_shape):
    """The shape `value_shape` must be viewed as before broadcasting it to `target_shape`.

    Follows NumPy assignment rules: leading size-1 axes of the value are dropped when it has
    more axes than the target, then it is left-padded with 1s; every axis must then be equal
    to the target's or 1. Raises ValueError otherwise.
    """
    value_shape = tuple(value_shape)
    target_shape = tuple(target_shape)
    shape = value_shape
    while len(shape) > len(target_shape) and shape[0] == 1:
        shape = shape[1:]
    if len(shape) > len(target_shape):
        raise ValueError("could not broadcast input array from shape %s into shape %s"
                         % (value_shape, target_shape))
    shape = (1,) * (len(target_shape) - len(shape)) + shape
    for have, want in zip(shape, target_shape):
        if have != want and have != 1:
            raise ValueError("could not broadcast input array from shape %s into shape %s"
                             % (value_shape, target_shape))
    return shape
