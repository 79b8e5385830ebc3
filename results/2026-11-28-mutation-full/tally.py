#!/usr/bin/env python3
"""Final verdict per mutant over several runs of internal/mutate on one file.

usage: tally.py FILE EQUIVALENTS RUN.txt:RUN.list ...

Each RUN.txt is a run's output, RUN.list the same run's mutants as
`go run ./internal/mutate -list` prints them with the run's flags (-every,
-mutants), so that result line i/M names the i-th. A mutant is killed if any
run killed it (tests were only added between runs), not compiling if it did
not build, equivalent if it survived and EQUIVALENTS lists it, and survived
otherwise. Score: killed over killed and survived.
"""
import re
import sys

file, eqpath, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
equivalent = set()
for line in open(eqpath):
    line = line.strip()
    if line and not line.startswith("#"):
        equivalent.add(line.split(" # ", 1)[0].strip())
verdicts = {}
rank = {"killed": 3, "invalid": 2, "survived": 1}
for run in runs:
    out, lst = run.split(":")
    keys = [file + ": " + l.rstrip("\n").split("\t", 1)[1] for l in open(lst) if "\t" in l]
    for line in open(out):
        m = re.match(r"^(\d+)/(\d+) (killed|survived|invalid|equivalent) ", line)
        if not m:
            continue
        i, n, v = int(m.group(1)), int(m.group(2)), m.group(3)
        if n != len(keys):
            sys.exit(f"{out}: {n} mutants, {lst} lists {len(keys)}")
        v = "survived" if v == "equivalent" else v
        k = keys[i - 1]
        if rank[v] > rank.get(verdicts.get(k), 0):
            verdicts[k] = v
counts = {"killed": 0, "invalid": 0, "equivalent": 0, "survived": 0}
survivors = []
for k, v in sorted(verdicts.items()):
    if v == "survived" and k in equivalent:
        v = "equivalent"
    counts[v] += 1
    if v == "survived":
        survivors.append(k)
counted = counts["killed"] + counts["survived"]
print(f"{file}: {len(verdicts)} mutants: killed {counts['killed']}, survived {counts['survived']}, "
      f"equivalent {counts['equivalent']}, not compiling {counts['invalid']}")
for k in survivors:
    print("survivor", k)
# Rounded down, so that 100% means no survivor.
print(f"mutation score {file} {100 * counts['killed'] // max(counted, 1)}%")
