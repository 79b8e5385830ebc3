package cudart

import (
	"sync"
	"unsafe"
)

// The driver library is opened at run time, not linked, so that one binary
// starts on every machine: without the library, with a driver whose cuInit
// fails, and with a GPU.
const defaultLibrary = "libcuda.so.1"

// LibraryEnv names an environment variable that, when set, gives the path of
// the driver library to load instead of libcuda.so.1 (unusual installs, and
// tests that need a driver that fails).
const LibraryEnv = "LZ4WARP_CUDA_LIBRARY"

// The driver entry points this package calls, by their exported names (the
// versioned ones where cuda.h maps a name to a _v2 symbol).
var driver struct {
	once sync.Once
	err  error

	cuInit, cuDriverGetVersion, cuGetErrorName, cuGetErrorString                      uintptr
	cuDeviceGetCount, cuDeviceGet, cuDeviceGetName, cuDeviceTotalMem, cuDeviceGetAttr uintptr
	cuCtxCreate, cuCtxDestroy, cuCtxPopCurrent, cuCtxGetCurrent, cuCtxSetCurrent      uintptr
	cuCtxSynchronize, cuMemGetInfo                                                    uintptr
	cuModuleLoadDataEx, cuModuleGetFunction, cuModuleUnload                           uintptr
	cuFuncGetAttribute, cuFuncSetAttribute, cuOccupancyMaxActiveBlocks                uintptr
	cuMemAlloc, cuMemFree, cuMemsetD8, cuMemcpyHtoD, cuMemcpyDtoH                     uintptr
	cuMemHostAlloc, cuMemHostGetDevicePointer, cuMemFreeHost                          uintptr
	cuMemHostRegister, cuMemHostUnregister                                            uintptr
	cuStreamCreate, cuStreamDestroy, cuStreamSynchronize, cuStreamWaitEvent           uintptr
	cuMemcpyHtoDAsync, cuMemcpyDtoHAsync, cuLaunchKernel                              uintptr
	cuEventCreate, cuEventDestroy, cuEventRecord, cuEventSynchronize, cuEventQuery    uintptr
	cuEventElapsedTime                                                                uintptr
}

// entryPoint is a driver function's exported name and where its address goes.
type entryPoint struct {
	name string
	fn   *uintptr
}

// symbols pairs each entry point with its exported name.
func symbols() []entryPoint {
	d := &driver
	return []entryPoint{
		{"cuInit", &d.cuInit}, {"cuDriverGetVersion", &d.cuDriverGetVersion},
		{"cuGetErrorName", &d.cuGetErrorName}, {"cuGetErrorString", &d.cuGetErrorString},
		{"cuDeviceGetCount", &d.cuDeviceGetCount}, {"cuDeviceGet", &d.cuDeviceGet},
		{"cuDeviceGetName", &d.cuDeviceGetName}, {"cuDeviceTotalMem_v2", &d.cuDeviceTotalMem},
		{"cuDeviceGetAttribute", &d.cuDeviceGetAttr},
		{"cuCtxCreate_v2", &d.cuCtxCreate}, {"cuCtxDestroy_v2", &d.cuCtxDestroy},
		{"cuCtxPopCurrent_v2", &d.cuCtxPopCurrent}, {"cuCtxGetCurrent", &d.cuCtxGetCurrent},
		{"cuCtxSetCurrent", &d.cuCtxSetCurrent}, {"cuCtxSynchronize", &d.cuCtxSynchronize},
		{"cuMemGetInfo_v2", &d.cuMemGetInfo},
		{"cuModuleLoadDataEx", &d.cuModuleLoadDataEx}, {"cuModuleGetFunction", &d.cuModuleGetFunction},
		{"cuModuleUnload", &d.cuModuleUnload},
		{"cuFuncGetAttribute", &d.cuFuncGetAttribute}, {"cuFuncSetAttribute", &d.cuFuncSetAttribute},
		{"cuOccupancyMaxActiveBlocksPerMultiprocessor", &d.cuOccupancyMaxActiveBlocks},
		{"cuMemAlloc_v2", &d.cuMemAlloc}, {"cuMemFree_v2", &d.cuMemFree}, {"cuMemsetD8_v2", &d.cuMemsetD8},
		{"cuMemcpyHtoD_v2", &d.cuMemcpyHtoD}, {"cuMemcpyDtoH_v2", &d.cuMemcpyDtoH},
		{"cuMemHostAlloc", &d.cuMemHostAlloc}, {"cuMemHostGetDevicePointer_v2", &d.cuMemHostGetDevicePointer},
		{"cuMemFreeHost", &d.cuMemFreeHost},
		{"cuMemHostRegister_v2", &d.cuMemHostRegister}, {"cuMemHostUnregister", &d.cuMemHostUnregister},
		{"cuStreamCreate", &d.cuStreamCreate}, {"cuStreamDestroy_v2", &d.cuStreamDestroy},
		{"cuStreamSynchronize", &d.cuStreamSynchronize}, {"cuStreamWaitEvent", &d.cuStreamWaitEvent},
		{"cuMemcpyHtoDAsync_v2", &d.cuMemcpyHtoDAsync}, {"cuMemcpyDtoHAsync_v2", &d.cuMemcpyDtoHAsync},
		{"cuLaunchKernel", &d.cuLaunchKernel},
		{"cuEventCreate", &d.cuEventCreate}, {"cuEventDestroy_v2", &d.cuEventDestroy},
		{"cuEventRecord", &d.cuEventRecord}, {"cuEventSynchronize", &d.cuEventSynchronize},
		{"cuEventQuery", &d.cuEventQuery}, {"cuEventElapsedTime", &d.cuEventElapsedTime},
	}
}

// EntryPoints lists the driver's exported functions this package calls: a
// driver library must export every one of them.
func EntryPoints() []string {
	syms := symbols()
	names := make([]string, len(syms))
	for i, s := range syms {
		names[i] = s.name
	}
	return names
}

// Init loads the driver library, resolves its entry points and initialises
// the driver, once per process. It returns why the driver cannot be used:
// an error wrapping ErrNoDriver when the library or one of its entry points
// is missing, or an *Error with cuInit's code. Every other function of the
// package calls it first.
func Init() error {
	driver.once.Do(func() { driver.err = load() })
	return driver.err
}

// goString copies a NUL-terminated C string that the driver owns.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// errorName is the driver's name for a code, e.g. CUDA_ERROR_ILLEGAL_ADDRESS,
// or the name this package knows when the driver cannot say; "" otherwise.
func errorName(c Code) string {
	if driver.cuGetErrorName != 0 {
		var s *byte
		if call(driver.cuGetErrorName, uintptr(c), uintptr(unsafe.Pointer(&s))) == Success && s != nil {
			return goString(s)
		}
	}
	return codeNames[c]
}

// errorString is the driver's description of a code; "" without a driver.
func errorString(c Code) string {
	if driver.cuGetErrorString == 0 {
		return ""
	}
	var s *byte
	if call(driver.cuGetErrorString, uintptr(c), uintptr(unsafe.Pointer(&s))) != Success {
		return ""
	}
	return goString(s)
}

// codeNames are cuda.h's names of the codes this package tells apart, for
// errors from a driver that cannot name them (a failed or partial one).
var codeNames = map[Code]string{
	Success: "CUDA_SUCCESS", InvalidValue: "CUDA_ERROR_INVALID_VALUE", OutOfMemory: "CUDA_ERROR_OUT_OF_MEMORY",
	NotInitialized: "CUDA_ERROR_NOT_INITIALIZED", NoDevice: "CUDA_ERROR_NO_DEVICE",
	InvalidDevice: "CUDA_ERROR_INVALID_DEVICE", InvalidImage: "CUDA_ERROR_INVALID_IMAGE",
	InvalidContext: "CUDA_ERROR_INVALID_CONTEXT", NoBinaryForGPU: "CUDA_ERROR_NO_BINARY_FOR_GPU",
	ECCUncorrectable: "CUDA_ERROR_ECC_UNCORRECTABLE", InvalidPTX: "CUDA_ERROR_INVALID_PTX",
	UnsupportedPTXVersion: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", InvalidHandle: "CUDA_ERROR_INVALID_HANDLE",
	NotFound: "CUDA_ERROR_NOT_FOUND", NotReady: "CUDA_ERROR_NOT_READY", IllegalAddress: "CUDA_ERROR_ILLEGAL_ADDRESS",
	LaunchOutOfResources: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", LaunchTimeout: "CUDA_ERROR_LAUNCH_TIMEOUT",
	Assert: "CUDA_ERROR_ASSERT", HardwareStackError: "CUDA_ERROR_HARDWARE_STACK_ERROR",
	IllegalInstruction: "CUDA_ERROR_ILLEGAL_INSTRUCTION", MisalignedAddress: "CUDA_ERROR_MISALIGNED_ADDRESS",
	InvalidAddressSpace: "CUDA_ERROR_INVALID_ADDRESS_SPACE", InvalidPC: "CUDA_ERROR_INVALID_PC",
	LaunchFailed: "CUDA_ERROR_LAUNCH_FAILED",
	999:          "CUDA_ERROR_UNKNOWN", 34: "CUDA_ERROR_STUB_LIBRARY", 35: "CUDA_ERROR_INSUFFICIENT_DRIVER",
	46: "CUDA_ERROR_DEVICES_UNAVAILABLE", 304: "CUDA_ERROR_OPERATING_SYSTEM", 802: "CUDA_ERROR_SYSTEM_NOT_READY",
	803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", 804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
}
