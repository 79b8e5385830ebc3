package features

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/lz4warp/lz4warp"
)

// mixedContents is what "a mixed batch" cycles through: every page kind,
// with LZ4 pages of several shapes.
var mixedContents = []string{"zero", "same-word", "text", "counter", "random", "half-random"}

// textWords are the vocabulary of the text pages: log-like lines, the kind
// of memory a zram device sees from a running system.
var textWords = strings.Fields(`the a of to and in is for on with as by at from that this
	request response server client error warning info debug user session page memory cache
	thread process kernel device batch compress decompress buffer queue timeout retry
	connection established closed status ok failed bytes time ms id value key`)

// makePage returns the page a content name describes; seed varies pages of
// one content. Contents:
//
//	zero              all bytes 0
//	same-word         the 8-byte word 0x0123456789abcdef repeated
//	text              log lines made of a small vocabulary
//	counter           little-endian uint32 counter
//	random            pseudo-random bytes (incompressible)
//	half-random       2,048 random bytes, then zeros
//	random-prefix-N   N random bytes, then zeros
//	period-16         a 16-byte pattern repeated (not same-filled)
//	zero-but-last     all 0 except the last byte
func makePage(content string, seed uint64) (lz4warp.Page, error) {
	var p lz4warp.Page
	rng := rand.New(rand.NewPCG(seed, 0x6c7a3477617270))
	randomPrefix := func(n int) {
		for i := 0; i < n; i += 8 {
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], rng.Uint64())
			copy(p[i:n], w[:])
		}
	}
	switch {
	case content == "zero":
	case content == "same-word":
		for i := 0; i < len(p); i += 8 {
			binary.LittleEndian.PutUint64(p[i:], 0x0123456789abcdef)
		}
	case content == "text":
		var b strings.Builder
		for line := 0; b.Len() < len(p); line++ {
			fmt.Fprintf(&b, "%06d ", seed*1000+uint64(line))
			for w := 0; w < 6+rng.IntN(6); w++ {
				b.WriteString(textWords[rng.IntN(len(textWords))])
				b.WriteByte(' ')
			}
			b.WriteByte('\n')
		}
		copy(p[:], b.String())
	case content == "counter":
		for i := 0; i < len(p); i += 4 {
			binary.LittleEndian.PutUint32(p[i:], uint32(seed)*1024+uint32(i/4))
		}
	case content == "random":
		randomPrefix(len(p))
	case content == "half-random":
		randomPrefix(len(p) / 2)
	case strings.HasPrefix(content, "random-prefix-"):
		n, err := strconv.Atoi(strings.TrimPrefix(content, "random-prefix-"))
		if err != nil || n < 0 || n > len(p) {
			return p, fmt.Errorf("bad random prefix length in %q", content)
		}
		randomPrefix(n)
	case content == "period-16":
		for i := range p {
			p[i] = byte(i%16) * 17
		}
	case content == "zero-but-last":
		p[len(p)-1] = 1
	default:
		return p, fmt.Errorf("unknown page content %q", content)
	}
	return p, nil
}

// makeBatch returns n pages cycling through contents; page i has seed i.
func makeBatch(n int, contents []string) ([]lz4warp.Page, error) {
	pages := make([]lz4warp.Page, n)
	for i := range pages {
		var err error
		if pages[i], err = makePage(contents[i%len(contents)], uint64(i)); err != nil {
			return nil, err
		}
	}
	return pages, nil
}
