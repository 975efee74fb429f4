#!/usr/bin/env python3
"""Instructions (and, with --cache, simulated cache misses) per query execution of one `searchlight-bench` binary.

Runs the binary twice under callgrind, collecting only inside the timed workload (`*timeWorkload*`), with `--rounds
LOW` and `--rounds HIGH`, and divides the difference by the extra executions. The difference leaves out what the
first executions build once (derived lists and columns), so the figure is a steady state. Deterministic, so it
resolves changes far below the wall clock's noise on this machine (BENCHMARKS.md section AQ).

    Benchmarks/Scripts/callgrind_per_query.py BIN QUERIES.tsv [--cache] [--rounds LOW HIGH] [--top N]

With --cache, callgrind simulates a 32 KB first level and an L2-sized (512 KB, 8-way) last level, and the script
lists the functions with the most last-level read misses per execution. Environment: CORPUS (default
/tmp/debian-en.jsonl, the decompressed debian-en corpus). Needs valgrind (`apt-get install valgrind`).
"""
import os
import re
import subprocess
import sys
import tempfile

args = sys.argv[1:]
if len(args) < 2:
    sys.exit(__doc__)
binary, queries = args[0], args[1]
cache = '--cache' in args
low, high = 1, 3
if '--rounds' in args:
    at = args.index('--rounds')
    low, high = int(args[at + 1]), int(args[at + 2])
top = int(args[args.index('--top') + 1]) if '--top' in args else 25
corpus = os.environ.get('CORPUS', '/tmp/debian-en.jsonl')
with open(queries) as f:
    count = sum(1 for line in f if line.strip())
events = ['Ir', 'D1mr', 'DLmr'] if cache else ['Ir']

def profile(rounds, directory):
    out = os.path.join(directory, f'callgrind.{rounds}')
    command = ['valgrind', '--tool=callgrind', '--toggle-collect=*timeWorkload*', f'--callgrind-out-file={out}']
    if cache:
        command += ['--cache-sim=yes', '--LL=524288,8,64']
    command += [binary, '--corpus', corpus, '--queries', queries, '--engines', 'searchlight', '--rounds', str(rounds)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), out

def functions(path):
    """Self cost per function: {name: [event counts]}, and the program totals."""
    text = subprocess.run(['callgrind_annotate', '--auto=no', '--threshold=100', '--show=' + ','.join(events), path],
                          capture_output=True, text=True).stdout
    table, totals = {}, None
    for line in text.splitlines():
        # "12,345 ( 1.2%)  678 ( 0.5%)  .  file:function [object]": counts (or "."), percentages, then the name.
        bare = re.sub(r'\(\s*[\d.]+%\)', ' ', line).split(None, len(events))
        if len(bare) <= len(events) or not all(re.fullmatch(r'[\d,]+|\.', t) for t in bare[:len(events)]):
            continue
        numbers = [0 if t == '.' else int(t.replace(',', '')) for t in bare[:len(events)]]
        if 'PROGRAM TOTALS' in line:
            totals = numbers
            continue
        name = re.sub(r'^\S*?:', '', bare[len(events)]).strip()[:150]
        row = table.setdefault(name, [0] * len(events))
        for k, value in enumerate(numbers):
            row[k] += value
    return table, totals

with tempfile.TemporaryDirectory() as directory:
    runs = [profile(low, directory), profile(high, directory)]
    for process, _ in runs:
        process.wait()
    (a, ta), (b, tb) = functions(runs[0][1]), functions(runs[1][1])
executions = (high - low) * count
per = [(tb[k] - ta[k]) / executions for k in range(len(events))]
print(f'{binary} {queries}: per execution ' + ', '.join(f'{e} {v:,.1f}' for e, v in zip(events, per)))
if cache:
    diff = {name: [b[name][k] - a.get(name, [0] * len(events))[k] for k in range(len(events))] for name in b}
    print(f'{"Ir":>10} {"D1mr":>8} {"LLmr":>8}  function (self, per execution)')
    for name, row in sorted(diff.items(), key=lambda item: -item[1][2])[:top]:
        print(f'{row[0] / executions:10.0f} {row[1] / executions:8.1f} {row[2] / executions:8.1f}  {name}')
