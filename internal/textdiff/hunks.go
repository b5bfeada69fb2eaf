package textdiff

import "github.com/sergi/go-diff/diffmatchpatch"

// Edit is one run of a diff: Op is "=" (in both texts), "-" (the first only) or "+" (the
// second only).
type Edit struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// Edits returns go-diff's diffs as runs, in the same order and with the same texts; nil
// for no diffs.
func Edits(diffs []diffmatchpatch.Diff) []Edit {
	var out []Edit
	for _, d := range diffs {
		op := "="
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = "-"
		case diffmatchpatch.DiffInsert:
			op = "+"
		}
		out = append(out, Edit{Op: op, Text: d.Text})
	}
	return out
}

// Line is one line of a word diff: Kind is ' ' (the same in both texts), '-' (the first
// only), '+' (the second only) or '!' (words changed within it).
type Line struct {
	Kind byte
	Runs []Edit
}

// NewLine returns the line that runs make, adjacent runs of one op joined. brk is the op
// of the line break that ends the line when only one text has it, "" otherwise; it counts
// as a change. A line is '-' or '+' when all its changes are of that op and none of its
// "=" runs is shared, by the caller's measure: review counts every "=" run, abtest only
// those with more than white space, so that a re-indented line still reads as added.
func NewLine(runs []Edit, brk string, shared func(text string) bool) Line {
	l := Line{Kind: ' '}
	ins, del, eq := brk == "+", brk == "-", false
	for _, r := range runs {
		switch r.Op {
		case "+":
			ins = true
		case "-":
			del = true
		default:
			eq = eq || shared(r.Text)
		}
		if n := len(l.Runs); n > 0 && l.Runs[n-1].Op == r.Op {
			l.Runs[n-1].Text += r.Text
			continue
		}
		l.Runs = append(l.Runs, r)
	}
	switch {
	case ins && !del && !eq:
		l.Kind = '+'
	case del && !ins && !eq:
		l.Kind = '-'
	case ins || del:
		l.Kind = '!'
	}
	return l
}

// Hunk is a run of lines around changes; Skipped counts the unchanged lines left out
// before it.
type Hunk[L any] struct {
	Skipped int
	Lines   []L
}

// Hunks keeps ctx unchanged lines around each line that changed reports, and groups the
// kept lines into hunks. Unchanged lines after the last hunk are dropped without a count.
// Hunks returns nil when no line changed.
func Hunks[L any](lines []L, changed func(L) bool, ctx int) []Hunk[L] {
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if changed(l) {
			for j := max(0, i-ctx); j <= min(len(lines)-1, i+ctx); j++ {
				keep[j] = true
			}
		}
	}
	var out []Hunk[L] // nil when nothing is kept
	skipped := 0
	for i, l := range lines {
		if !keep[i] {
			skipped++
			continue
		}
		if len(out) == 0 || skipped > 0 {
			out = append(out, Hunk[L]{Skipped: skipped})
			skipped = 0
		}
		h := &out[len(out)-1]
		h.Lines = append(h.Lines, l)
	}
	return out
}
