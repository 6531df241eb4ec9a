#!/usr/bin/env python3
"""Lists the slowest compile units of a ninja build, from its .ninja_log.

    python3 tools/build_times.py                     # build/.ninja_log, 15 slowest, limit 60 s
    python3 tools/build_times.py out/.ninja_log -n 30 --limit 40

Exits 1, naming the units, when any unit took longer than --limit seconds (2 when the log
cannot be read). A rebuilt output appears in the log once per build; only its last entry
counts. Outputs of deleted sources stay listed until `ninja -t cleandead` and
`ninja -t recompact` drop them. The times are wall-clock, so they depend on how many jobs ran
alongside (ninja -j).
"""
import argparse
import sys


def read_log(path):
    """Returns {output: seconds} from a ninja log (format v5 to v7), last entry per output."""
    with open(path) as f:
        header = f.readline().strip()
        if not header.startswith("# ninja log v"):
            raise ValueError("%s: not a ninja log (first line %r)" % (path, header))
        times = {}
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 4:
                continue
            start_ms, end_ms, output = int(fields[0]), int(fields[1]), fields[3]
            times.pop(output, None)  # re-insert, so the order follows the last build
            times[output] = (end_ms - start_ms) / 1000.0
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", nargs="?", default="build/.ninja_log",
                        help="the .ninja_log to read (default: build/.ninja_log)")
    parser.add_argument("-n", "--top", type=int, default=15,
                        help="how many of the slowest units to print (default: 15)")
    parser.add_argument("--limit", type=float, default=60.0,
                        help="fail when a unit took longer than this many seconds (default: 60)")
    args = parser.parse_args(argv)

    try:
        times = read_log(args.log)
    except (OSError, ValueError) as e:
        print("build_times: %s" % e, file=sys.stderr)
        return 2
    ranked = sorted(times.items(), key=lambda kv: kv[1], reverse=True)
    for output, seconds in ranked[:args.top]:
        print("%8.1f s  %s" % (seconds, output))
    print("%8.1f s  total over %d outputs (sum, not wall-clock)"
          % (sum(times.values()), len(times)))

    slow = [(o, s) for o, s in ranked if s > args.limit]
    if slow:
        print("build_times: %d unit(s) took longer than %g s: %s"
              % (len(slow), args.limit, ", ".join("%s (%.1f s)" % kv for kv in slow)),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
