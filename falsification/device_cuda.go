//go:build cuda

package falsification

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>

static const char *lz4warpErrorName(int code) {
	const char *s = 0;
	if (cuGetErrorName((CUresult)code, &s) != CUDA_SUCCESS) return 0;
	return s;
}
*/
import "C"

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"unsafe"

	"gorgonia.org/cu"
)

// resultName is the CUDA name of a driver API result (CUDA_SUCCESS for nil).
func resultName(err error) string {
	if err == nil {
		return success
	}
	v := reflect.ValueOf(err)
	if v.Kind() == reflect.Int {
		if s := C.lz4warpErrorName(C.int(v.Int())); s != nil {
			return C.GoString(s)
		}
		return fmt.Sprintf("CUresult %d", v.Int())
	}
	return err.Error()
}

// DeviceInfo names device 0 and the driver's CUDA version.
func DeviceInfo() (name string, sm int, driverAPI int, err error) {
	dev := cu.Device(0)
	if name, err = dev.Name(); err != nil {
		return "", 0, 0, err
	}
	major, err := dev.Attribute(cu.ComputeCapabilityMajor)
	if err != nil {
		return "", 0, 0, err
	}
	minor, err := dev.Attribute(cu.ComputeCapabilityMinor)
	if err != nil {
		return "", 0, 0, err
	}
	return name, 10*major + minor, cu.Version(), nil
}

// RunOnDevice launches the experiment's kernel on device 0 in a context of
// its own, created for this run and destroyed after it, so that a sticky
// error (an illegal address) cannot leak into the next experiment. It
// fills every field of the Outcome except Sanitizer; JITLog is the driver's
// error log when the JIT fails.
func RunOnDevice(e Experiment) (o Outcome, jitLog string, err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, sm, _, err := DeviceInfo()
	if err != nil {
		return o, "", err
	}
	dev := cu.Device(0)
	ctx, err := dev.MakeContext(cu.SchedAuto)
	if err != nil {
		return o, "", fmt.Errorf("falsification: creating a context: %s", resultName(err))
	}
	defer ctx.Destroy()

	o.Launch, o.Sync, o.Output = "-", "-", "-"
	logBuf := make([]byte, 1<<14)
	mod, err := cu.LoadDataEx(e.PTX(TargetSM(sm)), &cu.JITErrorLogBuffer{Buffer: logBuf})
	o.JIT = resultName(err)
	if err != nil {
		return o, strings.TrimRight(string(logBuf[:cStringLen(logBuf)]), "\n"), nil
	}
	fn, err := mod.Function(KernelName)
	if err != nil {
		return o, "", fmt.Errorf("falsification: %s: %s", KernelName, resultName(err))
	}
	dst, err := cu.MemAlloc(4 * Words)
	if err != nil {
		return o, "", fmt.Errorf("falsification: allocating: %s", resultName(err))
	}
	if err := cu.MemsetD32(dst, Poison, Words); err != nil {
		return o, "", fmt.Errorf("falsification: poisoning: %s", resultName(err))
	}
	if err := cu.Synchronize(); err != nil {
		return o, "", fmt.Errorf("falsification: before the launch: %s", resultName(err))
	}
	dstArg, biasArg := uint64(dst), e.Bias
	params := []unsafe.Pointer{unsafe.Pointer(&dstArg), unsafe.Pointer(&biasArg)}
	o.Launch = resultName(fn.Launch(e.Config.Blocks(), 1, 1, e.Config.Threads(), 1, 1, 0, cu.Stream{}, params))
	o.Sync = resultName(cu.Synchronize())
	got := make([]uint32, Words)
	if err := cu.MemcpyDtoH(unsafe.Pointer(&got[0]), dst, 4*Words); err != nil {
		o.Output = "unreadable (" + resultName(err) + ")"
	} else {
		o.Output = e.CompareOutput(got)
	}
	// The buffer is freed with the context; after a sticky error MemFree
	// itself fails.
	return o, "", nil
}

func cStringLen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}
