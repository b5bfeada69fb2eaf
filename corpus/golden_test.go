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

	// Fields change: cmp.Diff names them.
	lost := compact.Extraction{Path: compact.PathNone}
	d = GoldenDiff(old, lost)
	for _, want := range []string{"ok, path:\n", "OK:", "-", "true", "false", "Path:", "-\"one\"\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("GoldenDiff(lost summary) lacks %q:\n%s", want, d)
		}
	}
}
