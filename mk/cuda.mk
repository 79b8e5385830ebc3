# The CUDA toolchain pieces a GPU-less machine needs to build and check the
# cuda-tagged code (scripts/cuda-sdk.sh says what and why).
CUDA_SDK ?= $(CURDIR)/.cache/cuda
CUDA_ENV = CGO_ENABLED=1 CGO_CFLAGS=-I$(CUDA_SDK)/include CGO_LDFLAGS=-L$(CUDA_SDK)/lib
PTXAS ?= $(CUDA_SDK)/bin/ptxas
export PTXAS

.PHONY: cuda-sdk cuda-vet
cuda-sdk:
	bash scripts/cuda-sdk.sh $(CUDA_SDK)

# The cuda-tagged packages must compile (and vet) without a GPU.
cuda-vet: cuda-sdk
	$(CUDA_ENV) $(GO) vet -tags cuda ./...
