"""mx.recordio against files written by MXNet 1.9.1 (tests/python/data/mx191/gen_testdata.py):
read them, and write byte-identical copies; continuation records (payloads containing the
magic); errors."""
import os
import pickle
import struct

import numpy as np
import pytest

import mxnet as mx

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "mx191")
MAGIC = struct.pack("<I", 0xced7230a)


def _ref(name):
    return os.path.join(DATA, name)


def _read_all(path):
    r = mx.recordio.MXRecordIO(path, "r")
    out = []
    while True:
        rec = r.read()
        if rec is None:
            break
        out.append(rec)
    r.close()
    return out


PLAIN = [("record-%d" % i).encode() * (i + 1) for i in range(5)] + [b""]
MAGIC_RECORDS = [MAGIC, b"abcd" + MAGIC + b"efgh" + MAGIC + b"ij", b"a" + MAGIC + b"xyz",
                 MAGIC + MAGIC + b"tail"]


def _indexed_payloads():
    """What gen_testdata.py packed into indexed.rec."""
    out = []
    for i in range(4):
        label = float(i) if i % 2 == 0 else [float(i), i + 0.5]
        out.append((label, i, bytes(range(i * 3))))
    return out


def test_read_mx191_plain():
    assert _read_all(_ref("plain.rec")) == PLAIN


def test_write_plain_byte_identical(tmp_path):
    path = str(tmp_path / "plain.rec")
    w = mx.recordio.MXRecordIO(path, "w")
    for rec in PLAIN:
        w.write(rec)
    w.close()
    with open(path, "rb") as f, open(_ref("plain.rec"), "rb") as g:
        assert f.read() == g.read()


def test_read_mx191_magic_continuation_records():
    assert _read_all(_ref("magic.rec")) == MAGIC_RECORDS


def test_write_magic_records_byte_identical(tmp_path):
    path = str(tmp_path / "magic.rec")
    w = mx.recordio.MXRecordIO(path, "w")
    for rec in MAGIC_RECORDS:
        w.write(rec)
    w.close()
    with open(path, "rb") as f, open(_ref("magic.rec"), "rb") as g:
        assert f.read() == g.read()
    assert _read_all(path) == MAGIC_RECORDS


def test_read_mx191_indexed():
    r = mx.recordio.MXIndexedRecordIO(_ref("indexed.idx"), _ref("indexed.rec"), "r")
    assert r.keys == [0, 1, 2, 3]
    expected = _indexed_payloads()
    for key in [3, 0, 2, 1]:  # random access
        header, payload = mx.recordio.unpack(r.read_idx(key))
        label, ident, data = expected[key]
        assert payload == data
        assert header.id == ident and header.id2 == 0
        if isinstance(label, float):
            assert header.flag == 0 and header.label == label
        else:
            assert header.flag == 2
            np.testing.assert_array_equal(header.label, np.array(label, dtype=np.float32))
    r.close()


def test_write_indexed_byte_identical(tmp_path):
    idx = str(tmp_path / "indexed.idx")
    rec = str(tmp_path / "indexed.rec")
    w = mx.recordio.MXIndexedRecordIO(idx, rec, "w")
    for i, (label, ident, data) in enumerate(_indexed_payloads()):
        w.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, label, ident, 0), data))
    w.close()
    for name, path in (("indexed.rec", rec), ("indexed.idx", idx)):
        with open(path, "rb") as f, open(_ref(name), "rb") as g:
            assert f.read() == g.read(), name


def test_sequential_read_reset_and_tell(tmp_path):
    path = str(tmp_path / "a.rec")
    w = mx.recordio.MXRecordIO(path, "w")
    sizes = [0, 1, 2, 3, 4, 5, 1000]
    for n in sizes:
        w.write(bytes([n % 251]) * n)
    w.close()
    r = mx.recordio.MXRecordIO(path, "r")
    assert [len(x) for x in iter(r.read, None)] == sizes
    assert r.read() is None
    r.reset()
    assert r.read() == b""
    # Offsets: 8-byte header + payload padded to 4 bytes per record.
    expected_size = sum(8 + (n + 3) // 4 * 4 for n in sizes)
    assert os.path.getsize(path) == expected_size


def test_string_keys_and_pickle(tmp_path):
    idx = str(tmp_path / "s.idx")
    rec = str(tmp_path / "s.rec")
    w = mx.recordio.MXIndexedRecordIO(idx, rec, "w", key_type=str)
    for k in ["b", "a", "c"]:
        w.write_idx(k, k.encode() * 3)
    w.close()
    r = mx.recordio.MXIndexedRecordIO(idx, rec, "r", key_type=str)
    assert r.keys == ["b", "a", "c"]
    r2 = pickle.loads(pickle.dumps(r))
    assert r2.read_idx("c") == b"ccc"
    assert r.read_idx("a") == b"aaa"
    with pytest.raises(KeyError):
        r.read_idx("zz")


def test_pack_unpack_roundtrip():
    h = mx.recordio.IRHeader(0, 3.5, 7, 9)
    s = mx.recordio.pack(h, b"payload")
    assert len(s) == struct.calcsize("IfQQ") + 7
    h2, p = mx.recordio.unpack(s)
    assert (h2.flag, h2.label, h2.id, h2.id2) == (0, 3.5, 7, 9) and p == b"payload"
    s = mx.recordio.pack(mx.recordio.IRHeader(0, [1, 2, 3], 1, 2), b"x")
    h3, p3 = mx.recordio.unpack(s)
    assert h3.flag == 3 and p3 == b"x"
    np.testing.assert_array_equal(h3.label, [1, 2, 3])
    with pytest.raises(ValueError):
        mx.recordio.unpack(b"short")


def test_pack_img_unpack_img_round_trip():
    rng = np.random.RandomState(3)
    bgr = rng.randint(0, 256, (5, 7, 3)).astype(np.uint8)
    header = mx.recordio.IRHeader(0, [1.0, 2.0], 11, 0)
    # PNG is lossless: BGR in, BGR out (OpenCV's convention), label kept.
    h, img = mx.recordio.unpack_img(mx.recordio.pack_img(header, bgr, quality=3, img_fmt='.png'))
    np.testing.assert_array_equal(img, bgr)
    np.testing.assert_array_equal(h.label, [1.0, 2.0])
    assert h.id == 11
    # Grey images come back 2-D, as cv2.imdecode returns them.
    grey = rng.randint(0, 256, (4, 6)).astype(np.uint8)
    _, g = mx.recordio.unpack_img(mx.recordio.pack_img(header, grey, img_fmt='.png'))
    assert g.shape == (4, 6)
    np.testing.assert_array_equal(g, grey)
    # JPEG of a smooth image at quality 100 is close; the channel order survives.
    smooth = np.zeros((16, 16, 3), np.uint8)
    smooth[..., 0] = 200
    smooth[..., 2] = 30
    _, j = mx.recordio.unpack_img(mx.recordio.pack_img(header, smooth, quality=100))
    assert np.abs(j.astype(int) - smooth).max() <= 3
    _, j1 = mx.recordio.unpack_img(mx.recordio.pack_img(header, smooth, quality=100), iscolor=0)
    assert j1.shape == (16, 16)
    with pytest.raises(ValueError, match="img_fmt"):
        mx.recordio.pack_img(header, smooth, img_fmt='.bmp')
    with pytest.raises(mx.MXNetError, match="unpack_img"):
        mx.recordio.unpack_img(mx.recordio.pack(header, b"not an image"))


def test_errors(tmp_path):
    with pytest.raises(mx.MXNetError, match="cannot open"):
        mx.recordio.MXRecordIO(str(tmp_path / "missing.rec"), "r")
    with pytest.raises(ValueError):
        mx.recordio.MXRecordIO(str(tmp_path / "x.rec"), "a")
    # Not a RecordIO file: bad magic.
    bad = tmp_path / "bad.rec"
    bad.write_bytes(b"hello world, not a recordio file")
    r = mx.recordio.MXRecordIO(str(bad), "r")
    with pytest.raises(mx.MXNetError, match="magic"):
        r.read()
    # Truncated payload.
    good = str(tmp_path / "good.rec")
    w = mx.recordio.MXRecordIO(good, "w")
    w.write(b"0123456789")
    w.close()
    data = open(good, "rb").read()
    trunc = tmp_path / "trunc.rec"
    trunc.write_bytes(data[:12])
    r = mx.recordio.MXRecordIO(str(trunc), "r")
    with pytest.raises(mx.MXNetError, match="truncated"):
        r.read()
    # A truncated header (some bytes, not a whole header) is an error, not a clean end.
    trunc.write_bytes(data + data[:5])
    r = mx.recordio.MXRecordIO(str(trunc), "r")
    assert r.read() == b"0123456789"
    with pytest.raises(mx.MXNetError, match="truncated"):
        r.read()
    # Empty file: no records.
    empty = tmp_path / "empty.rec"
    empty.write_bytes(b"")
    assert _read_all(str(empty)) == []
    # Reading from a writer / writing to a reader.
    w = mx.recordio.MXRecordIO(str(tmp_path / "w.rec"), "w")
    with pytest.raises(ValueError):
        w.read()
    r = mx.recordio.MXRecordIO(good, "r")
    with pytest.raises(ValueError):
        r.write(b"x")
