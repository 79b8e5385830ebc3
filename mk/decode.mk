# GPU decompression (spec/gpu.md GPU-11, spec/gpu-runtime.md RT-17).
# decode-on-cpu runs the decode kernel's PTX on the CPU executor against
# fastlz4 with DECODE_CPU_PAGES valid and as many hostile pages (go test runs
# 10,000 of each); decode-corpus writes liblz4's blocks for the GPU machine,
# which has no lz4 command (make gpu-binaries runs it).
DECODE_CPU_PAGES ?= 100000
DECODE_CORPUS ?= $(GPU_BUILD)/liblz4-blocks.bin

.PHONY: decode-on-cpu decode-corpus fuzz-decode

decode-on-cpu: lz4-tool
	@mkdir -p $(BUILD)
	@$(GO) test -count=1 -timeout 60m -run '^TestDecodeKernelOnCPU$$' -v ./gpuimpl -args -decodecpu.pages=$(DECODE_CPU_PAGES) \
		> $(BUILD)/decode-on-cpu.log 2>&1; rc=$$?; \
	grep -v '^decode:' $(BUILD)/decode-on-cpu.log | tail -n 12; \
	grep '^decode:' $(BUILD)/decode-on-cpu.log || echo 'decode: no result (see $(BUILD)/decode-on-cpu.log)'; \
	exit $$rc

decode-corpus: lz4-tool
	@mkdir -p $(dir $(DECODE_CORPUS))
	$(GO) test -count=1 -run '^TestWriteLiblz4Corpus$$' ./gpuimpl -args -liblz4.out=$(abspath $(DECODE_CORPUS))

fuzz-decode:
	GO=$(GO) bash scripts/fuzz.sh ./gpuimpl FuzzDecodeKernel $(or $(FUZZTIME),30s)
