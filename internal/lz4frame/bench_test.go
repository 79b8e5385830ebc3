package lz4frame

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lz4warp/lz4warp/internal/lz4cmd"
)

// benchInput is 8 MiB of the Go toolchain's binaries when they can be read,
// else of the sample.
func benchInput(b *testing.B) []byte {
	goroot, _ := exec.Command("go", "env", "GOROOT").Output()
	dir := filepath.Join(strings.TrimSpace(string(goroot)), "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH)
	ents, _ := os.ReadDir(dir)
	var data []byte
	for _, e := range ents {
		if len(data) >= 8<<20 {
			break
		}
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			data = append(data, b...)
		}
	}
	if len(data) < 8<<20 {
		data = sample(8<<20, 1)
	}
	return data[:8<<20]
}

// BenchmarkReader decodes 8 MiB frames: lz4warp's own (4 KiB independent
// blocks) and the lz4 command's default and linked frames.
func BenchmarkReader(b *testing.B) {
	data := benchInput(b)
	frames := map[string][]byte{"lz4warp": encode(b, data, WriterOptions{})}
	if _, err := lz4cmd.Find(); err == nil {
		frames["lz4-default"] = lz4cmd.Run(b, data, "-c", "-q")
		frames["lz4-linked64K"] = lz4cmd.Run(b, data, "-c", "-q", "-BD", "-B4")
	}
	for name, frame := range frames {
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%s/workers=%d", name, workers), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					zr := NewReader(bytes.NewReader(frame))
					zr.SetConcurrency(workers)
					n, err := zr.WriteTo(io.Discard)
					if err != nil || n != int64(len(data)) {
						b.Fatal(n, err)
					}
				}
			})
		}
	}
}
