package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress draws a progress bar on stderr while long work runs, only when
// stderr is a terminal (CLI-10): redirected or piped stderr gets nothing.
type progress struct {
	w       io.Writer
	verb    string
	total   int64 // input bytes, -1 when unknown
	done    atomic.Int64
	start   time.Time
	stop    chan struct{}
	wg      sync.WaitGroup
	enabled bool
}

// progressDelay is how long work runs before the bar appears, so that
// short commands print nothing at all.
const progressDelay = 500 * time.Millisecond

func newProgress(e *env, verb string, total int64, enabled bool) *progress {
	p := &progress{w: e.stderr, verb: verb, total: total, start: time.Now(), stop: make(chan struct{}), enabled: enabled}
	if enabled {
		p.wg.Add(1)
		go p.loop()
	}
	return p
}

func (p *progress) add(n int64) { p.done.Add(n) }
func (p *progress) set(n int64) { p.done.Store(n) }

func (p *progress) loop() {
	defer p.wg.Done()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	drawn := false
	for {
		select {
		case <-p.stop:
			if drawn {
				fmt.Fprint(p.w, "\r\033[K") // erase the bar
			}
			return
		case now := <-t.C:
			if now.Sub(p.start) < progressDelay {
				continue
			}
			fmt.Fprint(p.w, "\r"+renderBar(p.verb, p.done.Load(), p.total, now.Sub(p.start), 30)+"\033[K")
			drawn = true
		}
	}
}

// finish stops and erases the bar.
func (p *progress) finish() {
	if p.enabled {
		close(p.stop)
		p.wg.Wait()
		p.enabled = false
	}
}

// renderBar is one line of the bar: the percentage and a bar when the
// total is known, the bytes done and the rate.
func renderBar(verb string, done, total int64, elapsed time.Duration, width int) string {
	rate := ""
	if s := elapsed.Seconds(); s > 0 {
		rate = fmt.Sprintf(" %7.1f MB/s", float64(done)/s/1e6)
	}
	if total <= 0 {
		return fmt.Sprintf("%s %s%s", verb, humanBytes(done), rate)
	}
	frac := min(float64(done)/float64(total), 1)
	fill := int(frac * float64(width))
	bar := strings.Repeat("=", fill) + strings.Repeat(" ", width-fill)
	if fill > 0 && fill < width {
		bar = bar[:fill-1] + ">" + bar[fill:]
	}
	return fmt.Sprintf("%s %3.0f%% [%s] %s / %s%s", verb, frac*100, bar, humanBytes(done), humanBytes(total), rate)
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
