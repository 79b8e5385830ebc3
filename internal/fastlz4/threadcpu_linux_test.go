package fastlz4

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used
// (getrusage(RUSAGE_THREAD)), so that benchmarks can report throughput per
// busy core even on a machine shared with other work.
func threadCPU() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
