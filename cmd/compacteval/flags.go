package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/compacteval/compacteval/internal/textdiff"
)

// helpOut is where -h prints a command's usage: the stdout of the run in progress (help is
// the output asked for, so it can be piped), set by run.
var helpOut io.Writer = io.Discard

// newFlags returns a flag set whose usage (the text, then the flags) goes to stdout for -h
// and, after the error, to stderr for a bad flag.
func newFlags(name, text string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := &flagOutput{stderr: stderr}
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(out, text)
		fmt.Fprintln(out, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// flagOutput holds what the flag package prints until parseFlags knows whether it answers
// -h (stdout) or reports an error (stderr).
type flagOutput struct {
	bytes.Buffer
	stderr io.Writer
}

// parseFlags parses args, flags and positional arguments in any order (a lone "--" ends the
// flags), and returns the exit code to end with, or -1 to go on. A mistyped flag gets a
// suggestion.
func parseFlags(fs *flag.FlagSet, args []string) int {
	out, _ := fs.Output().(*flagOutput)
	var positional []string
	for {
		err := fs.Parse(args)
		if err != nil {
			if out == nil {
				return exitError
			}
			if errors.Is(err, flag.ErrHelp) {
				helpOut.Write(out.Bytes())
				return exitOK
			}
			msg := out.String()
			if s := suggestFlag(fs, err); s != "" {
				msg = strings.Replace(msg, err.Error()+"\n", err.Error()+" (did you mean -"+s+"?)\n", 1)
			}
			io.WriteString(out.stderr, msg)
			return exitError
		}
		rest := fs.Args()
		// Parse stops at the first positional argument, or consumes a "--" and stops after it.
		if len(rest) == 0 || len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	fs.Parse(append([]string{"--"}, positional...)) // leaves the flags set, Args() = positional
	return -1
}

// suggestFlag returns the defined flag closest to the one err names, or "".
func suggestFlag(fs *flag.FlagSet, err error) string {
	const prefix = "flag provided but not defined: -"
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return closest(strings.TrimLeft(strings.TrimPrefix(msg, prefix), "-"), names)
}

// closest returns the name within two edits of s (the fewest), or "".
func closest(s string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(s, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int { return textdiff.EditDistance(a, b) }
