"""mx.image and the image codec ops (_cvimdecode, _cvimread, _cvimresize, _cvcopyMakeBorder):
decoding against an independent PNG writer and against MXNet 1.9.1 (which decodes with OpenCV),
resizes against 1.9.1, crops against NumPy slicing, augmenters against their formulas, and
ImageIter batches from a .rec / .lst packed here against the images themselves."""
import os
import random
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

import mxnet as mx
from mx191_oracle import HAVE_MX191, SKIP_REASON, run

needs_mx191 = pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)


def png_bytes(img, bit_depth=8):
    """A minimal PNG writer (independent of libpng): (H, W) grey or (H, W, C) with C = 2, 3, 4."""
    img = np.asarray(img)
    if img.ndim == 2:
        img = img[:, :, None]
    h, w, c = img.shape
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    dtype = '>u2' if bit_depth == 16 else 'u1'
    raw = b''.join(b'\x00' + img[y].astype(dtype).tobytes() for y in range(h))

    def chunk(kind, data):
        crc = zlib.crc32(kind + data) & 0xffffffff
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', crc)
    ihdr = struct.pack('>IIBBBBB', w, h, bit_depth, color_type, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(raw))
            + chunk(b'IEND', b''))


def png_palette_bytes(indices, palette):
    """A palette PNG (colour type 3, 8-bit indices) of indices (H, W) into palette (K, 3)."""
    h, w = indices.shape
    raw = b''.join(b'\x00' + indices[y].astype('u1').tobytes() for y in range(h))

    def chunk(kind, data):
        crc = zlib.crc32(kind + data) & 0xffffffff
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', crc)
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 3, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr)
            + chunk(b'PLTE', palette.astype('u1').tobytes())
            + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def jpeg_bytes(rgb, quality=90):
    """JPEG bytes of an RGB image through recordio.pack_img (which takes BGR, like OpenCV)."""
    packed = mx.recordio.pack_img(mx.recordio.IRHeader(0, 0.0, 0, 0), rgb[:, :, ::-1],
                                  quality=quality, img_fmt='.jpg')
    return mx.recordio.unpack(packed)[1]


def smooth_image(h, w, seed=0, noise=0.0):
    rng = np.random.RandomState(seed)
    y, x = np.mgrid[0:h, 0:w]
    img = np.stack([100 + 80 * np.sin(x / 3.0), 120 + 60 * np.cos(y / 4.0), 30 + 3 * (x + y)], -1)
    return np.clip(img + rng.uniform(-noise, noise, img.shape), 0, 255).astype(np.uint8)


def mx191_eval(tmp_path, code, **arrays):
    """Runs `code` under MXNet 1.9.1 with the arrays (np.load'ed as `inp`), returns its `out` dict."""
    inp = str(tmp_path / "inp.npz")
    outp = str(tmp_path / "out.npz")
    np.savez(inp, **arrays)
    script = tmp_path / "oracle.py"
    script.write_text("import numpy as np, mxnet as mx\ninp = dict(np.load(%r))\nout = {}\n%s\n"
                      "np.savez(%r, **out)\n" % (inp, code, outp))
    run([str(script)], ours=False)
    return dict(np.load(outp))


# ---- decoding ------------------------------------------------------------------------------------

def test_imdecode_png_exact():
    rng = np.random.RandomState(0)
    rgb = rng.randint(0, 256, (5, 7, 3)).astype(np.uint8)
    buf = png_bytes(rgb)
    out = mx.image.imdecode(buf)
    assert out.dtype == np.uint8 and out.shape == (5, 7, 3)
    np.testing.assert_array_equal(out.asnumpy(), rgb)
    np.testing.assert_array_equal(mx.image.imdecode(buf, to_rgb=False).asnumpy(), rgb[:, :, ::-1])
    np.testing.assert_array_equal(mx.image.imdecode(bytearray(buf)).asnumpy(), rgb)
    nd_buf = mx.nd.array(np.frombuffer(buf, np.uint8), dtype='uint8')
    np.testing.assert_array_equal(mx.nd._internal._cvimdecode(nd_buf).asnumpy(), rgb)
    # Alpha dropped; grey sources replicated to colour and kept as one channel with flag=0.
    rgba = rng.randint(0, 256, (3, 4, 4)).astype(np.uint8)
    np.testing.assert_array_equal(mx.image.imdecode(png_bytes(rgba)).asnumpy(), rgba[..., :3])
    grey = rng.randint(0, 256, (4, 6)).astype(np.uint8)
    np.testing.assert_array_equal(mx.image.imdecode(png_bytes(grey)).asnumpy(),
                                  np.repeat(grey[:, :, None], 3, 2))
    np.testing.assert_array_equal(mx.image.imdecode(png_bytes(grey), flag=0).asnumpy(),
                                  grey[:, :, None])
    # Palette images are expanded to their colours.
    palette = rng.randint(0, 256, (5, 3))
    indices = rng.randint(0, 5, (4, 3))
    np.testing.assert_array_equal(mx.image.imdecode(png_palette_bytes(indices, palette)).asnumpy(),
                                  palette[indices])
    # 16-bit samples keep their high byte.
    deep = rng.randint(0, 65536, (3, 3, 3)).astype(np.uint16)
    np.testing.assert_array_equal(mx.image.imdecode(png_bytes(deep, 16)).asnumpy(),
                                  (deep >> 8).astype(np.uint8))


def test_imdecode_errors_are_clear():
    rgb = smooth_image(12, 10)
    png = png_bytes(rgb)
    jpg = jpeg_bytes(rgb)
    bad = [b"", b"abc", bytes(np.random.RandomState(1).randint(0, 256, 300).astype(np.uint8)),
           png[:40], png[:len(png) // 2], jpg[:20], jpg[:len(jpg) // 2],
           b"\xff\xd8\xff" + b"\x00" * 50, png[:8] + b"garbage" * 10]
    for b in bad:
        with pytest.raises(mx.MXNetError, match="_cvimdecode"):
            mx.image.imdecode(b).asnumpy()
    with pytest.raises(ValueError, match="buf must be"):
        mx.image.imdecode("a string")
    with pytest.raises(mx.MXNetError, match="flag"):
        mx.image.imdecode(png, flag=-1)
    with pytest.raises(mx.MXNetError, match="uint8"):
        mx.nd._internal._cvimdecode(mx.nd.array(np.frombuffer(png, np.uint8)))
    # The process survives and decodes correctly afterwards.
    np.testing.assert_array_equal(mx.image.imdecode(png).asnumpy(), rgb)


def test_imread(tmp_path):
    rgb = np.random.RandomState(2).randint(0, 256, (6, 5, 3)).astype(np.uint8)
    path = tmp_path / "x.png"
    path.write_bytes(png_bytes(rgb))
    np.testing.assert_array_equal(mx.image.imread(str(path)).asnumpy(), rgb)
    np.testing.assert_array_equal(mx.image.imread(str(path), flag=1, to_rgb=False).asnumpy(),
                                  rgb[:, :, ::-1])
    assert mx.image.imread(str(path), 0).shape == (6, 5, 1)
    with pytest.raises(mx.MXNetError, match="cannot open"):
        mx.image.imread(str(tmp_path / "missing.jpg"))
    (tmp_path / "bad.jpg").write_bytes(b"\xff\xd8\xffnot really")
    with pytest.raises(mx.MXNetError, match="bad.jpg"):
        mx.image.imread(str(tmp_path / "bad.jpg"))


def test_jpeg_round_trip_close():
    rgb = smooth_image(16, 24)
    out = mx.image.imdecode(jpeg_bytes(rgb, quality=100)).asnumpy()
    assert np.abs(out.astype(int) - rgb).mean() < 2.0
    grey = mx.image.imdecode(jpeg_bytes(rgb, quality=100), flag=0).asnumpy()[..., 0]
    luma = rgb.astype(np.float64) @ [0.299, 0.587, 0.114]
    assert np.abs(grey - luma).mean() < 2.0


@needs_mx191
def test_decode_matches_mxnet191(tmp_path):
    rng = np.random.RandomState(4)
    rgb = smooth_image(20, 18, seed=4, noise=10)
    noisy = rng.randint(0, 256, (9, 11, 3)).astype(np.uint8)
    bufs = {"jpg_smooth": jpeg_bytes(rgb, 90), "jpg_noisy": jpeg_bytes(noisy, 75),
            "jpg_grey": mx.recordio.unpack(mx.recordio.pack_img(
                mx.recordio.IRHeader(0, 0.0, 0, 0), noisy[..., 0], quality=80))[1],
            "png_rgb": png_bytes(noisy), "png_rgba": png_bytes(rng.randint(0, 256, (4, 5, 4))),
            "png_grey": png_bytes(noisy[..., 1]),
            "png_greyalpha": png_bytes(rng.randint(0, 256, (3, 4, 2))),
            "png_deep": png_bytes(rng.randint(0, 65536, (3, 5, 3)), 16),
            "png_palette": png_palette_bytes(rng.randint(0, 6, (4, 5)), rng.randint(0, 256, (6, 3)))}
    arrays = {k: np.frombuffer(v, np.uint8) for k, v in bufs.items()}
    code = """
for k, v in inp.items():
    b = mx.nd.array(v, dtype='uint8')
    for flag in (0, 1):
        for rgb in (0, 1):
            out['%s_%d_%d' % (k, flag, rgb)] = mx.nd._internal._cvimdecode(
                b, flag=flag, to_rgb=bool(rgb)).asnumpy()
"""
    ref = mx191_eval(tmp_path, code, **arrays)
    for key, expect in ref.items():
        name, flag, to_rgb = key.rsplit("_", 2)
        got = mx.nd._internal._cvimdecode(mx.nd.array(arrays[name], dtype='uint8'),
                                          flag=int(flag), to_rgb=bool(int(to_rgb))).asnumpy()
        assert got.shape == expect.shape, key
        if name.startswith("png"):
            np.testing.assert_array_equal(got, expect, err_msg=key)
        else:  # libjpeg versions may differ by a level
            assert np.abs(got.astype(int) - expect).max() <= 2, key


# ---- resize / border -----------------------------------------------------------------------------

@needs_mx191
def test_imresize_matches_mxnet191(tmp_path):
    rng = np.random.RandomState(5)
    imgs = {"a": rng.randint(0, 256, (7, 9, 3)).astype(np.uint8),
            "b": rng.randint(0, 256, (8, 6, 1)).astype(np.uint8),
            "c": rng.uniform(0, 255, (5, 6, 3)).astype(np.float32)}
    sizes = [(4, 3), (13, 11), (3, 4), (9, 14)]
    code = """
for k, v in inp.items():
    for w, h in %r:
        for interp in range(5):
            out['%%s_%%d_%%d_%%d' %% (k, w, h, interp)] = mx.image.imresize(
                mx.nd.array(v, dtype=v.dtype), w, h, interp=interp).asnumpy()
""" % (sizes,)
    ref = mx191_eval(tmp_path, code, **imgs)
    for key, expect in ref.items():
        name, w, h, interp = key.split("_")
        got = mx.image.imresize(mx.nd.array(imgs[name], dtype=imgs[name].dtype), int(w), int(h),
                                interp=int(interp)).asnumpy()
        assert got.shape == expect.shape and got.dtype == expect.dtype, key
        tol = 1 if got.dtype == np.uint8 else 1e-3
        assert np.abs(got.astype(np.float64) - expect).max() <= tol, key


@needs_mx191
def test_copy_make_border_matches_mxnet191(tmp_path):
    img = np.random.RandomState(6).randint(0, 256, (3, 4, 3)).astype(np.uint8)
    code = """
src = mx.nd.array(inp['img'], dtype='uint8')
for t in range(5):
    out['t%d' % t] = mx.image.copyMakeBorder(src, 2, 1, 5, 3, type=t, values=(7.4, 300, -3)).asnumpy()
out['value'] = mx.image.copyMakeBorder(src, 1, 1, 1, 1, value=9).asnumpy()
"""
    ref = mx191_eval(tmp_path, code, img=img)
    src = mx.nd.array(img, dtype='uint8')
    for t in range(5):
        got = mx.image.copyMakeBorder(src, 2, 1, 5, 3, type=t, values=(7.4, 300, -3)).asnumpy()
        np.testing.assert_array_equal(got, ref['t%d' % t])
    np.testing.assert_array_equal(mx.image.copyMakeBorder(src, 1, 1, 1, 1, value=9).asnumpy(),
                                  ref['value'])


def test_resize_and_crop_helpers():
    img_np = np.random.RandomState(7).randint(0, 256, (10, 16, 3)).astype(np.uint8)
    img = mx.nd.array(img_np, dtype='uint8')
    assert mx.image.scale_down((640, 480), (720, 120)) == (640, 106)
    assert mx.image.scale_down((10, 20), (5, 8)) == (5, 8)
    assert mx.image.resize_short(img, 5).shape == (5, 8, 3)
    assert mx.image.resize_short(mx.nd.zeros((16, 10, 3), dtype='uint8'), 5).shape == (8, 5, 3)
    np.testing.assert_array_equal(mx.image.fixed_crop(img, 3, 2, 6, 5).asnumpy(),
                                  img_np[2:7, 3:9])
    resized = mx.image.fixed_crop(img, 3, 2, 6, 5, size=(4, 3), interp=1)
    np.testing.assert_array_equal(resized.asnumpy(),
                                  mx.image.imresize(mx.nd.array(img_np[2:7, 3:9], dtype='uint8'),
                                                    4, 3, interp=1).asnumpy())
    out, (x0, y0, w, h) = mx.image.center_crop(img, (6, 4))
    assert (x0, y0, w, h) == (5, 3, 6, 4)
    np.testing.assert_array_equal(out.asnumpy(), img_np[3:7, 5:11])
    random.seed(0)
    for _ in range(5):
        out, (x0, y0, w, h) = mx.image.random_crop(img, (7, 3))
        assert (w, h) == (7, 3) and 0 <= x0 <= 9 and 0 <= y0 <= 7
        np.testing.assert_array_equal(out.asnumpy(), img_np[y0:y0 + 3, x0:x0 + 7])
        out, (x0, y0, w, h) = mx.image.random_size_crop(img, (4, 4), 0.3, (0.75, 1.33), interp=1)
        assert out.shape == (4, 4, 3) and x0 + w <= 16 and y0 + h <= 10
        np.testing.assert_array_equal(
            out.asnumpy(), mx.image.imresize(mx.nd.array(img_np[y0:y0 + h, x0:x0 + w],
                                                         dtype='uint8'), 4, 4, interp=1).asnumpy())
    f = mx.nd.array(img_np.astype(np.float32))
    got = mx.image.color_normalize(f.copy(), mx.nd.array([1, 2, 3]), mx.nd.array([2, 4, 8]))
    np.testing.assert_allclose(got.asnumpy(), (img_np - [1, 2, 3]) / [2.0, 4.0, 8.0], rtol=1e-6)
    with pytest.raises(ValueError, match="interp"):
        mx.image.resize_short(img, 5, interp=7)


# ---- augmenters ----------------------------------------------------------------------------------

def test_augmenters_against_formulas():
    rng = np.random.RandomState(8)
    x_np = rng.uniform(0, 255, (4, 5, 3)).astype(np.float32)
    x = lambda: mx.nd.array(x_np)
    np.testing.assert_array_equal(mx.image.HorizontalFlipAug(1.0)(x()).asnumpy(), x_np[:, ::-1])
    np.testing.assert_array_equal(mx.image.HorizontalFlipAug(0.0)(x()).asnumpy(), x_np)
    assert mx.image.CastAug()(mx.nd.array(x_np, dtype='uint8')).dtype == np.float32

    random.seed(3)
    alpha = 1.0 + random.uniform(-0.4, 0.4)
    random.seed(3)
    np.testing.assert_allclose(mx.image.BrightnessJitterAug(0.4)(x()).asnumpy(), x_np * alpha,
                               rtol=1e-5)
    coef = np.array([0.299, 0.587, 0.114])
    random.seed(4)
    alpha = 1.0 + random.uniform(-0.3, 0.3)
    random.seed(4)
    gray = (x_np * coef).sum() * 3.0 * (1 - alpha) / x_np.size
    np.testing.assert_allclose(mx.image.ContrastJitterAug(0.3)(x()).asnumpy(),
                               x_np * alpha + gray, rtol=1e-4)
    random.seed(5)
    alpha = 1.0 + random.uniform(-0.3, 0.3)
    random.seed(5)
    gray = (x_np * coef).sum(axis=2, keepdims=True) * (1 - alpha)
    np.testing.assert_allclose(mx.image.SaturationJitterAug(0.3)(x()).asnumpy(),
                               x_np * alpha + gray, rtol=1e-4)
    # Hue rotation by 0 is (almost) the identity; RandomGray with p=1 gives equal channels.
    random.seed(7)
    alpha = random.uniform(-0.2, 0.2)
    random.seed(7)
    aug = mx.image.HueJitterAug(0.2)
    u, w = np.cos(alpha * np.pi), np.sin(alpha * np.pi)
    rot = np.array([[1.0, 0.0, 0.0], [0.0, u, -w], [0.0, w, u]])
    t = (aug.ityiq @ rot @ aug.tyiq).T
    np.testing.assert_allclose(aug(x()).asnumpy(), x_np @ t, rtol=1e-4, atol=1e-3)
    g = mx.image.RandomGrayAug(1.0)(x()).asnumpy()
    np.testing.assert_allclose(g[..., 0], x_np @ [0.21, 0.72, 0.07], rtol=1e-5)
    np.testing.assert_allclose(g[..., 0], g[..., 2])
    np.random.seed(6)
    a = np.random.normal(0, 0.1, size=(3,))
    np.random.seed(6)
    eigval, eigvec = np.array([55.46, 4.794, 1.148]), np.eye(3)
    np.testing.assert_allclose(mx.image.LightingAug(0.1, eigval, eigvec)(x()).asnumpy(),
                               x_np + eigval * a, rtol=1e-5)
    np.testing.assert_allclose(mx.image.ColorNormalizeAug([1, 2, 3], [2, 2, 2])(x()).asnumpy(),
                               (x_np - [1, 2, 3]) / 2.0, rtol=1e-6)
    seq = mx.image.SequentialAug([mx.image.HorizontalFlipAug(1.0), mx.image.CastAug('float64')])
    out = seq(x())
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out.asnumpy(), x_np[:, ::-1])
    assert mx.image.ResizeAug(3)(x()).shape == (3, 3, 3)
    assert mx.image.ForceResizeAug((7, 2))(x()).shape == (2, 7, 3)
    assert mx.image.CenterCropAug((2, 2))(x()).shape == (2, 2, 3)
    assert mx.image.RandomCropAug((3, 2))(x()).shape == (2, 3, 3)
    assert mx.image.RandomSizedCropAug((3, 3), 0.5, (0.8, 1.2))(x()).shape == (3, 3, 3)
    assert '"brightnessjitteraug"' in mx.image.BrightnessJitterAug(0.1).dumps()


def test_create_augmenter():
    augs = mx.image.CreateAugmenter((3, 8, 8), resize=10, rand_crop=True, rand_mirror=True,
                                    mean=True, std=True, brightness=0.1, contrast=0.1,
                                    saturation=0.1, hue=0.1, pca_noise=0.1, rand_gray=0.2)
    names = [type(a).__name__ for a in augs]
    assert names == ["ResizeAug", "RandomCropAug", "HorizontalFlipAug", "CastAug",
                     "ColorJitterAug", "HueJitterAug", "LightingAug", "RandomGrayAug",
                     "ColorNormalizeAug"]
    names = [type(a).__name__ for a in mx.image.CreateAugmenter((3, 4, 5), rand_crop=True,
                                                                rand_resize=True)]
    assert names == ["RandomSizedCropAug", "CastAug"]
    img = mx.nd.array(np.random.RandomState(0).randint(0, 256, (12, 14, 3)), dtype='uint8')
    out = img
    for a in mx.image.CreateAugmenter((3, 6, 5), mean=True):
        out = a(out)
    assert out.shape == (6, 5, 3) and out.dtype == np.float32
    assert mx.img is mx.image


# ---- ImageIter -----------------------------------------------------------------------------------

def _make_images(n, h=6, w=5, seed=9):
    rng = np.random.RandomState(seed)
    return [rng.randint(0, 256, (h, w, 3)).astype(np.uint8) for _ in range(n)]


def _write_rec(tmp_path, imgs, labels, indexed=True):
    rec, idx = str(tmp_path / "d.rec"), str(tmp_path / "d.idx")
    w = mx.recordio.MXIndexedRecordIO(idx, rec, 'w') if indexed else mx.recordio.MXRecordIO(rec, 'w')
    for i, (img, label) in enumerate(zip(imgs, labels)):
        s = mx.recordio.pack_img(mx.recordio.IRHeader(0, label, i, 0), img[:, :, ::-1],
                                 quality=1, img_fmt='.png')
        if indexed:
            w.write_idx(i, s)
        else:
            w.write(s)
    w.close()
    return rec, idx


def _chw(img):
    return img.transpose(2, 0, 1).astype(np.float32)


def test_image_iter_from_rec(tmp_path):
    imgs = _make_images(5)
    rec, idx = _write_rec(tmp_path, imgs, [float(i) for i in range(5)], indexed=False)
    it = mx.image.ImageIter(batch_size=2, data_shape=(3, 6, 5), path_imgrec=rec)
    assert it.provide_data[0].shape == (2, 3, 6, 5) and it.provide_label[0].shape == (2,)
    batches = list(it)
    assert len(batches) == 3 and [b.pad for b in batches] == [0, 0, 1]
    data = np.concatenate([b.data[0].asnumpy() for b in batches])
    labels = np.concatenate([b.label[0].asnumpy() for b in batches])
    expect = [0, 1, 2, 3, 4, 0]  # 'pad' fills the last batch from the start
    for k, i in enumerate(expect):
        np.testing.assert_array_equal(data[k], _chw(imgs[i]))
        assert labels[k] == i
    it.reset()
    assert len(list(it)) == 3
    it = mx.image.ImageIter(batch_size=2, data_shape=(3, 6, 5), path_imgrec=rec,
                            last_batch_handle='discard')
    assert len(list(it)) == 2


def test_image_iter_shuffle_and_multilabel(tmp_path):
    imgs = _make_images(6, seed=10)
    labels = [[float(i), float(10 * i)] for i in range(6)]
    rec, idx = _write_rec(tmp_path, imgs, labels)
    it = mx.image.ImageIter(batch_size=3, data_shape=(3, 6, 5), label_width=2, path_imgrec=rec,
                            path_imgidx=idx, shuffle=True)
    assert it.provide_label[0].shape == (3, 2)
    seen = []
    for b in it:
        assert b.pad == 0
        for d, l in zip(b.data[0].asnumpy(), b.label[0].asnumpy()):
            i = int(l[0])
            assert l[1] == 10 * i
            np.testing.assert_array_equal(d, _chw(imgs[i]))
            seen.append(i)
    assert sorted(seen) == list(range(6))
    # Augmentation: a centre crop of 4x3 of every image.
    it = mx.image.ImageIter(batch_size=6, data_shape=(3, 4, 3), label_width=2, path_imgrec=rec,
                            path_imgidx=idx)
    b = it.next()
    for d, l in zip(b.data[0].asnumpy(), b.label[0].asnumpy()):
        np.testing.assert_array_equal(d, _chw(imgs[int(l[0])][1:5, 1:4]))


def test_image_iter_from_list_and_imglist(tmp_path):
    imgs = _make_images(4, seed=11)
    lines = []
    for i, img in enumerate(imgs):
        (tmp_path / ("img%d.png" % i)).write_bytes(png_bytes(img))
        lines.append("%d\t%f\timg%d.png" % (i, i + 0.5, i))
    lst = tmp_path / "d.lst"
    lst.write_text("\n".join(lines) + "\n")
    it = mx.image.ImageIter(batch_size=3, data_shape=(3, 6, 5), path_imglist=str(lst),
                            path_root=str(tmp_path), last_batch_handle='roll_over')
    b = it.next()
    np.testing.assert_array_equal(b.label[0].asnumpy(), [0.5, 1.5, 2.5])
    for k in range(3):
        np.testing.assert_array_equal(b.data[0].asnumpy()[k], _chw(imgs[k]))
    with pytest.raises(StopIteration):
        it.next()  # one image left: rolled over into the next epoch
    it.reset()
    b = it.next()
    # The rolled-over batch is completed from the new epoch; like 1.9.1, pad counts the slots
    # that were missing before it was completed.
    assert b.pad == 2
    np.testing.assert_array_equal(b.label[0].asnumpy(), [3.5, 0.5, 1.5])
    np.testing.assert_array_equal(b.data[0].asnumpy()[0], _chw(imgs[3]))
    np.testing.assert_array_equal(b.data[0].asnumpy()[1], _chw(imgs[0]))
    imglist = [[float(i), "img%d.png" % i] for i in range(4)]
    it = mx.image.ImageIter(batch_size=4, data_shape=(3, 6, 5), imglist=imglist,
                            path_root=str(tmp_path))
    b = it.next()
    np.testing.assert_array_equal(b.label[0].asnumpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(b.data[0].asnumpy()[2], _chw(imgs[2]))
    # A broken file is reported with its name.
    (tmp_path / "img1.png").write_bytes(b"broken")
    it = mx.image.ImageIter(batch_size=4, data_shape=(3, 6, 5), imglist=imglist,
                            path_root=str(tmp_path))
    with pytest.raises(RuntimeError, match="img1.png"):
        it.next()
    with pytest.raises(ValueError, match="3 channels"):
        mx.image.ImageIter(batch_size=1, data_shape=(1, 6, 5), imglist=imglist)


@needs_mx191
@pytest.mark.parametrize("handle", ["pad", "discard", "roll_over"])
def test_image_iter_matches_mxnet191(tmp_path, handle):
    imgs = _make_images(5, h=7, w=6, seed=12)
    lines = []
    for i, img in enumerate(imgs):
        (tmp_path / ("img%d.png" % i)).write_bytes(png_bytes(img))
        lines.append("%d\t%f\t%f\timg%d.png" % (i, i, -i, i))
    (tmp_path / "d.lst").write_text("\n".join(lines) + "\n")
    code = """
it = mx.image.ImageIter(batch_size=2, data_shape=(3, 5, 4), label_width=2,
                        path_imglist=%r, path_root=%r, last_batch_handle=%r,
                        resize=6, inter_method=1, mean=True, std=True)
k = 0
for epoch in range(2):
    for b in it:
        out['d%%d' %% k] = b.data[0].asnumpy()
        out['l%%d' %% k] = b.label[0].asnumpy()
        out['p%%d' %% k] = np.array(b.pad)
        k += 1
    it.reset()
""" % (str(tmp_path / "d.lst"), str(tmp_path), handle)
    ref = mx191_eval(tmp_path, code)
    it = mx.image.ImageIter(batch_size=2, data_shape=(3, 5, 4), label_width=2,
                            path_imglist=str(tmp_path / "d.lst"), path_root=str(tmp_path),
                            last_batch_handle=handle, resize=6, inter_method=1, mean=True,
                            std=True)
    got = []
    for epoch in range(2):
        got.extend(it)
        it.reset()
    assert len(got) == len(ref) // 3
    for k, b in enumerate(got):
        assert b.pad == int(ref['p%d' % k]), k
        np.testing.assert_array_equal(b.label[0].asnumpy(), ref['l%d' % k])
        np.testing.assert_allclose(b.data[0].asnumpy(), ref['d%d' % k], rtol=1e-5, atol=1e-4)


# ---- gluon.data.vision image datasets --------------------------------------------------------------

def test_gluon_image_datasets(tmp_path):
    from mxnet.gluon.data.vision import ImageFolderDataset, ImageListDataset, ImageRecordDataset
    imgs = _make_images(4, seed=13)
    rec, _ = _write_rec(tmp_path, imgs, [float(i) for i in range(4)])
    ds = ImageRecordDataset(rec)
    assert len(ds) == 4
    img, label = ds[2]
    np.testing.assert_array_equal(img.asnumpy(), imgs[2])
    assert label == 2.0
    ds = ImageRecordDataset(rec, flag=0, transform=lambda x, y: (x.shape, y + 1))
    assert ds[1] == ((6, 5, 1), 2.0)

    for cls, idxs in (("cat", [0, 1]), ("dog", [2, 3])):
        (tmp_path / "folder" / cls).mkdir(parents=True)
        for i in idxs:
            (tmp_path / "folder" / cls / ("%d.png" % i)).write_bytes(png_bytes(imgs[i]))
    (tmp_path / "folder" / "dog" / "notes.txt").write_text("not an image")
    with pytest.warns(UserWarning, match="notes.txt"):
        ds = ImageFolderDataset(str(tmp_path / "folder"))
    assert ds.synsets == ["cat", "dog"] and len(ds) == 4
    for i in range(4):
        img, label = ds[i]
        assert label == (0 if i < 2 else 1)
        np.testing.assert_array_equal(img.asnumpy(), imgs[i])

    (tmp_path / "d.lst").write_text("".join("%d\t%d\t%d\tfolder/%s/%d.png\n"
                                            % (i, i, 2 * i, "cat" if i < 2 else "dog", i)
                                            for i in range(4)))
    ds = ImageListDataset(str(tmp_path), "d.lst")
    img, label = ds[3]
    np.testing.assert_array_equal(img.asnumpy(), imgs[3])
    np.testing.assert_array_equal(label, [3.0, 6.0])
    ds = ImageListDataset(str(tmp_path), [[1.0, "folder/cat/1.png"]])
    np.testing.assert_array_equal(ds[0][0].asnumpy(), imgs[1])
    with pytest.raises(ValueError, match="imglist"):
        ImageListDataset(str(tmp_path), None)


# ---- ImageRecordIter (C++) -------------------------------------------------------------------------

def _write_mixed_rec(tmp_path, n=5):
    """Images of different sizes, alternately PNG and JPEG, with two labels each."""
    rng = np.random.RandomState(14)
    rec, idx = str(tmp_path / "m.rec"), str(tmp_path / "m.idx")
    w = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
    imgs = []
    for i in range(n):
        img = rng.randint(0, 256, (9 + i, 11, 3)).astype(np.uint8)  # RGB
        imgs.append(img)
        w.write_idx(i, mx.recordio.pack_img(mx.recordio.IRHeader(0, [i, 10.0 * i], i, 0),
                                            img[:, :, ::-1], quality=90,
                                            img_fmt='.jpg' if i % 2 else '.png'))
    w.close()
    return rec, idx, imgs


_REC_CONFIGS = [dict(),
                dict(resize=8, mean_r=10, mean_g=20, mean_b=30, std_r=2, std_g=3, std_b=4,
                     scale=0.5),
                dict(mirror=True, pad=2, fill_value=7),
                dict(data_shape=(1, 6, 7), resize=7, inter_method=2)]


def _read_all(it, epochs=2):
    out = []
    for _ in range(epochs):
        for b in it:
            out.append((b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad))
        it.reset()
    return out


@needs_mx191
def test_image_record_iter_matches_mxnet191(tmp_path):
    rec, _, _ = _write_mixed_rec(tmp_path)
    code = """
for cfg, kw in enumerate(%r):
    args = dict(path_imgrec=%r, data_shape=(3, 6, 7), batch_size=2, label_width=2,
                preprocess_threads=1)
    args.update(kw)
    it = mx.io.ImageRecordIter(**args)
    k = 0
    for epoch in range(2):
        for b in it:
            out['c%%d_d%%d' %% (cfg, k)] = b.data[0].asnumpy()
            out['c%%d_l%%d' %% (cfg, k)] = b.label[0].asnumpy()
            out['c%%d_p%%d' %% (cfg, k)] = np.array(b.pad)
            k += 1
        it.reset()
""" % (_REC_CONFIGS, rec)
    ref = mx191_eval(tmp_path, code)
    for cfg, kw in enumerate(_REC_CONFIGS):
        args = dict(path_imgrec=rec, data_shape=(3, 6, 7), batch_size=2, label_width=2)
        args.update(kw)
        got = _read_all(mx.io.ImageRecordIter(**args))
        assert len(got) == sum(1 for k in ref if k.startswith('c%d_p' % cfg)), cfg
        for k, (d, l, p) in enumerate(got):
            key = 'c%d_%%s%d' % (cfg, k)
            assert p == int(ref[key % 'p']), (cfg, k)
            np.testing.assert_array_equal(l, ref[key % 'l'])
            # Same decoders (JPEG included) and resize: equal up to float rounding.
            np.testing.assert_allclose(d, ref[key % 'd'], rtol=1e-6, atol=1e-5)


def test_image_record_iter_against_numpy(tmp_path):
    rec, idx, imgs = _write_mixed_rec(tmp_path)
    # PNG images only (even ids) through the index: exact crops and normalization.
    it = mx.io.ImageRecordIter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 8, 9),
                               batch_size=5, label_width=2, mean_r=1, mean_g=2, mean_b=3,
                               std_r=2, std_g=4, std_b=8, scale=3)
    assert it.provide_data[0].shape == (5, 3, 8, 9)
    assert it.provide_label[0].shape == (5, 2)
    b = it.next()
    for slot in (0, 2, 4):
        img = imgs[slot].astype(np.float64)
        h, w = img.shape[:2]
        y0, x0 = (h - 8) // 2, (w - 9) // 2
        crop = img[y0:y0 + 8, x0:x0 + 9]
        expect = ((crop - [1, 2, 3]) / [2, 4, 8] * 3).transpose(2, 0, 1)
        np.testing.assert_allclose(b.data[0].asnumpy()[slot], expect, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(b.label[0].asnumpy()[slot], [slot, 10 * slot])
    # uint8 variant: raw pixels; shuffle visits every record once per epoch.
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 8, 9),
                                    batch_size=5, label_width=2, shuffle=True, seed=3)
    orders = []
    for _ in range(3):
        b = it.next()
        assert b.data[0].dtype == np.uint8
        ids = [int(v) for v in b.label[0].asnumpy()[:, 0]]
        assert sorted(ids) == list(range(5))
        orders.append(ids)
        for slot, i in enumerate(ids):
            if i % 2 == 0:
                h, w = imgs[i].shape[:2]
                y0, x0 = (h - 8) // 2, (w - 9) // 2
                np.testing.assert_array_equal(b.data[0].asnumpy()[slot],
                                              imgs[i][y0:y0 + 8, x0:x0 + 9].transpose(2, 0, 1))
        it.reset()
    assert len(set(map(tuple, orders))) > 1  # reshuffled each epoch
    # rand_crop / rand_mirror: every output is some crop of its image, maybe mirrored.
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=rec, data_shape=(3, 5, 6), batch_size=5,
                                    label_width=2, rand_crop=True, rand_mirror=True, seed_aug=1)
    mirrored = 0
    for _ in range(4):
        b = it.next()
        for slot in (0, 2, 4):
            out = b.data[0].asnumpy()[slot].transpose(1, 2, 0)
            img = imgs[slot]
            found = None
            for y0 in range(img.shape[0] - 4):
                for x0 in range(img.shape[1] - 5):
                    crop = img[y0:y0 + 5, x0:x0 + 6]
                    if np.array_equal(out, crop):
                        found = False
                    elif np.array_equal(out, crop[:, ::-1]):
                        found = True
            assert found is not None
            mirrored += found
        it.reset()
    assert 0 < mirrored < 12


def test_image_record_iter_errors(tmp_path):
    rec, idx, _ = _write_mixed_rec(tmp_path)
    with pytest.raises(mx.MXNetError, match="label_width"):
        it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 7), batch_size=2)
        it.next()
    with pytest.raises(NotImplementedError, match="max_rotate_angle"):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 7), batch_size=2,
                              label_width=2, max_rotate_angle=10)
    with pytest.raises(mx.MXNetError, match="smaller than data_shape"):
        it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 60, 7), batch_size=2,
                                   label_width=2)
        it.next()
    with pytest.raises(mx.MXNetError, match="cannot open"):
        mx.io.ImageRecordIter(path_imgrec=str(tmp_path / "missing.rec"), data_shape=(3, 6, 7),
                              batch_size=2)
    with pytest.raises(mx.MXNetError, match="data_shape"):
        mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(2, 6, 7), batch_size=2)
    # A record whose image bytes are broken names the record.
    bad = str(tmp_path / "bad.rec")
    w = mx.recordio.MXRecordIO(bad, 'w')
    w.write(mx.recordio.pack(mx.recordio.IRHeader(0, 1.0, 42, 0), b"\xff\xd8\xffjunk"))
    w.close()
    with pytest.raises(mx.MXNetError, match="record id 42"):
        mx.io.ImageRecordIter(path_imgrec=bad, data_shape=(3, 6, 7), batch_size=1).next()


# ---- detection -------------------------------------------------------------------------------------

def _det_label():
    return np.array([[0, 0.1, 0.2, 0.5, 0.6], [2, 0.4, 0.1, 0.9, 0.95]])


def test_det_flip_crop_pad_against_numpy():
    from mxnet.image import detection as det
    img_np = np.random.RandomState(15).randint(0, 256, (20, 30, 3)).astype(np.uint8)
    img = mx.nd.array(img_np, dtype='uint8')
    out, label = det.DetHorizontalFlipAug(1.0)(img, _det_label())
    np.testing.assert_array_equal(out.asnumpy(), img_np[:, ::-1])
    expect = _det_label()
    expect[:, 1], expect[:, 3] = 1 - _det_label()[:, 3], 1 - _det_label()[:, 1]
    np.testing.assert_allclose(label, expect)

    crop_aug = det.DetRandomCropAug(min_object_covered=0.1, area_range=(0.3, 1.0))
    random.seed(11)
    x, y, w, h, new_label = crop_aug._random_crop_proposal(_det_label(), 20, 30)
    random.seed(11)
    out, label = crop_aug(img, _det_label())
    np.testing.assert_array_equal(out.asnumpy(), img_np[y:y + h, x:x + w])
    # Kept boxes, in crop coordinates, are the original pixel boxes clipped to the crop.
    np.testing.assert_allclose(label, new_label)
    for obj in label:
        orig = _det_label()[_det_label()[:, 0] == obj[0]][0]
        px = np.clip(orig[[1, 3]] * 30, x, x + w)
        py = np.clip(orig[[2, 4]] * 20, y, y + h)
        np.testing.assert_allclose(obj[[1, 3]], (px - x) / w, atol=1e-6)
        np.testing.assert_allclose(obj[[2, 4]], (py - y) / h, atol=1e-6)

    pad_aug = det.DetRandomPadAug(area_range=(1.5, 2.5), pad_val=(1, 2, 3))
    random.seed(12)
    x, y, w, h, _ = pad_aug._random_pad_proposal(_det_label(), 20, 30)
    random.seed(12)
    out, label = pad_aug(img, _det_label())
    out = out.asnumpy()
    assert out.shape == (h, w, 3)
    np.testing.assert_array_equal(out[y:y + 20, x:x + 30], img_np)
    border = np.ones((h, w), bool)
    border[y:y + 20, x:x + 30] = False
    np.testing.assert_array_equal(out[border], np.tile([1, 2, 3], (border.sum(), 1)))
    np.testing.assert_allclose(label[:, [1, 3]] * w, _det_label()[:, [1, 3]] * 30 + x)
    np.testing.assert_allclose(label[:, [2, 4]] * h, _det_label()[:, [2, 4]] * 20 + y)

    augs = det.CreateDetAugmenter((3, 16, 16), resize=20, rand_crop=0.5, rand_pad=0.5,
                                  rand_mirror=True, mean=True, std=True, brightness=0.1)
    assert [type(a).__name__ for a in augs] == [
        "DetBorrowAug", "DetRandomSelectAug", "DetHorizontalFlipAug", "DetRandomSelectAug",
        "DetBorrowAug", "DetBorrowAug", "DetBorrowAug", "DetBorrowAug"]
    random.seed(1)
    for _ in range(5):
        out, label = img, _det_label()
        for a in augs:
            out, label = a(out, label)
        assert out.shape == (16, 16, 3) and out.dtype == np.float32
        assert label.shape[1] == 5 and np.all(label[:, 1:] >= 0) and np.all(label[:, 1:] <= 1)
    multi = det.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.5], area_range=(0.1, 1))
    assert len(multi.aug_list) == 2 and multi.aug_list[1].min_object_covered == 0.5


def _det_lst(tmp_path):
    imgs = _make_images(3, h=12, w=10, seed=16)
    objects = [[[1, 0.1, 0.1, 0.6, 0.7]],
               [[0, 0.2, 0.3, 0.4, 0.9], [3, 0.5, 0.5, 0.9, 0.8]],
               [[2, 0.0, 0.0, 1.0, 1.0], [1, 0.3, 0.3, 0.2, 0.9]]]  # 2nd box invalid
    lines = []
    for i, (img, objs) in enumerate(zip(imgs, objects)):
        (tmp_path / ("det%d.png" % i)).write_bytes(png_bytes(img))
        raw = [2, 5] + [v for o in objs for v in o]
        lines.append("\t".join([str(i)] + ["%g" % v for v in raw] + ["det%d.png" % i]))
    (tmp_path / "det.lst").write_text("\n".join(lines) + "\n")
    return imgs, objects


def test_image_det_iter(tmp_path):
    imgs, objects = _det_lst(tmp_path)
    it = mx.image.ImageDetIter(batch_size=2, data_shape=(3, 12, 10),
                               path_imglist=str(tmp_path / "det.lst"), path_root=str(tmp_path))
    assert it.label_shape == (2, 5)
    assert it.provide_label[0].shape == (2, 2, 5)
    b = it.next()
    np.testing.assert_array_equal(b.data[0].asnumpy()[1], _chw(imgs[1]))
    label = b.label[0].asnumpy()
    np.testing.assert_allclose(label[0], [objects[0][0], [-1] * 5])
    np.testing.assert_allclose(label[1], objects[1])
    b = it.next()
    assert b.pad == 1
    np.testing.assert_allclose(b.label[0].asnumpy()[0], [objects[2][0], [-1] * 5])
    it.reshape(label_shape=(4, 5))
    it.reset()
    assert it.next().label[0].shape == (2, 4, 5)
    with pytest.raises(ValueError, match="reduce"):
        it.reshape(label_shape=(1, 5))
    other = mx.image.ImageDetIter(batch_size=1, data_shape=(3, 12, 10),
                                  path_imglist=str(tmp_path / "det.lst"), path_root=str(tmp_path))
    it.sync_label_shape(other)
    assert other.label_shape == (4, 5)


@needs_mx191
def test_image_det_iter_matches_mxnet191(tmp_path):
    _det_lst(tmp_path)
    code = """
it = mx.image.ImageDetIter(batch_size=2, data_shape=(3, 8, 7), path_imglist=%r, path_root=%r,
                           mean=True, std=True, inter_method=1)
k = 0
for b in it:
    out['d%%d' %% k] = b.data[0].asnumpy()
    out['l%%d' %% k] = b.label[0].asnumpy()
    out['p%%d' %% k] = np.array(b.pad)
    k += 1
""" % (str(tmp_path / "det.lst"), str(tmp_path))
    ref = mx191_eval(tmp_path, code)
    it = mx.image.ImageDetIter(batch_size=2, data_shape=(3, 8, 7),
                               path_imglist=str(tmp_path / "det.lst"), path_root=str(tmp_path),
                               mean=True, std=True, inter_method=1)
    got = list(it)
    assert len(got) == len(ref) // 3
    for k, b in enumerate(got):
        assert b.pad == int(ref['p%d' % k])
        np.testing.assert_allclose(b.label[0].asnumpy(), ref['l%d' % k], rtol=1e-6)
        np.testing.assert_allclose(b.data[0].asnumpy(), ref['d%d' % k], rtol=1e-5, atol=1e-4)


def test_im2rec_tool(tmp_path):
    """tools/im2rec.py: list a class-per-folder tree, pack it, read it back with the iterators."""
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    imgs = _make_images(4, h=7, w=9, seed=17)
    for i, img in enumerate(imgs):
        folder = tmp_path / "images" / ("a" if i < 2 else "b")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ("%d.png" % i)).write_bytes(png_bytes(img))
    env = dict(os.environ, PYTHONPATH=os.path.join(repo, "python"))
    tool = os.path.join(repo, "tools", "im2rec.py")
    prefix, root = str(tmp_path / "data"), str(tmp_path / "images")
    subprocess.check_call([sys.executable, tool, "--list", "--recursive", "--no-shuffle",
                           prefix, root], env=env, stdout=subprocess.DEVNULL)
    lines = (tmp_path / "data.lst").read_text().splitlines()
    assert [l.split("\t") for l in lines] == [
        ["0", "0.000000", "a/0.png"], ["1", "0.000000", "a/1.png"],
        ["2", "1.000000", "b/2.png"], ["3", "1.000000", "b/3.png"]]
    subprocess.check_call([sys.executable, tool, "--encoding", ".png", prefix, root], env=env,
                          stdout=subprocess.DEVNULL)
    it = mx.io.ImageRecordUInt8Iter(path_imgrec=prefix + ".rec", path_imgidx=prefix + ".idx",
                                    data_shape=(3, 7, 9), batch_size=4)
    b = it.next()
    np.testing.assert_array_equal(b.label[0].asnumpy(), [0, 0, 1, 1])
    for i in range(4):
        np.testing.assert_array_equal(b.data[0].asnumpy()[i], imgs[i].transpose(2, 0, 1))
    # --resize 4 shrinks the short side to 4 with bilinear resampling.
    subprocess.check_call([sys.executable, tool, "--encoding", ".png", "--resize", "4", prefix,
                           root], env=env, stdout=subprocess.DEVNULL)
    rec = mx.recordio.MXIndexedRecordIO(prefix + ".idx", prefix + ".rec", "r")
    header, img = mx.recordio.unpack_img(rec.read_idx(3))
    assert header.label == 1.0 and img.shape == (4, 5, 3)
    expect = mx.image.imresize(mx.nd.array(imgs[3], dtype='uint8'), 5, 4, interp=1).asnumpy()
    np.testing.assert_array_equal(img[:, :, ::-1], expect)



_INT8_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
out, png = sys.argv[1], sys.argv[2]
rec = out + '.rec'
w = mx.recordio.MXRecordIO(rec, 'w')
for i in range(3):
    with open(png % i, 'rb') as f:
        w.write(mx.recordio.pack(mx.recordio.IRHeader(0, float(i), i, 0), f.read()))
w.close()
res = {}
for k, kw in enumerate([{}, {'mean_r': 10.5, 'mean_g': -3.0},
                        {'mean_b': 20.2, 'std_r': 2.0, 'scale': 0.5}]):
    it = mx.io.ImageRecordInt8Iter(path_imgrec=rec, data_shape=(3, 6, 7), batch_size=3, **kw)
    res['int8_%d' % k] = next(iter(it)).data[0].asnumpy()
it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 7), batch_size=3, dtype='int8',
                           mean_r=100.0)
res['iter_dtype_int8'] = next(iter(it)).data[0].asnumpy()
np.savez(out, **res)
'''


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_image_record_int8_iter_matches_mxnet_191(tmp_path):
    """int8 pixels: minus the channel mean, rounded to nearest with halves down, saturated; std and scale
    ignored, as 1.9.1 does. PNGs are encoded here (1.9.1's pack_img needs OpenCV's module)."""
    rng = np.random.RandomState(0)
    for i in range(3):
        img = rng.randint(0, 256, size=(6, 7, 3)).astype(np.uint8)
        packed = mx.recordio.pack_img(mx.recordio.IRHeader(0, 0.0, 0, 0), img, img_fmt='.png')
        with open(str(tmp_path / ('img%d.png' % i)), 'wb') as f:
            f.write(mx.recordio.unpack(packed)[1])
    script = str(tmp_path / 'script.py')
    with open(script, 'w') as f:
        f.write(_INT8_SCRIPT)
    outs = []
    for ours in (False, True):
        out = str(tmp_path / ('%s.npz' % ('ours' if ours else 'ref')))
        run([script, out, str(tmp_path / 'img%d.png')], ours=ours)
        outs.append(np.load(out))
    ref, got = outs
    assert sorted(ref.files) == sorted(got.files)
    for key in ref.files:
        assert got[key].dtype == np.int8
        np.testing.assert_array_equal(got[key], ref[key], err_msg=key)
