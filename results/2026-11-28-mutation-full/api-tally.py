#!/usr/bin/env python3
"""config.go, rules.go and result.go as they stand: each mutant's fate over
the full runs of ../2026-11-28-cpu-mutation (FILE.go.txt, whose progress
line i is the i-th mutant of out/FILE-record.list, the file at d2d5c09) and
this folder's runs of the mutants new since (out/FILE-new.txt of
FILE-new-mutants.txt, out/result-final.txt of result-survivors.txt). A key
names a mutant's function, line text and change, so a key of an unchanged
line is the same mutant. Run from this directory: python3 api-tally.py
"""
import re

REC = '../2026-11-28-cpu-mutation/'
eq = {l.split(' # ', 1)[0].strip() for l in open('../../internal/mutate/testdata/equivalent.txt') if ' # ' in l}


def keys(path):
    return [l.rstrip('\n').split('\t', 1)[1] for l in open(path) if '\t' in l]


def named(path, f):
    out = []
    for l in open(path):
        l = l.strip()
        if l:
            out.append(l.removeprefix('survivor ').removeprefix(f + '.go: '))
    return set(out)


for f in ['config', 'rules', 'result']:
    fate = {}
    old = keys(f'out/{f}-record.list')
    for l in open(f'{REC}{f}.go.txt'):
        if m := re.match(r'^(\d+)/\d+ (\w+) ', l):
            fate[old[int(m.group(1)) - 1]] = m.group(2)
    now = keys(f'out/{f}-now.list')
    runs = [(f'out/{f}-new.txt', f'{f}-new-mutants.txt')]
    if f == 'result':
        runs.append(('out/result-final.txt', 'result-survivors.txt'))
    for txt, mutants in runs:
        want = named(mutants, f)
        order = [k for k in now if k in want]
        for l in open(txt):
            if m := re.match(r'^(\d+)/\d+ (\w+) ', l):
                k = order[int(m.group(1)) - 1]
                if fate.get(k) != 'killed':
                    fate[k] = m.group(2)
    counts = {}
    for k in now:
        v = fate.get(k, 'not run')
        if v in ('survived', 'equivalent'):
            v = 'equivalent' if f'{f}.go: {k}' in eq else 'survived'
        counts[v] = counts.get(v, 0) + 1
    killed, survived = counts.get('killed', 0), counts.get('survived', 0)
    print(f'{f}.go: {len(now)} mutants: {counts}')
    print(f'mutation score {f}.go {100 * killed // max(killed + survived, 1)}%')
