#!/usr/bin/env python3
"""The bad-input campaign: every registered operator, called imperatively and through a bound
symbol (--bind) with generated
invalid inputs (zero-size, 0-d and high-rank arrays, mismatched shapes, other dtypes) and
invalid arguments (negative, zero, huge, malformed, unknown enum values). Each probe runs in a child
process, so a crash is observed, not suffered:

    python3 tools/bad_input_campaign.py [--ops REGEX] [--per-op N] [--json report.json]

Outcome of a probe: 'ok' (it ran), 'error' (a typed MXNetError or a Python TypeError /
ValueError naming the operator), 'unnamed' (a typed error whose message does not name the
operator), 'untyped' (another exception), 'crash' (the child died of a signal) or 'hang' (no
answer within --timeout seconds). Exits 1 on any outcome but 'ok' and 'error'.
"""
import argparse
import json
import os
import re
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

BAD_VALUES = ['-1', '0', '1000000000000', 'nonsense', '(-3, -3)', '(2, 0)', '']
BIND = False  # set in the child by --bind

INPUT_CASES = ['zero_size', 'scalar', 'high_rank', 'mismatched', 'int8', 'float16']


def probes_for(info, per_op):
    """[(op, case, param or None, value or None)] for one operator's OpInfo."""
    out = [(info.name, case, None, None) for case in INPUT_CASES]
    params = [n for n, t in zip(info.arg_names, info.arg_types)
              if 'NDArray' not in t and n != info.key_var_num_args]
    for name in params:
        for value in BAD_VALUES:
            out.append((info.name, 'param', name, value))
    # Spread the budget over input cases and parameters.
    if per_op and len(out) > per_op:
        step = len(out) / float(per_op)
        out = [out[int(i * step)] for i in range(per_op)]
    return out


# The namespace prefixes of registered names ('_contrib_box_nms' is mx.nd.contrib.box_nms).
_PREFIX = re.compile(r'^_*(contrib_|npi_|npx_|np_|image_|random_|sample_|linalg_|sparse_)?')


def names_operator(op, message):
    """Whether an error message names operator `op` (registered or Python-side name; the
    names bind gives an operator's unnamed inputs are its lower-cased name plus a number)."""
    short = _PREFIX.sub('', op, count=1)
    return (op in message or short in message or
            re.search(re.escape(op.lower()) + r'\d+_', message.lower()) is not None)


def run_probe(mx, info, case, param, value):
    """Runs one probe in this (child) process; returns its outcome."""
    import numpy as np
    from mxnet.ndarray._invoke import imperative_invoke
    n_in = sum('NDArray' in t for t in info.arg_types)
    variadic = bool(info.key_var_num_args)
    if variadic:
        n_in = 2
    n_in = max(n_in, 1) if info.arg_types else n_in
    shapes = {'zero_size': [(0, 3)] * n_in, 'scalar': [()] * n_in,
              'high_rank': [(1, 1, 1, 1, 1, 1, 2)] * n_in,
              'mismatched': [(2, 3), (4, 5, 6)] * n_in,
              'int8': [(2, 3)] * n_in, 'float16': [(2, 3)] * n_in,
              'param': [(2, 3)] * n_in}[case][:n_in]
    dtype = {'int8': 'int8', 'float16': 'float16'}.get(case, 'float32')
    inputs = [mx.nd.array(np.random.RandomState(0).uniform(-1, 1, s), dtype=dtype)
              for s in shapes]
    keys, vals = [], []
    if variadic:
        keys.append(info.key_var_num_args)
        vals.append(str(len(inputs)))
    if param is not None:
        keys.append(param)
        vals.append(value)
    if BIND:
        from mxnet.symbol import _internal as sym_internal, op as sym_op
        make = getattr(sym_op, info.name, None) or getattr(sym_internal, info.name)
        args = [mx.sym.var('x%d' % i) for i in range(len(inputs))]
        sym = make(*args, **dict(zip(keys, vals)))
        given = {'x%d' % i: a for i, a in enumerate(inputs)}
        aux = set(sym.list_auxiliary_states())
        exe = sym.bind(mx.cpu(), {k: v for k, v in given.items() if k not in aux},
                       aux_states={k: v for k, v in given.items() if k in aux})
        outs = exe.forward(is_train=False)
    else:
        handle = mx.base.op_handle(info.name)
        # The invoke layer takes the C strings as bytes, as the generated functions pass them.
        outs = imperative_invoke(handle, inputs, [k.encode() for k in keys],
                                 [v.encode() for v in vals], None, output_is_list=True)
    for o in outs:
        o.wait_to_read()
    mx.nd.waitall()
    return 'ok'


def child_main(bind):
    """Reads probes (JSON lines) on stdin; answers BEGIN/END lines on stdout."""
    global BIND  # pylint: disable=global-statement
    BIND = bind
    import mxnet as mx
    for line in sys.stdin:
        op, case, param, value = json.loads(line)
        print('BEGIN', flush=True)
        try:
            info = mx.base.op_info(mx.base.op_handle(op))
            outcome = run_probe(mx, info, case, param, value)
            detail = ''
        except (mx.base.MXNetError, TypeError, ValueError, IndexError, NotImplementedError,
                AttributeError, KeyError) as err:
            outcome = 'error' if names_operator(op, str(err)) else 'unnamed'
            detail = '%s: %s' % (type(err).__name__, str(err)[:300])
        except Exception as err:  # pylint: disable=broad-except
            outcome, detail = 'untyped', '%s: %s' % (type(err).__name__, str(err)[:200])
        print('END ' + json.dumps([outcome, detail]), flush=True)


class Child(object):
    """A child process running probes until it dies."""

    def __init__(self, env, bind):
        self.pending = b''
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--child'] +
                                     (['--bind'] if bind else []),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if os.environ.get("CAMPAIGN_DEBUG") else subprocess.DEVNULL, env=env)

    def ask(self, probe, timeout):
        """The probe's (outcome, detail)."""
        try:
            self.proc.stdin.write((json.dumps(probe) + '\n').encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            return 'crash', 'the child had already died'
        deadline = time.time() + timeout
        fd = self.proc.stdout.fileno()
        while True:
            # Lines already read from the pipe first: select() only sees the pipe itself.
            while b'\n' in self.pending:
                line, self.pending = self.pending.split(b'\n', 1)
                if line.startswith(b'END '):
                    return tuple(json.loads(line[4:].decode(errors='replace')))
            left = deadline - time.time()
            if not select.select([fd], [], [], max(left, 0))[0]:
                self.proc.kill()
                self.proc.wait()
                return 'hang', 'no answer in %g s' % timeout
            chunk = os.read(fd, 65536)
            if not chunk:
                status = self.proc.wait()
                return 'crash', 'exit status %d' % status
            self.pending += chunk

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        if self.alive():
            self.proc.stdin.close()
            self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--ops', default='.*', help='regex of operator names to probe')
    parser.add_argument('--per-op', type=int, default=12, help='probes per operator (0: all)')
    parser.add_argument('--timeout', type=float, default=30, help='seconds per probe')
    parser.add_argument('--json', help='write every probe and its outcome here')
    parser.add_argument('--bind', action='store_true',
                        help='build each call as a symbol, bind and run it forward')
    parser.add_argument('--child', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(args.bind)
        return 0
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([os.path.join(HERE, '..', 'python'),
                                         env.get('PYTHONPATH', '')])
    sys.path.insert(0, os.path.join(HERE, '..', 'python'))
    import mxnet as mx
    pattern = re.compile(args.ops)
    names = sorted(n for n in mx.operator.get_all_registered_operators() if pattern.match(n))
    # Operators that need a registration of the caller's (a Python CustomOp) are skipped.
    names = [n for n in names if n not in ('Custom', '_CustomFunction')]
    probes = []
    seen = set()
    for name in names:
        try:
            info = mx.base.op_info(mx.base.op_handle(name))
        except mx.base.MXNetError:  # a Python-side name, not a registered operator
            continue
        if info.name in seen:  # aliases share one operator
            continue
        seen.add(info.name)
        probes.extend(probes_for(info, args.per_op))
    counts = {}
    report = []
    child = Child(env, args.bind)
    start = time.time()
    for probe in probes:
        if not child.alive():
            child = Child(env, args.bind)
        outcome, detail = child.ask(list(probe), args.timeout)
        counts[outcome] = counts.get(outcome, 0) + 1
        report.append({'op': probe[0], 'case': probe[1], 'param': probe[2], 'value': probe[3],
                       'outcome': outcome, 'detail': detail})
        if outcome in ('crash', 'hang', 'untyped', 'unnamed'):
            print('%-7s %s %s %s=%r: %s' % (outcome.upper(), probe[0], probe[1], probe[2],
                                              probe[3], detail), flush=True)
    child.close()
    print('%s: %d operators, %d probes in %.0f s: %s' % (
        'bound symbols' if args.bind else 'imperative', len(seen), len(probes), time.time() - start,
        ', '.join('%s %d' % (k, counts[k]) for k in sorted(counts))))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(report, f, indent=1)
    return 1 if set(counts) - {'ok', 'error'} else 0


if __name__ == '__main__':
    sys.exit(main())
