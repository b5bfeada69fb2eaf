package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/compacteval/compacteval/internal/gate"
	"github.com/compacteval/compacteval/internal/infile"
	"github.com/compacteval/compacteval/internal/outfile"
	"github.com/compacteval/compacteval/report"
)

const gateUsage = `Usage: compacteval gate -baseline FILE [-config gate.yaml] [-junit FILE] [-markdown FILE]
         [-markdown-full FILE] [-markdown-limit N] [-report-url URL] [-allow-corpus-change] [REPORT.json]
       compacteval gate -bless -baseline FILE [REPORT.json]

Compares a run (REPORT.json, default reports/latest/report.json; - reads it from stdin)
with a blessed baseline and fails on a regression: a case an extractor handled that it no
longer handles, a rate or score that fell further than gate.yaml allows, a must_pass case
that fails, a removed case, a run problem (golden mismatch, unlisted deviation). Each
regression prints as

  case: metric was -> now (allowed drop)

-markdown writes the verdict for a pull-request comment: the totals that fell, then one row
per case and extractor with the checks it failed, the allowances said once per extractor,
long lists folded. It holds at most -markdown-limit characters (default 65536, GitHub's
limit for a comment; 0 for none): past that, rows are left out and counted, and the text
says where the whole is: -markdown-full FILE (written uncut, for the job summary) and
-report-url (a link to the uploaded HTML report, such as the artifact's URL). -junit
writes one testcase per family of checks and extractor (the same set on a pass and on a
failure), the regressions in the failures' bodies.

-bless writes the run as the new baseline (without the texts a baseline does not need);
nothing else changes the baseline. Bless only a run you have read.

A run on a selection of cases (run -run, -category, -failed) is gated on those cases only
and says so ("gate passed on a selection of 13 of 215 cases ..."); it is never blessed.

The two reports must have run on the same corpus (the digest of its cases) with the same
drift seed and samples; otherwise the gate refuses them (exit 2) unless
-allow-corpus-change is given.

Exit codes: 0 no regression (or blessed); 1 regressions found; 2 could not evaluate
(missing file, schema mismatch, bad config, partial run, another corpus).

Examples:
  compacteval run && compacteval gate -baseline reports/baseline.json -config gate.yaml
  compacteval gate -baseline reports/baseline.json -junit gate.xml -markdown gate.md run/report.json
  compacteval gate -baseline reports/baseline.json -markdown comment.md -markdown-full summary.md \
      -report-url "$ARTIFACT_URL"
  compacteval gate -bless -baseline reports/baseline.json
`

func runGate(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("gate", gateUsage, stderr)
	baselinePath := fs.String("baseline", "", "the blessed baseline report (required)")
	configPath := fs.String("config", "", "gate.yaml (default: nothing may fall, new cases pass, removed cases and run problems fail)")
	junitPath := fs.String("junit", "", "also write the verdict as JUnit XML to FILE")
	mdPath := fs.String("markdown", "", "also write the verdict as Markdown to FILE, for a pull-request comment (see -markdown-limit)")
	mdFull := fs.String("markdown-full", "", "also write the whole verdict as Markdown to FILE, never cut (for the job summary)")
	mdLimit := fs.Int("markdown-limit", gate.CommentLimit, "the most characters -markdown writes; 0 for no limit")
	limit(fs, "markdown-limit", 0, 1<<30, "characters held in memory")
	reportURL := fs.String("report-url", "", "link the full report (the uploaded report.html) at URL in the Markdown")
	bless := fs.Bool("bless", false, "write the run as the new baseline")
	allow := fs.Bool("allow-corpus-change", false, "compare reports made on different corpora or drift parameters")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if *baselinePath == "" {
		fmt.Fprintln(stderr, "compacteval gate: -baseline is required")
		return exitError
	}
	if *mdLimit < 0 {
		fmt.Fprintf(stderr, "compacteval gate: -markdown-limit %d: want 0 (no limit) or more\n", *mdLimit)
		return exitError
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "compacteval gate: want at most one report, got %d\n", fs.NArg())
		return exitError
	}
	// Every output is checked before any is written: a mistyped path writes nothing.
	outputs := []struct {
		path string
		kind outfile.Kind
	}{{*junitPath, outfile.JUnit}, {*mdPath, outfile.Markdown}, {*mdFull, outfile.Markdown}}
	if *bless {
		outputs = append(outputs, struct {
			path string
			kind outfile.Kind
		}{*baselinePath, outfile.Report})
	}
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		if _, err := outfile.Check(o.path, o.kind); err != nil {
			fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
			return exitError
		}
	}
	runPath := filepath.Join("reports", "latest", "report.json")
	if fs.NArg() == 1 {
		runPath = fs.Arg(0)
	}
	run, err := readGateReport(runPath, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
		return exitError
	}
	if *bless {
		return blessBaseline(run, runPath, *baselinePath, stdout, stderr)
	}
	cfg := gate.DefaultConfig()
	if *configPath != "" {
		if cfg, err = gate.ReadConfig(*configPath); err != nil {
			fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
			return exitError
		}
	}
	cfg.AllowCorpusChange = *allow
	baseline, err := readGateReport(*baselinePath, nil)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval gate: baseline: %v\n", err)
		return exitError
	}
	if err := errors.Join(gate.Verify("the run "+runPath, run), gate.Verify("the baseline "+*baselinePath, baseline)); err != nil {
		fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
		return exitError
	}
	if err := gate.CheckExtractorNames(run, cfg); err != nil {
		fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
		return exitError
	}
	res, err := gate.Check(baseline, run, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
		return exitError
	}
	if *junitPath != "" {
		if err := writeGateJUnit(stderr, res, *junitPath); err != nil {
			fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
			return exitError
		}
	}
	opt := gate.MarkdownOptions{Baseline: *baselinePath, Run: runPath, ReportURL: *reportURL, Limit: *mdLimit}
	if *mdFull != "" {
		opt.Whole = "`" + *mdFull + "`"
	}
	for _, f := range []struct {
		path  string
		limit int
	}{{*mdPath, *mdLimit}, {*mdFull, 0}} {
		if f.path == "" {
			continue
		}
		opt.Limit = f.limit
		if err := writeOutput(stderr, "gate", f.path, gate.Markdown(res, opt), outfile.Markdown); err != nil {
			fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
			return exitError
		}
	}
	for _, r := range res.Regressions {
		fmt.Fprintln(stdout, r)
	}
	on := "" // a selection is never taken for a full run
	if res.Selection != nil {
		on = " on a selection of " + res.Selection.String()
	}
	if res.Passed() {
		fmt.Fprintf(stdout, "gate passed%s: %s against %s, %s\n", on, plural(res.Checks, "check"), *baselinePath, plural(len(res.Notes), "note"))
		return exitOK
	}
	fmt.Fprintf(stdout, "gate failed%s: %s in %s against %s\n", on, plural(len(res.Regressions), "regression"), plural(res.Checks, "check"), *baselinePath)
	return exitProblem
}

// blessBaseline writes run, slimmed, as the baseline, and says how it differs from the old.
func blessBaseline(run *report.Report, runPath, path string, stdout, stderr io.Writer) int {
	if !run.Complete {
		fmt.Fprintf(stderr, "compacteval gate: refusing to bless a partial run (stages %s)\n", strings.Join(run.Stages, ", "))
		return exitError
	}
	if run.Selection != nil {
		fmt.Fprintf(stderr, "compacteval gate: refusing to bless a run on a selection of %s; bless a run on every case\n", run.Selection)
		return exitError
	}
	if len(run.Problems) > 0 {
		fmt.Fprintf(stderr, "compacteval gate: refusing to bless a run with %d problems; fix the goldens and known_deviations first\n", len(run.Problems))
		return exitError
	}
	if err := gate.Verify("the run "+runPath, run); err != nil {
		fmt.Fprintf(stderr, "compacteval gate: refusing to bless: %v\n", err)
		return exitError
	}
	if old, err := report.Read(path); err == nil {
		if res, err := gate.Check(old, run, gate.DefaultConfig()); err == nil {
			fmt.Fprintf(stdout, "against the old baseline: %s, %s\n", plural(len(res.Regressions), "regression"), plural(len(res.Notes), "note"))
			for _, r := range res.Regressions {
				fmt.Fprintf(stdout, "  %s\n", r)
			}
		} else {
			fmt.Fprintf(stdout, "not compared with the old baseline: %v\n", err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stdout, "the old baseline could not be read (%v); replacing it\n", err)
	}
	data, err := report.Marshal(gate.Slim(run))
	if err != nil {
		fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
		return exitError
	}
	if err := writeOutput(stderr, "gate", path, data, outfile.Report); err != nil {
		fmt.Fprintf(stderr, "compacteval gate: %v\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "blessed %s (%s, %s)\n", path, plural(len(run.Cases), "case"), plural(len(run.Eval.Cases), "eval case"))
	return exitOK
}

// readGateReport reads a report as readReport does, and refuses one with a JSON key twice
// in an object, which encoding/json would take silently (the last one wins).
func readGateReport(path string, stdin io.Reader) (*report.Report, error) {
	name, data, err := "stdin", []byte(nil), error(nil)
	if path == "-" {
		data, err = infile.ReadAll(stdin, name, infile.MaxReportBytes, "a report")
	} else {
		name = path
		data, err = infile.Read(path, infile.MaxReportBytes, "a report")
	}
	if err != nil {
		return nil, err
	}
	r, err := report.Parse(name, data)
	if err != nil {
		return nil, err
	}
	if err := gate.DuplicateKeys(data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}

func writeGateJUnit(stderr io.Writer, res gate.Result, path string) error {
	data, err := gate.JUnit(res)
	if err != nil {
		return err
	}
	return writeOutput(stderr, "gate", path, data, outfile.JUnit)
}

// writeOutput writes an output file (outfile.Write) and says on stderr which folder it
// had to make for it.
func writeOutput(stderr io.Writer, cmd, path string, data []byte, k outfile.Kind) error {
	made, err := outfile.Write(path, data, k)
	if made != "" {
		fmt.Fprintf(stderr, "compacteval %s: made folder %s for %s\n", cmd, made, path)
	}
	return err
}
