#!/usr/bin/env python3
"""Times the engine build of two `searchlight-bench` binaries against each other, in pairs.

The build figure is one number per process, so a comparison needs many runs. As in `compare_pairs.py`, with
CONCURRENT=1 the two binaries of a pair run at once, each pinned to a core (`taskset`), the cores swapped every pair,
so the machine's phases hit both alike; run a comparison in both orders and average, since the order has moved
results by several percent here (BENCHMARKS.md section AP).

    CONCURRENT=1 Benchmarks/Scripts/compare_builds.py PAIRS OLD/searchlight-bench NEW/searchlight-bench [bench flags]

Per binary it prints the build's thread-CPU seconds (`build_cpu_s`, the one thread that builds) of every run, their
median, and in how many pairs B built in less. Environment: CORPUS (default /tmp/debian-en.jsonl, the decompressed
debian-en corpus), QUERIES (default: a one-line workload written to a temporary file).
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

pairs, A, B = int(sys.argv[1]), sys.argv[2], sys.argv[3]
extra = sys.argv[4:]
corpus = os.environ.get('CORPUS', '/tmp/debian-en.jsonl')
concurrent = os.environ.get('CONCURRENT') == '1'
queries = os.environ.get('QUERIES')
if not queries:
    handle, queries = tempfile.mkstemp(suffix='.tsv')
    with os.fdopen(handle, 'w') as out:
        out.write('term\tlibrary\n')

runs = {A: [], B: []}
wins = 0
for i in range(pairs):
    procs = {}
    for position, binary in enumerate((A, B)):
        pin = ['taskset', '-c', str((i + position) % 2)] if concurrent else []
        procs[binary] = subprocess.Popen(
            pin + [binary, '--corpus', corpus, '--queries', queries, '--engines', 'searchlight', '--rounds', '1',
                   '--json'] + extra, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not concurrent:
            procs[binary].wait()
    seconds = {}
    for binary in (A, B):
        for line in procs[binary].communicate()[0].splitlines():
            m = re.search(r'"build_cpu_s": ([\d.]+)', line)
            if m:
                seconds[binary] = float(m.group(1))
        runs[binary].append(seconds[binary])
    wins += seconds[B] < seconds[A]
    print(f'pair {i + 1}: A {seconds[A]:.3f} s  B {seconds[B]:.3f} s', flush=True)

for label, binary in (('A', A), ('B', B)):
    print(f'{label} {binary}: median {statistics.median(runs[binary]):.3f} s, '
          f'min {min(runs[binary]):.3f}, runs {" ".join(f"{s:.3f}" for s in runs[binary])}')
change = statistics.median(runs[B]) / statistics.median(runs[A]) - 1
print(f'B built in less thread-CPU time in {wins} of {pairs} pairs; medians {100 * change:+.1f}%')
