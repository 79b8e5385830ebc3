# Falsification experiments (spec/falsification.md).
# falsify-device builds the cuda-tagged test binary and gathers what the GPU
# machine needs in $(BUILD)/falsify: run it there with bash $(BUILD)/falsify/run.sh.
.PHONY: falsify falsify-device

falsify:
	$(GO) test -count=1 ./falsification

falsify-device: cuda-sdk
	mkdir -p $(BUILD)/falsify/ptx
	$(CUDA_ENV) $(GO) test -c -tags cuda -o $(BUILD)/falsify/falsification.test ./falsification
	cp falsification/run.sh $(BUILD)/falsify/run.sh
	cp falsification/testdata/*.ptx $(BUILD)/falsify/ptx/
