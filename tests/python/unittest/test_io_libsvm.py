"""mx.io.LibSVMIter (a Python iterator over LibSVM files) against a dense NumPy reading."""
import numpy as onp
import pytest

import mxnet as mx


def test_libsvm_iter(tmp_path):
    rows = ['1 0:1.5 3:2', '0 1:1', '1 2:3 3:4', '0', '1 0:9']
    (tmp_path / 'data.libsvm').write_text('\n'.join(rows) + '\n')
    dense = onp.zeros((5, 4), dtype=onp.float32)
    for r, line in enumerate(rows):
        for field in line.split()[1:]:
            col, val = field.split(':')
            dense[r, int(col)] = float(val)
    labels = onp.array([float(line.split()[0]) for line in rows], dtype=onp.float32)
    it = mx.io.LibSVMIter(str(tmp_path / 'data.libsvm'), (4,), batch_size=2)
    assert it.provide_data[0].shape == (2, 4) and it.provide_label[0].shape == (2,)
    batches = list(it)
    assert len(batches) == 3 and batches[-1].pad == 1
    assert all(b.data[0].stype == 'csr' for b in batches)
    got = onp.concatenate([b.data[0].asnumpy() for b in batches])
    onp.testing.assert_array_equal(got[:5], dense)
    onp.testing.assert_array_equal(got[5], dense[0])       # the last batch wraps around
    onp.testing.assert_array_equal(onp.concatenate([b.label[0].asnumpy() for b in batches])[:5],
                                   labels)
    it.reset()
    assert len(list(it)) == 3
    no_round = mx.io.LibSVMIter(str(tmp_path / 'data.libsvm'), (4,), batch_size=2,
                                round_batch=False)
    assert len(list(no_round)) == 2
    (tmp_path / 'label.libsvm').write_text('0 1:1\n0 0:1\n0 2:1\n0 1:1\n0 0:1\n')
    multi = mx.io.LibSVMIter(str(tmp_path / 'data.libsvm'), (4,), batch_size=5,
                             label_libsvm=str(tmp_path / 'label.libsvm'), label_shape=(3,))
    batch = next(iter(multi))
    assert batch.label[0].stype == 'csr' and batch.label[0].shape == (5, 3)
    onp.testing.assert_array_equal(batch.label[0].asnumpy().argmax(1), [1, 0, 2, 1, 0])
    part = mx.io.LibSVMIter(str(tmp_path / 'data.libsvm'), (4,), batch_size=1, num_parts=2,
                            part_index=1)
    onp.testing.assert_array_equal(onp.concatenate([b.data[0].asnumpy() for b in part]),
                                   dense[3:])
    (tmp_path / 'bad.libsvm').write_text('1 7:1\n')
    with pytest.raises(ValueError):
        mx.io.LibSVMIter(str(tmp_path / 'bad.libsvm'), (4,))


@pytest.mark.parametrize('text,why', [
    (b'1 0:1\n1 0:x\n', 'line 2: expected'),
    (b'1 3\n1 a:1\n', 'line 2: expected'),
    (b'1 0:1\n\xff\xfe 1:1\n', 'line 2: not ASCII'),
    (b'1 9:1\n', 'feature index 9 outside [0, 4)'),
])
def test_libsvm_malformed_lines_name_file_and_line(tmp_path, text, why):
    path = tmp_path / 'bad.libsvm'
    path.write_bytes(text)
    with pytest.raises(mx.base.ValueError) as info:
        mx.io.LibSVMIter(str(path), (4,))
    assert why in str(info.value) and str(path) in str(info.value)
