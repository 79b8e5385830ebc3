package gpuimpl

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Checks RT-10: no Go file of the module carries a GPU build tag, and only
// internal/cudart imports the loader that opens the driver library.
func TestOneDoorToTheDriver(t *testing.T) {
	root := filepath.Join("..")
	files, loaders := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "build" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "cuda") {
					t.Errorf("%s: %s: the GPU support needs no build tag", path, c.Text)
				}
			}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == "github.com/ebitengine/purego" || p == "C" && strings.Contains(path, "cudart") {
				loaders++
				if filepath.Base(filepath.Dir(path)) != "cudart" {
					t.Errorf("%s imports %s: only internal/cudart talks to the driver", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 || loaders == 0 {
		t.Fatalf("walked %d Go files and found %d imports of the loader: the walk missed the module", files, loaders)
	}
}
