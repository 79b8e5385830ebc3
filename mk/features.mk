# Gherkin features (features/*.feature, run by godog inside go test) and the
# traceability of the spec's rules to the scenarios and tests that check them.
FEATURES_OUT ?= $(BUILD)/features

.PHONY: features trace

# Pretty output on the terminal; JUnit XML and cucumber JSON for CI systems.
# FEATURE_TAGS='@API-4' runs the scenarios tagged so (a godog tag expression).
features:
	@mkdir -p $(FEATURES_OUT)
	$(GO) test -count=1 -v -run '^TestFeatures$$' ./features \
		-godog.format=pretty,junit:$(abspath $(FEATURES_OUT))/report.xml,cucumber:$(abspath $(FEATURES_OUT))/cucumber.json \
		$(if $(FEATURE_TAGS),-godog.tags='$(FEATURE_TAGS)')
	@echo "reports: $(FEATURES_OUT)/report.xml $(FEATURES_OUT)/cucumber.json"

# The matrix: every rule of spec/*.md with the scenarios and tests citing it
# (inside Test, Fuzz, Example and Benchmark functions), the rules only GPU tests check
# with the device run under results/ that last passed one; fails when a rule
# is cited by nothing or a citation names no rule.
trace:
	$(GO) run ./internal/trace/tracematrix
