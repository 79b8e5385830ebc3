# Conformance: every page shape through the CPU backends (and the GPU in a
# cuda build on a machine with one), compared byte for byte with the
# reference. CONFORMANCE_PAGES sets the bulk corpus, RAPID_CHECKS the draws
# per property. The last line is the summary.
CONFORMANCE_PAGES ?= 24000
RAPID_CHECKS ?= 100

.PHONY: conformance
conformance:
	CONFORMANCE_PAGES=$(CONFORMANCE_PAGES) $(GO) test -count=1 -v ./conformance -rapid.checks=$(RAPID_CHECKS) \
		| grep -E '^(--- |conformance:|first mismatch|ok|FAIL|panic)|_test.go:[0-9]+:'
