"""ImageDetRecordIter: detection records (variable-length box labels) read into padded label
rows and resized images, against NumPy and MXNet 1.9.1 on the same .rec file."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mx191_oracle import HAVE_MX191, SKIP_REASON, run


def _objects(n):
    rows = []
    for k in range(n):
        rows += [float(k), 0.1 * k, 0.2, 0.5 + 0.1 * k, 0.9]
    return rows


def _write_rec(prefix, sizes=((8, 10), (9, 10), (10, 10))):
    """Images of `sizes` with 1, 2, 3 boxes (header width 2, object width 5)."""
    rng = np.random.RandomState(0)
    images, labels = [], []
    w = mx.recordio.MXIndexedRecordIO(prefix + '.idx', prefix + '.rec', 'w')
    for i, (h, wd) in enumerate(sizes):
        img = rng.randint(0, 256, size=(h, wd, 3)).astype(np.uint8)
        lab = np.array([2, 5] + _objects(i + 1), dtype=np.float32)
        w.write_idx(i, mx.recordio.pack_img(mx.recordio.IRHeader(0, lab, i, 0), img,
                                            img_fmt='.png'))
        images.append(img)
        labels.append(lab)
    w.close()
    return images, labels


def test_labels_are_padded_rows_with_the_image_shape_in_front(tmp_path):
    prefix = str(tmp_path / 'det')
    images, labels = _write_rec(prefix, sizes=((6, 7), (6, 7), (6, 7)))
    it = mx.io.ImageDetRecordIter(path_imgrec=prefix + '.rec', data_shape=(3, 6, 7),
                                  batch_size=3, label_pad_value=-2.0)
    assert it.provide_label[0].shape == (3, 4 + 17)
    batch = next(iter(it))
    data, label = batch.data[0].asnumpy(), batch.label[0].asnumpy()
    for i, (img, lab) in enumerate(zip(images, labels)):
        # No resize needed: the data is the image in CHW order (pack_img takes BGR, as
        # OpenCV's imencode; the iterator gives RGB).
        np.testing.assert_array_equal(data[i], img[..., ::-1].transpose(2, 0, 1).astype(np.float32))
        want = np.full(21, -2.0, dtype=np.float32)
        want[:4] = [3, 6, 7, len(lab)]
        want[4:4 + len(lab)] = lab
        np.testing.assert_allclose(label[i], want, rtol=1e-6)


def test_mirror_flips_pixels_and_box_x_coordinates(tmp_path):
    prefix = str(tmp_path / 'det')
    images, labels = _write_rec(prefix, sizes=((6, 7),))
    it = mx.io.ImageDetRecordIter(path_imgrec=prefix + '.rec', data_shape=(3, 6, 7),
                                  batch_size=1, rand_mirror_prob=1.0, mean_r=10.0, std_r=2.0,
                                  scale=0.5)
    batch = next(iter(it))
    want = images[0][:, ::-1, ::-1].transpose(2, 0, 1).astype(np.float32)
    want[0] = (want[0] - 10.0) / 2.0 * 0.5
    want[1:] *= 0.5
    np.testing.assert_allclose(batch.data[0].asnumpy()[0], want, rtol=1e-6)
    box = batch.label[0].asnumpy()[0][4 + 2:4 + 7]
    np.testing.assert_allclose(box, [0.0, 1 - 0.5, 0.2, 1 - 0.0, 0.9], rtol=1e-6)


def test_bad_labels_and_unimplemented_augmenters_raise(tmp_path):
    prefix = str(tmp_path / 'det')
    _write_rec(prefix)
    with pytest.raises(MXNetError, match='label_pad_width 6 is shorter'):
        mx.io.ImageDetRecordIter(path_imgrec=prefix + '.rec', data_shape=(3, 6, 7),
                                 batch_size=1, label_pad_width=6)
    with pytest.raises(MXNetError, match='rand_crop_prob'):
        mx.io.ImageDetRecordIter(path_imgrec=prefix + '.rec', data_shape=(3, 6, 7),
                                 batch_size=1, rand_crop_prob=0.5)
    bad = str(tmp_path / 'bad')
    w = mx.recordio.MXRecordIO(bad + '.rec', 'w')
    img = np.zeros((4, 4, 3), dtype=np.uint8)
    w.write(mx.recordio.pack_img(mx.recordio.IRHeader(0, np.array([2, 5, 1, 2, 3], 'f'), 7, 0),
                                 img, img_fmt='.png'))
    w.close()
    with pytest.raises(MXNetError, match='record id 7.*malformed detection label'):
        mx.io.ImageDetRecordIter(path_imgrec=bad + '.rec', data_shape=(3, 4, 4), batch_size=1)


_SCRIPT = r'''
import sys
import numpy as np
import mxnet as mx
rec, out = sys.argv[1], sys.argv[2]
res = {}
cases = [dict(data_shape=(3, 6, 7)), dict(data_shape=(3, 6, 7), resize_mode='shrink'),
         dict(data_shape=(3, 12, 20), resize_mode='fit'),
         dict(data_shape=(3, 8, 10), rand_mirror_prob=1.0, mean_g=20.0, std_g=4.0, scale=2.0),
         dict(data_shape=(3, 8, 10), resize=5), dict(data_shape=(3, 6, 7), label_pad_width=20,
                                                     label_pad_value=-3.0)]
for k, kw in enumerate(cases):
    it = mx.io.ImageDetRecordIter(path_imgrec=rec, batch_size=2, **kw)
    for j, batch in enumerate(it):
        res['data_%d_%d' % (k, j)] = batch.data[0].asnumpy()
        res['label_%d_%d' % (k, j)] = batch.label[0].asnumpy()
        res['pad_%d_%d' % (k, j)] = np.array(batch.pad)
np.savez(out, **res)
'''


@pytest.mark.skipif(not HAVE_MX191, reason=SKIP_REASON)
def test_matches_mxnet_191(tmp_path):
    prefix = str(tmp_path / 'det')
    _write_rec(prefix)
    script = str(tmp_path / 'script.py')
    with open(script, 'w') as f:
        f.write(_SCRIPT)
    results = []
    for ours in (False, True):
        out = str(tmp_path / ('%s.npz' % ('ours' if ours else 'ref')))
        run([script, prefix + '.rec', out], ours=ours)
        results.append(np.load(out))
    ref, got = results
    assert sorted(ref.files) == sorted(got.files)
    for key in ref.files:
        # Resizing included, the pixels are 1.9.1's exactly.
        np.testing.assert_array_equal(got[key], ref[key], err_msg=key)


def test_image_list_labels_replace_the_header_and_bad_lines_are_named(tmp_path):
    prefix = str(tmp_path / 'det')
    _write_rec(prefix, sizes=((6, 7), (6, 7)))
    lst = str(tmp_path / 'det.lst')
    with open(lst, 'w') as f:
        f.write('0\t2\t5\t1\t0.1\t0.1\t0.4\t0.4\ta.png\n1\t2\t5\t3\t0.2\t0.2\t0.6\t0.6\tb.png\n')
    it = mx.io.ImageDetRecordIter(path_imgrec=prefix + '.rec', path_imglist=lst,
                                  data_shape=(3, 6, 7), batch_size=2)
    label = next(iter(it)).label[0].asnumpy()
    np.testing.assert_allclose(label[:, 4:11], [[2, 5, 1, .1, .1, .4, .4],
                                                [2, 5, 3, .2, .2, .6, .6]], rtol=1e-6)
    with open(lst, 'w') as f:
        f.write('0\t2\t5\t1\t0.1\t0.1\t0.4\t0.4\ta.png\nx1\tnot-a-number\tb.png\n')
    with pytest.raises(MXNetError, match="line 2 of path_imglist"):
        mx.io.ImageDetRecordIter(path_imgrec=prefix + '.rec', path_imglist=lst,
                                 data_shape=(3, 6, 7), batch_size=2)
