"""Profiler: record engine operators and user-defined ranges, dump them for chrome://tracing.

    mx.profiler.set_config(profile_all=True, aggregate_stats=True, filename='trace.json')
    mx.profiler.set_state('run')
    ...                                  # run operators
    mx.nd.waitall()
    mx.profiler.set_state('stop')
    print(mx.profiler.dumps())           # per-operator count / total / min / max / avg (ms)
    mx.profiler.dump()                   # Chrome tracing JSON in `filename`
"""
import ctypes

from .base import _LIB, check_call, c_str, c_str_array, py_str, KVStoreHandle

ProfileHandle = ctypes.c_void_p

__all__ = ['set_config', 'set_state', 'dump', 'dumps', 'pause', 'resume', 'Domain', 'Task',
           'Frame', 'Event', 'Counter', 'Marker', 'profiler_set_config', 'profiler_set_state',
           'dump_profile', 'set_kvstore_handle']

profiler_kvstore_handle = KVStoreHandle()

_STATES = {'stop': 0, 'run': 1}
_PROCESSES = {'worker': 0, 'server': 1}
_FORMATS = {'table': 0, 'json': 1}
_SORT_KEYS = {'total': 0, 'avg': 1, 'min': 2, 'max': 3, 'count': 4}


def _process_code(profile_process):
    if profile_process not in _PROCESSES:
        raise ValueError("profile_process must be 'worker' or 'server', got %r" % (profile_process,))
    return _PROCESSES[profile_process]


def set_kvstore_handle(handle):
    """Kvstore used to reach a server process when profile_process='server'."""
    global profiler_kvstore_handle
    profiler_kvstore_handle = handle


def set_config(**kwargs):
    """Configure the profiler (keyword arguments only).

    Parameters
    ----------
    filename : str, output file of `dump` (default 'profile.json')
    profile_all : bool, record everything
    profile_symbolic, profile_imperative, profile_memory, profile_api : bool
        what to record (each defaults to True)
    aggregate_stats : bool, keep statistics for `dumps`
    continuous_dump : bool, dump_period : float, accepted for compatibility
    profile_process : 'worker' (default) or 'server'
    """
    keys = list(kwargs.keys())
    vals = [str(kwargs[k]) for k in keys]
    check_call(_LIB.MXSetProcessProfilerConfig(len(keys), c_str_array(keys), c_str_array(vals),
                                               profiler_kvstore_handle))


def profiler_set_config(mode='symbolic', filename='profile.json'):
    """Deprecated: use set_config. mode is 'symbolic' or 'all'."""
    if mode not in ('symbolic', 'all'):
        raise ValueError("mode must be 'symbolic' or 'all', got %r" % (mode,))
    set_config(profile_symbolic=True, profile_all=(mode == 'all'), filename=filename)


def set_state(state='stop', profile_process='worker'):
    """Start ('run') or stop ('stop') recording."""
    if state not in _STATES:
        raise ValueError("state must be 'run' or 'stop', got %r" % (state,))
    check_call(_LIB.MXSetProcessProfilerState(ctypes.c_int(_STATES[state]),
                                              _process_code(profile_process),
                                              profiler_kvstore_handle))


def profiler_set_state(state='stop'):
    """Deprecated: use set_state."""
    set_state(state)


def dump(finished=True, profile_process='worker'):
    """Write the recorded events to the configured file as Chrome tracing JSON."""
    check_call(_LIB.MXDumpProcessProfile(ctypes.c_int(1 if finished else 0),
                                         _process_code(profile_process),
                                         profiler_kvstore_handle))


def dump_profile():
    """Deprecated: use dump."""
    dump(True)


def dumps(reset=False, format='table', sort_by='total', ascending=False):  # noqa: A002
    """Aggregate statistics (count, total/min/max/avg time in ms) per category and name.

    Parameters
    ----------
    reset : bool, forget the statistics gathered so far after printing them
    format : 'table' or 'json'
    sort_by : 'total', 'avg', 'min', 'max' or 'count' (table rows)
    ascending : bool
    """
    if format not in _FORMATS:
        raise ValueError("Invalid value provided for format: {0}. Support: 'table', 'json'"
                         .format(format))
    if sort_by not in _SORT_KEYS:
        raise ValueError("Invalid value provided for sort_by: {0}. Support: 'total', 'avg', "
                         "'min', 'max', 'count'".format(sort_by))
    if not isinstance(ascending, bool):
        raise ValueError("Invalid value provided for ascending: {0}. Support: False, True"
                         .format(ascending))
    out = ctypes.c_char_p()
    check_call(_LIB.MXAggregateProfileStatsPrintEx(ctypes.byref(out), int(bool(reset)),
                                                   _FORMATS[format], _SORT_KEYS[sort_by],
                                                   int(ascending)))
    return py_str(out.value)


def pause(profile_process='worker'):
    """Stop recording without ending the session (see resume)."""
    check_call(_LIB.MXProcessProfilePause(ctypes.c_int(1), _process_code(profile_process),
                                          profiler_kvstore_handle))


def resume(profile_process='worker'):
    """Resume recording after pause."""
    check_call(_LIB.MXProcessProfilePause(ctypes.c_int(0), _process_code(profile_process),
                                          profiler_kvstore_handle))


class Domain(object):
    """A named group of tasks, frames, counters and markers (a category of the trace)."""

    def __init__(self, name):
        self.name = name
        self.handle = ProfileHandle()
        check_call(_LIB.MXProfileCreateDomain(c_str(self.name), ctypes.byref(self.handle)))

    def __del__(self):
        # Tasks, frames and counters copy the domain's name: they outlive it safely.
        if self.handle is not None and _LIB is not None:
            check_call(_LIB.MXProfileDestroyHandle(self.handle))
            self.handle = None

    def __str__(self):
        return self.name

    def new_task(self, name):
        return Task(self, name)

    def new_frame(self, name):
        return Frame(self, name)

    def new_counter(self, name, value=None):
        return Counter(self, name, value)

    def new_marker(self, name):
        return Marker(self, name)


class _Duration(object):
    """Shared start/stop of Task, Frame and Event (a handle made by a subclass)."""
    handle = None
    name = ''

    def __del__(self):
        if self.handle is not None and _LIB is not None:
            check_call(_LIB.MXProfileDestroyHandle(self.handle))
            self.handle = None

    def start(self):
        check_call(_LIB.MXProfileDurationStart(self.handle))

    def stop(self):
        check_call(_LIB.MXProfileDurationStop(self.handle))

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *args):
        self.stop()

    def __str__(self):
        return self.name


class Task(_Duration):
    """A timed range within a domain."""

    def __init__(self, domain, name):
        self.name = name
        self.domain = domain
        self.handle = ProfileHandle()
        check_call(_LIB.MXProfileCreateTask(domain.handle, c_str(self.name),
                                            ctypes.byref(self.handle)))


class Frame(_Duration):
    """A timed range within a domain, e.g. one iteration (category '<domain>,frame')."""

    def __init__(self, domain, name):
        self.name = name
        self.domain = domain
        self.handle = ProfileHandle()
        check_call(_LIB.MXProfileCreateFrame(domain.handle, c_str(self.name),
                                             ctypes.byref(self.handle)))


class Event(_Duration):
    """A timed range outside any domain (category 'event')."""

    def __init__(self, name):
        self.name = name
        self.handle = ProfileHandle()
        check_call(_LIB.MXProfileCreateEvent(c_str(self.name), ctypes.byref(self.handle)))


class Counter(object):
    """An integer value tracked over time in a domain."""

    def __init__(self, domain, name, value=None):
        self.name = name
        self.domain = domain
        self.handle = ProfileHandle()
        check_call(_LIB.MXProfileCreateCounter(domain.handle, c_str(name),
                                               ctypes.byref(self.handle)))
        if value is not None:
            self.set_value(value)

    def __del__(self):
        if self.handle is not None and _LIB is not None:
            check_call(_LIB.MXProfileDestroyHandle(self.handle))
            self.handle = None

    def set_value(self, value):
        check_call(_LIB.MXProfileSetCounter(self.handle, ctypes.c_uint64(int(value))))

    def increment(self, delta=1):
        check_call(_LIB.MXProfileAdjustCounter(self.handle, ctypes.c_int64(int(delta))))

    def decrement(self, delta=1):
        check_call(_LIB.MXProfileAdjustCounter(self.handle, ctypes.c_int64(-int(delta))))

    def __iadd__(self, delta):
        self.increment(delta)
        return self

    def __isub__(self, delta):
        self.decrement(delta)
        return self

    def __str__(self):
        return self.name


class Marker(object):
    """An instant event in a domain (category '<domain>,instant_marker')."""

    def __init__(self, domain, name):
        self.name = name
        self.domain = domain

    def mark(self, scope='process'):
        """scope: 'global', 'process', 'thread', 'task' or 'marker'."""
        check_call(_LIB.MXProfileSetMarker(self.domain.handle, c_str(self.name), c_str(scope)))
