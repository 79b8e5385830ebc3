package main

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lz4warp/lz4warp"
)

// lz4Flags are the flags of the lz4 command that lz4warp takes, with their
// meaning (CLI-16).
type lz4Flags struct {
	compress, decompress, stdout, keep, rm, force bool
	quiet, verbose, test, multiple, version       bool
	noFrameCRC, contentSize                       bool
	level                                         int
	blocks                                        []string
	backend                                       string
	batch                                         int
	devices                                       deviceChoice
}

// levelArg is an lz4 level flag, -1 to -12, which pflag would read as
// combined one-letter flags.
var levelArg = regexp.MustCompile(`^-([0-9]+)$`)

// runLZ4Mode runs a command line in the lz4 command's syntax (CLI-16):
// lz4warp FILE writes FILE.lz4, lz4warp -d FILE.lz4 writes FILE,
// lz4warp -dc FILE.lz4 writes to stdout, and so on.
func runLZ4Mode(e *env, args []string) int {
	err := lz4Mode(e, args)
	switch {
	case err == nil, errors.Is(err, pflag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(e.stderr, "lz4warp: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(e.stderr, "lz4warp: %v\n", err)
	return exitFail
}

func lz4Mode(e *env, args []string) error {
	var lf lz4Flags
	fs := pflag.NewFlagSet("lz4warp", pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.SortFlags = false
	fs.BoolVarP(&lf.compress, "compress", "z", false, "compress (the default, but for inputs ending in .lz4)")
	fs.BoolVarP(&lf.decompress, "decompress", "d", false, "decompress")
	fs.BoolVarP(&lf.test, "test", "t", false, "test the integrity of compressed files: decompress, write nothing")
	fs.BoolVarP(&lf.stdout, "stdout", "c", false, "write to stdout")
	fs.BoolVarP(&lf.keep, "keep", "k", true, "keep the input files (the default)")
	fs.BoolVar(&lf.rm, "rm", false, "remove each input file once its output is written")
	fs.BoolVarP(&lf.force, "force", "f", false, "overwrite existing output files")
	fs.BoolVarP(&lf.quiet, "quiet", "q", false, "no progress bar")
	fs.BoolVarP(&lf.verbose, "verbose", "v", false, "a summary per file on stderr")
	fs.BoolVarP(&lf.multiple, "multiple", "m", false, "every operand is an input file, each written beside itself")
	fs.IntVar(&lf.level, "level", 1, "compression level 1 to 12 (-1 to -12): accepted; every level writes the same canonical blocks")
	fs.StringArrayVarP(&lf.blocks, "block", "B", nil, "block options: -B4 to -B7 (accepted: lz4warp's blocks are 4 KiB pages), -BD (accepted: blocks stay independent), -BX (block checksums)")
	fs.BoolVarP(&lf.version, "version", "V", false, "print the version")
	fs.BoolVar(&lf.noFrameCRC, "no-frame-crc", false, "no content checksum")
	fs.BoolVar(&lf.contentSize, "content-size", false, "store the input's size in the frame header (files only)")
	fs.StringVar(&lf.backend, "backend", "auto", "backend: auto, scalar, simd or gpu")
	fs.IntVar(&lf.batch, "batch", lz4warp.DefaultConfig().BatchSize, "pages per GPU launch")
	fs.Var(&lf.devices, "devices", "GPUs to use: all, or indexes such as 0,1 (default: device 0)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: lz4warp [flags] [input [output]]   (lz4's syntax; see also lz4warp help)")
		fs.PrintDefaults()
	}
	for i, a := range args {
		if a == "--" {
			break
		}
		if m := levelArg.FindStringSubmatch(a); m != nil {
			args[i] = "--level=" + m[1]
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if lf.version {
		return runVersion(e, nil)
	}
	if lf.level < 1 || lf.level > 12 {
		return usagef("-%d: levels are 1 to 12", lf.level)
	}
	var so streamOptions
	so.backend, so.batch, so.devices = lf.backend, lf.batch, lf.devices
	so.noContentChecksum, so.contentSize = lf.noFrameCRC, lf.contentSize
	for _, b := range lf.blocks {
		switch b {
		case "4", "5", "6", "7", "D":
		case "X":
			so.blockChecksum = true
		default:
			return usagef("-B%s: want -B4 to -B7, -BD or -BX", b)
		}
	}
	if lf.compress && (lf.decompress || lf.test) {
		return usagef("-z with -d or -t")
	}
	ops := fs.Args()
	var jobs [][2]string // input, output ("" to choose)
	switch {
	case lf.multiple:
		for _, op := range ops {
			jobs = append(jobs, [2]string{op, ""})
		}
		if len(jobs) == 0 {
			return usagef("-m needs input files")
		}
	case len(ops) > 2:
		return usagef("%d operands: at most an input and an output (-m for several inputs)", len(ops))
	case len(ops) == 2:
		jobs = [][2]string{{ops[0], ops[1]}}
	case len(ops) == 1:
		jobs = [][2]string{{ops[0], ""}}
	default:
		jobs = [][2]string{{"-", ""}}
	}
	for _, j := range jobs {
		if err := lz4File(e, lf, so, j[0], j[1]); err != nil {
			return err
		}
	}
	return nil
}

// lz4File compresses or decompresses one input as lz4 does.
func lz4File(e *env, lf lz4Flags, so streamOptions, in, out string) error {
	stdin := in == "" || in == "-"
	decompress := lf.decompress || lf.test || !lf.compress && !stdin && strings.HasSuffix(in, suffix)
	switch {
	case lf.test:
		out = os.DevNull
	case lf.stdout:
		out = "-"
	case out != "":
	case stdin:
		out = "-"
	case decompress:
		base, ok := strings.CutSuffix(in, suffix)
		if !ok || base == "" || os.IsPathSeparator(base[len(base)-1]) {
			return usagef("cannot name the output of %s: its name does not end in %s after a name (give an output, or -c)", in, suffix)
		}
		out = base
	default:
		out = in + suffix
	}
	ff := fileFlags{out: out, force: lf.force, quiet: lf.quiet, verbose: lf.verbose}
	var err error
	if decompress {
		err = decompressFile(e, in, ff)
	} else {
		err = compressFile(e, in, ff, so)
	}
	if err != nil {
		return err
	}
	if lf.rm && !stdin && out != "-" && !lf.test {
		return os.Remove(in)
	}
	return nil
}

// runVersion prints the module's version and the commit it was built from.
func runVersion(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	version, commit := "(devel)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				commit = " " + s.Value
			}
		}
	}
	fmt.Fprintf(e.stdout, "lz4warp %s%s\n", version, commit)
	return nil
}

// Type names a -devices value's kind in pflag's usage text.
func (d *deviceChoice) Type() string { return "devices" }
