//go:build cuda

package cudart

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"gorgonia.org/cu"
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

// check turns an error of gorgonia.org/cu (a CUresult value of its own
// integer type) into an *Error.
func check(op string, err error) error {
	if err == nil {
		return nil
	}
	if v := reflect.ValueOf(err); v.Kind() == reflect.Int {
		return &Error{Op: op, Code: Code(v.Int())}
	}
	return fmt.Errorf("cudart: %s: %w", op, err)
}

func checkCode(op string, c Code) error {
	if c == Success {
		return nil
	}
	return &Error{Op: op, Code: c}
}

// DriverVersion is the driver's API version, e.g. 13000 for CUDA 13.0.
func DriverVersion() int { return cu.Version() }

// DeviceInfo describes a device from its own attributes.
type DeviceInfo struct {
	Ordinal      int
	Name         string
	TotalMemory  uint64 // bytes
	L2CacheSize  uint64 // bytes
	Major, Minor int    // compute capability
	SMs          int    // multiprocessors
}

// Devices lists the CUDA devices.
func Devices() ([]DeviceInfo, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, check("cuDeviceGetCount", err)
	}
	devs := make([]DeviceInfo, 0, n)
	for i := range n {
		d, err := Device(i)
		if err != nil {
			return nil, err
		}
		devs = append(devs, d)
	}
	return devs, nil
}

// Device describes device ordinal.
func Device(ordinal int) (DeviceInfo, error) {
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return DeviceInfo{}, check("cuDeviceGet", err)
	}
	info := DeviceInfo{Ordinal: ordinal}
	if info.Name, err = dev.Name(); err != nil {
		return DeviceInfo{}, check("cuDeviceGetName", err)
	}
	mem, err := dev.TotalMem()
	if err != nil {
		return DeviceInfo{}, check("cuDeviceTotalMem", err)
	}
	info.TotalMemory = uint64(mem)
	attrs := []struct {
		attr cu.DeviceAttribute
		dst  *int
	}{{cu.ComputeCapabilityMajor, &info.Major}, {cu.ComputeCapabilityMinor, &info.Minor}, {cu.MultiprocessorCount, &info.SMs}}
	for _, a := range attrs {
		if *a.dst, err = dev.Attribute(a.attr); err != nil {
			return DeviceInfo{}, check("cuDeviceGetAttribute", err)
		}
	}
	l2, err := dev.Attribute(cu.L2CacheSize)
	if err != nil {
		return DeviceInfo{}, check("cuDeviceGetAttribute", err)
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
	ctx    cu.CUContext
	closed bool
}

// NewContext creates a context on device ordinal.
func NewContext(ordinal int) (*Context, error) {
	info, err := Device(ordinal)
	if err != nil {
		return nil, err
	}
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return nil, check("cuDeviceGet", err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev, _ := cu.CurrentContext()
	ctx, err := dev.MakeContext(cu.SchedAuto)
	if err != nil {
		return nil, check("cuCtxCreate", err)
	}
	// cuCtxCreate pushes the new context; leave this thread as it was.
	_, _ = cu.PopCurrentCtx()
	_ = cu.SetCurrentContext(prev)
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
	if err := cu.SetCurrentContext(c.ctx); err != nil {
		return check("cuCtxSetCurrent", err)
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
	err := c.ctx.Destroy()
	return check("cuCtxDestroy", err)
}

// Synchronize waits for all work in the context.
func (c *Context) Synchronize() error {
	return c.Do(func() error { return check("cuCtxSynchronize", cu.Synchronize()) })
}

// MemInfo is the device's free and total memory as the context sees it.
func (c *Context) MemInfo() (free, total uint64, err error) {
	err = c.Do(func() error {
		f, t, err := cu.MemInfo()
		free, total = uint64(f), uint64(t)
		return check("cuMemGetInfo", err)
	})
	return free, total, err
}

// Module is a PTX module loaded into a context.
type Module struct {
	ctx *Context
	mod cu.Module
	// InfoLog is the JIT compiler's informational log (registers, spills).
	InfoLog string
}

const jitLogSize = 16 << 10

// LoadPTX JIT-compiles PTX text for the context's device and loads it. A
// failure's *Error carries the JIT compiler's error log.
func (c *Context) LoadPTX(text string) (*Module, error) {
	errLog := &cu.JITErrorLogBuffer{Buffer: make([]byte, jitLogSize)}
	infoLog := &cu.JITInfoLogBuffer{Buffer: make([]byte, jitLogSize)}
	verbose := &cu.JITLogVerbose{Enabled: true}
	m := &Module{ctx: c}
	err := c.Do(func() error {
		mod, err := cu.LoadDataEx(text, errLog, infoLog, verbose)
		if err != nil {
			e := check("cuModuleLoadDataEx", err)
			var ce *Error
			if errors.As(e, &ce) {
				ce.Log = cString(errLog.Buffer)
			}
			return e
		}
		m.mod = mod
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.InfoLog = cString(infoLog.Buffer)
	return m, nil
}

func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

// Function looks up a kernel by name.
func (m *Module) Function(name string) (*Function, error) {
	f := &Function{ctx: m.ctx, Name: name}
	err := m.ctx.Do(func() error {
		fn, err := m.mod.Function(name)
		f.fn = fn
		return check("cuModuleGetFunction "+name, err)
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Unload unloads the module.
func (m *Module) Unload() error {
	return m.ctx.Do(func() error { return check("cuModuleUnload", m.mod.Unload()) })
}

// Function is a kernel of a loaded module.
type Function struct {
	ctx  *Context
	fn   cu.Function
	Name string
}

// FuncAttribute is a CUfunction_attribute.
type FuncAttribute int

// Kernel attributes.
const (
	FuncMaxThreadsPerBlock       FuncAttribute = 0
	FuncSharedSizeBytes          FuncAttribute = 1
	FuncNumRegs                  FuncAttribute = 4
	FuncMaxDynamicSharedSizeByte FuncAttribute = 8
)

// Attribute reads a kernel attribute.
func (f *Function) Attribute(a FuncAttribute) (int, error) {
	var v int
	err := f.ctx.Do(func() error {
		var err error
		v, err = f.fn.Attribute(cu.FunctionAttribute(a))
		return check("cuFuncGetAttribute", err)
	})
	return v, err
}

// SetAttribute sets a kernel attribute, e.g. FuncMaxDynamicSharedSizeByte
// to launch with more than 48 KiB of dynamic shared memory.
func (f *Function) SetAttribute(a FuncAttribute, value int) error {
	return f.ctx.Do(func() error {
		return checkCode("cuFuncSetAttribute", funcSetAttribute(*(*unsafe.Pointer)(unsafe.Pointer(&f.fn)), a, value))
	})
}

// MaxActiveBlocksPerSM is how many blocks of blockThreads threads, with
// the kernel's static shared memory, one multiprocessor holds at once.
func (f *Function) MaxActiveBlocksPerSM(blockThreads int) (int, error) {
	var n int
	err := f.ctx.Do(func() error {
		var err error
		n, err = f.fn.MaxActiveBlocksPerMultiProcessor(blockThreads, 0)
		return check("cuOccupancyMaxActiveBlocksPerMultiprocessor", err)
	})
	return n, err
}

// DevicePtr is a device address.
type DevicePtr uint64

// Alloc allocates n bytes of device memory.
func (c *Context) Alloc(n int) (DevicePtr, error) {
	var p DevicePtr
	err := c.Do(func() error {
		d, err := cu.MemAlloc(int64(n))
		p = DevicePtr(d)
		return check(fmt.Sprintf("cuMemAlloc(%d)", n), err)
	})
	return p, err
}

// Free releases device memory; after Close it does nothing.
func (c *Context) Free(p DevicePtr) error {
	if c.closed || p == 0 {
		return nil
	}
	return c.Do(func() error { return check("cuMemFree", cu.MemFree(cu.DevicePtr(p))) })
}

// Memset sets n bytes at p to b, synchronously: cuMemsetD8 may return
// before the device has set them, and work in a non-blocking stream (every
// Stream here) does not wait for it, so Memset waits for the context.
func (c *Context) Memset(p DevicePtr, b byte, n int) error {
	return c.Do(func() error {
		if err := check("cuMemsetD8", cu.MemsetD8(cu.DevicePtr(p), b, int64(n))); err != nil {
			return err
		}
		return check("cuCtxSynchronize", cu.Synchronize())
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
		if err := check("cuMemcpyHtoD", cu.MemcpyHtoD(cu.DevicePtr(dst), unsafe.Pointer(&src[0]), int64(len(src)))); err != nil {
			return err
		}
		return check("cuCtxSynchronize", cu.Synchronize())
	})
}

// CopyDtoH copies len(dst) bytes from the device, synchronously.
func (c *Context) CopyDtoH(dst []byte, src DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return c.Do(func() error {
		return check("cuMemcpyDtoH", cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), cu.DevicePtr(src), int64(len(dst))))
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

// HostAlloc allocates n bytes of pinned, mapped host memory
// (cuMemHostAlloc).
func (c *Context) HostAlloc(n int) (*HostBuffer, error) {
	h := &HostBuffer{ctx: c}
	err := c.Do(func() error {
		p, rc := hostAlloc(n)
		if rc != Success {
			return &Error{Op: fmt.Sprintf("cuMemHostAlloc(%d)", n), Code: rc}
		}
		h.ptr = p
		h.Bytes = unsafe.Slice((*byte)(p), n)
		d, rc := hostDevicePointer(p)
		if rc != Success {
			hostFree(p)
			return &Error{Op: "cuMemHostGetDevicePointer", Code: rc}
		}
		h.Device = DevicePtr(d)
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
	return h.ctx.Do(func() error { return checkCode("cuMemFreeHost", hostFree(p)) })
}

// Register page-locks b, memory the caller owns (Go memory included), so
// that the copy engines and kernels use it as they do a HostBuffer, and
// returns the device address of b[0]. b must stay reachable and registered
// until Unregister; a context's registrations end with it.
func (c *Context) Register(b []byte) (DevicePtr, error) {
	if len(b) == 0 {
		return 0, errors.New("cudart: Register of no bytes")
	}
	var d uint64
	err := c.Do(func() error {
		p := unsafe.Pointer(&b[0])
		if err := checkCode(fmt.Sprintf("cuMemHostRegister(%d)", len(b)), hostRegister(p, len(b))); err != nil {
			return err
		}
		var rc Code
		if d, rc = hostDevicePointer(p); rc != Success {
			hostUnregister(p)
			return &Error{Op: "cuMemHostGetDevicePointer", Code: rc}
		}
		return nil
	})
	return DevicePtr(d), err
}

// HostDevicePointer is the device address of b[0] in this context, where b
// is memory that Register or HostAlloc locked portably in any context: the
// address may differ from one context to another.
func (c *Context) HostDevicePointer(b []byte) (DevicePtr, error) {
	if len(b) == 0 {
		return 0, errors.New("cudart: HostDevicePointer of no bytes")
	}
	var d uint64
	err := c.Do(func() error {
		var rc Code
		d, rc = hostDevicePointer(unsafe.Pointer(&b[0]))
		return checkCode("cuMemHostGetDevicePointer", rc)
	})
	return DevicePtr(d), err
}

// Unregister undoes Register; after Close it does nothing.
func (c *Context) Unregister(b []byte) error {
	if c.closed || len(b) == 0 {
		return nil
	}
	return c.Do(func() error { return checkCode("cuMemHostUnregister", hostUnregister(unsafe.Pointer(&b[0]))) })
}

// Stream is a CUDA stream; it does not synchronise with the legacy default
// stream.
type Stream struct {
	ctx *Context
	s   cu.Stream
}

// NewStream creates a non-blocking stream.
func (c *Context) NewStream() (*Stream, error) {
	st := &Stream{ctx: c}
	err := c.Do(func() error {
		s, err := cu.MakeStream(cu.NonBlocking)
		st.s = s
		return check("cuStreamCreate", err)
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
	return s.ctx.Do(func() error { return check("cuStreamDestroy", s.s.Destroy()) })
}

// Synchronize waits for the stream's work.
func (s *Stream) Synchronize() error {
	return s.ctx.Do(func() error { return check("cuStreamSynchronize", s.s.Synchronize()) })
}

// CopyHtoD queues a copy of src to dst. src must stay untouched until the
// copy is done; only pinned memory (HostBuffer) is copied asynchronously.
func (s *Stream) CopyHtoD(dst DevicePtr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	return s.ctx.Do(func() error {
		return check("cuMemcpyHtoDAsync", cu.MemcpyHtoDAsync(cu.DevicePtr(dst), unsafe.Pointer(&src[0]), int64(len(src)), s.s))
	})
}

// CopyDtoH queues a copy of len(dst) bytes at src into dst.
func (s *Stream) CopyDtoH(dst []byte, src DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return s.ctx.Do(func() error {
		return check("cuMemcpyDtoHAsync", cu.MemcpyDtoHAsync(unsafe.Pointer(&dst[0]), cu.DevicePtr(src), int64(len(dst)), s.s))
	})
}

// Dim is a grid or block size.
type Dim struct{ X, Y, Z int }

// Launch queues fn on a grid of blocks with dynamic shared memory of
// shared bytes. Every argument is passed as 8 bytes, so every kernel
// parameter must be .u64 (or .b64/.s64/.f64).
func (s *Stream) Launch(fn *Function, grid, block Dim, shared int, args ...uint64) error {
	params := make([]unsafe.Pointer, len(args))
	for i := range args {
		params[i] = unsafe.Pointer(&args[i])
	}
	return s.ctx.Do(func() error {
		err := fn.fn.Launch(max(grid.X, 1), max(grid.Y, 1), max(grid.Z, 1), max(block.X, 1), max(block.Y, 1), max(block.Z, 1), shared, s.s, params)
		return check("cuLaunchKernel "+fn.Name, err)
	})
}

// Wait makes later work in the stream wait for the event.
func (s *Stream) Wait(e *Event) error {
	return s.ctx.Do(func() error { return check("cuStreamWaitEvent", s.s.Wait(e.e, 0)) })
}

// Event is a CUDA event with timing.
type Event struct {
	ctx *Context
	e   cu.Event
}

// NewEvent creates a timing event.
func (c *Context) NewEvent() (*Event, error) {
	ev := &Event{ctx: c}
	err := c.Do(func() error {
		e, err := cu.MakeEvent(cu.DefaultEvent)
		ev.e = e
		return check("cuEventCreate", err)
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
	return e.ctx.Do(func() error { return check("cuEventDestroy", cu.DestroyEvent(&e.e)) })
}

// Record records the event in the stream.
func (e *Event) Record(s *Stream) error {
	return e.ctx.Do(func() error { return check("cuEventRecord", e.e.Record(s.s)) })
}

// Synchronize waits for the event; it returns the error of any work that
// failed before it.
func (e *Event) Synchronize() error {
	return e.ctx.Do(func() error { return check("cuEventSynchronize", e.e.Synchronize()) })
}

// Done reports, without waiting, whether the work before the event is
// complete; it returns the error of any of that work that failed.
func (e *Event) Done() (bool, error) {
	var done bool
	err := e.ctx.Do(func() error {
		err := check("cuEventQuery", e.e.Query())
		var ce *Error
		if errors.As(err, &ce) && ce.Code == NotReady {
			return nil
		}
		done = err == nil
		return err
	})
	return done, err
}

// Elapsed is the time from e to end, both recorded and complete.
func (e *Event) Elapsed(end *Event) (time.Duration, error) {
	var ms float64
	err := e.ctx.Do(func() error {
		var err error
		ms, err = e.e.Elapsed(end.e)
		return check("cuEventElapsedTime", err)
	})
	return time.Duration(ms * float64(time.Millisecond)), err
}
