# Plots and the figures table of results/README.md, drawn from a recorded run's
# benchmark output (results/<run>/).
PLOT_RUN ?= results/2026-11-28-h100-runtime-loader/bench.txt
PLOT_SVG ?= results/plots/h100.svg

.PHONY: plots
plots:
	$(GO) run ./internal/benchplot -in $(PLOT_RUN) -svg $(PLOT_SVG) -table
