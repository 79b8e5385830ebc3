// Command lz4warp compresses files into standard .lz4 frames, 4 KiB page by
// 4 KiB page, on the CPU or an NVIDIA GPU, and measures the backends.
//
//	lz4warp compress [-o out] [-f] [-backend b] [-batch N] [-devices all|0,1] [file|-]
//	lz4warp decompress [-o out] [-f] [file|-]
//	lz4warp bench [-data list] [-batches list] [-pages N] [-svg path] [-devices all|0,1]
//	lz4warp devices [-devices all|0,1]
//	lz4warp rule [-pages N] [-pcie GBps] [-gpu GBps]
//	lz4warp demo
//
// Exit status: 0 on success, 1 when the work fails (bad input, I/O), 2 for
// a usage error (spec/cli.md, CLI-1).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
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
	// stderrTTY and stdoutTTY say whether those are terminals.
	stderrTTY, stdoutTTY bool
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
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := &env{
		ctx: ctx, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		stderrTTY: isTerminal(os.Stderr), stdoutTTY: isTerminal(os.Stdout),
	}
	code := run(e, os.Args[1:])
	stop()
	os.Exit(code)
}

// run runs one command line and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "lz4warp: no command (run 'lz4warp help' for the commands)")
		return exitUsage
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
	fmt.Fprintf(e.stderr, "lz4warp: unknown command %q (run 'lz4warp help' for the commands)\n", name)
	return exitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: lz4warp <command> [flags] [args]")
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
