"""reshape_like, moments, ravel/unravel, khatri_rao, fill_element_0index, contrib arange_like /
index_copy / div_sqrt_dim, Pad, GroupNorm, SVMOutput, Crop, AdaptiveAvgPooling2D,
BilinearResize2D, im2col/col2im: outputs and gradients against MXNet 1.9.1 (reference file made
by tests/python/data/mx191/gen_more_ops.py), NumPy oracles, signatures and error messages.
The generic checks (NumPy forward, finite differences, executor, symbol) are in the op table
(optable/more_ops.py)."""
import inspect
import json
import os

import numpy as np
import pytest

import mxnet as mx

from optable.more_ops import bilinear_resize_ref, im2col_ref

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191", "more_ops.npz")


def _resolve(path):
    fn = mx.nd
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


def _cases():
    if not os.path.exists(DATA):
        return []
    with np.load(DATA) as ref:
        return sorted({k.split("/")[0] for k in ref.files})


@pytest.mark.parametrize("case", _cases())
def test_matches_mxnet_191(case):
    ref = np.load(DATA)
    op = str(ref[case + "/op"])
    kwargs = json.loads(str(ref[case + "/kwargs"]))
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
    n_in = len([k for k in ref.files if k.startswith(case + "/in")])
    inputs = [mx.nd.array(ref["%s/in%d" % (case, i)]) for i in range(n_in)]
    diff = [i for i in range(n_in) if "%s/grad%d" % (case, i) in ref.files]
    for i in diff:
        inputs[i].attach_grad()
    with mx.autograd.record():
        outs = _resolve(op)(*inputs, **kwargs)
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    n_out = len([k for k in ref.files if k.startswith(case + "/out")])
    assert len(outs) == n_out, "%s: %d outputs, MXNet 1.9.1 has %d" % (case, len(outs), n_out)
    for j, o in enumerate(outs):
        np.testing.assert_allclose(o.asnumpy(), ref["%s/out%d" % (case, j)], rtol=1e-5,
                                   atol=1e-5, err_msg="%s output %d" % (case, j))
    if diff:
        heads = [mx.nd.array(ref["%s/head%d" % (case, j)]) for j in range(n_out)]
        mx.autograd.backward(outs, head_grads=heads)
        for i in diff:
            np.testing.assert_allclose(inputs[i].grad.asnumpy(), ref["%s/grad%d" % (case, i)],
                                       rtol=1e-4, atol=1e-5,
                                       err_msg="%s gradient of input %d" % (case, i))


def test_reference_file_present():
    if not os.path.exists(DATA):
        pytest.skip("run tests/python/data/mx191/gen_more_ops.py with MXNet 1.9.1 to create "
                    + DATA)
    assert len(_cases()) >= 20


# ---- signatures (1.9.1) ---------------------------------------------------------------------

@pytest.mark.parametrize("name,params", [
    ("softmax", ["data", "length", "axis", "temperature", "dtype", "use_length"]),
    ("log_softmax", ["data", "axis", "temperature", "dtype", "use_length"]),
    ("softmin", ["data", "axis", "temperature", "dtype", "use_length"]),
    ("reshape_like", ["lhs", "rhs", "lhs_begin", "lhs_end", "rhs_begin", "rhs_end"]),
    ("Pad", ["data", "mode", "pad_width", "constant_value"]),
    ("pad", ["data", "mode", "pad_width", "constant_value"]),
    ("moments", ["data", "axes", "keepdims"]),
    ("GroupNorm", ["data", "gamma", "beta", "num_groups", "eps", "output_mean_var"]),
    ("SVMOutput", ["data", "label", "margin", "regularization_coefficient", "use_linear"]),
    ("ravel_multi_index", ["data", "shape"]),
    ("unravel_index", ["data", "shape"]),
    ("fill_element_0index", ["lhs", "mhs", "rhs"]),
    ("contrib.arange_like", ["data", "start", "step", "repeat", "ctx", "axis"]),
    ("contrib.index_copy", ["old_tensor", "index_vector", "new_tensor"]),
    ("contrib.div_sqrt_dim", ["data"]),
    ("contrib.boolean_mask", ["data", "index", "axis"]),
    ("contrib.AdaptiveAvgPooling2D", ["data", "output_size"]),
    ("contrib.BilinearResize2D", ["data", "like", "height", "width", "scale_height",
                                  "scale_width", "mode", "align_corners"]),
    ("im2col", ["data", "kernel", "stride", "dilate", "pad"]),
    ("col2im", ["data", "output_size", "kernel", "stride", "dilate", "pad"]),
])
def test_signature_matches_191(name, params):
    sig = inspect.signature(_resolve(name))
    got = [p for p in sig.parameters if p not in ("out", "name", "kwargs")]
    assert got == params


def test_variadic_signatures():
    for name in ("khatri_rao", "Crop"):
        kinds = [p.kind for p in inspect.signature(_resolve(name)).parameters.values()]
        assert inspect.Parameter.VAR_POSITIONAL in kinds, name


def test_log_softmax_length_is_keyword_free():
    # The second positional argument of log_softmax/softmin is axis, as in 1.9.1.
    x = np.random.RandomState(0).uniform(-1, 1, size=(3, 4)).astype("float32")
    got = mx.nd.log_softmax(mx.nd.array(x), 0).asnumpy()
    z = x - x.max(axis=0, keepdims=True)
    np.testing.assert_allclose(got, z - np.log(np.exp(z).sum(axis=0, keepdims=True)), rtol=1e-5,
                               atol=1e-6)
    got = mx.nd.softmin(mx.nd.array(x), 0).asnumpy()
    e = np.exp(-x + x.min(axis=0, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=0, keepdims=True), rtol=1e-5, atol=1e-6)


def test_log_softmax_use_length_still_works_through_symbol():
    x = np.random.RandomState(1).uniform(-1, 1, size=(2, 5)).astype("float32")
    length = np.array([3, 5], dtype="float32")
    s = mx.sym.log_softmax(data=mx.sym.var("data"), length=mx.sym.var("length"),
                           use_length=True)
    ex = s.bind(mx.cpu(), {"data": mx.nd.array(x), "length": mx.nd.array(length)})
    got = ex.forward()[0].asnumpy()
    for r, n in enumerate(length.astype(int)):
        z = x[r, :n] - x[r, :n].max()
        np.testing.assert_allclose(got[r, :n], z - np.log(np.exp(z).sum()), rtol=1e-5,
                                   atol=1e-6)


# ---- NumPy oracles beyond the table ----------------------------------------------------------

@pytest.mark.parametrize("shape,kw", [
    ((1, 2, 7), {"kernel": (3,), "stride": (2,), "pad": (1,)}),
    ((2, 1, 3, 4, 4), {"kernel": (2, 2, 2), "stride": (1, 2, 2), "dilate": (1, 1, 2)}),
    ((1, 3, 5, 5), {"kernel": (3, 3), "dilate": (2, 2), "pad": (2, 1)}),
])
def test_im2col_col2im_against_numpy_and_adjoint(shape, kw):
    rng = np.random.RandomState(3)
    nd = len(kw["kernel"])
    full = {"stride": (1,) * nd, "dilate": (1,) * nd, "pad": (0,) * nd}
    full.update(kw)
    x = rng.uniform(-1, 1, size=shape)
    cols = mx.nd.im2col(mx.nd.array(x, dtype="float64"), **kw).asnumpy()
    np.testing.assert_allclose(cols, im2col_ref(x, full["kernel"], full["stride"],
                                                full["dilate"], full["pad"]), rtol=1e-12)
    # col2im is the adjoint of im2col: <im2col(x), c> == <x, col2im(c)>.
    c = rng.uniform(-1, 1, size=cols.shape)
    back = mx.nd.col2im(mx.nd.array(c, dtype="float64"), output_size=shape[2:], **kw).asnumpy()
    assert back.shape == shape
    np.testing.assert_allclose(np.sum(cols * c), np.sum(x * back), rtol=1e-10)


@pytest.mark.parametrize("align", [True, False])
@pytest.mark.parametrize("size", [(3, 4), (9, 11), (1, 1), (5, 6)])
def test_bilinear_resize_against_numpy(align, size):
    x = np.random.RandomState(4).uniform(-1, 1, size=(2, 3, 5, 6))
    got = mx.nd.contrib.BilinearResize2D(mx.nd.array(x, dtype="float64"), height=size[0],
                                         width=size[1], align_corners=align).asnumpy()
    np.testing.assert_allclose(got, bilinear_resize_ref(x, height=size[0], width=size[1],
                                                           align_corners=align), rtol=1e-12,
                               atol=1e-12)


def test_bilinear_resize_output_sizes():
    x = mx.nd.ones((1, 1, 5, 6))
    b = mx.nd.contrib.BilinearResize2D
    assert b(x, scale_height=1.7, scale_width=2.3).shape == (1, 1, 8, 13)
    assert b(x, mode="odd_scale", scale_height=2, scale_width=2).shape == (1, 1, 9, 12)
    assert b(x, mode="to_even_down").shape == (1, 1, 4, 6)
    assert b(x, mode="to_even_up").shape == (1, 1, 6, 6)
    assert b(x, mode="to_odd_down").shape == (1, 1, 5, 5)
    assert b(x, mode="to_odd_up").shape == (1, 1, 5, 7)
    assert b(x, mx.nd.ones((1, 1, 2, 9)), mode="like").shape == (1, 1, 2, 9)


def test_adaptive_avg_pooling_output_size_forms():
    x = mx.nd.ones((2, 3, 5, 6))
    pool = mx.nd.contrib.AdaptiveAvgPooling2D
    assert pool(x).shape == (2, 3, 1, 1)
    assert pool(x, output_size=3).shape == (2, 3, 3, 3)
    assert pool(x, output_size=(2, 4)).shape == (2, 3, 2, 4)


@pytest.mark.parametrize("shape,axis", [((4, 3), 0), ((2, 5, 3), 1), ((2, 3, 4), -1),
                                        ((3,), 0)])
def test_boolean_mask_against_numpy(shape, axis):
    rng = np.random.RandomState(5)
    x = rng.uniform(-1, 1, size=shape)
    n = shape[axis]
    for index in (rng.randint(0, 2, size=n), np.zeros(n), np.ones(n)):
        keep = np.nonzero(index)[0]
        xd = mx.nd.array(x, dtype="float64")
        xd.attach_grad()
        with mx.autograd.record():
            y = mx.nd.contrib.boolean_mask(xd, mx.nd.array(index, dtype="int32"), axis=axis)
        expected = np.take(x, keep, axis=axis)
        assert y.shape == expected.shape
        np.testing.assert_array_equal(y.asnumpy(), expected)
        head = rng.uniform(-1, 1, size=expected.shape)
        y.backward(mx.nd.array(head, dtype="float64"))
        grad = np.zeros_like(x)
        np.moveaxis(grad, axis, 0)[keep] = np.moveaxis(head, axis, 0)
        np.testing.assert_array_equal(xd.grad.asnumpy(), grad)


def test_boolean_mask_waits_for_a_pending_index():
    # The index comes from a still-running computation: the output shape must use its value.
    index = mx.nd.array([1, 0, 1, 0, 1]) * mx.nd.array([0, 1, 1, 1, 1])
    out = mx.nd.contrib.boolean_mask(mx.nd.arange(10).reshape((5, 2)), index)
    np.testing.assert_array_equal(out.asnumpy(), [[4, 5], [8, 9]])


# ---- errors name the operator, the argument and the shapes ----------------------------------

@pytest.mark.parametrize("call,words", [
    (lambda: mx.nd.reshape_like(mx.nd.ones((2, 3)), mx.nd.ones((4, 2))),
     ["reshape_like", "(2,3)", "(4,2)"]),
    (lambda: mx.nd.Pad(mx.nd.ones((2, 3, 4)), mode="edge", pad_width=(0, 0, 0, 0, 1, 1)),
     ["Pad", "4-D or 5-D", "(2,3,4)"]),
    (lambda: mx.nd.Pad(mx.nd.ones((1, 1, 2, 3)), mode="reflect",
                       pad_width=(0, 0, 0, 0, 2, 2, 1, 1)), ["Pad", "reflect", "pad_width"]),
    (lambda: mx.nd.Pad(mx.nd.ones((1, 1, 2, 3)), mode="constant",
                       pad_width=(0, 1, 0, 0, 2, 2, 1, 1)), ["Pad", "first two axes"]),
    (lambda: mx.nd.moments(mx.nd.ones((2, 3)), axes=(2,)), ["moments", "axis", "(2,3)"]),
    (lambda: mx.nd.moments(mx.nd.ones((2, 3))), ["moments", "axes"]),
    (lambda: mx.nd.GroupNorm(mx.nd.ones((2, 4, 3)), mx.nd.ones((4,)), mx.nd.ones((4,)),
                             num_groups=2), ["GroupNorm", "gamma", "(2,)"]),
    (lambda: mx.nd.GroupNorm(mx.nd.ones((2, 5, 3)), mx.nd.ones((2,)), mx.nd.ones((2,)),
                             num_groups=2), ["GroupNorm", "num_groups", "(2,5,3)"]),
    (lambda: mx.nd.Crop(mx.nd.ones((1, 1, 4, 4)), h_w=(5, 2)), ["Crop", "(1,1,4,4)"]),
    (lambda: mx.nd.Crop(mx.nd.ones((1, 1, 4, 4)), h_w=(2, 2), offset=(3, 0)),
     ["Crop", "offset"]),
    (lambda: mx.nd.SVMOutput(mx.nd.ones((3, 4)), mx.nd.ones((2,))),
     ["SVMOutput", "label", "(3,4)"]),
    (lambda: mx.nd.khatri_rao(mx.nd.ones((2, 3)), mx.nd.ones((2, 4))), ["khatri_rao", "(2,4)"]),
    (lambda: mx.nd.contrib.index_copy(mx.nd.ones((4, 2)), mx.nd.array([0, 1]),
                                      mx.nd.ones((3, 2))),
     ["index_copy", "new_tensor", "(3,2)"]),
    (lambda: mx.nd.contrib.index_copy(mx.nd.ones((4, 2)), mx.nd.array([0, 7]),
                                      mx.nd.ones((2, 2))).asnumpy(),
     ["index_copy", "index_vector", "7"]),
    (lambda: mx.nd.ravel_multi_index(mx.nd.ones((3, 2)), shape=(4, 5)),
     ["ravel_multi_index", "shape", "(3,2)"]),
    (lambda: mx.nd.im2col(mx.nd.ones((1, 1, 2, 2)), kernel=(3, 3)), ["im2col", "kernel"]),
    (lambda: mx.nd.col2im(mx.nd.ones((1, 5, 4)), output_size=(3, 3), kernel=(2, 2)),
     ["col2im", "(1,5,4)"]),
    (lambda: mx.nd.contrib.BilinearResize2D(mx.nd.ones((2, 3)), height=2, width=2),
     ["BilinearResize2D", "(2,3)"]),
    (lambda: mx.nd.contrib.AdaptiveAvgPooling2D(mx.nd.ones((2, 3, 4))),
     ["AdaptiveAvgPooling2D", "(2,3,4)"]),
    (lambda: mx.nd.contrib.arange_like(mx.nd.ones((2, 3)), axis=2), ["arange_like", "axis"]),
    (lambda: mx.nd.contrib.boolean_mask(mx.nd.ones((3, 2)), mx.nd.ones((4,))),
     ["boolean_mask", "index", "(3,2)", "(4)"]),
    (lambda: mx.nd.contrib.boolean_mask(mx.nd.ones((3, 2)), mx.nd.ones((2,)), axis=2),
     ["boolean_mask", "axis", "(3,2)"]),
])
def test_errors_are_clear(call, words):
    with pytest.raises(mx.base.MXNetError) as info:
        call()
    msg = str(info.value).replace(" ", "").replace("[", "(").replace("]", ")")
    for w in words:
        assert w.replace(" ", "") in msg, (w, str(info.value))
