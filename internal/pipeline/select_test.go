package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/report"
)

func TestRunSelect(t *testing.T) {
	full := options(t, corpusDir, 1)
	opt := options(t, corpusDir, 1)
	opt.Select = &report.Selection{Run: "^fenced/", Categories: []string{"fenced"}}
	r, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Selection == nil || r.Selection.Cases != len(r.Cases) || r.Selection.Of != len(full.Corpus.Cases) {
		t.Fatalf("Run(-run ^fenced/).Selection = %+v, want %d cases of %d", r.Selection, len(r.Cases), len(full.Corpus.Cases))
	}
	if len(r.Cases) == 0 || len(r.Cases) >= len(full.Corpus.Cases) {
		t.Fatalf("Run(-run ^fenced/) ran %d cases, want some of the %d", len(r.Cases), len(full.Corpus.Cases))
	}
	for _, c := range r.Cases {
		if !strings.HasPrefix(c.ID, "fenced/") {
			t.Errorf("Run(-run ^fenced/) ran %s", c.ID)
		}
	}
	if got, want := r.Corpus.SHA256, full.Corpus.Digest(); got != want {
		t.Errorf("Run(selection).Corpus.SHA256 = %s, want the whole corpus's %s (the gate compares corpora, not selections)", got, want)
	}
	if !r.Complete {
		t.Errorf("Run(selection).Complete = false, want true: every stage ran on the selection")
	}

	opt.Select = &report.Selection{Run: "^well-formed/"}
	r, err = Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range r.Drift.Pairs {
		if !strings.HasPrefix(id, "well-formed/") {
			t.Errorf("the drift matrix of -run ^well-formed/ mutates %s", id)
		}
	}
	if len(r.Drift.Pairs) == 0 {
		t.Errorf("the drift matrix of -run ^well-formed/ mutates no case")
	}

	for _, tc := range []struct {
		sel  report.Selection
		want string
	}{
		{report.Selection{Run: "no-case-is-called-this"}, "matches none of the"},
		{report.Selection{Run: "a("}, "bad -run pattern"},
		{report.Selection{Categories: []string{"truncted", "eval"}}, "no case has category truncted (did you mean truncated?)"},
	} {
		opt.Select = &tc.sel
		if _, err := Run(context.Background(), opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%+v) error = %v, want one saying %q", tc.sel, err, tc.want)
		}
	}
}
