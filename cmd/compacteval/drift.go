package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/pipeline"
)

const driftUsage = `Usage: compacteval drift [-extractor X]... [-corpus DIR|embedded]... [-drift-seed N] [-drift-n N]
         [-run REGEXP] [-category C]... [-failed FILE] [-json]

Mutates the well-formed corpus cases the way drifting models break the format (fuzz/drift's
operators: tag case, missing tags, fences, line terminators, retries, truncation, loops, ...)
and runs every extractor on the results. Prints, per operator and extractor, three
percentages:

  exact   the extractor returns the intended summary byte for byte (or nothing when none is
          intended), out of the samples whose intended summary is not ambiguous
  leak    the returned summary holds a line of the analysis, out of all samples
  lost    the extractor returns nothing, or under half of the intended summary's lines, out
          of the unambiguous samples with a summary intended

"single" rows apply one operator to -drift-n samples; "composed" rows count every sample of
2 or 3 operators (-drift-n per operator in all) under each operator taking part. A
percentage is never rounded to 0 or 100 unless it is exactly that. The same -drift-seed,
-drift-n and corpus give the same output.

%s
%s
-drift-seed and -drift-n have these names in run and review too (-seed and -n still work).

Exit codes: 0 the matrix was printed (it is a report, not a gate); 2 usage error, unreadable
corpus, no well-formed case to mutate, or an external extractor that failed.

Examples:
  compacteval drift
  compacteval drift -extractor cmd:'python3 tools/extract.py'
  compacteval drift -drift-seed 7 -drift-n 500
  compacteval drift -run '^well-formed/csv'
  compacteval drift -json | jq '.single[] | {operator, cells}'
`

func runDrift(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("drift", fmt.Sprintf(driftUsage, inputsHelp(), selectionUsage), stderr)
	var in inputs
	in.register(fs)
	var pick selection
	pick.register(fs)
	seed := fs.Int64("drift-seed", 1, "seed of every mutation")
	n := fs.Int("drift-n", 100, "samples per operator")
	alias(fs, "seed", "drift-seed")
	alias(fs, "n", "drift-n")
	maxN := fs.Int("max-samples", drift.MaxN, "the largest -drift-n accepted")
	limit(fs, "drift-n", 0, math.MaxInt32, "checked against -max-samples")
	limit(fs, "max-samples", 1, 1e7, "drift samples are held in memory")
	asJSON := fs.Bool("json", false, "print the matrix as one JSON document")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compacteval drift: unexpected argument %q\n", fs.Arg(0))
		return exitError
	}
	if err := drift.CheckNWithin(*n, *maxN); err != nil {
		fmt.Fprintf(stderr, "compacteval drift: -drift-n: %v\n", err)
		return exitError
	}
	sel, code, ok := pick.selected("drift", stdin, stderr)
	if !ok {
		return code
	}
	exs, c, ok := in.open(ctx, "drift", stderr)
	if !ok {
		return exitError
	}
	defer extractor.CloseAll(exs)
	if len(c.Problems) > 0 {
		fmt.Fprintf(stderr, "compacteval drift: %d problems (run compacteval corpus lint); using the %d cases that loaded\n", len(c.Problems), c.Len())
	}
	p := newProgress("drift", stderr)
	r, err := pipeline.Run(ctx, pipeline.Options{Corpus: c, Extractors: exs, DriftSeed: *seed, DriftN: *n, SkipEval: true, Select: sel, Progress: p.update})
	p.done()
	if err != nil {
		fmt.Fprintf(stderr, "compacteval drift: %v\n", err)
		return exitError
	}
	if *asJSON {
		return writeJSON(stdout, stderr, r.Drift)
	}
	printMatrix(stdout, r.Drift, r.Corpus.Dir)
	return exitOK
}

func printMatrix(w io.Writer, m drift.MatrixResult, dir string) {
	fmt.Fprintf(w, "drift: seed %d, %s from %s, %s\n", m.Seed, plural(len(m.Pairs), "well-formed pair"), dir, plural(len(m.Extractors), "extractor"))
	fmt.Fprintf(w, "each extractor's cell: exact%% leak%% lost%% (compacteval drift -h defines them)\n")
	fmt.Fprintf(w, "\nsingle operator, %s each\n", plural(m.N, "sample"))
	printHeader(w, m.Extractors)
	printRow(w, m.Identity)
	for _, r := range m.Single {
		printRow(w, r)
	}
	printRow(w, m.SingleTotal)
	fmt.Fprintf(w, "\ncomposed, %d samples of 2 or 3 operators, each counted under every operator in it\n", m.ComposedTotal.Samples)
	printHeader(w, m.Extractors)
	for _, r := range m.Composed {
		printRow(w, r)
	}
	printRow(w, m.ComposedTotal)
	fmt.Fprintln(w)
	all := m.Total
	all.Operator = "all samples"
	printHeader(w, m.Extractors)
	printRow(w, all)
}

// Each extractor's cell is "  exact leak lost", three percentages of three digits.
const cellWidth = 13

func printHeader(w io.Writer, extractors []string) {
	fmt.Fprintf(w, "%-16s %6s %4s", "operator", "n", "amb")
	for _, e := range extractors {
		fmt.Fprintf(w, " %*s", cellWidth-1, e)
	}
	fmt.Fprintln(w)
}

func printRow(w io.Writer, r drift.Row) {
	fmt.Fprintf(w, "%-16s %6d %4d", r.Operator, r.Samples, r.Ambiguous)
	for _, c := range r.Cells {
		fmt.Fprintf(w, "  %3d %3d %3d", drift.Percent(c.Exact, r.Samples-r.Ambiguous), drift.Percent(c.Leaked, r.Samples), drift.Percent(c.Lost, r.Found))
	}
	fmt.Fprintln(w)
}
