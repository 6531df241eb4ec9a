"""Corrupted files (issue 19): truncated, bit-flipped and random versions of every seed of the
fuzz corpora (tests/fuzz/corpus) go through the Python loaders in a child process. Each load must
give a typed MXNetError or a result whose data can be read; never a signal, a hang or another
exception type. tools/fuzz.sh searches much further from the same seeds; this runs in every CI."""
import os
import random
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CORPUS = os.path.join(ROOT, 'tests', 'fuzz', 'corpus')

# Each loader reads one file and touches every value it got; run by the child for each mutant.
LOADERS = {
    'fuzz_ndarray_load': '''
def load(path):
    got = mx.nd.load(path)
    for a in (got.values() if isinstance(got, dict) else got):
        a.asnumpy()
''',
    'fuzz_symbol_json': '''
def load(path):
    sym = mx.sym.load(path)
    mx.sym.load_json(sym.tojson())
    sym.list_arguments(); sym.list_auxiliary_states(); sym.attr_dict()
    sym.infer_shape_partial()
''',
    'fuzz_recordio': '''
def load(path):
    reader = mx.recordio.MXRecordIO(path, 'r')
    for _ in range(10000):
        if reader.read() is None:
            break
    reader.close()
''',
    'fuzz_image_decode': '''
def load(path):
    data = open(path, 'rb').read()
    mx.image.imdecode(data[1:], flag=data[0] & 1).asnumpy() if len(data) > 1 else None
''',
    'fuzz_data_iters': '''
import tempfile
def load(path):
    data = open(path, 'rb').read()
    if len(data) < 2:
        return
    split = min(len(data), 2 + data[1] % (len(data) - 1))
    first, second = (tempfile.NamedTemporaryFile(delete=False) for _ in range(2))
    first.write(data[2:split]); first.close(); second.write(data[split:]); second.close()
    try:
        kind = data[0] % 3
        if kind == 0:
            it = mx.io.CSVIter(data_csv=first.name, data_shape=(3,), label_csv=second.name,
                               batch_size=2)
        elif kind == 1:
            it = mx.io.LibSVMIter(data_libsvm=first.name, data_shape=(8,), batch_size=2)
        else:
            it = mx.io.MNISTIter(image=first.name, label=second.name, batch_size=2, flat=True,
                                 silent=True)
        for batch in it:
            batch.data[0].asnumpy()
    finally:
        os.remove(first.name); os.remove(second.name)
''',
}

CHILD = r'''
import os, sys
import mxnet as mx
%s
typed = ran = 0
for path in sys.argv[1:]:
    sys.stderr.write('LOADING %%s\n' %% path); sys.stderr.flush()
    try:
        load(path)
        ran += 1
    except mx.base.MXNetError:
        typed += 1
print('typed %%d ran %%d' %% (typed, ran))
print('AFTER', mx.nd.ones((2,)).sum().asscalar())
'''


def mutants(seed_path, out_dir, rng):
    """Truncations, single-bit flips, byte overwrites and one random file per seed."""
    data = open(seed_path, 'rb').read()
    base = os.path.basename(seed_path)
    made = []

    def emit(tag, blob):
        path = os.path.join(out_dir, '%s.%s' % (base, tag))
        with open(path, 'wb') as f:
            f.write(blob)
        made.append(path)

    for i, cut in enumerate(sorted({0, 1, len(data) // 2, len(data) - 1} |
                                   {rng.randrange(max(1, len(data))) for _ in range(6)})):
        if 0 <= cut < len(data):
            emit('cut%d' % i, data[:cut])
    for i in range(24):
        if not data:
            break
        blob = bytearray(data)
        pos = rng.randrange(len(blob))
        # The first two bytes steer the fuzz targets: keep the flips in the file proper.
        blob[pos] ^= 1 << rng.randrange(8)
        emit('flip%d' % i, bytes(blob))
    for i in range(8):
        if not data:
            break
        blob = bytearray(data)
        pos = rng.randrange(len(blob))
        blob[pos:pos + 4] = rng.choice([b'\xff\xff\xff\xff', b'\x00\x00\x00\x00',
                                        b'\x7f\xff\xff\xff', b'\x00\x00\x00\x80'])
        emit('word%d' % i, bytes(blob))
    emit('random', bytes(data[:2]) + bytes(rng.randrange(256) for _ in range(64)))
    emit('trailing', data + b'\x00garbage')
    return made


@pytest.mark.parametrize('target', sorted(LOADERS))
def test_corrupted_files_give_typed_errors(target, tmp_path):
    seeds = sorted(os.listdir(os.path.join(CORPUS, target)))
    assert seeds, 'no seeds in tests/fuzz/corpus/%s' % target
    rng = random.Random(target)
    files = []
    for seed in seeds:
        files += mutants(os.path.join(CORPUS, target, seed), str(tmp_path), rng)
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([os.path.join(ROOT, 'python'),
                                         env.get('PYTHONPATH', '')])
    proc = subprocess.run([sys.executable, '-c', CHILD % LOADERS[target]] + files,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          timeout=300, check=False)
    out, err = proc.stdout.decode(errors='replace'), proc.stderr.decode(errors='replace')
    last = [l for l in err.splitlines() if l.startswith('LOADING')][-1:]
    assert proc.returncode == 0, 'exit status %d (a signal is negative) at %s:\n%s' % (
        proc.returncode, last, err[-3000:])
    assert 'AFTER 2.0' in out, out
    typed, ran = [int(w) for w in out.split()[1:4:2]]
    assert typed + ran == len(files)
    assert typed > 0, 'no mutant was refused: the mutations did not reach the parser'


def test_failed_parameter_load_leaves_parameters_unchanged(tmp_path):
    """A corrupted .params file raises and leaves the block's parameters as they were."""
    import numpy as np
    import mxnet as mx
    net = mx.gluon.nn.Dense(3, in_units=4)
    net.initialize()
    good = str(tmp_path / 'good.params')
    net.save_parameters(good)
    before = {k: v.data().asnumpy().copy() for k, v in net.collect_params().items()}
    other = mx.gluon.nn.Dense(3, in_units=4)
    other.initialize(mx.init.Constant(7.0))
    other.save_parameters(str(tmp_path / 'other.params'))
    seven = bytearray(open(str(tmp_path / 'other.params'), 'rb').read())
    # The other block's file (all sevens) with its end cut off: its first array is whole.
    bad = str(tmp_path / 'bad.params')
    with open(bad, 'wb') as f:
        f.write(bytes(seven[:len(seven) - 12]))
    with pytest.raises(mx.base.MXNetError):
        net.load_parameters(bad)
    after = {k: v.data().asnumpy() for k, v in net.collect_params().items()}
    for k in before:
        np.testing.assert_array_equal(before[k], after[k])


def test_text_that_is_not_utf8_is_refused(tmp_path):
    """Symbol JSON and NDArray file names are text: bytes that are not UTF-8 are an error at
    load, not a UnicodeDecodeError (or mojibake) later in the front end."""
    import mxnet as mx
    sym_file = tmp_path / 'bad.json'
    sym_file.write_bytes(mx.sym.Variable('data').tojson().encode().replace(b'data', b'd\xfeta'))
    with pytest.raises(mx.base.ValueError, match='not part of valid UTF-8'):
        mx.sym.load(str(sym_file))
    nd_file = str(tmp_path / 'names.nd')
    mx.nd.save(nd_file, {'caf\u00e9': mx.nd.ones((1,))})
    assert list(mx.nd.load(nd_file)) == ['caf\u00e9']
    blob = open(nd_file, 'rb').read()
    with open(nd_file, 'wb') as f:
        f.write(blob.replace(b'caf\xc3\xa9', b'caf\xc3('))
    with pytest.raises(mx.base.MXNetError, match='array name 0 is not UTF-8'):
        mx.nd.load(nd_file)
