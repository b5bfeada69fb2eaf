package compact_test

import (
	"os"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/compacteval/compacteval/compact"
	"github.com/compacteval/compacteval/internal/protocol"
)

// fuzzReference returns a client for $COMPACT_REFERENCE, started once per fuzzing process,
// or nil when the variable is unset: the fuzz targets then check properties only.
var fuzzReference = sync.OnceValues(func() (*protocol.Client, error) {
	if os.Getenv(protocol.EnvReference) == "" {
		return nil, nil
	}
	argv, err := protocol.ReferenceCommand(".")
	if err != nil {
		return nil, err
	}
	return protocol.Start(argv)
})

func reference(t *testing.T) *protocol.Client {
	c, err := fuzzReference()
	if err != nil {
		t.Fatalf("start %s: %v", protocol.EnvReference, err)
	}
	return c
}

func addSeeds(f *testing.F) {
	for _, s := range seedTexts(f) {
		f.Add(s)
	}
}

// go test -run='^$' -fuzz='^FuzzExtractSummary$' -fuzztime=30s ./compact
// With COMPACT_REFERENCE='node ../../shared/reference/reference.mjs' every input is also
// compared with the reference.
func FuzzExtractSummary(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		e := compact.Extract(text)
		if !e.OK {
			if e.Summary != "" {
				t.Fatalf("Extract(%q) = %+v: no summary but a non-empty text", text, e)
			}
		} else {
			from := text
			if e.Path != compact.PathLineAnchored {
				from = compact.RemoveAnalysisBlocks(text)
			}
			if !strings.Contains(from, e.Summary) {
				t.Fatalf("Extract(%q).Summary = %q is not part of the text it was taken from", text, e.Summary)
			}
			if compact.TrimJS(e.Summary) != e.Summary {
				t.Fatalf("Extract(%q).Summary = %q begins or ends with JavaScript whitespace", text, e.Summary)
			}
		}
		if e.Path == compact.PathLineAnchored && !strings.Contains(text, "<summary>") {
			t.Fatalf("Extract(%q) took the line-anchored path without an opener", text)
		}
		if !utf8.ValidString(text) {
			return // the reference cannot receive invalid UTF-8: JSON would replace it
		}
		if ref := reference(t); ref != nil {
			a, err := ref.Do(protocol.Request{Op: "extract", Text: &text})
			if err != nil {
				t.Fatal(err)
			}
			want, wantOK := "", a.Summary != nil
			if wantOK {
				want = *a.Summary
			}
			if e.Summary != want || e.OK != wantOK {
				t.Fatalf("Extract(%q) = (%q, %v), reference (%q, %v)", text, e.Summary, e.OK, want, wantOK)
			}
		}
	})
}

// go test -run='^$' -fuzz='^FuzzBuildInstruction$' -fuzztime=30s ./compact
func FuzzBuildInstruction(f *testing.F) {
	f.Add("manual", "", 0, "")
	f.Add("threshold", "focus on tests", 3, "run the suite")
	f.Add("overflow", " \u3000\n", 1, "\ufeff")
	f.Add("other", "\u0085", -2, "x")
	f.Fuzz(func(t *testing.T, reason, custom string, count int, opening string) {
		opts := compact.Options{Reason: compact.Reason(reason), CustomInstructions: custom, KeptTail: compact.KeptTail{Count: count, Opening: opening}}
		got := compact.BuildInstruction(opts)
		if !strings.HasSuffix(got, "\n"+compact.Instruction+"\n</system-reminder>") {
			t.Fatalf("BuildInstruction(%+v) does not end with the instruction and the closing tag", opts)
		}
		hasCustom := strings.HasPrefix(got, "<system-reminder>\n## Compact Instructions\n")
		if wantCustom := compact.TrimJS(custom) != ""; hasCustom != wantCustom {
			t.Fatalf("BuildInstruction(%+v): custom reminder present = %v, want %v", opts, hasCustom, wantCustom)
		}
		if hasTail := strings.Contains(got, compact.KeptTailNote(opts.KeptTail)+"\n"); hasTail != (count > 0) {
			t.Fatalf("BuildInstruction(%+v): kept-tail note present = %v, want %v", opts, hasTail, count > 0)
		}
		if !utf8.ValidString(reason) || !utf8.ValidString(custom) || !utf8.ValidString(opening) {
			return // not representable in the reference's UTF-16 strings
		}
		if ref := reference(t); ref != nil {
			req := protocol.Request{Op: "instruction", Reason: &reason, CustomInstructions: &custom,
				KeptTail: &protocol.KeptTail{Count: &count, Opening: &opening}}
			a, err := ref.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if a.Text == nil || *a.Text != got {
				t.Fatalf("BuildInstruction(%+v) differs from the reference's %+v", opts, a)
			}
		}
	})
}
