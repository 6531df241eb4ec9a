"""mx.profiler: the trace holds exactly the operators run, inside the wall-clock window, and
the aggregate table counts every call (format and names as MXNet 1.9.1)."""
import json
import re
import time

import numpy as np
import pytest

import mxnet as mx


@pytest.fixture
def trace_file(tmp_path):
    path = str(tmp_path / 'trace.json')
    mx.nd.waitall()
    mx.profiler.set_config(profile_all=True, aggregate_stats=True, filename=path)
    mx.profiler.dumps(reset=True)
    mx.profiler.dump()  # drop events of earlier tests: a dump writes only newer ones
    yield path
    mx.profiler.set_state('stop')
    mx.profiler.dumps(reset=True)


# Engine bookkeeping that MXNet 1.9.1's trace shows as operators too.
ENGINE_INTERNAL = {'WaitForVar', 'DeleteVariable', 'WaitToWrite'}


def _operator_events(path):
    with open(path) as f:
        trace = json.load(f)
    return [e for e in trace['traceEvents'] if e.get('cat') == 'operator']


def _durations(events):
    """(name, start, end, tid) of each B/E pair, matched per thread."""
    open_by_tid, out = {}, []
    for e in events:
        if e['ph'] == 'B':
            assert e['tid'] not in open_by_tid, 'operators on one thread must not overlap'
            open_by_tid[e['tid']] = e
        elif e['ph'] == 'E':
            b = open_by_tid.pop(e['tid'])
            assert b['name'] == e['name']
            out.append((e['name'], b['ts'], e['ts'], e['tid']))
    assert not open_by_tid
    return out


def _run_ops():
    a = mx.nd.ones((16, 16))
    b = a + a
    c = mx.nd.dot(b, b)
    d = mx.nd.relu(c)
    mx.nd.waitall()
    return d


def test_trace_contains_exactly_the_ops_run(trace_file):
    # The trace has whole microseconds of the system clock: compare against exact integer
    # bounds (time.time() * 1e6 is a double whose rounding can land 0.25 us inside).
    t0 = time.time_ns() // 1000
    mx.profiler.set_state('run')
    d = _run_ops()
    mx.profiler.set_state('stop')
    t1 = -(-time.time_ns() // 1000)
    mx.profiler.dump()
    spans = _durations(_operator_events(trace_file))
    names = sorted(s[0] for s in spans if s[0] not in ENGINE_INTERNAL)
    assert names == sorted(['_ones', 'broadcast_add', 'dot', 'relu'])
    assert {s[0] for s in spans} - set(names) <= ENGINE_INTERNAL
    for _, start, end, _ in spans:
        assert t0 <= start <= end <= t1
    # Ops after stop are not recorded; the next dump holds only events after this one.
    _run_ops()
    mx.profiler.dump()
    assert _durations(_operator_events(trace_file)) == []
    expected = np.maximum(np.dot(np.full((16, 16), 2.0), np.full((16, 16), 2.0)), 0)
    np.testing.assert_allclose(d.asnumpy(), expected)


def test_trace_is_chrome_tracing_json(trace_file):
    mx.profiler.set_state('run')
    _run_ops()
    mx.profiler.set_state('stop')
    mx.profiler.dump()
    with open(trace_file) as f:
        trace = json.load(f)
    assert set(trace) >= {'traceEvents'}
    for e in trace['traceEvents']:
        assert {'ph', 'pid', 'name'} <= set(e)
        if e['ph'] != 'M':
            assert isinstance(e['ts'], int) and 'tid' in e and 'cat' in e


def test_aggregate_counts_equal_calls(trace_file):
    mx.profiler.set_state('run')
    x = mx.nd.ones((4, 4))
    for _ in range(7):
        x = mx.nd.relu(x)
    for _ in range(3):
        x = x * 2
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    table = mx.profiler.dumps()
    rows = {}
    section = None
    for line in table.splitlines():
        if line and not line.startswith((' ', '\t', '=', '-', 'Name')) and \
                not re.search(r'\d', line):
            section = line.strip()
        m = re.match(r'^(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$', line)
        if m and section == 'operator':
            rows[m.group(1)] = [int(m.group(2))] + [float(v) for v in m.groups()[2:]]
    assert rows['relu'][0] == 7
    assert rows['_mul_scalar'][0] == 3
    assert rows['_ones'][0] == 1
    for count, total, mn, mx_, avg in rows.values():
        assert 0 <= mn <= avg <= mx_ <= total + 1e-4
        assert abs(avg * count - total) <= 1e-3 * count + 1e-4
    stats = json.loads(mx.profiler.dumps(format='json'))
    assert stats['Time']['operator']['relu']['Count'] == 7
    assert stats['Unit'] == {'Time': 'ms', 'Memory': 'kB'}
    # reset forgets the statistics
    mx.profiler.dumps(reset=True)
    assert 'relu' not in json.loads(mx.profiler.dumps(format='json'))['Time'].get('operator', {})


def test_table_layout_matches_mxnet_191(trace_file):
    mx.profiler.set_state('run')
    mx.nd.ones((2, 2)).wait_to_read()
    mx.profiler.set_state('stop')
    lines = mx.profiler.dumps().split('\n')
    assert lines[:3] == ['', 'Profile Statistics:',
                         '\tNote the difference in units for different entries.']
    i = lines.index('operator')
    assert lines[i + 1] == '================='
    assert lines[i + 2] == ('Name                          Total Count        Time (ms)    '
                            'Min Time (ms)    Max Time (ms)    Avg Time (ms)')
    row = [l for l in lines if l.startswith('_ones')][0]
    # name left in 25 columns, count right in 16, then four 17-wide times with 4 decimals
    assert re.match(r'^_ones {20} {15}1( {1,16}\d+\.\d{4}){4}$', row)
    assert len(row) == 25 + 16 + 4 * 17


def test_sort_by_and_bad_arguments(trace_file):
    mx.profiler.set_state('run')
    xs = [mx.nd.ones((2, 2))]
    for _ in range(9):  # keep every array: no DeleteVariable runs interleave
        xs.append(mx.nd.relu(xs[-1]))
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    for ascending in (False, True):
        table = mx.profiler.dumps(sort_by='count', ascending=ascending)
        op_rows = [r for r in table.split('operator\n')[1].split('\n')[3:] if r]
        counts = [int(r[25:41]) for r in op_rows]
        assert counts == sorted(counts, reverse=not ascending)
        assert op_rows[-1 if ascending else 0].startswith('relu ')
    with pytest.raises(ValueError):
        mx.profiler.dumps(sort_by='median')
    with pytest.raises(ValueError):
        mx.profiler.dumps(format='xml')
    with pytest.raises(mx.MXNetError, match='unknown argument'):
        mx.profiler.set_config(profile_everything=True)
    with pytest.raises(ValueError):
        mx.profiler.set_state('go')


def test_pause_resume(trace_file):
    mx.profiler.set_state('run')
    mx.nd.ones((2, 2)).wait_to_read()
    mx.profiler.pause()
    x = mx.nd.zeros((2, 2))
    mx.nd.relu(x).wait_to_read()
    mx.profiler.resume()
    mx.nd.sigmoid(x).wait_to_read()
    mx.profiler.set_state('stop')
    mx.profiler.dump()
    names = {s[0] for s in _durations(_operator_events(trace_file))}
    assert 'relu' not in names and '_zeros' not in names
    assert {'_ones', 'sigmoid'} <= names


def test_symbolic_executor_ops_recorded(trace_file):
    data = mx.sym.var('data')
    net = mx.sym.FullyConnected(data, num_hidden=3, name='fc')
    net = mx.sym.Activation(net, act_type='relu', name='act')
    exe = net.simple_bind(mx.cpu(), data=(2, 4))
    mx.profiler.set_state('run')
    for _ in range(2):
        exe.forward(is_train=False)
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    stats = json.loads(mx.profiler.dumps(format='json'))['Time']['operator']
    assert stats['FullyConnected']['Count'] == 2
    assert stats['Activation']['Count'] == 2


def test_domain_objects_in_trace(trace_file):
    mx.profiler.set_state('run')
    dom = mx.profiler.Domain('mydom')
    task = dom.new_task('mytask')
    t0 = time.time_ns() // 1000
    task.start()
    frame = dom.new_frame('myframe')
    frame.start()
    frame.stop()
    task.stop()
    t1 = -(-time.time_ns() // 1000)
    ev = mx.profiler.Event('myevent')
    with ev:
        pass
    counter = dom.new_counter('mycounter', 5)
    counter += 3
    counter.decrement(2)
    dom.new_marker('mymarker').mark()
    mx.profiler.set_state('stop')
    mx.profiler.dump()
    with open(trace_file) as f:
        events = json.load(f)['traceEvents']
    by_name = {}
    for e in events:
        by_name.setdefault(e['name'], []).append(e)
    (task_ev,) = by_name['mytask']
    (frame_ev,) = by_name['myframe']
    assert task_ev['cat'] == 'mydom' and frame_ev['cat'] == 'mydom,frame'
    assert t0 <= task_ev['ts'] <= frame_ev['ts']
    assert frame_ev['ts'] + frame_ev['dur'] <= task_ev['ts'] + task_ev['dur'] <= t1
    assert by_name['myevent'][0]['cat'] == 'event'
    assert [e['args']['mycounter'] for e in by_name['mycounter']] == [5, 8, 6]
    assert by_name['mymarker'][0]['cat'] == 'mydom,instant_marker'
    stats = json.loads(mx.profiler.dumps(format='json'))['Time']
    assert stats['mydom']['mytask']['Count'] == 1
    assert stats['mydom,frame']['myframe']['Count'] == 1
    with pytest.raises(mx.MXNetError, match='not started'):
        dom.new_task('never').stop()


def test_dumps_empty_without_aggregate_stats(trace_file):
    # MXNet 1.9.1 returns '' when aggregate_stats is off.
    mx.profiler.set_config(aggregate_stats=False)
    try:
        mx.profiler.set_state('run')
        mx.nd.ones((2, 2)).wait_to_read()
        mx.profiler.set_state('stop')
        assert mx.profiler.dumps() == ''
    finally:
        mx.profiler.set_config(aggregate_stats=True)


def test_memory_counter_tracks_allocated_bytes(trace_file):
    mx.profiler.set_state('run')
    keep = [mx.nd.ones((10, 10)), mx.nd.ones((5, 5), dtype='float64'),
            mx.nd.zeros((3,), dtype='int32')]
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    mx.profiler.dump()
    with open(trace_file) as f:
        events = [e for e in json.load(f)['traceEvents']
                  if e.get('cat') == 'Device Storage' and e['ph'] == 'C']
    assert [e['args']['Memory: cpu/0'] for e in events] == [400, 600, 612]
    stats = json.loads(mx.profiler.dumps(format='json'))['Memory']['Device Storage']
    # (max - min) / 2 is what MXNet 1.9.1 prints as the average use
    assert stats['Memory: cpu/0'] == {'Count': 3, 'Min': 0.4, 'Max': 0.612, 'Avg': 0.106}
    table = mx.profiler.dumps()
    assert ('Name                          Total Count    Min Use  (kB)    Max Use  (kB)    '
            'Avg Use  (kB)') in table
    assert 'Memory: cpu/0                           3           0.4000           0.6120' \
        '           0.1060' in table
    del keep


def test_api_calls_counted(trace_file):
    mx.profiler.set_state('run')
    x = mx.nd.ones((3, 3))
    ys = [mx.nd.relu(x) for _ in range(5)]
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    stats = json.loads(mx.profiler.dumps(format='json'))['Time']
    assert stats['MXNET_C_API']['MXImperativeInvokeEx']['Count'] == 6
    # waitall waits in 100 ms slices (so Ctrl-C can interrupt it): one slice here
    assert stats['MXNET_C_API']['MXNDArrayWaitAllFor']['Count'] == 1
    # the profiler's own calls are not recorded (as 1.9.1)
    assert not any(name.startswith(('MXSetProcessProfiler', 'MXAggregate'))
                   for name in stats['MXNET_C_API'])
    mx.profiler.dumps(reset=True)
    mx.profiler.set_config(profile_all=False, profile_api=False)
    try:
        mx.profiler.set_state('run')
        mx.nd.relu(x).wait_to_read()
        mx.profiler.set_state('stop')
        stats = json.loads(mx.profiler.dumps(format='json'))['Time']
        assert 'MXNET_C_API' not in stats
        assert stats['operator']['relu']['Count'] == 1
    finally:
        mx.profiler.set_config(profile_all=True)
    del ys
