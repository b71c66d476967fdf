#!/usr/bin/env python3
"""Measure whether two engines of a match use the CPU at the same time.

Usage: scripts/engine-cpu-overlap.py PREFIX_A PREFIX_B STOPFILE

Every 2 ms it reads the CPU time of all threads of the processes whose
command lines (or those with the program's directory dropped) begin with PREFIX_A and PREFIX_B (/proc/PID/task/*/schedstat,
in ns; a process that ends is looked up again, so engines restarted per
game are followed), until STOPFILE exists. It prints each engine's CPU
time and the CPU time spent in 2 ms slices in which both ran (an engine
working while the other thinks). Run it on another core than the match,
e.g. for Tori shogi against Fairy-Stockfish:

    scripts/engine-cpu-overlap.py 'taifu xboard' '/path/to/fairy-stockfish ' stop &
    taskset -c 0 taifu match ... ; touch stop
"""
import glob
import os
import sys
import time


def find(prefix):
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            cmd = open(f'/proc/{p}/cmdline', 'rb').read().replace(b'\0', b' ').decode()
        except OSError:
            continue
        # the command line as given, or with its program's directory dropped
        prog, _, rest = cmd.partition(' ')
        if cmd.startswith(prefix) or (os.path.basename(prog) + ' ' + rest).startswith(prefix):
            return int(p)
    return None


def cpu(pid):
    total, ok = 0, False
    for f in glob.glob(f'/proc/{pid}/task/*/schedstat'):
        try:
            total += int(open(f).read().split()[0])
            ok = True
        except (OSError, ValueError, IndexError):
            pass
    return total if ok else None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2])
    pa, pb, stop = sys.argv[1:]
    tot, both, n, t0 = [0, 0], 0, 0, time.time()
    a = b = None
    ca = cb = 0
    while not os.path.exists(stop):
        time.sleep(0.002)
        na = cpu(a) if a else None
        if na is None:
            a = find(pa)
            ca = cpu(a) if a else 0
            continue
        nb = cpu(b) if b else None
        if nb is None:
            b = find(pb)
            cb = cpu(b) if b else 0
            continue
        da, db = na - ca, nb - cb
        ca, cb = na, nb
        tot[0] += da
        tot[1] += db
        n += 1
        if da > 100_000 and db > 100_000:
            both += min(da, db)
    print(f'{time.time() - t0:.1f} s wall: {pa!r} {tot[0] / 1e9:.2f} s cpu, {pb!r} {tot[1] / 1e9:.2f} s cpu; '
          f'both over 0.1 ms in the same 2 ms slice: {both / 1e9:.2f} s ({n} slices)')


if __name__ == '__main__':
    main()
