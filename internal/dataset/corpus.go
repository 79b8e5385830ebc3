package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// CorpusEnv names an environment variable: the directory of page corpora
// that `make corpus` builds (scripts/corpus.sh: memory dumps of processes of
// several runtimes, binaries, shared libraries, text, an ext4 image), one
// file of whole pages per corpus, NAME.pages. Corpora lists them as sets
// that Load reads; without it there are none, so that nothing depends on
// them unless asked.
const CorpusEnv = "LZ4WARP_CORPUS"

// CorpusPrefix starts the name of every corpus set: "corpus/" + NAME.
const CorpusPrefix = "corpus/"

// Corpora lists the corpus sets of the directory CorpusEnv names, in name
// order: none when it is unset. The pages of a corpus file are the same on
// every Load, as long as the file is.
func Corpora() ([]string, error) {
	dir := os.Getenv(CorpusEnv)
	if dir == "" {
		return nil, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.pages"))
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w: %v", CorpusEnv, ErrNoSource, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("dataset: %s: %w: no *.pages files in %s (make corpus builds them)", CorpusEnv, ErrNoSource, dir)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = CorpusPrefix + strings.TrimSuffix(filepath.Base(f), ".pages")
	}
	slices.Sort(names)
	return names, nil
}

// loadCorpus samples the pages of the corpus file of a name from Corpora.
func loadCorpus(name string, maxPages int) ([]Page, error) {
	dir := os.Getenv(CorpusEnv)
	base := strings.TrimPrefix(name, CorpusPrefix)
	if dir == "" || base == "" || strings.ContainsAny(base, `/\`) {
		return nil, fmt.Errorf("%w %q: %s is unset or the name is not a corpus", ErrUnknown, name, CorpusEnv)
	}
	path := filepath.Join(dir, base+".pages")
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w: %v", name, ErrNoSource, err)
	}
	pages, err := sample([]segment{{path: path, size: info.Size()}}, maxPages)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	return pages, nil
}
