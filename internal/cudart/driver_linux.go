package cudart

import (
	"fmt"
	"os"

	"github.com/ebitengine/purego"
)

func load() error {
	lib := defaultLibrary
	if p := os.Getenv(LibraryEnv); p != "" {
		lib = p
	}
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return fmt.Errorf("%w (%v)", ErrNoDriver, err)
	}
	for _, s := range symbols() {
		if *s.fn, err = purego.Dlsym(h, s.name); err != nil {
			return fmt.Errorf("%w (%s has no %s)", ErrNoDriver, lib, s.name)
		}
	}
	return checkCode("cuInit", call(driver.cuInit, 0))
}

// call calls a driver entry point and returns its CUresult. Callers
// convert pointer arguments with uintptr(unsafe.Pointer(p)) in the call's
// argument list, which uintptrescapes turns into heap objects kept alive
// for the call: a stack variable's address could move with its stack.
//
//go:uintptrescapes
func call(fn uintptr, args ...uintptr) Code {
	r, _, _ := purego.SyscallN(fn, args...)
	return Code(int32(r))
}
