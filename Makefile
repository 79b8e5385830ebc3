# lz4warp: `make demo` runs the main job, `make test` runs every test.
GO ?= go
BUILD ?= build
export GOFLAGS ?= -mod=readonly

.PHONY: demo test bench fuzz lint tools

demo:
	$(GO) run ./cmd/lz4warp demo

# The cuda-tagged code must compile, vet and link its test binaries without a
# GPU, against the header and link stub that cuda-sdk fetches; ptxas checks
# run inside go test; lz4-tool provides the lz4 command for interoperability.
test: cuda-sdk lz4-tool
	$(GO) vet ./...
	$(CUDA_ENV) $(GO) vet -tags cuda ./...
	$(MAKE) --no-print-directory cuda-test-build
	$(GO) test -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecompressBlock -fuzztime $(FUZZTIME) ./reference
	$(GO) test -run '^$$' -fuzz FuzzDecodePage -fuzztime $(FUZZTIME) ./reference
	$(GO) test -run '^$$' -fuzz FuzzDecompressBatch -fuzztime $(FUZZTIME) .
	$(GO) test -run '^$$' -fuzz FuzzDecodeBlock -fuzztime $(FUZZTIME) ./internal/fastlz4
	$(GO) test -run '^$$' -fuzz FuzzEncodeMatchesReference -fuzztime $(FUZZTIME) ./internal/fastlz4
	$(GO) test -run '^$$' -fuzz FuzzReader -fuzztime $(FUZZTIME) ./internal/lz4frame

STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: $(STATICCHECK)
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo 'gofmt: files above need formatting'; exit 1; }
	$(GO) vet ./...
	$(STATICCHECK) ./...

# Each area adds its own targets in mk/*.mk.
-include mk/*.mk
