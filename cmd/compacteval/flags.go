package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/compacteval/compacteval/internal/textdiff"
)

// helpOut is where -h prints a command's usage: the stdout of the run in progress (help is
// the output asked for, so it can be piped), set by run.
var helpOut io.Writer = io.Discard

// newFlags returns a flag set whose usage (the text, then the flags) goes to stdout for -h
// and, after the error, to stderr for a bad flag.
func newFlags(name, text string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := &flagOutput{stderr: stderr, hidden: map[string]string{}, limits: map[string]numLimit{}}
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
	limits map[string]numLimit
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
		if err := checkNumbers(fs); err != nil {
			fmt.Fprintf(out.stderr, "compacteval %s: %v\n", fs.Name(), err)
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

// numLimit is the range of a number flag: parseFlags refuses a value outside lo..hi. A
// string flag holds count comma-separated numbers (-temperature 1, -price IN,OUT 2), or
// nothing for its default. A duration's range is in seconds.
type numLimit struct {
	lo, hi float64
	count  int
	why    string
}

// limit sets the range of the number flag name, with why it has one (said in the safety
// docs); parseFlags refuses a value that is not a finite number within it, naming the
// flag. Every float flag refuses NaN and infinities without a limit.
func limit(fs *flag.FlagSet, name string, lo, hi float64, why string) {
	f := fs.Lookup(name)
	out, ok := fs.Output().(*flagOutput)
	if f == nil || !ok {
		panic("limit of undefined flag -" + name)
	}
	count := 0
	if _, isString := f.Value.(flag.Getter).Get().(string); isString {
		count = 1
		if name == "price" {
			count = 2
		}
	}
	out.limits[name] = numLimit{lo: lo, hi: hi, count: count, why: why}
}

// checkNumbers returns an error naming the first flag set on the command line whose value
// is not a finite number within its limit.
func checkNumbers(fs *flag.FlagSet) error {
	out, _ := fs.Output().(*flagOutput)
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		name := f.Name
		if out != nil && out.hidden[name] != "" {
			name = out.hidden[name]
		}
		var l *numLimit
		if out != nil {
			if v, ok := out.limits[name]; ok {
				l = &v
			}
		}
		if e := checkNumber(f.Value, l); e != nil {
			err = fmt.Errorf("invalid value %q for flag -%s: %v", f.Value.String(), f.Name, e)
		}
	})
	return err
}

func checkNumber(v flag.Value, l *numLimit) error {
	g, ok := v.(flag.Getter)
	if !ok {
		return nil
	}
	var xs []float64
	switch x := g.Get().(type) {
	case float64:
		xs = []float64{x}
	case int:
		xs = []float64{float64(x)}
	case int64:
		xs = []float64{float64(x)}
	case uint:
		xs = []float64{float64(x)}
	case time.Duration:
		xs = []float64{x.Seconds()}
	case string:
		if l == nil || x == "" {
			return nil
		}
		parts := strings.Split(x, ",")
		if len(parts) != l.count {
			return fmt.Errorf("want %d comma-separated numbers", l.count)
		}
		for _, p := range parts {
			f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return fmt.Errorf("%q is not a number", strings.TrimSpace(p))
			}
			xs = append(xs, f)
		}
	default:
		return nil
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("not a finite number")
		}
		if l != nil && (x < l.lo || x > l.hi) {
			return fmt.Errorf("out of range: want %s", l.rangeText(v))
		}
	}
	return nil
}

// rangeText says the range of a limit as its flag's values are written.
func (l numLimit) rangeText(v flag.Value) string {
	text := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	if g, ok := v.(flag.Getter); ok {
		if _, isDur := g.Get().(time.Duration); isDur {
			text = func(x float64) string { return time.Duration(x * float64(time.Second)).String() }
		}
	}
	if l.hi == math.MaxFloat64 {
		return text(l.lo) + " or more"
	}
	return text(l.lo) + " to " + text(l.hi)
}
