# The CUDA toolchain pieces a GPU-less machine needs to build and check the
# cuda-tagged code (scripts/cuda-sdk.sh says what and why).
CUDA_SDK ?= $(CURDIR)/.cache/cuda
CUDA_ENV = CGO_ENABLED=1 CGO_CFLAGS=-I$(CUDA_SDK)/include CGO_LDFLAGS=-L$(CUDA_SDK)/lib
PTXAS ?= $(CUDA_SDK)/bin/ptxas
export PTXAS

.PHONY: cc-tool cuda-sdk cuda-vet
cuda-sdk: cc-tool
	bash scripts/cuda-sdk.sh $(CUDA_SDK)

# cgo (CUDA_ENV's builds) and cuda-sdk.sh's link stub need a C compiler: $CC,
# else gcc, as for go. Without one, cc-tool installs Debian's gcc and
# libc6-dev (the C headers); with one, it does nothing.
cc-tool:
	@cc=$${CC:-gcc}; command -v "$${cc%% *}" >/dev/null && exit 0; \
	[ "$${cc%% *}" = gcc ] || { echo "cc-tool: CC=$$cc not found: install it, or unset CC for gcc" >&2; exit 1; }; \
	$(call apt-install,cc-tool,gcc libc6-dev)

# The cuda-tagged packages must compile (and vet) without a GPU.
cuda-vet: cuda-sdk
	$(CUDA_ENV) $(GO) vet -tags cuda ./...
