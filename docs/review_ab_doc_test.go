package docs

import (
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestReviewABTranscript checks that the transcript in review-ab.md is what
// review_ab.txtar's run prints: each line of its stderr and of its Markdown (cut where
// the doc says "...") is a line of the script's expected outputs.
func TestReviewABTranscript(t *testing.T) {
	doc, err := os.ReadFile("review-ab.md")
	if err != nil {
		t.Fatal(err)
	}
	script, err := txtar.ParseFile("../cmd/compacteval/testdata/script/review_ab.txtar")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]bool{}
	for _, f := range script.Files {
		lines := map[string]bool{}
		for _, l := range strings.Split(string(f.Data), "\n") {
			lines[l] = true
		}
		want[f.Name] = lines
	}
	block := func(open, close string) []string {
		t.Helper()
		text := string(doc)
		i := strings.Index(text, open)
		if i < 0 {
			t.Fatalf("review-ab.md has no %q block", open)
		}
		text = text[i+len(open):]
		return strings.Split(text[:strings.Index(text, close)], "\n")
	}
	for _, c := range []struct {
		open, close, file string
	}{
		{open: "````markdown\n", close: "\n````\n", file: "want/no-current-work.md"},
		{open: "```console\n$ compacteval review -base-file seed/compaction.ts -head-file seed/no-current-work.ts", close: "\n```\n", file: "want/no-current-work.stderr"},
	} {
		lines, ok := want[c.file]
		if !ok {
			t.Fatalf("review_ab.txtar has no %s", c.file)
		}
		n := 0
		for _, l := range block(c.open, c.close) {
			if l == "" || l == "..." || strings.HasPrefix(l, "    ") || strings.HasSuffix(l, `\`) {
				continue // the command line, continued
			}
			n++
			if !lines[l] {
				t.Errorf("review-ab.md's transcript has a line that %s does not:\n%s", c.file, l)
			}
		}
		if n < 5 {
			t.Errorf("review-ab.md's transcript of %s has %d lines, want the run's", c.file, n)
		}
	}
}
