"""mx.init: dispatch by name suffix and by the `__init__` attribute, the statistics of the
random initializers against their variance formulas, Orthogonal's orthogonality, Load,
Mixed, dumps/create round trips."""
import json
import warnings

import numpy as np
import pytest

import mxnet as mx


def _fill(init, name, shape, attrs=None, dtype="float32"):
    arr = mx.nd.zeros(shape, dtype=dtype)
    init(mx.init.InitDesc(name, attrs), arr)
    return arr.asnumpy()


def test_suffix_dispatch():
    init = mx.init.Uniform(0.5)
    w = _fill(init, "fc_weight", (50, 40))
    assert np.abs(w).max() <= 0.5 and w.std() > 0.2
    assert (_fill(init, "fc_bias", (7,)) == 0).all()
    assert (_fill(init, "bn_gamma", (7,)) == 1).all()
    assert (_fill(init, "bn_beta", (7,)) == 0).all()
    assert (_fill(init, "q_min", (2,)) == 0).all()
    assert (_fill(init, "q_max", (2,)) == 1).all()
    # Auxiliary states without an __init__ attribute still get MXNet's BatchNorm values.
    assert (_fill(init, "bn_moving_mean", (3,)) == 0).all()
    assert (_fill(init, "bn_moving_var", (3,)) == 1).all()
    with pytest.raises(ValueError, match="Unknown initialization pattern for fc_foo"):
        _fill(init, "fc_foo", (3,))


def test_init_attribute_wins():
    init = mx.init.Uniform(0.1)
    attrs = {"__init__": mx.init.Constant(3.5).dumps()}
    assert (_fill(init, "fc_weight", (2, 3), attrs) == 3.5).all()
    attrs = {"__init__": '["one", {}]'}
    assert (_fill(init, "anything", (4,), attrs) == 1).all()
    assert (_fill(init, "bn_moving_var", (4,), {"__init__": '["zero", {}]'}) == 0).all()


def test_legacy_string_name():
    init = mx.init.Uniform(0.1)
    arr = mx.nd.zeros((6,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        init("stn_loc_bias", arr)
        np.testing.assert_array_equal(arr.asnumpy(), [1, 0, 0, 0, 1, 0])
        arr = mx.nd.ones((3,))
        init("x_moving_inv_var", arr)
        assert (arr.asnumpy() == 0).all()
        with pytest.raises(TypeError):
            init("w_weight", np.zeros(3))


def _xavier_scale(shape, factor_type, magnitude):
    hw = float(np.prod(shape[2:])) if len(shape) > 2 else 1.0
    fan_in, fan_out = shape[1] * hw, shape[0] * hw
    factor = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}[factor_type]
    return np.sqrt(magnitude / factor)


@pytest.mark.parametrize("shape", [(300, 200), (64, 32, 3, 3)])
@pytest.mark.parametrize("factor_type", ["avg", "in", "out"])
@pytest.mark.parametrize("rnd_type", ["uniform", "gaussian"])
def test_xavier_variance(shape, factor_type, rnd_type):
    mx.random.seed(1)
    w = _fill(mx.init.Xavier(rnd_type=rnd_type, factor_type=factor_type, magnitude=2.5),
              "c_weight", shape)
    scale = _xavier_scale(shape, factor_type, 2.5)
    # U[-s, s] has variance s^2 / 3; N(0, s^2) has variance s^2.
    expected_std = scale / np.sqrt(3.0) if rnd_type == "uniform" else scale
    assert w.std() == pytest.approx(expected_std, rel=0.03)
    assert abs(w.mean()) < 0.05 * expected_std + 1e-3
    if rnd_type == "uniform":
        assert np.abs(w).max() <= scale * (1 + 1e-6)


def test_xavier_errors():
    with pytest.raises(ValueError, match="at least 2D"):
        _fill(mx.init.Xavier(), "fc_weight", (10,))
    with pytest.raises(ValueError, match="factor type"):
        _fill(mx.init.Xavier(factor_type="bad"), "fc_weight", (10, 3))
    with pytest.raises(ValueError, match="random type"):
        _fill(mx.init.Xavier(rnd_type="bad"), "fc_weight", (10, 3))


@pytest.mark.parametrize("slope", [0.25, 0.0])
def test_msraprelu_variance(slope):
    mx.random.seed(2)
    shape = (128, 64, 3, 3)
    w = _fill(mx.init.MSRAPrelu(factor_type="in", slope=slope), "conv_weight", shape)
    expected_std = np.sqrt(2.0 / (1 + slope ** 2) / (64 * 9))
    assert w.std() == pytest.approx(expected_std, rel=0.03)
    assert json.loads(mx.init.MSRAPrelu(slope=slope).dumps()) == \
        ["msraprelu", {"factor_type": "avg", "slope": slope}]


@pytest.mark.parametrize("shape,rand_type", [((20, 50), "uniform"), ((50, 20), "normal"),
                                             ((8, 4, 3, 3), "uniform")])
def test_orthogonal(shape, rand_type):
    w = _fill(mx.init.Orthogonal(scale=1.5, rand_type=rand_type), "fc_weight", shape)
    m = w.reshape(shape[0], -1) / 1.5
    rows, cols = m.shape
    gram = m.dot(m.T) if rows <= cols else m.T.dot(m)
    np.testing.assert_allclose(gram, np.eye(min(rows, cols)), atol=1e-5)


def test_uniform_normal_constant_zero_one():
    mx.random.seed(3)
    u = _fill(mx.init.Uniform(0.2), "a_weight", (200, 100))
    assert np.abs(u).max() <= 0.2 and u.std() == pytest.approx(0.2 / np.sqrt(3), rel=0.03)
    n = _fill(mx.init.Normal(0.3), "a_weight", (200, 100))
    assert n.std() == pytest.approx(0.3, rel=0.03)
    assert (_fill(mx.init.Constant(-2), "a_weight", (3, 2)) == -2).all()
    np.testing.assert_array_equal(_fill(mx.init.Constant([1, 2, 3]), "a_weight", (2, 3)),
                                  [[1, 2, 3], [1, 2, 3]])
    assert (_fill(mx.init.Zero(), "a_weight", (3,)) == 0).all()
    assert (_fill(mx.init.One(), "a_weight", (3,)) == 1).all()
    assert (_fill(mx.init.One(), "a_weight", (3,), dtype="float16") == 1).all()


def test_bilinear_and_lstmbias():
    w = _fill(mx.init.Bilinear(), "up_weight", (1, 1, 4, 4))
    f = np.ceil(4 / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    k = 1 - np.abs(np.arange(4) / f - c)
    np.testing.assert_allclose(w[0, 0], np.outer(k, k), rtol=1e-6)
    # A bias name alone gives zeros; LSTMBias acts through the variable's __init__ attribute.
    assert (_fill(mx.init.LSTMBias(forget_bias=2.0), "lstm_i2h_bias", (8,)) == 0).all()
    attrs = {"__init__": mx.init.LSTMBias(forget_bias=2.0).dumps()}
    b = _fill(mx.init.Uniform(), "lstm_i2h_bias", (8,), attrs)
    np.testing.assert_array_equal(b, [0, 0, 2, 2, 0, 0, 0, 0])


def test_dumps_create_round_trip():
    for init in (mx.init.Uniform(0.3), mx.init.Normal(0.02), mx.init.Xavier("gaussian", "in", 2),
                 mx.init.Orthogonal(), mx.init.Constant(0.5), mx.init.Zero(), mx.init.One()):
        again = mx.init.create(init.dumps())
        assert type(again) is type(init) and again._kwargs == init._kwargs
    assert json.loads(mx.init.Xavier().dumps()) == \
        ["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 3}]
    assert isinstance(mx.init.create("zeros"), mx.init.Zero)
    assert isinstance(mx.init.create("ones"), mx.init.One)
    assert isinstance(mx.init.create("xavier", magnitude=2), mx.init.Xavier)
    u = mx.init.Uniform()
    assert mx.init.create(u) is u
    with pytest.raises(ValueError, match="Cannot find initializer"):
        mx.init.create("nope")


def test_register_custom_initializer():
    @mx.init.register
    class FortyTwo(mx.init.Initializer):
        def _init_weight(self, _, arr):
            arr[:] = 42
    attrs = {"__init__": FortyTwo().dumps()}
    assert (_fill(mx.init.Uniform(), "w", (2,), attrs) == 42).all()


def test_load_and_mixed(tmp_path):
    params = {"arg:fc_weight": mx.nd.ones((2, 3)) * 4, "aux:bn_moving_mean": mx.nd.ones((3,))}
    fname = str(tmp_path / "p.params")
    mx.nd.save(fname, params)
    load = mx.init.Load(fname, default_init=mx.init.Constant(9))
    arr = mx.nd.zeros((2, 3))
    load("fc_weight", arr)
    assert (arr.asnumpy() == 4).all()
    arr = mx.nd.zeros((3,))
    load("bn_moving_mean", arr)
    assert (arr.asnumpy() == 1).all()
    other = mx.nd.zeros((5,))
    load(mx.init.InitDesc("other_weight"), other)
    assert (other.asnumpy() == 9).all()
    with pytest.raises(ValueError, match="Shape mismatch"):
        load("fc_weight", mx.nd.zeros((3, 3)))
    with pytest.raises(ValueError, match="no default Initializer"):
        mx.init.Load(params)("missing", mx.nd.zeros((1,)))

    mixed = mx.init.Mixed(["fc2.*", ".*"], [mx.init.Constant(7), mx.init.One()])
    a, b = mx.nd.zeros((2,)), mx.nd.zeros((2,))
    mixed(mx.init.InitDesc("fc2_weight"), a)
    mixed(mx.init.InitDesc("fc_weight"), b)
    assert (a.asnumpy() == 7).all() and (b.asnumpy() == 1).all()
    with pytest.raises(ValueError, match="did not match any pattern"):
        mx.init.Mixed(["x.*"], [mx.init.One()])(mx.init.InitDesc("y"), a)


def test_initdesc_is_a_string():
    d = mx.init.InitDesc("fc1_weight", {"__lr_mult__": "2"})
    assert d == "fc1_weight" and d.endswith("weight") and d.attrs["__lr_mult__"] == "2"
    assert d.global_init is None
    init = mx.init.Zero()
    init(d, mx.nd.ones((2,)))
    assert d.global_init is init
