# lz4warp: `make demo` runs the main job, `make test` runs every test.
GO ?= go
BUILD ?= build
export GOFLAGS ?= -mod=readonly

.PHONY: demo test bench fuzz lint tools

demo:
	$(GO) run ./cmd/lz4warp demo

# One build holds the GPU support, which skips its tests where no GPU can be
# used; ptxas checks (cuda-sdk fetches ptxas) run inside go test; cc-tool
# provides the C compiler that builds the fake driver libraries; lz4-tool
# provides the lz4 command for interoperability. gdb's gcore is left out
# (make gdb-tool, mk/cpu.mk says why); go test shows skips only with -v, so
# the last lines give TestGcoreFile's skip and its reason, if it skipped.
test: cuda-sdk cc-tool lz4-tool
	$(GO) vet ./...
	$(GO_TEST_ALL)
	$(MAKE) --no-print-directory test-race
	$(MAKE) --no-print-directory mutation-quick
	@$(GO) test -count=1 -run '^TestGcoreFile$$' -v ./internal/dataset \
		| awk '/^=== RUN/ {msg = ""; next} /^    / {msg = msg "\n" $$0} /^--- SKIP/ {print $$0 msg}'

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

FUZZTIME ?= 30s
fuzz:
	GO=$(GO) bash scripts/fuzz.sh ./reference FuzzDecompressBlock $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh ./reference FuzzDecodePage $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh . FuzzDecompressBatch $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh ./internal/fastlz4 FuzzDecodeBlock $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh ./internal/fastlz4 FuzzEncodeMatchesReference $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh ./internal/lz4frame FuzzReader $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh . '^FuzzReader$$' $(FUZZTIME)
	GO=$(GO) bash scripts/fuzz.sh ./internal/fastlz4 FuzzDecompressBlockPrefix $(FUZZTIME)

STATICCHECK := $(shell $(GO) env GOPATH)/bin/staticcheck
$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: $(STATICCHECK)
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo 'gofmt: files above need formatting'; exit 1; }
	$(GO) vet ./...
	$(STATICCHECK) ./...

# $(call apt-install,TARGET,PACKAGES), for the targets that provide a tool:
# installs Debian PACKAGES as root, else through sudo, else stops saying what
# to install. apt-get update runs first when the package lists are empty (as
# in fresh containers), or again when an install from stale lists fails.
apt-install = \
	if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "$(1): as root, run: apt-get install $(2)" >&2; exit 1; fi; \
	echo "$(1): installing $(2)" >&2; \
	aptq() { $$sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq "$$@"; }; \
	inst() { aptq install -y --no-install-recommends $(2); }; \
	if ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then inst || { aptq update && inst; }; \
	else aptq update && inst; fi \
	|| { echo "$(1): could not install; as root, run: apt-get install $(2)" >&2; exit 1; }

# Each area adds its own targets in mk/*.mk.
-include mk/*.mk
