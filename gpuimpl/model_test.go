package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/lz4warp/lz4warp/reference"
)

// warpModel is the kernel's algorithm (GPU-7) written in Go with the 32 lanes
// as arrays, step for step as kernel.go emits it: warp-wide operations
// (ballot, shfl) become loops over the lanes. It exists to check
// the warp formulation against the reference cheaply; the PTX itself is
// checked by the executor tests.
//
// winner picks, from a set of lanes that store different values at one
// address with st.relaxed, the lane whose value stays: the GPU leaves that
// open.
func warpModel(page *[PageSize]byte, winner func(lanes uint32) int) (kind uint32, out []byte) {
	const warp = 32
	slot := make([]byte, 8)
	// Load and same-filled detection: lane l loads 16-byte chunks l, l+32, ...
	first0 := binary.LittleEndian.Uint32(page[0:])
	first1 := binary.LittleEndian.Uint32(page[4:])
	var diff [warp]uint32
	for it := 0; it < PageSize/16/warp; it++ {
		for l := 0; l < warp; l++ {
			off := (it*warp + l) * 16
			a := binary.LittleEndian.Uint32(page[off:])
			b := binary.LittleEndian.Uint32(page[off+4:])
			c := binary.LittleEndian.Uint32(page[off+8:])
			d := binary.LittleEndian.Uint32(page[off+12:])
			// ^ and | bind alike in Go: each XOR in its own parentheses.
			diff[l] |= (a ^ first0) | (b ^ first1) | (c ^ first0) | (d ^ first1)
		}
	}
	if ballot(func(l int) bool { return diff[l] != 0 }) == 0 {
		binary.LittleEndian.PutUint32(slot[0:], first0)
		binary.LittleEndian.PutUint32(slot[4:], first1)
		return kindSame, slot[:8]
	}
	var table [2048]uint32
	for i := range table {
		table[i] = emptyEntry
	}
	u32 := func(p uint32) uint32 {
		lo := binary.LittleEndian.Uint32(page[p&^3:])
		hi := uint32(0)
		if p&^3+4 < PageSize {
			hi = binary.LittleEndian.Uint32(page[p&^3+4:])
		}
		return uint32((uint64(hi)<<32 | uint64(lo)) >> (8 * (p & 3)))
	}
	// sets is a group's table phase: each lane's candidates, and the
	// table's update.
	sets := func(base uint32) (cand, cand2 [warp]uint32) {
		var hv [warp]uint32
		var valid [warp]bool
		for l := range warp {
			p := base + uint32(l)
			valid[l] = p <= lastPos
			hv[l] = (u32(min(p, lastPos)) * hashPrime) >> 21
			if !valid[l] {
				hv[l] = 2048 + uint32(l) // a set of its own
			}
		}
		var entry, peers [warp]uint32
		for l := range warp { // the table read
			entry[l] = table[hv[l]&2047]
			peers[l] = 1 << l
		}
		// The relaxed store: of the valid lanes with one hash, the lane
		// that winner picks leaves its entry, its position and the latest
		// before the group; the others lost.
		for l := range warp {
			if !valid[l] {
				continue
			}
			set := ballot(func(m int) bool { return valid[m] && hv[m] == hv[l] })
			if l == winner(set) {
				table[hv[l]] = base + uint32(l) | entry[l]<<16
			}
		}
		lost := ballot(func(l int) bool { return valid[l] && table[hv[l]]&0xffff != base+uint32(l) })
		if lost != 0 { // five ballots of the bits of the winner read back
			var won [warp]uint32
			for l := range warp {
				won[l] = table[hv[l]&2047] & 0xffff
			}
			valids := ballot(func(m int) bool { return valid[m] })
			for l := range warp {
				if !valid[l] {
					continue
				}
				peers[l] = valids
				for b := range 5 {
					ones := ballot(func(m int) bool { return won[m]>>b&1 != 0 })
					if won[l]>>b&1 == 0 {
						ones = ^ones
					}
					peers[l] &= ones
				}
			}
		}
		for l := range warp {
			earlier := peers[l] & (1<<l - 1)
			cand[l], cand2[l] = entry[l]&0xffff, entry[l]>>16
			if earlier != 0 {
				k := bits.Len32(earlier) - 1
				cand[l], cand2[l] = base+uint32(k), cand[k] // a shuffle from lane k
			}
		}
		for l := range warp { // after bar.warp.sync: the last lane of a set of more than one
			if valid[l] && peers[l]>>l == 1 && peers[l]&(1<<l-1) != 0 {
				table[hv[l]] = base + uint32(l) | cand[l]<<16
			}
		}
		return cand, cand2
	}
	// The kernel's loop is software-pipelined: iteration g runs group g+1's
	// table phase, then verifies and parses group g with the candidates
	// that the iteration before found. The first iteration is that of the
	// group before the first (base -32), which has no valid lane.
	var cand, cand2 [warp]uint32
	for l := range cand {
		cand[l], cand2[l] = emptyPos, emptyPos
	}
	cursor := uint32(0)
	var records []record
	for base := ^uint32(warp - 1); ; base += warp { // -32
		next, next2 := sets(base + warp)
		// (A match that covers group g leaves no lane at or after the
		// cursor: its ballot is empty.)
		verifies := func(c, p uint32) bool { return c != emptyPos && u32(c) == u32(p) }
		ok := ballot(func(l int) bool {
			p := base + uint32(l)
			return p <= lastPos && p >= cursor && (verifies(cand[l], p) || verifies(cand2[l], p))
		})
		for {
			rel := max(int32(cursor-base), 0)
			below := uint32(0xffffffff)
			if rel < 32 {
				below = 1<<rel - 1
			}
			elig := ok &^ below
			if elig == 0 {
				break
			}
			m := uint32(bits.TrailingZeros32(elig))
			mp := base + m
			maxL := uint32(PageSize-reference.LastLiterals) - mp
			matchLength := func(mc uint32) uint32 {
				// shortLength: the lane's own words after the first.
				length := uint32(reference.MinMatch)
				for length < min(shortCap, maxL) && page[mp+length] == page[mc+length] {
					length++
				}
				length = min(length, maxL)
				// extend: 4 bytes per lane, 128 a step, from shortCap on.
				for off := uint32(shortCap); length == off && off < maxL; off += 4 * warp {
					for l := range uint32(warp) {
						i := off + 4*l
						e := uint32(0)
						for e < 4 && i+e < maxL && page[mp+i+e] == page[mc+i+e] {
							e++
						}
						length = i + e
						if e < 4 {
							break
						}
					}
				}
				return length
			}
			// The longer of the candidates that verify, c1's of two as long.
			length, mc := uint32(0), uint32(0)
			for _, c := range []uint32{cand[m], cand2[m]} {
				if verifies(c, mp) {
					if l := matchLength(c); l > length {
						length, mc = l, c
					}
				}
			}
			records = append(records, record{mp, length, mp - mc})
			cursor = mp + length
		}
		cand, cand2 = next, next2
		if base+warp > lastPos {
			break
		}
	}
	return writeBlockModel(page, records)
}

// record is what the select loop keeps of a sequence (writeBlock's records).
type record struct{ mp, length, offset uint32 }

// writeBlockModel writes the block from the records as writeBlock does: 32
// records a step, a sequence per lane at the sum of the lengths of the
// lanes before it (here: appended in lane order), then the last literals;
// a block that would reach OutSlot bytes is raw.
func writeBlockModel(page *[PageSize]byte, records []record) (kind uint32, out []byte) {
	var blk []byte
	prevEnd := uint32(0)
	for b := 0; b < len(records); b += 32 {
		var step []byte
		for _, r := range records[b:min(b+32, len(records))] {
			step = append(step, sequenceBytes(page, prevEnd, r.mp-prevEnd, r.offset, r.length)...)
			prevEnd = r.mp + r.length
		}
		if len(blk)+len(step) > OutSlot-1 {
			return kindRaw, nil
		}
		blk = append(blk, step...)
	}
	last := sequenceBytes(page, prevEnd, PageSize-prevEnd, 0, 0)
	if len(blk)+len(last) > OutSlot-1 {
		return kindRaw, nil
	}
	return kindLZ4, append(blk, last...)
}

// sequenceBytes is one sequence (PARSE-7), each byte computed from the
// lengths alone as the lanes do; matchLen 0 is the last sequence, which has
// no offset and no match length.
func sequenceBytes(page *[PageSize]byte, anchor, litLen, offset, matchLen uint32) []byte {
	lengthBytes := func(n uint32) (b []byte) {
		for j := range extBytes(n) {
			b = append(b, byte(min(int32(n)-15-255*int32(j), 255)))
		}
		return b
	}
	token := min(litLen, 15) << 4
	var ml4 uint32
	if matchLen > 0 {
		ml4 = matchLen - reference.MinMatch
		token |= min(ml4, 15)
	}
	seq := append([]byte{byte(token)}, lengthBytes(litLen)...)
	seq = append(seq, page[anchor:anchor+litLen]...)
	if matchLen > 0 {
		seq = append(seq, byte(offset), byte(offset>>8))
		seq = append(seq, lengthBytes(ml4)...)
	}
	return seq
}

func ballot(pred func(l int) bool) uint32 {
	var m uint32
	for l := 0; l < 32; l++ {
		if pred(l) {
			m |= 1 << l
		}
	}
	return m
}

// winners are the choices of the lane that wins a relaxed store that the
// model tries: the executor's (the lowest lane), the highest, and one in
// the middle of the set.
var winners = []struct {
	name string
	pick func(lanes uint32) int
}{
	{"lowest lane wins", func(lanes uint32) int { return bits.TrailingZeros32(lanes) }},
	{"highest lane wins", func(lanes uint32) int { return bits.Len32(lanes) - 1 }},
	{"a middle lane wins", func(lanes uint32) int {
		for range bits.OnesCount32(lanes) / 2 {
			lanes &= lanes - 1
		}
		return bits.TrailingZeros32(lanes)
	}},
}

// Checks GPU-7 and PARSE-9: the warp formulation gives the reference's
// bytes, whichever lane wins a relaxed store.
func TestWarpModelMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	perKind := 300
	if testing.Short() {
		perKind = 60
	}
	ref := make([]byte, reference.PageBound)
	kinds := map[uint32]int{}
	for _, name := range pageKinds {
		for i := 0; i < perKind; i++ {
			page := genPage(name, rng)
			k, n := reference.EncodePage(ref, page)
			for _, w := range winners {
				gk, got := warpModel(page, w.pick)
				kinds[gk]++
				if gk != uint32(k) {
					t.Fatalf("%s page %d, %s: model kind %d, reference %v", name, i, w.name, gk, k)
				}
				if k != reference.KindRaw && !bytes.Equal(got, ref[:n]) {
					t.Fatalf("%s page %d, %s: model payload differs (%d vs %d bytes)", name, i, w.name, len(got), n)
				}
			}
		}
	}
	for _, k := range []uint32{kindSame, kindLZ4, kindRaw} {
		if kinds[k] == 0 {
			t.Errorf("no page of kind %d was generated", k)
		}
	}
}

// Checks the division-free length-extension count used by the kernel.
func TestExtBytes(t *testing.T) {
	for v := uint32(0); v <= 2*PageSize; v++ {
		want := uint32(0)
		if v >= 15 {
			want = (v-15)/255 + 1
		}
		if got := extBytes(v); got != want {
			t.Fatalf("extBytes(%d) = %d, want %d", v, got, want)
		}
	}
}
