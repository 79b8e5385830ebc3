"""Tallies what became of reader.go's survivors (survivors-before.txt).

runN-mutants.txt is run N's -mutants file and runN.txt its raw output, whose
progress line i is the i-th of its mutants in the order of `mutate -list`
of reader.go at the run's commit (list-COMMIT.txt, LISTS below). A mutant is
killed if any run killed it; else equivalent if
internal/mutate/testdata/equivalent.txt lists it (rechecked when a run left
it alive); else gone when its line is no longer in reader.go (the last list).
Run from this directory: python3 tally.py > tally.txt
"""
import re

P = 'internal/lz4frame/reader.go: '
LISTS = {1: 'ea644fd', 2: 'ea644fd', 3: 'ea644fd', 4: 'ea644fd', 5: '1a0fda8', 6: '1a0fda8', 7: '1a0fda8'}


def order(commit):
    return [l.rstrip('\n').split('\t', 1)[1] for l in open(f'list-{commit}.txt') if '\t' in l]


state = {}
for n, commit in LISTS.items():
    named = {l.rstrip('\n')[len(P):] for l in open(f'run{n}-mutants.txt') if l.strip()}
    ran = [k for k in order(commit) if k in named]
    for l in open(f'run{n}.txt'):
        m = re.match(r'^(\d+)/\d+ (\w+) ', l)
        if m and state.get(ran[int(m.group(1)) - 1]) != 'killed':
            state[ran[int(m.group(1)) - 1]] = m.group(2)
current = set(order(LISTS[max(LISTS)]))
eq = {l.split(' # ')[0][len(P):].strip() for l in open('../../internal/mutate/testdata/equivalent.txt') if l.startswith(P)}
counts = {}
for l in open('survivors-before.txt'):
    k = l.strip()[len('survivor ' + P):]
    if state.get(k) == 'killed':
        s = 'killed'
    elif state.get(k) == 'invalid':
        s = 'no longer compiles'
    elif k not in current:
        s = 'gone: its line was removed or rewritten'
    elif k in eq:
        s = 'equivalent, rechecked' if k in state else 'equivalent, not rerun'
    else:
        s = 'survived' if k in state else 'not rerun'
    counts[s] = counts.get(s, 0) + 1
    print(s + ':', k)
print()
for s, n in sorted(counts.items()):
    print(f'{n:4d} {s}')
alive = [k for k in state if state[k] in ('survived', 'equivalent') and k in current]
print(f'all runs: {len(state)} mutants, killed {sum(s == "killed" for s in state.values())}, '
      f'not compiling {sum(s == "invalid" for s in state.values())}, alive {len(alive)} '
      f'(of the current file: listed as equivalent {sum(k in eq for k in alive)}, not listed {sum(k not in eq for k in alive)})')
for k in alive:
    if k not in eq:
        print('not listed:', k)
