# The concurrency rules of the Compressor (API-20, API-21) under the race
# detector: the tests that call one Compressor from many goroutines.
RACE_TESTS ?= Concurrent|DoesNotWait|CPUWorkers|IntoReuse|CompressBuffer|Closed|Stats

.PHONY: test-race
test-race:
	$(GO) test -race -count=1 -run '$(RACE_TESTS)' .
