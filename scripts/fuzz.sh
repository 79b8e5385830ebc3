#!/usr/bin/env bash
# fuzz.sh PKG TARGET FUZZTIME: go test -fuzz TARGET for FUZZTIME in PKG.
# It fails on a failing input, which go test writes under
# PKG/testdata/fuzz/TARGET. Go 1.26's fuzz coordinator can also fail a
# target with a bare "context deadline exceeded" at the end of FUZZTIME on
# a busy machine, having found nothing (go.dev/issue/75804, fixed in Go
# 1.27): that case passes, with a note, once the target's corpus replays
# clean.
set -uo pipefail
pkg=${1:?usage: fuzz.sh PKG TARGET FUZZTIME} target=${2:?} fuzztime=${3:?}
go=${GO:-go}
dir=$pkg/testdata/fuzz/${target//[\^\$]/}
before=$(ls "$dir" 2>/dev/null | sort)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
$go test -run '^$' -fuzz "$target" -fuzztime "$fuzztime" "$pkg" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
[[ $rc -eq 0 ]] && exit 0
after=$(ls "$dir" 2>/dev/null | sort)
if [[ "$before" == "$after" ]] && grep -q '^    context deadline exceeded$' "$out" &&
	$go test -count=1 -run "$target" "$pkg" >/dev/null 2>&1; then
	echo "fuzz.sh: $target: the fuzz coordinator's deadline race (go.dev/issue/75804), no failing input; the corpus replays clean"
	exit 0
fi
exit "$rc"
