# ptxas, which checks the generated PTX without a GPU (scripts/cuda-sdk.sh
# says what and why). Nothing else of CUDA is needed to build: the driver is
# opened at run time (spec/gpu-runtime.md RT-16).
CUDA_SDK ?= $(CURDIR)/.cache/cuda
PTXAS ?= $(CUDA_SDK)/bin/ptxas
export PTXAS

.PHONY: cc-tool cuda-sdk
cuda-sdk:
	bash scripts/cuda-sdk.sh $(CUDA_SDK)

# The tests build fake driver libraries (and cgo, where a test uses it) with
# a C compiler: $CC, else gcc, as for go. Without one, cc-tool installs
# Debian's gcc and libc6-dev (the C headers); with one, it does nothing.
cc-tool:
	@cc=$${CC:-gcc}; command -v "$${cc%% *}" >/dev/null && exit 0; \
	[ "$${cc%% *}" = gcc ] || { echo "cc-tool: CC=$$cc not found: install it, or unset CC for gcc" >&2; exit 1; }; \
	$(call apt-install,cc-tool,gcc libc6-dev)
