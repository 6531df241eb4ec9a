"""`mx.init`: parameter initializers.

An initializer is called as ``init(desc, arr)`` and fills `arr` in place. `desc` is an
:class:`InitDesc` (the parameter name plus the variable's attributes). A variable created with
``mx.sym.var(name, init=...)`` carries the JSON spec of its own initializer in the ``__init__``
attribute, and that one wins; otherwise the name suffix decides: ``weight`` goes to the
initializer's own rule, ``bias``/``beta`` are zero, ``gamma`` is one, ``min``/``max`` are 0/1.
"""
import json
import logging
import re
import warnings

import numpy as np

from . import registry
from .ndarray import NDArray
from .ndarray import random as _nd_random
from .ndarray.utils import load as _nd_load
# Names MXNet 1.9.1's module also exposes (it imports them).
from math import sqrt  # noqa: F401
from .base import string_types  # noqa: F401

__all__ = ["InitDesc", "Initializer", "register", "alias", "create", "Load", "Mixed", "Zero",
           "One", "Constant", "Uniform", "Normal", "Orthogonal", "Xavier", "MSRAPrelu",
           "Bilinear", "LSTMBias"]


class InitDesc(str):
    """A parameter name (a `str`) with the variable's attributes and the global initializer.

    attrs: dict of the variable's attributes (``__init__`` selects its own initializer).
    global_init: the initializer the caller passed (used by composite initializers).
    """

    def __new__(cls, name, attrs=None, global_init=None):
        ret = super(InitDesc, cls).__new__(cls, name)
        ret.attrs = attrs or {}
        ret.global_init = global_init
        return ret


class Initializer(object):
    """Base class: subclasses implement `_init_weight(name, arr)`.

    The constructor keyword arguments are kept so `dumps()` can serialize the initializer as
    ``["<lower-case class name>", {kwargs}]``; `create()` reverses it.
    """

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        """Logs a summary of every initialized array (`print_func(arr)` -> str; default norm)."""
        self._verbose = verbose
        if print_func is None:
            def print_func(arr):
                return "Norm: %g" % (np.linalg.norm(arr.asnumpy()) / np.sqrt(max(arr.size, 1)))
        self._print_func = print_func
        return self

    def _verbose_print(self, desc, init, arr):
        if self._verbose and self._print_func:
            logging.info("Initialized %s as %s: %s", desc, init, self._print_func(arr))

    def dumps(self):
        """JSON ``["name", {kwargs}]`` of this initializer (the ``__init__`` attribute format)."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, desc, arr):
        if not isinstance(desc, InitDesc):
            self._legacy_init(desc, arr)
            return
        if desc.global_init is None:
            desc.global_init = self
        own = desc.attrs.get("__init__", "")
        if own:
            create(own)._init_weight(desc, arr)
            self._verbose_print(desc, own, arr)
            return
        for suffix, method in self._SUFFIX_RULES:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                self._verbose_print(desc, suffix, arr)
                return
        # Operators such as BatchNorm normally tag their auxiliary states with `__init__`;
        # these names are still recognised when a graph carries no such attribute.
        for suffix, method in self._AUX_RULES:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                return
        self._init_default(desc, arr)

    # Checked in order, first match wins (MXNet's order).
    _SUFFIX_RULES = (("weight", "_init_weight"), ("bias", "_init_bias"),
                     ("gamma", "_init_gamma"), ("beta", "_init_beta"),
                     ("min", "_init_zero"), ("max", "_init_one"),
                     ("weight_quantize", "_init_quantized_weight"),
                     ("bias_quantize", "_init_quantized_bias"))
    _AUX_RULES = (("moving_mean", "_init_zero"), ("moving_var", "_init_one"),
                  ("moving_inv_var", "_init_zero"), ("moving_avg", "_init_zero"))

    def _legacy_init(self, name, arr):
        """Initialization by a plain string name (the pre-InitDesc interface)."""
        warnings.warn("Calling initializer with init(str, NDArray) has been deprecated. "
                      "Please use init(mx.init.InitDesc(...), NDArray) instead.",
                      DeprecationWarning, stacklevel=3)
        if not isinstance(name, str):
            raise TypeError("name must be string, got %s" % type(name))
        if not isinstance(arr, NDArray):
            raise TypeError("arr must be NDArray, got %s" % type(arr))
        if name.startswith("upsampling"):
            self._init_bilinear(name, arr)
        elif name.startswith("stn_loc") and name.endswith("weight"):
            self._init_zero(name, arr)
        elif name.startswith("stn_loc") and name.endswith("bias"):
            self._init_loc_bias(name, arr)
        elif name.endswith("bias"):
            self._init_bias(name, arr)
        elif name.endswith("gamma"):
            self._init_gamma(name, arr)
        elif name.endswith("beta"):
            self._init_beta(name, arr)
        elif name.endswith("weight"):
            self._init_weight(name, arr)
        elif name.endswith("moving_mean") or name.endswith("moving_inv_var") \
                or name.endswith("moving_avg") or name.endswith("min"):
            self._init_zero(name, arr)
        elif name.endswith("moving_var") or name.endswith("max"):
            self._init_one(name, arr)
        else:
            self._init_default(name, arr)

    # ---- fill rules ------------------------------------------------------------------------
    def _init_bilinear(self, _, arr):
        shape = arr.shape
        size = int(np.prod(shape))
        f = np.ceil(shape[3] / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        i = np.arange(size)
        x = i % shape[3]
        y = (i // shape[3]) % shape[2]
        weight = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
        arr[:] = weight.reshape(shape).astype("float32")

    def _init_loc_bias(self, _, arr):
        if arr.shape[0] != 6:
            raise ValueError("stn_loc bias must have 6 elements, got shape %s" % (arr.shape,))
        arr[:] = np.array([1.0, 0, 0, 0, 1.0, 0])

    def _init_zero(self, _, arr):
        arr[:] = 0.0

    def _init_one(self, _, arr):
        arr[:] = 1.0

    def _init_bias(self, _, arr):
        arr[:] = 0.0

    def _init_gamma(self, _, arr):
        arr[:] = 1.0

    def _init_beta(self, _, arr):
        arr[:] = 0.0

    def _init_quantized_weight(self, _, arr):
        arr[:] = np.random.randint(-127, 127, size=arr.shape).astype(np.int8)

    def _init_quantized_bias(self, _, arr):
        arr[:] = 0

    def _init_weight(self, name, arr):
        raise NotImplementedError("%s must override _init_weight (called for %s)"
                                  % (self.__class__.__name__, name))

    def _init_default(self, name, _):
        raise ValueError(
            "Unknown initialization pattern for %s. Default initialization is now limited to "
            "\"weight\", \"bias\", \"gamma\" (1.0), and \"beta\" (0.0). Please use "
            "mx.sym.Variable(init=mx.init.*) to set initialization pattern" % name)

    def __eq__(self, other):
        if not isinstance(other, Initializer):
            return False
        return self.__class__ is other.__class__ and self._kwargs == other._kwargs

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return "%s(%s)" % (self.__class__.__name__,
                           ", ".join("%s=%r" % kv for kv in sorted(self._kwargs.items())))


register = registry.get_register_func(Initializer, "initializer")
alias = registry.get_alias_func(Initializer, "initializer")
create = registry.get_create_func(Initializer, "initializer")


class Load(object):
    """Initializes parameters from a saved dict (or a ``.params`` file name).

    Keys may carry MXNet's ``arg:``/``aux:`` prefixes. Names not found go to `default_init`.
    """

    def __init__(self, param, default_init=None, verbose=False):
        if isinstance(param, str):
            param = _nd_load(param)
        if not isinstance(param, dict):
            raise TypeError("Load needs a dict of name -> NDArray or a file name, got %s"
                            % type(param))
        self.param = {}
        for name, arr in param.items():
            if name.startswith("arg:") or name.startswith("aux:"):
                name = name[4:]
            self.param[name] = arr
        self.default_init = default_init
        self.verbose = verbose

    def __call__(self, name, arr):
        if name in self.param:
            if tuple(arr.shape) != tuple(self.param[name].shape):
                raise ValueError("Parameter %s cannot be initialized from loading. Shape "
                                 "mismatch, target %s vs loaded %s"
                                 % (name, arr.shape, self.param[name].shape))
            arr[:] = self.param[name]
            if self.verbose:
                logging.info("Initialized %s by loading", name)
        else:
            if self.default_init is None:
                raise ValueError("Cannot Initialize %s. Not found in loaded param and no "
                                 "default Initializer is provided." % name)
            self.default_init(name, arr)
            if self.verbose:
                logging.info("Initialized %s by default", name)


class Mixed(object):
    """Picks the initializer of the first regular expression in `patterns` matching the name."""

    def __init__(self, patterns, initializers):
        if len(patterns) != len(initializers):
            raise ValueError("Mixed needs as many patterns (%d) as initializers (%d)"
                             % (len(patterns), len(initializers)))
        self.map = list(zip([re.compile(p) for p in patterns], initializers))

    def __call__(self, name, arr):
        for prog, init in self.map:
            if prog.match(name):
                init(name, arr)
                return
        raise ValueError("Parameter name %s did not match any pattern. Consider add a \".*\" "
                         "pattern at the and with default Initializer." % name)


@alias("zeros")
@register
class Zero(Initializer):
    """Fills with 0."""

    def __init__(self):
        super(Zero, self).__init__()

    def _init_weight(self, _, arr):
        arr[:] = 0


@alias("ones")
@register
class One(Initializer):
    """Fills with 1."""

    def __init__(self):
        super(One, self).__init__()

    def _init_weight(self, _, arr):
        arr[:] = 1


@register
class Constant(Initializer):
    """Fills with `value` (a number, or an array broadcastable to the parameter)."""

    def __init__(self, value):
        super(Constant, self).__init__(value=value)
        self.value = value

    def dumps(self):
        value = self.value
        if isinstance(value, NDArray):
            value = value.asnumpy()
        if isinstance(value, np.ndarray):
            value = value.tolist()
        return json.dumps([self.__class__.__name__.lower(), {"value": value}])

    def _init_weight(self, _, arr):
        value = self.value
        if isinstance(value, (list, tuple)):
            value = np.array(value)
        arr[:] = value


@register
class Uniform(Initializer):
    """Draws from U[-scale, scale]."""

    def __init__(self, scale=0.07):
        super(Uniform, self).__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _, arr):
        _nd_random.uniform(-self.scale, self.scale, out=arr)


@register
class Normal(Initializer):
    """Draws from N(0, sigma^2)."""

    def __init__(self, sigma=0.01):
        super(Normal, self).__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _, arr):
        _nd_random.normal(0, self.sigma, out=arr)


@register
class Orthogonal(Initializer):
    """`scale` times an orthonormal matrix (Saxe et al. 2013) reshaped to the parameter.

    The rows (or columns, whichever count is smaller) of the ``(shape[0], prod(shape[1:]))``
    matrix are orthonormal; it comes from the SVD of a uniform (`rand_type` 'uniform') or
    normal ('normal') random matrix.
    """

    def __init__(self, scale=1.414, rand_type="uniform"):
        super(Orthogonal, self).__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, _, arr):
        nout = arr.shape[0]
        nin = int(np.prod(arr.shape[1:]))
        if self.rand_type == "uniform":
            tmp = _nd_random.uniform(-1.0, 1.0, shape=(nout, nin)).asnumpy()
        elif self.rand_type == "normal":
            tmp = _nd_random.normal(0.0, 1.0, shape=(nout, nin)).asnumpy()
        else:
            raise ValueError("Orthogonal: unknown rand_type %r (use 'uniform' or 'normal')"
                             % self.rand_type)
        u, _, v = np.linalg.svd(tmp, full_matrices=False)
        res = u if u.shape == tmp.shape else v
        arr[:] = (self.scale * res).reshape(arr.shape)


@register
class Xavier(Initializer):
    """Glorot initialization: uniform U[-s, s] or normal N(0, s^2), s = sqrt(magnitude / factor).

    With fan_in = shape[1] * prod(shape[2:]) and fan_out = shape[0] * prod(shape[2:]), the
    factor is (fan_in + fan_out) / 2 ('avg'), fan_in ('in') or fan_out ('out').
    """

    def __init__(self, rnd_type="uniform", factor_type="avg", magnitude=3):
        super(Xavier, self).__init__(rnd_type=rnd_type, factor_type=factor_type,
                                     magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _init_weight(self, name, arr):
        shape = arr.shape
        if len(shape) < 2:
            raise ValueError("Xavier initializer cannot be applied to vector {0}. It requires "
                             "at least 2D.".format(name))
        hw_scale = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
        fan_in, fan_out = shape[1] * hw_scale, shape[0] * hw_scale
        if self.factor_type == "avg":
            factor = (fan_in + fan_out) / 2.0
        elif self.factor_type == "in":
            factor = fan_in
        elif self.factor_type == "out":
            factor = fan_out
        else:
            raise ValueError("Incorrect factor type %r (use 'avg', 'in' or 'out')"
                             % self.factor_type)
        scale = np.sqrt(self.magnitude / factor)
        if self.rnd_type == "uniform":
            _nd_random.uniform(-scale, scale, out=arr)
        elif self.rnd_type == "gaussian":
            _nd_random.normal(0, scale, out=arr)
        else:
            raise ValueError("Unknown random type %r (use 'uniform' or 'gaussian')"
                             % self.rnd_type)


@register
class MSRAPrelu(Xavier):
    """He initialization for PReLU nets: Gaussian Xavier with magnitude 2 / (1 + slope^2)."""

    def __init__(self, factor_type="avg", slope=0.25):
        magnitude = 2.0 / (1 + slope ** 2)
        super(MSRAPrelu, self).__init__("gaussian", factor_type, magnitude)
        self._kwargs = {"factor_type": factor_type, "slope": slope}


@register
class Bilinear(Initializer):
    """Bilinear-interpolation kernel (for Deconvolution upsampling weights)."""

    def __init__(self):
        super(Bilinear, self).__init__()

    def _init_weight(self, name, arr):
        self._init_bilinear(name, arr)


@register
class LSTMBias(Initializer):
    """Zero LSTM biases except the forget gate (second quarter), set to `forget_bias`."""

    def __init__(self, forget_bias=1.0):
        super(LSTMBias, self).__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name, arr):
        value = np.zeros(arr.shape, dtype="float32")
        num_hidden = int(arr.shape[0] / 4)
        value[num_hidden:2 * num_hidden] = self.forget_bias
        arr[:] = value


@register
class FusedRNN(Initializer):
    """Initializes the packed parameter vector of a fused RNN (`mx.rnn.FusedRNNCell`):
    every unpacked weight/bias with `init` (default: the global initializer), LSTM forget
    gate biases with `forget_bias`."""

    def __init__(self, init, num_hidden, num_layers, mode, bidirectional=False,
                 forget_bias=1.0):
        if isinstance(init, str):
            init = create(init)
        super(FusedRNN, self).__init__(init=init.dumps() if init is not None else None,
                                       num_hidden=num_hidden, num_layers=num_layers,
                                       mode=mode, bidirectional=bidirectional,
                                       forget_bias=forget_bias)
        self._init = init
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._forget_bias = forget_bias

    def _init_weight(self, desc, arr):  # pylint: disable=arguments-renamed
        from .rnn import rnn_cell
        cell = rnn_cell.FusedRNNCell(self._num_hidden, self._num_layers, self._mode,
                                     self._bidirectional, forget_bias=self._forget_bias,
                                     prefix="")
        args = cell.unpack_weights({"parameters": arr})
        global_init = getattr(desc, "global_init", None)
        for name in args:
            arg_desc = InitDesc(name, global_init=global_init)
            if self._mode == "lstm" and name.endswith("_f_bias"):
                args[name][:] = self._forget_bias
            elif self._init is not None:
                self._init(arg_desc, args[name])
            elif global_init is not None:
                global_init(arg_desc, args[name])
            else:
                raise ValueError("FusedRNN: no initializer for %s (give init=...)" % name)
        arr[:] = cell.pack_weights(args)["parameters"]


__all__.append("FusedRNN")
