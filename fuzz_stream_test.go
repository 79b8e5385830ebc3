package lz4warp

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"testing"

	"github.com/lz4warp/lz4warp/internal/lz4cmd"
)

// lz4Verdict runs lz4 -d on in: its output and whether it accepted in.
func lz4Verdict(t *testing.T, lz4 string, in []byte) ([]byte, bool) {
	cmd := exec.Command(lz4, "-d", "-c", "-q")
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return out, err == nil
}

// FuzzReader checks STREAM-4 against the lz4 command: on any input, mutated
// frames of every kind lz4 writes, the Reader returns the lz4 command's
// output where lz4 accepts the input, and an error with an offset inside
// the input where lz4 rejects it; never a panic.
func FuzzReader(f *testing.F) {
	lz4 := lz4cmd.Require(f)
	data := streamData(f, 20000)
	for _, args := range [][]string{{"-1"}, {"-BD", "-B4"}, {"-BX", "--content-size"}, {"--no-frame-crc"}, {"-l"}} {
		f.Add(lz4cmd.Run(f, data, append([]string{"-c", "-q"}, args...)...))
	}
	f.Add(compressStream(f, data[:9000], WriterBlockChecksum(true)))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := io.ReadAll(NewReader(bytes.NewReader(in)))
		want, accepted := lz4Verdict(t, lz4, in)
		if err != nil {
			var fe *FrameError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(in)) {
				t.Fatalf("error %v is not a FrameError with an offset inside the input", err)
			}
			if accepted {
				t.Fatalf("lz4 accepts the input (%d bytes out), the Reader fails: %v", len(want), err)
			}
			return
		}
		if !accepted {
			// lz4 1.9.4 rejects a few frames the format allows, such as
			// those its own reader checks more strictly; the output must
			// still be what a strict reading gives where lz4 decoded
			// anything: compare the bytes both wrote.
			if !bytes.HasPrefix(got, want) {
				t.Fatalf("lz4 rejects the input after %d bytes; the Reader accepts it with other bytes", len(want))
			}
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("output differs from lz4's: %d bytes, lz4 %d", len(got), len(want))
		}
	})
}
