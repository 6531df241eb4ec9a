"""mx.npx: MXNet-specific operators for mx.np arrays and the NumPy-semantics switches."""
# pylint: disable=redefined-builtin
import numpy as _onp

from ..util import set_np, reset_np, is_np_array, is_np_shape, use_np, use_np_array, \
    use_np_shape, np_array, np_shape, set_np_shape
from ..context import cpu, gpu, current_context
from ..util import get_gpu_count as num_gpus
from ..ndarray import op as _ndop
from ..ndarray.ndarray import waitall
from ..numpy.multiarray import _nd, _as_array, reshape as _np_reshape
from . import random
from .utils import save, load  # noqa: F401
from . import image

__all__ = ['set_np', 'reset_np', 'is_np_array', 'is_np_shape', 'use_np', 'use_np_array',
           'use_np_shape', 'np_array', 'np_shape', 'set_np_shape', 'cpu', 'gpu',
           'current_context', 'num_gpus', 'waitall', 'reshape', 'random', 'image', 'save', 'load',
           'constraint_check']

# npx name -> classic operator it runs (MXNet 1.9.1 registers the npx name as its alias).
_OPS = {
    'relu': 'relu', 'sigmoid': 'sigmoid', 'softmax': 'softmax', 'log_softmax': 'log_softmax',
    'masked_softmax': None, 'one_hot': 'one_hot', 'pick': 'pick', 'topk': 'topk',
    'batch_norm': 'BatchNorm', 'convolution': 'Convolution', 'deconvolution': 'Deconvolution',
    'fully_connected': 'FullyConnected', 'pooling': 'Pooling', 'dropout': 'Dropout',
    'embedding': 'Embedding', 'sequence_mask': 'SequenceMask', 'activation': 'Activation',
    'leaky_relu': 'LeakyReLU', 'layer_norm': 'LayerNorm', 'batch_dot': 'batch_dot',
    'batch_flatten': 'Flatten', 'gamma': 'gamma', 'gammaln': 'gammaln', 'erf': 'erf',
    'erfinv': 'erfinv', 'smooth_l1': 'smooth_l1', 'arange_like': '_contrib_arange_like',
    'reshape_like': 'reshape_like', 'shape_array': 'shape_array', 'slice': 'slice',
    'gather_nd': 'gather_nd', 'rnn': 'RNN', 'roi_pooling': 'ROIPooling',
    'cast': 'Cast', 'multibox_prior': '_contrib_MultiBoxPrior',
    'multibox_target': '_contrib_MultiBoxTarget',
    'multibox_detection': '_contrib_MultiBoxDetection',
}


def _make(npx_name, op_name):
    def function(*args, **kwargs):
        from .. import ndarray as _nd_mod
        fn = getattr(_ndop, op_name, None)
        if fn is None:
            fn = getattr(_nd_mod.contrib, op_name[len('_contrib_'):])
        args = [_as_array(a) if isinstance(a, (list, tuple)) is False and hasattr(a, 'handle')
                else a for a in args]
        return _nd(fn, *args, **kwargs)
    function.__name__ = npx_name
    function.__doc__ = 'npx.%s: runs operator %s on mx.np arrays.' % (npx_name, op_name)
    return function


for _name, _op in _OPS.items():
    if _op is not None:
        globals()[_name] = _make(_name, _op)
        __all__.append(_name)


def _npx_reshape_target(shape, newshape, reverse=False):
    """The shape npx.reshape gives: -1 infer, -2 copy the dim, -3 drop a size-1 dim, -4 copy
    the remaining dims, -5 merge two dims, -6 split a dim into the next two values."""
    src = list(shape)
    spec = list(newshape)
    if reverse:
        src = src[::-1]
        spec = spec[::-1]
    out = []
    i = 0
    j = 0
    infer = -1
    while j < len(spec):
        v = spec[j]
        if v >= 0:
            out.append(v)
            i += 1
        elif v == -1:
            infer = len(out)
            out.append(-1)
            i += 1
        elif v == -2:
            out.append(src[i])
            i += 1
        elif v == -3:
            if src[i] != 1:
                raise ValueError('npx.reshape: -3 needs a dimension of size 1, got %d' % src[i])
            i += 1
        elif v == -4:
            out.extend(src[i:])
            i = len(src)
        elif v == -5:
            out.append(src[i] * src[i + 1])
            i += 2
        elif v == -6:
            a, b = spec[j + 1], spec[j + 2]
            if a == -1:
                a = src[i] // b
            if b == -1:
                b = src[i] // a
            out.extend([a, b])
            i += 1
            j += 2
        else:
            raise ValueError('npx.reshape: invalid value %d in newshape %s' % (v, newshape))
        j += 1
    if reverse:
        out = out[::-1]
        if infer != -1:
            infer = len(out) - 1 - infer
    if infer != -1:
        known = int(_onp.prod([d for k, d in enumerate(out) if k != infer]))
        out[infer] = int(_onp.prod(shape)) // known if known else 0
    return tuple(int(d) for d in out)


def reshape(a, newshape, reverse=False, order='C'):
    """npx.reshape with MXNet's special values (see _npx_reshape_target)."""
    a = _as_array(a)
    if isinstance(newshape, int):
        newshape = (newshape,)
    return _np_reshape(a, _npx_reshape_target(a.shape, newshape, reverse), order=order)


def nonzero(a):
    """Indices of the non-zero elements, one row per element (shape (N, a.ndim), int64; a 0-d
    input counts as shape (1,), as in MXNet 1.9.1): operator _npx_nonzero."""
    from ..ndarray.numpy import _internal
    return _nd(_internal._npx_nonzero, _as_array(a))


__all__.append('nonzero')


def constraint_check(input, msg='Constraint violated.'):
    """Check that every element of the boolean array `input` is true: raises ValueError with
    `msg` otherwise, and returns a true 0-d boolean array (to chain into a graph)."""
    from ..numpy.multiarray import array
    value = _as_array(input).asnumpy()
    if not value.all():
        raise ValueError(msg)
    return array(True, dtype=bool, ctx=_as_array(input).context)
