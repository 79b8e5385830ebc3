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

// Checks GPU-3, GPU-8: the D2H kernels' text is fixed by golden files, one
// per target, and is the same on every call.
func TestGatherGolden(t *testing.T) {
	for _, sm := range Targets {
		text := GatherPTX(sm)
		golden.Check(t, filepath.Join("testdata", fmt.Sprintf("%s_sm%d.ptx", GatherName, sm)), []byte(text))
		if text != GatherPTX(sm) {
			t.Fatalf("sm_%d: GatherPTX differs between calls", sm)
		}
	}
}

// Checks GPU-2, GPU-6, GPU-8: the D2H kernels assemble for every target
// within the page kernel's register budget, without spills, the gather
// kernel without shared memory and the offsets kernel with its 33 sums.
func TestGatherResources(t *testing.T) {
	for name, shared := range map[string]int{GatherName: 0, OffsetsName: OffsetsShared} {
		for _, r := range assembleTargets(t, GatherPTX, name) {
			if r.Registers > maxRegisters || r.SpillStores != 0 || r.SpillLoads != 0 || r.StackFrame != 0 || r.SharedBytes != shared {
				t.Errorf("%s %s: %+v", name, r.Arch, r)
			}
		}
	}
}

// Checks GPU-8, EXEC-1: the D2H kernels, executed on the CPU over more
// pages than the offsets kernel's tile of 1,024, copy every meta word to
// the host, count the packed payloads, give each page the offset of
// packSlots and pack exactly its payloads; with a hostile meta word
// nothing is read outside the page's slot nor written outside the packed
// buffer (the executor faults on any access outside an allocation).
func TestGatherOnCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	var pages [][PageSize]byte
	for i := range 1024 + 203 {
		pages = append(pages, *genPage(pageKinds[i%len(pageKinds)], rng))
	}
	meta, slots := fakeKernel(pages)
	n := len(pages)
	const hostile = 1100 // its meta word claims an LZ4 payload far beyond its slot
	binary.LittleEndian.PutUint32(meta[4*hostile:], kindLZ4<<MetaKindShift|(1<<MetaKindShift-1))
	wantPacked, wantOffsets := packSlots(meta, slots)
	mod, err := ptxexec.Load(GatherPTX(90))
	if err != nil {
		t.Fatal(err)
	}
	mem := ptxexec.NewMemory()
	dSlots, dMeta, dOffsets := mem.Alloc(len(slots)), mem.Alloc(len(meta)), mem.Alloc(4*n)
	dPacked, hMeta, hTotal := mem.Alloc(len(wantPacked)), mem.Alloc(len(meta)), mem.Alloc(4)
	copy(mem.Bytes(dSlots), slots)
	copy(mem.Bytes(dMeta), meta)
	if err := mod.Launch(OffsetsName, 1, OffsetsThreads, []uint64{dMeta, dOffsets, hMeta, hTotal, uint64(n)}, mem); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mem.Bytes(hMeta), meta) {
		t.Fatal("the host's meta words differ from the device's")
	}
	if got := binary.LittleEndian.Uint32(mem.Bytes(hTotal)); int(got) != len(wantPacked) {
		t.Fatalf("total %d, want %d", got, len(wantPacked))
	}
	for i, want := range wantOffsets {
		if got := binary.LittleEndian.Uint32(mem.Bytes(dOffsets)[4*i:]); got != want {
			t.Fatalf("page %d: offset %d, want %d", i, got, want)
		}
	}
	if err := mod.Launch(GatherName, Blocks(n), ThreadsPerBlock, []uint64{dSlots, dMeta, dOffsets, dPacked, uint64(n)}, mem); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mem.Bytes(dPacked), wantPacked) {
		t.Fatal("the packed payloads differ from packSlots'")
	}
	kinds := map[uint8]int{}
	for i := range n {
		kind, _ := DecodeMeta(binary.LittleEndian.Uint32(meta[4*i:]))
		kinds[kind]++
	}
	if kinds[kindSame] == 0 || kinds[kindLZ4] == 0 || kinds[kindRaw] == 0 {
		t.Errorf("kinds covered: %v", kinds)
	}
}
