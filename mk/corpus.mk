# Real-memory page corpora (scripts/corpus.sh), kept out of git.

.PHONY: corpus

# corpus builds the corpora in CORPUS_DIR: memory dumps of python3, a C
# program, a Go program and a JVM (gcore where ptrace is allowed, else
# /proc/PID/mem), binaries, shared libraries, text and an ext4 image, with
# CORPUS_DIR/recipe.txt saying how each was made. The encode benchmarks and
# the dataset package read them where LZ4WARP_CORPUS names the directory.
CORPUS_DIR ?= .cache/corpus
corpus:
	bash scripts/corpus.sh $(CORPUS_DIR)
	@echo "export LZ4WARP_CORPUS=$(abspath $(CORPUS_DIR))"
