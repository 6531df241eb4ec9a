"""Shared by the soak scripts: resource counters of this process, periodic samples after a
warm-up, a least-squares slope of RSS against the step, a summary table and the verdict."""
import os

import numpy as np


def usage():
    """(resident KiB, open file descriptors, threads) of this process, from /proc/self."""
    with open('/proc/self/statm') as f:
        rss_pages = int(f.read().split()[1])
    return (rss_pages * os.sysconf('SC_PAGE_SIZE') // 1024, len(os.listdir('/proc/self/fd')),
            len(os.listdir('/proc/self/task')))


class Samples(object):
    """Resource samples of one workload, taken every `every` steps once `warmup` steps ran."""

    def __init__(self, name, warmup, every):
        self.name, self.warmup, self.every = name, warmup, every
        self.steps, self.rss, self.fds, self.threads = [], [], [], []

    def maybe_sample(self, step, sync=None):
        """Sample after step `step` (0-based) when it is due; `sync` runs first (waitall)."""
        done = step + 1
        if done < self.warmup or (done - self.warmup) % self.every:
            return
        if sync is not None:
            sync()
        rss, fds, threads = usage()
        self.steps.append(done)
        self.rss.append(rss)
        self.fds.append(fds)
        self.threads.append(threads)

    def slope_kib_per_1000(self):
        """Least-squares slope of RSS (KiB) against the step, per 1,000 steps."""
        if len(self.steps) < 2:
            return float('nan')
        return float(np.polyfit(np.asarray(self.steps, dtype=np.float64),
                                np.asarray(self.rss, dtype=np.float64), 1)[0]) * 1000

    def summary(self):
        """A dict of the figures the table shows. fds and threads are (highest in the first
        half of the samples, highest in the second half): threads and pipes that are let go
        lazily (a finished loader's) make single samples noisy, a leak raises the ceiling."""
        half = len(self.steps) // 2

        def halves(values):
            return (max(values[:half]), max(values[half:])) if half else (0, 0)
        return dict(name=self.name, samples=len(self.steps),
                    rss_first=self.rss[0] if self.rss else 0,
                    rss_last=self.rss[-1] if self.rss else 0,
                    slope=self.slope_kib_per_1000(),
                    fds=halves(self.fds), threads=halves(self.threads))


def report(all_samples, max_slope, unit='steps', extra_threads=0):
    """Print the table; return the list of failures (empty when every workload is steady).

    A workload fails when its RSS slope exceeds `max_slope` KiB per 1,000 `unit`, or when the
    most open file descriptors or threads seen in the second half of the samples exceed the
    most seen in the first half (threads by more than `extra_threads`)."""
    head = '%-22s %7s %10s %10s %16s %9s %9s' % (
        'workload', 'samples', 'RSS first', 'RSS last', 'KiB/1000 ' + unit, 'fds', 'threads')
    print(head)
    print('-' * len(head))
    failures = []
    for s in all_samples:
        d = s.summary()
        print('%-22s %7d %7d KiB %6d KiB %16.1f %4d->%-4d %4d->%-4d' % (
            d['name'], d['samples'], d['rss_first'], d['rss_last'], d['slope'],
            d['fds'][0], d['fds'][1], d['threads'][0], d['threads'][1]))
        if d['samples'] < 2:
            failures.append('%s: fewer than 2 samples (more steps than the warm-up needed)'
                            % d['name'])
            continue
        if d['slope'] > max_slope:
            failures.append('%s: RSS grows %.1f KiB per 1,000 %s (limit %.1f)'
                            % (d['name'], d['slope'], unit, max_slope))
        if d['fds'][1] > d['fds'][0]:
            failures.append('%s: open fds grew %d -> %d' % (d['name'], d['fds'][0], d['fds'][1]))
        if d['threads'][1] > d['threads'][0] + extra_threads:
            failures.append('%s: threads grew %d -> %d'
                            % (d['name'], d['threads'][0], d['threads'][1]))
    for f in failures:
        print('FAIL ' + f)
    if not failures:
        print('OK: no workload grew beyond the limits')
    return failures
