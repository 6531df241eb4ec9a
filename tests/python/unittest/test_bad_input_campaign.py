"""The bad-input campaign (tools/bad_input_campaign.py) over every registered operator, both
imperatively and through bound symbols: no probe may crash the (child) process or hang, and
every refusal is a typed error whose message names the operator."""
import json
import os
import subprocess
import sys

import pytest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'tools',
                    'bad_input_campaign.py')


@pytest.mark.parametrize('mode', [[], ['--bind']], ids=['imperative', 'bind'])
def test_no_operator_crashes_or_hangs_on_bad_input(mode):
    proc = subprocess.run([sys.executable, TOOL, '--per-op', '0', '--timeout', '60'] + mode,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1200,
                          check=False)
    out = proc.stdout.decode(errors='replace')
    summary = out.strip().splitlines()[-1]
    assert proc.returncode == 0, out[-4000:]
    for outcome in ('crash', 'hang', 'untyped', 'unnamed'):
        assert outcome not in summary, summary
    # every operator was probed, and most probes were refused with a typed error
    probes = int(summary.split(' probes')[0].split()[-1])
    assert probes > 5000, summary


def test_argument_probes_reach_the_operator(tmp_path):
    """A probe's bad argument arrives at the operator's parser (the harness once passed str
    where the invoke layer takes bytes, so every argument probe failed inside ctypes)."""
    report = tmp_path / 'report.json'
    proc = subprocess.run([sys.executable, TOOL, '--per-op', '0', '--ops', '^Activation$',
                           '--json', str(report)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout.decode(errors='replace')[-2000:]
    probes = {(p['case'], p['param'], p['value']): p for p in json.loads(report.read_text())}
    bad_enum = probes[('param', 'act_type', 'nonsense')]
    assert bad_enum['outcome'] == 'error', bad_enum
    assert "'nonsense'" in bad_enum['detail'] and 'act_type' in bad_enum['detail'], bad_enum
    assert 'Activation' in bad_enum['detail'], bad_enum
