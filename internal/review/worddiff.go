package review

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/compacteval/compacteval/internal/textdiff"
)

// Edit is one run of a word diff: Op is "=" (in both texts), "-" (base only) or "+" (head
// only).
type Edit = textdiff.Edit

// WordDiff returns the word-level differences of base and head (go-diff with semantic
// cleanup and no timeout, so the result does not change with load). Joining the "=" and
// "-" runs gives base, the "=" and "+" runs head. If base == head, WordDiff returns nil.
func WordDiff(base, head string) []Edit {
	if base == head {
		return nil
	}
	return textdiff.Edits(textdiff.Words(base, head))
}

// changes returns the runs of a diff that are not "=", for telling diffs with the same
// changes apart from those with other ones.
func changes(edits []Edit) []Edit {
	var out []Edit
	for _, e := range edits {
		if e.Op != "=" {
			out = append(out, e)
		}
	}
	return out
}

func sameEdits(a, b []Edit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lineBreakMark stands for a line break that only one side has.
const lineBreakMark = "↵"

// wordLine is one line of a word diff as a reviewer reads it. Kind is ' ' (unchanged), '-'
// (the whole line is base only), '+' (head only) or '!' (changed words within the line).
// Break is the op of the line break that ends the line when only one side has it ("-" or
// "+"), "" otherwise. No is the line's number in head, or in base for a '-' line.
type wordLine struct {
	textdiff.Line
	No    int
	Break string
}

// wordLines splits a word diff into lines: a line ends at every line terminator of either
// side ("\n", "\r\n", a lone "\r", NEL, U+2028, U+2029), so a run that spans lines is cut
// at its line terminators. Invisible characters are named
// (visible); adjacent runs of one op are joined.
func wordLines(edits []Edit) []wordLine {
	var lines []wordLine
	var cur []Edit
	baseNo, headNo := 1, 1
	end := func(brk string) {
		l := wordLine{Line: textdiff.NewLine(cur, brk, everyRun), Break: brk}
		l.No = headNo
		if l.Kind == '-' {
			l.No = baseNo
		}
		lines = append(lines, l)
		cur = nil
	}
	for i, e := range edits {
		parts := splitLines(e.Text)
		for j, p := range parts {
			body, term := cutTerminator(p)
			if term == "\r" && j == len(parts)-1 && crlfSplit(edits, i) {
				body, term = p, "" // the "\n" of this CRLF opens the next run
			}
			// A terminator other than "\n" stays in the line, named by visible.
			if text := body + strings.TrimSuffix(term, "\n"); text != "" {
				cur = append(cur, Edit{Op: e.Op, Text: visible(text)})
			}
			if term == "" {
				continue
			}
			brk := ""
			if e.Op != "=" {
				brk = e.Op
			}
			end(brk)
			if e.Op != "+" {
				baseNo++
			}
			if e.Op != "-" {
				headNo++
			}
		}
	}
	if len(cur) > 0 {
		end("")
	}
	return lines
}

// crlfSplit reports whether the run that follows edits[i] on one of its sides begins with
// "\n", so that a "\r" ending edits[i] is the first half of a CRLF that the diff split.
func crlfSplit(edits []Edit, i int) bool {
	for _, next := range edits[i+1:] {
		if edits[i].Op == "=" || next.Op == "=" || next.Op == edits[i].Op {
			return strings.HasPrefix(next.Text, "\n")
		}
	}
	return false
}

// cutTerminator splits a part of splitLines into its text and its line terminator ("" for
// a last part without one).
func cutTerminator(p string) (body, term string) {
	for _, t := range []string{"\r\n", "\n", "\r", "\u0085", "\u2028", "\u2029"} {
		if b, ok := strings.CutSuffix(p, t); ok {
			return b, t
		}
	}
	return p, ""
}

// plain returns the text of a line without its marks.
func (l wordLine) plain() string {
	var b strings.Builder
	for _, r := range l.Runs {
		b.WriteString(r.Text)
	}
	return b.String()
}

// marked returns the runs of a '!' line with its changed line break as a run of its own.
func (l wordLine) marked() []Edit {
	if l.Break == "" {
		return l.Runs
	}
	runs := append([]Edit{}, l.Runs...)
	if n := len(runs); n > 0 && runs[n-1].Op == l.Break {
		runs[n-1].Text += lineBreakMark
		return runs
	}
	return append(runs, Edit{Op: l.Break, Text: lineBreakMark})
}

// hunks keeps ctx unchanged lines around each changed line. It returns nil when no line
// changed.
func hunks(lines []wordLine, ctx int) []textdiff.Hunk[wordLine] {
	return textdiff.Hunks(lines, func(l wordLine) bool { return l.Kind != ' ' }, ctx)
}

// everyRun counts every "=" run as shared, for textdiff.NewLine: a line with any text in
// both is '!', not '+' or '-'.
func everyRun(string) bool { return true }

// visible returns s with every character that would not be seen named in angle brackets,
// as report.html names them: ⟨CR⟩, ⟨NBSP⟩, ⟨U+200B⟩, ⟨\xFF⟩ for a byte that is not UTF-8.
// Tabs and plain spaces stay.
func visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		name := ""
		switch {
		case r == utf8.RuneError && size == 1:
			name = fmt.Sprintf(`\x%02X`, s[i])
		case r == '\t' || r == ' ':
		case r == '\r':
			name = "CR"
		case r == 0x85:
			name = "NEL"
		case r == 0xA0:
			name = "NBSP"
		case r == 0xFEFF:
			name = "BOM"
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zs, r),
			unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
			name = fmt.Sprintf("U+%04X", r)
		}
		if name != "" {
			b.WriteString("⟨" + name + "⟩")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func splitLines(s string) []string { return textdiff.SplitLines(s) }
