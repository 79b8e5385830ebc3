package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/lz4warp/lz4warp/reference"
	"github.com/pierrec/lz4/v4"
)

// Output is one compressed page as a backend returns it.
type Output struct {
	Kind reference.Kind
	Data []byte
}

// CompressFunc compresses a batch of pages: one Output per page, in order.
type CompressFunc func(pages []Page) ([]Output, error)

// Reference is the oracle as a CompressFunc: reference.EncodePage per page.
func Reference(pages []Page) ([]Output, error) {
	out := make([]Output, len(pages))
	var buf [reference.PageBound]byte
	for i := range pages {
		kind, n := reference.EncodePage(buf[:], &pages[i])
		out[i] = Output{Kind: kind, Data: bytes.Clone(buf[:n])}
	}
	return out, nil
}

// Mismatch is a page whose output is not the reference's, or does not
// decode to the page.
type Mismatch struct {
	Index  int // the page's index in the batch
	Spec   *Spec
	Reason string
}

func (m *Mismatch) Error() string {
	if m.Spec != nil {
		return fmt.Sprintf("conformance: page %d (%v): %s", m.Index, *m.Spec, m.Reason)
	}
	return fmt.Sprintf("conformance: page %d: %s", m.Index, m.Reason)
}

// CheckPages compresses pages with compress and checks every page: kind
// and payload equal reference.EncodePage's byte for byte; the payload
// decodes to the page with reference.DecodePage and, for LZ4 pages, with
// pierrec/lz4's UncompressBlock into a buffer with room to spare; the
// block obeys the end-of-block rules (CheckBlockRules). It returns how many
// pages it checked, how many failed, and the first failure (a *Mismatch,
// or the error of compress, which counts every page as failed).
func CheckPages(compress CompressFunc, pages []Page) (checked, mismatches int, first error) {
	outs, err := compress(pages)
	if err != nil {
		return 0, len(pages), err
	}
	if len(outs) != len(pages) {
		return 0, len(pages), fmt.Errorf("conformance: %d outputs for %d pages", len(outs), len(pages))
	}
	reasons := make([]string, len(pages))
	parallel(len(pages), func(i int) { reasons[i] = checkPage(&pages[i], outs[i]) })
	for i, reason := range reasons {
		if reason != "" {
			mismatches++
			if first == nil {
				first = &Mismatch{Index: i, Reason: reason}
			}
		}
	}
	return len(pages), mismatches, first
}

// parallel calls fn(i) for every i in [0, n) from one goroutine per core:
// checking a page costs more than compressing it on a GPU, so a device run
// of a million pages needs every core of its host.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+63)/64)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := n * w / workers; i < n*(w+1)/workers; i++ {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// CheckSpecs is CheckPages on the pages of specs; a *Mismatch names the
// spec of its page, so that the page can be made again.
func CheckSpecs(compress CompressFunc, specs []Spec) (checked, mismatches int, first error) {
	checked, mismatches, first = CheckPages(compress, Pages(specs))
	var m *Mismatch
	if errors.As(first, &m) {
		m.Spec = &specs[m.Index]
	}
	return checked, mismatches, first
}

func checkPage(page *Page, out Output) string {
	var want [reference.PageBound]byte
	kind, n := reference.EncodePage(want[:], page)
	if out.Kind != kind {
		return fmt.Sprintf("kind %v, reference %v", out.Kind, kind)
	}
	if !bytes.Equal(out.Data, want[:n]) {
		at := 0
		for at < min(len(out.Data), n) && out.Data[at] == want[at] {
			at++
		}
		return fmt.Sprintf("%v payload of %d bytes, reference %d bytes; first difference at byte %d", kind, len(out.Data), n, at)
	}
	var got Page
	if err := reference.DecodePage(&got, out.Kind, out.Data); err != nil {
		return fmt.Sprintf("reference decoder: %v", err)
	}
	if got != *page {
		return "reference decoder: decodes to other bytes"
	}
	if out.Kind == reference.KindLZ4 {
		if err := CheckBlockRules(out.Data, pageSize); err != nil {
			return err.Error()
		}
		buf := make([]byte, 2*pageSize)
		m, err := lz4.UncompressBlock(out.Data, buf)
		if err != nil {
			return fmt.Sprintf("pierrec/lz4: %v", err)
		}
		if m != pageSize || !bytes.Equal(buf[:m], page[:]) {
			return fmt.Sprintf("pierrec/lz4: decodes to %d other bytes", m)
		}
	}
	return ""
}

// CheckBlockRules walks an LZ4 block of an n-byte input and checks LZ4's
// end-of-block rules (PARSE-6): no match starts after n-12, no match covers
// the last 5 bytes, the last sequence holds literals only, and the block
// covers exactly n bytes. It checks the structure only; offsets are the
// decoders' business.
func CheckBlockRules(block []byte, n int) error {
	in, out := 0, 0
	readLen := func(v int) (int, bool) {
		if v < 15 {
			return v, true
		}
		for {
			if in >= len(block) {
				return 0, false
			}
			b := block[in]
			in++
			v += int(b)
			if b != 255 {
				return v, true
			}
		}
	}
	for {
		if in >= len(block) {
			return errors.New("conformance: block ends inside a sequence")
		}
		token := block[in]
		in++
		lit, ok := readLen(int(token >> 4))
		if !ok || lit > len(block)-in {
			return errors.New("conformance: literals run past the block")
		}
		in += lit
		out += lit
		if in == len(block) {
			if out != n {
				return fmt.Errorf("conformance: block covers %d bytes, want %d", out, n)
			}
			if n >= reference.LastLiterals && lit < reference.LastLiterals {
				return fmt.Errorf("conformance: last sequence has %d literals, fewer than %d", lit, reference.LastLiterals)
			}
			return nil
		}
		if len(block)-in < 2 {
			return errors.New("conformance: block ends inside an offset")
		}
		in += 2
		if out > n-reference.MFLimit {
			return fmt.Errorf("conformance: match starts at %d, after n-%d = %d", out, reference.MFLimit, n-reference.MFLimit)
		}
		ml, ok := readLen(int(token & 15))
		if !ok {
			return errors.New("conformance: match length runs past the block")
		}
		out += ml + reference.MinMatch
		if out > n-reference.LastLiterals {
			return fmt.Errorf("conformance: match ends at %d, inside the last %d bytes", out, reference.LastLiterals)
		}
	}
}

// Tally adds up checks across batches, from any number of goroutines.
type Tally struct {
	mu                  sync.Mutex
	checked, mismatches int
	first               error
}

// Add records the result of one CheckPages or CheckSpecs call.
func (t *Tally) Add(checked, mismatches int, first error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.checked += checked
	t.mismatches += mismatches
	if t.first == nil {
		t.first = first
	}
}

// Result returns the totals and the first failure.
func (t *Tally) Result() (checked, mismatches int, first error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.checked, t.mismatches, t.first
}

// String is the summary line every runner prints.
func (t *Tally) String() string {
	checked, mismatches, _ := t.Result()
	return fmt.Sprintf("conformance: pages checked %d, mismatches %d", checked, mismatches)
}
