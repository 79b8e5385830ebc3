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

// Checks RT-10: every Go file of the module that imports gorgonia.org/cu or
// internal/cudart is built only with the tag cuda (or is the never-built
// tools file that pins modules), so that the default build and CI never
// link the driver.
func TestDriverImportsNeedCudaTag(t *testing.T) {
	root := filepath.Join("..")
	checked := 0
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
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p != "gorgonia.org/cu" && !strings.HasSuffix(p, "/internal/cudart") {
				continue
			}
			checked++
			tagged := false
			for _, cg := range f.Comments {
				if cg.Pos() > f.Package {
					break
				}
				for _, c := range cg.List {
					if c.Text == "//go:build cuda" || c.Text == "//go:build tools" {
						tagged = true
					}
				}
			}
			if !tagged {
				t.Errorf("%s imports %s without //go:build cuda", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no file imports the driver: the walk missed the module")
	}
}
