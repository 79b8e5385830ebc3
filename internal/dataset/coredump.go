package dataset

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// CoreEnv names an environment variable: when it holds the path of an ELF
// core file (`make coredump` writes one with gcore), the coredump set reads
// that file's memory segments instead of the live process.
const CoreEnv = "LZ4WARP_COREDUMP"

// loadCoredump returns real memory pages. By default they are the readable
// mappings of the running process (/proc/self/maps), read through
// /proc/self/mem: its code, data, heap, stacks and shared libraries. Ranges
// the kernel refuses to read ([vvar], guard pages) are skipped. The pages
// change from run to run, so the set is not deterministic.
func loadCoredump(maxPages int) ([]Page, error) {
	if path := os.Getenv(CoreEnv); path != "" {
		return loadCoreFile(path, maxPages)
	}
	segs, err := selfMappings()
	if err != nil {
		return nil, fmt.Errorf("dataset: coredump: %w", err)
	}
	pages, err := sample(segs, maxPages)
	if err != nil {
		return nil, fmt.Errorf("dataset: coredump: %w", err)
	}
	return pages, nil
}

const selfMem = "/proc/self/mem"

// selfMappings lists the readable private and shared mappings of this
// process as segments of /proc/self/mem.
func selfMappings() ([]segment, error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSource, err)
	}
	defer f.Close()
	var segs []segment
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// 00400000-0040b000 r-xp 00000000 08:01 1234 /bin/cat
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || !strings.HasPrefix(fields[1], "r") {
			continue
		}
		if len(fields) >= 6 && (fields[5] == "[vvar]" || fields[5] == "[vvar_vclock]" || fields[5] == "[vsyscall]") {
			continue // kernel pages that /proc/self/mem does not serve
		}
		lo, hi, ok := strings.Cut(fields[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start || start > 1<<62 {
			continue
		}
		segs = append(segs, segment{path: selfMem, off: int64(start), size: int64(end - start)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSource, err)
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("%w: no readable mappings in /proc/self/maps", ErrNoSource)
	}
	return segs, nil
}

// loadCoreFile reads the memory segments (PT_LOAD with file contents) of an
// ELF core file. Each segment must lie within the file: the sizes come from
// the file's headers, and a hostile or truncated core must not make sample
// allocate or count pages that are not there.
func loadCoreFile(path string, maxPages int) ([]Page, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: coredump: %w: %s: %v", ErrNoSource, CoreEnv, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("dataset: coredump: %w: %v", ErrNoSource, err)
	}
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil, fmt.Errorf("dataset: coredump: %w: %s: %s: %v", ErrNoSource, CoreEnv, path, err)
	}
	if ef.Type != elf.ET_CORE {
		return nil, fmt.Errorf("dataset: coredump: %w: %s is not a core file", ErrNoSource, path)
	}
	size := uint64(info.Size())
	var segs []segment
	for _, p := range ef.Progs {
		if p.Type != elf.PT_LOAD || p.Filesz == 0 {
			continue
		}
		if p.Off > size || p.Filesz > size-p.Off {
			return nil, fmt.Errorf("dataset: coredump: %w: %s: segment of %d bytes at offset %d runs past the end of the file (%d bytes)",
				ErrNoSource, path, p.Filesz, p.Off, size)
		}
		segs = append(segs, segment{path: path, off: int64(p.Off), size: int64(p.Filesz)})
	}
	pages, err := sample(segs, maxPages)
	if err != nil {
		return nil, fmt.Errorf("dataset: coredump: %s: %w", path, err)
	}
	return pages, nil
}
