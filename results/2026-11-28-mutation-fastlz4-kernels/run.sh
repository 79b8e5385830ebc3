#!/usr/bin/env bash
# The mutation runs recorded here, on the 2-vCPU development machine (shared
# with other builds: load 8 to 20 during the runs). Each ran from a clean
# copy (git archive) of the commit named, from the repository root, against
# the tests of the file's own package only (-pkgs: a lower bound, as a
# mutant that survives them may die in another package's tests). Each run's
# output is RUN.txt, and RUN.list its mutants in order, as -list prints them
# with the same flags, so that tally.py can name line i/M's mutant. The
# runs were cut to the time there was: see README.md for which ran whole.
# (The fast codec's and kernel-p1's runs passed -pkgs own, a name of no
# package, which has the same effect as the package's own name here.)
set -eu
M=internal/mutate/testdata/equivalent.txt
FAST=github.com/lz4warp/lz4warp/internal/fastlz4
G=github.com/lz4warp/lz4warp/gpuimpl
mutate() { go run ./internal/mutate "$@"; }
run() { # NAME FLAGS...: one run, its output and its list
	local name=$1; shift
	mutate "$@" > "$OUT/$name.txt"
	mutate "$@" -list > "$OUT/$name.list"
}
OUT=${OUT:-.}
case ${1:-} in
a4bd6a3) # encode.go after the encoder's second round (2026-11-28-fastenc-cpu2): every 4th mutant,
	# the package's own tests, on the quiet machine
	run encode-v2 -file internal/fastlz4/encode.go -every 4 -pkgs $FAST
	;;
reader-v2) # reader.go, every 7th mutant (a stride other than the earlier every 8th), the package's
	# own tests, at 4463dea on the quiet machine
	run reader-v2 -file internal/lz4frame/reader.go -every 7 -pkgs github.com/lz4warp/lz4warp/internal/lz4frame
	;;
encode-v2-final) # encode-v2's 13 survivors again, once judged equivalent (equivalent.txt)
	run encode-v2-final -file internal/fastlz4/encode.go -mutants results/2026-11-28-mutation-fastlz4-kernels/encode-v2-final-mutants.txt -pkgs $FAST
	;;
2280fb2) # the samples: every other mutant of the fast codec's files, every 20th of the page kernel's
	run decode-p1 -file internal/fastlz4/decode.go -every 2 -pkgs $FAST     # cut at 200 of 266
	run encode-p1 -file internal/fastlz4/encode.go -every 2 -pkgs $FAST     # cut at 62 of 231
	run kernel-p1 -file gpuimpl/kernel.go -every 20 -pkgs $G \
		-run '^Test(KernelOnCPU.*|ThresholdPages|KernelProfile|KernelWarpSyncsAreNeeded|KernelCopiesToHost)$'
	;;
d2adb16) # encode-p1's survivors again, with the tests added since (cut at 1 of 22)
	run encode-p2first -file internal/fastlz4/encode.go -mutants encode-first-survivors.txt -pkgs $FAST
	;;
d1ccf93) # the rest of encode.go's every-other sample, halved twice for time (encode-p3.txt,
	# encode-p4.txt: lines of encode-p1.list, as -mutants takes them), and four of encode-p1's survivors
	run encode-p3 -file internal/fastlz4/encode.go -mutants encode-p3-mutants.txt -pkgs $FAST # cut at 7 of 89
	run encode-p4 -file internal/fastlz4/encode.go -mutants encode-p4-mutants.txt -pkgs $FAST
	;;
9fe5233) # the decode kernel's generator, every 15th mutant from the first; kernel.go's survivor in extBytes against TestExtBytes
	run decodekernel-p1 -file gpuimpl/decodekernel.go -every 15 -pkgs $G \
		-run '^(TestDecodeKernelOnCPU|TestDecodeKernelEdgeCases|TestDecodeKernelEveryTarget|TestDecodeWarpSyncsAreNeeded|FuzzDecodeKernel)$'
	run kernel-p2 -file gpuimpl/kernel.go -mutants kernel-p2-mutants.txt -pkgs $G -run '^TestExtBytes$'
	;;
fd3e962) # decode.go's every-other sample from its 205th mutant on (decode-p1 was cut before it)
	run decode-tail -file internal/fastlz4/decode.go -mutants decode-tail-mutants.txt -pkgs $FAST
	;;
5402b6a) # the decode kernel's generator, every 15th mutant from the eighth (decodekernel-p2-mutants.txt)
	run decodekernel-p2 -file gpuimpl/decodekernel.go -mutants decodekernel-p2-mutants.txt -pkgs $G \
		-run '^(TestDecodeKernelOnCPU|TestDecodeKernelEdgeCases|TestDecodeKernelEveryTarget|TestDecodeWarpSyncsAreNeeded|FuzzDecodeKernel)$'
	;;
e04bbea) # more of the samples, with the time left: kernel.go's every 20th mutant from the 11th,
	# and the other half of encode-p4's part of encode.go's sample
	run kernel-p3 -file gpuimpl/kernel.go -mutants kernel-p3-mutants.txt -pkgs $G \
		-run '^Test(KernelOnCPU.*|ThresholdPages|KernelProfile|KernelWarpSyncsAreNeeded|KernelCopiesToHost|ExtBytes)$'
	run encode-p5 -file internal/fastlz4/encode.go -mutants encode-p5-mutants.txt -pkgs $FAST
	;;
final) # the survivors left unexplained above, at 8c6efe5
	run decode-final -file internal/fastlz4/decode.go -mutants decode-final-mutants.txt -pkgs $FAST
	run encode-final -file internal/fastlz4/encode.go -mutants encode-final-mutants.txt -pkgs $FAST
	run decodekernel-final -file gpuimpl/decodekernel.go -mutants decodekernel-final-mutants.txt -pkgs $G \
		-run '^TestDecodeKernelEdgeCases$'
	;;
rest) # decode.go's other half (the mutants the every-other sample left out: decode-rest-mutants.txt),
	# at a240c55, against every package's tests (no -pkgs); stopped after 150 of 266 for time
	run decode-rest -file internal/fastlz4/decode.go -mutants decode-rest-mutants.txt
	;;
rest2) # the 116 mutants of decode.go's other half that rest did not reach (decode-rest2-mutants.txt),
	# at c691a6e, against every package's tests; stopped after 31 of 116 for time (a mutant that
	# survives takes about 2 minutes of every package's tests here)
	run decode-rest2 -file internal/fastlz4/decode.go -mutants decode-rest2-mutants.txt
	;;
rest3) # the 85 that rest2 did not reach (decode-rest3-mutants.txt), at 6e3910d, against the file's
	# own package's tests only (-pkgs), for time: a lower bound, as in the sampled half
	run decode-rest3 -file internal/fastlz4/decode.go -mutants decode-rest3-mutants.txt -pkgs $FAST
	;;
rest-final) # the survivors of rest, rest2 and rest3 that tests added since kill, at 4a49376
	run decode-rest-final -file internal/fastlz4/decode.go -mutants decode-rest-final-mutants.txt -pkgs $FAST
	;;
reader) # internal/lz4frame/reader.go: every 8th mutant from the 5th (reader-p1-mutants.txt), at 4a49376,
	# against the tests of every package built on it (no -pkgs)
	run reader-p1 -file internal/lz4frame/reader.go -mutants reader-p1-mutants.txt
	;;
reader-final) # reader.go's survivors that tests added since kill, and split's, at 3038e78
	run reader-final -file internal/lz4frame/reader.go -mutants reader-final-mutants.txt \
		-pkgs github.com/lz4warp/lz4warp/internal/lz4frame
	;;
reader-final2) # readGroup's survivor, at e6dc22a (TestReadAheadLimits' straddling blocks)
	run reader-final2 -file internal/lz4frame/reader.go -mutants reader-final2-mutants.txt \
		-pkgs github.com/lz4warp/lz4warp/internal/lz4frame
	;;
tally) # from this folder
	M=../../$M
	python3 tally.py internal/fastlz4/decode.go $M decode-p1.txt:decode-p1.list decode-tail.txt:decode-tail.list \
		decode-final.txt:decode-final.list decode-rest.txt:decode-rest.list decode-rest2.txt:decode-rest2.list \
		decode-rest3.txt:decode-rest3.list decode-rest-final.txt:decode-rest-final.list
	python3 tally.py internal/fastlz4/encode.go $M encode-p1.txt:encode-p1.list encode-p2first.txt:encode-p2first.list \
		encode-p3.txt:encode-p3.list encode-p4.txt:encode-p4.list encode-p5.txt:encode-p5.list \
		encode-final.txt:encode-final.list
	python3 tally.py internal/lz4frame/reader.go $M reader-p1.txt:reader-p1.list reader-final.txt:reader-final.list \
		reader-final2.txt:reader-final2.list
	python3 tally.py gpuimpl/kernel.go $M kernel-p1.txt:kernel-p1.list kernel-p2.txt:kernel-p2.list kernel-p3.txt:kernel-p3.list
	python3 tally.py gpuimpl/decodekernel.go $M decodekernel-p1.txt:decodekernel-p1.list \
		decodekernel-p2.txt:decodekernel-p2.list decodekernel-final.txt:decodekernel-final.list
	;;
*) echo "usage: run.sh COMMIT|final|rest|rest2|rest3|rest-final|reader|reader-final|reader-final2|tally (see the cases)"; exit 2 ;;
esac
