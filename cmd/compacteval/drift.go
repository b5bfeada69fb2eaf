package main

import (
	"fmt"
	"io"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/fuzz/drift"
)

const driftUsage = `Usage: compacteval drift [-seed N] [-n N] [-json] [-corpus DIR]

Mutates the well-formed corpus cases the way drifting models break the format (fuzz/drift's
operators: tag case, missing tags, fences, line terminators, retries, truncation, loops, ...)
and runs every extractor on the results. Prints, per operator and extractor, three
percentages:

  exact   the extractor returns the intended summary byte for byte (or nothing when none is
          intended), out of the samples whose intended summary is not ambiguous
  leak    the returned summary holds a line of the analysis, out of all samples
  lost    the extractor returns nothing, or under half of the intended summary's lines, out
          of the unambiguous samples with a summary intended

"single" rows apply one operator to N samples; "composed" rows count every sample of 2 or 3
operators (N per operator in all) under each operator taking part. A percentage is never
rounded to 0 or 100 unless it is exactly that. The same seed, N and corpus give the same
output.

Exit codes: 0 the matrix was printed (it is a report, not a gate); 2 usage error, unreadable
corpus, or no well-formed case to mutate.

Examples:
  compacteval drift
  compacteval drift -seed 7 -n 500
  compacteval drift -json | jq '.single[] | {operator, cells}'
`

func runDrift(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("drift", driftUsage, stderr)
	seed := fs.Int64("seed", 1, "seed of every mutation")
	n := fs.Int("n", 100, "samples per operator")
	asJSON := fs.Bool("json", false, "print the matrix as one JSON document")
	dir := fs.String("corpus", defaultCorpus, "corpus folder whose well-formed cases are mutated")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compacteval drift: unexpected argument %q\n", fs.Arg(0))
		return exitError
	}
	if *n < 1 {
		fmt.Fprintf(stderr, "compacteval drift: -n must be at least 1, not %d\n", *n)
		return exitError
	}
	if err := drift.CheckN(*n); err != nil {
		fmt.Fprintf(stderr, "compacteval drift: -n: %v\n", err)
		return exitError
	}
	cases, problems, err := loadCorpus(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval drift: %v\n", err)
		return exitError
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "compacteval drift: %d problems (run compacteval corpus lint); using the %d cases that loaded\n", len(problems), len(cases))
	}
	pairs := drift.PairsFromCorpus(cases)
	if len(pairs) == 0 {
		fmt.Fprintf(stderr, "compacteval drift: no well-formed case in %s to mutate\n", *dir)
		return exitError
	}
	m := drift.Matrix(pairs, compact.Extractors(), *seed, *n)
	if *asJSON {
		return writeJSON(stdout, stderr, m)
	}
	printMatrix(stdout, m, *dir)
	return exitOK
}

func printMatrix(w io.Writer, m drift.MatrixResult, dir string) {
	fmt.Fprintf(w, "drift: seed %d, %d well-formed pairs from %s, %d extractors\n", m.Seed, len(m.Pairs), dir, len(m.Extractors))
	fmt.Fprintf(w, "each extractor's cell: exact%% leak%% lost%% (compacteval drift -h defines them)\n")
	fmt.Fprintf(w, "\nsingle operator, %d samples each\n", m.N)
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
