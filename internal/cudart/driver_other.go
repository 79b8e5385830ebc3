//go:build !linux

package cudart

import (
	"fmt"
	"runtime"
)

// load reports that this package opens the driver only on Linux.
func load() error {
	return fmt.Errorf("%w: the driver is loaded only on linux, not %s", ErrNoDriver, runtime.GOOS)
}

// call is unreachable: Init fails first.
//
//go:uintptrescapes
func call(uintptr, ...uintptr) Code { return NotInitialized }
