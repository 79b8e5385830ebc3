package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// parseInterspersed parses flags placed before or after the operands, as
// Unix tools allow (`lz4warp compress file -o out`); "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if endedByDashDash(fs, args[:len(args)-len(rest)]) {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// endedByDashDash reports whether the flags parsed from consumed ended at a
// "--" that ends the flags, not at one that was a flag's value (-o --). It
// walks consumed as the flag package did: a flag that is not boolean and
// has no "=value" took the next argument as its value.
func endedByDashDash(fs *flag.FlagSet, consumed []string) bool {
	for i := 0; i < len(consumed); i++ {
		a := consumed[i]
		if a == "--" {
			return true
		}
		name := strings.TrimPrefix(a[1:], "-") // -name or --name
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				i++ // its value
			}
		}
	}
	return false
}

// input is an opened input: stdin or a file.
type input struct {
	r     io.Reader
	name  string // for messages
	path  string // "" for stdin
	size  int64  // -1 when unknown
	mode  fs.FileMode
	mtime time.Time // zero for stdin
	f     *os.File
}

func openInput(e *env, operand string) (*input, error) {
	if operand == "" || operand == "-" {
		return &input{r: e.stdin, name: "stdin", size: -1, mode: 0o644}, nil
	}
	f, err := os.Open(operand)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is a directory", operand)
	}
	in := &input{r: f, name: operand, path: operand, size: -1, mode: fi.Mode().Perm(), mtime: fi.ModTime(), f: f}
	if fi.Mode().IsRegular() {
		in.size = fi.Size()
	}
	return in, nil
}

func (in *input) Close() error {
	if in.f != nil {
		return in.f.Close()
	}
	return nil
}

// output is where a command writes: stdout, or a file that appears under
// its name only once complete (CLI-8). The data goes to a temporary file in
// the same directory, renamed over the final name by commit.
type output struct {
	w      io.Writer
	name   string // for messages
	final  string // "" for stdout and other outputs written in place
	tmp    *os.File
	direct *os.File // a device or pipe (/dev/null), written in place
}

var errExists = errors.New("already exists (use -f to overwrite)")

// createOutput opens path ("-" for stdout). An existing file is an error
// unless force is set; it is replaced only at commit.
func createOutput(e *env, path string, force bool, mode fs.FileMode) (*output, error) {
	if path == "-" {
		return &output{w: e.stdout, name: "stdout"}, nil
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return nil, fmt.Errorf("%s is a directory", path)
		}
		if !fi.Mode().IsRegular() {
			// /dev/null, a FIFO, a terminal: written in place, as lz4 does.
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return &output{w: f, name: path, direct: f}, nil
		}
		if !force {
			return nil, fmt.Errorf("%s %w", path, errExists)
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary name would only confuse
		}
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	return &output{w: tmp, name: path, final: path, tmp: tmp}, nil
}

// commit makes the output appear under its name, with the input's
// modification time when it has one: its data reach the disk (fsync)
// before the rename that makes them the output, so that a crash leaves
// the old file or the whole new one (CLI-8).
func (o *output) commit(mtime time.Time) error {
	if o.direct != nil {
		err := o.direct.Close()
		o.direct = nil
		return err
	}
	if o.tmp == nil {
		return nil
	}
	err := o.tmp.Sync()
	if err == nil && !mtime.IsZero() {
		err = os.Chtimes(o.tmp.Name(), time.Time{}, mtime)
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.tmp.Name(), o.final)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
	}
	o.tmp = nil
	return err
}

// abort removes a file output that was not committed; nothing remains
// under the output's name, nor a temporary file.
func (o *output) abort() {
	if o.direct != nil {
		o.direct.Close()
		o.direct = nil
	}
	if o.tmp == nil {
		return
	}
	o.tmp.Close()
	os.Remove(o.tmp.Name())
	o.tmp = nil
}

// outputPath chooses where a command writes (CLI-7): -o when given; else
// stdout for stdin; else the input's name with suffix added (compress) or
// removed (decompress).
func outputPath(flagOut, operand, suffix string, compress bool) (string, error) {
	if flagOut != "" {
		return flagOut, nil
	}
	if operand == "" || operand == "-" {
		return "-", nil
	}
	if compress {
		return operand + suffix, nil
	}
	base, ok := strings.CutSuffix(operand, suffix)
	if !ok {
		return "", usagef("cannot name the output of %s: it does not end in %s (use -o)", operand, suffix)
	}
	if base == "" || os.IsPathSeparator(base[len(base)-1]) {
		return "", usagef("cannot name the output of %s: its name is only the %s suffix (use -o)", operand, suffix)
	}
	return base, nil
}

// sameFile reports whether the input and output paths name one file.
func sameFile(in *input, outPath string) bool {
	if in.f == nil || outPath == "-" {
		return false
	}
	a, err1 := in.f.Stat()
	b, err2 := os.Stat(outPath)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}
