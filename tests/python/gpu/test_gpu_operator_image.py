"""The _image_* operators on the GPU against the CPU: to_tensor, normalize, the flips, crop,
resize (every interpolation mode), adjust_lighting and the random ops, with the gradients
that exist.

Floating-point inputs follow check_fn's rule (the device in the dtype against the CPU in
float64); uint8 images must give exactly the CPU's uint8 result, which resize's
OpenCV-compatible fixed-point arithmetic makes a bit-for-bit comparison. The random image ops
draw their factors on the host from the kRandom resource, seeded per device id, so after the
same mx.random.seed the device must give exactly the CPU's result, in every dtype."""
import numpy as np
import pytest

import mxnet as mx
from gpu_util import DEV, check_fn

FLOATS = [np.float32, np.float64]


def _image(shape, seed=0):
    return np.random.RandomState(seed).randint(0, 256, shape).astype(np.uint8)


def _check_exact(fn, image, name):
    """fn on an uint8 image: DEV must give exactly the CPU's result."""
    ref = fn(mx.nd.array(image, ctx=mx.cpu(), dtype=np.uint8)).asnumpy()
    out = fn(mx.nd.array(image, ctx=DEV, dtype=np.uint8)).asnumpy()
    assert out.dtype == ref.dtype, name
    np.testing.assert_array_equal(out, ref, err_msg=name)


@pytest.mark.parametrize("shape", [(5, 7, 3), (2, 4, 6, 1), (3, 1, 1, 3)])
def test_to_tensor(shape):
    image = _image(shape)
    _check_exact(mx.nd.image.to_tensor, image, "to_tensor uint8")
    for dtype in FLOATS:  # float images (differentiable): the gradient is out_grad / 255
        check_fn(mx.nd.image.to_tensor, [image.astype(dtype)], dtype, True,
                 "to_tensor %s" % dtype.__name__)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,mean,std", [((3, 5, 7), (0.1, 0.2, 0.3), (0.5, 1.5, 2.0)),
                                            ((2, 3, 4, 6), 0.25, 0.75),
                                            ((2, 1, 4, 5), (0.5,), (2.0,))])
def test_normalize_and_gradient(shape, mean, std, dtype):
    data = np.random.RandomState(1).uniform(0, 1, shape)
    check_fn(lambda x: mx.nd.image.normalize(x, mean=mean, std=std), [data.astype(dtype)],
             dtype, True, "normalize %s %s" % (mean, std))


@pytest.mark.parametrize("op", ["flip_left_right", "flip_top_bottom"])
@pytest.mark.parametrize("shape", [(4, 6, 3), (5, 7, 1), (1, 1, 3)])  # odd sizes: a middle line
def test_flips_and_gradient(op, shape):
    fn = getattr(mx.nd.image, op)
    _check_exact(fn, _image(shape), op)
    for dtype in FLOATS:
        check_fn(fn, [_image(shape).astype(dtype)], dtype, True, "%s %s" % (op, dtype.__name__))


def test_flip_in_place():
    """The flips read each pair before writing it, so out=data works on the device."""
    image = _image((5, 7, 3))
    for op, axis in [("flip_left_right", 1), ("flip_top_bottom", 0)]:
        x = mx.nd.array(image, ctx=DEV, dtype=np.uint8)
        getattr(mx.nd.image, op)(x, out=x)
        np.testing.assert_array_equal(x.asnumpy(), np.flip(image, axis=axis), err_msg=op)


@pytest.mark.parametrize("shape,box", [((6, 8, 3), (1, 2, 5, 3)), ((2, 6, 8, 1), (0, 0, 8, 6)),
                                       ((3, 5, 4, 3), (3, 4, 1, 1))])
def test_crop_and_gradient(shape, box):
    x, y, w, h = box
    fn = lambda a: mx.nd.image.crop(a, x=x, y=y, width=w, height=h)  # noqa: E731
    _check_exact(fn, _image(shape), "crop %s" % (box,))
    for dtype in FLOATS:
        check_fn(fn, [_image(shape).astype(dtype)], dtype, True, "crop %s %s" % (box, dtype))


def test_crop_gradient_accumulates():
    """grad_req='add' adds the window's gradient to what the input gradient held."""
    image = _image((5, 6, 3)).astype(np.float32)
    grads = []
    for ctx in [mx.cpu(), DEV]:
        x = mx.nd.array(image, ctx=ctx)
        x.attach_grad(grad_req="add")
        x.grad[:] = 1
        for _ in range(2):
            with mx.autograd.record():
                out = mx.nd.image.crop(x, x=1, y=2, width=4, height=3)
            out.backward(mx.nd.ones(out.shape, ctx=ctx) * 2)
        grads.append(x.grad.asnumpy())
    np.testing.assert_array_equal(grads[1], grads[0])
    assert grads[0].max() == 5 and grads[0].min() == 1


# (input shape, size, keep_ratio): downscales, upscales, mixed, exact 2x (2x2 means), integer
# area factors and fractional ones, batches.
RESIZE_CASES = [((9, 11, 3), (5, 4), False), ((6, 5, 3), (13, 17), False),
                ((7, 12, 1), (20, 3), False), ((8, 10, 3), (5, 4), False),
                ((12, 9, 3), (3, 4), False), ((2, 10, 14, 3), (6, 9), False),
                ((10, 6, 3), 4, True), ((1, 1, 3), (3, 2), False)]


@pytest.mark.parametrize("interp", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("shape,size,keep", RESIZE_CASES)
def test_resize_uint8_exact(shape, size, keep, interp):
    fn = lambda a: mx.nd.image.resize(a, size=size, keep_ratio=keep, interp=interp)  # noqa: E731
    _check_exact(fn, _image(shape, seed=interp), "resize %s %s interp=%d" % (shape, size, interp))


@pytest.mark.parametrize("interp", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,size,keep", RESIZE_CASES)
def test_resize_float(shape, size, keep, interp, dtype):
    data = np.random.RandomState(interp).uniform(-1, 2, shape)
    check_fn(lambda a: mx.nd.image.resize(a, size=size, keep_ratio=keep, interp=interp),
             [data.astype(dtype)], dtype, False, "resize %s %s interp=%d" % (shape, size, interp))


def test_resize_float32_same_bits_as_cpu():
    """The GPU keeps the CPU's products unfused (no FMA), so float32 matches the CPU's float32."""
    data = np.random.RandomState(3).uniform(0, 255, (2, 9, 13, 3)).astype(np.float32)
    for interp in [0, 1, 2, 3]:
        fn = lambda a: mx.nd.image.resize(a, size=(7, 5), interp=interp)  # noqa: E731
        ref = fn(mx.nd.array(data, ctx=mx.cpu())).asnumpy()
        out = fn(mx.nd.array(data, ctx=DEV)).asnumpy()
        np.testing.assert_array_equal(out, ref, err_msg="interp=%d" % interp)


@pytest.mark.parametrize("shape", [(4, 5, 3), (3, 6, 1)])
@pytest.mark.parametrize("alpha", [(0.02, -0.05, 0.1), (-1.0, 0.5, 2.0)])  # 2nd: saturates
def test_adjust_lighting(shape, alpha):
    fn = lambda a: mx.nd.image.adjust_lighting(a, alpha=alpha)  # noqa: E731
    _check_exact(fn, _image(shape), "adjust_lighting uint8 %s" % (alpha,))
    for dtype in FLOATS:  # y = x + const: the input gradient is the output gradient
        check_fn(fn, [_image(shape).astype(dtype)], dtype, True,
                 "adjust_lighting %s %s" % (alpha, dtype.__name__))


RANDOM_OPS = [("random_flip_left_right", {}), ("random_flip_top_bottom", {}),
              ("random_brightness", dict(min_factor=0.3, max_factor=1.8)),
              ("random_contrast", dict(min_factor=0.3, max_factor=1.8)),
              ("random_saturation", dict(min_factor=0.0, max_factor=2.0)),
              ("random_hue", dict(min_factor=0.1, max_factor=0.9)),
              ("random_color_jitter", dict(brightness=0.4, contrast=0.6, saturation=0.7,
                                           hue=0.3)),
              ("random_color_jitter", dict(brightness=0.0, contrast=0.5, saturation=0.0,
                                           hue=0.2)),
              ("random_lighting", dict(alpha_std=3.0))]


def _seeded_calls(fn, image, ctx, seed, calls, in_place=False):
    """mx.random.seed(seed), then `calls` calls of fn on ctx: their outputs, in order."""
    mx.random.seed(seed)
    outs = []
    for _ in range(calls):
        x = mx.nd.array(image, ctx=ctx, dtype=image.dtype)
        if in_place:
            fn(x, out=x)
            outs.append(x.asnumpy())
        else:
            outs.append(fn(x).asnumpy())
    return outs


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(33, 47, 3), (6, 5, 1)])  # several blocks of threads; gray
@pytest.mark.parametrize("op,kwargs", RANDOM_OPS)
def test_random_ops_seeded_like_cpu(op, kwargs, shape, dtype):
    """Seeded alike, DEV draws the CPU's factors (same generator seed per device id) and its
    kernels give the CPU's bits: call after call, the outputs are equal."""
    fn = lambda a, **k: getattr(mx.nd.image, op)(a, **kwargs, **k)  # noqa: E731
    image = _image(shape, seed=len(op)).astype(dtype)
    ref = _seeded_calls(fn, image, mx.cpu(), 7, 4)
    out = _seeded_calls(fn, image, DEV, 7, 4)
    for i, (o, r) in enumerate(zip(out, ref)):
        assert o.dtype == r.dtype
        np.testing.assert_array_equal(o, r, err_msg="%s %s call %d" % (op, kwargs, i))


@pytest.mark.parametrize("op,kwargs", RANDOM_OPS)
def test_random_ops_in_place(op, kwargs):
    """out=data on DEV (contrast sums the image before any pixel is written) gives the CPU's
    out-of-place result."""
    fn = lambda a, **k: getattr(mx.nd.image, op)(a, **kwargs, **k)  # noqa: E731
    image = _image((9, 11, 3), seed=3)
    ref = _seeded_calls(fn, image, mx.cpu(), 11, 3)
    out = _seeded_calls(fn, image, DEV, 11, 3, in_place=True)
    for i, (o, r) in enumerate(zip(out, ref)):
        np.testing.assert_array_equal(o, r, err_msg="%s %s call %d" % (op, kwargs, i))


def test_random_ops_draw_per_call():
    """The factors are drawn per call: 8 seeded flips on DEV are not all the same, and another
    seed gives another brightness."""
    image = _image((4, 5, 3))
    flips = _seeded_calls(mx.nd.image.random_flip_left_right, image, DEV, 1, 8)
    assert any(not np.array_equal(f, flips[0]) for f in flips[1:])
    fn = lambda a: mx.nd.image.random_brightness(a, min_factor=0.2, max_factor=0.9)  # noqa: E731
    a = _seeded_calls(fn, image.astype(np.float32), DEV, 1, 1)[0]
    b = _seeded_calls(fn, image.astype(np.float32), DEV, 2, 1)[0]
    assert not np.array_equal(a, b)
