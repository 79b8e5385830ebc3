package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// assemble turns the kernel's meta words and the packed payloads of GPU-8
// for pages into outputs (RT-8): the kind and the length come from the meta
// word, a same-filled page's word and an LZ4 page's block from packed, in
// page order, each packedLen bytes after the one before, a raw page's
// payload from the input page itself (GPU-1). With own, every payload is
// copied, into one allocation per piece of pages, out of the buffers that
// the next chunk overwrites; without it, outputs point into packed and
// pages (RT-13). A meta word that GPU-1 does not allow, or packed payloads
// of another size than the meta words give, is an error wrapping ErrFault.
func assemble(out []Output, pages [][PageSize]byte, meta, packed []byte, own bool) error {
	// Pieces of 256 pages, several per core in a large chunk: with own,
	// most of the time goes to the first writes into the new memory, which
	// is spread over every core, and evenly where other work takes some.
	// Views take some 5 ns a page: a goroutine gets at least 16 pieces of
	// them, as waking an idle core can take longer than a chunk's views.
	const piece = 256
	pieces := (len(out) + piece - 1) / piece
	grain := 1
	if !own {
		grain = 16
	}
	starts := make([]int, pieces+1) // piece p's payloads begin at starts[p]
	errs := make([]error, pieces)
	parallel(pieces, grain, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			for i := p * piece; i < min(len(out), (p+1)*piece); i++ {
				kind, n, err := readMeta(meta, i, i)
				if err != nil {
					errs[p] = err
					break
				}
				starts[p+1] += packedLen(kind, n)
			}
		}
	})
	for p, err := range errs {
		if err != nil {
			return err
		}
		starts[p+1] += starts[p]
	}
	if starts[pieces] != len(packed) {
		return fmt.Errorf("%w: the meta words give %d bytes of packed payloads, the device %d",
			ErrFault, starts[pieces], len(packed))
	}
	parallel(pieces, grain, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			first, last := p*piece, min(len(out), (p+1)*piece)
			at := starts[p]
			for i := first; i < last; i++ {
				kind, n := DecodeMeta(binary.LittleEndian.Uint32(meta[4*i:]))
				if kind == kindRaw {
					out[i] = Output{Kind: kind, Data: pages[i][:]}
					continue
				}
				out[i] = Output{Kind: kind, Data: packed[at : at+n : at+n]}
				at += packedLen(kind, n)
			}
			if own {
				outs := out[first:last]
				parts := make([][]byte, len(outs))
				for i := range outs {
					parts[i] = outs[i].Data
				}
				// bytes.Join allocates without zeroing what it then
				// overwrites: clearing the buffer first cost as much as
				// filling it.
				buf, off := bytes.Join(parts, nil), 0
				for i := range outs {
					end := off + len(outs[i].Data)
					outs[i].Data = buf[off:end:end]
					off = end
				}
			}
		}
	})
	return nil
}

// assembleSlots is assemble for outputs that the kernel wrote slot by slot
// into slots (RT-14): page i's payload at i·OutSlot. The outputs are views.
// Errors name page i as first+i.
func assembleSlots(out []Output, pages [][PageSize]byte, meta, slots []byte, first int) error {
	const piece = 256
	pieces := (len(out) + piece - 1) / piece
	errs := make([]error, pieces)
	parallel(pieces, 16, func(lo, hi int) {
		for i := lo * piece; i < min(len(out), hi*piece); i++ {
			kind, n, err := readMeta(meta, i, first+i)
			switch {
			case err != nil:
				errs[i/piece] = err
				return
			case kind == kindRaw:
				out[i] = Output{Kind: kind, Data: pages[i][:]}
			default:
				at := i * OutSlot
				out[i] = Output{Kind: kind, Data: slots[at : at+n : at+n]}
			}
		}
	})
	return errors.Join(errs...)
}

// readMeta decodes meta word i; a word that GPU-1 does not allow is an
// error wrapping ErrFault that names the page as page.
func readMeta(meta []byte, i, page int) (kind uint8, n int, err error) {
	word := binary.LittleEndian.Uint32(meta[4*i:])
	kind, n = DecodeMeta(word)
	if !validMeta(kind, n) {
		return 0, 0, fmt.Errorf("%w: page %d: meta word %#08x (kind %d, length %d) breaks GPU-1",
			ErrFault, page, word, kind, n)
	}
	return kind, n, nil
}

// validMeta reports a kind and length that GPU-1 allows.
func validMeta(kind uint8, n int) bool {
	switch kind {
	case kindSame:
		return n == 8
	case kindLZ4:
		return n > 0 && n <= maxPayload
	case kindRaw:
		return n == PageSize
	}
	return false
}
