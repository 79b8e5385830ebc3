#!/usr/bin/env bash
# The summary of 2026-11-28-fastenc-cpu, which reads this run's output the same way.
exec bash "$(dirname "$0")/../2026-11-28-fastenc-cpu/summary.sh" "$@"
