# CPU codec, data sets and the ratio table.

.PHONY: coredump gdb-tool

# coredump writes an ELF core file of a running process with gdb's gcore
# (PID=<pid>, default: a sleep started for the purpose). The coredump data
# set reads it when LZ4WARP_COREDUMP names it; without it, the set reads the
# live memory of the process that loads it.
COREDUMP ?= $(BUILD)/coredump/core
coredump: gdb-tool
	@mkdir -p $(dir $(COREDUMP))
	@if [ -n "$(PID)" ]; then gcore -o $(COREDUMP) $(PID) && mv $(COREDUMP).$(PID) $(COREDUMP); \
	else sleep 60 & pid=$$!; gcore -o $(COREDUMP) $$pid; kill $$pid; mv $(COREDUMP).$$pid $(COREDUMP); fi
	@echo "export LZ4WARP_COREDUMP=$(abspath $(COREDUMP))"

# gdb-tool installs gdb, which brings gcore, when gcore is missing. make test
# does not depend on it: gdb pulls in Python (some 20 MB), and gcore needs
# ptrace, which containers often refuse; without it TestGcoreFile skips.
gdb-tool:
	@command -v gcore >/dev/null || { $(call apt-install,gdb-tool,gdb); }

# fuzz-cpu fuzzes the fast codec against the reference (FUZZTIME each).
.PHONY: fuzz-cpu ratio-table bench-cpu
fuzz-cpu:
	GO=$(GO) bash scripts/fuzz.sh ./internal/fastlz4 FuzzEncodeMatchesReference $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh ./internal/fastlz4 FuzzDecodeBlock $(FUZZTIME)

# ratio-table prints the table of spec/ratio.md (needs the lz4 command).
ratio-table:
	$(GO) test ./internal/fastlz4 -run TestRatioTable -v -lz4

# bench-cpu runs the page benchmarks of results/cpu-notebook.md on one goroutine and on 16.
bench-cpu:
	$(GO) test ./internal/fastlz4 -run '^$$' -bench 'EncodePage|DecodePage' -cpu 1,16 -count 3
