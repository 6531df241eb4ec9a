"""Op table: operators written with the authoring interfaces other than plain NNVM
registration -- legacy OperatorProperty (IdentityAttachKLSparseReg, SequenceMask), SimpleOp
(smooth_l1) -- and the tutorial's NNVM-style contrib.quadratic."""
import numpy as np

from . import FLOATS, FLOATS_AND_HALF, OpEntry, Sample


def _kl_ref(data, moving_avg, **_):
    return data  # forward is the identity; the penalty only enters the gradient


def _sequence_mask_ref(data, sequence_length=None, use_sequence_length=False, value=0.0,
                       axis=0):
    out = data.astype("float64").copy()
    if not use_sequence_length:
        return out
    steps = data.shape[axis]
    for b, length in enumerate(sequence_length.astype("int64")):
        for t in range(int(length), steps):
            if axis == 0:
                out[t, b] = value
            else:
                out[b, t] = value
    return out


def _masked(shape, lengths, axis):
    def make(rng, dtype):
        return [rng.uniform(-2, 2, size=shape).astype(dtype), np.array(lengths, dtype=dtype)]
    return make


def _smooth_l1_ref(x, scalar=1.0):
    x = x.astype("float64")
    s2 = float(scalar) ** 2
    return np.where(np.abs(x) < 1.0 / s2, 0.5 * s2 * x * x, np.abs(x) - 0.5 / s2)


def _quadratic_ref(x, a=0.0, b=0.0, c=0.0):
    x = x.astype("float64")
    return a * x * x + b * x + c


ENTRIES = [
    # The backward adds a sparseness penalty that is not the derivative of the forward.
    OpEntry("IdentityAttachKLSparseReg", ref=_kl_ref, dtypes=("float32",), grad=False,
            low=0.05, high=0.95,
            samples=[Sample([(4, 5), (5,)]),
                     Sample([(3, 2), (2,)], dict(sparseness_target=0.3, penalty=0.01,
                                                  momentum=0.5))]),
    # sequence_length is not differentiable: gradients are checked in test_legacy_ops.py.
    OpEntry("SequenceMask", ref=_sequence_mask_ref, dtypes=FLOATS_AND_HALF, grad=False,
            samples=[Sample([(3, 2, 4)]),
                     Sample(kwargs=dict(use_sequence_length=True, value=-1.0),
                            arrays=_masked((3, 2, 4), [1, 3], 0)),
                     Sample(kwargs=dict(use_sequence_length=True, value=7.0, axis=1),
                            arrays=_masked((2, 4, 3), [2, 0], 1)),
                     Sample(kwargs=dict(use_sequence_length=True),
                            arrays=_masked((5, 3), [5, 2, 4], 0))]),
    OpEntry("smooth_l1", ref=_smooth_l1_ref, dtypes=FLOATS_AND_HALF,
            samples=[Sample([(4, 5)]), Sample([(2, 3, 4)], dict(scalar=2.0)),
                     Sample([(7,)], dict(scalar=0.5))]),
    OpEntry("contrib.quadratic", ref=_quadratic_ref, dtypes=FLOATS_AND_HALF,
            covers=("_contrib_backward_quadratic",),
            samples=[Sample([(2, 3)], dict(a=1.0, b=2.0, c=3.0)), Sample([(4,)]),
                     Sample([(2, 1, 3, 2)], dict(a=-0.5, c=2.0))]),
]

EXEMPT = {
    "Custom": "needs an op_type registered from Python; covered by test_custom_op.py "
              "(forward, backward, aux states, errors, threads)",
}
