//go:build !cgo || !linux

package liblz4

import "fmt"

type lib struct{}

func load() (*Lib, error) {
	return nil, fmt.Errorf("%w: built without cgo on linux", ErrUnavailable)
}

func (*lib) compressDefault(dst, src []byte) int { panic("liblz4: not loaded") }
func (*lib) decompressSafe(dst, src []byte) int  { panic("liblz4: not loaded") }
