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
	out := &flagOutput{stderr: stderr, hidden: map[string]string{}}
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(out, text)
		fmt.Fprintln(out, "\nFlags:")
		visible(fs).PrintDefaults()
	}
	return fs
}

// flagOutput holds what the flag package prints until parseFlags knows whether it answers
// -h (stdout) or reports an error (stderr), and the flag set's hidden aliases.
type flagOutput struct {
	bytes.Buffer
	stderr io.Writer
	hidden map[string]string // an old flag name -> the name it stands for
}

// alias defines old as a hidden second name of the flag name: an older spelling that
// still works and that neither the usage nor the shell completion shows.
func alias(fs *flag.FlagSet, old, name string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("alias of undefined flag -" + name)
	}
	fs.Var(f.Value, old, "the old name of -"+name)
	if out, ok := fs.Output().(*flagOutput); ok {
		out.hidden[old] = name
	}
}

// visible returns a flag set with the flags of fs that are not hidden aliases, with their
// defaults (as defined, not as set).
func visible(fs *flag.FlagSet) *flag.FlagSet {
	out, _ := fs.Output().(*flagOutput)
	v := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	v.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		if _, hidden := out.hidden[f.Name]; out != nil && hidden {
			return
		}
		v.Var(f.Value, f.Name, f.Usage)
		v.Lookup(f.Name).DefValue = f.DefValue
	})
	return v
}

// captureFlags, when set, is given each command's flag set instead of parsing it (the
// command then ends with exitOK): shell completion lists the flags this way, from the
// flag sets themselves.
var captureFlags func(fs *flag.FlagSet)

// parseFlags parses args, flags and positional arguments in any order (a lone "--" ends the
// flags), and returns the exit code to end with, or -1 to go on. A mistyped flag gets a
// suggestion.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if captureFlags != nil {
		captureFlags(visible(fs))
		return exitOK
	}
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
	s := closest(strings.TrimLeft(strings.TrimPrefix(msg, prefix), "-"), names)
	if out, ok := fs.Output().(*flagOutput); ok && out.hidden[s] != "" {
		s = out.hidden[s] // an old name is suggested as its new one
	}
	return s
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
