"""Multi-process tests of the distributed KVStores (dist_sync, dist_device_sync, dist_async,
horovod) over Open MPI, started the way users start them:

    python3 tools/launch.py -n N [-s S] --launcher local --timeout T \
        python3 tests/python/distributed/dist_worker.py <case>

Each worker checks the store against a closed form computed with NumPy (every worker knows what
the others push) and prints ``CHECK <name> ok rank=<r>``; a test asserts the job's exit code and
that every worker passed its checks. To keep the suite short on a small machine, one job runs
many checks and the jobs run three at a time. Skipped without mpirun.
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest
import mxnet as mx

import mx191_oracle

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
LAUNCH = os.path.join(ROOT, 'tools', 'launch.py')
WORKER = os.path.join(HERE, 'dist_worker.py')

pytestmark = [
    pytest.mark.skipif(shutil.which('mpirun') is None, reason='mpirun (Open MPI) is not installed'),
    # The sanitizer build (tools/sanitize.sh) leaves MPI out: mpirun cannot carry its runtime.
    pytest.mark.skipif(not mx.runtime.Features().is_enabled('DIST_KVSTORE'),
                       reason='this libmxnet was built without the distributed KVStore'),
]

# name: (case, workers, servers, MXNET_KVSTORE_TIMEOUT)
JOBS = {
    'sync': ('sync', 3, 0, 60),
    'async_1server': ('async', 2, 1, 60),
    'async_2servers': ('async', 2, 2, 60),
    'train': ('train', 2, 0, 60),
    'overlap': ('overlap', 2, 0, 60),
    'fail_raise': ('fail_raise', 2, 0, 60),
    'fail_kill': ('fail_kill', 2, 0, 60),
    'fail_uneven': ('fail_uneven', 2, 0, 60),
    'fail_key': ('fail_key', 2, 0, 60),
    'fail_stall': ('fail_stall', 2, 0, 5),
    'mx191_2bit': None,  # MXNet 1.9.1's 2-bit compression (test_two_bit_reference_matches_mx191)
}
JOB_LIMIT_S = 120  # a hung job fails its test instead of the suite


def _env():
    env = dict(os.environ)
    python_dir = os.path.join(ROOT, 'python')
    env['PYTHONPATH'] = python_dir + os.pathsep + env.get('PYTHONPATH', '')
    # Waiting MPI processes yield the core: the jobs share a small machine.
    env['OMPI_MCA_mpi_yield_when_idle'] = '1'
    env.setdefault('OMP_NUM_THREADS', '1')
    return env


def _run_job(name):
    if name == 'mx191_2bit':
        return _run_mx191_2bit()
    case, workers, servers, timeout = JOBS[name]
    cmd = [sys.executable, LAUNCH, '-n', str(workers), '-s', str(servers), '--launcher',
           'local', '--timeout', str(timeout), sys.executable, WORKER, case]
    start = time.time()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=JOB_LIMIT_S)
        rc, out = proc.returncode, proc.stdout.decode('utf-8', 'replace')
    except subprocess.TimeoutExpired as e:
        rc, out = None, (e.stdout or b'').decode('utf-8', 'replace')
    return {'rc': rc, 'out': out, 'seconds': time.time() - start, 'workers': workers}


class _Jobs(object):
    """Runs the jobs three at a time (they spend much of their time waiting) on first use,
    each once per session."""

    def __init__(self):
        self._results = {}
        self._lock = threading.Lock()
        self._started = False
        self._done = {name: threading.Event() for name in JOBS}

    def _worker(self, queue):
        while True:
            with self._lock:
                if not queue:
                    return
                name = queue.pop(0)
            try:
                self._results[name] = _run_job(name)
            except Exception as e:  # pylint: disable=broad-except
                # reported by the job's tests instead of leaving them waiting
                self._results[name] = {'rc': None, 'out': 'the job failed to run: %r' % (e,),
                                       'seconds': 0.0}
            finally:
                self._done[name].set()

    def get(self, name):
        with self._lock:
            if not self._started:
                self._started = True
                queue = list(JOBS)
                if not mx191_oracle.HAVE_MX191:
                    queue.remove('mx191_2bit')
                for _ in range(3):
                    threading.Thread(target=self._worker, args=(queue,), daemon=True).start()
        self._done[name].wait()
        return self._results[name]


_JOBS = _Jobs()


def _passed(job, check):
    """Ranks that reported `check` ok."""
    return sorted(int(r) for r in re.findall(r'CHECK %s ok rank=(\d+)' % re.escape(check),
                                             job['out']))


def _assert_job_ok(name):
    job = _JOBS.get(name)
    assert job['rc'] == 0, "job %s exited with %r:\n%s" % (name, job['rc'], job['out'][-6000:])
    return job


SYNC_CHECKS = ['rank_type', 'init', 'push_devices', 'pushpull', 'str_keys', 'dtypes',
               'broadcast', 'big', 'row_sparse', 'barrier', 'sgd']


@pytest.mark.parametrize('kind', ['dist_sync', 'dist_device_sync'])
@pytest.mark.parametrize('check', SYNC_CHECKS)
def test_sync_semantics(kind, check):
    job = _assert_job_ok('sync')
    assert _passed(job, '%s.%s' % (kind, check)) == [0, 1, 2], job['out'][-4000:]


@pytest.mark.parametrize('check', ['pushpull', 'broadcast', 'no_init'])
def test_horovod(check):
    job = _assert_job_ok('sync')
    assert _passed(job, 'horovod.' + check) == [0, 1, 2], job['out'][-4000:]


def test_two_bit_compression_sync():
    job = _assert_job_ok('sync')
    assert _passed(job, 'dist_sync.2bit') == [0, 1, 2], job['out'][-4000:]


@pytest.mark.parametrize('job_name', ['async_1server', 'async_2servers'])
@pytest.mark.parametrize('check', ['init', 'no_optimizer', 'sgd', 'converges', '2bit',
                                   'row_sparse'])
def test_dist_async(job_name, check):
    job = _assert_job_ok(job_name)
    assert _passed(job, 'dist_async.' + check) == [0, 1], job['out'][-4000:]


@pytest.mark.parametrize('check', ['trainer.dist_sync.uok', 'trainer.dist_sync.local_update',
                                   'trainer.horovod.local_update', 'module.fit'])
def test_training_matches_union(check):
    job = _assert_job_ok('train')
    assert _passed(job, check) == [0, 1], job['out'][-4000:]


def test_dist_sync_push_is_asynchronous():
    # Worker 1 is 2 s late to its push; worker 0's push returns at once, its engine stays free
    # for other work, and waiting on the pulled value takes the delay (dist_worker.case_overlap).
    job = _assert_job_ok('overlap')
    for check in ('overlap.push_returns_early', 'overlap.in_order'):
        assert _passed(job, check) == [0, 1], job['out'][-4000:]


@pytest.mark.parametrize('name,message', [
    ('fail_raise', 'worker 1 fails on purpose'),
    ('fail_kill', 'signal 9'),
    ('fail_uneven', 'different numbers of batches'),
    ('fail_key', 'disagree'),
    ('fail_stall', 'gives up'),
])
def test_failure_ends_job(name, message):
    job = _JOBS.get(name)
    assert job['rc'] is not None, "job %s hung:\n%s" % (name, job['out'][-4000:])
    assert job['rc'] != 0, job['out'][-4000:]
    assert job['seconds'] < 30, "job %s took %.1f s to fail" % (name, job['seconds'])
    assert message in job['out'], job['out'][-4000:]
    if name == 'fail_key':
        assert 'different key' in job['out'], job['out'][-4000:]


# The NumPy 2-bit rule the workers check against is MXNet 1.9.1's: its 'device' store compresses
# pushes from several CPU contexts with the same rule (one residual per context).
_GC_SCRIPT = """
import sys
import numpy as np
import mxnet as mx
kv = mx.kv.create('device')
kv.set_gradient_compression({'type': '2bit', 'threshold': 0.5})
shape = (5, 7)
kv.init('c', mx.nd.zeros(shape))
def grads(q, step):
    return np.random.RandomState(100 * q + step).uniform(-1, 1, shape).astype(np.float32)
outs = []
for step in range(4):
    kv.push('c', [mx.nd.array(grads(q, step), ctx=mx.cpu(q)) for q in range(2)])
    out = mx.nd.zeros(shape)
    kv.pull('c', out=out)
    outs.append(out.asnumpy())
np.save(sys.argv[1], np.stack(outs))
"""


def _run_mx191_2bit():
    tmp = tempfile.mkdtemp(prefix='dist_gc_')
    try:
        script, ref_file = os.path.join(tmp, 'gc.py'), os.path.join(tmp, 'ref.npy')
        with open(script, 'w') as f:
            f.write(_GC_SCRIPT)
        mx191_oracle.run([script, ref_file], ours=False)
        return {'ref': np.load(ref_file)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.mark.skipif(not mx191_oracle.HAVE_MX191, reason=mx191_oracle.SKIP_REASON)
def test_two_bit_reference_matches_mx191():
    spec = importlib.util.spec_from_file_location('dist_worker_under_test', WORKER)
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    job = _JOBS.get('mx191_2bit')
    assert 'ref' in job, job.get('out')
    ref = job['ref']
    shape = (5, 7)
    sent = worker.two_bit_reference(
        [[worker.compression_grads(q, step, shape) for step in range(4)] for q in range(2)], 0.5)
    for step in range(4):
        np.testing.assert_array_equal(ref[step], sent[0][step] + sent[1][step])


# ---- the launcher --------------------------------------------------------------------------

def _launch_module():
    path = os.path.join(ROOT, 'python', 'mxnet', 'tools', 'launch.py')
    spec = importlib.util.spec_from_file_location('mxnet_launch_under_test', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize('args,message', [
    (['-n', '0'], '-n must be at least 1'),
    (['-n', '2', '-s', '-1'], '-s must be 0 or more'),
    (['-n', 'two'], 'invalid int value'),
])
def test_launcher_rejects_bad_counts(args, message):
    proc = subprocess.run([sys.executable, LAUNCH] + args + ['--launcher', 'local', 'true'],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    assert proc.returncode != 0
    assert message in proc.stdout.decode(), proc.stdout.decode()


_SESSION_PROBE = (
    "import glob, os\n"
    "base = os.environ['OMPI_MCA_orte_tmpdir_base']\n"
    # One write per rank: with unbuffered output, print's pieces from two ranks interleave.
    "os.write(1, ('SESSION %s %d\\n' % (base, len(glob.glob(os.path.join(base, 'ompi.*')))))"
    ".encode())\n")


def test_local_jobs_keep_open_mpi_session_files_private():
    # Six local jobs at once: sharing /tmp/ompi.<host>.<uid>, one mpirun ending could remove
    # the folder another was starting in; each has its own, removed when the job ends.
    env = dict(os.environ)
    env.pop('OMPI_MCA_orte_tmpdir_base', None)
    procs = [subprocess.Popen([sys.executable, LAUNCH, '-n', '2', '--launcher', 'local',
                               sys.executable, '-c', _SESSION_PROBE], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for _ in range(6)]
    bases = set()
    for proc in procs:
        out = proc.communicate(timeout=JOB_LIMIT_S)[0].decode('utf-8', 'replace')
        assert proc.returncode == 0, out
        lines = [l.split() for l in out.splitlines() if l.startswith('SESSION ')]
        assert len(lines) == 2, out  # both ranks
        assert len({l[1] for l in lines}) == 1 and all(int(l[2]) >= 1 for l in lines), out
        bases.add(lines[0][1])
    assert len(bases) == 6  # one folder per job
    assert not any(os.path.exists(b) for b in bases)  # removed at the end


def test_launcher_command_per_role():
    launch = _launch_module()
    args = launch._parser().parse_args(
        ['-n', '3', '-s', '2', '--launcher', 'local', '--timeout', '7', '--env', 'FOO:bar',
         '--env-worker', 'ONLY_W:1', '--env-server', 'ONLY_S=2', 'python3', 'train.py', '--x'])
    cmd = launch.build_command(args)
    assert cmd[0] == 'mpirun'
    assert ('--allow-run-as-root' in cmd) == (os.geteuid() == 0)
    assert cmd[cmd.index('--host') + 1] == 'localhost:5'  # workers and servers
    split = cmd.index(':')
    workers, servers = cmd[:split], cmd[split + 1:]

    def app_env(part):
        start = part.index('-np')
        env = dict(part[i + 1].split('=', 1) for i in range(start, len(part))
                   if part[i] == '-x')
        return part[start + 1], env, part[-3:]
    np_w, env_w, tail_w = app_env(workers)
    np_s, env_s, tail_s = app_env(servers)
    assert (np_w, np_s) == ('3', '2')
    assert tail_w == tail_s == ['python3', 'train.py', '--x']
    for env, role in ((env_w, 'worker'), (env_s, 'server')):
        assert env['DMLC_ROLE'] == role
        assert env['DMLC_NUM_WORKER'] == '3' and env['DMLC_NUM_SERVER'] == '2'
        assert env['MXNET_KVSTORE_TIMEOUT'] == '7.0' and env['FOO'] == 'bar'
    assert env_w.get('ONLY_W') == '1' and 'ONLY_S' not in env_w
    assert env_s.get('ONLY_S') == '2' and 'ONLY_W' not in env_s
    # No servers: one application, no ':' separator.
    cmd = launch.build_command(launch._parser().parse_args(['-n', '2', 'python3', 'a.py']))
    assert ':' not in cmd and cmd[cmd.index('-np') + 1] == '2'
    with pytest.raises(SystemExit, match='needs --launcher mpi or ssh'):
        launch.build_command(launch._parser().parse_args(
            ['-n', '2', '-H', 'hosts.txt', 'python3', 'a.py']))
