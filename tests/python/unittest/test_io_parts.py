"""num_parts / part_index: the disjoint parts that the workers of a distributed job read."""
import numpy as np
import pytest

import mxnet as mx


def _batches(it):
    it.reset()
    return [b.data[0].asnumpy()[:b.data[0].shape[0] - b.pad] for b in it]


@pytest.mark.parametrize('num_parts', [1, 2, 3])
def test_ndarrayiter_parts_cover_the_data_once(num_parts):
    data = np.arange(22, dtype=np.float32).reshape(11, 2)
    seen = []
    for k in range(num_parts):
        it = mx.io.NDArrayIter(data, np.arange(11), batch_size=2, num_parts=num_parts,
                               part_index=k, last_batch_handle='pad')
        rows = np.concatenate(_batches(it))
        begin, end = 11 * k // num_parts, 11 * (k + 1) // num_parts
        np.testing.assert_array_equal(rows, data[begin:end])
        seen.append(rows)
    np.testing.assert_array_equal(np.concatenate(seen), data)


def test_ndarrayiter_bad_part():
    with pytest.raises(ValueError, match='part_index'):
        mx.io.NDArrayIter(np.zeros((4, 2)), batch_size=2, num_parts=2, part_index=2)
    with pytest.raises(ValueError, match='empty'):
        mx.io.NDArrayIter(np.zeros((1, 2)), batch_size=1, num_parts=2, part_index=0)


def test_csviter_parts(tmp_path):
    data = np.arange(30, dtype=np.float32).reshape(10, 3)
    path = tmp_path / 'd.csv'
    np.savetxt(str(path), data, delimiter=',')
    seen = []
    for k in range(3):
        it = mx.io.CSVIter(data_csv=str(path), data_shape=(3,), batch_size=1, num_parts=3,
                           part_index=k)
        rows = np.concatenate(_batches(it))
        np.testing.assert_array_equal(rows, data[10 * k // 3:10 * (k + 1) // 3])
        seen.append(rows)
    np.testing.assert_array_equal(np.concatenate(seen), data)
    with pytest.raises(mx.base.MXNetError, match='part_index'):
        mx.io.CSVIter(data_csv=str(path), data_shape=(3,), batch_size=1, num_parts=2,
                      part_index=5)


@pytest.mark.parametrize('length, parts', [(10, 3), (9, 3), (2, 3), (7, 1)])
def test_split_sampler_even_parts(length, parts):
    samplers = [mx.gluon.data.SplitSampler(length, parts, k) for k in range(parts)]
    sizes = {len(s) for s in samplers}
    assert sizes == {-(-length // parts)}  # every worker the same number of samples
    union = set()
    for k, s in enumerate(samplers):
        idx = list(s)
        begin, end = length * k // parts, length * (k + 1) // parts
        assert set(range(begin, end)) <= set(idx) and all(0 <= i < length for i in idx)
        union |= set(idx)
    assert union == set(range(length))


def test_split_sampler_uneven_and_shuffled():
    s = mx.gluon.data.SplitSampler(10, 3, 2, shuffle=True, even_size=False)
    assert sorted(s) == [6, 7, 8, 9] and len(s) == 4
    with pytest.raises(ValueError, match='part_index'):
        mx.gluon.data.SplitSampler(10, 3, 3)
    loader = mx.gluon.data.DataLoader(mx.gluon.data.ArrayDataset(np.arange(10)), batch_size=2,
                                      sampler=mx.gluon.data.SplitSampler(10, 2, 1))
    assert np.concatenate([b.asnumpy() for b in loader]).tolist() == [5, 6, 7, 8, 9]
