// Package intlist parses comma-separated lists of positive integers, as the
// benchmarks take batch sizes and counts from flags and the environment.
package intlist

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse returns the positive integers of s, separated by commas, with
// spaces allowed around each; an empty s gives none.
func Parse(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("intlist: %q is not a positive integer", f)
		}
		ns = append(ns, n)
	}
	return ns, nil
}
