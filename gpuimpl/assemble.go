package gpuimpl

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// assemble turns the kernel's meta words and output slots for pages into
// outputs (RT-8): the kind and the length come from the meta word, a
// same-filled page's word and an LZ4 page's block from its slot, a raw
// page's payload from the input page itself (GPU-1). With own, every
// payload is copied, into one allocation per worker, out of the staging
// buffers that the next chunk overwrites; without it, outputs point into
// slots and pages (RT-13). A meta word that GPU-1 does not allow is an
// error wrapping ErrFault.
func assemble(out []Output, pages [][PageSize]byte, meta, slots []byte, own bool) error {
	errs := make([]error, len(out))
	parallel(len(out), 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			word := binary.LittleEndian.Uint32(meta[4*i:])
			kind, n := DecodeMeta(word)
			switch {
			case !validMeta(kind, n):
				errs[i] = fmt.Errorf("%w: page %d: meta word %#08x (kind %d, length %d) breaks GPU-1",
					ErrFault, i, word, kind, n)
				return
			case kind == kindRaw:
				out[i] = Output{Kind: kind, Data: pages[i][:]}
			default:
				out[i] = Output{Kind: kind, Data: slots[OutSlot*i : OutSlot*i+n : OutSlot*i+n]}
			}
		}
		if !own {
			return
		}
		parts := make([][]byte, hi-lo)
		for i := range parts {
			parts[i] = out[lo+i].Data
		}
		// bytes.Join allocates without zeroing what it then overwrites:
		// clearing the buffer first cost as much as filling it.
		buf := bytes.Join(parts, nil)
		off := 0
		for i := lo; i < hi; i++ {
			end := off + len(out[i].Data)
			out[i].Data = buf[off:end:end]
			off = end
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
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
