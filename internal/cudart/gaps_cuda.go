//go:build cuda

package cudart

// The driver calls that gorgonia.org/cu v0.9.6 does not wrap: pinned host
// memory (allocated or registered), kernel attributes and the driver's error names and descriptions.

// #cgo LDFLAGS: -lcuda
// #include <cuda.h>
import "C"

import "unsafe"

// hostAlloc allocates n bytes of page-locked host memory, for the copy
// engines and mapped into the device's address space for kernels.
func hostAlloc(n int) (unsafe.Pointer, Code) {
	var p unsafe.Pointer
	rc := C.cuMemHostAlloc(&p, C.size_t(n), C.CU_MEMHOSTALLOC_PORTABLE|C.CU_MEMHOSTALLOC_DEVICEMAP)
	return p, Code(rc)
}

// hostDevicePointer is the device address of page-locked, mapped host
// memory at p.
func hostDevicePointer(p unsafe.Pointer) (uint64, Code) {
	var d C.CUdeviceptr
	rc := C.cuMemHostGetDevicePointer_v2(&d, p, 0)
	return uint64(d), Code(rc)
}

// hostFree releases memory from hostAlloc.
func hostFree(p unsafe.Pointer) Code { return Code(C.cuMemFreeHost(p)) }

// hostRegister page-locks n bytes of existing host memory at p for every
// context, mapped into the device's address space (cuMemHostRegister is a macro for the _v2 entry point, which cgo
// cannot call through the macro).
func hostRegister(p unsafe.Pointer, n int) Code {
	return Code(C.cuMemHostRegister_v2(p, C.size_t(n), C.CU_MEMHOSTREGISTER_PORTABLE|C.CU_MEMHOSTREGISTER_DEVICEMAP))
}

// hostUnregister undoes hostRegister.
func hostUnregister(p unsafe.Pointer) Code { return Code(C.cuMemHostUnregister(p)) }

// funcSetAttribute sets a kernel attribute. fn is the driver's CUfunction
// handle, taken from gorgonia.org/cu's Function, whose only field it is.
func funcSetAttribute(fn unsafe.Pointer, attr FuncAttribute, value int) Code {
	return Code(C.cuFuncSetAttribute(C.CUfunction(fn), C.CUfunction_attribute(attr), C.int(value)))
}

// errorName is the driver's name for a code, e.g. CUDA_ERROR_ILLEGAL_ADDRESS;
// "" when the driver does not know the code.
func errorName(c Code) string {
	var s *C.char
	if C.cuGetErrorName(C.CUresult(c), &s) != C.CUDA_SUCCESS || s == nil {
		return ""
	}
	return C.GoString(s)
}

// errorString is the driver's description of a code.
func errorString(c Code) string {
	var s *C.char
	if C.cuGetErrorString(C.CUresult(c), &s) != C.CUDA_SUCCESS || s == nil {
		return ""
	}
	return C.GoString(s)
}
