// Package liblz4 calls the system's liblz4 (liblz4.so.1, which comes with
// the lz4 command, or make lz4-tool's copy under LZ4_CACHE), loaded at run
// time, so that tests and benchmarks can
// hold lz4warp to LZ4's reference implementation on the same pages. Only
// tests import it. Where the library or cgo is missing, Load reports
// ErrUnavailable and nothing else may be called.
package liblz4

import (
	"errors"
	"os"
	"testing"
)

// ErrUnavailable reports that liblz4.so.1 could not be loaded.
var ErrUnavailable = errors.New("liblz4: liblz4.so.1 not available")

// Lib is the loaded library.
type Lib struct{ lib }

// Load opens liblz4.so.1 once and returns it, or an error that wraps
// ErrUnavailable.
func Load() (*Lib, error) { return load() }

// CompressDefault is LZ4_compress_default: it compresses src into dst and
// returns the block's length, or 0 when dst is too small.
func (l *Lib) CompressDefault(dst, src []byte) int { return l.compressDefault(dst, src) }

// DecompressSafe is LZ4_decompress_safe: it decodes the block src into dst
// and returns the decoded length, or a negative number for a corrupt block
// or a dst too small.
func (l *Lib) DecompressSafe(dst, src []byte) int { return l.decompressSafe(dst, src) }

// PageSize is the stored size of a 4 KiB page when LZ4_compress_default
// replaces the canonical parse inside lz4warp's page format (RATIO-2): 8 for
// a same-filled page, 4,096 when the block reaches rawThreshold bytes, else
// the block's length. dst must hold at least rawThreshold bytes.
func (l *Lib) PageSize(dst []byte, page *[4096]byte, sameFilled bool, rawThreshold int) int {
	if sameFilled {
		return 8
	}
	n := l.CompressDefault(dst[:rawThreshold-1], page[:])
	if n <= 0 {
		return len(page)
	}
	return n
}

// Require returns the library, or skips the test without it, except under
// CI (CI=true), where a missing liblz4 fails it, as a missing lz4 command
// does (internal/lz4cmd): CI must hold lz4warp to it.
func Require(tb testing.TB) *Lib {
	tb.Helper()
	l, err := Load()
	if err == nil {
		return l
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%v (CI=true requires it)", err)
		return nil
	}
	tb.Skip(err)
	return nil
}
