"""The data and checking helpers of mx.test_utils (_test_data.py, _test_checks.py) and the
ufunc/CUDA helpers of mx.util."""
import gzip
import http.server
import json
import os
import struct
import threading
import zipfile

import numpy as onp
import pytest

import mxnet as mx
from mxnet import test_utils as tu


def test_star_import_brings_module_imports():
    namespace = {}
    exec('from mxnet.test_utils import *', namespace)  # noqa: S102
    for name in ['mx', 'np', 'sys', 'os', 'NDArray', 'OrderedDict', 'assert_almost_equal',
                 'get_mnist', 'chi_square_check', 'rnd', 'Symbol']:
        assert name in namespace, name
    assert namespace['mx'] is mx and namespace['np'] is onp
    assert namespace['npt'] is onp.testing


def test_tolerances():
    assert tu.default_rtols()[onp.dtype(onp.float32)] == 1e-4
    assert tu.default_atols()[onp.dtype(onp.float16)] == 1e-1
    x = mx.nd.ones((2,), dtype='float64')
    assert tu.effective_dtype(x) == onp.float64
    assert tu.get_tolerance(x, None, tu.default_rtols()) == 1e-5
    assert tu.get_tolerance(x, 0.5, tu.default_rtols()) == 0.5
    assert tu.get_tolerance(x, {onp.dtype(onp.float64): 0.25}, None) == 0.25
    assert tu.default_numeric_eps()[onp.dtype(onp.float32)] == 2.0 ** -9
    tu.assert_allclose(mx.nd.array([1.0, 2.0]), onp.array([1.0, 2.0]))
    with pytest.raises(AssertionError):
        tu.assert_allclose(onp.array([1.0]), onp.array([1.001]))
    tu.checkShapes(onp.zeros((2, 3)), onp.ones((2, 3)))
    with pytest.raises(AssertionError):
        tu.checkShapes(onp.zeros((2, 3)), onp.ones((3, 2)))


def test_array_helpers():
    a = onp.arange(6.0).reshape(2, 3)
    onp.testing.assert_array_equal(tu.assign_each(a, lambda v: v * v), a * a)
    onp.testing.assert_array_equal(tu.assign_each2(a, a + 1, lambda u, v: u * v), a * (a + 1))
    big = onp.random.uniform(size=(4, 2, 3))
    onp.testing.assert_allclose(tu.collapse_sum_like(big, (2, 1)),
                                big.sum(axis=(0, 2)).reshape(2, 1))
    onp.testing.assert_allclose(tu.collapse_sum_like(big, (3,)), big.sum(axis=(0, 1)))
    onp.testing.assert_array_equal(tu.create_vector(5).asnumpy(), onp.arange(5))
    onp.testing.assert_array_equal(tu.create_2d_tensor(3, 4).asnumpy(),
                                   onp.repeat(onp.arange(3)[:, None], 4, axis=1))
    picked = tu.random_sample(list(range(10)), 4)
    assert len(picked) == len(set(picked)) == 4 and set(picked) <= set(range(10))
    x, y = tu.rand_coord_2d(2, 5, 10, 12)
    assert 2 <= x < 5 and 10 <= y < 12
    u1, u2 = tu.random_uniform_arrays((3, 2), (4,), low=-2.0, high=-1.0)
    assert u1.shape == (3, 2) and u2.shape == (4,) and (u1 >= -2).all() and (u1 < -1).all()
    arr = mx.nd.arange(6)
    assert tu.same_array(arr, arr) and not tu.same_array(arr, arr.copy())
    tu.compare_ndarray_tuple((mx.nd.ones(2), (mx.nd.zeros(1), None)),
                             (mx.nd.ones(2), (mx.nd.zeros(1), mx.nd.ones(1))))


def test_matrices_with_known_spectra():
    onp.testing.assert_array_equal(tu.get_identity_mat(3), onp.eye(3))
    assert tu.get_identity_mat_batch(2, 3).shape == (2, 3, 3)
    q = tu.new_orthonormal_matrix_2d(5)
    onp.testing.assert_allclose(q @ q.T, onp.eye(5), atol=1e-10)
    s = tu.new_sym_matrix_with_real_eigvals_2d(4)
    onp.testing.assert_allclose(s, s.T, atol=1e-12)
    m = tu.new_matrix_with_real_eigvals_2d(4)
    assert onp.allclose(onp.linalg.eigvals(m).imag, 0, atol=1e-8)
    stack = tu.new_matrix_with_real_eigvals_nd((2, 3, 3, 3))
    assert stack.shape == (2, 3, 3, 3)
    assert onp.allclose(onp.linalg.eigvals(stack).imag, 0, atol=1e-8)
    assert tu.new_sym_matrix_with_real_eigvals_nd((2, 3, 3)).shape == (2, 3, 3)


def test_sparse_helpers():
    csr = tu.create_sparse_array((5, 6), 'csr', density=0.5)
    assert csr.stype == 'csr' and csr.shape == (5, 6)
    rsp = tu.create_sparse_array_zd((4, 3), 'row_sparse', density=0.0)
    assert rsp.stype == 'row_sparse' and not rsp.asnumpy().any()
    import scipy.sparse as sps
    dense = onp.array([[1.0, 0, 2, 3], [0, 4, 5, 0]])
    host = sps.csr_matrix(dense)
    tu.shuffle_csr_column_indices(host)
    onp.testing.assert_array_equal(host.toarray(), dense)


def test_sampler_statistics():
    import scipy.stats as ss
    buckets, probs = tu.gen_buckets_probs_with_ppf(ss.norm.ppf, 5)
    assert len(buckets) == 5 and onp.isclose(sum(probs), 1.0)
    assert buckets[0][0] == -onp.inf and buckets[-1][1] == onp.inf

    def normal(n):
        return mx.nd.random.normal(0, 1, shape=(n,)).asnumpy()

    mx.random.seed(7)
    p, obs, expected = tu.chi_square_check(normal, buckets, probs, nsamples=20000)
    assert obs.sum() == 20000 and p > 1e-4
    tu.verify_generator(normal, buckets, probs, nsamples=20000, nrepeat=3)
    with pytest.raises(AssertionError):   # a uniform sampler is not normal
        tu.verify_generator(lambda n: onp.random.uniform(-1, 1, n), buckets, probs,
                            nsamples=20000, nrepeat=3)
    p_d, _, _ = tu.chi_square_check(lambda n: onp.random.randint(0, 3, n), [0, 1, 2],
                                    [1, 1, 1], nsamples=30000)
    assert p_d > 1e-4
    assert tu.mean_check(normal, 0.0, 1.0, nsamples=20000)
    assert not tu.mean_check(lambda n: normal(n) + 0.5, 0.0, 1.0, nsamples=20000)
    assert tu.var_check(normal, 1.0, nsamples=20000)
    assert not tu.var_check(lambda n: 2 * normal(n), 1.0, nsamples=20000)


def test_optimizer_and_gluon_comparisons():
    tu.compare_optimizer(mx.optimizer.SGD(learning_rate=0.1, momentum=0.9),
                         mx.optimizer.SGD(learning_rate=0.1, momentum=0.9), [(3, 4), (5,)],
                         'float32')
    with pytest.raises(AssertionError):
        tu.compare_optimizer(mx.optimizer.SGD(learning_rate=0.1),
                             mx.optimizer.SGD(learning_rate=0.2), [(3, 4)], 'float32')

    def build():
        net = mx.gluon.nn.HybridSequential()
        net.add(mx.gluon.nn.Dense(3, activation='tanh'), mx.gluon.nn.Dense(2))
        return net

    data = [mx.nd.random.uniform(shape=(4, 5))]
    outs = tu.check_gluon_hybridize_consistency(build, data)
    assert outs[0].shape == (4, 2)
    tu.check_gluon_hybridize_consistency(lambda: mx.gluon.nn.Activation('relu'), data,
                                         numpy_func=lambda x: onp.maximum(x, 0))


def test_check_speed_and_structure():
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=4, name='fc')
    assert tu.check_speed(net, N=2, data=(2, 3)) > 0
    assert tu.check_speed(net, N=2, typ='forward', data=(2, 3)) > 0
    other = mx.sym.FullyConnected(mx.sym.var('data'), num_hidden=8, name='fc2')
    assert tu.same_symbol_structure(net, other)
    assert not tu.same_symbol_structure(net, mx.sym.relu(net))


def test_environment_queries():
    assert isinstance(tu.is_aarch64_run(), bool)
    os.environ['CD_JOB'] = '1'
    try:
        assert tu.is_cd_run()
    finally:
        del os.environ['CD_JOB']
    assert not tu.is_cd_run()
    assert tu.has_tvm_ops() == mx.runtime.Features().is_enabled('TVM_OP') \
        if 'TVM_OP' in mx.runtime.Features() else not tu.has_tvm_ops()
    assert tu.is_op_runnable()
    with pytest.raises(ValueError):
        mx.util.get_cuda_compute_capability(mx.cpu())
    with tu.discard_stderr():
        os.write(2, b'this line is dropped\n')


def test_ufunc_wrappers():
    assert mx.util.np_ufunc_legal_option('casting', 'unsafe')
    assert not mx.util.np_ufunc_legal_option('casting', 'sloppy')
    assert mx.util.np_ufunc_legal_option('dtype', 'float32')
    assert not mx.util.np_ufunc_legal_option('dtype', 'complex64')
    assert not mx.util.np_ufunc_legal_option('nonsense', 1)

    @mx.util.wrap_np_unary_func
    def double(x, out=None):  # pylint: disable=unused-argument
        return x * 2

    @mx.util.wrap_np_binary_func
    def plus(x1, x2, out=None):  # pylint: disable=unused-argument
        return x1 + x2

    assert double(3, casting='same_kind') == 6 and plus(1, 2, where=True) == 3
    with pytest.raises(NotImplementedError):
        double(3, casting='unsafe')
    with pytest.raises(TypeError):
        plus(1, 2, bogus=1)


def _write_idx(path, array):
    with gzip.open(path, 'wb') as f:
        f.write(struct.pack('>I', 0x0800 | array.ndim))
        f.write(struct.pack('>' + 'I' * array.ndim, *array.shape))
        f.write(array.astype(onp.uint8).tobytes())


def test_mnist_from_local_files(tmp_path):
    rng = onp.random.RandomState(0)
    images = rng.randint(0, 256, size=(7, 28, 28))
    labels = rng.randint(0, 10, size=(7,))
    for prefix in ['train', 't10k']:
        _write_idx(str(tmp_path / ('%s-images-idx3-ubyte.gz' % prefix)), images)
        _write_idx(str(tmp_path / ('%s-labels-idx1-ubyte.gz' % prefix)), labels)
    mnist = tu.get_mnist(str(tmp_path))
    assert mnist['train_data'].shape == (7, 1, 28, 28)
    assert mnist['train_data'].dtype == onp.float32
    onp.testing.assert_allclose(mnist['test_data'][:, 0], images / 255.0, rtol=1e-6)
    onp.testing.assert_array_equal(mnist['train_label'], labels)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # pylint: disable=arguments-differ
        pass


@pytest.fixture
def http_dir(tmp_path):
    served = tmp_path / 'served'
    served.mkdir()
    handler = lambda *a, **k: _QuietHandler(*a, directory=str(served), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield served, 'http://127.0.0.1:%d/' % server.server_address[1]
    server.shutdown()
    server.server_close()


def test_download_and_archives(http_dir, tmp_path):
    served, url = http_dir
    (served / 'hello.txt').write_text('hello')
    dest = tmp_path / 'dl'
    path = tu.download(url + 'hello.txt', dirname=str(dest))
    assert open(path).read() == 'hello'
    (served / 'hello.txt').write_text('changed')
    assert open(tu.download(url + 'hello.txt', dirname=str(dest))).read() == 'hello'
    assert open(tu.download(url + 'hello.txt', dirname=str(dest),
                            overwrite=True)).read() == 'changed'
    with pytest.raises(Exception):
        tu.download(url + 'missing.txt', dirname=str(dest), retries=1)
    with zipfile.ZipFile(str(served / 'pack.zip'), 'w') as zf:
        zf.writestr('inner/data.json', json.dumps({'a': 1}))
    tu.get_zip_data(str(tmp_path / 'zipped'), url + 'pack.zip', 'pack.zip')
    assert json.load(open(str(tmp_path / 'zipped' / 'inner' / 'data.json'))) == {'a': 1}
    import bz2
    (served / 'text.bz2').write_bytes(bz2.compress(b'line one\nline two\n'))
    tu.get_bz2_data(str(tmp_path / 'bz'), 'text.txt', url + 'text.bz2', 'text.bz2')
    assert open(str(tmp_path / 'bz' / 'text.txt')).read() == 'line one\nline two\n'
    assert not os.path.exists(str(tmp_path / 'bz' / 'text.bz2'))


def test_dummy_iter_and_im2rec_path():
    it = mx.io.NDArrayIter(onp.arange(12.0).reshape(6, 2), onp.arange(6.0), batch_size=2)
    dummy = tu.DummyIter(it)
    first = next(dummy)
    for _ in range(5):
        assert next(dummy) is first
    assert dummy.provide_data == it.provide_data and dummy.batch_size == 2
    assert tu.get_im2rec_path().endswith(os.path.join('tools', 'im2rec.py'))


def test_location_error_formats_like_mxnet_191():
    a = onp.array([[1.0, 2.0], [3.0, 4.5]])
    b = onp.array([[1.0, 2.0], [3.0, 4.0]])
    idx = (1, 1)
    assert mx.test_utils.locationError(a, b, idx, ('x', 'y')) == \
        'Location of error: (1, 1), x=4.50000000, y=4.00000000'
    assert mx.test_utils.locationError(a, b, idx, ('x', 'y'), maxError=True).startswith(
        'Location of maximum error: (1, 1)')


def test_download_model_fetches_symbol_and_params(tmp_path, monkeypatch):
    from mxnet import _test_data
    fetched = []
    monkeypatch.setattr(_test_data, 'download', lambda url, fname: fetched.append((url, fname)))
    prefix, epoch = mx.test_utils.download_model('imagenet1k-resnet-18', dst_dir=str(tmp_path))
    assert (prefix, epoch) == (str(tmp_path / 'imagenet1k-resnet-18'), 0)
    assert fetched == [
        ('http://data.mxnet.io/models/imagenet/resnet/18-layers/resnet-18-symbol.json',
         prefix + '-symbol.json'),
        ('http://data.mxnet.io/models/imagenet/resnet/18-layers/resnet-18-0000.params',
         prefix + '-0000.params')]
    assert mx.test_utils.download_model('no-such-model', dst_dir=str(tmp_path)) == (None, 0)
    fetched.clear()
    mine = {'m': {'symbol': 'http://host/m.json', 'params': 'http://host/m.params'}}
    assert mx.test_utils.download_model('m', str(tmp_path / 'sub'), mine)[0].endswith('sub/m')
    assert [u for u, _ in fetched] == ['http://host/m.json', 'http://host/m.params']
    with pytest.raises(ValueError, match='params'):
        mx.test_utils.download_model('m', str(tmp_path), {'m': {'symbol': 'http://host/m'}})
