package dataset

import (
	"os"
	"syscall"
	"testing"
)

// Load holds few files open at once: with the descriptor limit just above
// what the process already uses, the text set (thousands of files) gives
// the same pages as without it, rather than silently fewer.
func TestFewOpenFiles(t *testing.T) {
	want, err := Load(Text, 256)
	if err != nil {
		t.Fatal(err)
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	var lim syscall.Rlimit
	must(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	low := lim
	low.Cur = uint64(len(fds)) + 8
	must(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low))
	got, err := Load(Text, 256)
	must(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d pages with %d descriptors, %d without the limit", len(got), low.Cur, len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("page %d differs with %d descriptors", i, low.Cur)
		}
	}
}
