package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/infile"
	"github.com/compacteval/compacteval/internal/redact"
)

const scoreUsage = `Usage: compacteval score [-json] [-strict] [-extractor NAME] [-keep-tokens N] [-window N] [-format F] PATH...

Scores how well each summary covers the conversation before its kept tail, with no model in
the loop: the facts of the summarized messages it holds (coverage), of the work just before
the cut that its recent part holds (boundary: Current Work and Next Step, pi's In Progress
and Next Steps, ... by format), the kept tail it re-tells (leak), the user's messages it
represents, the user's security constraints it keeps word for word, assistant text it
presents as the user's, its format, the share of it copied from the messages, secrets of
the conversation it carries, and the headline score. The rules are in the package
documentation of eval (go doc ./eval).

PATH is one of:
  a corpus folder or case file   every case with a conversation; the response goes through
                                 the extractor
  a pi session (.jsonl)          one case per compaction entry, scored against what the
                                 model had in context; the stored summary is scored as is
  a Claude Code transcript       one case per compact summary (isCompactSummary)
The format is detected (a first line of type "session" is pi); -format forces it. A
session line that does not parse is skipped with a warning naming FILE:LINE, as the
agents skip it (counted in the JSON as malformed); -strict makes that exit 2. A PATH given
twice, or a case reached through two PATHs, is scored once.

Prints a table per case with the facts missed and leaked, then totals; -json prints the
report (schema_version, cases with every missed and leaked fact, totals) and nothing else.
A share with nothing to count prints as "-" (null in JSON).

Exit codes: 0 scored (a low score is not an error; gates read the JSON); 2 usage error or
bad input: an unreadable file, a corpus problem, nothing to score (no case with a
conversation, no compaction), a forced -format that finds no message in a file, a
malformed line under -strict.

Examples:
  compacteval score corpus/cases/eval
  compacteval score -json corpus/cases/eval | jq '.totals.coverage'
  compacteval score ~/.pi/agent/sessions/--home-me-shop--/2025-01-02T10-00-00_1f2e.jsonl
  compacteval score -format claude -window 8 ~/.claude/projects/-home-me-shop/3b1c.jsonl
`

func runScore(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("score", scoreUsage, stderr)
	asJSON := fs.Bool("json", false, "print the report as one JSON document and nothing else")
	name := fs.String("extractor", "seed", "extractor profile for corpus responses: "+compact.NameHelp())
	keep := fs.Int("keep-tokens", eval.DefaultKeepTokens, "pi's keepRecentTokens, to compute the kept tail where no boundary is recorded")
	window := fs.Int("window", 0, "messages before the cut that are the work in progress (0: a quarter of the summarized ones, 3 to 12)")
	limit(fs, "keep-tokens", 1, 1e7, "a kept tail larger than any context window")
	limit(fs, "window", 0, 1e6, "messages before the cut")
	format := fs.String("format", "auto", "input format: auto, corpus, pi or claude")
	strict := fs.Bool("strict", false, "exit 2 when a session line is malformed instead of skipping it")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, "compacteval score: no PATH\n\n"+scoreUsage)
		return exitError
	}
	ex, ok := compact.Lookup(*name)
	if !ok {
		fmt.Fprintf(stderr, "compacteval score: unknown extractor %q (have %s)\n", *name, strings.Join(compact.ExtractorNames(), ", "))
		return exitError
	}
	switch *format {
	case "auto", eval.FormatCorpus, eval.FormatPi, eval.FormatClaudeCode:
	default:
		fmt.Fprintf(stderr, "compacteval score: unknown format %q (have auto, corpus, pi, claude)\n", *format)
		return exitError
	}
	if *keep < 1 || *window < 0 {
		fmt.Fprintln(stderr, "compacteval score: -keep-tokens must be positive and -window not negative")
		return exitError
	}
	opt := eval.Options{Extractor: ex, BoundaryWindow: *window, KeepTokens: *keep, Redact: redact.String}

	var inputs []eval.Input
	var sources []eval.Source
	seen := map[string]bool{}
	malformed := 0
	for _, path := range fs.Args() {
		ins, src, err := readScoreInputs(path, *format)
		if err != nil {
			fmt.Fprintf(stderr, "compacteval score: %v\n", err)
			return exitError
		}
		reportSource(stderr, src)
		if src.Stats != nil {
			malformed += src.Stats.Malformed
		}
		kept := ins[:0]
		for _, in := range ins {
			key := inputKey(in)
			if seen[key] {
				fmt.Fprintf(stderr, "compacteval score: %s (%s) given twice; scored once\n", in.ID, path)
				continue
			}
			seen[key] = true
			kept = append(kept, in)
		}
		src.Cases = len(kept)
		inputs = append(inputs, kept...)
		sources = append(sources, src)
	}
	if *strict && malformed > 0 {
		fmt.Fprintf(stderr, "compacteval score: %d malformed lines (-strict)\n", malformed)
		return exitError
	}
	if len(inputs) == 0 {
		fmt.Fprintln(stderr, "compacteval score: no case to score: no corpus case with a conversation, no compaction in the sessions")
		return exitError
	}
	results := make([]eval.Result, len(inputs))
	for i, in := range inputs {
		results[i] = eval.Score(in, opt)
	}
	report := eval.NewReport(results, opt)
	report.Sources = sources
	if *asJSON {
		return writeJSON(stdout, stderr, report)
	}
	printScores(stdout, report)
	return exitOK
}

// readScoreInputs reads the inputs of one PATH.
func readScoreInputs(path, format string) ([]eval.Input, eval.Source, error) {
	src := eval.Source{Path: path, Format: format}
	info, err := os.Stat(path)
	if err != nil {
		return nil, src, err
	}
	if format == "auto" {
		switch ext := strings.ToLower(filepath.Ext(path)); {
		case info.IsDir(), ext == ".yaml", ext == ".yml":
			src.Format = eval.FormatCorpus
		}
	}
	if src.Format == eval.FormatCorpus {
		return readCorpusInputs(path, src)
	}
	if info.IsDir() {
		return nil, src, fmt.Errorf("%s: a folder is read as a corpus, not as -format %s", path, format)
	}
	data, err := infile.Read(path, infile.MaxSessionBytes, "a session file")
	if err != nil {
		return nil, src, err
	}
	if src.Format == "auto" {
		f, ok := eval.DetectFormat(data)
		if !ok {
			return nil, src, fmt.Errorf("%s: neither a pi session nor a Claude Code transcript (use -format)", path)
		}
		src.Format = f
	}
	read := eval.ReadPiSession
	if src.Format == eval.FormatClaudeCode {
		read = eval.ReadClaudeCode
	}
	ins, st, err := read(bytes.NewReader(data), path)
	if err != nil {
		return nil, src, err
	}
	if format != "auto" && st.Messages == 0 && len(ins) == 0 {
		return nil, src, fmt.Errorf("%s: -format %s found no message in it (%s)", path, format, st)
	}
	src.Cases, src.Stats = len(ins), &st
	return ins, src, nil
}

func readCorpusInputs(path string, src eval.Source) ([]eval.Input, eval.Source, error) {
	cases, problems, err := loadCorpus(path)
	if err != nil {
		return nil, src, err
	}
	if len(problems) > 0 {
		return nil, src, fmt.Errorf("%d corpus problems (compacteval corpus lint):\n%v", len(problems), problems)
	}
	var ins []eval.Input
	for _, c := range cases {
		if in, ok := eval.FromCase(c); ok {
			ins = append(ins, in)
		} else {
			src.Skipped++
		}
	}
	src.Cases = len(ins)
	return ins, src, nil
}

// inputKey names an input whatever PATH reached it: the absolute path of its file and its
// id within it.
func inputKey(in eval.Input) string {
	file, id := in.Source, in.ID
	if j := strings.LastIndexByte(file, ':'); j > 0 && strings.Trim(file[j+1:], "0123456789") == "" {
		file = file[:j]
	}
	if j := strings.LastIndexByte(id, '#'); j >= 0 {
		id = id[j:]
	}
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	return file + "\x00" + id
}

// reportSource writes to stderr what a session reader skipped or worked around.
func reportSource(stderr io.Writer, src eval.Source) {
	if src.Stats == nil {
		return
	}
	for _, w := range src.Stats.Warnings {
		fmt.Fprintf(stderr, "compacteval score: %s\n", w)
	}
	if _, unknown := src.Stats.SkippedTotal(); unknown > 0 {
		fmt.Fprintf(stderr, "compacteval score: %s: %s\n", src.Path, src.Stats)
	}
	for _, n := range src.Stats.Notes {
		fmt.Fprintf(stderr, "compacteval score: %s\n", n)
	}
}

// maxListed is how many missed and leaked facts the table lists per case; -json lists all.
const maxListed = 5

func printScores(w io.Writer, r eval.Report) {
	width := len("total")
	for _, c := range r.Cases {
		width = max(width, len(c.ID))
	}
	width = min(width, 64)
	fmt.Fprintf(w, "%-*s %5s %5s %6s %6s %6s %6s %6s %7s %7s %5s %5s %7s %6s  %s\n", width, "case",
		"msgs", "cut", "score", "cover", "bound", "leak", "users", "constr", "misattr", "prev", "copy", "tokens", "ratio", "format (path)")
	for _, c := range r.Cases {
		ratio := "-"
		if c.CompressionRatio != nil {
			ratio = fmt.Sprintf("%.1f", *c.CompressionRatio)
		}
		cut := fmt.Sprint(c.Cut)
		if c.BoundaryComputed {
			cut += "*"
		}
		prev := "-"
		if c.PreviousSummarySurvival != nil {
			prev = decimal(*c.PreviousSummarySurvival)
		}
		score := "-"
		if c.Score != nil {
			score = fmt.Sprintf("%.2f", *c.Score)
		} else if c.NotEnoughToJudge {
			score = "n/e"
		}
		fmt.Fprintf(w, "%-*s %5d %5s %6s %6s %6s %6s %6s %7s %7s %5s %5s %7d %6s  %s (%s)\n", width, clip(c.ID, width),
			c.Messages, cut, score, decimal(c.Coverage), decimal(c.BoundaryCoverage), decimal(c.TailLeakage),
			fraction(c.UserMessages), fraction(c.ConstraintsVerbatim),
			fmt.Sprintf("%d/%d", len(c.Misattributed), c.FakeUserTurns), prev, decimal(c.Copied), c.SummaryTokens, ratio, c.Format, c.Path)
	}
	t := r.Totals
	score := "-"
	if t.Score.Mean != nil {
		score = fmt.Sprintf("%.2f", *t.Score.Mean)
	}
	fmt.Fprintf(w, "%-*s %5s %5s %6s %6s %6s %6s %6s %7s %7s %5s %5s %7d\n", width, "total (mean)", "", "", score,
		mean(t.Coverage), mean(t.BoundaryCoverage), mean(t.TailLeakage), mean(t.UserMessages),
		mean(t.ConstraintsVerbatim), fmt.Sprintf("%d/%d", t.Misattributed, t.FakeUserTurns),
		mean(t.PreviousSummarySurvival), mean(t.Copied), t.SummaryTokens)
	fmt.Fprintf(w, "\n%d cases, %d with a summary. score: the headline score (go doc ./eval); cover, bound, leak: shares\n"+
		"of facts; prev: share of the previous summary kept; copy: share of the summary copied from the messages;\n"+
		"cut*: computed as pi does.\n", t.Cases, t.SummaryFound)
	if t.NotEnoughToJudge > 0 {
		fmt.Fprintf(w, "n/e: not enough to judge, fewer than %d facts before the cut: %d of %d cases, left out of the means\n"+
			"of score, cover and bound.\n", eval.MinWindowFacts, t.NotEnoughToJudge, t.Cases)
	}

	for _, c := range r.Cases {
		if len(c.Missed) == 0 && len(c.Leaked) == 0 && len(c.Misattributed) == 0 && c.SecretsLeaked == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", c.ID)
		if c.SecretsLeaked > 0 {
			fmt.Fprintf(w, "  %s: %d secrets of the conversation are in the summary\n", eval.FlawSecretsLeaked, c.SecretsLeaked)
		}
		listFacts(w, "missed", c.Missed)
		listFacts(w, "leaked", c.Leaked)
		listFacts(w, "misattributed", c.Misattributed)
	}
}

func listFacts(w io.Writer, what string, facts []eval.Fact) {
	if len(facts) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s %d:\n", what, len(facts))
	for i, f := range facts {
		if i == maxListed {
			fmt.Fprintf(w, "    ... %d more (-json lists all)\n", len(facts)-maxListed)
			break
		}
		fmt.Fprintf(w, "    [%d] %s %s\n", f.Message, f.Kind, clip(f.Text, 100))
	}
}

// clip shortens s to n runes at most, ending it with an ellipsis when cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func decimal(s eval.Share) string {
	v, ok := s.Value()
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f", v)
}

func fraction(s eval.Share) string {
	if s.Of == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d", s.Hit, s.Of)
}

func mean(a eval.Aggregate) string {
	if a.Mean == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *a.Mean)
}
