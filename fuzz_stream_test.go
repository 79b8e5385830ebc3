package lz4warp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os/exec"
	"testing"

	"github.com/lz4warp/lz4warp/internal/lz4cmd"
	"github.com/lz4warp/lz4warp/internal/xxh32"
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
	f.Add(zeroOffsetFrame())
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := io.ReadAll(NewReader(bytes.NewReader(in)))
		want, accepted := lz4Verdict(t, lz4, in)
		if err != nil {
			var fe *FrameError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(in)) {
				t.Fatalf("error %v is not a FrameError with an offset inside the input", err)
			}
			if accepted && !zeroOffsetBlock(in, fe) {
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

// zeroOffsetFrame is a frame of one block whose second sequence is a
// match of offset 0 ("abcd", then 4 bytes from offset 0, then "efghi").
func zeroOffsetFrame() []byte {
	descriptor := []byte{0x60, 0x40} // version 1, independent blocks, no checksums; 64 KiB blocks
	frame := append([]byte{0x04, 0x22, 0x4d, 0x18}, descriptor...)
	frame = append(frame, byte(xxh32.Checksum(descriptor)>>8))
	block := []byte{0x40, 'a', 'b', 'c', 'd', 0, 0, 0x50, 'e', 'f', 'g', 'h', 'i'}
	frame = binary.LittleEndian.AppendUint32(frame, uint32(len(block)))
	frame = append(frame, block...)
	return binary.LittleEndian.AppendUint32(frame, 0) // the end mark
}

// Checks STREAM-4: a match of offset 0, which the block format calls
// invalid, is a corrupt block at the block's offset, where lz4 1.9.4
// decodes it (the one verdict FuzzReader lets differ).
func TestReaderZeroOffset(t *testing.T) {
	in := zeroOffsetFrame()
	_, err := io.ReadAll(NewReader(bytes.NewReader(in)))
	var fe *FrameError
	if !errors.As(err, &fe) || !errors.Is(err, ErrFrame) || fe.Offset != 7 || !zeroOffsetBlock(in, fe) {
		t.Fatalf("Reader: %v; want ErrFrame at byte 7, the block with the offset of 0", err)
	}
	if _, accepted := lz4Verdict(t, lz4cmd.Require(t), in); !accepted {
		t.Log("lz4 rejects the offset of 0 too")
	}
}

// zeroOffsetBlock reports whether the Reader's error fe is a block whose
// LZ4 sequences hold a match of offset 0 before they end: the block format
// calls such a block invalid, and the Reader rejects it, where lz4 1.9.4
// decodes it (STREAM-4).
func zeroOffsetBlock(in []byte, fe *FrameError) bool {
	at := fe.Offset
	if !errors.Is(fe, ErrFrame) || at < 0 || at+4 > int64(len(in)) {
		return false
	}
	size := binary.LittleEndian.Uint32(in[at:])
	if size&(1<<31) != 0 { // stored, not compressed
		return false
	}
	block := in[at+4 : min(int64(len(in)), at+4+int64(size))]
	for i := 0; i < len(block); {
		token := block[i]
		i++
		literals := int(token >> 4)
		for more := literals == 15; more && i < len(block); i++ {
			literals += int(block[i])
			more = block[i] == 255
		}
		if i += literals; i+2 > len(block) {
			return false // the last sequence, or a cut one
		}
		if block[i] == 0 && block[i+1] == 0 {
			return true
		}
		i += 2
		for more := token&15 == 15; more && i < len(block); i++ {
			more = block[i] == 255
		}
	}
	return false
}
