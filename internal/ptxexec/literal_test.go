package ptxexec

import (
	"encoding/binary"
	"testing"
)

// literalKernel stores the literal lit, moved into a register, to the word
// at buf.
func literalKernel(lit string) string {
	return ".version 7.0\n.target sm_70\n.address_size 64\n\n" +
		".visible .entry lit(\n\t.param .u64 buf\n)\n{\n" +
		"\t.reg .b32 %r<1>;\n\t.reg .b64 %rd<1>;\n\n" +
		"\tld.param.u64 %rd0, [buf];\n" +
		"\tcvta.to.global.u64 %rd0, %rd0;\n" +
		"\tmov.u32 %r0, " + lit + ";\n" +
		"\tst.global.u32 [%rd0], %r0;\n" +
		"\tret;\n}\n"
}

// Integer literals are read as PTX reads them, as C does: a leading 0 is
// octal, 0x hexadecimal, 0b binary, else decimal.
func TestIntegerLiterals(t *testing.T) {
	for _, c := range []struct {
		lit  string
		want uint32
	}{
		{"010", 8},
		{"0", 0},
		{"00", 0},
		{"0777", 511},
		{"10", 10},
		{"0x10", 16},
		{"0X1f", 31},
		{"0b101", 5},
		{"-010", 0xfffffff8},
	} {
		mod, err := Load(literalKernel(c.lit))
		if err != nil {
			t.Errorf("%s: %v", c.lit, err)
			continue
		}
		mem := NewMemory()
		buf := mem.Alloc(4)
		if err := mod.Launch("lit", 1, 1, []uint64{buf}, mem); err != nil {
			t.Errorf("%s: %v", c.lit, err)
			continue
		}
		if got := binary.LittleEndian.Uint32(mem.Bytes(buf)); got != c.want {
			t.Errorf("mov.u32 %%r0, %s stored %d, want %d", c.lit, got, c.want)
		}
	}
	for _, lit := range []string{"08", "09", "0x", "0b", "0b2", "0_1", "0x+1"} {
		if _, err := Load(literalKernel(lit)); err == nil {
			t.Errorf("%s loaded; PTX has no such literal", lit)
		}
	}
}

func TestParseImm(t *testing.T) {
	for s, want := range map[string]int64{"010": 8, "-017": -15, "0x10": 16, "0b11": 3, "7": 7, "0": 0} {
		if got, ok := parseImm(s); !ok || got != want {
			t.Errorf("parseImm(%q) = %d, %v; want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "-", "08", "0x", "0b", "+1", "0o7", "0_7", "-0x8000000000000001"} {
		if v, ok := parseImm(s); ok {
			t.Errorf("parseImm(%q) = %d, want no literal", s, v)
		}
	}
}
