package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/internal/casefile"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/outfile"
	"github.com/compacteval/compacteval/internal/pipeline"
	"github.com/compacteval/compacteval/internal/render"
	"github.com/compacteval/compacteval/report"
)

const runUsage = `Usage: compacteval run [-extractor X]... [-corpus DIR|embedded]... [-out DIR]
         [-run REGEXP] [-category C]... [-failed FILE]
         [-drift-seed N] [-drift-n N] [-eval-extractor NAME] [-timeout D]

Does the whole job on a corpus: runs every extractor over every case, checks the goldens
(built-in extractors, where the corpus has them) and the intended results
(known_deviations), runs the drift matrix with a fixed seed, and scores every eval case.
Writes, in -out:

  report.json   the canonical result (compacteval report and compacteval gate read it)
  report.md     for a pull-request comment or GITHUB_STEP_SUMMARY
  report.html   one self-contained page with tables, charts and side-by-side diffs

Prints a short table to stdout, progress to stderr with each stage's elapsed time (one line
redrawn on a terminal; otherwise a line as each stage ends, and one every 2 s during a long
one: COMPACTEVAL_PROGRESS_EVERY sets the interval, 0 keeps only the stage ends).

%s
%s
Exit codes: 0 the run found no problem; 1 it found problems (a golden mismatch, a
deviation from intended that known_deviations does not list, a listed one that no longer
happens, a case file that does not load); 2 usage or operational error, or an external
extractor that failed (stopped, timed out, answered an error).

Examples:
  compacteval run
  compacteval run -extractor module:src/compaction.ts
  compacteval run -extractor seed -extractor cmd:'python3 tools/extract.py' -corpus embedded -corpus my-cases
  compacteval run -run '^fenced/' -category truncated,line-endings
  compacteval run -failed reports/latest/report.json -out /tmp/rerun
  compacteval run -out /tmp/ce && open /tmp/ce/report.html
`

func runRun(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("run", fmt.Sprintf(runUsage, inputsHelp(), selectionUsage), stderr)
	var in inputs
	in.register(fs)
	var pick selection
	pick.register(fs)
	out := fs.String("out", filepath.Join("reports", "latest"), "folder for report.json, report.md and report.html")
	seed := fs.Int64("drift-seed", 1, "seed of the drift matrix")
	n := fs.Int("drift-n", 100, "drift samples per operator (0 skips drift: a partial run)")
	maxN := fs.Int("max-samples", drift.MaxN, "the largest -drift-n accepted")
	limit(fs, "drift-n", 0, math.MaxInt32, "checked against -max-samples")
	limit(fs, "max-samples", 1, 1e7, "drift samples are held in memory")
	evalEx := fs.String("eval-extractor", "", "extractor whose summaries eval scores (default: the first one)")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compacteval run: unexpected argument %q\n", fs.Arg(0))
		return exitError
	}
	if *n != 0 { // 0 skips drift: a partial run, which the gate never passes
		if err := drift.CheckNWithin(*n, *maxN); err != nil {
			fmt.Fprintf(stderr, "compacteval run: -drift-n: %v\n", err)
			return exitError
		}
	}
	if err := outfile.CheckFolder(*out, reportFiles); err != nil { // before the work
		fmt.Fprintf(stderr, "compacteval run: -out: %v\n", err)
		return exitError
	}
	sel, code, ok := pick.selected("run", stdin, stderr)
	if !ok {
		return code
	}
	exs, c, ok := in.open(ctx, "run", stderr)
	if !ok {
		return exitError
	}
	defer extractor.CloseAll(exs)
	if _, err := pipeline.EvalExtractor(exs, *evalEx); err != nil { // before the work
		fmt.Fprintf(stderr, "compacteval run: -eval-extractor: %v\n", err)
		return exitError
	}
	opt := pipeline.Options{Corpus: c, Extractors: exs, DriftSeed: *seed, DriftN: *n, EvalExtractor: *evalEx, Select: sel}
	if !c.Held() {
		// The cases and the eval cases wait in files beside -out until the reports are
		// written: the run holds one at a time. A corpus small enough to be held keeps its
		// results in the report, which writes the same files (TestRunStoredIsRunHeld).
		store, err := casefile.Create(existingDir(filepath.Dir(*out)))
		if err != nil {
			fmt.Fprintf(stderr, "compacteval run: %v\n", err)
			return exitError
		}
		defer store.Close()
		evalStore, err := casefile.CreateEval(existingDir(filepath.Dir(*out)))
		if err != nil {
			fmt.Fprintf(stderr, "compacteval run: %v\n", err)
			return exitError
		}
		defer evalStore.Close()
		opt.Store, opt.EvalStore = store, evalStore
	}
	p := newProgress("run", stderr)
	opt.Progress = p.update
	r, err := pipeline.Run(ctx, opt)
	p.done()
	if err != nil {
		fmt.Fprintf(stderr, "compacteval run: %v\n", err)
		return exitError
	}
	if err := outfile.CheckFolder(*out, reportFiles); err != nil { // again: the run took time
		fmt.Fprintf(stderr, "compacteval run: -out: %v\n", err)
		return exitError
	}
	if err := writeReports(r, *out); err != nil {
		fmt.Fprintf(stderr, "compacteval run: %v\n", err)
		return exitError
	}
	warnFoundNothing(stderr, r)
	printRunSummary(stdout, r, *out)
	if len(r.Problems) > 0 {
		return exitProblem
	}
	return exitOK
}

// reportFiles are the files run writes in -out, each of the kind that may be replaced.
var reportFiles = map[string]outfile.Kind{"report.json": outfile.Report, "report.md": outfile.Markdown, "report.html": outfile.HTML}

// writeReports writes report.json, report.md and report.html to dir as one set
// (render.WriteSet): a reader never finds files of two runs side by side. The JSON and
// the page are written as they are encoded, never held whole, reading the cases one at a
// time.
func writeReports(r *report.Report, dir string) error {
	return render.WriteSet(dir, []render.File{
		{Name: "report.json", Write: func(w io.Writer) error { return report.Write(w, r) }},
		{Name: "report.md", Write: func(w io.Writer) error {
			md, err := render.Markdown(r)
			if err == nil {
				_, err = w.Write(md)
			}
			return err
		}},
		{Name: "report.html", Write: func(w io.Writer) error { return render.WriteHTML(w, r) }},
	})
}

func printRunSummary(w io.Writer, r *report.Report, out string) {
	if r.Selection != nil {
		fmt.Fprintf(w, "compacteval run: %s from %s, stages %s\n\n", r.Selection, r.Corpus.Dir, strings.Join(r.Stages, ", "))
	} else {
		fmt.Fprintf(w, "compacteval run: %s from %s, stages %s\n\n", plural(r.Corpus.Cases, "case"), r.Corpus.Dir, strings.Join(r.Stages, ", "))
	}
	width := len("extractor")
	for _, e := range r.Extractors {
		width = max(width, len(e.Name))
	}
	drifted := slices.Contains(r.Stages, pipeline.StageDrift) && len(r.Drift.Pairs) > 0 // a selection may have none
	fmt.Fprintf(w, "%-*s %9s %8s %12s %8s\n", width, "extractor", "intended", "rate", "drift exact", "golden")
	for _, e := range r.Extractors {
		golden := "ok"
		switch {
		case e.GoldenMismatches > 0:
			golden = fmt.Sprintf("%d off", e.GoldenMismatches)
		case e.GoldenChecked == 0:
			golden = "-" // no goldens (a user's extractor has none: its baseline is what the gate compares)
		}
		exact := "-" // no drift stage, no samples: not 0%
		if drifted {
			exact = fmt.Sprintf("%.1f%%", 100*e.DriftExact)
		}
		fmt.Fprintf(w, "%-*s %9s %7.1f%% %12s %8s\n", width, e.Name, fmt.Sprintf("%d/%d", e.Intended, e.Cases), 100*e.Rate, exact, golden)
	}
	if !r.Complete {
		fmt.Fprintf(w, "\npartial run (stages %s): the gate never passes it\n", strings.Join(r.Stages, ", "))
	}
	t := r.Eval.Totals
	if t.Cases > 0 {
		notEnough := ""
		if t.NotEnoughToJudge > 0 {
			notEnough = fmt.Sprintf(", %d not enough to judge", t.NotEnoughToJudge)
		}
		fmt.Fprintf(w, "\neval: %s%s, score %s (mean coverage %s, boundary coverage %s, tail leakage %s)\n",
			plural(t.Cases, "case"), notEnough, meanOrDash(t.Score.Mean), meanOrDash(t.Coverage.Mean), meanOrDash(t.BoundaryCoverage.Mean), meanOrDash(t.TailLeakage.Mean))
	}
	if len(r.Problems) == 0 {
		fmt.Fprintf(w, "\nno problems\n")
	} else {
		fmt.Fprintf(w, "\n%s:\n", plural(len(r.Problems), "problem"))
		for i, p := range r.Problems {
			if i == 20 {
				fmt.Fprintf(w, "  ... %d more in report.md\n", len(r.Problems)-i)
				break
			}
			if p.Kind == "load-error" { // its detail is file:line: message
				fmt.Fprintf(w, "  %s %s\n", p.Kind, p.Detail)
				continue
			}
			fmt.Fprintf(w, "  %s %s %s: %s\n", p.Kind, p.Case, p.Extractor, p.Detail)
		}
	}
	fmt.Fprintf(w, "\nwrote %s, %s, %s\n", filepath.Join(out, "report.json"), filepath.Join(out, "report.md"), filepath.Join(out, "report.html"))
}

func meanOrDash(m *float64) string {
	if m == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *m)
}

// warnFoundNothing warns of each extractor that found no summary in any case: most likely
// a module or command that answers null to everything (a wrong export, a parse error it
// swallows), which would otherwise read as an extractor that merely fails the corpus.
func warnFoundNothing(stderr io.Writer, r *report.Report) {
	found, n := map[string]bool{}, map[string]int{}
	for c, err := range r.AllCases() {
		if err != nil {
			return // the reports, written from the same cases, would have failed first
		}
		for _, res := range c.Results {
			n[res.Extractor]++
			found[res.Extractor] = found[res.Extractor] || res.OK
		}
	}
	for _, e := range r.Extractors {
		if n[e.Name] > 0 && !found[e.Name] {
			fmt.Fprintf(stderr, "compacteval run: warning: %s found no summary in any of its %d cases\n", e.Name, n[e.Name])
		}
	}
}

// existingDir returns dir if it is a folder, otherwise "" (the system's temporary folder).
func existingDir(dir string) string {
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir
	}
	return ""
}
