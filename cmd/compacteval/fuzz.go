package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/fuzzrun"
	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/pipeline"
	"github.com/compacteval/compacteval/report"
)

const fuzzUsage = `Usage: compacteval fuzz [-extractor X]... [-corpus DIR|embedded]... [-time D] [-seed N]
         [-size N] [-out DIR] [-config gate.yaml] [-reference NAME] [-run REGEXP]
         [-category C]... [-failed FILE] [-json] [-timeout D]

Holds each extractor to the properties compacteval's robust extractor is held to, over the
corpus responses, a time check and, for -time, generated answers (drift mutations of the
well-formed cases composed, structured tag soups, closed analysis blocks between soups):

  analysis-leak     never return text of a closed analysis block
  bare-tag          never return a summary that is only tags
  tag-kept          never keep a structural tag line (<summary>, </summary>, ...) that
                    the intended summary does not have: an unclosed opener left in front
  summary-lost      never return nothing where a reader sees a summary
  nondeterministic  the same text always gets the same answer
  superlinear-time  answer within a time that grows linearly with the input: each input
                    family (openers without closers, heading loops, "$&" runs, ...) is
                    timed at -size bytes and ten times that; a ratio of 30 or more, with
                    the large input taking at least 50 ms, is superlinear (10 is linear,
                    100 quadratic), and an answer past -timeout is a timeout

Each property is claimed only where the text alone decides it; where it does not (every
analysis tag gone, a tag line that may be quoted), the input is counted as ambiguous, not
as a failure (docs/fuzzing.md states each property).

Every failure has a kind: its property and what shows it (tag-kept:summary, an unclosed
<summary> opener kept; superlinear-time:summary-openers; docs/fuzzing.md lists them). For a
module or command extractor, -reference (default seed, the built-in port of the seed module;
none for none) is run on the same inputs: a kind it shows too is "known in seed", a
behaviour of the unchanged seed rather than of your change. -config gate.yaml accepts kinds
per extractor (its fuzz: section). The run fails only on a new kind: neither known in the
reference nor accepted. Built-in extractors have no reference: each finding is theirs.

Every failure is minimized (lines, then characters, removed while it still fails with the
same kind) and the first few of each new kind are written as new cases in -out (default
corpus/inbox), each in a category folder, never overwriting a file, marked "not yet
reviewed by a person" with robust's extraction standing in for intended. Prints executions
per second. A selection (-run, -category, -failed) chooses the corpus cases fuzzed and
mutated.

Without -seed each run draws a fresh seed for its generated answers and prints it
("seed N"): -seed N replays the same inputs.

%s
%s
-out is the folder record writes its new cases to as well (-inbox still works).

Exit codes: 0 no new kind of failure; 1 a new kind (one the reference does not show and
gate.yaml does not accept); 2 usage or operational error, or an extractor that stopped
answering.

Examples:
  compacteval fuzz -extractor robust -time 10s
  compacteval fuzz -extractor module:src/compaction.ts -time 60s -config gate.yaml
  compacteval fuzz -extractor cmd:'python3 tools/extract.py' -out /tmp/found -json
`

// fuzzDefaultTime is -time without the flag.
const fuzzDefaultTime = 30 * time.Second

func runFuzz(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("fuzz", fmt.Sprintf(fuzzUsage, inputsHelp(), selectionUsage), stderr)
	var in inputs
	in.register(fs)
	d := fs.Duration("time", fuzzDefaultTime, "how long generated answers are sent to each extractor")
	seed := fs.Int64("seed", 0, "seed of the generated answers (default: a fresh one, printed)")
	size := fs.Int("size", fuzz.DefaultSize, "bytes of the small input of the time check (the large is 10x); 0 skips it")
	limit(fs, "time", 0, 24*3600, "a run that never ends")
	limit(fs, "size", 0, 64<<20, "the large input is ten times this, held in memory")
	inbox := fs.String("out", filepath.Join("corpus", "inbox"), "folder for the failures as new cases (\"\" writes none)")
	alias(fs, "inbox", "out")
	configPath := fs.String("config", "", "gate.yaml: its fuzz: section accepts kinds of failure per extractor")
	refName := fs.String("reference", "seed", "built-in extractor run on the same inputs of a module or command; none for none")
	var pick selection
	pick.register(fs)
	asJSON := fs.Bool("json", false, "print the report document (its fuzz section) instead of the summary")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compacteval fuzz: unexpected argument %q\n", fs.Arg(0))
		return exitError
	}
	if *d < 0 || *size < 0 {
		fmt.Fprintln(stderr, "compacteval fuzz: -time and -size must not be negative")
		return exitError
	}
	var accept gate.FuzzConfig
	if *configPath != "" {
		cfg, err := gate.ReadConfig(*configPath)
		if err != nil {
			fmt.Fprintf(stderr, "compacteval fuzz: %v\n", err)
			return exitError
		}
		accept = cfg.Fuzz
	}
	var ref *fuzz.Target
	if *refName != "none" {
		ex, ok := compact.Lookup(*refName)
		if !ok {
			fmt.Fprintf(stderr, "compacteval fuzz: -reference %q: want a built-in extractor (%s) or none\n", *refName, strings.Join(compact.ExtractorNames(), ", "))
			return exitError
		}
		t := fuzz.Of(ex)
		if ex.Name == "seed" {
			t.Superlinear = fuzz.SeedSuperlinear // the Go port is linear where the module is not
		}
		ref = &t
	}
	sel, code, ok := pick.selected("fuzz", stdin, stderr)
	if !ok {
		return code
	}
	exs, c, ok := in.open(ctx, "fuzz", stderr)
	if !ok {
		return exitError
	}
	defer extractor.CloseAll(exs)
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		*seed = int64(rand.Uint32()) // short to type back as -seed
	}
	opt := fuzz.Options{Time: *d, Seed: *seed, Size: *size}
	if *size == 0 {
		opt.Size = -1
	}
	p := newProgress("fuzz", stderr)
	perExtractor := func(ex *extractor.Extractor, o *fuzz.Options) {
		if ex.External() {
			o.Reference = ref
		}
		o.Accept = accept.Accepted(ex.Name)
	}
	r, err := pipeline.Run(ctx, pipeline.Options{Corpus: c, Extractors: exs, SkipEval: true, Fuzz: &opt, FuzzFor: perExtractor,
		Select: sel, Progress: p.update})
	p.done()
	if err != nil && (r == nil || len(r.Fuzz) == 0) {
		fmt.Fprintf(stderr, "compacteval fuzz: %v\n", err)
		return exitError
	}
	written, existing := 0, map[string]bool{}
	if *inbox != "" {
		for _, res := range r.Fuzz {
			n, old, werr := fuzzrun.WriteInbox(*inbox, res, res.NewKind)
			written += n
			for _, path := range old {
				existing[path] = true
			}
			if werr != nil {
				fmt.Fprintf(stderr, "compacteval fuzz: %v\n", werr)
				return exitError
			}
		}
	}
	if *asJSON {
		if code := writeJSON(stdout, stderr, r); code != exitOK {
			return code
		}
	} else {
		printFuzz(stdout, r, written, existing, *inbox)
	}
	if err != nil {
		fmt.Fprintf(stderr, "compacteval fuzz: %v\n", err)
		return exitError
	}
	for _, res := range r.Fuzz {
		if res.Failed() {
			return exitProblem
		}
	}
	return exitOK
}

// printFuzz prints the summary of r; existing holds the case files that were already in
// inbox, which are named as such, never as new cases.
func printFuzz(w io.Writer, r *report.Report, written int, existing map[string]bool, inbox string) {
	for i, res := range r.Fuzz {
		if i > 0 {
			fmt.Fprintln(w)
		}
		var gens []string
		for _, g := range []string{"corpus", "drift", "structured", "marker", "soup"} {
			if n := res.Inputs[g]; n > 0 {
				gens = append(gens, fmt.Sprintf("%d %s", n, g))
			}
		}
		fmt.Fprintf(w, "fuzz %s: %d inputs (%s), %d executions in %.1fs, %.0f/s\n",
			res.Extractor, sum(res.Inputs), strings.Join(gens, ", "), res.Execs, res.Seconds, res.ExecsPerSecond)
		fmt.Fprintf(w, "  seed %d (-seed %d replays these inputs)\n", res.Seed, res.Seed)
		ref := res.Reference
		if ref == "" {
			ref = "the reference"
		}
		for _, prop := range fuzz.Properties {
			fmt.Fprintf(w, "  %-17s %s\n", prop, propVerdict(res, prop, ref))
		}
		if n := sum(res.Ambiguous); n > 0 {
			var by []string
			for _, prop := range fuzz.Properties {
				if m := res.Ambiguous[prop]; m > 0 {
					by = append(by, fmt.Sprintf("%s %d", prop, m))
				}
			}
			fmt.Fprintf(w, "  %-17s %d (%s): the text alone does not decide them; not failures\n", "ambiguous", n, strings.Join(by, ", "))
		}
		if len(res.Timings) > 0 {
			fmt.Fprintf(w, "  time check (best of %d):\n", fuzz.Repeats)
			for _, t := range res.Timings {
				large := "timeout"
				if t.LargeSeconds != nil {
					large = fmt.Sprintf("%.4fs", *t.LargeSeconds)
				}
				fmt.Fprintf(w, "    %-17s %7d B %.4fs  %8d B %s  x%-6.1f %s\n", t.Family, t.SmallBytes, t.SmallSeconds, t.LargeBytes, large, t.Ratio, t.Verdict)
			}
		}
		printKinds(w, res, ref)
		hidden := 0
		for _, f := range res.Examples {
			if !res.NewKind(f.Kind) {
				hidden++
				continue
			}
			fmt.Fprintf(w, "  %s: %s\n", f.Kind, f.Detail)
			if f.Input != "" {
				fmt.Fprintf(w, "    input (%d bytes, from %d): %s\n", len(f.Input), f.OriginalBytes, shorten(f.Input, 100))
			}
			if existing[f.File] {
				fmt.Fprintf(w, "    case: %s (already there, not written)\n", f.File)
			} else if f.File != "" {
				fmt.Fprintf(w, "    case: %s\n", f.File)
			}
		}
		if hidden > 0 {
			fmt.Fprintf(w, "  (%s of known or accepted kinds: -json shows them)\n", plural(hidden, "example"))
		}
		for _, n := range res.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	if written > 0 || len(existing) > 0 {
		fmt.Fprintln(w)
	}
	if written > 0 {
		fmt.Fprintf(w, "wrote %s in %s (review them, then move them into corpus/cases)\n", plural(written, "new case"), inbox)
	}
	if len(existing) > 0 {
		names := make([]string, 0, len(existing))
		for path := range existing {
			rel, err := filepath.Rel(inbox, path)
			if err != nil {
				rel = path
			}
			names = append(names, filepath.ToSlash(rel))
		}
		slices.Sort(names)
		fmt.Fprintf(w, "%s already in %s, not written over: %s\n", plural(len(existing), "case"), inbox, strings.Join(names, ", "))
	}
}

// propVerdict is a property's line: ok, or FAIL and its count, with the failures known in
// the reference and accepted said apart.
func propVerdict(res *fuzz.Result, prop, ref string) string {
	n := res.Counts[prop]
	if n == 0 {
		return "ok"
	}
	known, accepted, fresh := 0, 0, 0
	for _, k := range res.Kinds {
		switch {
		case k.Property != prop:
		case k.Known:
			known += k.Count
		case k.Accepted:
			accepted += k.Count
		default:
			fresh += k.Count
		}
	}
	var apart []string
	if known > 0 {
		apart = append(apart, fmt.Sprintf("%d known in %s", known, ref))
	}
	if accepted > 0 {
		apart = append(apart, fmt.Sprintf("%d accepted", accepted))
	}
	verdict := fmt.Sprintf("FAIL %d", n)
	if fresh == 0 && res.Kinds != nil {
		verdict = "ok"
	}
	if len(apart) == 0 {
		return verdict
	}
	return fmt.Sprintf("%s (%s)", verdict, strings.Join(apart, ", "))
}

// printKinds lists the kinds found: the new ones (which fail the run), then the accepted,
// then those the reference shows too, with its count on the same inputs.
func printKinds(w io.Writer, res *fuzz.Result, ref string) {
	if len(res.Kinds) == 0 {
		return
	}
	fmt.Fprintln(w, "  kinds (only a new one fails the run):")
	for _, group := range []struct {
		name string
		in   func(fuzz.KindCount) bool
	}{
		{"new", fuzz.KindCount.New},
		{"accepted", func(k fuzz.KindCount) bool { return k.Accepted && !k.Known }},
		{"known", func(k fuzz.KindCount) bool { return k.Known }},
	} {
		for _, k := range res.Kinds {
			if !group.in(k) {
				continue
			}
			line := fmt.Sprintf("    %-8s  %-34s %6d", group.name, k.Kind, k.Count)
			if k.Known {
				line += fmt.Sprintf("  (%s: %d on the same inputs)", ref, k.ReferenceCount)
			}
			fmt.Fprintln(w, line)
		}
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// shorten quotes s, cut to about n bytes.
func shorten(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "..."
	}
	return fmt.Sprintf("%q", s)
}
