//go:build cgo && linux

package liblz4

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>

typedef int (*lz4fn)(const char *, char *, int, int);

static void *lz4open(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }
static void *lz4sym(void *h, const char *name) { return dlsym(h, name); }
static int lz4call(void *fn, const char *src, char *dst, int n, int cap) { return ((lz4fn)fn)(src, dst, n, cap); }
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"
)

type lib struct{ compress, decompress unsafe.Pointer }

var loaded = sync.OnceValues(func() (*Lib, error) {
	var h unsafe.Pointer
	var errs []string
	for _, path := range candidates() {
		cpath := C.CString(path)
		h = C.lz4open(cpath)
		C.free(unsafe.Pointer(cpath))
		if h != nil {
			break
		}
		errs = append(errs, C.GoString(C.dlerror()))
	}
	if h == nil {
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, strings.Join(errs, "; "))
	}
	l := &Lib{}
	for _, s := range []struct {
		name string
		fn   *unsafe.Pointer
	}{{"LZ4_compress_default", &l.compress}, {"LZ4_decompress_safe", &l.decompress}} {
		name := C.CString(s.name)
		*s.fn = C.lz4sym(h, name)
		C.free(unsafe.Pointer(name))
		if *s.fn == nil {
			return nil, fmt.Errorf("%w: no %s", ErrUnavailable, s.name)
		}
	}
	return l, nil
})

func load() (*Lib, error) { return loaded() }

// candidates are the names dlopen tries: the system's library, then the
// copy that make lz4-tool unpacks under LZ4_CACHE where the system has none.
func candidates() []string {
	names := []string{"liblz4.so.1"}
	if dir := os.Getenv("LZ4_CACHE"); dir != "" {
		found, _ := filepath.Glob(filepath.Join(dir, "usr", "lib", "*", "liblz4.so.1"))
		names = append(names, found...)
	}
	return names
}

// call passes src and dst to fn; empty slices pass a valid pointer all the
// same (liblz4 reads nothing from them).
func call(fn unsafe.Pointer, dst, src []byte) int {
	var one [1]byte
	s, d := &one[0], &one[0]
	if len(src) > 0 {
		s = &src[0]
	}
	if len(dst) > 0 {
		d = &dst[0]
	}
	return int(C.lz4call(fn, (*C.char)(unsafe.Pointer(s)), (*C.char)(unsafe.Pointer(d)), C.int(len(src)), C.int(len(dst))))
}

func (l *lib) compressDefault(dst, src []byte) int { return call(l.compress, dst, src) }
func (l *lib) decompressSafe(dst, src []byte) int  { return call(l.decompress, dst, src) }
