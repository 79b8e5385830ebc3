package dataset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Checks RATIO-3's corpora: Corpora lists the *.pages files of
// LZ4WARP_CORPUS, and Load samples them as it does every set; without the
// variable there are none.
func TestCorpora(t *testing.T) {
	t.Setenv(CorpusEnv, "")
	if names, err := Corpora(); err != nil || names != nil {
		t.Fatalf("unset: %v, %v", names, err)
	}
	if _, err := Load(CorpusPrefix+"b", 1); !errors.Is(err, ErrUnknown) {
		t.Errorf("unset: Load: %v, want ErrUnknown", err)
	}
	dir := t.TempDir()
	t.Setenv(CorpusEnv, dir)
	if _, err := Corpora(); !errors.Is(err, ErrNoSource) {
		t.Errorf("empty directory: %v, want ErrNoSource", err)
	}
	a := bytes.Repeat([]byte{1}, 3*PageSize)
	for i := range 3 {
		a[i*PageSize] = byte(10 + i)
	}
	b := []byte("a partial page")
	for name, data := range map[string][]byte{"a.pages": a, "b.pages": b, "notes.txt": b} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names, err := Corpora()
	if want := []string{"corpus/a", "corpus/b"}; err != nil || !slices.Equal(names, want) {
		t.Fatalf("Corpora: %v, %v; want %v", names, err, want)
	}
	pages, err := Load("corpus/a", 2)
	if err != nil || len(pages) != 2 || pages[0][0] != 10 || pages[1][0] != 11 {
		t.Errorf("corpus/a, 2 pages: %d pages, %v", len(pages), err)
	}
	pages, err = Load("corpus/b", 5)
	if err != nil || len(pages) != 1 || !bytes.Equal(pages[0][:len(b)], b) || pages[0][len(b)] != 0 {
		t.Errorf("corpus/b: %d pages, %v", len(pages), err)
	}
	for _, bad := range []string{"corpus/", "corpus/../x", "corpus/missing"} {
		if _, err := Load(bad, 1); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
