# The streams and the command on a GPU host: cli-h100 gathers what
# scripts/cli-h100.sh needs into build/cli-h100 (lz4warp, the lz4 command),
# and the root package's test binary for the Writer's GPU test and the
# stream benchmarks; the device runs bash build/cli-h100/cli-h100.sh and
# bash build/cli-h100/streams-gpu.sh.
CLI_H100 ?= $(BUILD)/cli-h100

.PHONY: cli-h100 fuzz-streams
cli-h100: lz4-tool
	rm -rf $(CLI_H100)
	mkdir -p $(CLI_H100)/lib
	$(GO) build -o $(CLI_H100)/lz4warp ./cmd/lz4warp
	$(GO) test -c -o $(CLI_H100)/lz4warp.test .
	cp $(LZ4) $(CLI_H100)/lz4
	@for l in $$(ldd $(LZ4) | awk '/=>/ && $$1 ~ /liblz4/ {print $$3}'); do cp $$l $(CLI_H100)/lib/; done
	cp scripts/cli-h100.sh scripts/streams-gpu.sh $(CLI_H100)/
	cp scripts/gpu-goroot.sh $(CLI_H100)/goroot.sh

# The Reader against the lz4 command's verdicts (FUZZTIME as for make fuzz).
fuzz-streams:
	GO=$(GO) bash scripts/fuzz.sh . '^FuzzReader$$' $(or $(FUZZTIME),30s)
