#!/usr/bin/env bash
# Mutation runs (internal/mutate) on the 16-core device host, which has no Go:
# `run.sh build` here packs a trimmed copy of this machine's Go toolchain
# (compiler, linker, assembler, the standard library's sources without tests),
# the module's dependencies (go mod vendor) and the mutate command into
# build/mut (carried); `run.sh device NAME FLAGS...` there unpacks them and
# runs one mutate run with its flags, its report to $OUT/NAME.txt and its
# mutant list to $OUT/NAME.list. cgo is off there (no C compiler), so the
# tests that compare with liblz4 skip: a lower bound. `run.sh all` repeats the
# runs made on the development machine (see README.md for each one's commit).
set -eu
R=results/2026-11-28-mutation-full
cd "$(dirname "$0")/../.."
B=build/mut
case ${1:-} in
build)
	rm -rf $B; mkdir -p $B
	G=$(go env GOROOT)
	tar -C "$G" --exclude='*_test.go' --exclude=testdata --exclude=src/cmd -czf $B/goroot.tgz \
		VERSION go.env bin/go pkg/include pkg/tool/linux_amd64/compile pkg/tool/linux_amd64/link \
		pkg/tool/linux_amd64/asm pkg/tool/linux_amd64/cgo pkg/tool/linux_amd64/vet src
	t=$(mktemp -d); go mod vendor -o "$t/vendor"; tar -C "$t" -czf $B/vendor.tgz vendor; rm -rf "$t"
	go build -o $B/mutate ./internal/mutate
	du -sh $B
	;;
device)
	shift
	name=$1; shift
	G=/tmp/goroot; [ -x $G/bin/go ] || { mkdir -p $G; tar -C $G -xzf $B/goroot.tgz; }
	[ -d vendor ] || tar -xzf $B/vendor.tgz
	export GOROOT=$G PATH=$G/bin:$PATH GOFLAGS=-mod=vendor GOTOOLCHAIN=local GOPROXY=off \
		CGO_ENABLED=0 GOCACHE=/tmp/gocache RAPID_NOFAILFILE=1
	go version
	go build ./... # the standard library once, before the jobs share the cache
	nproc; date -u
	$B/mutate "$@" -list > "$OUT/$name.list"
	$B/mutate "$@" > "$OUT/$name.txt" || { tail -5 "$OUT/$name.txt"; exit 1; }
	grep -E '^(mutants|mutation score)' "$OUT/$name.txt"; date -u
	;;
# The runs of README.md, on the development machine, from the repository
# root at the commit named there; each writes out/NAME.txt, and NAME.list is
# `mutate -list` with the same flags.
local)
	shift
	name=$1; shift
	go run ./internal/mutate "$@" > "$R/out/$name.txt" 2>&1 || true
	go run ./internal/mutate "$@" -list > "$R/out/$name.list"
	;;
all)
	R=results/2026-11-28-mutation-full
	FRAME=github.com/lz4warp/lz4warp/internal/lz4frame
	FAST=github.com/lz4warp/lz4warp/internal/fastlz4
	$0 local block-own -file reference/block.go -pkgs github.com/lz4warp/lz4warp/reference
	$0 local reader-local1 -file internal/lz4frame/reader.go -pkgs $FRAME -mutants $R/reader-local-mutants.txt -jobs 2
	$0 local reader-local2 -file internal/lz4frame/reader.go -pkgs $FRAME -mutants $R/reader-local2-mutants.txt -jobs 2
	$0 local encode-rest -file internal/fastlz4/encode.go -pkgs $FAST -mutants $R/encode-rest-mutants.txt -jobs 2
	$0 local reader-timeouts -file internal/lz4frame/reader.go -pkgs $FRAME -mutants $R/reader-timeouts-mutants.txt -jobs 2
	$0 local encode-rest-final -file internal/fastlz4/encode.go -pkgs $FAST -mutants $R/encode-rest-survivors.txt
	$0 local reader-full -file internal/lz4frame/reader.go -pkgs $FRAME -jobs 2
	$0 local reader-notrun -file internal/lz4frame/reader.go -pkgs $FRAME -mutants $R/reader-notrun-mutants.txt
	;;
*) echo "usage: run.sh build | device NAME FLAGS... | local NAME FLAGS... | all" >&2; exit 2 ;;
esac
