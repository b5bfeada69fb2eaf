package review

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWordDiffRebuildsBothTexts(t *testing.T) {
	for _, tc := range []struct {
		name, base, head string
	}{
		{name: "word inserted in a line", base: "a b\nc d\n", head: "a x b\nc d\n"},
		{name: "line inserted", base: "one\nthree\n", head: "one\ntwo\nthree\n"},
		{name: "line removed at the end", base: "one\ntwo", head: "one"},
		{name: "everything new", base: "", head: "all\nnew\n"},
		{name: "line endings", base: "a\r\nb\r\n", head: "a\nb\n"},
	} {
		edits := WordDiff(tc.base, tc.head)
		var b, h strings.Builder
		for _, e := range edits {
			if e.Op != "+" {
				b.WriteString(e.Text)
			}
			if e.Op != "-" {
				h.WriteString(e.Text)
			}
		}
		if b.String() != tc.base || h.String() != tc.head {
			t.Errorf("%s: WordDiff(%q, %q) rebuilds %q and %q", tc.name, tc.base, tc.head, b.String(), h.String())
		}
	}
	if got := WordDiff("same", "same"); got != nil {
		t.Errorf("WordDiff of equal texts = %v, want nil", got)
	}
}

func TestWordLines(t *testing.T) {
	for _, tc := range []struct {
		name       string
		base, head string
		want       []string // each line as kind, number and marked text
		reason     string
	}{
		{
			name: "words within a line", base: "first\nThe notice.\nlast\n", head: "first\nThe notice. Only the tail.\nlast\n",
			want:   []string{"  1 first", "! 2 The notice.{+ Only the tail.+}", "  3 last"},
			reason: "a change inside a line marks the words, not the line",
		},
		{
			name: "a whole line added", base: "one\nthree\n", head: "one\ntwo\nthree\n",
			want:   []string{"  1 one", "+ 2 two", "  3 three"},
			reason: "a line only head has is a + line without marks; numbers are head's",
		},
		{
			name: "a whole line removed", base: "one\ntwo\nthree\n", head: "one\nthree\n",
			want:   []string{"  1 one", "- 2 two", "  2 three"},
			reason: "a - line carries base's number",
		},
		{
			name: "other line terminators", base: "a\u0085b\u2028c\rd", head: "a\u0085b\u2028c\rd!",
			want:   []string{"  1 a⟨NEL⟩", "  2 b⟨U+2028⟩", "  3 c⟨CR⟩", "! 4 d{+!+}"},
			reason: "every line terminator ends a line, and is named",
		},
		{
			name: "an invisible change", base: "x\r\ny\n", head: "x\ny\n",
			want:   []string{"! 1 x[-⟨CR⟩-]", "  2 y"},
			reason: "a removed CR is named, not left invisible",
		},
		{
			name: "a CR added before a line feed", base: "x\ny\n", head: "x\r\ny\n",
			want:   []string{"! 1 x{+⟨CR⟩+}", "  2 y"},
			reason: "a CRLF that the diff splits into two runs still ends one line",
		},
	} {
		var got []string
		for _, l := range wordLines(WordDiff(tc.base, tc.head)) {
			got = append(got, string(l.Kind)+" "+strconv.Itoa(l.No)+" "+marked(l))
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: wordLines mismatch (-want +got), %s:\n%s", tc.name, tc.reason, diff)
		}
	}
}

func marked(l wordLine) string {
	if l.Kind == '+' || l.Kind == '-' {
		return l.plain()
	}
	var b strings.Builder
	for _, r := range l.marked() {
		switch r.Op {
		case "-":
			b.WriteString("[-" + r.Text + "-]")
		case "+":
			b.WriteString("{+" + r.Text + "+}")
		default:
			b.WriteString(r.Text)
		}
	}
	return b.String()
}

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"a\tb c":       "a\tb c",
		"x\r":          "x⟨CR⟩",
		"\ufeffhi":     "⟨BOM⟩hi",
		"a\u00a0b":     "a⟨NBSP⟩b",
		"zero\u200bw":  "zero⟨U+200B⟩w",
		"bad\xffbyte":  `bad⟨\xFF⟩byte`,
		"line\u2028ls": "line⟨U+2028⟩ls",
	} {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGroupName(t *testing.T) {
	for i, want := range map[int]string{0: "A", 25: "Z", 26: "AA", 27: "AB", 52: "BA"} {
		if got := groupName(i); got != want {
			t.Errorf("groupName(%d) = %q, want %q", i, got, want)
		}
	}
}
