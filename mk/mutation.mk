# Mutation testing (internal/mutate): how many small faults in each file the
# module's tests catch. One file at a time (MUTATE_FILES); each file's report
# goes to build/mutation/, its survivors and score to the terminal. It takes
# long (a mutant that survives runs the tests of every package built on its
# file's), so CI runs only mutation-quick (below). Equivalent mutants, with their reasons:
# internal/mutate/testdata/equivalent.txt. Scores: results/*-mutation/.
# MUTATE_FLAGS go to every run, e.g. '-every 6' (a sample), '-skip
# github.com/lz4warp/lz4warp/gpuimpl' (its tests take 90 s a run here), or
# '-mutants FILE' (only the mutants FILE names, as an earlier run's
# survivor lines do). Each package's quick tests run first, its slow ones
# (a second or more in the baseline) only if those pass.
MUTATE_FILES ?= config.go rules.go result.go reference/page.go reference/block.go \
	internal/lz4frame/writer.go internal/lz4frame/reader.go \
	internal/fastlz4/decode.go internal/fastlz4/encode.go
MUTATE_FLAGS ?=

.PHONY: mutation
mutation:
	@mkdir -p $(BUILD)/mutation
	@for f in $(MUTATE_FILES); do \
		out=$(BUILD)/mutation/$$(echo $$f | tr / _).txt; \
		$(GO) run ./internal/mutate -file $$f $(MUTATE_FLAGS) > $$out || exit 1; \
		grep -E '^(survivor|stale|mutants|mutation score)' $$out; \
	done

# The kernel generators, whose PTX the CPU executor runs (internal/ptxexec):
# each mutant against the tests that run that PTX and compare its output
# with the reference's, not the golden-text tests (any change of the text
# fails those, whether or not the kernel still works). A sample by default
# (MUTATE_KERNEL_FLAGS): a mutant takes about a minute here.
MUTATE_KERNEL_FLAGS ?= -every 20
GPUIMPL = github.com/lz4warp/lz4warp/gpuimpl
KERNEL_TESTS = ^Test(KernelOnCPU.*|ThresholdPages|KernelProfile|KernelWarpSyncsAreNeeded|KernelCopiesToHost|ExtBytes)$$
DECODE_KERNEL_TESTS = ^(TestDecodeKernelOnCPU|TestDecodeKernelEdgeCases|TestDecodeKernelEveryTarget|TestDecodeWarpSyncsAreNeeded|FuzzDecodeKernel)$$

.PHONY: mutation-kernels
mutation-kernels:
	@mkdir -p $(BUILD)/mutation
	$(GO) run ./internal/mutate -file gpuimpl/kernel.go -pkgs $(GPUIMPL) -run '$(KERNEL_TESTS)' \
		$(MUTATE_KERNEL_FLAGS) > $(BUILD)/mutation/gpuimpl_kernel.go.txt
	@grep -E '^(survivor|mutants|mutation score)' $(BUILD)/mutation/gpuimpl_kernel.go.txt
	$(GO) run ./internal/mutate -file gpuimpl/decodekernel.go -pkgs $(GPUIMPL) -run '$(DECODE_KERNEL_TESTS)' \
		$(MUTATE_KERNEL_FLAGS) > $(BUILD)/mutation/gpuimpl_decodekernel.go.txt
	@grep -E '^(survivor|mutants|mutation score)' $(BUILD)/mutation/gpuimpl_decodekernel.go.txt

# The quick subset that make test (and so CI) runs: files whose own
# package's tests are quick, each against those tests only, failing on any
# survivor not listed as equivalent (-min 100). About five minutes here.
MUTATE_QUICK ?= reference/page.go reference/block.go
MODULE = github.com/lz4warp/lz4warp

.PHONY: mutation-quick
mutation-quick:
	@mkdir -p $(BUILD)/mutation
	@for f in $(MUTATE_QUICK); do \
		out=$(BUILD)/mutation/quick-$$(echo $$f | tr / _).txt; \
		$(GO) run ./internal/mutate -file $$f -pkgs $(MODULE)/$$(dirname $$f) -min 100 -jobs 2 > $$out 2>&1; \
		status=$$?; grep -E '^(survivor|mutants|mutation score)' $$out; \
		[ $$status = 0 ] || { tail -3 $$out; exit 1; }; \
	done
