package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/record"
)

// recordReport is what compacteval record -json writes.
type recordReport struct {
	// Batch is set for -batch and -collect.
	Batch     *batchReport       `json:"batch,omitempty"`
	Cases     []recordedCase     `json:"cases"`
	Variation []record.Variation `json:"variation"`
}

type batchReport struct {
	ID       string `json:"id"`
	Provider string `json:"provider"`
	Status   string `json:"status"`
	Items    int    `json:"items"`
	Manifest string `json:"manifest"`
}

// recordedCase is one job's outcome.
type recordedCase struct {
	ID         string         `json:"id"`
	File       string         `json:"file"`
	Source     string         `json:"source"`
	Sample     int            `json:"sample"`
	Status     string         `json:"status"`
	StopReason string         `json:"stop_reason,omitempty"`
	Truncated  bool           `json:"truncated,omitempty"`
	Usage      map[string]int `json:"usage,omitempty"`
	Error      string         `json:"error,omitempty"`
}

func newRecordReport(outs []record.Outcome, batch *batchReport) recordReport {
	r := recordReport{Batch: batch, Cases: []recordedCase{}}
	var cases []*corpus.Case
	for _, o := range outs {
		if o.Job == nil {
			o.Job = &record.Job{} // an outcome that lost its job is still reported
		}
		rc := recordedCase{ID: o.Job.ID, File: o.Job.Path, Status: o.Status}
		if o.Job.Request != nil {
			rc.Sample = o.Job.Request.Sample
		}
		if o.Job.Source != nil {
			rc.Source = o.Job.Source.ID
		}
		if o.Err != nil {
			rc.Error = o.Err.Error()
		}
		if c := o.Case; c != nil {
			rc.StopReason, rc.Truncated, rc.Usage = c.Origin.StopReason, c.Origin.Truncated, c.Origin.Usage
			if c.Origin.Kind == corpus.Recorded && len(c.Conversation) > 0 {
				cases = append(cases, c)
			}
		}
		r.Cases = append(r.Cases, rc)
	}
	r.Variation = record.Measure(cases, compact.Extractors())
	if r.Variation == nil {
		r.Variation = []record.Variation{}
	}
	return r
}

// reportRecord prints the outcomes (table or JSON) and returns the exit code: 2 when a
// job failed.
func reportRecord(stdout, stderr io.Writer, outs []record.Outcome, batch *batchReport, asJSON bool, out string) int {
	report := newRecordReport(outs, batch)
	code := exitOK
	counts := map[string]int{}
	for _, o := range outs {
		counts[o.Status]++
		if o.Status == record.StatusFailed {
			code = exitError
		}
	}
	if skipped := countSkipped(outs); skipped > 0 {
		fmt.Fprintf(stderr, "compacteval record: %d not run after the error above\n", skipped)
	}
	if asJSON {
		if c := writeJSON(stdout, stderr, report); c != exitOK {
			return c
		}
		return code
	}
	printRecorded(stdout, report)
	fmt.Fprintf(stdout, "\n%d recorded, %d replayed from the cache, %d already there, %d failed; cases below %s\n",
		counts[record.StatusRecorded], counts[record.StatusReplayed], counts[record.StatusExists], counts[record.StatusFailed], out)
	printVariation(stdout, report.Variation)
	return code
}

func countSkipped(outs []record.Outcome) int {
	n := 0
	for _, o := range outs {
		if errors.Is(o.Err, record.ErrSkipped) {
			n++
		}
	}
	return n
}

func printRecorded(w io.Writer, r recordReport) {
	width := len("case")
	for _, c := range r.Cases {
		width = max(width, len(c.ID))
	}
	width = min(width, 90)
	fmt.Fprintf(w, "%-*s %-8s %-10s %7s %7s\n", width, "case", "status", "stop", "in", "out")
	for _, c := range r.Cases {
		in, out := "-", "-"
		if c.Usage != nil {
			in, out = usageTokens(c.Usage, "input_tokens", "prompt_tokens"), usageTokens(c.Usage, "output_tokens", "completion_tokens")
		}
		stop := c.StopReason
		if stop == "" {
			stop = "-"
		}
		if c.Truncated {
			stop += "!"
		}
		fmt.Fprintf(w, "%-*s %-8s %-10s %7s %7s\n", width, clip(c.ID, width), c.Status, stop, in, out)
	}
}

// usageTokens returns the first of the usage counts that is present.
func usageTokens(usage map[string]int, names ...string) string {
	for _, n := range names {
		if v, ok := usage[n]; ok {
			return fmt.Sprint(v)
		}
	}
	return "-"
}

// printVariation prints, per input, how the samples differ; nothing with one sample each.
func printVariation(w io.Writer, vs []record.Variation) {
	multi := false
	for _, v := range vs {
		multi = multi || v.Samples > 1
	}
	if !multi {
		return
	}
	fmt.Fprintf(w, "\nvariation between samples of the same input (stop! marks truncation; cover and bound: min-max of eval's scores)\n")
	for _, v := range vs {
		fmt.Fprintf(w, "\n%s: %s, %s, %d truncated, %d empty\n", v.Source, plural(v.Samples, "sample"), plural(v.DistinctResponses, "distinct answer"), v.Truncated, v.Empty)
		fmt.Fprintf(w, "  %-12s %8s %7s %11s %11s\n", "extractor", "distinct", "found", "cover", "bound")
		for _, e := range v.Extractors {
			fmt.Fprintf(w, "  %-12s %8d %7s %11s %11s\n", e.Extractor, e.Distinct, fmt.Sprintf("%d/%d", e.Found, e.Found+e.NotFound), spreadText(e.Coverage), spreadText(e.BoundaryCoverage))
		}
	}
}

func spreadText(s record.Spread) string {
	if s.Min == nil {
		return "-"
	}
	if *s.Min == *s.Max {
		return fmt.Sprintf("%.2f", *s.Min)
	}
	return fmt.Sprintf("%.2f-%.2f", *s.Min, *s.Max)
}
