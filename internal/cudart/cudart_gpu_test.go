package cudart_test

import (
	"encoding/binary"
	"errors"
	. "github.com/lz4warp/lz4warp/internal/cudart"
	"github.com/lz4warp/lz4warp/internal/gputest"
	"strings"
	"testing"
)

// addOnePTX adds 1 to n 32-bit words at p; when bad is non-zero it writes
// through the address bad instead, which no allocation covers.
const addOnePTX = `.version 7.0
.target sm_70
.address_size 64

.visible .entry add_one(
	.param .u64 p,
	.param .u64 n,
	.param .u64 bad
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd0, [p];
	ld.param.u64 %rd1, [n];
	ld.param.u64 %rd5, [bad];
	mov.u32 %r0, %tid.x;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mad.lo.u32 %r0, %r1, %r2, %r0;
	cvt.u64.u32 %rd2, %r0;
	setp.ge.u64 %p0, %rd2, %rd1;
	@%p0 ret;
	setp.ne.u64 %p1, %rd5, 0;
	@%p1 mov.u64 %rd0, %rd5;
	cvta.to.global.u64 %rd0, %rd0;
	mad.lo.u64 %rd3, %rd2, 4, %rd0;
	ld.global.u32 %r3, [%rd3];
	add.u32 %r3, %r3, 1;
	st.global.u32 [%rd3], %r3;
	ret;
}
`

// dynSharedPTX writes thread i's index into dynamic shared memory at byte
// 65536+4i and copies it to out[i]: it needs more than 48 KiB of dynamic
// shared memory.
const dynSharedPTX = `.version 7.0
.target sm_70
.address_size 64

.extern .shared .align 16 .b8 dyn[];

.visible .entry dyn_shared(
	.param .u64 out
)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	mov.u32 %r0, %tid.x;
	mov.u64 %rd1, dyn;
	mul.wide.u32 %rd2, %r0, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.shared.u32 [%rd3+65536], %r0;
	bar.sync 0;
	ld.shared.u32 %r1, [%rd3+65536];
	add.u64 %rd4, %rd0, %rd2;
	st.global.u32 [%rd4], %r1;
	ret;
}
`

func newTestContext(t *testing.T) *Context {
	t.Helper()
	gputest.Require(t)
	devs, err := Devices()
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) == 0 {
		t.Fatal("no CUDA device")
	}
	t.Logf("device 0: %+v, driver %d", devs[0], DriverVersion())
	c, err := NewContext(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Checks RT-1: devices come from their own attributes.
func TestDevices(t *testing.T) {
	gputest.Require(t)
	devs, err := Devices()
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) == 0 {
		t.Fatal("no CUDA device")
	}
	for _, d := range devs {
		if d.Name == "" || d.TotalMemory == 0 || d.L2CacheSize == 0 || d.Major < 1 || d.SMs < 1 {
			t.Errorf("implausible device attributes: %+v", d)
		}
	}
}

func TestLaunchRoundTrip(t *testing.T) {
	gputest.Require(t)
	c := newTestContext(t)
	mod, err := c.LoadPTX(addOnePTX)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("JIT info log: %s", mod.InfoLog)
	fn, err := mod.Function("add_one")
	if err != nil {
		t.Fatal(err)
	}
	const n = 10000
	host, err := c.HostAlloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Free()
	for i := range n {
		binary.LittleEndian.PutUint32(host.Bytes[4*i:], uint32(i*7))
	}
	dev, err := c.Alloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Free(dev)
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	start, _ := c.NewEvent()
	end, _ := c.NewEvent()
	if err := start.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := s.CopyHtoD(dev, host.Bytes); err != nil {
		t.Fatal(err)
	}
	if err := s.Launch(fn, Dim{X: (n + 255) / 256}, Dim{X: 256}, 0, uint64(dev), n, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.CopyDtoH(host.Bytes, dev); err != nil {
		t.Fatal(err)
	}
	if err := end.Record(s); err != nil {
		t.Fatal(err)
	}
	if err := end.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if done, err := end.Done(); !done || err != nil {
		t.Errorf("Done after Synchronize: %v, %v", done, err)
	}
	d, err := start.Elapsed(end)
	if err != nil || d <= 0 {
		t.Errorf("elapsed %v, %v", d, err)
	}
	for i := range n {
		if got := binary.LittleEndian.Uint32(host.Bytes[4*i:]); got != uint32(i*7+1) {
			t.Fatalf("word %d: %d, want %d", i, got, i*7+1)
		}
	}
}

// Checks RT-2: a JIT failure carries the compiler's log.
func TestJITErrorLog(t *testing.T) {
	gputest.Require(t)
	c := newTestContext(t)
	_, err := c.LoadPTX(strings.Replace(addOnePTX, "add.u32 %r3, %r3, 1;", "add.u32 %r3, %r9, 1;", 1))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want an *Error, got %v", err)
	}
	if e.Log == "" || !strings.Contains(err.Error(), e.Log) {
		t.Errorf("no JIT log in %q", err)
	}
	t.Logf("%v", err)
}

// Checks RT-3: the gaps filled by cgo: error names, kernel attributes
// (more than 48 KiB of dynamic shared memory), pinned memory.
func TestGaps(t *testing.T) {
	gputest.Require(t)
	if got := IllegalAddress.Name(); got != "CUDA_ERROR_ILLEGAL_ADDRESS" {
		t.Errorf("IllegalAddress.Name() = %q", got)
	}
	if !strings.Contains(OutOfMemory.Error(), "out of memory") {
		t.Errorf("OutOfMemory.Error() = %q", OutOfMemory.Error())
	}
	c := newTestContext(t)
	mod, err := c.LoadPTX(dynSharedPTX)
	if err != nil {
		t.Fatal(err)
	}
	fn, err := mod.Function("dyn_shared")
	if err != nil {
		t.Fatal(err)
	}
	const shared = 65536 + 4*128
	out, _ := c.Alloc(4 * 128)
	s, _ := c.NewStream()
	if err := s.Launch(fn, Dim{X: 1}, Dim{X: 128}, shared, uint64(out)); !errors.Is(err, InvalidValue) {
		t.Errorf("launch with %d bytes of dynamic shared memory and no attribute: %v, want InvalidValue", shared, err)
	}
	if err := fn.SetAttribute(FuncMaxDynamicSharedSizeByte, shared); err != nil {
		t.Fatal(err)
	}
	if v, err := fn.Attribute(FuncMaxDynamicSharedSizeByte); err != nil || v != shared {
		t.Errorf("attribute reads %d, %v", v, err)
	}
	if err := s.Launch(fn, Dim{X: 1}, Dim{X: 128}, shared, uint64(out)); err != nil {
		t.Fatal(err)
	}
	host, err := c.HostAlloc(4 * 128)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CopyDtoH(host.Bytes, out); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
	for i := range 128 {
		if got := binary.LittleEndian.Uint32(host.Bytes[4*i:]); got != uint32(i) {
			t.Fatalf("word %d: %d", i, got)
		}
	}
}

// Checks RT-4: a kernel that writes through a bad pointer reports
// IllegalAddress, a sticky code, and the process cannot use the device
// again: destroying the context works, but creating a new one fails with
// the same code (driver 580; NVIDIA documents that the process must be
// restarted). Run in a child process.
func TestStickyFaultPoisonsProcess(t *testing.T) {
	gputest.Require(t)
	if !gputest.InChild(t, nil) {
		return
	}
	c := newTestContext(t)
	mod, err := c.LoadPTX(addOnePTX)
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := mod.Function("add_one")
	buf, _ := c.Alloc(4 * 32)
	s, _ := c.NewStream()
	if err := s.Launch(fn, Dim{X: 1}, Dim{X: 32}, 0, uint64(buf), 32, 1<<46); err != nil {
		t.Fatal(err)
	}
	err = s.Synchronize()
	var e *Error
	if !errors.As(err, &e) || e.Code != IllegalAddress || !e.Code.Sticky() {
		t.Fatalf("got %v, want a sticky IllegalAddress", err)
	}
	if _, err := c.Alloc(16); err == nil {
		t.Errorf("the poisoned context still allocates")
	}
	if err := c.Close(); err != nil {
		t.Errorf("closing the poisoned context: %v", err)
	}
	c2, err := NewContext(0)
	if err == nil {
		c2.Close()
		t.Fatalf("a new context after a sticky fault works: RT-4's device-lost rule can be relaxed")
	}
	if !errors.As(err, &e) || !e.Code.Sticky() {
		t.Errorf("new context after the fault: %v, want a sticky code", err)
	}
	t.Logf("as expected, a new context fails: %v", err)
}

// Checks RT-4: running out of device memory is not sticky: the same
// context allocates and launches afterwards.
func TestOutOfMemoryIsNotSticky(t *testing.T) {
	gputest.Require(t)
	c := newTestContext(t)
	if _, err := c.Alloc(1 << 50); !errors.Is(err, OutOfMemory) || OutOfMemory.Sticky() {
		t.Fatalf("absurd allocation: %v, want OutOfMemory (not sticky)", err)
	}
	mod, err := c.LoadPTX(addOnePTX)
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := mod.Function("add_one")
	buf, err := c.Alloc(4 * 32)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := c.NewStream()
	if err := s.Launch(fn, Dim{X: 1}, Dim{X: 32}, 0, uint64(buf), 32, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(); err != nil {
		t.Fatal(err)
	}
}
