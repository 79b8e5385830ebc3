#!/usr/bin/env python3
"""Every mutant of reader.go as it stands (1a0fda8 onwards: list-final.txt, the
order of `mutate -list`), with its fate over all the runs that tested it:
the full runs of the file before its rewrite (out/reader-*.txt with their
lists: a mutant's key names its function, line text and change, so a key of
an unchanged line is the same mutant), the runs of
../2026-11-28-mutation-reader (its tally.py's reading of them), and the
full run at 1a0fda8 (out/reader-full.txt, as far as it went). A mutant is
killed if any run killed it, not compiling if a run found it so and none
killed it, equivalent if it survived a run and equivalent.txt lists it,
survived if it survived and is not listed, and not run otherwise.
Run from this directory: python3 reader-tally.py
"""
import re

P = 'internal/lz4frame/reader.go: '
R = '../2026-11-28-mutation-reader/'


def keys(listfile):
    return [l.rstrip('\n').split('\t', 1)[1] for l in open(listfile) if '\t' in l]


verdicts = {}


def note(key, v):
    v = 'survived' if v == 'equivalent' else v
    rank = {'killed': 3, 'invalid': 2, 'survived': 1}
    if rank[v] > rank.get(verdicts.get(key), 0):
        verdicts[key] = v


def run(txt, order):
    for l in open(txt):
        m = re.match(r'^(\d+)/(\d+) (\w+) ', l)
        if m:
            note(order[int(m.group(1)) - 1], m.group(3))


# The file before its rewrite: run 1's time-outs under a load of 196 are left
# out (all 49 ran again in reader-rest, 8 of them survived there).
for name in ['reader-16jobs', 'reader-rest', 'reader-local1', 'reader-local2', 'reader-timeouts']:
    txt = f'out/{name}.txt'
    order = keys(f'out/{name}.list')
    for l in open(txt):
        m = re.match(r'^(\d+)/(\d+) (\w+) ', l)
        if m and not (name == 'reader-16jobs' and 'over its time limit' in l):
            note(order[int(m.group(1)) - 1], m.group(3))
lists = {1: 'ea644fd', 2: 'ea644fd', 3: 'ea644fd', 4: 'ea644fd', 5: '1a0fda8', 6: '1a0fda8', 7: '1a0fda8'}
for n, commit in lists.items():
    named = {l.rstrip('\n')[len(P):] for l in open(f'{R}run{n}-mutants.txt') if l.strip()}
    run(f'{R}run{n}.txt', [k for k in keys(f'{R}list-{commit}.txt') if k in named])
final = keys('out/reader-full.list')
run('out/reader-full.txt', final)
named = {l.rstrip('\n')[len(P):] for l in open('reader-notrun-mutants.txt') if l.strip()}
run('out/reader-notrun.txt', [k for k in final if k in named])
eq = {l.split(' # ')[0][len(P):].strip() for l in open('../../internal/mutate/testdata/equivalent.txt') if l.startswith(P)}
counts = {'killed': 0, 'invalid': 0, 'equivalent': 0, 'survived': 0, 'not run': 0}
for k in final:
    v = verdicts.get(k, 'not run')
    if v == 'survived' and k in eq:
        v = 'equivalent'
    counts[v] += 1
    if v in ('survived', 'not run'):
        print(v, P + k)
print(f"reader.go at 1a0fda8: {len(final)} mutants: killed {counts['killed']}, survived {counts['survived']}, "
      f"equivalent {counts['equivalent']}, not compiling {counts['invalid']}, not run {counts['not run']}")
counted = counts['killed'] + counts['survived']
print(f"mutation score {P[:-2]} {100 * counts['killed'] // max(counted, 1)}%")
