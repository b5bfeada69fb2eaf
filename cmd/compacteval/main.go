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
	"sync/atomic"
	"syscall"

	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/reap"
)

func main() { mainExit() }

// mainExit runs the command of os.Args and exits with its code (the scripts' compacteval
// command is this too).
func mainExit() {
	// What an extractor starts in a session of its own is adopted by compacteval when its
	// parent exits, and killed before compacteval exits (reap.All).
	reap.Start()
	if len(os.Args) < 2 || os.Args[1] != "record" { // record ends its own calls on a signal
		stopOnSignal()
	}
	if os.Getenv("GOGC") == "" {
		// A run holds its report (live) and makes several times as much garbage while it
		// parses YAML, mutates answers and scores: collecting at half the live heap instead
		// of all of it kept the peak a fifth lower (9,500 cases, when a run held its whole
		// corpus: 1.08 GB instead of 1.35 GB) at no measured cost in time.
		debug.SetGCPercent(50)
	}
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if interrupted.Load() {
		select {} // the signal's goroutine is cleaning up and exits with the signal's code
	}
	reap.All()
	os.Exit(code)
}

var interrupted atomic.Bool

// interrupt is the context of the commands that run the pipeline: it is cancelled on
// SIGINT or SIGTERM.
var interrupt, cancelInterrupt = context.WithCancelCause(context.Background())

// stopOnSignal ends the command on SIGINT or SIGTERM as the user means it: the command's
// context is cancelled, every external extractor's process is killed and its temporary
// files are removed before the exit (128 + the signal's number, as a shell reports it).
// The exit does not wait for the command to return: a request an extractor is answering
// is not interrupted by the context, and internal/extractor kills processes only all at
// once (KillAll), closing what a running command may still read.
func stopOnSignal() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-c
		interrupted.Store(true)
		cancelInterrupt(fmt.Errorf("interrupted by %v", sig))
		extractor.KillAll()
		reap.All()
		code := 130
		if sig == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
}

// Exit codes shared by every subcommand.
const (
	exitOK      = 0 // success
	exitProblem = 1 // the run worked and found a problem
	exitError   = 2 // usage or operational error
)

type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"run", "run everything on the corpus and write report.json, report.md, report.html", runRun},
		{"report", "render a report.json as Markdown, HTML or JUnit XML", runReport},
		{"gate", "compare a run with the blessed baseline; fail on regressions", runGate},
		{"extract", "print the summary extracted from one model response", runExtract},
		{"pipe", "answer reference-protocol requests on stdin, one JSON line each", runPipe},
		{"corpus", "lint, list, format and count the corpus cases", runCorpus},
		{"score", "score how well summaries cover the conversation before the kept tail", runScore},
		{"drift", "mutate well-formed answers as drifting models do; score every extractor", runDrift},
		{"fuzz", "hold an extractor to robust's properties on generated and drifted answers", runFuzz},
		{"init", "write gate.yaml, a GitHub Actions workflow and the first baseline for a repository", runInit},
		{"review", "what a prompt or extractor change does, for a pull-request review", runReview},
		{"record", "send corpus conversations to a real model; write its answers as new cases", runRecord},
		{"completion", "print a shell completion script for bash, zsh or fish", runCompletion},
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
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
					return c.run([]string{"-h"}, stdin, stdout, stderr)
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
			return c.run(args[1:], stdin, stdout, stderr)
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
