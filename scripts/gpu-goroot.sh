#!/usr/bin/env bash
# Sourced by run.sh and by the scripts of results/ that run test
# binaries on a GPU machine.
# The text and binaries data sets read a Go installation; a GPU machine
# without Go gets a stand-in: the C and C++ headers of the CUDA toolkit and
# the system as text (renamed .txt, an extension the set reads), and the
# toolkit's executables as binaries.
setup_goroot() {
	command -v go >/dev/null && return
	[[ -n ${GOROOT:-} ]] && return
	local g=/tmp/lz4warp-goroot
	if [[ ! -d $g ]]; then
		mkdir -p "$g/src" "$g/doc" "$g/bin" "$g/pkg/tool"
		find /usr/local/cuda/include /usr/include -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cuh' \) 2>/dev/null |
			sort | while read -r f; do cp "$f" "$g/src/$(echo "${f#/}" | tr / _).txt"; done
		find -L /usr/local/cuda/bin -maxdepth 1 -type f -perm -u+x 2>/dev/null | sort | while read -r f; do cp "$f" "$g/bin/"; done
	fi
	export GOROOT=$g
	echo "data sets: GOROOT=$g: $(du -sh "$g/src" | cut -f1) of headers, $(du -sh "$g/bin" | cut -f1) of executables"
}
