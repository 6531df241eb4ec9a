"""The bad-input campaign (tools/bad_input_campaign.py) over every registered operator, both
imperatively and through bound symbols: no probe may crash the (child) process or hang."""
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
    assert 'crash' not in summary and 'hang' not in summary, summary
    # every operator was probed, and most probes were refused with a typed error
    probes = int(summary.split(' probes')[0].split()[-1])
    assert probes > 5000, summary
