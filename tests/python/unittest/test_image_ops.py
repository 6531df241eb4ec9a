"""The `_image_*` operators (mx.nd.image / mx.sym.image), the spatial sampling operators and
gluon.data.vision.transforms: NumPy references, MXNet 1.9.1 outputs (resize conventions, colour
ops, samplers and their gradients, transforms), seeded determinism and statistics of the random
ops, and error messages."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd
from mxnet.gluon.data.vision import transforms as T

import mx191_oracle as oracle
from optable import image as ref

needs_mx191 = pytest.mark.skipif(not oracle.HAVE_MX191, reason=oracle.SKIP_REASON)
RNG = np.random.RandomState(1234)


def _u8(shape, seed=0):
    return np.random.RandomState(seed).randint(0, 256, size=shape).astype(np.uint8)


def _nd(x):
    return mx.nd.array(x, dtype=x.dtype)


# ---- deterministic ops vs NumPy --------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_to_tensor_layouts(dtype):
    for shape in [(4, 5, 3), (2, 4, 5, 3), (3, 2, 1)]:
        x = _u8(shape).astype(dtype)
        out = mx.nd.image.to_tensor(_nd(x))
        assert out.dtype == np.float32
        np.testing.assert_allclose(out.asnumpy(), ref.ref_to_tensor(x), rtol=1e-6)


def test_to_tensor_gradient_is_transposed_over_255():
    x = mx.nd.array(np.random.RandomState(1).uniform(0, 255, (2, 3, 4, 3)))
    x.attach_grad()
    head = np.random.RandomState(2).uniform(-1, 1, (2, 3, 3, 4))
    with autograd.record():
        y = mx.nd.image.to_tensor(x)
    y.backward(mx.nd.array(head))
    np.testing.assert_allclose(x.grad.asnumpy(), np.transpose(head, (0, 2, 3, 1)) / 255,
                               rtol=1e-6)


def test_normalize_per_channel_and_scalar():
    x = np.random.RandomState(2).uniform(0, 1, (2, 3, 4, 5)).astype(np.float32)
    out = mx.nd.image.normalize(_nd(x), mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225))
    np.testing.assert_allclose(out.asnumpy(), ref.ref_normalize(
        x, (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)), rtol=1e-5, atol=1e-6)
    out = mx.nd.image.normalize(_nd(x[0]), 0.5, 0.25)
    np.testing.assert_allclose(out.asnumpy(), (x[0] - 0.5) / 0.25, rtol=1e-5, atol=1e-6)
    # default mean 0 / std 1 is the identity
    np.testing.assert_allclose(mx.nd.image.normalize(_nd(x)).asnumpy(), x)


def test_normalize_gradient_is_one_over_std():
    x = mx.nd.array(np.random.RandomState(3).uniform(0, 1, (3, 2, 2)))
    x.attach_grad()
    with autograd.record():
        y = mx.nd.image.normalize(x, mean=(1, 2, 3), std=(2, 4, 8))
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy()[:, 0, 0], [0.5, 0.25, 0.125])


@pytest.mark.parametrize("dtype", ["uint8", "float32", "int32"])
def test_flips_and_crop(dtype):
    x = _u8((4, 6, 3)).astype(dtype)
    np.testing.assert_array_equal(mx.nd.image.flip_left_right(_nd(x)).asnumpy(), x[:, ::-1])
    np.testing.assert_array_equal(mx.nd.image.flip_top_bottom(_nd(x)).asnumpy(), x[::-1])
    np.testing.assert_array_equal(mx.nd.image.crop(_nd(x), 1, 2, 4, 2).asnumpy(),
                                  x[2:4, 1:5])
    xb = _u8((2, 4, 6, 3)).astype(dtype)
    np.testing.assert_array_equal(mx.nd.image.crop(_nd(xb), x=0, y=1, width=3, height=3)
                                  .asnumpy(), xb[:, 1:4, 0:3])


def test_crop_gradient_scatters_into_the_window():
    x = mx.nd.ones((4, 5, 3))
    x.attach_grad()
    with autograd.record():
        y = mx.nd.image.crop(x, x=1, y=1, width=2, height=3)
    y.backward(mx.nd.full(y.shape, 2.0))
    expected = np.zeros((4, 5, 3))
    expected[1:4, 1:3] = 2.0
    np.testing.assert_array_equal(x.grad.asnumpy(), expected)


@pytest.mark.parametrize("dtype", ["uint8", "float32", "float64"])
def test_colour_ops_with_fixed_factor_match_numpy(dtype):
    x = _u8((5, 6, 3), seed=4).astype(dtype)
    tol = dict(rtol=1e-5, atol=1e-3) if dtype != "uint8" else dict(rtol=0, atol=0)
    cases = [("random_brightness", 1.37, ref.ref_brightness),
             ("random_contrast", 0.6, ref.ref_contrast),
             ("random_contrast", 1.8, ref.ref_contrast),
             ("random_saturation", 1.5, ref.ref_saturation),
             ("random_saturation", 0.3, ref.ref_saturation)]
    for op, a, fn in cases:
        got = getattr(mx.nd.image, op)(_nd(x), min_factor=a, max_factor=a).asnumpy()
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got.astype(np.float64), fn(x, a).astype(np.float64),
                                   err_msg=op, **tol)
    alpha = (0.3, -1.2, 2.0)
    got = mx.nd.image.adjust_lighting(_nd(x), alpha=alpha).asnumpy()
    np.testing.assert_allclose(got.astype(np.float64),
                               ref.ref_lighting(x, alpha).astype(np.float64), **tol)


@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_hue_rotation_matches_colorsys(dtype):
    x = _u8((4, 5, 3), seed=5).astype(dtype)
    for a in (0.1, 0.45, 0.77):
        got = mx.nd.image.random_hue(_nd(x), min_factor=a, max_factor=a).asnumpy()
        # uint8 truncates after float arithmetic: allow one step of rounding difference
        np.testing.assert_allclose(got.astype(np.float64), ref.ref_hue(x, a).astype(np.float64),
                                   atol=1.0 if dtype == "uint8" else 1e-2)
    # a whole turn (or a tiny one) leaves the image unchanged
    np.testing.assert_allclose(mx.nd.image.random_hue(_nd(x), min_factor=1.0, max_factor=1.0)
                               .asnumpy().astype(np.float64), x, atol=1.0)


def test_resize_output_sizes():
    x = mx.nd.zeros((4, 6, 3), dtype="uint8")
    assert mx.nd.image.resize(x, size=(3,)).shape == (3, 3, 3)
    assert mx.nd.image.resize(x, size=(3,), keep_ratio=True).shape == (3, 4, 3)
    assert mx.nd.image.resize(mx.nd.zeros((6, 4, 3)), size=3, keep_ratio=True).shape == (4, 3, 3)
    assert mx.nd.image.resize(x, size=(3, 5)).shape == (5, 3, 3)       # (width, height)
    assert mx.nd.image.resize(mx.nd.zeros((2, 4, 6, 1)), size=(7, 2)).shape == (2, 2, 7, 1)


@pytest.mark.parametrize("interp", [0, 1])
def test_resize_float_matches_numpy(interp):
    x = np.random.RandomState(6).uniform(0, 255, (7, 9, 3)).astype(np.float32)
    for size in [(4, 3), (13, 11), (9, 7), (5,), (1, 1)]:
        got = mx.nd.image.resize(_nd(x), size=size, interp=interp).asnumpy()
        np.testing.assert_allclose(got, ref.ref_resize_float(x, size, interp), rtol=1e-5,
                                   atol=1e-3, err_msg=str(size))


def test_resize_uint8_nearest_and_batch():
    x = _u8((2, 5, 7, 3), seed=7)
    got = mx.nd.image.resize(_nd(x), size=(11, 3), interp=0).asnumpy()
    np.testing.assert_array_equal(got, ref.ref_resize_float(x, (11, 3), 0).astype(np.uint8))
    # bilinear uint8: within one step of the exact float result, exact on a constant image
    got = mx.nd.image.resize(_nd(x), size=(11, 3)).asnumpy().astype(np.float64)
    assert np.abs(got - ref.ref_resize_float(x, (11, 3), 1)).max() <= 1.0
    flat = np.full((5, 7, 3), 77, np.uint8)
    np.testing.assert_array_equal(mx.nd.image.resize(_nd(flat), size=(13, 4)).asnumpy(), 77)


def test_symbolic_image_ops():
    data = mx.sym.var("data")
    net = mx.sym.image.normalize(mx.sym.image.to_tensor(mx.sym.image.resize(
        mx.sym.image.flip_left_right(data), size=(4, 3))), mean=0.5, std=0.25)
    x = _u8((5, 6, 3), seed=8)
    ex = net.bind(mx.cpu(), {"data": _nd(x)})
    got = ex.forward()[0].asnumpy()
    want = mx.nd.image.normalize(mx.nd.image.to_tensor(mx.nd.image.resize(
        mx.nd.image.flip_left_right(_nd(x)), size=(4, 3))), mean=0.5, std=0.25).asnumpy()
    np.testing.assert_array_equal(got, want)
    assert net.infer_shape(data=(5, 6, 3))[1] == [(3, 3, 4)]


# ---- random ops ------------------------------------------------------------------------------
RANDOM_CASES = [
    ("random_flip_left_right", {}),
    ("random_flip_top_bottom", {}),
    ("random_brightness", dict(min_factor=0.5, max_factor=1.5)),
    ("random_contrast", dict(min_factor=0.5, max_factor=1.5)),
    ("random_saturation", dict(min_factor=0.5, max_factor=1.5)),
    ("random_hue", dict(min_factor=0.0, max_factor=0.5)),
    ("random_color_jitter", dict(brightness=0.3, contrast=0.3, saturation=0.3, hue=0.1)),
    ("random_lighting", dict(alpha_std=0.5)),
]


@pytest.mark.parametrize("op,kwargs", RANDOM_CASES, ids=[c[0] for c in RANDOM_CASES])
def test_random_ops_follow_the_seed(op, kwargs):
    x = _nd(_u8((6, 7, 3), seed=9).astype(np.float32))
    fn = getattr(mx.nd.image, op)

    def draws(seed):
        mx.random.seed(seed)
        return [fn(x, **kwargs).asnumpy() for _ in range(6)]

    a, b, c = draws(11), draws(11), draws(12)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert any(not np.array_equal(u, v) for u, v in zip(a, c)), "seed has no effect"
    assert any(not np.array_equal(a[0], u) for u in a[1:]), "every call gave the same output"
    assert all(u.shape == x.shape and u.dtype == np.float32 for u in a)


def test_random_flip_is_a_fair_coin():
    x = _u8((3, 4, 1), seed=10)
    mx.random.seed(3)
    flips = 0
    for _ in range(400):
        out = mx.nd.image.random_flip_left_right(_nd(x)).asnumpy()
        if np.array_equal(out, x[:, ::-1]):
            flips += 1
        else:
            np.testing.assert_array_equal(out, x)
    assert abs(flips - 200) < 5 * 10, flips          # 5 standard deviations


def test_random_brightness_factor_is_uniform_in_range():
    x = mx.nd.ones((1, 1, 3))
    mx.random.seed(4)
    factors = np.array([mx.nd.image.random_brightness(x, 0.5, 1.5).asnumpy()[0, 0, 0]
                        for _ in range(400)])
    assert factors.min() >= 0.5 and factors.max() <= 1.5
    assert abs(factors.mean() - 1.0) < 5 * np.sqrt(1 / 12 / 400)
    assert abs(factors.var() - 1 / 12) < 0.25 / 12


def test_random_lighting_alpha_is_normal():
    x = mx.nd.zeros((1, 1, 3))
    mx.random.seed(5)
    shifts = np.array([mx.nd.image.random_lighting(x, alpha_std=0.1).asnumpy()[0, 0]
                       for _ in range(400)])
    alphas = np.linalg.solve(ref.EIGVEC, shifts.T).T / ref.EIGVAL   # back to the alphas
    assert abs(alphas.mean()) < 5 * 0.1 / 20
    np.testing.assert_allclose(alphas.std(axis=0), 0.1, rtol=0.2)
    np.testing.assert_array_equal(mx.nd.image.random_lighting(x, alpha_std=0.0).asnumpy(), 0)


def test_random_color_jitter_zero_is_identity_and_stays_in_range():
    x = _u8((5, 5, 3), seed=12)
    np.testing.assert_array_equal(mx.nd.image.random_color_jitter(_nd(x), 0, 0, 0, 0).asnumpy(),
                                  x)
    mx.random.seed(6)
    for _ in range(20):
        out = mx.nd.image.random_color_jitter(_nd(x), 0.4, 0.4, 0.4, 0.2).asnumpy()
        assert out.dtype == np.uint8 and out.shape == x.shape


# ---- spatial sampling ------------------------------------------------------------------------
def test_identity_affine_grid_reproduces_the_input():
    data = np.random.RandomState(13).uniform(-1, 1, (2, 3, 5, 6)).astype(np.float32)
    theta = np.tile([1, 0, 0, 0, 1, 0], (2, 1)).astype(np.float32)
    out = mx.nd.SpatialTransformer(_nd(data), _nd(theta), target_shape=(5, 6),
                                   transform_type="affine", sampler_type="bilinear")
    np.testing.assert_allclose(out.asnumpy(), data, rtol=1e-5, atol=1e-6)
    grid = mx.nd.GridGenerator(_nd(theta), transform_type="affine", target_shape=(5, 6))
    np.testing.assert_allclose(mx.nd.BilinearSampler(_nd(data), grid).asnumpy(), data,
                               rtol=1e-5, atol=1e-6)
    # a zero flow warps to the identity grid too
    warp = mx.nd.GridGenerator(mx.nd.zeros((2, 2, 5, 6)), transform_type="warp")
    np.testing.assert_allclose(warp.asnumpy(), grid.asnumpy(), atol=1e-6)


def test_sampler_reads_zero_outside_the_image():
    data = mx.nd.ones((1, 1, 3, 3))
    grid = mx.nd.array(np.full((1, 2, 1, 2), 3.0))
    np.testing.assert_array_equal(mx.nd.BilinearSampler(data, grid).asnumpy(), 0)


# ---- gluon transforms ------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:All children of this Sequential")
def test_transforms_compose_hybridizes():
    x = _nd(_u8((12, 16, 3), seed=14))
    pipeline = T.Compose([T.Resize((8, 6)), T.ToTensor(),
                          T.Normalize((0.5, 0.4, 0.3), (0.2, 0.25, 0.3))])
    eager = pipeline(x).asnumpy()
    pipeline.hybridize()
    np.testing.assert_array_equal(pipeline(x).asnumpy(), eager)
    want = ref.ref_normalize(ref.ref_to_tensor(mx.nd.image.resize(x, size=(8, 6)).asnumpy()),
                             (0.5, 0.4, 0.3), (0.2, 0.25, 0.3))
    np.testing.assert_allclose(eager, want, rtol=1e-5, atol=1e-6)
    assert isinstance(T.RandomFlipLeftRight(), mx.gluon.HybridBlock)
    assert not isinstance(T.CenterCrop(4), mx.gluon.HybridBlock)


def test_center_crop_and_random_resized_crop():
    x = _u8((10, 16, 3), seed=15)
    out = T.CenterCrop((8, 5))(_nd(x)).asnumpy()      # (width, height): the centre 8x5 window
    np.testing.assert_array_equal(out, x[2:7, 4:12])
    np.testing.assert_array_equal(T.CenterCrop(4)(_nd(x)).asnumpy(), x[3:7, 6:10])
    # a crop larger than the image shrinks (keeping its ratio) to fit, then resizes up
    out = T.CenterCrop((20, 5), interpolation=0)(_nd(x)).asnumpy()
    np.testing.assert_array_equal(out, ref.ref_resize_float(x[3:7, 0:16], (20, 5), 0))
    import random
    random.seed(0)
    crops = [T.RandomResizedCrop(6, scale=(0.2, 1.0))(_nd(x)) for _ in range(10)]
    assert all(c.shape == (6, 6, 3) and c.dtype == np.uint8 for c in crops)
    assert len({c.asnumpy().tobytes() for c in crops}) > 1
    random.seed(0)
    again = [T.RandomResizedCrop(6, scale=(0.2, 1.0))(_nd(x)) for _ in range(10)]
    for a, b in zip(crops, again):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_random_colour_transforms_respect_their_ranges():
    x = _nd(np.full((2, 2, 3), 100.0, np.float32))
    mx.random.seed(7)
    vals = [T.RandomBrightness(0.3)(x).asnumpy()[0, 0, 0] for _ in range(50)]
    assert min(vals) >= 70 - 1e-3 and max(vals) <= 130 + 1e-3 and np.std(vals) > 5
    # a gray image keeps its values under contrast and saturation changes
    np.testing.assert_allclose(T.RandomContrast(0.5)(x).asnumpy(), 100, rtol=1e-5)
    assert T.RandomHue(0.1)(x).shape == (2, 2, 3)
    assert T.RandomLighting(0.1)(x).shape == (2, 2, 3)
    assert T.Cast("float16")(x).dtype == np.float16


def test_rotate_quarter_turn_and_random_rotation():
    x = np.random.RandomState(16).uniform(0, 1, (2, 5, 5)).astype(np.float32)
    # +90 degrees on a square image: output (i, j) samples the source at (j, 4 - i)
    np.testing.assert_allclose(T.Rotate(90)(_nd(x)).asnumpy(), np.rot90(x, 1, axes=(1, 2)),
                               atol=1e-5)
    np.testing.assert_allclose(T.Rotate(0)(_nd(x)).asnumpy(), x, atol=1e-6)
    with pytest.raises(TypeError, match="float32"):
        T.Rotate(10)(mx.nd.ones((1, 3, 3), dtype="uint8"))
    np.random.seed(0)
    a = T.RandomRotation((-30, 30))(_nd(np.stack([x, x]))).asnumpy()
    np.random.seed(0)
    b = T.RandomRotation((-30, 30))(_nd(np.stack([x, x]))).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a[0], a[1])       # one angle per image
    assert T.RandomRotation((-5, 5), rotate_with_proba=0.0)(_nd(x)) is not None


# ---- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize("call,match", [
    (lambda: mx.nd.image.to_tensor(mx.nd.ones((3, 3))), r"_image_to_tensor.*[\[(]3, ?3[\])]"),
    (lambda: mx.nd.image.normalize(mx.nd.ones((2, 2))), r"_image_normalize.*[\[(]2, ?2[\])]"),
    (lambda: mx.nd.image.normalize(mx.nd.ones((4, 2, 2))), r"_image_normalize.*1 or 3"),
    (lambda: mx.nd.image.normalize(mx.nd.ones((3, 2, 2), dtype="uint8")),
     r"_image_normalize.*floating-point.*uint8"),
    (lambda: mx.nd.image.normalize(mx.nd.ones((3, 2, 2)), mean=(1, 2)),
     r"_image_normalize.*mean"),
    (lambda: mx.nd.image.flip_left_right(mx.nd.ones((1, 2, 2, 3))),
     r"_image_flip_left_right.*[\[(]1, ?2, ?2, ?3[\])]"),
    (lambda: mx.nd.image.random_brightness(mx.nd.ones((2, 2, 4)), 1, 1),
     r"_image_random_brightness.*channel"),
    (lambda: mx.nd.image.crop(mx.nd.ones((4, 4, 3)), x=3, y=0, width=2, height=2),
     r"_image_crop.*x \+ width.*width 4"),
    (lambda: mx.nd.image.crop(mx.nd.ones((4, 4, 3)), x=0, y=3, width=2, height=2),
     r"_image_crop.*y \+ height"),
    (lambda: mx.nd.image.crop(mx.nd.ones((4, 4, 3)), x=-1, y=0, width=2, height=2),
     r"_image_crop.*non-negative"),
    (lambda: mx.nd.image.crop(mx.nd.ones((4, 4)), x=0, y=0, width=2, height=2),
     r"_image_crop.*[\[(]4, ?4[\])]"),
    (lambda: mx.nd.image.resize(mx.nd.ones((4, 4, 3)), size=(1, 2, 3)), r"_image_resize.*size"),
    (lambda: mx.nd.image.resize(mx.nd.ones((4, 4, 3)), size=(0,)), r"_image_resize.*positive"),
    (lambda: mx.nd.image.resize(mx.nd.ones((4, 4, 3)), size=(2,), interp=7),
     r"_image_resize.*interp.*7"),
    (lambda: mx.nd.image.resize(mx.nd.ones((4, 4, 3), dtype="int32"), size=(2,)),
     r"_image_resize.*int32"),
    (lambda: mx.nd.image.adjust_lighting(mx.nd.ones((2, 2, 3)), alpha=(1, 2)),
     r"_image_adjust_lighting.*alpha"),
    (lambda: mx.nd.GridGenerator(mx.nd.ones((2, 5)), transform_type="affine",
                                 target_shape=(3, 3)), r"GridGenerator.*[\[(]2, ?5[\])]"),
    (lambda: mx.nd.GridGenerator(mx.nd.ones((2, 6)), transform_type="affine"),
     r"GridGenerator.*target_shape"),
    (lambda: mx.nd.BilinearSampler(mx.nd.ones((1, 1, 3, 3)), mx.nd.ones((1, 3, 2, 2))),
     r"BilinearSampler.*grid.*[\[(]1, ?3, ?2, ?2[\])]"),
    (lambda: mx.nd.SpatialTransformer(mx.nd.ones((1, 1, 3)), mx.nd.ones((1, 6)),
                                      target_shape=(2, 2), transform_type="affine",
                                      sampler_type="bilinear"), r"SpatialTransformer.*data"),
])
def test_errors_name_op_argument_and_shape(call, match):
    with pytest.raises(mx.base.MXNetError, match=match):
        call().wait_to_read()


# ---- MXNet 1.9.1 as the oracle ---------------------------------------------------------------
ORACLE_SCRIPT = textwrap.dedent(r'''
    import sys
    import numpy as np
    import mxnet as mx
    from mxnet import autograd
    from mxnet.gluon.data.vision import transforms as T

    res = {}
    rng = np.random.RandomState(21)
    imgs = {"u": rng.randint(0, 256, (6, 7, 3)).astype("uint8"),
            "f": rng.uniform(0, 255, (6, 7, 3)).astype("float32")}
    for key, x in imgs.items():
        a = mx.nd.array(x, dtype=x.dtype)
        for op, f in [("random_brightness", 1.3), ("random_contrast", 0.6),
                      ("random_contrast", 1.7), ("random_saturation", 1.5),
                      ("random_saturation", 0.4), ("random_hue", 0.23), ("random_hue", 0.61)]:
            res["%s_%s_%s" % (key, op, f)] = getattr(mx.nd.image, op)(
                a, min_factor=f, max_factor=f).asnumpy()
        res[key + "_lighting"] = mx.nd.image.adjust_lighting(a, alpha=(0.5, -1.0, 1.5)).asnumpy()
        res[key + "_to_tensor"] = mx.nd.image.to_tensor(a).asnumpy()
        # even width: 1.9.1 leaves the middle column of odd widths unwritten (zeros)
        res[key + "_flip_lr"] = mx.nd.image.flip_left_right(
            mx.nd.slice_axis(a, axis=1, begin=0, end=6)).asnumpy()
        res[key + "_crop"] = mx.nd.image.crop(a, x=1, y=2, width=5, height=3).asnumpy()
    for shape in [(5, 7, 3), (8, 6, 1), (17, 23, 3), (2, 9, 10, 3)]:
        for key in ("u", "f"):
            x = rng.randint(0, 256, shape) if key == "u" else rng.uniform(0, 255, shape)
            a = mx.nd.array(x, dtype="uint8" if key == "u" else "float32")
            for size in [(3, 4), (11, 9), (shape[-2] // 2, shape[-3] // 2), (20, 20), (7,)]:
                for interp in (0, 1, 2, 3, 4):
                    for keep in (0, 1):
                        if keep and len(size) == 2:
                            continue
                        name = "resize_%s_%s_%s_%d_%d" % (key, "x".join(map(str, shape)),
                                                          "x".join(map(str, size)), interp, keep)
                        res[name] = mx.nd.image.resize(a, size=size, interp=interp,
                                                       keep_ratio=keep).asnumpy()
    t = rng.uniform(0, 1, (2, 3, 5, 6)).astype("float32")
    res["normalize"] = mx.nd.image.normalize(mx.nd.array(t), mean=(0.1, 0.2, 0.3),
                                             std=(0.3, 0.2, 0.1)).asnumpy()
    # samplers, with gradients for random head gradients
    data = rng.uniform(-1, 1, (2, 3, 5, 6)).astype("float32")
    theta = (np.tile([0.9, 0.1, 0.05, -0.1, 0.8, -0.05], (2, 1))
             + rng.uniform(-0.2, 0.2, (2, 6))).astype("float32")
    flow = rng.uniform(-1.5, 1.5, (2, 2, 4, 5)).astype("float32")
    head = rng.uniform(-1, 1, (2, 3, 4, 3)).astype("float32")
    ghead = rng.uniform(-1, 1, (2, 2, 4, 5)).astype("float32")
    d, th, fl = mx.nd.array(data), mx.nd.array(theta), mx.nd.array(flow)
    for v in (d, th, fl):
        v.attach_grad()
    with autograd.record():
        y = mx.nd.SpatialTransformer(d, th, target_shape=(4, 3), transform_type="affine",
                                     sampler_type="bilinear")
    y.backward(mx.nd.array(head))
    res["st_out"], res["st_gdata"], res["st_gloc"] = (y.asnumpy(), d.grad.asnumpy(),
                                                      th.grad.asnumpy())
    with autograd.record():
        g = mx.nd.GridGenerator(th, transform_type="affine", target_shape=(4, 3))
        y = mx.nd.BilinearSampler(d, g)
    y.backward(mx.nd.array(head))
    res["bs_out"], res["bs_gdata"], res["bs_gtheta"] = (y.asnumpy(), d.grad.asnumpy(),
                                                        th.grad.asnumpy())
    with autograd.record():
        g = mx.nd.GridGenerator(fl, transform_type="warp")
    g.backward(mx.nd.array(ghead))
    res["warp_out"], res["warp_gflow"] = g.asnumpy(), fl.grad.asnumpy()
    # transforms
    x = mx.nd.array(rng.randint(0, 256, (12, 15, 3)), dtype="uint8")
    res["tf_compose"] = T.Compose([T.Resize(10, keep_ratio=True), T.ToTensor(),
                                   T.Normalize((0.5, 0.4, 0.3), (0.2, 0.2, 0.25))])(x).asnumpy()
    res["tf_center"] = T.CenterCrop((9, 7), interpolation=1)(x).asnumpy()
    res["tf_center_small"] = T.CenterCrop(20, interpolation=0)(x).asnumpy()
    res["tf_cropresize"] = T.CropResize(2, 1, 8, 9, (5, 4), 1)(x).asnumpy()
    chw = mx.nd.array(rng.uniform(0, 1, (2, 3, 7, 9)).astype("float32"))
    res["tf_rotate"] = T.Rotate(33)(chw[0]).asnumpy()
    res["tf_rotate_zoom_in"] = T.Rotate(-20, zoom_in=True)(chw).asnumpy()
    res["tf_rotate_zoom_out"] = T.Rotate(75, zoom_out=True)(chw).asnumpy()
    np.savez(sys.argv[1], **res)
''')


@pytest.fixture(scope="module")
def mx191_results(tmp_path_factory):
    if not oracle.HAVE_MX191:
        pytest.skip(oracle.SKIP_REASON)
    d = tmp_path_factory.mktemp("image_oracle")
    script = d / "oracle.py"
    script.write_text(ORACLE_SCRIPT)
    out = {}
    for ours in (False, True):
        path = d / ("ours.npz" if ours else "ref.npz")
        oracle.run([script, path], ours=ours)
        out[ours] = dict(np.load(path))
    return out[False], out[True]


def _tolerance(key, value):
    if value.dtype == np.uint8:
        return dict(rtol=0, atol=1 if "hue" in key else 0)
    if key.startswith(("st_g", "bs_g")):
        return dict(rtol=1e-4, atol=1e-4)
    return dict(rtol=1e-5, atol=2e-3 if key.startswith(("f_", "resize_f")) else 1e-5)


@needs_mx191
def test_outputs_match_mxnet_191(mx191_results):
    want, got = mx191_results
    assert set(want) == set(got)
    for key in sorted(want):
        assert got[key].shape == want[key].shape and got[key].dtype == want[key].dtype, key
        np.testing.assert_allclose(got[key].astype(np.float64), want[key].astype(np.float64),
                                   err_msg=key, **_tolerance(key, want[key]))
