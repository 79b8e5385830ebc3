# GPU targets: the offline PTX budget check, and the binaries (plus the
# script) that a run on a GPU machine needs; see spec/gpu-runtime.md.
GPU_BUILD ?= $(BUILD)/gpu
# Packages whose test binaries a GPU run uses, where they exist.
GPU_TEST_PKGS ?= . gpuimpl internal/cudart conformance features falsification

.PHONY: ptx-check gpu-binaries

# The ptxas resource table of the page kernel for every target, checked
# against spec/gpu.md GPU-6.
ptx-check: cuda-sdk
	$(GO) run ./internal/ptxcheck

gpu-binaries:
	rm -rf $(GPU_BUILD)
	mkdir -p $(GPU_BUILD)
	@set -e; for p in $(GPU_TEST_PKGS); do \
		[ -d $$p ] && ls $$p/*_test.go >/dev/null 2>&1 || continue; \
		name=$$(echo $$p | tr / -); [ $$p = . ] && name=lz4warp; \
		echo "gpu-binaries: ./$$p -> $(GPU_BUILD)/$$name.test"; \
		$(GO) test -c -ldflags='-s -w' -o $(GPU_BUILD)/$$name.test ./$$p; \
	done
	@if [ -d cmd/lz4warp ]; then \
		echo "gpu-binaries: ./cmd/lz4warp -> $(GPU_BUILD)/lz4warp"; \
		$(GO) build -ldflags='-s -w' -o $(GPU_BUILD)/lz4warp ./cmd/lz4warp; fi
	$(MAKE) --no-print-directory decode-corpus
	cp scripts/gpu-run.sh $(GPU_BUILD)/run.sh
	cp scripts/gpu-goroot.sh $(GPU_BUILD)/goroot.sh
	chmod +x $(GPU_BUILD)/run.sh
	@du -sh $(GPU_BUILD)

# gpu-pack packs what gpu-binaries built, with anything added to it since,
# the lz4 command, its liblz4 and the stream scripts, in one compressed file
# (build/pack/gpu.tgz) that fits the device tool's carry limit; on the
# device: tar xzf build/pack/gpu.tgz -C build.
GPU_PACK ?= $(BUILD)/pack/gpu.tgz

.PHONY: gpu-pack
gpu-pack: lz4-tool
	@test -x $(GPU_BUILD)/lz4warp.test || { echo "gpu-pack: run make gpu-binaries first"; exit 1; }
	mkdir -p $(GPU_BUILD)/lib $(dir $(GPU_PACK))
	cp $(LZ4) $(GPU_BUILD)/lz4
	@for l in $$(ldd $(LZ4) | awk '/=>/ && $$1 ~ /liblz4/ {print $$3}'); do cp $$l $(GPU_BUILD)/lib/; done
	cp scripts/cli-h100.sh scripts/streams-gpu.sh $(GPU_BUILD)/
	tar czf $(GPU_PACK) -C $(dir $(GPU_BUILD)) $(notdir $(GPU_BUILD))
	@ls -l $(GPU_PACK)
