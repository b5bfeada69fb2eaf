package corpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFormatNotesRoundTrip checks the folded notes with text that folding could damage.
func TestFormatNotesRoundTrip(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, notes := range []string{
		"short",
		strings.TrimSpace(long),
		strings.TrimSpace(strings.Repeat("two  spaces ", 20)),
		strings.Repeat("x", 300) + " tail " + strings.Repeat("y", 200),
		"# not a comment " + strings.TrimSpace(long) + " - not a list: 'quotes' \"and\" `ticks` <summary>",
		strings.TrimSpace(long) + " \u00a0nbsp",
		" leading " + long,
	} {
		c := &Case{Version: 1, ID: "well-formed/x", Title: "t", Categories: []string{"well-formed"}, Notes: notes,
			Origin: Origin{Kind: "synthetic"}, Response: "r", Intended: Intended{Found: true, Summary: "r"}}
		out, err := Format(c)
		if err != nil {
			t.Fatalf("Format: %v", err)
		}
		back, err := Parse("x.yaml", out, "well-formed/x")
		if err != nil {
			t.Fatalf("Parse(Format(notes %q)): %v\n%s", notes, err, out)
		}
		if diff := cmp.Diff(c.Notes, back.Notes); diff != "" {
			t.Errorf("notes changed in a round trip (-want +got):\n%s\n%s", diff, out)
		}
		if notes == strings.TrimSpace(long) {
			for _, line := range strings.Split(string(out), "\n") {
				if len(line) > len("  ")+proseWidth {
					t.Errorf("folded line longer than %d: %q", proseWidth, line)
				}
			}
		}
	}
}

// TestComments finds every comment at its line, and none inside a literal block.
func TestComments(t *testing.T) {
	in := "# top\n\nversion: 1 # after a value\n# before a key\nid: x\nresponse: |-\n  # not a comment\n  body\nintended:\n  found: true\n  # foot of a mapping\n# end\n"
	var got []int
	for _, p := range Comments("c.yaml", []byte(in)) {
		got = append(got, p.Line)
	}
	if want := []int{1, 3, 4, 11, 12}; !slices.Equal(got, want) {
		t.Errorf("Comments lines = %v, want %v", got, want)
	}
	if ps := Comments("c.yaml", []byte("version: 1\nresponse: \"# no\"\n")); len(ps) != 0 {
		t.Errorf("Comments of a file without any = %v", ps)
	}
}
