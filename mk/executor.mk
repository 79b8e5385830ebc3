# The page kernel's PTX executed on the CPU against the reference (spec/executor.md, EXEC-8).
KERNEL_CPU_PAGES ?= 100000

.PHONY: kernel-on-cpu
kernel-on-cpu:
	@mkdir -p $(BUILD)
	@$(GO) test -count=1 -timeout 60m -run '^TestKernelOnCPU$$' -v ./gpuimpl -args -kernelcpu.pages=$(KERNEL_CPU_PAGES) \
		> $(BUILD)/kernel-on-cpu.log 2>&1; rc=$$?; \
	grep -v '^conformance:' $(BUILD)/kernel-on-cpu.log | tail -n 20; \
	grep '^conformance:' $(BUILD)/kernel-on-cpu.log || echo 'conformance: no result (see $(BUILD)/kernel-on-cpu.log)'; \
	exit $$rc
