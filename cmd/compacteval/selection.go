package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/report"
)

// selection are the flags that choose cases as go test -run chooses tests; run, drift,
// fuzz and review share them, and the pipeline applies them (pipeline.Options.Select).
type selection struct {
	run        string
	categories categories
	failed     string
}

const selectionUsage = `Selection (a case must match every one given; the report records it, and the gate
compares only the selected cases):
  -run REGEXP       case ids matching REGEXP (unanchored, as go test -run): -run '^fenced/'
  -category C       cases in category C (may repeat, or C1,C2)
  -failed FILE      the cases that failed in the report FILE (- for stdin): a problem, or
                    an external extractor that missed intended (rerun what failed)
`

func (s *selection) register(fs *flag.FlagSet) {
	fs.StringVar(&s.run, "run", "", "run only the cases whose id matches `REGEXP`")
	fs.Var(&s.categories, "category", "run only the cases in `CATEGORY` (may repeat, or a comma list)")
	fs.StringVar(&s.failed, "failed", "", "run only the cases that failed in the report `FILE`")
}

// build returns the selection the flags give, nil for every case.
func (s *selection) build(stdin io.Reader) (*report.Selection, error) {
	if s.run == "" && len(s.categories) == 0 && s.failed == "" {
		return nil, nil
	}
	if _, err := regexp.Compile(s.run); err != nil {
		return nil, fmt.Errorf("-run: %w", err)
	}
	sel := &report.Selection{Run: s.run, Categories: s.categories}
	if s.failed != "" {
		r, err := readReport(s.failed, stdin)
		if err != nil {
			return nil, fmt.Errorf("-failed: %w", err)
		}
		sel.Failed, sel.FailedIDs = s.failed, report.FailedCases(r)
		if len(sel.FailedIDs) == 0 {
			return nil, fmt.Errorf("-failed: no case failed in %s: %w", s.failed, errNothingFailed)
		}
	}
	return sel, nil
}

// selected reads the selection flags of command name; ok false means end with code (a
// bad flag, or a -failed report with nothing to rerun, which is no error).
func (s *selection) selected(name string, stdin io.Reader, stderr io.Writer) (sel *report.Selection, code int, ok bool) {
	sel, err := s.build(stdin)
	switch {
	case errors.Is(err, errNothingFailed):
		fmt.Fprintf(stderr, "compacteval %s: %v\n", name, err)
		return nil, exitOK, false
	case err != nil:
		fmt.Fprintf(stderr, "compacteval %s: %v\n", name, err)
		return nil, exitError, false
	}
	return sel, 0, true
}

// selectCases returns c with only the cases sel selects (c itself for a nil sel): review
// runs both versions on it, so that both sides see the same cases.
func selectCases(c *corpus.Corpus, sel *report.Selection) (*corpus.Corpus, error) {
	if sel.Empty() {
		return c, nil
	}
	match, err := sel.Matcher()
	if err != nil {
		return nil, err
	}
	out := *c
	out.Cases = nil
	for _, k := range c.Cases {
		if match(k.ID, k.Categories) {
			out.Cases = append(out.Cases, k)
		}
	}
	if len(out.Cases) == 0 {
		return nil, fmt.Errorf("the selection (%s) matches none of the %d cases", sel.Criteria(), len(c.Cases))
	}
	return &out, nil
}

// errNothingFailed is a -failed report with nothing to rerun.
var errNothingFailed = errors.New("nothing to rerun")

// categories is a repeatable -category flag that also takes comma lists.
type categories []string

func (c *categories) String() string { return strings.Join(*c, ",") }

func (c *categories) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s == "" {
			return errors.New("empty category")
		}
		*c = append(*c, s)
	}
	return nil
}
