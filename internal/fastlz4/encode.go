package fastlz4

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/lz4warp/lz4warp/reference"
)

// Parameters of the canonical parse, as in package reference.
const (
	minMatch     = reference.MinMatch
	lastLiterals = reference.LastLiterals
	mfLimit      = reference.MFLimit
	hashLog      = reference.HashLog
	hashPrime    = reference.HashPrime
	MaxBlockSize = reference.MaxBlockSize
	PageSize     = reference.PageSize
	PageBound    = reference.PageBound
	RawThreshold = reference.RawThreshold
)

// Kind is how a compressed page is stored (PAGE-2); the values are those of
// package reference.
type Kind = reference.Kind

// Page kinds.
const (
	KindSame = reference.KindSame
	KindLZ4  = reference.KindLZ4
	KindRaw  = reference.KindRaw
)

// Errors. A block that does not fit dst is ErrShortBuffer, exactly when
// reference.CompressBlock reports its own ErrShortBuffer.
var (
	ErrShortBuffer = errors.New("fastlz4: destination buffer too short")
	ErrCorrupt     = errors.New("fastlz4: corrupt LZ4 block")
	ErrTooLarge    = errors.New("fastlz4: block larger than 65535 bytes")
	ErrBadKind     = errors.New("fastlz4: invalid compressed page")
)

// CompressBlockBound is the largest block CompressBlock can produce for n
// input bytes.
func CompressBlockBound(n int) int { return reference.CompressBlockBound(n) }

// Encoder holds the hash table of the canonical parse. Reusing one Encoder
// for many blocks costs no allocation (but one, the first time it meets a
// block longer than a page). An Encoder is not safe for concurrent use;
// the package-level functions draw Encoders from a pool.
type Encoder struct {
	// tableLinks holds the table (see hashTable) and after it the links of
	// blocks of up to a page; bigTableLinks the same for longer blocks,
	// made on first use. encodeLoopAsm finds the table before the links.
	tableLinks    [1<<hashLog + PageSize]uint16
	bigTableLinks []uint16
	raw           seenKeys // EncodePage's proof that a page is raw (raw.go)
}

// hashTable is the table of PARSE-1 in two parts: entry h holds the latest
// position with hash h, and link[q] the entry that position q found when
// it entered, the latest position with its hash before it. PARSE-1's
// 32-bit entry h, the candidates c1 and c2 of the next position with hash
// h, is then c1 = table[h] and c2 = link[c1]: when c1 entered, the
// position it found became the entry's second, and no position with hash
// h entered since. Entering a position thus costs one load and two
// 16-bit stores, where the 32-bit entry and a copy of it for the parse
// cost two loads and three stores. The table is cleared for each block,
// so that every entry holds positions of the current block before the one
// looked up: the loads that verify a candidate (PARSE-3) stay inside src.
// A cleared entry reads as position 0 (and so does link[0], which
// position 0 writes first, from a cleared entry), which is harmless: a
// position whose candidate would wrongly be 0 has the hash of position 0,
// which has therefore entered its entry, and of the two candidates the
// nearer is taken when both are as long (PARSE-4).
type hashTable = [1 << hashLog]uint16

// tables returns the table and the links for a block of n bytes, the
// table just before the links.
func (e *Encoder) tables(n int) (*hashTable, []uint16) {
	tl := e.tableLinks[:]
	if n > PageSize {
		if e.bigTableLinks == nil {
			e.bigTableLinks = make([]uint16, 1<<hashLog+MaxBlockSize)
		}
		tl = e.bigTableLinks
	}
	return (*hashTable)(tl), tl[1<<hashLog : 1<<hashLog+n]
}

var encoders = sync.Pool{New: func() any { return new(Encoder) }}

// handEverySequence makes encodeLoop return before each sequence, so that
// the Go loop writes them all: tests set it to check the hand-over.
var handEverySequence = false

// CompressBlock writes the canonical LZ4 block of src (at most MaxBlockSize
// bytes) into dst, the same bytes as reference.CompressBlock, and returns
// its length. It reports ErrShortBuffer exactly when the block is longer
// than dst; CompressBlockBound(len(src)) bytes are always enough. With an
// error it returns 0. Bytes of dst past the block may be overwritten.
func CompressBlock(dst, src []byte) (int, error) {
	e := encoders.Get().(*Encoder)
	n, err := e.CompressBlock(dst, src)
	encoders.Put(e)
	return n, err
}

// EncodePage compresses one page into dst, which must hold PageBound bytes,
// and returns the kind and the payload length: the same as
// reference.EncodePage.
func EncodePage(dst []byte, page *[PageSize]byte) (Kind, int) {
	e := encoders.Get().(*Encoder)
	k, n := e.EncodePage(dst, page)
	encoders.Put(e)
	return k, n
}

func hash(u uint32) uint32 { return (u * hashPrime) >> (32 - hashLog) }

// IsSameFilled reports whether every 8-byte word of page equals the first
// (PAGE-3).
func IsSameFilled(page *[PageSize]byte) bool { return sameFilled(page) }

// sameFilledGo is IsSameFilled without assembly. Each word equals the
// first exactly when each equals the one before it, that is when the page
// equals itself shifted by 8 bytes: one vectorised comparison.
func sameFilledGo(page *[PageSize]byte) bool {
	return bytes.Equal(page[8:], page[:PageSize-8])
}

// EncodePage is the package-level EncodePage on e's table.
func (e *Encoder) EncodePage(dst []byte, page *[PageSize]byte) (Kind, int) {
	if len(dst) < PageBound {
		panic("fastlz4: EncodePage needs a destination of PageBound bytes")
	}
	if IsSameFilled(page) {
		return KindSame, copy(dst, page[:8])
	}
	// PAGE-5: a page whose every LZ4 block would reach RawThreshold bytes,
	// the canonical one included, is stored raw without parsing it.
	if e.raw.certainlyRaw(page) {
		return KindRaw, copy(dst, page[:])
	}
	// PAGE-5: a block of RawThreshold bytes or more is stored raw; the
	// encoder gives up as soon as the block must reach that size.
	if n, err := e.CompressBlock(dst[:RawThreshold-1], page[:]); err == nil {
		return KindLZ4, n
	}
	return KindRaw, copy(dst, page[:])
}

// CompressBlock is the package-level CompressBlock on e's table.
func (e *Encoder) CompressBlock(dst, src []byte) (int, error) {
	n := len(src)
	if n > MaxBlockSize {
		return 0, ErrTooLarge
	}
	// With cap = len, the bounds checks of two-index slices, which Go
	// makes against the capacity, hold against the length.
	src, dst = src[:n:n], dst[:len(dst):len(dst)]
	var err error
	out, anchor := 0, 0
	// The block cannot fit once the literals pending since anchor reach
	// litLimit: the final block holds at least those literals and a token.
	litLimit := len(dst) - out + anchor
	if n >= mfLimit {
		table, link := e.tables(n)
		clearTable(table)
		s := bytesPointer(src)
		last := n - mfLimit            // last visited position (PARSE-2, PARSE-6)
		matchLimit := n - lastLiterals // a match ends at or before it (PARSE-4)
		// Positions enter the table in chunks of up to 64, [base, next):
		// hashChunk enters them all, without a branch per position, and
		// returns the set m of those with a candidate that verifies; the greedy
		// parse (PARSE-5) then takes from m the first one at or after
		// cursor, and so on. After a chunk where no candidate verifies,
		// the next positions past cursor go through scan, which stops at
		// the first that verifies and is cheaper where there is none.
		cursor := 1 // position 0 has no candidate
		base, next, skipTo := 0, 0, 0
		var m uint64 // position base+k at bit k
		sparse := false
		// A chunk the assembly has hashed past the current one, not yet
		// parsed: its base and verified set. The assembly takes it
		// itself: it returns one only with the current chunk's step at
		// hand, or when max(next, skipTo) has reached litLimit, so that
		// the Go loop carries it back unused.
		bBase, pending := 0, false
		var bM uint64
		lim := loopLimits{
			matchLimit: matchLimit,
			outMax:     len(dst) - 17,
			anchorMax:  n - 16,
			dstLen:     len(dst),
			last:       last,
			fullChunk:  last - 63,
		}
		if handEverySequence {
			lim.anchorMax = -1
		}
		for {
			if haveLoopAsm() {
				// The common steps, in assembly where there is one.
				st := loopState{m, base, next, skipTo, cursor, out, anchor, litLimit, sparse,
					bM, bBase, pending}
				encodeLoop(&st, link, dst, src, &lim)
				m, base, next, skipTo, cursor = st.m, st.base, st.next, st.skipTo, st.cursor
				out, anchor, litLimit, sparse = st.out, st.anchor, st.litLimit, st.sparse
				bM, bBase, pending = st.bM, st.bBase, st.pending
			}
			var p int
			if m != 0 {
				p = base + bits.TrailingZeros64(m)
			} else {
				// The next positions to enter. Those from next to skipTo-1
				// lie inside the last match, where they need not enter
				// (see skipTo below) and take no match.
				base = max(next, skipTo)
				if base >= litLimit {
					return 0, ErrShortBuffer
				}
				if base > last {
					break
				}
				if !sparse || base < cursor {
					cnt := min(64, last+1-base)
					m = hashChunk(table, link, s, base, cnt)
					next = base + cnt
					sparse = m == 0
					m &= ^uint64(0) << uint(max(cursor-base, 0))
					continue
				}
				stop := min(last+1, litLimit)
				if p = scan(table, link, s, base, stop); p >= stop {
					if p >= litLimit {
						return 0, ErrShortBuffer
					}
					break
				}
				next, sparse = p+1, false
			}
			if p >= litLimit {
				return 0, ErrShortBuffer
			}
			// PARSE-3, PARSE-4: the longer match of the candidates that
			// verify (at least one does), c1 of two as long.
			u, c, end := load32(s, p), int(link[p]), 0
			if load32(s, c) == u {
				end = extend(s, p, c, matchLimit)
			}
			if c2 := int(link[c]); load32(s, c2) == u {
				if end2 := extend(s, p, c2, matchLimit); end2 > end {
					c, end = c2, end2
				}
			}
			// PARSE-7: token, literal length, literals, offset, match length.
			if litLen, matchLen := p-anchor, end-p-minMatch; litLen < 15 && matchLen < 15 &&
				len(dst)-out >= 17 && len(src)-anchor >= 16 {
				// The common sequence: no length bytes, and room for a
				// 16-byte move of the literals (the bytes past them are
				// overwritten next or lie past the block).
				dst[out] = byte(litLen<<4 | matchLen)
				*(*[16]byte)(dst[out+1 : out+17]) = *(*[16]byte)(src[anchor : anchor+16])
				out += 1 + litLen
				dst[out] = byte(p - c)
				dst[out+1] = byte((p - c) >> 8)
				out += 2
			} else if out, err = putSequence(dst, out, src[anchor:p], p-c, matchLen); err != nil {
				return 0, err
			}
			cursor, anchor = end, end
			m &= ^uint64(0) << uint(end-base)
			litLimit = len(dst) - out + anchor
			// PARSE-2: the positions inside the match enter the table too.
			// But inside it the word at q equals the word at q-(p-c): a
			// position q whose q+(p-c) and q+2(p-c) also enter with words
			// wholly inside the match is pushed out of its entry by them,
			// and need not enter. With a short offset (runs, repeated
			// patterns) only the last 2(p-c) positions remain.
			skipTo = min(end-minMatch, last) - 2*(p-c) + 1
		}
	}
	// PARSE-6: the block ends with the remaining bytes as literals.
	litLen := n - anchor
	need := 1 + litLen
	if litLen >= 15 {
		need += (litLen-15)/255 + 1
	}
	if need > len(dst)-out {
		return 0, ErrShortBuffer
	}
	if litLen >= 15 {
		dst[out] = 15 << 4
		out = putLength(dst, out+1, litLen-15)
	} else {
		dst[out] = byte(litLen) << 4
		out++
	}
	out += copy(dst[out:], src[anchor:])
	return out, nil
}

// loopState is the state of CompressBlock's loop that encodeLoop reads
// and advances; the assembly knows its layout.
type loopState struct {
	m        uint64 // verified positions of the chunk from the cursor on
	base     int    // the chunk's first position
	next     int    // the first position not entered
	skipTo   int
	cursor   int
	out      int
	anchor   int
	litLimit int
	sparse   bool
	bM       uint64 // pending: the verified set of the chunk at bBase
	bBase    int
	pending  bool // the chunk at bBase is hashed
}

// loopLimits are CompressBlock's bounds for encodeLoop; the assembly knows
// their layout.
type loopLimits struct {
	matchLimit int // a match ends at or before it (PARSE-4)
	outMax     int // a common sequence starts at or before it: room for 17 bytes
	anchorMax  int // literals start at or before it: 16 bytes to move
	dstLen     int
	last       int // the last visited position
	fullChunk  int // a chunk of 64 positions starts at or before it
}

// hashChunkGo enters positions base to base+cnt-1 (cnt <= 64) in the
// table and returns the set of those with a candidate that verifies:
// position base+k at bit k.
func hashChunkGo(table *hashTable, link []uint16, s unsafe.Pointer, base, cnt int) uint64 {
	var m uint64
	for p := base; p < base+cnt; p++ {
		u, c1 := enter(table, link, s, p)
		m |= b2u(verifies(s, link, u, c1)) << uint(p-base)
	}
	return m
}

// enter enters position p in the table (PARSE-2) and returns its word and
// its candidate c1.
func enter(table *hashTable, link []uint16, s unsafe.Pointer, p int) (uint32, int) {
	u := load32(s, p)
	h := hash(u)
	c1 := table[h]
	table[h], link[p] = uint16(p), c1
	return u, int(c1)
}

// verifies says whether a candidate of a position with word u and
// candidate c1 verifies (PARSE-3).
func verifies(s unsafe.Pointer, link []uint16, u uint32, c1 int) bool {
	return load32(s, c1) == u || load32(s, int(link[c1])) == u
}

// extend returns the end of the match at p with candidate c, whose first
// 4 bytes are equal (PARSE-4): 8 bytes at a time, then byte by byte. The
// loads end at or before matchLimit, inside src.
func extend(s unsafe.Pointer, p, c, matchLimit int) int {
	end, ref := p+minMatch, c+minMatch
	for end+8 <= matchLimit {
		if x := load64(s, end) ^ load64(s, ref); x != 0 {
			return end + bits.TrailingZeros64(x)>>3
		}
		end += 8
		ref += 8
	}
	for end < matchLimit && *(*byte)(unsafe.Add(s, end)) == *(*byte)(unsafe.Add(s, ref)) {
		end++
		ref++
	}
	return end
}

func b2u(b bool) uint64 {
	var x uint64
	if b {
		x = 1
	}
	return x
}

// scan visits positions p, p+1, ... below stop, entering each in the table
// (PARSE-2), and returns the first with a candidate that verifies
// (PARSE-3), or stop. The caller guarantees stop+11 <= len(src), so that
// the 8-byte loads at p stay inside src, and that every table entry holds
// positions of src before p.
func scan(table *hashTable, link []uint16, s unsafe.Pointer, p, stop int) int {
	q, found := scanGroups(table, link, s, p, stop) // assembly on amd64
	if found {
		return q
	}
	for p = q; p < stop; p++ {
		if u, c1 := enter(table, link, s, p); verifies(s, link, u, c1) {
			return p
		}
	}
	return stop
}

// bytesPointer returns the address of b's first byte, for load32 and
// load64, which the encoder's loops use in place of bounds-checked loads
// (those roughly halve the scan's speed). Every caller proves its loads
// in bounds.
func bytesPointer(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

// load32 is the little-endian word at s+i.
func load32(s unsafe.Pointer, i int) uint32 {
	return binary.LittleEndian.Uint32((*[4]byte)(unsafe.Add(s, i))[:])
}

// load64 is the little-endian 8-byte word at s+i.
func load64(s unsafe.Pointer, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(s, i))[:])
}

// putSequence writes a sequence of the given literals and a match of
// matchLen+4 bytes at offset, or reports ErrShortBuffer when it does not
// fit in dst (PARSE-7).
func putSequence(dst []byte, out int, literals []byte, offset, matchLen int) (int, error) {
	litLen := len(literals)
	need := 1 + litLen + 2
	if litLen >= 15 {
		need += (litLen-15)/255 + 1
	}
	if matchLen >= 15 {
		need += (matchLen-15)/255 + 1
	}
	if need > len(dst)-out {
		return 0, ErrShortBuffer
	}
	tok := out
	out++
	if litLen >= 15 {
		dst[tok] = 15 << 4
		out = putLength(dst, out, litLen-15)
	} else {
		dst[tok] = byte(litLen) << 4
	}
	out += copy(dst[out:], literals)
	binary.LittleEndian.PutUint16(dst[out:], uint16(offset))
	out += 2
	if matchLen >= 15 {
		dst[tok] |= 15
		out = putLength(dst, out, matchLen-15)
	} else {
		dst[tok] |= byte(matchLen)
	}
	return out, nil
}

// putLength writes the extension bytes of a length whose 4-bit field is 15;
// v is the length less 15.
func putLength(dst []byte, out, v int) int {
	for ; v >= 255; v -= 255 {
		dst[out] = 255
		out++
	}
	dst[out] = byte(v)
	return out + 1
}
