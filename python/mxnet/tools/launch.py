"""Launch a distributed MXNet job: ``python -m mxnet.tools.launch -n 4 python train.py``.

MXNet 1.x's ``tools/launch.py`` flags, on MPI (Open MPI's mpirun) instead of ps-lite:

  -n/--num-workers N     worker processes (DMLC_ROLE=worker)
  -s/--num-servers S     server processes (DMLC_ROLE=server; default 0: the synchronous stores
                         sum on the workers and need none)
  -H/--hostfile FILE     hosts, one per line ("host" or "host slots=K"); default: this machine
  --launcher local|mpi|ssh
                         local: every process on this machine over loopback (127.0.0.1);
                         mpi / ssh: the hosts of --hostfile, started through mpirun (over ssh)
  --env NAME[:VALUE]     pass an environment variable (its current value, or VALUE) to every
                         process; --env-worker / --env-server for one role only
  --timeout SECONDS      MXNET_KVSTORE_TIMEOUT for the job: how long a worker waits for the
                         others before the job is aborted (default 300)

Every process gets DMLC_ROLE, DMLC_NUM_WORKER and DMLC_NUM_SERVER as in 1.x. When a process
fails, mpirun stops the others and this command exits with a non-zero status. Local jobs keep
Open MPI's session files in a directory of their own, removed at the end, so that several jobs
on one machine do not race on the shared /tmp/ompi.<host>.<uid> folder.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile

__all__ = ["main", "build_command"]


def _parse_env(items):
    env = {}
    for item in items:
        for sep in (':', '='):
            if sep in item:
                name, value = item.split(sep, 1)
                break
        else:
            name, value = item, os.environ.get(item)
            if value is None:
                raise SystemExit("launch: --env %s: no such variable in this environment" % item)
        env[name.strip()] = value
    return env


def _parser():
    parser = argparse.ArgumentParser(description="Launch a distributed MXNet job on MPI.")
    parser.add_argument('-n', '--num-workers', required=True, type=int,
                        help='number of worker processes')
    parser.add_argument('-s', '--num-servers', type=int, default=0,
                        help='number of server processes (default 0)')
    parser.add_argument('-H', '--hostfile', type=str, help='file of hosts, one per line')
    parser.add_argument('--launcher', type=str, default='local',
                        choices=['local', 'mpi', 'ssh'], help='how to start the processes')
    parser.add_argument('--env', action='append', default=[],
                        help='NAME or NAME:VALUE, for every process')
    parser.add_argument('--env-worker', action='append', default=[],
                        help='NAME:VALUE for the workers')
    parser.add_argument('--env-server', action='append', default=[],
                        help='NAME:VALUE for the servers')
    parser.add_argument('--timeout', type=float, default=None,
                        help='seconds a worker waits for the others before the job is aborted')
    parser.add_argument('--sync-dst-dir', type=str, help='accepted for 1.x compatibility')
    parser.add_argument('--mpirun', type=str, default=None, help='the mpirun to use')
    parser.add_argument('command', nargs=argparse.REMAINDER, help='the command to launch')
    return parser


def build_command(args):
    """The mpirun command line for parsed `args` (see _parser)."""
    if args.num_workers < 1:
        raise SystemExit("launch: -n must be at least 1, got %d" % args.num_workers)
    if args.num_servers < 0:
        raise SystemExit("launch: -s must be 0 or more, got %d" % args.num_servers)
    command = list(args.command)
    if command and command[0] == '--':
        command = command[1:]
    if not command:
        raise SystemExit("launch: no command given (e.g. launch.py -n 2 python train.py)")
    # By name: Open MPI treats an absolute mpirun path as --prefix and puts its bin folder first
    # on the processes' PATH (which would change which `python` they run).
    mpirun = args.mpirun or 'mpirun'
    if shutil.which(mpirun) is None:
        raise SystemExit("launch: %s not found: install Open MPI (Debian: openmpi-bin)" % mpirun)
    common = dict(_parse_env(args.env))
    common['DMLC_NUM_WORKER'] = str(args.num_workers)
    common['DMLC_NUM_SERVER'] = str(args.num_servers)
    if args.timeout is not None:
        common['MXNET_KVSTORE_TIMEOUT'] = str(args.timeout)
    if args.launcher != 'local':
        # Local processes inherit this environment; remote ones get where mxnet comes from.
        for name in ('PYTHONPATH', 'MXNET_LIBRARY_PATH', 'LD_LIBRARY_PATH'):
            if name in os.environ and name not in common:
                common[name] = os.environ[name]
    cmd = [mpirun, '--oversubscribe']
    if hasattr(os, 'geteuid') and os.geteuid() == 0:
        cmd.append('--allow-run-as-root')
    if args.launcher == 'local':
        if args.hostfile:
            raise SystemExit("launch: --hostfile needs --launcher mpi or ssh")
        # This machine only, and only over loopback.
        cmd += ['--host', 'localhost:%d' % (args.num_workers + args.num_servers),
                '--mca', 'btl_tcp_if_include', 'lo', '--mca', 'oob_tcp_if_include', 'lo']
    elif args.hostfile:
        cmd += ['--hostfile', args.hostfile]
    if args.launcher == 'ssh':
        cmd += ['--mca', 'plm_rsh_agent', 'ssh']

    def app(count, role, extra):
        env = dict(common)
        env['DMLC_ROLE'] = role
        env.update(_parse_env(extra))
        part = ['-np', str(count)]
        for name in sorted(env):
            part += ['-x', '%s=%s' % (name, env[name])]
        return part + command

    cmd += app(args.num_workers, 'worker', args.env_worker)
    if args.num_servers:
        cmd += [':'] + app(args.num_servers, 'server', args.env_server)
    return cmd


def main(argv=None):
    """Run the job; returns mpirun's exit status."""
    args = _parser().parse_args(argv)
    cmd = build_command(args)
    env = dict(os.environ)
    session_dir = None
    # Concurrent mpiruns share /tmp/ompi.<host>.<uid>: one removing it as it ends can make
    # another's start fail ("A call to mkdir was unable to create the desired directory").
    if args.launcher == 'local' and 'OMPI_MCA_orte_tmpdir_base' not in env:
        session_dir = tempfile.mkdtemp(prefix='mxnet-launch-')
        env['OMPI_MCA_orte_tmpdir_base'] = session_dir
    try:
        proc = subprocess.Popen(cmd, env=env)

        def forward(signum, _frame):
            proc.send_signal(signum)
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, forward)
        return proc.wait()
    finally:
        if session_dir is not None:
            shutil.rmtree(session_dir, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
