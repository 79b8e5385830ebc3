#!/usr/bin/env bash
# summary.sh RAW: per set and commit, the median of x-liblz4-fastest over
# the runs of bench.sh's raw output, with its range, and for the last
# commit the medians of fastlz4's and liblz4's fastest ns/page (where its
# benchmark reports them), as a Markdown table.
awk '
/^#/ { next }
{
	label = $1; set = $2; sub(/^BenchmarkEncodePagePair\/liblz4\//, "", set); sub(/-[0-9]+$/, "", set)
	for (i = 3; i < NF; i++) {
		if ($(i+1) == "x-liblz4-fastest") f[set, label] = f[set, label] " " $i
		if ($(i+1) == "fastlz4-fastest-ns/page") ns[set, label] = ns[set, label] " " $i
		if ($(i+1) == "liblz4-fastest-ns/page") lns[set, label] = lns[set, label] " " $i
	}
	if (!(label in seenl)) { seenl[label] = 1; labels[++nl] = label }
	if (!(set in seens)) { seens[set] = 1; sets[++ns_] = set }
}
function median(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function range(s,   a, n, i, lo, hi) {
	n = split(s, a, " "); lo = hi = a[1]
	for (i = 2; i <= n; i++) { if (a[i] + 0 < lo + 0) lo = a[i]; if (a[i] + 0 > hi + 0) hi = a[i] }
	return lo "–" hi
}
END {
	last = labels[nl]
	printf "| set |"; for (l = 1; l <= nl; l++) printf " %s: x-liblz4-fastest (range) |", labels[l]; printf " %s: fastest ns/page, fastlz4 / liblz4 |\n", last
	printf "| --- |"; for (l = 1; l <= nl; l++) printf " ---: |"; print " ---: |"
	for (s = 1; s <= ns_; s++) {
		printf "| %s |", sets[s]
		for (l = 1; l <= nl; l++) printf " %.3f (%s) |", median(f[sets[s], labels[l]]), range(f[sets[s], labels[l]])
		if (ns[sets[s], last] != "") printf " %.0f / %.0f |\n", median(ns[sets[s], last]), median(lns[sets[s], last])
		else print " |"
	}
}' "$1"
