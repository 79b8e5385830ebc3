package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/lz4warp/lz4warp/internal/golden"
	"github.com/lz4warp/lz4warp/internal/ptxexec"
)

// Checks GPU-3, GPU-8: the gather kernel's text is fixed by golden files,
// one per target, and is the same on every call.
func TestGatherGolden(t *testing.T) {
	for _, sm := range Targets {
		text := GatherPTX(sm)
		golden.Check(t, filepath.Join("testdata", fmt.Sprintf("%s_sm%d.ptx", GatherName, sm)), []byte(text))
		if text != GatherPTX(sm) {
			t.Fatalf("sm_%d: GatherPTX differs between calls", sm)
		}
	}
}

// Checks GPU-2, GPU-6, GPU-8: the gather kernel assembles for every target
// within the page kernel's register budget, without spills or shared
// memory.
func TestGatherResources(t *testing.T) {
	for _, r := range assembleTargets(t, GatherPTX, GatherName) {
		if r.Registers > maxRegisters || r.SpillStores != 0 || r.SpillLoads != 0 || r.StackFrame != 0 || r.SharedBytes != 0 {
			t.Errorf("%s: %+v", r.Arch, r)
		}
	}
}

// Checks GPU-8, EXEC-1: the gather kernel, executed on the CPU, copies
// every meta word and every same-filled and LZ4 payload into the host
// buffers, nothing of a raw page, nothing past a payload's last 16-byte
// chunk, and with a hostile meta word nothing outside the page's slot (the
// executor faults on any access outside an allocation).
func TestGatherOnCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var pages [][PageSize]byte
	for i := range 203 {
		pages = append(pages, *genPage(pageKinds[i%len(pageKinds)], rng))
	}
	meta, slots := fakeKernel(pages)
	n := len(pages)
	const hostile = 200 // its meta word claims an LZ4 payload far beyond its slot
	binary.LittleEndian.PutUint32(meta[4*hostile:], kindLZ4<<MetaKindShift|(1<<MetaKindShift-1))
	mod, err := ptxexec.Load(GatherPTX(90))
	if err != nil {
		t.Fatal(err)
	}
	mem := ptxexec.NewMemory()
	dSlots, dMeta := mem.Alloc(len(slots)), mem.Alloc(len(meta))
	hSlots, hMeta := mem.Alloc(len(slots)), mem.Alloc(len(meta))
	copy(mem.Bytes(dSlots), slots)
	copy(mem.Bytes(dMeta), meta)
	hs := mem.Bytes(hSlots)
	for i := range hs {
		hs[i] = canary
	}
	if err := mod.Launch(GatherName, Blocks(n), ThreadsPerBlock, []uint64{dSlots, dMeta, hSlots, hMeta, uint64(n)}, mem); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mem.Bytes(hMeta), meta) {
		t.Fatal("the host's meta words differ from the device's")
	}
	kinds := map[uint8]int{}
	for i := range n {
		kind, length := DecodeMeta(binary.LittleEndian.Uint32(meta[4*i:]))
		kinds[kind]++
		moved := 0
		if kind != kindRaw {
			moved = min((length+15)&^15, OutSlot)
		}
		got, want := hs[i*OutSlot:(i+1)*OutSlot], slots[i*OutSlot:(i+1)*OutSlot]
		if !bytes.Equal(got[:moved], want[:moved]) {
			t.Fatalf("page %d (kind %d, %d bytes): payload not copied", i, kind, length)
		}
		if !bytes.Equal(got[moved:], bytes.Repeat([]byte{canary}, OutSlot-moved)) {
			t.Fatalf("page %d (kind %d, %d bytes): bytes past the first %d written", i, kind, length, moved)
		}
	}
	if kinds[kindSame] == 0 || kinds[kindLZ4] == 0 || kinds[kindRaw] == 0 {
		t.Errorf("kinds covered: %v", kinds)
	}
}
