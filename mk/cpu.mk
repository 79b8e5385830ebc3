# CPU codec, data sets and the ratio table.

.PHONY: coredump

# coredump writes an ELF core file of a running process with gdb's gcore
# (PID=<pid>, default: a sleep started for the purpose). The coredump data
# set reads it when LZ4WARP_COREDUMP names it; without it, the set reads the
# live memory of the process that loads it.
COREDUMP ?= $(BUILD)/coredump/core
coredump:
	@mkdir -p $(dir $(COREDUMP))
	@if [ -n "$(PID)" ]; then gcore -o $(COREDUMP) $(PID) && mv $(COREDUMP).$(PID) $(COREDUMP); \
	else sleep 60 & pid=$$!; gcore -o $(COREDUMP) $$pid; kill $$pid; mv $(COREDUMP).$$pid $(COREDUMP); fi
	@echo "export LZ4WARP_COREDUMP=$(abspath $(COREDUMP))"
