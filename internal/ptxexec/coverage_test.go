package ptxexec

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lz4warp/lz4warp/internal/ptx"
)

func builderForms() []string { return ptx.Opcodes() }

// Checks EXEC-2: the executor implements every instruction form the builder
// can emit, with the builder's number of operands.
func TestImplementsEveryBuilderForm(t *testing.T) {
	forms := ptx.Opcodes()
	if len(forms) == 0 {
		t.Fatal("ptx.Opcodes() is empty")
	}
	for _, form := range forms {
		spec, ok := formTable[form]
		if !ok {
			t.Errorf("the executor does not implement %s", form)
			continue
		}
		operands, _ := ptx.OperandForm(form)
		if len(spec.sig) != len(operands) {
			t.Errorf("%s: the executor decodes %d operands, the builder emits %d", form, len(spec.sig), len(operands))
		}
	}
}

// Checks EXEC-2 and EXEC-6 on the builder's own output: the module that uses
// every form loads, and running it stops at its first read of a predicate
// it never wrote (and.pred on %p0), which PTX leaves undefined.
func TestBuilderFormsModule(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "ptx", "testdata", "all_forms_sm90.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(string(text))
	if err != nil {
		t.Fatalf("the builder's forms module does not load: %v", err)
	}
	mem := NewMemory()
	buf := mem.Alloc(64)
	err = m.Launch("all_forms", 1, 32, []uint64{buf}, mem)
	var f *Fault
	if !errors.As(err, &f) || !errors.Is(err, ErrUndefinedReg) || f.Text != "and.pred %p1, %p0, %p0;" {
		t.Fatalf("got %v, want an undefined-register fault at and.pred", err)
	}
}
