"""Op-table entries for the element-wise, broadcast, scalar and creation families
(src/operator/tensor/elemwise_*, init_op, control_flow_op, nn/activation)."""
import math

import numpy as np

from . import ALL_NUMERIC, FLOATS, FLOATS_AND_HALF, INTS, OpEntry, Sample

ALL_AND_HALF = ALL_NUMERIC + ("float16",)

UNARY_SHAPES = [Sample([(3, 4)]), Sample([(2, 3, 4)]), Sample([(7,)])]


def _keep(fn):
    """Reference that returns the input dtype (integer inputs: computed in float, truncated)."""
    def ref(*args, **kwargs):
        out = np.asarray(fn(*args, **kwargs))
        return out.astype(args[0].dtype)
    return ref


def _vec(fn):
    return np.vectorize(lambda v: fn(float(v)), otypes=[np.float64])


def _erfinv(y):
    y = np.asarray(y, dtype=np.float64)
    x = np.zeros_like(y)
    erf = _vec(math.erf)
    for _ in range(60):  # Newton iterations from 0 converge for |y| < 1
        x = x - (erf(x) - y) / (2.0 / math.sqrt(math.pi) * np.exp(-x * x))
    return x


def _round_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _softrelu(x):
    x = x.astype(np.float64)
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


def _unary(name, fn, dtypes=FLOATS_AND_HALF, low=-2.0, high=2.0, grad=True, **kw):
    return OpEntry(name, ref=_keep(fn), samples=UNARY_SHAPES, dtypes=dtypes, low=low, high=high,
                   grad=grad, **kw)


UNARY = [
    _unary("abs", np.abs, ALL_AND_HALF),
    _unary("sign", np.sign, ALL_AND_HALF, grad=False),
    _unary("negative", np.negative, FLOATS_AND_HALF + ("int32", "int64", "int8")),
    _unary("reciprocal", np.reciprocal, low=0.5, high=3.0),
    _unary("square", np.square, ALL_AND_HALF),
    _unary("sqrt", np.sqrt, ALL_AND_HALF, low=0.1, high=9.0),
    _unary("rsqrt", lambda x: 1.0 / np.sqrt(x.astype(np.float64)), low=0.2, high=9.0),
    _unary("cbrt", np.cbrt, FLOATS_AND_HALF + ("int32",), low=-8.0, high=8.0),
    _unary("rcbrt", lambda x: 1.0 / np.cbrt(x.astype(np.float64)), low=0.2, high=8.0),
    _unary("exp", np.exp, FLOATS_AND_HALF + ("int32", "int64")),
    _unary("expm1", np.expm1),
    _unary("log", np.log, low=0.1, high=5.0),
    _unary("log10", np.log10, low=0.1, high=5.0),
    _unary("log2", np.log2, low=0.1, high=5.0),
    _unary("log1p", np.log1p, low=-0.5, high=5.0),
    _unary("sin", np.sin, FLOATS_AND_HALF + ("int32",)),
    _unary("cos", np.cos),
    _unary("tan", np.tan, low=-1.2, high=1.2),
    _unary("arcsin", np.arcsin, low=-0.9, high=0.9),
    _unary("arccos", np.arccos, low=-0.9, high=0.9),
    _unary("arctan", np.arctan),
    _unary("degrees", np.degrees, FLOATS + ("int32",), low=-3.0, high=3.0),
    _unary("radians", np.radians, low=-180.0, high=180.0),
    _unary("sinh", np.sinh),
    _unary("cosh", np.cosh),
    _unary("tanh", np.tanh),
    _unary("arcsinh", np.arcsinh),
    _unary("arccosh", np.arccosh, low=1.1, high=4.0),
    _unary("arctanh", np.arctanh, low=-0.9, high=0.9),
    _unary("floor", np.floor, ALL_AND_HALF, grad=False),
    _unary("ceil", np.ceil, ALL_AND_HALF, grad=False),
    _unary("round", _round_half_away, ALL_AND_HALF, grad=False),
    _unary("rint", np.rint, ALL_AND_HALF, grad=False),
    _unary("trunc", np.trunc, ALL_AND_HALF, grad=False),
    _unary("fix", np.fix, ALL_AND_HALF, grad=False),
    _unary("gamma", _vec(math.gamma), FLOATS, low=0.2, high=4.0),
    _unary("gammaln", _vec(math.lgamma), FLOATS, low=0.2, high=4.0),
    _unary("erf", _vec(math.erf)),
    _unary("erfinv", _erfinv, FLOATS, low=-0.9, high=0.9, rtol=1e-4, atol=1e-5),
    _unary("relu", lambda x: np.maximum(x, 0), ALL_AND_HALF),
    _unary("sigmoid", _sigmoid),
    _unary("softsign", lambda x: x / (1 + np.abs(x))),
    _unary("logical_not", lambda x: (x == 0), ALL_AND_HALF, grad=False),
    _unary("_copy", lambda x: x, ALL_AND_HALF, covers=("identity",)),
    _unary("BlockGrad", lambda x: x, ALL_AND_HALF, grad=False, covers=("stop_gradient",)),
    _unary("_internal._copyto", lambda x: x, ALL_AND_HALF, grad=False),
    _unary("zeros_like", np.zeros_like, ALL_AND_HALF, grad=False),
    _unary("ones_like", np.ones_like, ALL_AND_HALF, grad=False),
]

ACTIVATION_REFS = {
    "relu": lambda x: np.maximum(x, 0),
    "sigmoid": _sigmoid,
    "tanh": np.tanh,
    "softrelu": _softrelu,
    "softsign": lambda x: x / (1 + np.abs(x)),
}

MISC = [
    OpEntry("Activation", ref=_keep(lambda x, act_type: ACTIVATION_REFS[act_type](x)),
            samples=[Sample([(3, 4)], {"act_type": t}) for t in sorted(ACTIVATION_REFS)] +
            [Sample([(2, 3, 5)], {"act_type": "relu"})],
            dtypes=FLOATS_AND_HALF),
    OpEntry("clip",
            ref=lambda x, a_min, a_max: np.clip(x.astype(np.float64), a_min, a_max).astype(x.dtype),
            samples=[Sample([(3, 4)], {"a_min": -0.5, "a_max": 0.8}),
                     Sample([(2, 3, 4)], {"a_min": -1.0, "a_max": 1.0})],
            dtypes=ALL_AND_HALF),
    OpEntry("Cast", ref=lambda x, dtype: x.astype(dtype),
            samples=[Sample([(3, 4)], {"dtype": "float64"}), Sample([(3, 4)], {"dtype": "float16"}),
                     Sample([(3, 4)], {"dtype": "int32"}), Sample([(3, 4)], {"dtype": "bool"}),
                     Sample([(2, 5)], {"dtype": "int64"})],
            dtypes=FLOATS + ("int32", "int8"), grad=False, covers=("cast",)),
    OpEntry("Cast", ref=lambda x, dtype: x.astype(dtype),
            samples=[Sample([(3, 4)], {"dtype": "uint8"}), Sample([(3, 4)], {"dtype": "float32"})],
            dtypes=("float32", "uint8", "int32"), low=0.0, high=200.0, grad=False),
]


# ---------------------------------------------------------------------------- where

def _where_ref(cond, x, y):
    c = (cond != 0).reshape(cond.shape + (1,) * (x.ndim - cond.ndim))
    return np.where(c, x, y)


def _where_arrays(cond_shape, shape):
    def make(rng, dtype):
        cond = rng.randint(-1, 2, size=cond_shape).astype(np.float32)
        return [cond, _draw(rng, shape, dtype), _draw(rng, shape, dtype)]
    return make


def _draw(rng, shape, dtype, low=-3, high=4):
    if np.issubdtype(np.dtype(dtype), np.integer):
        lo = max(low, np.iinfo(dtype).min)
        return rng.randint(lo, high, size=shape).astype(dtype)
    return rng.uniform(low, high, size=shape).astype(dtype)


WHERE = [
    OpEntry("where", ref=_where_ref,
            samples=[Sample(arrays=_where_arrays((3, 4), (3, 4))),
                     Sample(arrays=_where_arrays((4,), (4, 2, 3))),
                     Sample(arrays=_where_arrays((2, 3, 2), (2, 3, 2)))],
            dtypes=ALL_AND_HALF),
]


# ---------------------------------------------------------------------------- binary ops

SAME_SHAPES = [Sample([(3, 4), (3, 4)]), Sample([(2, 3, 4), (2, 3, 4)]), Sample([(5,), (5,)])]

BROADCAST_SHAPES = [Sample([(2, 3), (1, 3)]), Sample([(4, 1, 5), (6, 5)]),
                    Sample([(3, 4), (3, 4)]), Sample([(2, 1, 3, 1), (1, 4, 1, 5)]),
                    Sample([(5,), (1,)]), Sample([(1,), (2, 3)]), Sample([(3, 1), (1, 4)]),
                    Sample([(64, 600), (600,)])]


def _nonzero_rhs(shapes, low=0.5, high=3.0):
    """lhs anywhere in [-3, 3]; rhs bounded away from 0 (for div/mod)."""
    def make(rng, dtype):
        lhs = _draw(rng, shapes[0], dtype)
        if np.issubdtype(np.dtype(dtype), np.integer):
            mag = rng.randint(1, 4, size=shapes[1])
        else:
            mag = rng.uniform(low, high, size=shapes[1])
        sign = 1 if np.dtype(dtype).kind == "u" else rng.choice([-1, 1], size=shapes[1])
        return [lhs, (mag * sign).astype(dtype)]
    return make


def _power_arrays(shapes):
    def make(rng, dtype):
        if np.issubdtype(np.dtype(dtype), np.integer):
            return [rng.randint(1, 4, size=shapes[0]).astype(dtype),
                    rng.randint(0, 4, size=shapes[1]).astype(dtype)]
        return [rng.uniform(0.5, 2.0, size=shapes[0]).astype(dtype),
                rng.uniform(-2.0, 2.0, size=shapes[1]).astype(dtype)]
    return make


def _small_int_arrays(shapes):
    """Small integer values in any dtype, so comparisons see ties and logic ops see zeros."""
    def make(rng, dtype):
        lo = 0 if np.dtype(dtype).kind == "u" else -2
        return [rng.randint(lo, 3, size=s).astype(dtype) for s in shapes]
    return make


def _div_ref(a, b):
    if np.issubdtype(a.dtype, np.integer):  # C truncation, like MXNet's integer division
        return np.trunc(a.astype(np.float64) / b.astype(np.float64)).astype(a.dtype)
    return (a / b).astype(a.dtype)


def _cmp(fn):
    return lambda a, b: fn(a, b).astype(np.result_type(a, b))


ARITH = [
    # (elemwise name, broadcast name, ref, dtypes, sample builder or None, grad)
    ("elemwise_add", "broadcast_add", np.add, ALL_AND_HALF, None, True),
    ("elemwise_sub", "broadcast_sub", np.subtract, ALL_AND_HALF, None, True),
    ("elemwise_mul", "broadcast_mul", np.multiply, ALL_AND_HALF, None, True),
    ("elemwise_div", "broadcast_div", _div_ref, FLOATS_AND_HALF + ("int32", "int64"),
     _nonzero_rhs, True),
    ("_mod", "broadcast_mod", np.mod, FLOATS + INTS, _nonzero_rhs, True),
    ("_power", "broadcast_power", np.power, FLOATS + ("int32", "int64"), _power_arrays, True),
    ("_maximum", "broadcast_maximum", np.maximum, ALL_AND_HALF, None, True),
    ("_minimum", "broadcast_minimum", np.minimum, ALL_AND_HALF, None, True),
    ("_hypot", "broadcast_hypot", np.hypot, FLOATS_AND_HALF, None, True),
    ("_equal", "broadcast_equal", _cmp(np.equal), ALL_AND_HALF, _small_int_arrays, False),
    ("_not_equal", "broadcast_not_equal", _cmp(np.not_equal), ALL_AND_HALF, _small_int_arrays,
     False),
    ("_greater", "broadcast_greater", _cmp(np.greater), ALL_AND_HALF, _small_int_arrays, False),
    ("_greater_equal", "broadcast_greater_equal", _cmp(np.greater_equal), ALL_AND_HALF,
     _small_int_arrays, False),
    ("_lesser", "broadcast_lesser", _cmp(np.less), ALL_AND_HALF, _small_int_arrays, False),
    ("_lesser_equal", "broadcast_lesser_equal", _cmp(np.less_equal), ALL_AND_HALF,
     _small_int_arrays, False),
    ("_logical_and", "broadcast_logical_and", _cmp(np.logical_and), ALL_AND_HALF,
     _small_int_arrays, False),
    ("_logical_or", "broadcast_logical_or", _cmp(np.logical_or), ALL_AND_HALF,
     _small_int_arrays, False),
    ("_logical_xor", "broadcast_logical_xor", _cmp(np.logical_xor), ALL_AND_HALF,
     _small_int_arrays, False),
]


def _samples(shape_samples, builder):
    if builder is None:
        return shape_samples
    return [Sample(arrays=builder(s.shapes)) for s in shape_samples]


def _internal(name):
    return name if not name.startswith("_") else "_internal." + name


def _binary_ref(ref):
    def run(a, b):
        out = np.asarray(ref(a, b))
        return out.astype(a.dtype)
    return run


BINARY = []
for _ew, _bc, _ref, _dtypes, _builder, _grad in ARITH:
    BINARY.append(OpEntry(_internal(_ew), ref=_binary_ref(_ref),
                          samples=_samples(SAME_SHAPES, _builder), dtypes=_dtypes, grad=_grad))
    BINARY.append(OpEntry(_bc, ref=_binary_ref(_ref), samples=_samples(BROADCAST_SHAPES, _builder),
                          dtypes=_dtypes, grad=_grad))

BINARY.append(OpEntry("_internal._grad_add", ref=_binary_ref(np.add), samples=SAME_SHAPES,
                      dtypes=ALL_AND_HALF))
BINARY.append(OpEntry("add_n", ref=lambda *xs: sum(x.astype(np.float64) for x in xs).astype(xs[0].dtype),
                      samples=[Sample([(3, 4)]), Sample([(3, 4), (3, 4)]),
                               Sample([(2, 3, 4)] * 3), Sample([(40000,)] * 5)],
                      dtypes=ALL_AND_HALF, covers=("ElementWiseSum",)))


# ---------------------------------------------------------------------------- scalar ops

def _as_scalar(x, s):
    """The scalar as the op sees it: truncated to the integer dtype (is_int default True)."""
    if np.issubdtype(x.dtype, np.integer):
        return int(s)
    return s


def _scalar_ref(fn):
    def run(x, scalar=1.0, is_int=True):
        if not is_int and np.issubdtype(x.dtype, np.integer):
            return np.asarray(fn(x.astype(np.float64), scalar))
        return np.asarray(fn(x.astype(np.float64), _as_scalar(x, scalar))).astype(x.dtype)
    return run


def _rdiv(x, s):
    return s / x


def _div_trunc(a, b):
    return np.trunc(np.asarray(a, np.float64) / b)


SCALAR = [
    ("_plus_scalar", np.add, ALL_AND_HALF, [2.5, 3.0], -2, 2, True),
    ("_minus_scalar", np.subtract, ALL_AND_HALF, [1.5, 1.0], -2, 2, True),
    ("_rminus_scalar", lambda x, s: s - x, FLOATS_AND_HALF + ("int32", "int64", "int8"),
     [1.5, 4.0], -2, 2, True),
    ("_mul_scalar", np.multiply, ALL_AND_HALF, [2.5, 3.0], -2, 2, True),
    ("_div_scalar", np.divide, FLOATS_AND_HALF, [2.5, -4.0], -2, 2, True),
    ("_rdiv_scalar", _rdiv, FLOATS_AND_HALF, [2.5, -1.0], 0.5, 3, True),
    ("_mod_scalar", np.mod, FLOATS + INTS, [2.5, 3.0], -5, 5, True),
    ("_rmod_scalar", lambda x, s: np.mod(s, x), FLOATS, [2.5, 7.0], 0.5, 3, True),
    ("_power_scalar", np.power, FLOATS + ("int32",), [2.0, 0.5], 0.5, 3, True),
    ("_rpower_scalar", lambda x, s: np.power(s, x), FLOATS, [2.0, 0.5], -2, 2, True),
    ("_maximum_scalar", np.maximum, ALL_AND_HALF, [0.5, 1.0], -2, 2, True),
    ("_minimum_scalar", np.minimum, ALL_AND_HALF, [0.5, 1.0], -2, 2, True),
    ("_hypot_scalar", np.hypot, FLOATS_AND_HALF, [1.5, 3.0], -2, 2, True),
    ("_equal_scalar", np.equal, ALL_AND_HALF, [1.0, 0.0], -2, 2, False),
    ("_not_equal_scalar", np.not_equal, ALL_AND_HALF, [1.0, 0.0], -2, 2, False),
    ("_greater_scalar", np.greater, ALL_AND_HALF, [1.0, 0.5], -2, 2, False),
    ("_greater_equal_scalar", np.greater_equal, ALL_AND_HALF, [1.0, 0.5], -2, 2, False),
    ("_lesser_scalar", np.less, ALL_AND_HALF, [1.0, 0.5], -2, 2, False),
    ("_lesser_equal_scalar", np.less_equal, ALL_AND_HALF, [1.0, 0.5], -2, 2, False),
    ("_logical_and_scalar", np.logical_and, ALL_AND_HALF, [1.0, 0.0], -2, 2, False),
    ("_logical_or_scalar", np.logical_or, ALL_AND_HALF, [1.0, 0.0], -2, 2, False),
    ("_logical_xor_scalar", np.logical_xor, ALL_AND_HALF, [1.0, 0.0], -2, 2, False),
]

SCALAR_ENTRIES = []
for _name, _fn, _dtypes, _scalars, _low, _high, _grad in SCALAR:
    _s = [Sample([(3, 4)], {"scalar": _scalars[0]}), Sample([(2, 3, 4)], {"scalar": _scalars[1]})]
    SCALAR_ENTRIES.append(OpEntry("_internal." + _name, ref=_scalar_ref(_fn), samples=_s,
                                  dtypes=_dtypes, low=_low, high=_high, grad=_grad))
# is_int=False with integer data: the result is float64 (MXNet 1.9.1 NumpyBinaryScalarType).
SCALAR_ENTRIES.append(OpEntry("_internal._plus_scalar", ref=_scalar_ref(np.add),
                              samples=[Sample([(3, 4)], {"scalar": 2.5, "is_int": False})],
                              dtypes=("int32", "int64", "uint8"), grad=False))
SCALAR_ENTRIES.append(OpEntry("_internal._mul_scalar", ref=_scalar_ref(np.multiply),
                              samples=[Sample([(3, 4)], {"scalar": 0.5, "is_int": False})],
                              dtypes=("int32", "int8"), grad=False))


# ---------------------------------------------------------------------------- creation

def _creation(name, ref, samples):
    return OpEntry(name, ref=ref, samples=samples, dtypes=("float32",), grad=False)


CREATION = [
    _creation("_internal._zeros", lambda shape, dtype="float32": np.zeros(shape, dtype),
              [Sample(kwargs={"shape": (2, 3)}),
               Sample(kwargs={"shape": (4,), "dtype": "int32"}),
               Sample(kwargs={"shape": (2, 2, 2), "dtype": "float16"}),
               Sample(kwargs={"shape": (3,), "dtype": "bool"}),
               Sample(kwargs={"shape": (50000,), "dtype": "float64"})]),
    _creation("_internal._zeros_without_dtype", lambda shape: np.zeros(shape, np.float32),
              [Sample(kwargs={"shape": (2, 3)})]),
    _creation("_internal._ones", lambda shape, dtype="float32": np.ones(shape, dtype),
              [Sample(kwargs={"shape": (2, 3)}),
               Sample(kwargs={"shape": (4,), "dtype": "int64"}),
               Sample(kwargs={"shape": (3, 1), "dtype": "uint8"}),
               Sample(kwargs={"shape": (50000,), "dtype": "float32"})]),
    _creation("_internal._full", lambda shape, value, dtype="float32": np.full(shape, value, dtype),
              [Sample(kwargs={"shape": (2, 3), "value": 7.5}),
               Sample(kwargs={"shape": (4,), "value": -3, "dtype": "int32"}),
               Sample(kwargs={"shape": (2, 2), "value": 0.1, "dtype": "float64"}),
               Sample(kwargs={"shape": (40000,), "value": 2.0, "dtype": "float16"})]),
    _creation("_internal._arange",
              lambda start, stop=None, step=1.0, repeat=1, dtype="float32":
              np.repeat(np.arange(start, stop, step, dtype=np.float64) if stop is not None
                        else np.arange(0, start, step, dtype=np.float64), repeat).astype(dtype),
              [Sample(kwargs={"start": 5}),
               Sample(kwargs={"start": 2, "stop": 11, "step": 3, "repeat": 2}),
               Sample(kwargs={"start": 1.5, "stop": -1.0, "step": -0.5}),
               Sample(kwargs={"start": 0, "stop": 10, "dtype": "int32"}),
               Sample(kwargs={"start": 0, "stop": 1, "step": 0.1, "dtype": "float64"})]),
    _creation("_internal._linspace",
              lambda start, stop, num, endpoint=True, dtype="float32":
              np.linspace(start, stop, num, endpoint=endpoint).astype(dtype),
              [Sample(kwargs={"start": 0, "stop": 1, "num": 5}),
               Sample(kwargs={"start": -2, "stop": 3, "num": 4, "endpoint": False}),
               Sample(kwargs={"start": 0, "stop": 10, "num": 11, "dtype": "int32"}),
               Sample(kwargs={"start": 2, "stop": 3, "num": 1})]),
    _creation("_internal._eye",
              lambda N, M=0, k=0, dtype="float32": np.eye(N, M or None, k, dtype=dtype),
              [Sample(kwargs={"N": 3}), Sample(kwargs={"N": 3, "M": 5, "k": 1}),
               Sample(kwargs={"N": 4, "k": -2, "dtype": "int32"}),
               Sample(kwargs={"N": 2, "M": 3, "k": 5})]),
]

ENTRIES = UNARY + MISC + WHERE + BINARY + SCALAR_ENTRIES + CREATION

EXEMPT = {}
