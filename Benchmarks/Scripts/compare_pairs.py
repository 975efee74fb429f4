#!/usr/bin/env python3
"""Times two builds of `searchlight-bench` against each other on one workload, in pairs.

This machine's speed drifts by tens of percent within minutes, so a comparison runs the two binaries in pairs and
compares, per query, the best timed run each binary had over all pairs ("summed": the sum of those bests). With
CONCURRENT=1 the two binaries of a pair run at once, each pinned to a core (`taskset`), the cores swapped every
pair, so the machine's phases hit both alike. Even so the order of the two moved results by 4-10% either way here
(BENCHMARKS.md section AP), so run a comparison in both orders and average.

    CONCURRENT=1 Benchmarks/Scripts/compare_pairs.py QUERIES.tsv PAIRS OLD/searchlight-bench NEW/searchlight-bench [bench flags]

Environment: CORPUS (default /tmp/debian-en.jsonl, the decompressed debian-en corpus), WATCH (phrases to report
one by one, separated by `|`, quotes included as the bench prints them: WATCH='"for the"|"can used"').
"""
import os
import re
import subprocess
import sys

queries, pairs, A, B = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
extra = sys.argv[5:]
corpus = os.environ.get('CORPUS', '/tmp/debian-en.jsonl')
concurrent = os.environ.get('CONCURRENT') == '1'
best = {A: {}, B: {}}

for i in range(pairs):
    procs = {}
    for position, binary in enumerate((A, B)):
        pin = ['taskset', '-c', str((i + position) % 2)] if concurrent else []
        procs[binary] = subprocess.Popen(
            pin + [binary, '--corpus', corpus, '--queries', queries, '--engines', 'searchlight',
                   '--clock', 'thread-cpu', '--slowest', '100000'] + extra,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not concurrent:
            procs[binary].wait()
    for binary in (A, B):
        figures = {}
        for line in procs[binary].communicate()[0].splitlines():
            m = re.match(r'^(term|prefix|and2|phrase) (p50|p99|mean) us\s+([\d.]+)', line)
            if m:
                figures[m.group(1) + ' ' + m.group(2)] = float(m.group(3))
            m = re.search(r'slowest: ([\d.]+) us\s+(\w+)\s+(.*?)\s+\((\d+) hits\)', line)
            if m:
                key = (m.group(2), m.group(3))
                best[binary][key] = min(best[binary].get(key, float('inf')), float(m.group(1)))
        print(binary, ' '.join(f'{k}={v}' for k, v in sorted(figures.items())), flush=True)

common = set(best[A]) & set(best[B])
summed_a = sum(best[A][k] for k in common)
summed_b = sum(best[B][k] for k in common)
print(f'summed per-query bests over {pairs} pairs: A {summed_a:.1f}  B {summed_b:.1f}  '
      f'({100 * (summed_b - summed_a) / summed_a:+.1f}%)')
by_change = sorted(common, key=lambda k: best[B][k] - best[A][k])
print('B faster most:')
for k in by_change[:6]:
    print(f'  {best[A][k]:8.1f} -> {best[B][k]:8.1f}  {k}')
print('B slower most:')
for k in by_change[-6:]:
    print(f'  {best[A][k]:8.1f} -> {best[B][k]:8.1f}  {k}')
for phrase in filter(None, os.environ.get('WATCH', '').split('|')):
    k = ('phrase', phrase)
    if k in common:
        print(f'  watch {best[A][k]:8.1f} -> {best[B][k]:8.1f}  {phrase}')
