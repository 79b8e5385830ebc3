package main

import (
	"bytes"
	"testing"
)

// callRecorder records each Write call's length.
type callRecorder struct {
	bytes.Buffer
	calls []int
}

func (c *callRecorder) Write(p []byte) (int, error) {
	c.calls = append(c.calls, len(p))
	return c.Buffer.Write(p)
}

// Checks CLI-10: the output writer keeps the order of small and large
// writes, gathers the small ones, and passes each large one through in one
// call of its own.
func TestDirectWriter(t *testing.T) {
	var rec callRecorder
	d := newDirectWriter(&rec)
	var want []byte
	for i, n := range []int{10, 20, directWrites, 5, 3 * directWrites, 7, 8} {
		p := bytes.Repeat([]byte{byte('a' + i)}, n)
		if k, err := d.Write(p); k != n || err != nil {
			t.Fatalf("write %d: %d, %v", i, k, err)
		}
		want = append(want, p...)
	}
	if err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rec.Bytes(), want) {
		t.Fatalf("%d bytes out, want %d in order", rec.Len(), len(want))
	}
	wantCalls := []int{30, directWrites, 5, 3 * directWrites, 15}
	if len(rec.calls) != len(wantCalls) {
		t.Fatalf("calls %v, want %v", rec.calls, wantCalls)
	}
	for i := range wantCalls {
		if rec.calls[i] != wantCalls[i] {
			t.Fatalf("calls %v, want %v", rec.calls, wantCalls)
		}
	}
}
