// Command compacteval evaluates and fuzzes the compaction prompt and its summary extractors.
//
// Run compacteval help for the subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/compacteval/compacteval/internal/reap"
)

func main() { mainExit() }

// mainExit runs the command of os.Args and exits with its code (the scripts' compacteval
// command is this too).
func mainExit() {
	// What an extractor starts, in a session of its own or not, ends with compacteval: it is
	// adopted by compacteval when its parent exits and killed before compacteval exits
	// (reap.All), and where a cgroup can be made it dies even if compacteval is killed.
	reap.Init()
	stopProfile := startCPUProfile()
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		// A run makes several times its live heap in garbage while it parses YAML, mutates
		// answers and scores. Most of a run's live heap is small (under 100 MB at 21,500
		// cases), and collecting at half of it (GOGC=50, before) cost about a tenth of the
		// CPU; the drift matrix's pairs are what make a large corpus's peak (docs/speed.md:
		// 413 MB at 100,000 cases with GOGC=50). So the collector keeps Go's default pace,
		// and a soft limit makes it collect sooner as the heap nears memoryLimit, which
		// holds that peak under 500 MB (MEMORY_MAX_MB=500 scripts/memory-table.sh 100000).
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	mode := signalMode(os.Args[1:])
	first := watchSignals(mode, os.Stderr)
	var stdin io.Reader = os.Stdin
	if mode != signalExit {
		stdin = newContextReader(ctx, stdin) // a command waiting for a terminal stops too
	}
	code := run(ctx, os.Args[1:], stdin, os.Stdout, os.Stderr)
	if ctx.Err() != nil && mode == signalCancel {
		code = signalCode(<-first)
	}
	stop()
	reap.All()
	stopProfile()
	os.Exit(code)
}

// memoryLimit is the soft limit of the memory the Go runtime uses, unless GOGC or GOMEMLIMIT
// is set: past it, the collector runs as often as it must, up to half the CPU.
const memoryLimit = 384 << 20

// onSignal says what SIGINT or SIGTERM does to a command.
type onSignal int

const (
	// signalExit: compacteval exits at once (128+N, as a shell reports it), its processes
	// killed: the command starts none that must stop cleanly and writes its files whole.
	signalExit onSignal = iota
	// signalCancel: the command's context is cancelled; it kills its extractors' processes,
	// removes their temporary files, says that it stopped and returns; compacteval exits
	// 128+N.
	signalCancel
	// signalOwn: the context is cancelled; the command says what it did and its exit code
	// stands (record finishes the call in flight, and a rerun resumes).
	signalOwn
)

// signalMode returns what a signal does to the command args names.
func signalMode(args []string) onSignal {
	if len(args) > 0 {
		for _, c := range commands() {
			if c.name == args[0] {
				return c.onSignal
			}
		}
	}
	return signalExit
}

// watchSignals sends the first SIGINT or SIGTERM on the channel it returns (the context of
// signal.NotifyContext is cancelled by the same signal). For a command that exits on a
// signal (signalExit) the first one ends compacteval; for the others a second one does,
// without waiting for the command to return. Either way compacteval's processes are killed
// first (reap.All).
func watchSignals(mode onSignal, stderr io.Writer) <-chan os.Signal {
	c := make(chan os.Signal, 2)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	first := make(chan os.Signal, 1)
	go func() {
		sig := <-c
		first <- sig
		if mode != signalExit {
			again := <-c
			fmt.Fprintf(stderr, "compacteval: %v again: exiting without waiting for the command\n", again)
		}
		reap.All()
		os.Exit(signalCode(sig))
	}()
	return first
}

// signalCode is the exit code of a command ended by sig, as a shell reports it: 128 + the
// signal's number (130 for SIGINT, 143 for SIGTERM).
func signalCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// Exit codes shared by every subcommand.
const (
	exitOK      = 0 // success
	exitProblem = 1 // the run worked and found a problem
	exitError   = 2 // usage or operational error
)

type command struct {
	name     string
	summary  string
	run      func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
	onSignal onSignal
}

func commands() []command {
	return []command{
		{"run", "run everything on the corpus and write report.json, report.md, report.html", runRun, signalCancel},
		{"report", "render a report.json as Markdown, HTML or JUnit XML", runReport, signalExit},
		{"gate", "compare a run with the blessed baseline; fail on regressions", runGate, signalExit},
		{"extract", "print the summary extracted from one model response", runExtract, signalCancel},
		{"pipe", "answer reference-protocol requests on stdin, one JSON line each", runPipe, signalExit},
		{"corpus", "lint, list, format and count the corpus cases", runCorpus, signalExit},
		{"score", "score how well summaries cover the conversation before the kept tail", runScore, signalExit},
		{"drift", "mutate well-formed answers as drifting models do; score every extractor", runDrift, signalCancel},
		{"fuzz", "hold an extractor to robust's properties on generated and drifted answers", runFuzz, signalCancel},
		{"init", "write gate.yaml, a GitHub Actions workflow and the first baseline for a repository", runInit, signalCancel},
		{"review", "what a prompt or extractor change does, for a pull-request review", runReview, signalCancel},
		{"record", "send corpus conversations to a real model; write its answers as new cases", runRecord, signalOwn},
		{"completion", "print a shell completion script for bash, zsh or fish", runCompletion, signalExit},
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	helpOut = stdout
	if len(args) == 0 {
		usage(stderr)
		return exitError
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[0] == "help" && !isHelpFlag(args[1]) {
			for _, c := range commands() {
				if c.name == args[1] {
					return c.run(ctx, []string{"-h"}, stdin, stdout, stderr)
				}
			}
			fmt.Fprintf(stderr, "compacteval help: unknown command %q%s\n", args[1], suggestCommand(args[1]))
			return exitError
		}
		usage(stdout)
		return exitOK
	case "version", "-version", "--version":
		return runVersion(stdout)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "compacteval: unknown command %q%s\n\n", args[0], suggestCommand(args[0]))
	usage(stderr)
	return exitError
}

func isHelpFlag(s string) bool { return s == "-h" || s == "-help" || s == "--help" }

// suggestCommand returns " (did you mean X?)" for the command closest to name, or "".
func suggestCommand(name string) string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if s := closest(name, names); s != "" {
		return " (did you mean " + s + "?)"
	}
	return ""
}

func usage(w io.Writer) {
	fmt.Fprint(w, "compacteval evaluates and fuzzes the compaction prompt and its summary extractors.\n\nUsage:\n  compacteval <command> [flags] [args]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun compacteval help <command> (or compacteval <command> -h) for a command's flags and\nexamples; compacteval version prints the version. Flags may come before or after a\ncommand's arguments.\nExit codes: 0 success, 1 a problem was found, 2 usage or operational error.\n")
}
