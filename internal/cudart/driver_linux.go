package cudart

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/ebitengine/purego"
)

func load() error {
	lib := defaultLibrary
	if p := os.Getenv(LibraryEnv); p != "" {
		lib = p
	}
	// dlerror, which gives Dlopen's and Dlsym's messages, is per thread:
	// without the lock a goroutine moved between the calls reads none.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	h, err := purego.Dlopen(lib, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		msg := err.Error()
		if !strings.Contains(msg, lib) {
			msg = lib + ": " + msg
		}
		return fmt.Errorf("%w (%s)", ErrNoDriver, msg)
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
