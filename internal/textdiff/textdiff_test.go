package textdiff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\nb\n", []string{"a\n", "b\n"}},
		{"a\r\nb\rc", []string{"a\r\n", "b\r", "c"}},
		{"a\u0085b\u2028c\u2029", []string{"a\u0085", "b\u2028", "c\u2029"}},
		{"\r\r\n", []string{"\r", "\r\n"}},
	} {
		got := SplitLines(tc.in)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("SplitLines(%q) mismatch (-want +got):\n%s", tc.in, diff)
		}
		if strings.Join(got, "") != tc.in {
			t.Errorf("SplitLines(%q) does not rebuild its input", tc.in)
		}
	}
}

func TestUnified(t *testing.T) {
	if d := Unified("same", "same", 3); d != "" {
		t.Errorf("Unified of equal texts = %q, want empty", d)
	}
	d := Unified("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nd\nE\nf\ng\n", 1)
	for _, want := range []string{"-\"e\"", "+\"E\"", "@@"} {
		if !strings.Contains(d, want) {
			t.Errorf("Unified lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "\"a\"") {
		t.Errorf("Unified with 1 line of context keeps line a:\n%s", d)
	}
}
