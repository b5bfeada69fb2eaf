package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/extractor"
	"github.com/compacteval/compacteval/internal/gate"
)

// TestBuildPathOnly rewrites two of robust's goldens: one records another path with the
// same summary (a path change, not a behaviour change), the other another summary.
func TestBuildPathOnly(t *testing.T) {
	tmp := t.TempDir()
	ids := []string{"well-formed/go-grpc-retry-deadline", "duplicated/three-blocks-ci-sharding"}
	for _, id := range ids {
		copyFile(t, filepath.Join(corpusDir, id+".yaml"), filepath.Join(tmp, "cases", id+".yaml"))
		copyFile(t, corpus.GoldenPath(goldenDir, "robust", id), corpus.GoldenPath(filepath.Join(tmp, "golden"), "robust", id))
	}
	rewrite := func(id string, edit func(string) string) {
		t.Helper()
		p := corpus.GoldenPath(filepath.Join(tmp, "golden"), "robust", id)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(edit(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rewrite(ids[0], func(s string) string { return strings.Replace(s, "path: line-anchored\n", "path: loose\n", 1) })
	rewrite(ids[1], func(s string) string { return s + "one more line\n" })

	cs, err := corpus.Open([]string{filepath.Join(tmp, "cases")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Corpus: cs, Extractors: extractor.Builtins(), SkipEval: true})
	if err != nil {
		t.Fatal(err)
	}
	type fact struct {
		golden, goldenPath string
		pathOnly           bool
	}
	want := map[string]fact{
		ids[0]: {golden: "mismatch", goldenPath: "loose", pathOnly: true},
		ids[1]: {golden: "mismatch", goldenPath: "block", pathOnly: false},
	}
	for _, c := range r.Cases {
		for _, res := range c.Results {
			if res.Extractor != "robust" {
				if res.GoldenPath != "" || res.PathOnly {
					t.Errorf("%s %s: golden path %q, path only %v without a golden", c.ID, res.Extractor, res.GoldenPath, res.PathOnly)
				}
				continue
			}
			got := fact{golden: res.Golden, goldenPath: res.GoldenPath, pathOnly: res.PathOnly}
			if got != want[c.ID] {
				t.Errorf("%s robust = %+v, want %+v", c.ID, got, want[c.ID])
			}
		}
	}
}

// TestReferenceMatchesGateConfig: the extractors the report marks as reference behaviours
// are those whose rates this repository's gate.yaml lets fall entirely.
func TestReferenceMatchesGateConfig(t *testing.T) {
	cfg, err := gate.ReadConfig("../../gate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := corpus.Open([]string{corpusDir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Corpus: cs, Extractors: extractor.Builtins(), SkipEval: true})
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, e := range r.Extractors {
		d, ok := cfg.Extractors[e.Name]
		if !ok { // an entry under a bare name covers every version of that agent
			d, ok = cfg.Extractors[compact.Family(e.Name)]
		}
		ungated := ok && d.IntendedRate != nil && *d.IntendedRate >= 1
		if ungated != (e.Reference != "") {
			t.Errorf("%s: reference %q, but gate.yaml lets its intended rate fall entirely: %v", e.Name, e.Reference, ungated)
		}
		if e.Reference != "" {
			refs = append(refs, e.Name)
		}
	}
	if want := "claude-code@2.1.332 claude-code@2.1.88 plain"; strings.Join(refs, " ") != want {
		t.Errorf("reference extractors = %v, want %s", refs, want)
	}
}
