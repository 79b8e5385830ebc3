// Command lz4warp compresses files into standard .lz4 frames, 4 KiB page by
// 4 KiB page, on the CPU or an NVIDIA GPU, and measures the backends.
//
//	lz4warp [-z|-d|-t] [-c] [-f] [-k|--rm] [-q|-v] [-m] [-1..-12] [-BX] [--no-frame-crc] [--content-size] [input [output]]
//	lz4warp compress [-o out] [-f] [-backend b] [-batch N] [-devices all|0,1] [file|-]
//	lz4warp decompress [-o out] [-f] [file|-]
//	lz4warp bench [-data list] [-batches list] [-pages N] [-svg path] [-devices all|0,1]
//	lz4warp devices [-devices all|0,1]
//	lz4warp rule [-pages N] [-pcie GBps] [-gpu GBps]
//	lz4warp demo
//	lz4warp version
//
// Exit status: 0 on success, 1 when the work fails (bad input, I/O), 2 for
// a usage error, 128 plus the signal's number when interrupted (spec/cli.md,
// CLI-1, CLI-16).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"golang.org/x/term"
)

// Exit statuses (CLI-1).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// errUsage marks an error in the command line: exit status 2.
var errUsage = errors.New("usage")

type usageError struct{ msg string }

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == errUsage }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// env is what a command sees of the process, so that tests can run it in
// process as well as built.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	// stdinTTY, stderrTTY and stdoutTTY say whether those are terminals.
	stdinTTY, stderrTTY, stdoutTTY bool
}

type command struct {
	name, summary string
	run           func(e *env, args []string) error
}

var commands = []command{
	{"compress", "compress a file into an LZ4 frame of 4 KiB pages", runCompress},
	{"decompress", "decompress any LZ4 frame (lz4warp's or the lz4 command's)", runDecompress},
	{"bench", "throughput and ratio of each backend over datasets and batch sizes, with an SVG plot", runBench},
	{"devices", "list the CUDA devices", runDevices},
	{"rule", "the PCIe 5x rule with its arithmetic", runRule},
	{"demo", "compress a dataset of real pages through every backend and report", runDemo},
	{"version", "print the version", runVersion},
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var caught atomic.Int32
	go func() {
		s := <-sigs
		caught.Store(int32(s.(syscall.Signal)))
		cancel()
	}()
	e := &env{
		ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		stdinTTY: isTerminal(os.Stdin), stderrTTY: isTerminal(os.Stderr), stdoutTTY: isTerminal(os.Stdout),
	}
	code := run(e, os.Args[1:])
	if s := caught.Load(); s != 0 && code != exitOK {
		code = 128 + int(s) // as a shell reports a process the signal ended (CLI-16)
	}
	os.Exit(code)
}

// isTerminal reports whether f is a terminal; other character devices
// (/dev/null) are not (CLI-7).
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// run runs one command line and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 {
		return runLZ4Mode(e, args)
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		printUsage(e.stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		err := c.run(e, args[1:])
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.Is(err, errUsage):
			fmt.Fprintf(e.stderr, "lz4warp %s: %v\n", name, err) // one line (CLI-1)
			return exitUsage
		}
		fmt.Fprintf(e.stderr, "lz4warp %s: %v\n", name, err)
		return exitFail
	}
	return runLZ4Mode(e, args)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: lz4warp [lz4 flags] [input [output]]   (as the lz4 command; lz4warp -h lists the flags)")
	fmt.Fprintln(w, "       lz4warp <command> [flags] [args]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "run 'lz4warp <command> -h' for a command's flags")
}

// newFlags returns a flag set whose errors are returned, not fatal, and
// whose usage text (-h) goes to stderr.
func newFlags(e *env, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: lz4warp %s [flags] %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags, making a bad flag a usage error. The flag package
// would print the error and the whole usage itself; run prints the error as
// one line instead (CLI-1), so the flag set is muted while it parses and
// its usage printed only for -h.
func parse(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage()
			return err
		}
		return usagef("%v", err)
	}
	return nil
}
