# Falsification experiments (spec/falsification.md).
# falsify-device builds the test binary and gathers what the GPU
# machine needs in $(BUILD)/falsify: run it there with bash $(BUILD)/falsify/run.sh.
.PHONY: falsify falsify-device

falsify:
	$(GO) test -count=1 ./falsification

falsify-device:
	mkdir -p $(BUILD)/falsify/ptx
	$(GO) test -c -o $(BUILD)/falsify/falsification.test ./falsification
	cp falsification/run.sh $(BUILD)/falsify/run.sh
	cp falsification/testdata/*.ptx $(BUILD)/falsify/ptx/
