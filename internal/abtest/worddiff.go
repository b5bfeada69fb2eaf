package abtest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Run is a run of a word diff: Op is "=" (both summaries), "-" (base only) or "+" (head
// only).
type Run = textdiff.Edit

// DiffLine is a line of a word diff: Kind is ' ' (the same in both), '-' (base only), '+'
// (head only) or '!' (words changed within it).
type DiffLine struct {
	textdiff.Line
}

// Text returns the line with changed words marked as the plain review marks them:
// [-base only-] and {+head only+}.
func (l DiffLine) Text() string {
	var b strings.Builder
	for _, r := range l.Runs {
		switch {
		case l.Kind != '!' || r.Op == "=":
			b.WriteString(r.Text)
		case r.Op == "-":
			b.WriteString("[-" + r.Text + "-]")
		default:
			b.WriteString("{+" + r.Text + "+}")
		}
	}
	return b.String()
}

// Hunk is a run of diff lines around changes; Skipped counts the unchanged lines left out
// before it.
type Hunk = textdiff.Hunk[DiffLine]

// WordDiff returns the word diff of base's and head's summary as hunks with ctx unchanged
// lines around each changed one: go-diff (no timeout, so the result does not change with
// load) on the texts cut into words, runs of spaces and line breaks, so that a changed
// word shows whole. Lines end at "\n" only, and an "=" run of white space alone does not
// keep a line from reading as added or removed. It returns nil when the summaries are the
// same.
func WordDiff(base, head string, ctx int) []Hunk {
	if base == head {
		return nil
	}
	var lines []DiffLine
	var cur []Run
	end := func() {
		lines = append(lines, DiffLine{textdiff.NewLine(cur, "", notBlank)})
		cur = nil
	}
	for _, e := range textdiff.Edits(words(base, head)) {
		parts := strings.Split(e.Text, "\n")
		for j, p := range parts {
			if p != "" {
				cur = append(cur, Run{Op: e.Op, Text: p})
			}
			if j < len(parts)-1 {
				if len(cur) == 0 && e.Op != "=" {
					cur = append(cur, Run{Op: e.Op}) // an empty line only one side has
				}
				end()
			}
		}
	}
	if len(cur) > 0 {
		end()
	}
	return textdiff.Hunks(lines, func(l DiffLine) bool { return l.Kind != ' ' }, ctx)
}

func notBlank(s string) bool { return strings.TrimSpace(s) != "" }

// words diffs a and b token by token: each distinct word, run of blanks or line break
// stands for one rune, go-diff compares the runes, and the runs are mapped back.
func words(a, b string) []diffmatchpatch.Diff {
	ids := map[string]rune{}
	var tokens []string
	encode := func(s string) []rune {
		var out []rune
		for len(s) > 0 {
			n := tokenLen(s)
			t := s[:n]
			id, ok := ids[t]
			if !ok {
				id = rune(0x10000 + len(tokens)) // past the BMP: no clash with cleanup heuristics
				ids[t] = id
				tokens = append(tokens, t)
			}
			out = append(out, id)
			s = s[n:]
		}
		return out
	}
	ra, rb := encode(a), encode(b)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	diffs := dmp.DiffMainRunes(ra, rb, false)
	for i, d := range diffs {
		var t strings.Builder
		for _, r := range d.Text {
			t.WriteString(tokens[r-0x10000])
		}
		diffs[i].Text = t.String()
	}
	return diffs
}

// tokenLen returns the length of the token s begins with: a line break, a run of other
// white space, or a run of anything else.
func tokenLen(s string) int {
	if s[0] == '\n' {
		return 1
	}
	r, size := utf8.DecodeRuneInString(s)
	space := unicode.IsSpace(r)
	n := size
	for n < len(s) && s[n] != '\n' {
		r, size := utf8.DecodeRuneInString(s[n:])
		if unicode.IsSpace(r) != space {
			break
		}
		n += size
	}
	return n
}
