package schema

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/fuzz"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/pipeline"
	"github.com/compacteval/compacteval/report"
)

// TestReports: reports/baseline.json and the report.json the pipeline writes on the
// embedded corpus (whole, without drift and eval, and with a short fuzz run that finds
// failures) match report.schema.json.
func TestReports(t *testing.T) {
	s := compiled(t)
	baseline := root + "/reports/baseline.json"
	data, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ValidateJSON("report", baseline, data); err != nil {
		t.Errorf("the baseline breaks report.schema.json:\n%v", err)
	}

	c, err := corpus.Open(nil)
	if err != nil {
		t.Fatal(err)
	}
	seed := extractor.Builtins()[0]
	if seed.Name != "seed" {
		t.Fatalf("the first built-in extractor is %s, want seed", seed.Name)
	}
	for _, tc := range []struct {
		name string
		opt  pipeline.Options
	}{
		{"every stage", pipeline.Options{Corpus: c, Extractors: extractor.Builtins(), DriftSeed: 1, DriftN: 5}},
		{"no drift, no eval", pipeline.Options{Corpus: c, Extractors: extractor.Builtins(), SkipEval: true}},
		{"fuzz", pipeline.Options{Corpus: c, Extractors: []*extractor.Extractor{seed}, SkipEval: true,
			Fuzz: &fuzz.Options{Batches: 1, Seed: 1, Size: 256, Examples: 1, MinimizeBudget: 50}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := pipeline.Run(context.Background(), tc.opt)
			if err != nil {
				t.Fatalf("pipeline.Run() error: %v", err)
			}
			if tc.opt.Fuzz != nil && (len(r.Fuzz) == 0 || len(r.Fuzz[0].Examples) == 0 || len(r.Fuzz[0].Timings) == 0) {
				t.Fatalf("the fuzz run found no failure of seed: the report does not hold every field")
			}
			data, err := report.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.ValidateJSON("report", "report.json", data); err != nil {
				t.Errorf("the pipeline's report breaks report.schema.json:\n%v", err)
			}
		})
	}
}

// TestReportRejects: reports that the schema must refuse, each named by line.
func TestReportRejects(t *testing.T) {
	s := compiled(t)
	data, err := os.ReadFile(root + "/reports/baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, tc := range []struct {
		reason   string
		old, new string
		line     int    // of the problem; 0: the line of old
		msg      string // in the problem
	}{
		{"an unknown field", `"complete": true,`, `"complete": true, "completed": true,`, 0, "additional properties 'completed'"},
		{"a string for a count", `"load_problems": 0`, `"load_problems": "0"`, 0, "got string, want integer"},
		{"no stages", `"stages": [`, `"stagez": [`, 1, "missing property 'stages'"},
		{"a share object without its value", `"value": null`, `"valeu": null`, 0, "additional properties 'valeu'"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			if !strings.Contains(doc, tc.old) {
				t.Fatalf("the baseline has no %q", tc.old)
			}
			bad := strings.Replace(doc, tc.old, tc.new, 1)
			line := tc.line
			if line == 0 {
				line = 1 + strings.Count(doc[:strings.Index(doc, tc.old)], "\n")
			}
			err := s.ValidateJSON("report", "report.json", []byte(bad))
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("ValidateJSON(%s) = %v, want problems", tc.reason, err)
			}
			found := false
			for _, p := range ps {
				found = found || p.Line == line && strings.Contains(p.Msg, tc.msg)
			}
			if !found {
				t.Errorf("no problem at report.json:%d saying %q:\n%v", line, tc.msg, err)
			}
		})
	}
}
