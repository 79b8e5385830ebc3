//go:build !linux

package main

import "os"

// isTerminal approximates a terminal test where there is no TCGETS: a
// character device, which wrongly counts /dev/null too.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
