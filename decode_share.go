package lz4warp

import (
	"runtime"
	"sync"
	"time"

	"github.com/lz4warp/lz4warp/gpuimpl"
)

// The share of a decode batch that the GPU takes (API-29).
const (
	// firstDecodeShare is the GPU's share of a Compressor's first shared
	// batch.
	firstDecodeShare = 0.5
	// minDecodeShare bounds either side's share from below, so that every
	// batch measures both.
	minDecodeShare = 1.0 / 16
)

// decodeShare is the fraction of a shared decode batch's pages that the
// GPU decodes (API-29). Each batch moves it halfway towards the fraction
// with which both sides would have ended together at the speeds it
// measured: decoding gives the same pages whatever the fraction, so it
// follows the machine, not a constant.
type decodeShare struct {
	mu  sync.Mutex
	gpu float64 // the GPU's fraction; 0 before the first batch
}

// fraction is the GPU's fraction of the next batch; s.mu is held.
func (s *decodeShare) fraction() float64 {
	if s.gpu == 0 {
		return firstDecodeShare
	}
	return s.gpu
}

// split is how many of a batch's n pages, its first, the GPU decodes.
func (s *decodeShare) split(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(float64(n)*s.fraction() + 0.5)
}

// update records a batch of n pages whose first g the GPU decoded in
// gpuTime while the CPU decoded the others in cpuTime.
func (s *decodeShare) update(g, n int, gpuTime, cpuTime time.Duration) {
	if g <= 0 || g >= n || gpuTime <= 0 || cpuTime <= 0 {
		return
	}
	gpuRate := float64(g) / gpuTime.Seconds()
	cpuRate := float64(n-g) / cpuTime.Seconds()
	balanced := gpuRate / (gpuRate + cpuRate)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gpu = min(max((s.fraction()+balanced)/2, minDecodeShare), 1-minDecodeShare)
}

// decompressShared decodes pages into dst on the GPU and the CPU at once
// (API-29): the devices decode the batch's first pages, into host's pages
// by DMA where host (which holds dst) is not nil, while the workers decode
// the others; the share follows the speeds of both (decodeShare).
// After a GPU fault the CPU decodes the GPU's pages too (API-15). Errors
// and statistics are DecompressBatch's.
func (c *Compressor) decompressShared(p *devicePool, pages []CompressedPage, dst []Page, host *gpuimpl.HostPages) error {
	start := time.Now()
	n := len(pages)
	g := c.share.split(n)
	var cpuErr error
	var cpuTime time.Duration
	cpuDone := make(chan struct{})
	go func() {
		defer close(cpuDone)
		// One core fewer than the process may use: the goroutine that
		// waits for the GPU holds a thread busy meanwhile (the driver
		// spins), and a worker thread more than the cores would be
		// descheduled for milliseconds at a time.
		cpuErr = c.cpu.decodeOn(max(1, runtime.GOMAXPROCS(0)-1), pages[g:], dst[g:])
		cpuTime = time.Since(start)
	}()
	var status []uint32
	var gerr error
	if g > 0 {
		status, gerr = p.decompress(pages[:g], dst[:g], host.Range(0, g))
	}
	gpuTime := time.Since(start)
	<-cpuDone
	if gerr != nil {
		return gerr
	}
	if status != nil {
		c.share.update(g, n, gpuTime, cpuTime)
	}
	gpuErr := c.gpuDecodeErr(p, pages[:g], dst[:g], status)
	err := joinDecodeErrors(gpuErr, cpuErr, g)
	c.accountDecode(n, err, start)
	return err
}

// joinDecodeErrors is the *DecodeError of a batch whose pages from g on
// gave high (their indexes counted from g) and those below low, or nil.
func joinDecodeErrors(low, high error, g int) error {
	var bad []*PageError
	if de, ok := low.(*DecodeError); ok {
		bad = append(bad, de.Pages...)
	}
	if de, ok := high.(*DecodeError); ok {
		for _, pe := range de.Pages {
			pe.Index += g
			bad = append(bad, pe)
		}
	}
	return decodeError(bad)
}
