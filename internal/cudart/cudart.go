package cudart

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
	"unsafe"
)

// Code is a CUDA driver result code (CUresult). It is an error, so that
// errors.Is(err, cudart.IllegalAddress) finds the code inside an *Error.
type Code int

// The codes this package's callers tell apart; any other code still
// prints with the driver's own name.
const (
	Success               Code = 0
	InvalidValue          Code = 1
	OutOfMemory           Code = 2
	NotInitialized        Code = 3
	NoDevice              Code = 100
	InvalidDevice         Code = 101
	InvalidImage          Code = 200
	InvalidContext        Code = 201
	NoBinaryForGPU        Code = 209
	ECCUncorrectable      Code = 214
	InvalidPTX            Code = 218
	UnsupportedPTXVersion Code = 222
	InvalidHandle         Code = 400
	NotFound              Code = 500
	NotReady              Code = 600
	IllegalAddress        Code = 700
	LaunchOutOfResources  Code = 701
	LaunchTimeout         Code = 702
	Assert                Code = 710
	HardwareStackError    Code = 714
	IllegalInstruction    Code = 715
	MisalignedAddress     Code = 716
	InvalidAddressSpace   Code = 717
	InvalidPC             Code = 718
	LaunchFailed          Code = 719
)

// Name is the driver's name for the code (cuGetErrorName), or CUresult(N).
func (c Code) Name() string {
	if n := errorName(c); n != "" {
		return n
	}
	return fmt.Sprintf("CUresult(%d)", int(c))
}

// Error is the name and the driver's description (cuGetErrorString).
func (c Code) Error() string {
	if s := errorString(c); s != "" {
		return c.Name() + ": " + s
	}
	return c.Name()
}

// Sticky reports a code after which the context is unusable: every later
// call in it fails, and only destroying it and creating another recovers.
func (c Code) Sticky() bool {
	switch c {
	case IllegalAddress, LaunchTimeout, Assert, HardwareStackError, IllegalInstruction,
		MisalignedAddress, InvalidAddressSpace, InvalidPC, LaunchFailed, ECCUncorrectable:
		return true
	}
	return false
}

// Error is a failed driver call: the operation, the code and, for a module
// load, the JIT compiler's log.
type Error struct {
	Op   string // the driver call or the operation that failed
	Code Code
	Log  string // JIT error log of a failed module load; "" otherwise
}

func (e *Error) Error() string {
	msg := "cudart: " + e.Op + ": " + e.Code.Error()
	if e.Log != "" {
		msg += "\nJIT log:\n" + e.Log
	}
	return msg
}

// Unwrap returns the code.
func (e *Error) Unwrap() error { return e.Code }

// ErrClosed reports the use of a closed Context or of something made in it.
var ErrClosed = errors.New("cudart: context closed")

// ErrNoDriver reports that the CUDA driver library, or one of the entry
// points this package needs, is not there.
var ErrNoDriver = errors.New("cudart: CUDA driver library not found")

func checkCode(op string, c Code) error {
	if c == Success {
		return nil
	}
	return &Error{Op: op, Code: c}
}

// DriverVersion is the driver's API version, e.g. 13000 for CUDA 13.0; 0
// without a driver.
func DriverVersion() int {
	if Init() != nil {
		return 0
	}
	var v int32
	call(driver.cuDriverGetVersion, uintptr(unsafe.Pointer(&v)))
	return int(v)
}

// DeviceInfo describes a device from its own attributes.
type DeviceInfo struct {
	Ordinal      int    // the driver's device index
	Name         string // the device's product name
	TotalMemory  uint64 // device memory, bytes
	L2CacheSize  uint64 // L2 cache, bytes
	Major, Minor int    // compute capability
	SMs          int    // multiprocessors
}

// Devices lists the CUDA devices. Without a usable driver it returns Init's
// error.
func Devices() ([]DeviceInfo, error) {
	if err := Init(); err != nil {
		return nil, err
	}
	var n int32
	if err := checkCode("cuDeviceGetCount", call(driver.cuDeviceGetCount, uintptr(unsafe.Pointer(&n)))); err != nil {
		return nil, err
	}
	devs := make([]DeviceInfo, 0, n)
	for i := range int(n) {
		d, err := Device(i)
		if err != nil {
			return nil, err
		}
		devs = append(devs, d)
	}
	return devs, nil
}

// CUdevice_attribute values read by Device.
const (
	attrMultiprocessorCount    = 16
	attrComputeCapabilityMajor = 75
	attrComputeCapabilityMinor = 76
	attrL2CacheSize            = 38
)

// device is the driver's handle of device ordinal.
func device(ordinal int) (int32, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	var dev int32
	return dev, checkCode("cuDeviceGet", call(driver.cuDeviceGet, uintptr(unsafe.Pointer(&dev)), uintptr(ordinal)))
}

// Device describes device ordinal.
func Device(ordinal int) (DeviceInfo, error) {
	dev, err := device(ordinal)
	if err != nil {
		return DeviceInfo{}, err
	}
	info := DeviceInfo{Ordinal: ordinal}
	var name [256]byte
	if err := checkCode("cuDeviceGetName", call(driver.cuDeviceGetName, uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)-1), uintptr(dev))); err != nil {
		return DeviceInfo{}, err
	}
	info.Name = goString(&name[0])
	var mem uint64
	if err := checkCode("cuDeviceTotalMem", call(driver.cuDeviceTotalMem, uintptr(unsafe.Pointer(&mem)), uintptr(dev))); err != nil {
		return DeviceInfo{}, err
	}
	info.TotalMemory = mem
	var l2 int
	attrs := []struct {
		attr uintptr
		dst  *int
	}{
		{attrComputeCapabilityMajor, &info.Major}, {attrComputeCapabilityMinor, &info.Minor},
		{attrMultiprocessorCount, &info.SMs}, {attrL2CacheSize, &l2},
	}
	for _, a := range attrs {
		var v int32
		if err := checkCode("cuDeviceGetAttribute", call(driver.cuDeviceGetAttr, uintptr(unsafe.Pointer(&v)), a.attr, uintptr(dev))); err != nil {
			return DeviceInfo{}, err
		}
		*a.dst = int(v)
	}
	info.L2CacheSize = uint64(l2)
	return info, nil
}

// Context is a CUDA context of its own on one device. Its methods may be
// called from any goroutine: each makes the context current on a locked OS
// thread for the duration of the call. Destroying the context frees
// everything made in it.
type Context struct {
	info   DeviceInfo
	ctx    uintptr // CUcontext
	closed bool
}

// NewContext creates a context on device ordinal.
func NewContext(ordinal int) (*Context, error) {
	info, err := Device(ordinal)
	if err != nil {
		return nil, err
	}
	dev, err := device(ordinal)
	if err != nil {
		return nil, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var prev, ctx, popped uintptr
	call(driver.cuCtxGetCurrent, uintptr(unsafe.Pointer(&prev)))
	const schedAuto = 0
	if err := checkCode("cuCtxCreate", call(driver.cuCtxCreate, uintptr(unsafe.Pointer(&ctx)), schedAuto, uintptr(dev))); err != nil {
		return nil, err
	}
	// cuCtxCreate pushes the new context; leave this thread as it was.
	call(driver.cuCtxPopCurrent, uintptr(unsafe.Pointer(&popped)))
	call(driver.cuCtxSetCurrent, prev)
	return &Context{info: info, ctx: ctx}, nil
}

// Device is the context's device.
func (c *Context) Device() DeviceInfo { return c.info }

// Do runs fn with the context current on a locked OS thread, for callers
// that use the driver directly.
func (c *Context) Do(fn func() error) error {
	if c.closed {
		return ErrClosed
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := checkCode("cuCtxSetCurrent", call(driver.cuCtxSetCurrent, c.ctx)); err != nil {
		return err
	}
	return fn()
}

// Close destroys the context and everything made in it. A context that a
// sticky error poisoned can still be closed.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return checkCode("cuCtxDestroy", call(driver.cuCtxDestroy, c.ctx))
}

// Synchronize waits for all work in the context.
func (c *Context) Synchronize() error {
	return c.Do(func() error { return checkCode("cuCtxSynchronize", call(driver.cuCtxSynchronize)) })
}

// MemInfo is the device's free and total memory as the context sees it.
func (c *Context) MemInfo() (free, total uint64, err error) {
	err = c.Do(func() error {
		return checkCode("cuMemGetInfo", call(driver.cuMemGetInfo, uintptr(unsafe.Pointer(&free)), uintptr(unsafe.Pointer(&total))))
	})
	return free, total, err
}

// Module is a PTX module loaded into a context.
type Module struct {
	ctx *Context
	mod uintptr // CUmodule
	// InfoLog is the JIT compiler's informational log (registers, spills).
	InfoLog string
}

const jitLogSize = 16 << 10

// CUjit_option values for the JIT's logs.
const (
	jitInfoLogBuffer      = 3
	jitInfoLogBufferSize  = 4
	jitErrorLogBuffer     = 5
	jitErrorLogBufferSize = 6
	jitLogVerbose         = 12
)

// LoadPTX JIT-compiles PTX text for the context's device and loads it. A
// failure's *Error carries the JIT compiler's error log.
func (c *Context) LoadPTX(text string) (*Module, error) {
	image := append([]byte(text), 0)
	errLog, infoLog := make([]byte, jitLogSize), make([]byte, jitLogSize)
	opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSize, jitInfoLogBuffer, jitInfoLogBufferSize, jitLogVerbose}
	// Option values are pointer-sized; sizes and flags go by value.
	// errLog and infoLog are heap memory, which does not move, kept alive
	// below until the driver is done with them.
	vals := []uintptr{uintptr(unsafe.Pointer(&errLog[0])), jitLogSize, uintptr(unsafe.Pointer(&infoLog[0])), jitLogSize, 1}
	m := &Module{ctx: c}
	err := c.Do(func() error {
		rc := call(driver.cuModuleLoadDataEx, uintptr(unsafe.Pointer(&m.mod)), uintptr(unsafe.Pointer(&image[0])), uintptr(len(opts)), uintptr(unsafe.Pointer(&opts[0])), uintptr(unsafe.Pointer(&vals[0])))
		runtime.KeepAlive(errLog)
		runtime.KeepAlive(infoLog)
		if rc != Success {
			return &Error{Op: "cuModuleLoadDataEx", Code: rc, Log: logText(errLog)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.InfoLog = logText(infoLog)
	return m, nil
}

func logText(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

// Function looks up a kernel by name.
func (m *Module) Function(name string) (*Function, error) {
	f := &Function{ctx: m.ctx, Name: name}
	cname := append([]byte(name), 0)
	err := m.ctx.Do(func() error {
		return checkCode("cuModuleGetFunction "+name, call(driver.cuModuleGetFunction, uintptr(unsafe.Pointer(&f.fn)), m.mod, uintptr(unsafe.Pointer(&cname[0]))))
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Unload unloads the module.
func (m *Module) Unload() error {
	return m.ctx.Do(func() error { return checkCode("cuModuleUnload", call(driver.cuModuleUnload, m.mod)) })
}

// Function is a kernel of a loaded module.
type Function struct {
	ctx  *Context
	fn   uintptr // CUfunction
	Name string  // the kernel's entry name
}

// FuncAttribute is a CUfunction_attribute.
type FuncAttribute int

// Kernel attributes.
const (
	FuncMaxThreadsPerBlock       FuncAttribute = 0 // threads
	FuncSharedSizeBytes          FuncAttribute = 1 // static shared memory, bytes
	FuncNumRegs                  FuncAttribute = 4 // registers per thread
	FuncMaxDynamicSharedSizeByte FuncAttribute = 8 // dynamic shared memory limit, bytes
)

// Attribute reads a kernel attribute.
func (f *Function) Attribute(a FuncAttribute) (int, error) {
	var v int32
	err := f.ctx.Do(func() error {
		return checkCode("cuFuncGetAttribute", call(driver.cuFuncGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a), f.fn))
	})
	return int(v), err
}

// SetAttribute sets a kernel attribute, e.g. FuncMaxDynamicSharedSizeByte
// to launch with more than 48 KiB of dynamic shared memory.
func (f *Function) SetAttribute(a FuncAttribute, value int) error {
	return f.ctx.Do(func() error {
		return checkCode("cuFuncSetAttribute", call(driver.cuFuncSetAttribute, f.fn, uintptr(a), uintptr(value)))
	})
}

// MaxActiveBlocksPerSM is how many blocks of blockThreads threads, with
// the kernel's static shared memory, one multiprocessor holds at once.
func (f *Function) MaxActiveBlocksPerSM(blockThreads int) (int, error) {
	var n int32
	err := f.ctx.Do(func() error {
		return checkCode("cuOccupancyMaxActiveBlocksPerMultiprocessor",
			call(driver.cuOccupancyMaxActiveBlocks, uintptr(unsafe.Pointer(&n)), f.fn, uintptr(blockThreads), 0))
	})
	return int(n), err
}

// DevicePtr is a device address.
type DevicePtr uint64

// Alloc allocates n bytes of device memory.
func (c *Context) Alloc(n int) (DevicePtr, error) {
	var p DevicePtr
	err := c.Do(func() error {
		return checkCode(fmt.Sprintf("cuMemAlloc(%d)", n), call(driver.cuMemAlloc, uintptr(unsafe.Pointer(&p)), uintptr(n)))
	})
	return p, err
}

// Free releases device memory; after Close it does nothing.
func (c *Context) Free(p DevicePtr) error {
	if c.closed || p == 0 {
		return nil
	}
	return c.Do(func() error { return checkCode("cuMemFree", call(driver.cuMemFree, uintptr(p))) })
}

// Memset sets n bytes at p to b, synchronously: cuMemsetD8 may return
// before the device has set them, and work in a non-blocking stream (every
// Stream here) does not wait for it, so Memset waits for the context.
func (c *Context) Memset(p DevicePtr, b byte, n int) error {
	return c.Do(func() error {
		if err := checkCode("cuMemsetD8", call(driver.cuMemsetD8, uintptr(p), uintptr(b), uintptr(n))); err != nil {
			return err
		}
		return checkCode("cuCtxSynchronize", call(driver.cuCtxSynchronize))
	})
}

// CopyHtoD copies src to the device, synchronously: from pageable memory
// cuMemcpyHtoD returns once src is staged, possibly before the bytes reach
// the device, and work in a non-blocking stream does not wait for them (a
// kernel's output could be overwritten by the copy's tail), so CopyHtoD
// waits for the context.
func (c *Context) CopyHtoD(dst DevicePtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return c.Do(func() error {
		if err := checkCode("cuMemcpyHtoD", call(driver.cuMemcpyHtoD, uintptr(dst), uintptr(unsafe.Pointer(&src[0])), uintptr(len(src)))); err != nil {
			return err
		}
		return checkCode("cuCtxSynchronize", call(driver.cuCtxSynchronize))
	})
}

// CopyDtoH copies len(dst) bytes from the device, synchronously.
func (c *Context) CopyDtoH(dst []byte, src DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return c.Do(func() error {
		return checkCode("cuMemcpyDtoH", call(driver.cuMemcpyDtoH, uintptr(unsafe.Pointer(&dst[0])), uintptr(src), uintptr(len(dst))))
	})
}

// HostBuffer is page-locked host memory, which the copy engines read and
// write directly, so that asynchronous copies overlap kernels, and which
// kernels read and write across the bus at its device address.
type HostBuffer struct {
	ctx    *Context
	ptr    unsafe.Pointer
	Bytes  []byte    // the whole buffer; not Go memory
	Device DevicePtr // the address of Bytes[0] in kernels
}

// cuMemHostAlloc and cuMemHostRegister flags: visible to every context,
// and mapped into the device's address space.
const (
	hostAllocPortable     = 0x01
	hostAllocDeviceMap    = 0x02
	hostRegisterPortable  = 0x01
	hostRegisterDeviceMap = 0x02
)

// HostAlloc allocates n bytes of pinned, mapped host memory
// (cuMemHostAlloc).
func (c *Context) HostAlloc(n int) (*HostBuffer, error) {
	h := &HostBuffer{ctx: c}
	err := c.Do(func() error {
		var p unsafe.Pointer
		if rc := call(driver.cuMemHostAlloc, uintptr(unsafe.Pointer(&p)), uintptr(n), hostAllocPortable|hostAllocDeviceMap); rc != Success {
			return &Error{Op: fmt.Sprintf("cuMemHostAlloc(%d)", n), Code: rc}
		}
		var d DevicePtr
		if rc := call(driver.cuMemHostGetDevicePointer, uintptr(unsafe.Pointer(&d)), uintptr(p), 0); rc != Success {
			call(driver.cuMemFreeHost, uintptr(p))
			return &Error{Op: "cuMemHostGetDevicePointer", Code: rc}
		}
		h.ptr, h.Device = p, d
		h.Bytes = unsafe.Slice((*byte)(p), n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// Free releases the buffer; after its context's Close it does nothing.
func (h *HostBuffer) Free() error {
	if h == nil || h.ptr == nil || h.ctx.closed {
		return nil
	}
	p := h.ptr
	h.ptr, h.Bytes = nil, nil
	return h.ctx.Do(func() error { return checkCode("cuMemFreeHost", call(driver.cuMemFreeHost, uintptr(p))) })
}

// Register page-locks b, memory the caller owns (Go memory included), so
// that the copy engines and kernels use it as they do a HostBuffer, and
// returns the device address of b[0]. b must stay reachable and registered
// until Unregister; a context's registrations end with it.
func (c *Context) Register(b []byte) (DevicePtr, error) {
	if len(b) == 0 {
		return 0, errors.New("cudart: Register of no bytes")
	}
	var d DevicePtr
	err := c.Do(func() error {
		if rc := call(driver.cuMemHostRegister, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), hostRegisterPortable|hostRegisterDeviceMap); rc != Success {
			return &Error{Op: fmt.Sprintf("cuMemHostRegister(%d)", len(b)), Code: rc}
		}
		if rc := call(driver.cuMemHostGetDevicePointer, uintptr(unsafe.Pointer(&d)), uintptr(unsafe.Pointer(&b[0])), 0); rc != Success {
			call(driver.cuMemHostUnregister, uintptr(unsafe.Pointer(&b[0])))
			return &Error{Op: "cuMemHostGetDevicePointer", Code: rc}
		}
		return nil
	})
	return d, err
}

// HostDevicePointer is the device address of b[0] in this context, where b
// is memory that Register or HostAlloc locked portably in any context: the
// address may differ from one context to another.
func (c *Context) HostDevicePointer(b []byte) (DevicePtr, error) {
	if len(b) == 0 {
		return 0, errors.New("cudart: HostDevicePointer of no bytes")
	}
	var d DevicePtr
	err := c.Do(func() error {
		return checkCode("cuMemHostGetDevicePointer", call(driver.cuMemHostGetDevicePointer, uintptr(unsafe.Pointer(&d)), uintptr(unsafe.Pointer(&b[0])), 0))
	})
	return d, err
}

// Unregister undoes Register; after Close it does nothing.
func (c *Context) Unregister(b []byte) error {
	if c.closed || len(b) == 0 {
		return nil
	}
	return c.Do(func() error {
		return checkCode("cuMemHostUnregister", call(driver.cuMemHostUnregister, uintptr(unsafe.Pointer(&b[0]))))
	})
}

// Stream is a CUDA stream; it does not synchronise with the legacy default
// stream.
type Stream struct {
	ctx *Context
	s   uintptr // CUstream
}

// NewStream creates a non-blocking stream.
func (c *Context) NewStream() (*Stream, error) {
	st := &Stream{ctx: c}
	const nonBlocking = 1
	err := c.Do(func() error {
		return checkCode("cuStreamCreate", call(driver.cuStreamCreate, uintptr(unsafe.Pointer(&st.s)), nonBlocking))
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// Destroy releases the stream; after Close it does nothing.
func (s *Stream) Destroy() error {
	if s == nil || s.ctx.closed {
		return nil
	}
	return s.ctx.Do(func() error { return checkCode("cuStreamDestroy", call(driver.cuStreamDestroy, s.s)) })
}

// Synchronize waits for the stream's work.
func (s *Stream) Synchronize() error {
	return s.ctx.Do(func() error { return checkCode("cuStreamSynchronize", call(driver.cuStreamSynchronize, s.s)) })
}

// CopyHtoD queues a copy of src to dst. src must stay untouched until the
// copy is done; only pinned memory (HostBuffer) is copied asynchronously.
func (s *Stream) CopyHtoD(dst DevicePtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return s.ctx.Do(func() error {
		return checkCode("cuMemcpyHtoDAsync", call(driver.cuMemcpyHtoDAsync, uintptr(dst), uintptr(unsafe.Pointer(&src[0])), uintptr(len(src)), s.s))
	})
}

// CopyDtoH queues a copy of len(dst) bytes at src into dst.
func (s *Stream) CopyDtoH(dst []byte, src DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return s.ctx.Do(func() error {
		return checkCode("cuMemcpyDtoHAsync", call(driver.cuMemcpyDtoHAsync, uintptr(unsafe.Pointer(&dst[0])), uintptr(src), uintptr(len(dst)), s.s))
	})
}

// Dim is a grid or block size.
type Dim struct{ X, Y, Z int }

// Launch queues fn on a grid of blocks with dynamic shared memory of
// shared bytes. Every argument is passed as 8 bytes, so every kernel
// parameter must be .u64 (or .b64/.s64/.f64).
func (s *Stream) Launch(fn *Function, grid, block Dim, shared int, args ...uint64) error {
	params := make([]unsafe.Pointer, len(args)+1) // never empty, so params[0] exists
	for i := range args {
		params[i] = unsafe.Pointer(&args[i])
	}
	return s.ctx.Do(func() error {
		rc := call(driver.cuLaunchKernel, fn.fn,
			uintptr(max(grid.X, 1)), uintptr(max(grid.Y, 1)), uintptr(max(grid.Z, 1)),
			uintptr(max(block.X, 1)), uintptr(max(block.Y, 1)), uintptr(max(block.Z, 1)),
			uintptr(shared), s.s, uintptr(unsafe.Pointer(&params[0])), 0)
		runtime.KeepAlive(args)
		return checkCode("cuLaunchKernel "+fn.Name, rc)
	})
}

// Wait makes later work in the stream wait for the event.
func (s *Stream) Wait(e *Event) error {
	return s.ctx.Do(func() error { return checkCode("cuStreamWaitEvent", call(driver.cuStreamWaitEvent, s.s, e.e, 0)) })
}

// Event is a CUDA event with timing.
type Event struct {
	ctx *Context
	e   uintptr // CUevent
}

// NewEvent creates a timing event.
func (c *Context) NewEvent() (*Event, error) {
	ev := &Event{ctx: c}
	const defaultEvent = 0
	err := c.Do(func() error {
		return checkCode("cuEventCreate", call(driver.cuEventCreate, uintptr(unsafe.Pointer(&ev.e)), defaultEvent))
	})
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// Destroy releases the event; after Close it does nothing.
func (e *Event) Destroy() error {
	if e == nil || e.ctx.closed {
		return nil
	}
	return e.ctx.Do(func() error { return checkCode("cuEventDestroy", call(driver.cuEventDestroy, e.e)) })
}

// Record records the event in the stream.
func (e *Event) Record(s *Stream) error {
	return e.ctx.Do(func() error { return checkCode("cuEventRecord", call(driver.cuEventRecord, e.e, s.s)) })
}

// Synchronize waits for the event; it returns the error of any work that
// failed before it.
func (e *Event) Synchronize() error {
	return e.ctx.Do(func() error { return checkCode("cuEventSynchronize", call(driver.cuEventSynchronize, e.e)) })
}

// Done reports, without waiting, whether the work before the event is
// complete; it returns the error of any of that work that failed.
func (e *Event) Done() (bool, error) {
	var done bool
	err := e.ctx.Do(func() error {
		switch rc := call(driver.cuEventQuery, e.e); rc {
		case Success:
			done = true
			return nil
		case NotReady:
			return nil
		default:
			return &Error{Op: "cuEventQuery", Code: rc}
		}
	})
	return done, err
}

// Elapsed is the time from e to end, both recorded and complete.
func (e *Event) Elapsed(end *Event) (time.Duration, error) {
	var ms float32
	err := e.ctx.Do(func() error {
		return checkCode("cuEventElapsedTime", call(driver.cuEventElapsedTime, uintptr(unsafe.Pointer(&ms)), e.e, end.e))
	})
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}
