package corpus

import (
	"strings"
	"testing"

	"github.com/compacteval/compacteval/compact"
)

func TestGoldenRoundTrip(t *testing.T) {
	for _, e := range []compact.Extraction{
		{Summary: "a\r\nb\u2028c\n", OK: true, Path: compact.PathLineAnchored},
		{Summary: "", OK: false, Path: compact.PathNone},
		{Summary: "--- summary\nx", OK: true, Path: compact.PathWhole},
	} {
		back, err := ParseGolden(FormatGolden(e))
		if err != nil || back != e {
			t.Errorf("ParseGolden(FormatGolden(%+v)) = %+v, %v", e, back, err)
		}
	}
}

func TestGoldenDiff(t *testing.T) {
	old := compact.Extraction{Summary: "one\ntwo\nthree", OK: true, Path: compact.PathLineAnchored}
	if d := GoldenDiff(old, old); d != "" {
		t.Errorf("GoldenDiff of equal extractions = %q, want empty", d)
	}

	// Same fields, different text: only a line diff.
	changed := old
	changed.Summary = "one\nTWO\nthree"
	d := GoldenDiff(old, changed)
	for _, want := range []string{"summary:\n", "-\"two\"\n", "+\"TWO\"\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("GoldenDiff(text change) lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "ok, path") {
		t.Errorf("GoldenDiff(text change) reports field changes:\n%s", d)
	}

	// Fields change: a line diff names them, then the summary's lines.
	lost := compact.Extraction{Path: compact.PathNone}
	want := "ok, path:\n" +
		"-\"OK: true\"\n-\"Path: line-anchored\"\n+\"OK: false\"\n+\"Path: none\"\n" +
		"summary:\n-\"one\"\n-\"two\"\n-\"three\"\n\\ no newline at end\n"
	if d := GoldenDiff(old, lost); d != want {
		t.Errorf("GoldenDiff(lost summary) =\n%s\nwant\n%s", d, want)
	}
}

// TestDeviationFamily: an entry under an agent without a version covers each version the
// case does not list by name, and is stale for a version that returns the intended summary.
func TestDeviationFamily(t *testing.T) {
	c := &Case{File: "x.yaml", Response: "only prose", Intended: Intended{Found: true, Summary: "only prose"},
		KnownDeviations: map[string]string{"claude-code": "refuses an answer without tags", "windmill@67ef1eb": "own"}}
	for _, tt := range []struct {
		name, want string
		listed     bool
	}{
		{name: "claude-code@2.1.332", want: "refuses an answer without tags", listed: true},
		{name: "claude-code@2.1.88", want: "refuses an answer without tags", listed: true},
		{name: "windmill@67ef1eb", want: "own", listed: true},
		{name: "windmill@10cd0dc", listed: false},
		{name: "seed", listed: false},
	} {
		if got, listed := c.Deviation(tt.name); got != tt.want || listed != tt.listed {
			t.Errorf("Deviation(%q) = %q, %v; want %q, %v", tt.name, got, listed, tt.want, tt.listed)
		}
	}
	var exs []compact.Extractor
	for _, name := range []string{"claude-code@2.1.88", "claude-code@2.1.332"} {
		ex, _ := compact.Lookup(name)
		exs = append(exs, ex)
	}
	ps := CheckDeviations(c, exs)
	if len(ps) != 1 || !strings.Contains(ps[0].Msg, "known_deviations.claude-code covers claude-code@2.1.88, but it returns the intended summary") {
		t.Errorf("CheckDeviations() = %v, want one problem: the family entry is stale for claude-code@2.1.88", ps)
	}
}
