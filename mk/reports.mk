# Test reports for CI. With REPORTS=DIR (as .ci/run sets it), make test runs
# every package's tests through go test -json and leaves in DIR a JUnit file
# per package (junit/, internal/junitreport) and the features' cucumber JSON
# and JUnit (features-cucumber.json, features-junit.xml, godog's formatters).
REPORTS ?=
ifeq ($(REPORTS),)
GO_TEST_ALL = $(GO) test -count=1 ./...
else
GO_TEST_ALL = mkdir -p $(REPORTS)/junit && \
	LZ4WARP_FEATURES_FORMAT=progress,junit:$(abspath $(REPORTS))/features-junit.xml,cucumber:$(abspath $(REPORTS))/features-cucumber.json \
	$(GO) test -count=1 -json ./... | $(GO) run ./internal/junitreport -dir $(REPORTS)/junit
endif
