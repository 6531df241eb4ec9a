"""mx.sym.npx: the npx operators for Symbols (`F.npx` in a hybridized hybrid_forward)."""
from .. import op as _op
from .. import contrib as _contrib
from ...numpy_extension import _OPS
from . import image, random  # noqa: F401

__all__ = ['reshape', 'image', 'random']


def _make(npx_name, op_name):
    def function(*args, **kwargs):
        if op_name.startswith('_contrib_'):
            return getattr(_contrib, op_name[len('_contrib_'):])(*args, **kwargs)
        return getattr(_op, op_name)(*args, **kwargs)
    function.__name__ = npx_name
    function.__doc__ = 'npx.%s for Symbols: records operator %s.' % (npx_name, op_name)
    return function


for _name, _op_name in _OPS.items():
    if _op_name is not None:
        globals()[_name] = _make(_name, _op_name)
        __all__.append(_name)

# npx.reshape's special values in terms of the classic Reshape's (-3, drop a size-1 dim, has
# no classic equivalent).
_RESHAPE_CODES = {-1: -1, -2: 0, -4: -2, -5: -3, -6: -4}


def reshape(a, newshape, reverse=False, order='C'):  # pylint: disable=unused-argument
    if isinstance(newshape, int):
        newshape = (newshape,)
    codes = []
    for v in newshape:
        if v >= 0:
            codes.append(v)
        elif v in _RESHAPE_CODES:
            codes.append(_RESHAPE_CODES[v])
        else:
            raise NotImplementedError('mx.sym.npx.reshape: value %d is not supported for '
                                      'Symbols' % v)
    return _op.Reshape(a, shape=tuple(codes), reverse=reverse)


def _constraint_forward(xs, msg):
    import numpy as onp
    if not xs[0].all():
        raise ValueError(msg)
    return [onp.array(True)]


def constraint_check(input, msg='Constraint violated.'):  # pylint: disable=redefined-builtin
    """A true 0-d boolean Symbol when every element of the boolean `input` is true; running
    the graph raises ValueError with `msg` otherwise (a host operator, see sym.np._host)."""
    import numpy as onp
    from ..numpy._host import host_op
    op = host_op('constraint_check', _constraint_forward,
                 infer_shape=lambda shapes, msg: [()],
                 infer_type=lambda types, msg: [onp.bool_])
    return op(input, msg=msg)


__all__.append('constraint_check')


def nonzero(a):
    """The indices of the non-zero elements of `a`, shape (N, a.ndim), int64 (operator
    _npx_nonzero). The output shape depends on the values: use it in hybridized blocks."""
    from ..numpy import _internal
    return _internal._npx_nonzero(a)


__all__.append('nonzero')
